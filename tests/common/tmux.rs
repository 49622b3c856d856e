//! Driving the tutor in a real terminal, as a person would: tmux to type, capture-pane to read.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A tmux server of the test's own, with one session `t`; killed when dropped.
pub struct Tmux {
    pub socket: String,
}

impl Tmux {
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux is installed (scripts/test installs it)")
    }

    /// Starts session `t` at `cols`×`rows` running `cmd`.
    pub fn start(&self, cols: u16, rows: u16, cmd: &str) {
        let (x, y) = (cols.to_string(), rows.to_string());
        let mut out = self.run(&["new-session", "-d", "-s", "t", "-x", &x, "-y", &y, cmd]);
        // tmux's own start-up race: a server starting while another on the machine is being
        // killed can exit at once ("server exited unexpectedly"); a second start is a new one.
        for _ in 0..3 {
            if out.status.success()
                || !String::from_utf8_lossy(&out.stderr).contains("server exited unexpectedly")
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(300));
            out = self.run(&["new-session", "-d", "-s", "t", "-x", &x, "-y", &y, cmd]);
        }
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    pub fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.run(&["send-keys", "-t", "t", k]);
            // Apart: an Esc-prefixed sequence right before another key reads as Alt+key.
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }

    /// Waits (bounded) until the screen shows `want`.
    pub fn wait_for(&self, want: &str, within: Duration) -> String {
        self.wait_until(want, within, |text| text.contains(want))
    }

    /// Waits (bounded) until the screen is as `shows` says (`what` names it for the failure).
    pub fn wait_until(&self, what: &str, within: Duration, shows: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let text = self.screen();
            if shows(&text) {
                return text;
            }
            assert!(
                start.elapsed() < within,
                "the screen never showed {what:?} within {within:?}:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}
