//! One clock under `--speed`: lesson 7 done by hand with the lesson's own commands
//! (`scaled_at=$(date +%s)`, `sleep 45`) in `capa-tui shell` on an embedded cluster that runs
//! five times as fast as the wall, then `capa-tui check 7` passes. The shell reads the
//! cluster's clock (libfaketime, `session::clock`), so `date` agrees with the times the cluster
//! writes (issue 31: with the wall's `date` the self-check failed by minutes).

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use capa_tui::i18n::Lang;
use capa_tui::lab::catalog::{Catalog, Section};
use capa_tui::lab::snippets::snippets;

use crate::common::lab_cli::{capa, kubectl, text, tools_path};

/// `capa-tui sim serve` on `state` at `speed`, stopped when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(state: &Path, speed: &str) -> Served {
    let child = Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["sim", "serve", "--speed", speed, "--state-dir"])
        .arg(state)
        .env("PATH", tools_path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !state.join("serving.json").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "sim serve never served"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Served(child)
}

/// `script` typed into `capa-tui shell` on the served lab (its stdin), with what it printed.
fn in_lab_shell(state: &Path, script: &str) -> (bool, String) {
    let mut shell = Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["shell", "--sim", "--state-dir"])
        .arg(state)
        .env("PATH", tools_path())
        .env("SHELL", "/bin/bash")
        .env("LANG", "en_US.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = shell.stdin.take().unwrap();
    stdin
        .write_all(format!("set -e\n{script}\nexit 0\n").as_bytes())
        .unwrap();
    drop(stdin);
    let out = shell.wait_with_output().unwrap();
    (out.status.success(), text(&out))
}

/// The whole number printed after `"name":` in `said` (ignore.json as `cat` shows it).
fn number_field(said: &str, name: &str) -> i64 {
    said.split(&format!("\"{name}\":"))
        .nth(1)
        .and_then(|rest| {
            rest.trim_start()
                .split(|c: char| !c.is_ascii_digit())
                .next()
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in: {said}"))
}

#[test]
fn lesson_seven_by_hand_under_speed_five_passes_its_check() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let _served = serve(&state, "5");
    for lesson in ["1", "4"] {
        let out = capa(&state, &["do", lesson, "--yes"]);
        assert!(out.status.success(), "do {lesson}: {}", text(&out));
    }
    let catalog = Catalog::embedded().unwrap();
    let lesson = catalog
        .lessons()
        .iter()
        .find(|l| l.spec.number.0 == 7)
        .unwrap();
    let blocks: Vec<String> = snippets(&lesson.text(Lang::FALLBACK).section(Section::ByHand))
        .into_iter()
        .map(|s| s.text.replace("{src_dir}", "$CAPA_SRC_DIR"))
        .collect();
    let scale_at = blocks
        .iter()
        .position(|b| b.contains(" scale "))
        .expect("lesson 7 scales by hand");
    let (ok, said) = in_lab_shell(&state, &blocks[..scale_at].join("\n"));
    assert!(ok, "{said}");
    assert!(
        said.contains("runs 5× as fast")
            && said.contains("date in this shell keeps the cluster's time"),
        "the shell says its clock: {said}"
    );
    // Argo CD compares with the replicas ignored before the scale (else selfHeal undoes it).
    let start = Instant::now();
    loop {
        let app = kubectl(
            &state,
            &[
                "-n",
                "argocd",
                "get",
                "app",
                "src-kust",
                "-o",
                "jsonpath={.status.sync.status} {.status.sync.comparedTo.ignoreDifferences}",
            ],
        );
        let app = String::from_utf8_lossy(&app.stdout).to_string();
        if app.starts_with("Synced ") && app.contains("/spec/replicas") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "src-kust: {app}");
        std::thread::sleep(Duration::from_millis(300));
    }
    let wall_before = jiff::Timestamp::now();
    let (ok, said) = in_lab_shell(&state, &blocks[scale_at..].join("\n"));
    assert!(ok, "{said}");
    // The block ends by printing ignore.json: its scaled_at is the cluster's time, ahead of the
    // wall's (by the seconds the lab has run at five times the pace). The check wants scaled_at
    // no more than a second before kubectl's write, so a `date` on the wall's clock, this far
    // behind, would fail it: the test tells the two clocks apart.
    let scaled_at = number_field(&said, "scaled_at");
    assert!(
        scaled_at - wall_before.as_second() > 5,
        "scaled_at {scaled_at} is not ahead of the wall's {}: {said}",
        wall_before.as_second()
    );
    // And it ran at the cluster's pace: `sleep 45` waits the wall's seconds, which are 225 of
    // the cluster's.
    let checked_at = number_field(&said, "checked_at");
    assert!(checked_at - scaled_at > 150, "{said}");
    let check = capa(&state, &["check", "7"]);
    assert!(check.status.success(), "check 7: {}", text(&check));
}

/// A plan's commit is dated on the cluster's clock, as one made in the lab's shell is: under
/// --speed a checklist ticked "fix pushed" at its commit's time had shown it three minutes
/// before the failure it fixed (a walk at --speed 5, lesson 6).
#[test]
fn a_plans_commit_is_dated_on_the_clusters_clock() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let _served = serve(&state, "20");
    // Four wall seconds: a minute and more on the cluster's clock.
    std::thread::sleep(Duration::from_secs(4));
    let out = capa(&state, &["do", "1", "--yes"]);
    assert!(out.status.success(), "do 1: {}", text(&out));
    let out = Command::new("git")
        .arg("-C")
        .arg(state.join("bare/src.git"))
        .args(["log", "-1", "--format=%ct", "main"])
        .output()
        .unwrap();
    let committed: i64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let wall = jiff::Timestamp::now().as_second();
    assert!(
        committed > wall + 40,
        "committed at {committed}, the wall says {wall}: dated on the wall's clock"
    );
}
