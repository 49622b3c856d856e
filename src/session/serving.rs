//! One embedded cluster per state dir. The process that serves a lab holds an exclusive lock on
//! `<state>/serve.lock` — the kernel lets go of it when that process ends, however it ends, so a
//! crash never leaves the lab locked — and says in `<state>/serving.json` where it serves. Every
//! other `--sim` command on that state dir finds the lock taken and attaches to the cluster
//! already serving, through the kubeconfig that file names: there is never a second writer on
//! the store, and a short command never rewrites what a running tutor follows.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

const LOCK: &str = "serve.lock";
const SERVING: &str = "serving.json";

/// Where a lab's cluster serves, as its owner says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Serving {
    pub pid: u32,
    pub url: String,
    pub kubeconfig: PathBuf,
    /// The cluster's clock speed (`--speed`), so an attached shell runs on the same clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64>,
}

/// The lock of a state dir, held by the process that serves it for as long as it serves.
#[derive(Debug)]
pub struct Owner {
    state: PathBuf,
    _lock: File,
}

/// Who serves a state dir.
#[derive(Debug)]
pub enum Claim {
    /// Nobody did: this process now holds the lock and must start the cluster. `previous` is the
    /// process that served it last and ended without saying goodbye (a crash, a kill).
    Owner { owner: Owner, previous: Option<u32> },
    /// Another process serves it.
    Taken,
}

/// Takes the state dir's lock if nobody holds it.
pub fn claim(state: &Path) -> std::io::Result<Claim> {
    std::fs::create_dir_all(state)?;
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(state.join(LOCK))?;
    match file.try_lock() {
        Ok(()) => {
            let previous = read(state)
                .map(|s| s.pid)
                .filter(|p| *p != std::process::id());
            Ok(Claim::Owner {
                owner: Owner {
                    state: state.to_path_buf(),
                    _lock: file,
                },
                previous,
            })
        }
        Err(TryLockError::WouldBlock) => Ok(Claim::Taken),
        Err(TryLockError::Error(e)) => Err(e),
    }
}

impl Owner {
    /// Says where the cluster serves, for the commands that attach to it.
    pub fn publish(&self, serving: &Serving) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(serving).map_err(std::io::Error::other)?;
        crate::lab::files::write_private(&self.state.join(SERVING), &text)
    }

    /// The cluster stopped: nothing serves here any more (the lock goes with `self`).
    pub fn withdraw(self) {
        let _ = std::fs::remove_file(self.state.join(SERVING));
    }
}

/// Waits until nobody holds the state dir's lock (the process serving it ended, however it
/// ended), then holds it: this process must serve the lab now. The wait is the kernel's, on a
/// thread of its own: a runtime that shuts down (the tutor quits first) does not wait for it.
pub async fn owner_when_free(state: &Path) -> std::io::Result<Owner> {
    let state = state.to_path_buf();
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let locked = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(state.join(LOCK))
            .and_then(|file| file.lock().map(|()| Owner { state, _lock: file }));
        let _ = tx.send(locked);
    });
    rx.await.map_err(std::io::Error::other)?
}

/// Where the state dir's cluster serves now: what its owner said, if that owner still holds the
/// lock (a process killed with -9 leaves `serving.json` behind, not the lock).
pub fn live(state: &Path) -> Option<Serving> {
    let file = File::open(state.join(LOCK)).ok()?;
    match file.try_lock_shared() {
        // We could take it: nobody holds it, nothing serves.
        Ok(()) => None,
        Err(TryLockError::WouldBlock) => read(state),
        Err(TryLockError::Error(_)) => None,
    }
}

/// Where the state dir's cluster serves, as its owner last said.
pub fn read(state: &Path) -> Option<Serving> {
    let text = std::fs::read_to_string(state.join(SERVING)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Where the cluster of a state dir someone else holds serves: the owner may be starting still,
/// so it waits for the owner to say, up to `patience`.
pub async fn wait_for(state: &Path, patience: Duration) -> Option<Serving> {
    let deadline = tokio::time::Instant::now() + patience;
    loop {
        if let Some(s) = read(state)
            && s.kubeconfig.exists()
        {
            return Some(s);
        }
        if tokio::time::Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One waits for the lab while another holds it, and holds it the moment it is let go.
    #[tokio::test]
    async fn the_lab_is_taken_over_once_its_owner_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let Claim::Owner { owner, .. } = claim(dir.path()).unwrap() else {
            panic!("a fresh state dir is free");
        };
        let waiting = tokio::spawn({
            let state = dir.path().to_path_buf();
            async move { owner_when_free(&state).await }
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!waiting.is_finished(), "held by the owner");
        owner.withdraw();
        let next = tokio::time::timeout(Duration::from_secs(10), waiting)
            .await
            .expect("taken over once let go")
            .unwrap()
            .unwrap();
        assert!(matches!(claim(dir.path()).unwrap(), Claim::Taken));
        drop(next);
        assert!(matches!(claim(dir.path()).unwrap(), Claim::Owner { .. }));
    }

    #[test]
    fn one_process_holds_a_state_dir_and_the_others_find_it_taken() {
        let dir = tempfile::tempdir().unwrap();
        let Claim::Owner { owner, previous } = claim(dir.path()).unwrap() else {
            panic!("a fresh state dir is free");
        };
        assert_eq!(previous, None);
        // The lock is per open file: a second claim, as another process would make it, fails.
        assert!(matches!(claim(dir.path()).unwrap(), Claim::Taken));
        assert_eq!(live(dir.path()), None, "held, but nothing said yet");
        let serving = Serving {
            pid: std::process::id(),
            url: "https://127.0.0.1:1".into(),
            kubeconfig: dir.path().join("kubeconfig"),
            speed: Some(5.0),
        };
        owner.publish(&serving).unwrap();
        assert_eq!(read(dir.path()), Some(serving.clone()));
        assert_eq!(live(dir.path()), Some(serving));
        owner.withdraw();
        assert_eq!(read(dir.path()), None);
        assert!(matches!(
            claim(dir.path()).unwrap(),
            Claim::Owner { previous: None, .. }
        ));
    }

    #[test]
    fn an_owner_that_died_is_named_by_whoever_takes_over() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(SERVING),
            r#"{"pid": 4194000, "url": "https://127.0.0.1:1", "kubeconfig": "/nowhere"}"#,
        )
        .unwrap();
        let Claim::Owner { previous, .. } = claim(dir.path()).unwrap() else {
            panic!("nobody holds the lock");
        };
        assert_eq!(previous, Some(4_194_000));
    }

    #[test]
    fn what_a_dead_owner_left_behind_is_not_live() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(SERVING),
            r#"{"pid": 4194000, "url": "https://127.0.0.1:1", "kubeconfig": "/nowhere"}"#,
        )
        .unwrap();
        std::fs::write(dir.path().join(LOCK), "").unwrap();
        assert!(read(dir.path()).is_some());
        assert_eq!(live(dir.path()), None);
    }
}
