//! `--fresh`: the old lab moved aside whole, never deleted, and only when nothing has it open.
//! Every session on an embedded lab (serving or attached) holds a shared lock on
//! `<state>/in-use.lock` while it lasts; `--fresh` must take it exclusively. The kept-aside
//! working copy is pointed at its own bare repos, not at the new lab's under the old path.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use super::SessionError;

const IN_USE: &str = "in-use.lock";

/// A hold on a lab: shared by every session that has it open, or the one exclusive hold
/// `--fresh` takes to move it. The kernel lets go when the process ends, however it ends.
#[derive(Debug)]
pub struct InUse {
    _lock: File,
}

impl InUse {
    fn open(state: &Path) -> std::io::Result<File> {
        std::fs::create_dir_all(state)?;
        OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(state.join(IN_USE))
    }

    /// A shared hold for a session, waiting out a `--fresh` that is moving the lab.
    pub fn hold(state: &Path) -> std::io::Result<InUse> {
        let file = InUse::open(state)?;
        file.lock_shared()?;
        Ok(InUse { _lock: file })
    }

    /// The exclusive hold, or `None` when some session has the lab open.
    pub fn alone(state: &Path) -> std::io::Result<Option<InUse>> {
        let file = InUse::open(state)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(InUse { _lock: file })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(e)) => Err(e),
        }
    }
}

/// Moves a lab's state dir to `<dir>-<UTC time>` so a new lab can start there; returns where it
/// went (`None` when there was nothing to move).
pub fn move_aside(state: &Path) -> Result<Option<PathBuf>, SessionError> {
    if !state.exists() {
        return Ok(None);
    }
    let stamp = jiff::Timestamp::now()
        .strftime("%Y%m%dT%H%M%SZ")
        .to_string();
    let name = state
        .file_name()
        .map_or_else(|| "lab".into(), |n| n.to_string_lossy().into_owned());
    let mut to = state.with_file_name(format!("{name}-{stamp}"));
    let mut n = 1;
    while to.exists() {
        n += 1;
        to = state.with_file_name(format!("{name}-{stamp}-{n}"));
    }
    std::fs::rename(state, &to).map_err(|source| SessionError::MoveAside {
        from: state.to_path_buf(),
        to: to.clone(),
        source,
    })?;
    rewire_remotes(state, &to);
    Ok(Some(to))
}

/// Points every git working copy moved from `from` to `to` at the bare repos that moved with
/// it: its `origin` named `<from>/bare/src.git`, which is the new lab's repo once one starts
/// there (a `pull` in the kept lab mixed the two: reliability-4 D8).
fn rewire_remotes(from: &Path, to: &Path) {
    let Ok(entries) = std::fs::read_dir(to) else {
        return;
    };
    let candidates = entries
        .flatten()
        .map(|e| e.path().join("repo"))
        .chain(std::iter::once(to.join("repo")));
    for repo_dir in candidates.filter(|d| d.join(".git").is_dir()) {
        if let Err(e) = crate::git::move_remotes(&repo_dir, from, to) {
            tracing::warn!(
                "cannot point {} at {}: {e}",
                repo_dir.display(),
                to.display()
            );
        }
    }
}

#[cfg(test)]
mod tests;
