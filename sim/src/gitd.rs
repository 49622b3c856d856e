//! The real `git daemon`, serving the lab's bare repositories over `git://` on loopback, as
//! `gitd.gitsrv` does on the learner's VM.

use std::io::Read;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use crate::tools;

/// How often we pick a new port when another process grabs ours between probe and bind.
const PORT_ATTEMPTS: usize = 5;
/// How long the daemon gets to start listening.
const READY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the daemon gets to exit on SIGTERM before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(2);
/// Stderr kept for error messages; the daemon is quiet unless something is wrong.
const STDERR_CAP: usize = 16 * 1024;
/// What every push through the daemon runs under, whoever made the bare repos: no rewriting
/// or deleting the learner's branches, and a reflog of every ref change. The daemon has no
/// authentication, so any local user can push to it; these keep the learner's history
/// (reliability review 4, D7). Passed as `GIT_CONFIG_COUNT` settings, which the daemon's
/// `receive-pack` children inherit and which outrank each repository's own config.
const PUSH_RULES: [(&str, &str); 3] = [
    ("receive.denyNonFastForwards", "true"),
    ("receive.denyDeletes", "true"),
    ("core.logAllRefUpdates", "true"),
];

#[derive(Debug, thiserror::Error)]
pub enum GitdError {
    #[error(
        "git is not installed: `git daemon` serves the lab's repositories (install git, or run scripts/install-tools)"
    )]
    GitMissing,
    #[error("cannot serve {}: not a directory", .0.display())]
    BaseMissing(PathBuf),
    #[error("cannot find a free port on 127.0.0.1: {0}")]
    NoPort(std::io::Error),
    #[error("cannot start `git daemon`: {0}")]
    Spawn(std::io::Error),
    #[error("`git daemon` exited ({status}): {stderr}")]
    Exited { status: ExitStatus, stderr: String },
    #[error("`git daemon` did not accept connections on 127.0.0.1:{port} within {}s", READY_TIMEOUT.as_secs())]
    NotReady { port: u16 },
    #[error("`git daemon` could not bind a port after {PORT_ATTEMPTS} attempts: {stderr}")]
    PortRace { stderr: String },
}

/// A running `git daemon`; dropping it stops the daemon and every connection it forked.
pub struct GitDaemon {
    child: Child,
    port: u16,
    base: PathBuf,
}

