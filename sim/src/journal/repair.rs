//! Repairing a journal that stops the cluster from starting: keep every record before the
//! first damaged line, and keep the whole journal as it was in a copy beside it, so nothing
//! that could not be read is ever thrown away (reliability review 4, D2). Run only while no
//! process serves the state dir.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::replay::{load_snapshot, parse_line, split_lines};
use super::{JOURNAL, JournalError, SNAPSHOT, io};

/// What [`repair_journal`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    /// The records kept in the journal (those before the damage).
    pub kept: usize,
    /// The lines from the damaged one on, left out of the journal.
    pub set_aside: usize,
    /// The first damaged line (1-based).
    pub damaged_line: usize,
    /// The copy of the whole journal as it was.
    pub copy: PathBuf,
}

/// Cuts the journal in `dir` back to the records before its first damaged line, after copying
/// it whole to `journal.jsonl.damaged-<time>`; `None` when every line reads.
pub fn repair_journal(dir: &Path) -> Result<Option<Repaired>, JournalError> {
    // The snapshot's CRDs make the types of the custom resources the journal holds.
    load_snapshot(&dir.join(SNAPSHOT))?;
    let path = dir.join(JOURNAL);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(&path, e)),
    };
    let lines = split_lines(&bytes).lines;
    let Some(bad) = lines.iter().position(|line| parse_line(line).is_err()) else {
        return Ok(None);
    };
    let copy = keep_a_copy(&path, &bytes)?;
    let mut kept = Vec::with_capacity(bytes.len());
    for line in &lines[..bad] {
        kept.extend_from_slice(line);
        kept.push(b'\n');
    }
    crate::private_files::write_private(&path, &kept).map_err(|e| io(&path, e))?;
    Ok(Some(Repaired {
        kept: bad,
        set_aside: lines.len() - bad,
        damaged_line: bad + 1,
        copy,
    }))
}

/// Writes `bytes` to a new file beside `path` whose name no earlier repair took.
fn keep_a_copy(path: &Path, bytes: &[u8]) -> Result<PathBuf, JournalError> {
    let stamp = jiff::Timestamp::now()
        .strftime("%Y%m%dT%H%M%SZ")
        .to_string();
    for attempt in 0..100 {
        let name = match attempt {
            0 => format!("{JOURNAL}.damaged-{stamp}"),
            n => format!("{JOURNAL}.damaged-{stamp}-{n}"),
        };
        let copy = path.with_file_name(name);
        let opened = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&copy);
        let mut file = match opened {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io(&copy, e)),
        };
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|e| io(&copy, e))?;
        return Ok(copy);
    }
    Err(io(
        path,
        std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "too many damaged copies already",
        ),
    ))
}
