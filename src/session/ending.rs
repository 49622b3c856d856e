//! The signals that end a session's process (SIGTERM, SIGINT, SIGHUP), caught so it can restore
//! the terminal and end its shell's jobs before it goes, instead of dying where it stands (the
//! tutor once left the terminal in the alternate screen and `nohup` jobs running).

use tokio::signal::unix::{Signal, SignalKind, signal};

/// Listening for the ending signals; while this lives they no longer end the process at once.
pub struct Ending {
    term: Option<Signal>,
    int: Option<Signal>,
    hup: Option<Signal>,
}

impl Ending {
    /// Starts listening (needs a tokio runtime). A signal that cannot be listened for keeps its
    /// default action, which still ends the process.
    pub fn listen() -> Ending {
        let take = |kind: SignalKind| match signal(kind) {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::warn!("cannot listen for a signal: {e}");
                None
            }
        };
        Ending {
            term: take(SignalKind::terminate()),
            int: take(SignalKind::interrupt()),
            hup: take(SignalKind::hangup()),
        }
    }

    /// Waits for the next ending signal; the exit code a shell gives for it (128 + its number).
    pub async fn next(&mut self) -> i32 {
        async fn on(s: &mut Option<Signal>) {
            match s {
                Some(s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        }
        tokio::select! {
            () = on(&mut self.term) => 128 + libc::SIGTERM,
            () = on(&mut self.int) => 128 + libc::SIGINT,
            () = on(&mut self.hup) => 128 + libc::SIGHUP,
        }
    }
}
