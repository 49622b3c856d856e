//! The logs the tutor and `sim serve` keep: private files of bounded size, rotated once (the
//! file and `<file>.1`), so a cluster that stays away for a day can no longer fill the disk
//! with its retries (about 86 MB a day before: reliability-4 L3). A line said again and again
//! (a watch retrying an absent cluster, eight a second) is written once and then counted, as
//! syslog's "last message repeated N times" does, so the log keeps what happened before it.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How large a log grows before it is rotated; with the one rotated file, at most twice this.
pub const LOG_LIMIT: u64 = 4 * 1024 * 1024;

/// A log file that starts over in a new file once it holds `limit` bytes, keeping the last
/// one as `<file>.1`.
pub struct Rotating {
    path: PathBuf,
    file: File,
    written: u64,
    limit: u64,
}

impl Rotating {
    /// Opens (appends to) `path` at 0600: a log can name the lab's folders and its errors.
    pub fn open(path: &Path, limit: u64) -> std::io::Result<Rotating> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = open_private(path)?;
        let written = file.metadata()?.len();
        let mut log = Rotating {
            path: path.to_path_buf(),
            file,
            written,
            limit,
        };
        if log.written >= limit {
            log.rotate()?;
        }
        Ok(log)
    }

    fn rotate(&mut self) -> std::io::Result<()> {
        let old = self.path.with_file_name(format!(
            "{}.1",
            self.path
                .file_name()
                .map_or_else(|| "log".into(), |n| n.to_string_lossy())
        ));
        std::fs::rename(&self.path, old)?;
        self.file = open_private(&self.path)?;
        self.written = 0;
        Ok(())
    }
}

fn open_private(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

impl Write for Rotating {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written + buf.len() as u64 > self.limit && self.written > 0 {
            self.rotate()?;
        }
        let n = self.file.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// A writer of log lines that writes a line the same as the one before it (but for its time)
/// only as a count: once another line comes, or every [`SAY_REPEATS_EVERY`] repeats.
pub struct Repeats<W: Write> {
    inner: W,
    /// What has come of a line not yet ended.
    partial: Vec<u8>,
    /// The last line written, without its time.
    last: Vec<u8>,
    repeated: u64,
}

/// A line repeated for ever is still said now and then, so the log shows it goes on.
pub const SAY_REPEATS_EVERY: u64 = 1000;

impl<W: Write> Repeats<W> {
    pub fn new(inner: W) -> Repeats<W> {
        Repeats {
            inner,
            partial: Vec::new(),
            last: Vec::new(),
            repeated: 0,
        }
    }

    fn line(&mut self, line: &[u8]) -> std::io::Result<()> {
        // tracing's lines start with their time: the rest is what is said.
        let said = line
            .iter()
            .position(|b| *b == b' ')
            .map_or(line, |at| &line[at..]);
        if said == self.last.as_slice() {
            self.repeated += 1;
            if self.repeated.is_multiple_of(SAY_REPEATS_EVERY) {
                self.say_repeats()?;
            }
            return Ok(());
        }
        self.say_repeats()?;
        self.last = said.to_vec();
        self.inner.write_all(line)
    }

    fn say_repeats(&mut self) -> std::io::Result<()> {
        if self.repeated > 0 {
            let n = std::mem::take(&mut self.repeated);
            writeln!(self.inner, "  (the line above was said {n} more times)")?;
        }
        Ok(())
    }
}

impl<W: Write> Write for Repeats<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            self.line(&line)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Sends this process's `tracing` to `path` (bounded and rotated, repeats counted), at
/// `CAPA_LOG`'s level or `info`. Logging that cannot start leaves the program running without
/// a log.
pub fn init(path: &Path) {
    let Ok(file) = Rotating::open(path, LOG_LIMIT) else {
        return;
    };
    let _ = tracing_subscriber::fmt()
        .with_writer(std::sync::Mutex::new(Repeats::new(file)))
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("CAPA_LOG")
                .unwrap_or_else(|_| "info".into()),
        )
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A retry said eight times a second while the cluster is away is one line and a count; the
    /// line after it is kept whole, and a repeat that never ends is still said now and then.
    #[test]
    fn a_line_said_again_and_again_is_written_once_and_counted() {
        let mut log = Repeats::new(Vec::new());
        let at = |i: u64| format!("2026-12-04T19:00:{:02}.{i:06}Z", i % 60);
        for i in 0..500 {
            // Written in two pieces, as a writer may.
            write!(log, "{}  WARN capa: the cluster does not ", at(i)).unwrap();
            writeln!(log, "answer").unwrap();
        }
        writeln!(log, "{}  INFO capa: the cluster answers again", at(500)).unwrap();
        let text = String::from_utf8(log.inner.clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].ends_with("WARN capa: the cluster does not answer"));
        assert_eq!(lines[1], "  (the line above was said 499 more times)");
        assert!(lines[2].ends_with("the cluster answers again"));
        for i in 0..2 * SAY_REPEATS_EVERY {
            writeln!(log, "{}  WARN capa: again", at(i)).unwrap();
        }
        let text = String::from_utf8(log.inner).unwrap();
        assert_eq!(
            text.matches(&format!("said {SAY_REPEATS_EVERY} more times"))
                .count(),
            1,
            "{text}"
        );
    }

    #[test]
    fn a_log_is_rotated_once_it_is_full_and_never_grows_past_twice_its_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("capa-tui.log");
        let mut log = Rotating::open(&path, 1000).unwrap();
        let line = [b'x'; 99];
        for _ in 0..500 {
            log.write_all(&line).unwrap();
            log.write_all(b"\n").unwrap();
        }
        log.flush().unwrap();
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        for name in names {
            let len = std::fs::metadata(dir.path().join(&name)).unwrap().len();
            assert!(len <= 1000, "{name}: {len}");
        }
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        // Reopened full, it starts a new file rather than growing the old one.
        std::fs::write(&path, vec![b'y'; 1000]).unwrap();
        drop(Rotating::open(&path, 1000).unwrap());
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
    }
}
