//! Scenes of the tutor for tests that draw it: the objects recorded from the embedded cluster
//! after the whole lab ran, changed to show a moment (mid-wave, a failed hook, the retry trap),
//! in a state built as the tutor builds it, drawn on a test backend.

#![allow(dead_code)]

use std::sync::Arc;

use capa_tui::cluster::watch::{StreamId, lab_streams};
use capa_tui::lab::catalog::Catalog;
use capa_tui::session::Target;
use capa_tui::tui::state::{State, StateBuilder};
use capa_tui::tui::view::Screen;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

/// Objects recorded from the embedded cluster after the whole lab ran.
pub fn recorded() -> Value {
    serde_json::from_str(include_str!("../fixtures/lab-done.json")).unwrap()
}

pub fn catalog() -> Arc<Catalog> {
    Arc::new(Catalog::embedded().unwrap())
}

/// A scene: lesson `lesson` (0-based) of the recorded lab, changed by `edit`, every watch
/// listed. The builder takes what a test adds (a language, a part, a size).
pub fn scene(lesson: usize, edit: impl FnOnce(&mut Value)) -> StateBuilder {
    let mut fx = recorded();
    edit(&mut fx);
    let catalog = catalog();
    let n = catalog.lessons()[lesson].spec.number.0;
    let mut b = State::builder(catalog)
        .target(Target::Embedded {
            url: "https://127.0.0.1:6443".into(),
            state: "/home/learner/.local/state/capa-tui/sim".into(),
            served_by: None,
        })
        .lesson(n)
        .now(at("2026-03-01T10:00:00Z"))
        .live();
    for app in fx["apps"].as_array().unwrap() {
        b = b.app(app);
    }
    for (k, v) in fx["objects"].as_object().unwrap() {
        b = b.object(k.parse().expect("a recorded object key"), v.clone());
    }
    let chart = |f: &str| {
        serde_saphyr::from_str::<Value>(
            &std::fs::read_to_string(format!(
                "{}/repo-template/01-helm-chart/repo/charts/web/{f}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap(),
        )
        .unwrap()
    };
    b = b
        .chart_values("values.yaml", chart("values.yaml"))
        .chart_values("values-prod.yaml", chart("values-prod.yaml"));
    for (file, present) in [
        ("precedence.json", true),
        ("tracking.json", true),
        ("waves.json", true),
        ("failed-hook.json", false),
        ("ignore.json", false),
        ("report.json", false),
    ] {
        b = b.evidence_present(file, present);
    }
    b
}

pub fn state_with(lesson: usize, edit: impl FnOnce(&mut Value)) -> State {
    scene(lesson, edit).build()
}

pub fn at(t: &str) -> jiff::Timestamp {
    t.parse().unwrap()
}

/// Every stream the tutor watches for the built-in lessons.
pub fn all_streams() -> Vec<StreamId> {
    lab_streams(&catalog().apps(), &catalog().namespaces())
}

pub fn app_mut<'a>(fx: &'a mut Value, name: &str) -> &'a mut Value {
    fx["apps"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|a| a["metadata"]["name"] == name)
        .unwrap()
}

/// An operation under way: `.operation` set, no finish time, and no history entry for it yet
/// (Argo CD adds one only once a sync has succeeded).
pub fn running_again(app: &mut Value) {
    app["operation"] = app["status"]["operationState"]["operation"].clone();
    let st = &mut app["status"];
    st["operationState"]
        .as_object_mut()
        .unwrap()
        .remove("finishedAt");
    st["history"].as_array_mut().unwrap().pop();
}

pub fn mid_wave(fx: &mut Value) {
    let app = app_mut(fx, "src-waves");
    running_again(app);
    let st = &mut app["status"];
    st["health"]["status"] = json!("Progressing");
    st["operationState"]["phase"] = json!("Running");
    st["operationState"]["message"] = json!("waiting for healthy state of apps/Deployment/app");
    let keep: Vec<Value> = st["operationState"]["syncResult"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["name"] != "smoke")
        .cloned()
        .collect();
    st["operationState"]["syncResult"]["resources"] = json!(keep);
    for r in st["operationState"]["syncResult"]["resources"]
        .as_array_mut()
        .unwrap()
    {
        if r["name"] == "app" {
            r["hookPhase"] = json!("Running");
        }
    }
}

pub fn failed_hook(fx: &mut Value) {
    let app = app_mut(fx, "src-waves");
    running_again(app);
    let st = &mut app["status"];
    st["operationState"]["phase"] = json!("Running");
    st["operationState"]["retryCount"] = json!(1);
    st["operationState"]["message"] = json!(
        "one or more synchronization tasks completed unsuccessfully. Retrying attempt #1 at 3:41AM."
    );
    let hooks: Vec<Value> = st["operationState"]["syncResult"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["hookType"] == "PreSync")
        .map(|r| {
            let mut r = r.clone();
            r["hookPhase"] = json!("Failed");
            r["message"] = json!("Job has reached the specified backoff limit");
            r
        })
        .collect();
    st["operationState"]["syncResult"]["resources"] = json!(hooks);
}

pub fn retry_blocked(fx: &mut Value) {
    failed_hook(fx);
    let app = app_mut(fx, "src-waves");
    app["status"]["sync"]["revision"] = json!("f1x0000000000000000000000000000000000000");
    app["status"]["sync"]["status"] = json!("OutOfSync");
}

pub fn draw(s: &State, w: u16, h: u16) -> TestBackend {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal
        .draw(|f| f.render_widget(&Screen(s), f.area()))
        .unwrap();
    terminal.backend().clone()
}

/// The drawn screen as plain lines of text (the cells' symbols, no quoting), for reading.
pub fn text_of(backend: &TestBackend) -> String {
    let buffer = backend.buffer();
    let width = buffer.area.width as usize;
    buffer
        .content
        .chunks(width.max(1))
        .map(|row| row.iter().map(|c| c.symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}
