//! The lesson pane stays true while the cluster changes under it: a tick un-ticks with the reason
//! when the cluster undoes a step, the self-check is re-run and says when, and both come back
//! when the step is done again. Driven in tmux, as a learner sees it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]
mod common;
use common::{english, lab_cli, tmux};

use std::time::Duration;

use lab_cli::{capa, kubectl, text, tutor_command};

/// The lesson pane's text (the left, heavy-bordered column), its wrapped lines joined.
fn lesson_text(screen: &str) -> String {
    let lines: Vec<&str> = screen
        .lines()
        .filter_map(|l| l.strip_prefix('┃'))
        .map(|l| l.split('┃').next().unwrap_or_default().trim())
        .collect();
    lines.join(" ")
}

/// The clock time in `(checked HH:MM:SS)`.
fn checked_at(screen: &str) -> String {
    let flat = lesson_text(screen);
    let at = flat
        .find("(checked ")
        .unwrap_or_else(|| panic!("no check time:\n{screen}"));
    flat[at + 9..at + 17].to_string()
}

#[test]
fn a_tick_unticks_with_its_reason_and_the_self_check_reruns_when_the_cluster_undoes_a_step() {
    let t = tmux::Tmux {
        socket: format!("capa-live-lesson-{}", std::process::id()),
    };
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    t.start(120, 40, &tutor_command(&state, "en_US.UTF-8"));
    t.wait_for("✓ live", Duration::from_secs(30));
    for lesson in ["1", "2"] {
        let out = capa(&state, &["do", lesson, "--yes"]);
        assert!(out.status.success(), "do {lesson}: {}", text(&out));
    }
    t.keys(&["n"]);
    let done = t.wait_until(
        "lesson 2 all ticked and passing",
        Duration::from_secs(30),
        |s| s.contains("Checklist 5/5") && s.contains("✓ precedence.json passes the self-check"),
    );
    let first_check = checked_at(&done);

    // Undo two steps in the cluster: the Application is gone.
    let out = kubectl(
        &state,
        &["-n", "argocd", "delete", "application", "src-helm"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let undone = t.wait_until("lesson 2 un-ticked", Duration::from_secs(30), |s| {
        s.contains("✗ precedence.json fails the self-check") && !s.contains("Checklist 5/5")
    });
    let flat = lesson_text(&undone);
    assert!(flat.contains("undone since"), "{undone}");
    assert!(
        flat.contains("there is no Application src-helm in argocd"),
        "the reason, in words: {undone}"
    );
    assert!(
        checked_at(&undone) > first_check,
        "re-checked after the change, and says when: {undone}"
    );

    // Done again: the ticks and the pass come back.
    let out = capa(&state, &["do", "2", "--yes"]);
    assert!(out.status.success(), "do 2 again: {}", text(&out));
    t.wait_until("lesson 2 ticked again", Duration::from_secs(60), |s| {
        s.contains("Checklist 5/5") && s.contains("✓ precedence.json passes the self-check")
    });
    t.keys(&["q"]);
}

/// Lesson 7's "40 s later" item: the scale happens, the item counts down, and it ticks only once
/// the 40 s (of the cluster's clock) have passed; scaled away, it un-ticks.
#[test]
fn a_step_that_needs_time_counts_down_and_ticks_only_when_the_time_has_passed() {
    let t = tmux::Tmux {
        socket: format!("capa-live-hold-{}", std::process::id()),
    };
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    t.start(120, 40, &tutor_command(&state, "en_US.UTF-8"));
    t.wait_for("✓ live", Duration::from_secs(30));
    for lesson in ["1", "4", "7"] {
        let out = capa(&state, &["do", lesson, "--yes"]);
        assert!(out.status.success(), "do {lesson}: {}", text(&out));
    }
    t.keys(&["n", "n", "n", "n", "n", "n"]);
    t.wait_until("lesson 7's hold ticked", Duration::from_secs(30), |s| {
        lesson_text(s).contains("✓")
            && lesson_text(s).contains("40 s later: still 4 replicas")
            && !lesson_text(s).contains("⧗")
    });
    let scale = |n: &str| {
        let out = kubectl(
            &state,
            &[
                "-n",
                "src-kust",
                "scale",
                "deployment/prod-api",
                &format!("--replicas={n}"),
            ],
        );
        assert!(out.status.success(), "{}", text(&out));
    };
    scale("5");
    t.wait_until(
        "the hold undone at 5 replicas",
        Duration::from_secs(30),
        |s| {
            let l = lesson_text(s);
            l.contains("✗ 40 s later: still 4 replicas") && l.contains("undone since")
        },
    );
    scale("4");
    // On failure, the scale Events the hold is dated by (what the tutor judged from).
    let events = || {
        text(&kubectl(
            &state,
            &[
                "-n",
                "src-kust",
                "get",
                "events",
                "--field-selector",
                "reason=ScalingReplicaSet",
                "-o",
                "custom-columns=TIME:.lastTimestamp,MESSAGE:.message",
            ],
        ))
    };
    let started = std::time::Instant::now();
    let counting = loop {
        let s = t.screen();
        if lesson_text(&s).contains("⧗ 40 s later: still 4 replicas") {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the screen never showed a countdown within 30s:\n{s}\nscale Events:\n{}",
            events()
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(lesson_text(&counting).contains("s to go"), "{counting}");
    t.wait_until(
        "ticked once 40 s have passed",
        Duration::from_secs(30),
        |s| {
            let l = lesson_text(s);
            !l.contains("⧗")
                && !l.contains("✗ 40 s later")
                && l.contains("40 s later: still 4 replicas")
        },
    );
    t.keys(&["q"]);
}

/// Lesson 6's trap, stepped through in the tutor in each language other than English: the hook
/// fails, the fix is pushed while the broken commit is retried, and the banner says so in the
/// learner's language, with nothing of the tutor's own English on screen.
#[test]
fn the_retry_trap_is_said_in_each_language_in_a_real_terminal() {
    use capa_tui::i18n::Lang;
    for lang in Lang::all().iter().filter(|l| **l != Lang::FALLBACK) {
        let code = lang.code();
        let t = tmux::Tmux {
            socket: format!("capa-live-trap-{code}-{}", std::process::id()),
        };
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        for lesson in ["1", "5"] {
            let out = capa(&state, &["do", lesson, "--yes", "--lang", code]);
            assert!(out.status.success(), "do {lesson}: {}", text(&out));
        }
        t.start(
            120,
            40,
            &format!(
                "{} --lang {code} --lesson 6",
                tutor_command(&state, "C.UTF-8")
            ),
        );
        t.wait_for("src-waves", Duration::from_secs(30));
        t.wait_for("6 · ", Duration::from_secs(10));
        // Step mode: write the broken commit, push it, refresh, then predict and wait.
        let done = |n: usize| format!(" {n}/9 ");
        t.keys(&["g"]);
        t.wait_for(&done(0), Duration::from_secs(10));
        for n in 1..=2 {
            t.keys(&["g"]);
            t.wait_for(&done(n), Duration::from_secs(30));
        }
        // The room predicts before the hard refresh starts the failing sync.
        t.keys(&["g"]);
        t.wait_for("1–2", Duration::from_secs(10));
        t.keys(&["2", "g"]);
        t.wait_for(&done(3), Duration::from_secs(30));
        t.keys(&["g"]);
        t.wait_for(&done(4), Duration::from_secs(60));
        // The fix, pushed and seen while the broken commit is still retried.
        for n in 5..=7 {
            t.keys(&["g"]);
            t.wait_for(&done(n), Duration::from_secs(30));
        }
        let screen = t.wait_for("⚠", Duration::from_secs(30));
        let mut english = english::English::for_language(code);
        let apps = lab_cli::kubectl(&state, &["get", "applications", "-A", "-o", "json"]);
        english.allow_json(&serde_json::from_slice(&apps.stdout).unwrap_or_default());
        english.allow("waiting for completion of hook · waiting for deletion of hook");
        let found = english.lines_in(&screen);
        assert!(found.is_empty(), "{code}: {found:?}\n{screen}");
        t.keys(&["q"]);
    }
}

/// Lessons done with `capa-tui do` before the tutor ever opened: it opens on the first lesson
/// whose checklist is not done, once it has read the lab (a walk opened on lesson 1 after `do
/// 1`…`do 4`, and pressed n four times). A lesson the learner then picks stays picked.
#[test]
fn the_tutor_opens_on_the_first_lesson_not_done() {
    let t = tmux::Tmux {
        socket: format!("capa-opens-where-{}", std::process::id()),
    };
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let out = capa(&state, &["do", "1", "--yes"]);
    assert!(out.status.success(), "do 1: {}", text(&out));
    t.start(120, 40, &tutor_command(&state, "en_US.UTF-8"));
    let screen = t.wait_until("lesson 2 on screen", Duration::from_secs(30), |s| {
        s.contains("✓ live") && lesson_text(s).contains("2 · The values file says")
    });
    assert!(
        !lesson_text(&screen).contains("1 · Put a chart"),
        "{screen}"
    );
    t.keys(&["p"]);
    t.wait_until("lesson 1 picked", Duration::from_secs(10), |s| {
        lesson_text(s).contains("1 · Put a chart in Git")
    });
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        lesson_text(&t.screen()).contains("1 · Put a chart in Git"),
        "the picked lesson stays"
    );
    t.keys(&["q"]);
}
