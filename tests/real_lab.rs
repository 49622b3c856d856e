//! The lab VM's path, proven on the real thing: the real lab (`scripts/real-lab`: Kubernetes
//! and Argo CD built from their own modules, the lab's git URL, `/srv/bare`) is reset to an empty
//! lab, lessons 1–5 are done for the learner, lesson 6 is presented in step mode in the tutor
//! in tmux while the real controller retries the broken commit (the banner must say the fix
//! waits), lessons 7–8 follow, and `check all` passes; then `examples/lesson-pack` is done and
//! checked on the same lab. Ignored unless asked for: it needs the
//! real lab up, which `scripts/test` brings up (setting `CAPA_REAL_LAB_KUBECONFIG` and
//! `CAPA_REAL_LAB_BARE_DIR`) before it runs the ignored tests; without them it fails saying so.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]
mod common;
use common::{lab_cli, tmux};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use lab_cli::{text, tools_path};

struct RealLab {
    kubeconfig: PathBuf,
    bare: PathBuf,
    src: tempfile::TempDir,
}

impl RealLab {
    fn from_env() -> RealLab {
        let var =
            |name: &str| {
                std::env::var_os(name).map(PathBuf::from).unwrap_or_else(|| {
                panic!(
                    "{name} is not set: the real lab is not up. Run scripts/real-lab up, then \
                     scripts/test (it sets it and runs this test)"
                )
            })
            };
        RealLab {
            kubeconfig: var("CAPA_REAL_LAB_KUBECONFIG"),
            bare: var("CAPA_REAL_LAB_BARE_DIR"),
            src: tempfile::tempdir().unwrap(),
        }
    }

    /// The lab's environment, as `scripts/real-lab env` gives it: this test's own source dir.
    fn env(&self, cmd: &mut Command) {
        cmd.env("KUBECONFIG", &self.kubeconfig)
            .env("CAPA_SRC_DIR", self.src.path())
            .env("CAPA_BARE_DIR", &self.bare)
            .env("PATH", tools_path())
            .env("LANG", "en_US.UTF-8")
            .env_remove("CAPA_LANG");
    }

    /// `capa-tui ARGS` on the real lab, with no `--sim`.
    fn capa(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_capa-tui"));
        cmd.args(args).stdin(Stdio::null());
        self.env(&mut cmd);
        cmd.output().expect("capa-tui runs")
    }

    /// The tutor's command line for tmux.
    fn tutor(&self) -> String {
        format!(
            "env KUBECONFIG={} CAPA_SRC_DIR={} CAPA_BARE_DIR={} PATH={} LANG=en_US.UTF-8 {}",
            self.kubeconfig.display(),
            self.src.path().display(),
            self.bare.display(),
            tools_path(),
            env!("CARGO_BIN_EXE_capa-tui")
        )
    }
}

/// `scripts/real-lab reset`: no Application, no lab namespace, the bare repos moved aside.
fn reset() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/real-lab");
    let out = Command::new(script).arg("reset").output().unwrap();
    assert!(out.status.success(), "real-lab reset: {}", text(&out));
}

fn passes(lab: &RealLab, lesson: &str) {
    let out = lab.capa(&["do", lesson, "--yes", "--timeout", "300"]);
    assert!(
        out.status.success(),
        "do {lesson} on the real lab:\n{}",
        text(&out)
    );
}

