//! Work per change on a shared classroom cluster: an Application that is not the lab's, or a
//! write that changes nothing the tutor reads, changes no state and draws no frame; a lab app's
//! change judges only the lessons that read it.

use crate::cluster::Kind;
use crate::cluster::ObjectKey;
use crate::cluster::watch::ObjectChange;
use crate::tui::update::{InputMsg, LabMsg};

use ratatui::crossterm::event::KeyEvent;
use serde_json::{Value, json};

use super::*;
use crate::lab::catalog::Catalog;

fn state() -> State {
    State::builder(std::sync::Arc::new(Catalog::embedded().unwrap())).build()
}

fn app(name: &str, rv: &str, health: &str) -> Value {
    json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
        "metadata": {"name": name, "namespace": "argocd", "resourceVersion": rv},
        "spec": {"source": {"repoURL": "git://x/src.git", "path": "charts/web"},
            "destination": {"namespace": name}},
        "status": {"sync": {"status": "Synced"}, "health": {"status": health}}})
}

fn cm(rv: &str, greeting: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "src-helm-greeting", "namespace": "src-helm", "resourceVersion": rv},
        "data": {"greeting": greeting}})
}

#[test]
fn an_application_that_is_not_the_labs_changes_nothing_and_draws_no_frame() {
    let mut s = state();
    let before = s.version;
    assert!(
        update(
            &mut s,
            Msg::Object(ObjectChange::applied(
                app("class-0001", "7", "Healthy"),
                Kind::Application
            ))
        )
        .is_empty()
    );
    assert_eq!(s.version, before, "no frame for it");
    assert!(s.live.apps.is_empty());
    assert!(s.lab.checklists.is_empty(), "no lesson judged again");
    update(
        &mut s,
        Msg::Object(ObjectChange::Deleted {
            key: ObjectKey::app("class-0001"),
        }),
    );
    assert_eq!(s.version, before);
}

#[test]
fn a_lab_app_refreshed_with_nothing_new_draws_no_frame_and_a_change_does() {
    let mut s = state();
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(
            app("src-helm", "1", "Healthy"),
            Kind::Application,
        )),
    );
    let once = s.version;
    assert!(once > 0);
    // Argo CD's periodic refresh writes the app again: a new resourceVersion, nothing else.
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(
            app("src-helm", "2", "Healthy"),
            Kind::Application,
        )),
    );
    assert_eq!(s.version, once);
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(
            app("src-helm", "3", "Degraded"),
            Kind::Application,
        )),
    );
    assert!(s.version > once);
    assert_eq!(
        s.live.app("src-helm").unwrap().status.health.status,
        "Degraded"
    );
}

#[test]
fn one_lab_app_judges_only_the_lessons_that_read_it() {
    let mut s = state();
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(
            app("src-helm", "1", "Healthy"),
            Kind::Application,
        )),
    );
    for lesson in s.lessons() {
        let reads = lesson
            .spec
            .checklist
            .iter()
            .any(|i| i.done_when.apps().contains(&"src-helm"));
        assert_eq!(
            s.lab.checklists.contains_key(&lesson.id()),
            reads,
            "lesson {} judged again only if it reads src-helm",
            lesson.spec.number
        );
    }
}

#[test]
fn an_object_written_again_unchanged_draws_no_frame() {
    let mut s = state();
    let key: ObjectKey = "src-helm/ConfigMap/src-helm-greeting".parse().unwrap();
    update(
        &mut s,
        Msg::Object(ObjectChange::Applied {
            key: key.clone(),
            object: cm("1", "hello"),
        }),
    );
    let once = s.version;
    update(
        &mut s,
        Msg::Object(ObjectChange::Applied {
            key: key.clone(),
            object: cm("2", "hello"),
        }),
    );
    assert_eq!(s.version, once, "only its resourceVersion moved");
    update(
        &mut s,
        Msg::Object(ObjectChange::Applied {
            key: key.clone(),
            object: cm("3", "from-parameter"),
        }),
    );
    assert!(s.version > once);
    assert_eq!(
        s.live.objects[&key]["data"]["greeting"],
        json!("from-parameter")
    );
    let changed = s.version;
    update(
        &mut s,
        Msg::Object(ObjectChange::Deleted {
            key: "src-helm/ConfigMap/never-there".parse().unwrap(),
        }),
    );
    assert_eq!(
        s.version, changed,
        "removing what is not there changes nothing"
    );
}

#[test]
fn the_lab_files_read_again_unchanged_draw_no_frame() {
    let mut s = state();
    let commits = vec![("abc123".to_string(), "Add the chart".to_string())];
    update(&mut s, Msg::Lab(LabMsg::Commits(commits.clone())));
    update(
        &mut s,
        Msg::Lab(LabMsg::Git(crate::lab::eval::GitFacts::default())),
    );
    let once = s.version;
    update(&mut s, Msg::Lab(LabMsg::Commits(commits)));
    update(
        &mut s,
        Msg::Lab(LabMsg::Git(crate::lab::eval::GitFacts::default())),
    );
    assert_eq!(s.version, once);
    update(&mut s, Msg::Lab(LabMsg::Commits(vec![])));
    assert!(s.version > once);
}

#[test]
fn a_lesson_that_comes_on_screen_is_judged_then() {
    let mut s = State::builder(std::sync::Arc::new(Catalog::embedded().unwrap()))
        .live()
        .build();
    // An app lesson 2 does not read: the lessons that read it are judged, lesson 2 is not.
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(
            app("src-kust", "1", "Healthy"),
            Kind::Application,
        )),
    );
    let first = s.ui.place.lesson;
    let next = s.lessons()[1].id();
    assert!(!s.lab.checklists.contains_key(&next), "not judged yet");
    update(
        &mut s,
        Msg::Input(InputMsg::Key(KeyEvent::from(
            ratatui::crossterm::event::KeyCode::Char('n'),
        ))),
    );
    assert_ne!(s.ui.place.lesson, first);
    assert!(
        s.lab.checklists.contains_key(&s.ui.place.lesson),
        "the lesson arrived at is judged on the facts now"
    );
}