impl GitDaemon {
    /// Starts `git daemon --export-all --enable=receive-pack --reuseaddr --base-path=<base>
    /// --listen=127.0.0.1 --port=<free>` and waits until it accepts connections.
    pub fn start(base: &Path) -> Result<GitDaemon, GitdError> {
        let git = tools::find("git").ok_or(GitdError::GitMissing)?;
        if !base.is_dir() {
            return Err(GitdError::BaseMissing(base.to_path_buf()));
        }
        let base = base
            .canonicalize()
            .map_err(|_| GitdError::BaseMissing(base.into()))?;
        let mut last_stderr = String::new();
        for _ in 0..PORT_ATTEMPTS {
            let port = free_port().map_err(GitdError::NoPort)?;
            match spawn(&git, &base, port)? {
                Started::Ready(child) => return Ok(GitDaemon { child, port, base }),
                Started::PortTaken(stderr) => last_stderr = stderr,
            }
        }
        Err(GitdError::PortRace {
            stderr: last_stderr,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn base(&self) -> &Path {
        &self.base
    }
}

impl Drop for GitDaemon {
    fn drop(&mut self) {
        stop_group(&mut self.child);
    }
}

enum Started {
    Ready(Child),
    /// Someone bound the port between our probe and the daemon's bind; try another.
    PortTaken(String),
}

/// Binding port 0 lets the kernel choose; the listener is dropped so the daemon can take it.
fn free_port() -> std::io::Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
    Ok(listener.local_addr()?.port())
}

fn spawn(git: &Path, base: &Path, port: u16) -> Result<Started, GitdError> {
    let mut command = Command::new(git);
    command
        .arg("daemon")
        .arg("--export-all")
        .arg("--enable=receive-pack")
        .arg("--reuseaddr")
        .arg(format!("--base-path={}", base.display()))
        .arg("--listen=127.0.0.1")
        .arg(format!("--port={port}"))
        .current_dir(base)
        .env("GIT_CONFIG_COUNT", PUSH_RULES.len().to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        // Its own process group, so Drop can stop the per-connection children too.
        .process_group(0);
    for (i, (key, value)) in PUSH_RULES.iter().enumerate() {
        command
            .env(format!("GIT_CONFIG_KEY_{i}"), key)
            .env(format!("GIT_CONFIG_VALUE_{i}"), value);
    }
    let mut child = spawn_tied(command).map_err(GitdError::Spawn)?;
    let stderr = drain_stderr(&mut child);

    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let deadline = Instant::now() + READY_TIMEOUT;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            let text = stderr_text(&stderr);
            return if port_taken(&text) {
                Ok(Started::PortTaken(text))
            } else {
                Err(GitdError::Exited {
                    status,
                    stderr: text,
                })
            };
        }
        if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            return Ok(Started::Ready(child));
        }
        if Instant::now() >= deadline {
            stop_group(&mut child);
            return Err(GitdError::NotReady { port });
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Reads the daemon's stderr on a thread so a chatty daemon never blocks on a full pipe.
fn drain_stderr(child: &mut Child) -> Arc<Mutex<String>> {
    let buf = Arc::new(Mutex::new(String::new()));
    if let Some(mut pipe) = child.stderr.take() {
        let sink = Arc::clone(&buf);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                if let Ok(mut s) = sink.lock()
                    && s.len() < STDERR_CAP
                {
                    s.push_str(&String::from_utf8_lossy(&chunk[..n]));
                }
            }
        });
    }
    buf
}

fn stderr_text(buf: &Arc<Mutex<String>>) -> String {
    // The reader thread may still be copying the last bytes of a daemon that just died.
    thread::sleep(Duration::from_millis(50));
    buf.lock().map(|s| s.trim().to_string()).unwrap_or_default()
}

fn port_taken(stderr: &str) -> bool {
    stderr.contains("Address already in use")
        || stderr.contains("unable to allocate any listen sockets")
}

/// SIGTERM to the whole group, then SIGKILL if it lingers; always reaps the daemon.
fn stop_group(child: &mut Child) {
    let Ok(pgid) = libc::pid_t::try_from(child.id()) else {
        let _ = child.kill();
        let _ = child.wait();
        return;
    };
    signal_group(pgid, libc::SIGTERM);
    let deadline = Instant::now() + STOP_GRACE;
    while Instant::now() < deadline {
        if matches!(child.try_wait(), Ok(Some(_))) {
            // Forked upload-pack/receive-pack children may outlive the daemon; end them too.
            signal_group(pgid, libc::SIGKILL);
            return;
        }
        thread::sleep(Duration::from_millis(20));
    }
    signal_group(pgid, libc::SIGKILL);
    let _ = child.wait();
}

/// Starts `command` so that its process ends when this one does, however it ends: Drop stops
/// the daemon on a clean exit, but a process that is killed (kill -9, a crash, a test binary
/// that exits with clusters still up) runs no Drop, and an orphaned daemon would go on serving
/// the lab's repositories. On Linux the kernel signals the child when the thread that started it
/// ends, so children are started from one thread that lives as long as the process.
fn spawn_tied(mut command: Command) -> std::io::Result<Child> {
    type Request = (Command, mpsc::Sender<std::io::Result<Child>>);
    static SPAWNER: OnceLock<Option<Mutex<mpsc::Sender<Request>>>> = OnceLock::new();
    tie_to_parent(&mut command);
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Request>();
        thread::Builder::new()
            .name("capa-sim-spawner".into())
            .spawn(move || {
                // The sender lives in a static, so this loop runs until the process ends.
                for (mut command, reply) in rx {
                    let _ = reply.send(command.spawn());
                }
            })
            .ok()
            .map(|_| Mutex::new(tx))
    });
    let Some(sender) = spawner else {
        return command.spawn();
    };
    let (reply_tx, reply_rx) = mpsc::channel();
    let sent = sender
        .lock()
        .map_err(|_| std::io::Error::other("the spawner thread's lock is poisoned"))?
        .send((command, reply_tx));
    if let Err(mpsc::SendError((mut command, _))) = sent {
        return command.spawn();
    }
    reply_rx
        .recv()
        .map_err(|_| std::io::Error::other("the spawner thread is gone"))?
}

