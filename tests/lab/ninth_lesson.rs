//! A lesson is data: a made-up ninth lesson, added as a folder beside copies of the built-in
//! ones (and a template folder), appears in the tutor, runs with `do`, and is graded by `check`
//! without any change to the code.

use capa_tui::tui::update::InputMsg;

use std::path::{Path, PathBuf};

use capa_tui::lab::catalog::Catalog;
use capa_tui::tui::state::State;
use capa_tui::tui::update::{Msg, update};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;

use super::lessons::{capa, text};

const LESSON_YAML: &str = r#"number: 9
slug: greeting-check
title:
  en: "Read the greeting back from the cluster"
  zh: "从集群读回问候语"
app: src-helm
focus: src-helm/ConfigMap/src-helm-greeting
templates: [lesson9]
evidence:
  file: greeting.json
  live_hint: 1
  fields:
    - name: greeting
      type: string
      live: true
      from: {read: field, object: src-helm/ConfigMap/src-helm-greeting, path: data.greeting}
    - name: sync_status
      type: string
      from: {read: field, object: argocd/Application/src-helm, path: status.sync.status}
  rules:
    - {rule: one-of, fields: [sync_status], values: [Synced], hint: 1, why: wait for the sync}
actions:
  - {do: write-templates, template: lesson9}
  - {do: apply-app, file: app-src-helm.yaml}
  - {do: wait, app: src-helm, until: synced-healthy}
  - {do: evidence, file: greeting.json}
"#;

fn lesson_text(lang: &str) -> String {
    format!(
        "# Nine ({lang})\n## Goal\nRead the greeting.\n## Why\nBecause.\n## Steps\n1. Look.\n## Mistakes\n- None.\n## Hints\n1. Wait for the sync.\n## By hand\n```sh\nkubectl -n src-helm get cm\n```\n"
    )
}

pub(super) fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// The built-in lessons and templates plus lesson nine: (lessons dir, templates dir).
fn ninth_lesson(dir: &Path) -> (PathBuf, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lessons = dir.join("lessons");
    let templates = dir.join("templates");
    copy_tree(&root.join("lessons"), &lessons);
    copy_tree(&root.join("repo-template"), &templates);
    let nine = lessons.join("09-greeting-check");
    std::fs::create_dir_all(&nine).unwrap();
    std::fs::write(nine.join("lesson.yaml"), LESSON_YAML).unwrap();
    std::fs::write(nine.join("en.md"), lesson_text("en")).unwrap();
    std::fs::write(nine.join("zh.md"), lesson_text("zh")).unwrap();
    // Lesson nine's change: a Helm parameter on the Application, with a new greeting.
    std::fs::create_dir_all(templates.join("lesson9")).unwrap();
    let app = std::fs::read_to_string(templates.join("01-helm-chart/app-src-helm.yaml"))
        .unwrap()
        .replace(
            "      valueFiles:",
            "      parameters:\n        - {name: greeting, value: hello from lesson nine}\n      valueFiles:",
        );
    std::fs::write(templates.join("lesson9/app-src-helm.yaml"), app).unwrap();
    (lessons, templates)
}

#[test]
fn a_ninth_lesson_folder_appears_in_the_tutor() {
    let dir = tempfile::tempdir().unwrap();
    let (lessons_dir, _) = ninth_lesson(dir.path());
    let catalog = Catalog::load(Some(&lessons_dir), None).unwrap();
    assert_eq!(catalog.lessons().len(), 9);
    let mut state = State::builder(std::sync::Arc::new(catalog)).build();
    for _ in 0..8 {
        update(
            &mut state,
            Msg::Input(InputMsg::Key(KeyEvent::new(
                KeyCode::Char('n'),
                KeyModifiers::NONE,
            ))),
        );
    }
    let screen = crate::common::scenes::text_of(&crate::common::scenes::draw(&state, 120, 40));
    assert!(
        screen.contains("9 · Read the greeting back from the cluster"),
        "{screen}"
    );
    assert!(screen.contains("evidence: greeting.json"), "{screen}");
    assert!(screen.contains("greeting.json"), "evidence pane lists it");
}

#[test]
fn a_lesson_with_a_typo_fails_to_load_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let (lessons_dir, _) = ninth_lesson(dir.path());
    let yaml = lessons_dir.join("09-greeting-check/lesson.yaml");
    let text = std::fs::read_to_string(&yaml)
        .unwrap()
        .replace("rule: one-of", "rule: one-off");
    std::fs::write(&yaml, text).unwrap();
    let e = Catalog::load(Some(&lessons_dir), None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("09-greeting-check") && e.contains("one-off"),
        "{e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ninth_lesson_runs_and_is_checked_with_no_code_change() {
    let dir = tempfile::tempdir().unwrap();
    let (lessons_dir, templates_dir) = ninth_lesson(dir.path());
    let state = dir.path().join("state");
    let with_nine = |cmd: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
        args.extend([
            "--lessons".into(),
            lessons_dir.display().to_string(),
            "--templates".into(),
            templates_dir.display().to_string(),
        ]);
        args
    };
    for cmd in [["do", "1", "--yes"], ["do", "9", "--yes"]] {
        let args = with_nine(&cmd);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = capa(&state, &args).await;
        assert!(out.status.success(), "{cmd:?}: {}", text(&out));
    }
    let evidence: Value = serde_json::from_str(
        &std::fs::read_to_string(state.join("capa-src/greeting.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(evidence["greeting"], "hello from lesson nine");
    assert_eq!(evidence["sync_status"], "Synced");
    let args = with_nine(&["check", "9", "--json"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = capa(&state, &args).await;
    let graded: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(graded["passed"], true, "{}", text(&out));
    assert_eq!(graded["files"][0]["file"], "greeting.json");

    // A greeting that differs from the cluster's fails with the lesson's own hint number.
    std::fs::write(
        state.join("capa-src/greeting.json"),
        r#"{"greeting": "made up", "sync_status": "Synced"}"#,
    )
    .unwrap();
    let out = capa(&state, &args).await;
    let graded: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(graded["passed"], false, "{}", text(&out));
    let findings = graded["files"][0]["findings"].as_array().unwrap();
    assert!(
        findings
            .iter()
            .any(|f| f["ok"] == false && f["what"].as_str().unwrap().contains("made up")),
        "{findings:?}"
    );
}