#[test]
#[ignore = "needs the real lab: scripts/real-lab up; scripts/test runs it"]
fn the_whole_lab_passes_on_the_real_argo_cd_and_the_tutor_shows_it_live() {
    let lab = RealLab::from_env();
    reset();
    for lesson in ["1", "2", "3", "4", "5"] {
        passes(&lab, lesson);
    }

    // Lesson 6 presented in step mode, on the real controller's clock.
    let t = tmux::Tmux {
        socket: format!("capa-real-lab-{}", std::process::id()),
    };
    t.start(120, 40, &lab.tutor());
    t.wait_for("✓ live", Duration::from_secs(30));
    let on_lesson_6 = |s: &str| s.contains("┃6 · After a hook failure");
    for _ in 0..8 {
        if on_lesson_6(&t.screen()) {
            break;
        }
        t.keys(&["n"]);
        std::thread::sleep(Duration::from_millis(300));
    }
    t.wait_until("lesson 6", Duration::from_secs(10), on_lesson_6);
    t.keys(&["g"]);
    t.wait_for("Step mode · 0/9", Duration::from_secs(10));
    // Each g runs the next action; the prediction before the hook's outcome is answered.
    let banner = "An operation is still retrying";
    let mut seen_banner = false;
    for _ in 0..12 {
        let s = t.screen();
        if s.contains(banner) {
            seen_banner = true;
        }
        if s.contains("Step mode · 9/9 · all done") {
            break;
        }
        if s.contains("? Predict") {
            t.keys(&["2"]);
        }
        let before = step_reached(&s);
        // Before action 8 ends the retrying operation: the fix is pushed and a hard refresh asked
        // for, and once the real controller has compared the fix (its own time, not the plan's),
        // the banner says the new commit waits for the retried one. Pressing on at once would
        // end the operation before the controller looked.
        if before == 7 && !seen_banner {
            let s = t.wait_until(
                "the banner, once the controller compared the fix",
                Duration::from_secs(120),
                |s| s.contains(banner),
            );
            seen_banner = s.contains(banner);
        }
        t.keys(&["g"]);
        // Each action waits on the real controller (a failing hook retries with back-off): it
        // has ended when step mode's count moved on and nothing runs (the plan's own "waiting
        // for g" may have given way to the lesson on a full pane).
        t.wait_until("the action to end", Duration::from_secs(240), |s| {
            s.contains(banner)
                || s.contains("all done")
                || (step_reached(s) > before && s.contains("g runs it"))
        });
        if t.screen().contains(banner) {
            seen_banner = true;
        }
    }
    assert!(
        seen_banner,
        "lesson 6's banner never showed while the real controller retried the broken commit:\n{}",
        t.screen()
    );
    t.wait_for("Step mode · 9/9 · all done", Duration::from_secs(240));
    // The self-check ran as the plan wrote the evidence, while the fix was still syncing; it
    // runs again once the cluster is quiet, and then the whole checklist holds.
    t.wait_for("Checklist 7/7", Duration::from_secs(60));
    t.keys(&["g", "q"]);

    for lesson in ["7", "8"] {
        passes(&lab, lesson);
    }
    let out = lab.capa(&["check", "all"]);
    let said = text(&out);
    assert!(out.status.success(), "check all on the real lab:\n{said}");
    assert_eq!(said.matches("✓ PASS").count(), 8, "{said}");

    // The lesson pack beyond the lab, on the same working copy: an app of apps that creates and
    // prunes a child (the real controller's Events prove the child lived), a PostSync and a
    // SyncFail hook, Prune=false, IgnoreExtraneous and PruneLast, and a retry that refreshes.
    let pack = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/lesson-pack");
    let (lessons, templates) = (pack.join("lessons"), pack.join("repo-template"));
    let (lessons, templates) = (lessons.to_str().unwrap(), templates.to_str().unwrap());
    let with_pack = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--lessons", lessons, "--templates", templates]);
        lab.capa(&all)
    };
    for lesson in ["9", "10", "11", "12"] {
        let out = with_pack(&["do", lesson, "--yes", "--timeout", "300"]);
        assert!(
            out.status.success(),
            "do {lesson} of the lesson pack on the real lab:\n{}",
            text(&out)
        );
    }
    let out = with_pack(&["check", "all"]);
    let said = text(&out);
    assert!(
        out.status.success(),
        "check all of the pack on the real lab:\n{said}"
    );
    assert_eq!(said.matches("✓ PASS").count(), 4, "{said}");
}

/// How many of step mode's actions have run, as its heading says (`Step mode · 4/9`).
fn step_reached(screen: &str) -> usize {
    screen
        .split("Step mode · ")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}
