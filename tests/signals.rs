//! Signals end cleanly: the tutor killed with SIGTERM, SIGINT or SIGHUP (or its window closed)
//! restores the terminal, stops its cluster in order and leaves none of its shell pane's jobs
//! (`nohup` ones included); `capa-tui shell --sim` ends its subshell's jobs on `exit` and on
//! each of those signals. Each runs the real binary in tmux on an embedded lab, and looks in
//! /proc for what is left.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

use std::time::{Duration, Instant};

mod common;
use common::tmux::Tmux;

/// (pid, command line) of every process whose command line holds `needle`.
fn processes(needle: &str) -> Vec<(i32, String)> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse::<i32>().ok()?;
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            text.contains(needle).then_some((pid, text))
        })
        .collect()
}

fn wait_until(what: &str, within: Duration, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < within, "never: {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The capa-tui process itself (not the `sh -c` that runs it) for the lab in `state`.
fn capa_pid(state: &str) -> i32 {
    let bin = env!("CARGO_BIN_EXE_capa-tui");
    let found: Vec<i32> = processes(state)
        .into_iter()
        .filter(|(_, cmd)| cmd.starts_with(bin))
        .map(|(pid, _)| pid)
        .collect();
    assert_eq!(found.len(), 1, "one capa-tui for {state}: {found:?}");
    found[0]
}

/// Runs `args` of capa-tui on a new embedded lab in tmux; the pane stays after it ends (a
/// `sleep` after it), so what it left on the terminal can be read.
fn start(name: &str, args: &str) -> (tempfile::TempDir, String, Tmux) {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state").display().to_string();
    let t = Tmux {
        socket: format!("{name}-{}", std::process::id()),
    };
    let cmd = format!(
        "env SHELL=/bin/bash {} {args} --sim --speed 10 --state-dir {state}; sleep 600",
        env!("CARGO_BIN_EXE_capa-tui"),
    );
    t.start(120, 40, &cmd);
    (dir, state, t)
}

fn pane(t: &Tmux, format: &str) -> String {
    let out = t.run(&["display-message", "-p", "-t", "t", format]);
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn signal(pid: i32, sig: i32) {
    // SAFETY: kill only sends a signal to the test's own capa-tui.
    assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
}

#[test]
fn the_tutor_ended_by_a_signal_restores_the_terminal_and_ends_its_shells_jobs() {
    for (sig, job) in [
        (libc::SIGTERM, "9231"),
        (libc::SIGINT, "9232"),
        (libc::SIGHUP, "9233"),
    ] {
        let (_dir, state, t) = start("capa-signals-tutor", "");
        t.wait_for("✓ live", Duration::from_secs(60));
        // The first command typed into the shell pane starts it; then our own jobs instead.
        t.keys(&["]", "y"]);
        t.wait_until("the shell pane", Duration::from_secs(20), |s| {
            s.contains("typing · Ctrl-] back to capa-tui")
        });
        t.keys(&["C-u"]);
        let jobs = format!("nohup sleep {job}1 >/dev/null 2>&1 & sleep {job}2 &");
        t.keys(&[&jobs, "Enter"]);
        let needle = format!("sleep {job}");
        wait_until("both jobs run", Duration::from_secs(10), || {
            processes(&needle).len() == 2
        });
        assert_eq!(pane(&t, "#{alternate_on}"), "1");
        let pid = capa_pid(&state);
        signal(pid, sig);
        wait_until("the tutor ends", Duration::from_secs(20), || {
            !std::path::Path::new(&format!("/proc/{pid}")).exists()
        });
        wait_until(
            "no job of its shell is left",
            Duration::from_secs(5),
            || processes(&needle).is_empty(),
        );
        assert_eq!(
            pane(&t, "#{alternate_on} #{mouse_any_flag} #{cursor_flag}"),
            "0 0 1",
            "signal {sig}: the terminal as it was"
        );
    }
}

/// The window closed under the tutor (tmux's server killed: SIGHUP and a terminal that can no
/// longer be written to). Restoring that dead terminal must not stop the tutor from stopping
/// its cluster in order: the lab is not left "served" by a process that is gone, so the next
/// start does not say its server died, and the shell's jobs end.
#[test]
fn the_tutor_whose_terminal_hangs_up_still_stops_its_cluster_in_order() {
    let (_dir, state, t) = start("capa-signals-hangup", "");
    t.wait_for("✓ live", Duration::from_secs(60));
    t.keys(&["]", "y"]);
    t.wait_until("the shell pane", Duration::from_secs(20), |s| {
        s.contains("typing · Ctrl-] back to capa-tui")
    });
    t.keys(&["C-u", "nohup sleep 92511 >/dev/null 2>&1 &", "Enter"]);
    wait_until("the job runs", Duration::from_secs(10), || {
        processes("sleep 92511").len() == 1
    });
    let serving = std::path::Path::new(&state).join("serving.json");
    assert!(serving.exists(), "the tutor serves its lab");
    let pid = capa_pid(&state);
    t.run(&["kill-server"]);
    wait_until("the tutor ends", Duration::from_secs(30), || {
        !std::path::Path::new(&format!("/proc/{pid}")).exists()
    });
    assert!(
        !serving.exists(),
        "the cluster was not stopped in order: serving.json is left behind"
    );
    wait_until("the shell's job ends", Duration::from_secs(5), || {
        processes("sleep 92511").is_empty()
    });
}

#[test]
fn shell_sim_ends_its_subshells_jobs_on_exit_and_on_every_signal() {
    for (how, job) in [
        (None, "9241"),
        (Some(libc::SIGHUP), "9242"),
        (Some(libc::SIGTERM), "9243"),
        (Some(libc::SIGINT), "9244"),
    ] {
        let (_dir, state, t) = start("capa-signals-shell", "shell");
        t.wait_for("(capa:sim)", Duration::from_secs(60));
        let jobs = format!("nohup sleep {job}1 >/dev/null 2>&1 & sleep {job}2 &");
        t.keys(&[&jobs, "Enter"]);
        let needle = format!("sleep {job}");
        wait_until("both jobs run", Duration::from_secs(10), || {
            processes(&needle).len() == 2
        });
        let pid = capa_pid(&state);
        match how {
            None => t.keys(&["exit", "Enter"]),
            Some(sig) => signal(pid, sig),
        }
        wait_until("capa-tui shell ends", Duration::from_secs(20), || {
            !std::path::Path::new(&format!("/proc/{pid}")).exists()
        });
        wait_until(
            "no job of the subshell is left",
            Duration::from_secs(5),
            || processes(&needle).is_empty(),
        );
        assert!(
            processes("--rcfile")
                .iter()
                .all(|(_, c)| !c.contains(&state)),
            "{how:?} (None: exit): no subshell of this lab is left"
        );
    }
}
