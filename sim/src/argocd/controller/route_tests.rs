//! Which apps an event refreshes: a child Application tracked to its parent refreshes the
//! parent when it is made, changed or deleted, never by its own status.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{Level, NAMESPACE, app_type, route_to_trackers};
use crate::store::{Event, EventType, Key};

fn child(status: &str, finalizers: Value) -> Value {
    json!({
        "apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
        "metadata": {"name": "child", "namespace": "argocd", "finalizers": finalizers,
            "annotations": {"argocd.argoproj.io/tracking-id":
                "parent:argoproj.io/Application:argocd/child"}},
        "spec": {"source": {"path": "hello"}},
        "status": {"health": {"status": status}}
    })
}

fn routed(kind: EventType, previous: Option<Value>, object: Value) -> BTreeMap<String, Level> {
    let event = Event {
        rv: 1,
        kind,
        key: Key::new(app_type(), NAMESPACE, "child"),
        object: Arc::new(object),
        previous: previous.map(Arc::new),
    };
    let mut pending = BTreeMap::new();
    assert!(
        route_to_trackers(&event, &mut pending),
        "an Application is always routed"
    );
    pending
}

#[test]
fn a_child_application_refreshes_its_parent_when_made_changed_or_deleted() {
    let parent = |p: &BTreeMap<String, Level>| p.get("parent").copied();
    let made = routed(EventType::Added, None, child("Healthy", json!([])));
    assert_eq!(parent(&made), Some(Level::Recent));
    let deleted = routed(
        EventType::Deleted,
        Some(child("Healthy", json!([]))),
        child("Healthy", json!([])),
    );
    assert_eq!(parent(&deleted), Some(Level::Recent), "a pruned child");
    let let_go = routed(
        EventType::Modified,
        Some(child("Healthy", json!(["example.com/hold"]))),
        child("Healthy", json!([])),
    );
    assert_eq!(parent(&let_go), Some(Level::Recent), "a finalizer removed");
    let status_only = routed(
        EventType::Modified,
        Some(child("Progressing", json!([]))),
        child("Healthy", json!([])),
    );
    assert_eq!(
        parent(&status_only),
        None,
        "its own status is an ignored update"
    );
}
