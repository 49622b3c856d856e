//! A lab remembers how it was set up: `--lessons`/`--templates` given when it starts are kept
//! with it, and every later command on it uses them (and says so); `builtin` goes back.

use std::path::Path;

use super::lessons::{capa, text};

/// instructor-4: `check 2` without `--templates` graded the adapted lab against the original
/// values and failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_on_an_adapted_lab_uses_its_lessons_without_repeating_the_flags() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/adapted-lab");
    let (lessons, templates) = (example.join("lessons"), example.join("repo-template"));
    let out = capa(
        &state,
        &[
            "do",
            "1",
            "--yes",
            "--lessons",
            lessons.to_str().unwrap(),
            "--templates",
            templates.to_str().unwrap(),
        ],
    )
    .await;
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("kept with it in"),
        "the first command says the setup is kept: {}",
        text(&out)
    );

    // Lesson 2 done, then checked, with no flag at all.
    let out = capa(&state, &["do", "2", "--yes"]).await;
    assert!(out.status.success(), "{}", text(&out));
    let out = capa(&state, &["check", "2"]).await;
    let said = text(&out);
    assert!(
        out.status.success(),
        "graded by the adapted lab's own values: {said}"
    );
    assert!(
        said.contains(&format!(
            "This lab uses the lessons in {}",
            lessons.display()
        )),
        "{said}"
    );

    let out = capa(&state, &["status", "--json"]).await;
    assert!(out.status.success(), "{}", text(&out));
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["setup"]["templates"], templates.to_str().unwrap());
    assert_eq!(
        status["setup"]["kept_in"],
        state.join("capa-src/capa-lab.json").to_str().unwrap()
    );

    // Back to capa-tui's own lessons: lesson 2's evidence (4 replicas) no longer passes, and
    // nothing adapted is kept any more.
    let out = capa(
        &state,
        &[
            "check",
            "2",
            "--lessons",
            "builtin",
            "--templates",
            "builtin",
        ],
    )
    .await;
    assert!(!out.status.success(), "{}", text(&out));
    assert!(!text(&out).contains("This lab uses"), "{}", text(&out));
    assert!(!state.join("capa-src/capa-lab.json").exists());
    let out = capa(&state, &["status", "--json"]).await;
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["setup"]["lessons"], serde_json::Value::Null);
}

/// A lab whose kept lessons folder was removed is refused with the folder and what to do, not
/// graded against the built-in lessons.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lab_whose_kept_lessons_are_gone_says_so_and_grades_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let src = state.join("capa-src");
    std::fs::create_dir_all(&src).unwrap();
    let gone = dir.path().join("removed-lessons");
    std::fs::write(
        src.join("capa-lab.json"),
        serde_json::json!({"lessons": gone}).to_string(),
    )
    .unwrap();
    let out = capa(&state, &["check", "1"]).await;
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&gone.display().to_string()) && said.contains("not there any more"),
        "{said}"
    );
}
