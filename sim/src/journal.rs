//! The state dir's durable form: a snapshot written atomically (private temp file, fsync,
//! rename) plus an append-only journal of changes since it. A change is acknowledged only once
//! its journal line is written whole and synced (`fdatasync`), so a kill -9 or a power cut can
//! at worst leave a torn last line that was never acknowledged, which loading leaves out. A
//! failed append is cut back off the file and refused, so the journal never holds a torn line
//! in its middle; a damaged line anywhere else stops the load (see `replay`, and `repair`).
//! Every file here is the owner's alone (see `private_files`).

mod repair;
mod replay;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde_json::{Value, json};

pub use repair::{Repaired, repair_journal};
use replay::{key_json, load_snapshot, replay_journal};

use super::key::Key;
use crate::private_files;

const SNAPSHOT: &str = "snapshot.json";
const JOURNAL: &str = "journal.jsonl";
const CREDENTIALS: &str = "credentials.json";
/// Fold the journal into a new snapshot after this many records.
const COMPACT_AFTER: usize = 20_000;
/// After a compaction fails (a full disk), try again only after this many more records.
const COMPACT_RETRY_AFTER: usize = 1_000;

#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("cannot use state dir {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "state dir {path} holds a snapshot that is not capa-tui's ({why}); move it away or pick another --state-dir"
    )]
    Foreign { path: PathBuf, why: String },
    #[error(
        "the lab's snapshot {path} is damaged ({why}); nothing was changed. Restore it from a backup, or move the state dir away to start a fresh lab"
    )]
    DamagedSnapshot { path: PathBuf, why: String },
    #[error(
        "the lab's journal {path} is damaged at line {line}: {why}. Nothing was changed and the cluster did not start. `capa-tui sim serve --repair-journal` keeps every change before line {line} and a copy of the whole journal beside it; or move the state dir away to start a fresh lab"
    )]
    Damaged {
        path: PathBuf,
        line: usize,
        why: String,
    },
    #[error(transparent)]
    Unsafe(#[from] private_files::UnsafeFolder),
}

/// One journal line. It carries the cluster time it was written at, so a cluster killed before
/// its next snapshot restarts no earlier than its last change: a sped-up clock runs ahead of the
/// wall, and a restart at the snapshot's older time would see objects from its own future.
pub struct Record(Value);

impl Record {
    pub fn put(rv: u64, key: &Key, object: &Value, at: Timestamp) -> Record {
        Record(json!({"rv": rv, "key": key_json(key), "object": object, "at": at.to_string()}))
    }

    pub fn delete(rv: u64, key: &Key, at: Timestamp) -> Record {
        Record(json!({"rv": rv, "key": key_json(key), "deleted": true, "at": at.to_string()}))
    }
}

/// What loading a state dir found.
#[derive(Default)]
pub struct Loaded {
    pub objects: Vec<(Key, Value)>,
    pub rv: u64,
    pub clock: Option<Timestamp>,
}

pub struct Journal {
    dir: PathBuf,
    file: File,
    /// The journal's length after its last whole record: a failed append is cut back to it.
    whole_len: u64,
    /// A failed append left bytes after `whole_len` that could not be cut off yet.
    needs_cut: bool,
    records: usize,
    compact_at: usize,
    /// Whether each append is synced before it returns. Off while a starting cluster writes
    /// what every start writes again (its bootstrap objects), which are then synced at once.
    sync_each: bool,
}

