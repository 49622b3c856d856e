//! A class report without a cluster: a learner's lab collected after class is graded again from
//! what was collected alone, and gives the verdicts the self-check gave live, for a lab done
//! whole, one done in part and one not started.

use std::path::Path;

use capa_tui::i18n::{Lang, Say};
use capa_tui::lab::class::{self, Standing};
use capa_tui::lab::engine;
use capa_tui::lab::eval::check::Grade;
use capa_tui::lab::spec::LessonId;
use tokio::sync::{mpsc, watch};

use super::learners::{do_all, learners_lab};
use crate::common::Lab;

/// What a verdict is, without when it was reached, and with the source dir it was reached in
/// (the learner's, or the collected copy) said as `<src>`.
fn verdicts(grades: &[Grade], src: &Path) -> Vec<(u8, String, bool, Vec<String>)> {
    let src = src.display().to_string();
    grades
        .iter()
        .map(|g| {
            let said = g
                .findings
                .iter()
                .map(|f| format!("{} {}", f.ok, f.what.say(Lang::FALLBACK)).replace(&src, "<src>"))
                .collect();
            (g.lesson.0, g.file.clone(), g.passed(), said)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collected_lab_grades_without_a_cluster_as_check_graded_it_live() {
    let lab = Lab::start().await;
    let alice = learners_lab(&lab, "alice").await;
    let bob = learners_lab(&lab, "bob").await;
    let carol = learners_lab(&lab, "carol").await;
    do_all(&alice).await.unwrap();
    // Bob did lessons 1 and 2 only; Carol nothing.
    for lesson in &bob.catalog.lessons()[..2] {
        let (tx, _rx) = mpsc::unbounded_channel();
        bob.run(
            lesson.id(),
            &engine::plan(lesson).unwrap(),
            tx,
            watch::channel(false).1,
        )
        .await
        .unwrap();
    }
    // Alice opened two hints and made lesson 2's two predictions in the tutor: one right (3
    // replicas), one wrong (the values file's greeting; the parameter's wins).
    let mut progress = capa_tui::lab::progress::Progress::default();
    progress.hints.insert(LessonId(2), 2);
    progress.answers.insert("2:1".into(), "3".into());
    progress
        .answers
        .insert("2:2".into(), "from-values-file".into());
    capa_tui::lab::progress::save(&alice.paths.src_dir, &Default::default(), &progress).unwrap();
    let out = tempfile::tempdir().unwrap();
    for (name, runner) in [("alice", &alice), ("bob", &bob), ("carol", &carol)] {
        let dir = out.path().join(name);
        let live = class::collect(
            &runner.client,
            &runner.catalog,
            &runner.paths,
            Some(name),
            &dir,
        )
        .await
        .unwrap();
        let passed = live.grades.iter().filter(|g| g.passed()).count();
        match name {
            "alice" => assert_eq!(passed, live.grades.len(), "{name}: {:#?}", live.grades),
            "bob" => assert!((2..live.grades.len()).contains(&passed), "{name}: {passed}"),
            _ => assert_eq!(passed, 0, "{name}"),
        }
        let offline = class::grade_collected(&dir, &runner.catalog).await.unwrap();
        assert_eq!(
            verdicts(&offline, &dir.join("src")),
            verdicts(&live.grades, &runner.paths.src_dir),
            "{name}'s lab graded after class"
        );
    }
    // Graded again with the cluster gone: nothing is asked of it.
    drop(lab);
    let offline = class::grade_collected(&out.path().join("alice"), &alice.catalog)
        .await
        .unwrap();
    assert!(offline.iter().all(Grade::passed));

    // The room's table, from the collected labs alone.
    let row = class::report(&out.path().join("alice"), &alice.catalog)
        .await
        .unwrap();
    assert_eq!(row.learner, "alice");
    assert!(row.lessons.iter().all(|l| l.standing == Standing::Passed));
    assert_eq!(row.lessons[1].hints, 2);
    let judged: Vec<(String, Option<bool>)> = row
        .predictions
        .iter()
        .map(|p| (p.chose.clone(), p.right()))
        .collect();
    assert_eq!(
        judged,
        [
            ("3".into(), Some(true)),
            ("from-values-file".into(), Some(false))
        ]
    );
    let row = class::report(&out.path().join("bob"), &bob.catalog)
        .await
        .unwrap();
    let standings: Vec<&Standing> = row.lessons.iter().map(|l| &l.standing).collect();
    assert_eq!(standings[..2], [&Standing::Passed, &Standing::Passed]);
    assert!(
        standings[2..].iter().all(|s| **s == Standing::NotStarted),
        "{standings:?}"
    );
}

/// The instructor's commands: each learner's lab collected from the shared embedded cluster,
/// then the room's table printed and written as CSV and as one HTML page with nothing to fetch.
#[test]
fn class_collect_and_report_from_the_command_line() {
    use crate::common::lab_cli::{capa, text};
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    for learner in ["alice", "bob"] {
        let done = capa(&state, &["do", "1", "--yes", "--learner", learner]);
        assert!(done.status.success(), "{}", text(&done));
    }
    let collected = dir.path().join("collected");
    for learner in ["alice", "bob"] {
        let out = collected.join(learner);
        let out = out.to_str().unwrap();
        let got = capa(
            &state,
            &["class", "collect", "--out", out, "--learner", learner],
        );
        assert!(got.status.success(), "{}", text(&got));
        assert!(text(&got).contains("1 of 8 lessons pass"), "{}", text(&got));
    }
    let (csv, html) = (dir.path().join("room.csv"), dir.path().join("room.html"));
    let report = std::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["class", "report"])
        .args([collected.join("alice"), collected.join("bob")])
        .arg("--csv")
        .arg(&csv)
        .arg("--html")
        .arg(&html)
        .env("LANG", "en_US.UTF-8")
        .env_remove("CAPA_LANG")
        .output()
        .unwrap();
    let said = text(&report);
    assert!(report.status.success(), "{said}");
    // The lessons' columns line up, whatever the names' lengths.
    assert!(said.contains("alice  1 ✓  2 ·"), "{said}");
    assert!(said.contains("bob    1 ✓  2 ·"), "{said}");
    // Time spent is what the tutor saw the checklists tick; `do` alone ticks none.
    assert!(said.contains("· – min · hints 0"), "{said}");
    let csv = std::fs::read_to_string(csv).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2 * 8, "{csv}");
    assert!(csv.contains("\"bob\",1,passed,"), "{csv}");
    let html = std::fs::read_to_string(html).unwrap();
    assert!(
        html.contains("<th>alice</th>") && !html.contains("http"),
        "self-contained: {html}"
    );
}
