//! The learner's progress, kept with the lab (`<src-dir>/.capa-tui/tutor.json`, beside the
//! evidence): the lesson and part they are on, the hints they asked for, the checklist steps
//! done with their times, and the last self-check of each evidence file. Reopening the tutor
//! resumes there; `capa-tui status` reports it. A damaged file (whatever its bytes) is kept as
//! `tutor.json.damaged` and said, never a crash and never a silent reset. Two tutors on one lab
//! merge their changes under a lock, never last-writer-wins (reliability-4 D6).

mod merge;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::catalog::Section;
use super::eval::check::Grade;
use super::files::{MAX_LEARNER_FILE, ReadError, read_bounded};
use super::spec::LessonId;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// The lesson (by number) and part shown last.
    pub lesson: Option<LessonId>,
    pub section: Section,
    /// Hints shown, by lesson number.
    pub hints: BTreeMap<LessonId, usize>,
    /// Checklist steps done: lesson number → step index → when.
    pub ticks: BTreeMap<LessonId, BTreeMap<usize, jiff::Timestamp>>,
    /// The last self-check of each evidence file.
    pub grades: BTreeMap<String, Grade>,
    /// Predictions: `lesson:action` (1-based action) → the choice made.
    pub answers: BTreeMap<String, String>,
}

/// The progress read from a lab, and where a damaged file was kept (to say so).
#[derive(Debug, Default)]
pub struct Loaded {
    pub progress: Progress,
    /// `tutor.json` did not read and was moved here; progress starts over.
    pub kept_aside: Option<PathBuf>,
}

/// Where progress is kept for a lab whose source dir is `src_dir`.
pub fn file(src_dir: &Path) -> PathBuf {
    src_dir.join(".capa-tui").join("tutor.json")
}

/// The progress saved for this lab, or a fresh start. A file that does not read, whatever its
/// bytes (random bytes once reset progress with no copy), is moved to a free
/// `tutor.json.damaged` name and named in `kept_aside`.
pub fn load(src_dir: &Path) -> Loaded {
    let _lock = Lock::take(src_dir);
    let path = file(src_dir);
    match read(&path) {
        Read::Fine(progress) => Loaded {
            progress,
            kept_aside: None,
        },
        Read::Nothing => Loaded::default(),
        Read::Damaged(why) => {
            let aside = free_damaged_name(&path);
            tracing::warn!(
                "{} does not read ({why}); kept as {} and starting over",
                path.display(),
                aside.display()
            );
            match std::fs::rename(&path, &aside) {
                Ok(()) => Loaded {
                    progress: Progress::default(),
                    kept_aside: Some(aside),
                },
                Err(e) => {
                    tracing::warn!("cannot keep {} aside: {e}", path.display());
                    Loaded::default()
                }
            }
        }
    }
}

/// Saves `now`, merged with what another tutor on the same lab saved since: only what this
/// tutor changed since `base` (what it loaded or last saved) replaces what is on disk. Done
/// under the lab's progress lock; returns what was written.
pub fn save(src_dir: &Path, base: &Progress, now: &Progress) -> std::io::Result<Progress> {
    let _lock = Lock::take(src_dir);
    let path = file(src_dir);
    let merged = match read(&path) {
        Read::Fine(disk) => merge::three_way(base, now, &disk),
        // A file that turned bad meanwhile is kept, not written over.
        Read::Damaged(_) => {
            std::fs::rename(&path, free_damaged_name(&path))?;
            now.clone()
        }
        Read::Nothing => now.clone(),
    };
    let text = serde_json::to_string_pretty(&merged).map_err(std::io::Error::other)?;
    super::files::write_atomic(&path, &text)?;
    Ok(merged)
}

enum Read {
    Fine(Progress),
    Nothing,
    Damaged(String),
}

fn read(path: &Path) -> Read {
    match read_bounded(path, MAX_LEARNER_FILE) {
        Ok(bytes) => match serde_json::from_slice(&bytes) {
            Ok(p) => Read::Fine(p),
            Err(e) => Read::Damaged(e.to_string()),
        },
        Err(ReadError::Missing { .. }) => Read::Nothing,
        // Unreadable (permissions): nothing to keep aside, and nothing to write over either.
        Err(ReadError::Io { source, .. }) => {
            tracing::warn!("cannot read {}: {source}", path.display());
            Read::Nothing
        }
        Err(e @ (ReadError::NotRegular { .. } | ReadError::TooBig { .. })) => {
            Read::Damaged(e.to_string())
        }
    }
}

/// `tutor.json.damaged`, then `.damaged.1`, ...: a second damaged file never replaces the first.
fn free_damaged_name(path: &Path) -> PathBuf {
    let base = path.with_extension("json.damaged");
    if !base.exists() {
        return base;
    }
    (1..)
        .map(|n| path.with_extension(format!("json.damaged.{n}")))
        .find(|p| !p.exists())
        .unwrap_or(base)
}

/// An exclusive `flock` on `.capa-tui/tutor.lock`, held while progress is read and written:
/// two tutors' read-merge-write never interleave. Released when dropped (the file closes).
struct Lock {
    _held: Option<std::fs::File>,
}

impl Lock {
    fn take(src_dir: &Path) -> Lock {
        use std::os::fd::AsRawFd;
        let path = file(src_dir).with_file_name("tutor.lock");
        let opened = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                use std::os::unix::fs::OpenOptionsExt;
                // Never through a link left at its name: the lock opens only a file there.
                std::fs::OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .mode(0o600)
                    .custom_flags(libc::O_NOFOLLOW)
                    .open(&path)
            });
        match opened {
            Ok(f) => {
                // SAFETY: flock only takes the file's descriptor, which `f` keeps open.
                if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } != 0 {
                    tracing::warn!("cannot lock {}", path.display());
                }
                Lock { _held: Some(f) }
            }
            Err(e) => {
                // A lab folder that cannot hold a lock still gets its progress, unmerged.
                tracing::warn!("cannot open {}: {e}", path.display());
                Lock { _held: None }
            }
        }
    }
}

#[cfg(test)]
mod tests;
