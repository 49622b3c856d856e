//! The learner's files, read and written with care: a write is atomic and keeps a different
//! file that is already there as `<name>.bak` (then `.bak.1`, ...), whatever its bytes; a read
//! takes only a regular file of bounded size, so a FIFO or a huge file can never hang or
//! exhaust the tutor.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The most a learner's file (an evidence file, `tutor.json`) may hold. Evidence is a few
/// hundred bytes; a limit far above that still stops a 24 GB read (reliability-4 H2).
pub const MAX_LEARNER_FILE: u64 = 4 * 1024 * 1024;

/// Why a learner's file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{} is not there", path.display())]
    Missing { path: PathBuf },
    #[error("{} is not a regular file", path.display())]
    NotRegular { path: PathBuf },
    #[error("{} holds {size} bytes, more than the {limit} a lab file may hold", path.display())]
    TooBig {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Why a text file (a lesson's, a template's) was not read.
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Not UTF-8: where the first byte that is not is.
    #[error("{}:{line}:{column}: not UTF-8 text from here on; save the file as UTF-8", path.display())]
    NotText {
        path: PathBuf,
        line: usize,
        column: usize,
    },
}

/// The text of `path`, read as [`read_bounded`] reads; a file that is not UTF-8 is refused with
/// the line and column of its first byte that is not (a Latin-1 `lesson.yaml` was once read as
/// empty, and its lesson silently left out).
pub fn read_text(path: &Path, limit: u64) -> Result<String, TextError> {
    let bytes = read_bounded(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let before = String::from_utf8_lossy(good);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        TextError::NotText {
            path: path.to_path_buf(),
            line,
            column,
        }
    })
}

/// The bytes of `path` if it is a regular file (a symlink to one is fine) of at most `limit`
/// bytes. Opened without blocking, so a FIFO put there after the type check still does not
/// wait for a writer.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    use std::os::unix::fs::OpenOptionsExt;
    let io = |source: std::io::Error| {
        if source.kind() == std::io::ErrorKind::NotFound {
            ReadError::Missing {
                path: path.to_path_buf(),
            }
        } else {
            ReadError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular {
            path: path.to_path_buf(),
        });
    }
    if meta.len() > limit {
        return Err(ReadError::TooBig {
            path: path.to_path_buf(),
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::new();
    // A file that grows while it is read is still cut at the limit.
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooBig {
            path: path.to_path_buf(),
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// Writes `text` to `path`; returns the backup made of a different existing file, if any. Any
/// bytes count as the learner's (a Latin-1 file was once replaced with no backup, reliability-4
/// D4); something there that is not a regular file (a FIFO, a folder) is refused, not replaced.
pub fn write_keeping_backup(path: &Path, text: &str) -> std::io::Result<Option<PathBuf>> {
    let mut backup = None;
    if differs(path, text.as_bytes())? {
        backup = Some(keep_backup(path)?);
    }
    write_atomic(path, text)?;
    Ok(backup)
}

/// Whether a file is at `path` whose bytes are not `bytes`; an error when something else is
/// there. Sizes are compared first, so a huge file is never read to learn it differs.
fn differs(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a regular file; move it away", path.display()),
        ));
    }
    if meta.len() != bytes.len() as u64 {
        return Ok(true);
    }
    Ok(std::fs::read(path)? != bytes)
}

/// Writes `text` to `path` through a temporary file and a rename: readers see the old or the new
/// file, never half of one. The temporary file has a fresh name made with `O_EXCL`, and is
/// removed when the rename fails (a `.tutor.json.tmp<pid>` was once left behind).
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    // A temporary file is private (0600); the learner's file keeps the mode it had, and a new
    // one gets what an ordinary program's would (0644), as before writes went through one.
    let mode = std::fs::metadata(path).map_or(0o644, |m| {
        use std::os::unix::fs::PermissionsExt;
        m.permissions().mode() & 0o7777
    });
    write_with_mode(path, text, mode)
}

/// As [`write_atomic`], readable by its owner alone whatever it was: for the files of a state
/// dir, which another user must not read (issue 32).
pub fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    write_with_mode(path, text, 0o600)
}

fn write_with_mode(path: &Path, text: &str, mode: u32) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}.tmp"))
        .tempfile_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Copies the file at `path` to the first free `<name>.bak`, `.bak.1`, ... The copy is a new
/// file made with `O_EXCL`: a name already taken, even by a link pointing nowhere, is passed
/// over, so a backup never writes through a link someone left there, nor over an older backup.
fn keep_backup(path: &Path) -> std::io::Result<PathBuf> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let mut source = std::fs::File::open(path)?;
    let mode = source.metadata()?.permissions().mode() & 0o777;
    let names = std::iter::once(format!("{name}.bak"))
        .chain((1..).map(|n| format!("{name}.bak.{n}")))
        .map(|n| path.with_file_name(n));
    for bak in names.take(10_000) {
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&bak)
        {
            Ok(mut copy) => {
                std::io::copy(&mut source, &mut copy)?;
                return Ok(bak);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!("{} has 10,000 backups; move some away", path.display()),
    ))
}

#[cfg(test)]
mod tests;
