//! An app of apps in the tutor (instructor trial 4, problem 3): the child Application a lesson
//! names is watched though no lesson applies it, its namespace is watched for the objects the
//! lesson reads there, and a lesson that reads the child as an object (its managedFields, a
//! field a prediction reveals) finds it.

use std::path::Path;
use std::sync::Arc;

use capa_tui::cluster::watch::{ObjectChange, StreamId, lab_streams};
use capa_tui::cluster::{Kind, ObjectKey};
use capa_tui::lab::catalog::Catalog;
use capa_tui::lab::eval::derived::revealed;
use capa_tui::tui::state::Pane;
use capa_tui::tui::update::{Msg, update};
use serde_json::json;

use super::ninth_lesson::copy_tree;
use crate::common::scenes::{draw, text_of};

/// The built-in lessons and templates with the app-of-apps fixture (lesson 9) beside them.
fn catalog(dir: &Path) -> Catalog {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (lessons, templates) = (dir.join("lessons"), dir.join("templates"));
    copy_tree(&root.join("lessons"), &lessons);
    copy_tree(&root.join("repo-template"), &templates);
    let fixture = root.join("tests/fixtures/app-of-apps");
    copy_tree(&fixture.join("lessons"), &lessons);
    copy_tree(&fixture.join("templates"), &templates);
    Catalog::load(Some(&lessons), Some(&templates)).unwrap()
}

#[test]
fn the_tutor_watches_and_reads_a_child_application_no_lesson_applies() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = Arc::new(catalog(dir.path()));
    // The built-in lab's own apps come first, as before; then the parent and the child.
    assert_eq!(
        catalog.apps(),
        ["src-helm", "src-kust", "src-waves", "src-root", "src-hello"]
    );
    let streams = lab_streams(&catalog.apps(), &catalog.namespaces());
    assert!(streams.contains(&StreamId::app("src-hello")), "{streams:?}");
    assert!(
        streams.contains(&StreamId::new("src-hello", Kind::ConfigMap)),
        "the namespace of the ConfigMap lesson 9 reads: {streams:?}"
    );

    let mut s = capa_tui::tui::state::State::builder(catalog)
        .lesson(9)
        .live()
        .focus(Pane::Fields)
        .zoom(true)
        .build();
    let child = json!({
        "apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
        "metadata": {"name": "src-hello", "namespace": "argocd", "resourceVersion": "7",
            "managedFields": [{"manager": "argocd-controller", "operation": "Apply",
                "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:source": {"f:path": {}}}}}]},
        "spec": {"source": {"path": "hello"}, "destination": {"namespace": "src-hello"}},
        "status": {"sync": {"status": "Synced"}, "health": {"status": "Healthy"}}
    });
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(child, Kind::Application)),
    );
    assert!(
        s.live().apps.contains_key("src-hello"),
        "watched as a lab app"
    );
    let key = ObjectKey::app("src-hello");
    assert!(
        s.live().objects.contains_key(&key),
        "kept whole, as lesson 9 reads it as an object"
    );
    assert_eq!(s.fields_object(), Some(key.clone()));
    let screen = text_of(&draw(&s, 120, 40));
    assert!(
        screen.contains("argocd-controller") && !screen.contains("is not in the cluster"),
        "the fields pane finds the child:\n{screen}"
    );
    // The room's answer to lesson 9's question is read from the child itself.
    let ask = s.current().unwrap().spec.actions[2].ask.clone().unwrap();
    assert_eq!(
        revealed(&ask.reveal, &s.live().objects).as_deref(),
        Some("argocd-controller")
    );

    update(
        &mut s,
        Msg::Object(ObjectChange::Deleted { key: key.clone() }),
    );
    assert!(!s.live().objects.contains_key(&key) && !s.live().apps.contains_key("src-hello"));
    // Pruned, the child is said to be gone (when), not to be coming.
    let screen = text_of(&draw(&s, 120, 40));
    assert!(
        screen.contains("argocd/Application/src-hello was deleted at")
            && screen.contains("it is not in the cluster now"),
        "{screen}"
    );
    // Made again, it is there again.
    let again = json!({
        "apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
        "metadata": {"name": "src-hello", "namespace": "argocd", "resourceVersion": "9"},
        "status": {"sync": {"status": "Synced"}, "health": {"status": "Healthy"}}
    });
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(again, Kind::Application)),
    );
    assert!(!text_of(&draw(&s, 120, 40)).contains("was deleted at"));
}
