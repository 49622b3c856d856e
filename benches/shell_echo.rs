//! Benchmark (run: `cargo bench --bench shell_echo`; results in README): a keystroke typed into
//! the tutor's shell pane until its echo is on screen, beside the same keystroke echoed by a
//! plain bash in a tmux pane. Both are measured the same way — `tmux send-keys`, then
//! `capture-pane` until the character shows — so the difference is what the tutor adds
//! (its PTY reader, the message, update, one drawn frame). Reported, never asserted.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark stops at the first thing that goes wrong, saying what"
)]

use std::process::Command;
use std::time::{Duration, Instant};

const KEYS: usize = 60;

struct Tmux(String);

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.0)
            .args(args)
            .output()
            .expect("tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn wait_for(&self, target: &str, want: &str) -> Duration {
        let start = Instant::now();
        while !self
            .run(&["capture-pane", "-p", "-t", target])
            .contains(want)
        {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "never saw {want:?}"
            );
        }
        start.elapsed()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

/// Types `KEYS` distinct characters one at a time and times each until it is on screen.
fn echo_latencies(t: &Tmux, target: &str) -> Vec<Duration> {
    let mut out = Vec::new();
    let letters = "abcdefghijklmnopqrstuvwxyz";
    let mut typed = String::new();
    for i in 0..KEYS {
        let c = letters.chars().nth(i % letters.len()).unwrap_or('x');
        typed.push(c);
        // Every 10 characters the line is cleared, so the typed text stays on one line.
        let start = Instant::now();
        t.run(&["send-keys", "-t", target, "-l", &c.to_string()]);
        t.wait_for(target, &typed);
        out.push(start.elapsed());
        if typed.len() == 10 {
            t.run(&["send-keys", "-t", target, "C-u"]);
            std::thread::sleep(Duration::from_millis(100));
            typed.clear();
        }
    }
    out.sort();
    out
}

fn report(name: &str, d: &[Duration]) {
    let p = |q: f64| d[((d.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{name:<34} p50 {:>6.1} ms   p95 {:>6.1} ms   max {:>6.1} ms   ({} keys)",
        p(0.5).as_secs_f64() * 1e3,
        p(0.95).as_secs_f64() * 1e3,
        d[d.len() - 1].as_secs_f64() * 1e3,
        d.len()
    );
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let t = Tmux(format!("capa-bench-echo-{}", std::process::id()));
    // A plain terminal: bash in a tmux pane, with the same kind of prompt.
    t.run(&[
        "new-session",
        "-d",
        "-s",
        "plain",
        "-x",
        "120",
        "-y",
        "40",
        "env PS1='plain$ ' bash --norc -i",
    ]);
    t.wait_for("plain", "plain$");
    let plain = echo_latencies(&t, "plain");

    let cmd = format!(
        "{} --sim --state-dir {}",
        env!("CARGO_BIN_EXE_capa-tui"),
        dir.path().join("state").display()
    );
    t.run(&[
        "new-session",
        "-d",
        "-s",
        "tutor",
        "-x",
        "120",
        "-y",
        "40",
        &cmd,
    ]);
    t.wait_for("tutor", "✓ live");
    t.run(&["send-keys", "-t", "tutor", "s"]);
    t.wait_for("tutor", "(capa:sim)");
    // Zoomed, as a learner who wants room to type would have it.
    for k in ["C-]", "z", "Enter"] {
        t.run(&["send-keys", "-t", "tutor", k]);
        std::thread::sleep(Duration::from_millis(200));
    }
    let tutor = echo_latencies(&t, "tutor");

    println!("keystroke → echo on screen, 120x40, measured through tmux capture-pane:");
    report("plain bash in a tmux pane", &plain);
    report("the tutor's shell pane", &tutor);
}