impl Journal {
    /// Opens (creating if needed, at 0700) the state dir, loads it, and starts a fresh journal
    /// on a new snapshot of what was loaded. A state dir another user owns or may write is
    /// refused; a damaged journal or snapshot stops here, untouched.
    pub fn open(dir: &Path) -> Result<(Journal, Loaded), JournalError> {
        private_files::make_private_dir(dir)?;
        for name in [SNAPSHOT, JOURNAL, CREDENTIALS] {
            let path = dir.join(name);
            private_files::keep_private(&path)?;
        }
        let mut loaded = load_snapshot(&dir.join(SNAPSHOT))?;
        replay_journal(&dir.join(JOURNAL), &mut loaded)?;
        let file = open_append(&dir.join(JOURNAL))?;
        let mut journal = Journal {
            dir: dir.to_path_buf(),
            file,
            whole_len: 0,
            needs_cut: false,
            records: 0,
            compact_at: COMPACT_AFTER,
            sync_each: false,
        };
        let clock = loaded.clock.unwrap_or_else(Timestamp::now);
        journal.compact(loaded.objects.iter().map(|(k, v)| (k, v)), loaded.rv, clock)?;
        Ok((journal, loaded))
    }

    /// Appends one record and syncs it; only then is the change it records acknowledged. On
    /// failure the record's bytes are cut back off, so the next append starts on a whole line.
    pub fn append(&mut self, record: &Record) -> Result<(), JournalError> {
        let path = self.dir.join(JOURNAL);
        if self.needs_cut {
            self.file
                .set_len(self.whole_len)
                .map_err(|e| io(&path, e))?;
            self.needs_cut = false;
        }
        let mut line = serde_json::to_vec(&record.0).map_err(|e| io(&path, e.into()))?;
        line.push(b'\n');
        // One write call per record: a kill can only tear the last line, never interleave.
        let sync_each = self.sync_each;
        let written = self.file.write_all(&line).and_then(|()| {
            if sync_each {
                self.file.sync_data()
            } else {
                Ok(())
            }
        });
        if let Err(e) = written {
            if self.file.set_len(self.whole_len).is_err() {
                self.needs_cut = true;
            }
            return Err(io(&path, e));
        }
        self.whole_len += line.len() as u64;
        self.records += 1;
        Ok(())
    }

    /// Syncs what was appended so far, and from now on every append before it returns: the
    /// cluster is about to acknowledge writes to clients.
    pub fn sync_from_now_on(&mut self) -> Result<(), JournalError> {
        self.file
            .sync_data()
            .map_err(|e| io(&self.dir.join(JOURNAL), e))?;
        self.sync_each = true;
        Ok(())
    }

    pub fn wants_compaction(&self) -> bool {
        self.records >= self.compact_at
    }

    /// Writes a new snapshot atomically, then empties the journal. A crash between the two
    /// steps is harmless: journal records at or below the snapshot's version are skipped.
    pub fn compact<'a>(
        &mut self,
        objects: impl Iterator<Item = (&'a Key, &'a Value)>,
        rv: u64,
        clock: Timestamp,
    ) -> Result<(), JournalError> {
        let items: Vec<Value> = objects
            .map(|(k, v)| json!({"key": key_json(k), "object": v}))
            .collect();
        let body =
            json!({"capaTuiStore": 1, "rv": rv, "clock": clock.to_string(), "objects": items});
        let path = self.dir.join(SNAPSHOT);
        let written = serde_json::to_vec(&body)
            .map_err(std::io::Error::from)
            .and_then(|bytes| private_files::write_private(&path, &bytes));
        if let Err(e) = written {
            // Try again a little later, not on every change while the disk is full.
            self.compact_at = self.records + COMPACT_RETRY_AFTER;
            return Err(io(&path, e));
        }
        let journal = self.dir.join(JOURNAL);
        self.file.set_len(0).map_err(|e| io(&journal, e))?;
        self.whole_len = 0;
        self.needs_cut = false;
        self.records = 0;
        self.compact_at = COMPACT_AFTER;
        Ok(())
    }
}

/// Whether an error means the disk (or the user's quota) is full.
pub fn is_out_of_space(e: &JournalError) -> bool {
    matches!(e, JournalError::Io { source, .. }
        if matches!(source.raw_os_error(), Some(libc::ENOSPC | libc::EDQUOT)))
}

fn open_append(path: &Path) -> Result<File, JournalError> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| io(path, e))
}

fn io(path: &Path, source: std::io::Error) -> JournalError {
    JournalError::Io {
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests;