/// Asks the kernel to SIGTERM the child when its parent goes; if the parent is already gone
/// by then, the child does not start.
#[cfg(target_os = "linux")]
fn tie_to_parent(command: &mut Command) {
    let parent = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
    // SAFETY: the closure runs in the forked child before exec and calls only prctl(2) and
    // getppid(2), which are async-signal-safe and allocate nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                return Err(std::io::Error::other("the process that started it is gone"));
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn tie_to_parent(_command: &mut Command) {}

fn signal_group(pgid: libc::pid_t, signal: libc::c_int) {
    // SAFETY: kill(2) has no memory-safety preconditions; a negative pid addresses the
    // process group we created with process_group(0), whose id is the daemon's pid.
    unsafe {
        libc::kill(-pgid, signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serves_and_stops() {
        if tools::find("git").is_none() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let daemon = GitDaemon::start(dir.path()).unwrap();
        let port = daemon.port();
        assert!(TcpStream::connect(("127.0.0.1", port)).is_ok());
        assert_eq!(daemon.base(), dir.path().canonicalize().unwrap());
        drop(daemon);
        // The port is free again once the daemon is gone.
        assert!(TcpStream::connect(("127.0.0.1", port)).is_err());
    }

    fn git(dir: &Path, args: &[&str]) -> std::process::Output {
        Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap()
    }

    /// Review 4, D7: any local user could force-push `main` through the daemon, and the bare
    /// repos kept no reflog.
    #[test]
    fn pushes_cannot_rewrite_or_delete_branches_and_every_change_is_logged() {
        if tools::find("git").is_none() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("bare");
        std::fs::create_dir(&base).unwrap();
        assert!(
            git(&base, &["init", "--bare", "-q", "-b", "main", "src.git"])
                .status
                .success()
        );
        let daemon = GitDaemon::start(&base).unwrap();
        let url = format!("git://127.0.0.1:{}/src.git", daemon.port());
        let work = dir.path().join("work");
        assert!(
            git(dir.path(), &["clone", "-q", &url, "work"])
                .status
                .success()
        );
        for n in ["1", "2"] {
            assert!(
                git(&work, &["commit", "-q", "--allow-empty", "-m", n])
                    .status
                    .success()
            );
            let pushed = git(&work, &["push", "-q", "origin", "HEAD:main"]);
            assert!(pushed.status.success(), "{pushed:?}");
        }
        let forced = git(&work, &["push", "-q", "--force", "origin", "HEAD~1:main"]);
        assert!(!forced.status.success(), "a force push went through");
        assert!(
            git(&work, &["push", "-q", "origin", "HEAD:side"])
                .status
                .success()
        );
        let deleted = git(&work, &["push", "-q", "origin", ":side"]);
        assert!(!deleted.status.success(), "a branch was deleted");
        let reflog = base.join("src.git/logs/refs/heads/main");
        let entries = std::fs::read_to_string(&reflog).unwrap_or_default();
        assert_eq!(entries.lines().count(), 2, "{reflog:?}: {entries}");
    }

    #[test]
    fn missing_base_is_an_error() {
        let err = GitDaemon::start(Path::new("/nonexistent/capa/base")).err();
        assert!(matches!(
            err,
            Some(GitdError::BaseMissing(_) | GitdError::GitMissing)
        ));
    }
}
