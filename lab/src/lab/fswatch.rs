//! Watching the lab's folders with filesystem notifications (inotify on Linux), not a polling
//! loop: a push to a bare repo, a commit in the working copy or a new evidence file calls back
//! once a burst of changes has settled. capa-tui's own bookkeeping (`.capa-tui/`) is ignored.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use notify::{RecursiveMode, Watcher};

/// How long changes must stay quiet before the callback runs (a `git push` writes many files).
const SETTLE: Duration = Duration::from_millis(250);

/// Keeps the watch alive; dropping it stops the notifications.
pub struct FolderWatch {
    _watcher: notify::RecommendedWatcher,
}

/// Why the lab's folders cannot be watched (the tutor then learns of files only after its own
/// plans and checks; it says so in its log).
#[derive(Debug, thiserror::Error)]
pub enum FolderWatchError {
    #[error("cannot watch the lab's folders: {0}")]
    Start(#[source] notify::Error),
    #[error("cannot create {}: {source}", .dir.display())]
    Create {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot watch {}: {source}", .dir.display())]
    Watch {
        dir: PathBuf,
        #[source]
        source: notify::Error,
    },
}

/// Watches `dirs` (created when missing) and runs `on_change` after each settled burst.
pub fn watch(
    dirs: &[PathBuf],
    mut on_change: impl FnMut() + Send + 'static,
) -> Result<FolderWatch, FolderWatchError> {
    let (tx, rx) = mpsc::channel::<()>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        // Reading changes nothing: the git daemon opens the bare repos for every fetch, and a
        // classroom's Argo CD fetches for each of its apps' refreshes.
        if event.kind.is_access() {
            return;
        }
        let ours = event
            .paths
            .iter()
            .all(|p| p.components().any(|c| c.as_os_str() == ".capa-tui"));
        if !ours {
            let _ = tx.send(());
        }
    })
    .map_err(FolderWatchError::Start)?;
    for dir in dirs {
        std::fs::create_dir_all(dir).map_err(|source| FolderWatchError::Create {
            dir: dir.clone(),
            source,
        })?;
        watcher
            .watch(dir, RecursiveMode::Recursive)
            .map_err(|source| FolderWatchError::Watch {
                dir: dir.clone(),
                source,
            })?;
    }
    std::thread::spawn(move || {
        while rx.recv().is_ok() {
            // Wait until the burst is over, then report it once.
            while rx.recv_timeout(SETTLE).is_ok() {}
            on_change();
        }
    });
    Ok(FolderWatch { _watcher: watcher })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_burst_of_changes_is_reported_once_and_our_own_files_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let calls = Arc::new(AtomicUsize::new(0));
        let seen = calls.clone();
        let _w = watch(&[dir.path().to_path_buf()], move || {
            seen.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
        std::fs::create_dir_all(dir.path().join(".capa-tui")).unwrap();
        std::thread::sleep(Duration::from_millis(400));
        let before = calls.load(Ordering::SeqCst);
        std::fs::write(dir.path().join(".capa-tui/progress.json"), "{}").unwrap();
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(
            calls.load(Ordering::SeqCst),
            before,
            "our own files are ignored"
        );
        for i in 0..20 {
            std::fs::write(dir.path().join(format!("f{i}")), "x").unwrap();
        }
        // Wait (bounded) for the settled burst to be reported.
        for _ in 0..50 {
            if calls.load(Ordering::SeqCst) > before {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(calls.load(Ordering::SeqCst), before + 1);
        // Files read (a git daemon serving a fetch) are no change.
        for i in 0..20 {
            std::fs::read(dir.path().join(format!("f{i}"))).unwrap();
        }
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(
            calls.load(Ordering::SeqCst),
            before + 1,
            "reads are not changes"
        );
    }
}
