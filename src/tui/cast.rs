//! `--record FILE`: the session as an asciicast v2 file (asciinema's format: `asciinema play`
//! and its web player show it). What the tutor writes to the terminal goes to the terminal and,
//! once a frame is flushed, into the file as one output event with its time; a new terminal
//! size is a resize event.

use std::io::{self, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::json;

/// The open recording.
#[derive(Clone)]
pub struct Cast {
    file: Arc<Mutex<io::BufWriter<std::fs::File>>>,
    started: Instant,
}

/// A cast's first line: a terminal `width`×`height` whose recording began at `timestamp`.
pub fn header(
    (width, height): (u16, u16),
    timestamp: jiff::Timestamp,
    title: &str,
    term: &str,
) -> serde_json::Value {
    json!({
        "version": 2,
        "width": width,
        "height": height,
        "timestamp": timestamp.as_second(),
        "title": title,
        "env": {"TERM": term},
    })
}

/// One event line: `kind` (`o` output, `r` resize) with `data`, `at` seconds in, to the
/// microsecond.
pub fn event(at: f64, kind: &str, data: &str) -> serde_json::Value {
    json!([in_micros(at), kind, data])
}

/// Seconds kept to the microsecond, as asciinema writes them.
pub fn in_micros(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

impl Cast {
    /// A new recording at `path` of a terminal `width`×`height`, its header written.
    pub fn create(path: &Path, size: (u16, u16), title: &str) -> io::Result<Cast> {
        let mut file = io::BufWriter::new(std::fs::File::create(path)?);
        let term = std::env::var("TERM").unwrap_or_else(|_| "xterm-256color".into());
        let header = header(size, jiff::Timestamp::now(), title, &term);
        writeln!(file, "{header}")?;
        Ok(Cast {
            file: Arc::new(Mutex::new(file)),
            started: Instant::now(),
        })
    }

    fn event(&self, kind: &str, data: &str) {
        let line = event(self.started.elapsed().as_secs_f64(), kind, data);
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if writeln!(file, "{line}")
            .and_then(|()| file.flush())
            .is_err()
        {
            tracing::warn!("the recording could not be written");
        }
    }

    /// The terminal is `width`×`height` from now on.
    pub fn resized(&self, (width, height): (u16, u16)) {
        self.event("r", &format!("{width}x{height}"));
    }

    /// A writer to the terminal that keeps what it writes in this recording.
    pub fn tee<W: Write>(&self, terminal: W) -> Tee<W> {
        Tee {
            terminal,
            cast: self.clone(),
            pending: Vec::new(),
        }
    }
}

/// The terminal's writer, with a copy of each flushed frame kept in the recording.
pub struct Tee<W: Write> {
    terminal: W,
    cast: Cast,
    pending: Vec<u8>,
}

impl<W: Write> Write for Tee<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.terminal.write(buf)?;
        self.pending.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.terminal.flush()?;
        if !self.pending.is_empty() {
            // A frame is flushed whole, so its characters are whole too.
            let text = String::from_utf8_lossy(&self.pending).into_owned();
            self.cast.event("o", &text);
            self.pending.clear();
        }
        Ok(())
    }
}
