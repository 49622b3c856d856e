//! Comparing rendered manifests with the live cluster, on hand-made apps and objects.
use super::*;
use crate::ops::{self, Actor};

fn store() -> Arc<Store> {
    let store = Store::in_memory(1.0);
    crate::bootstrap::seed(&store);
    store
}

fn cm(name: &str, value: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"a": value}})
}

/// A live object carrying the tracking id `id`.
fn live(store: &Store, ty: &'static ResourceType, ns: &str, mut obj: Value, id: &str) {
    obj["metadata"]["annotations"] = json!({TRACKING: id});
    ops::create(store, ty, ns, obj, &Actor::new("test")).unwrap();
}

fn scope<'a>(dest: &'a str, options: &'a SyncOptions) -> Scope<'a> {
    Scope {
        app: "app",
        dest_namespace: dest,
        options,
        namespace_metadata_changed: false,
    }
}

fn resource<'a>(c: &'a Comparison, name: &str) -> &'a Value {
    c.resources
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {:?}", c.resources))
}

/// Audit 3 M4: a resource given twice is one resource, the last copy, with a warning.
#[test]
fn a_repeated_resource_is_kept_once_the_last_copy_with_a_warning() {
    let store = store();
    let none = SyncOptions::default();
    let c = compare(
        &store,
        &scope("default", &none),
        Some(&[cm("d1", "1"), cm("d1", "2"), cm("d2", "x")]),
        &[],
    );
    assert_eq!(c.targets.len(), 2);
    assert_eq!(c.targets[0].desired.as_ref().unwrap()["data"]["a"], "2");
    assert_eq!(
        c.conditions,
        [(
            "RepeatedResourceWarning",
            "Resource /ConfigMap/default/d1 appeared 2 times among application resources."
                .to_string()
        )]
    );
}

/// Audit 3 M5: no destination namespace, a namespaced manifest without one.
#[test]
fn a_namespaced_resource_without_a_namespace_is_an_invalid_spec() {
    let store = store();
    let none = SyncOptions::default();
    let c = compare(&store, &scope("", &none), Some(&[cm("one", "1")]), &[]);
    assert_eq!(
        c.conditions,
        [(
            "InvalidSpecError",
            "Namespace for one /v1, Kind=ConfigMap is missing.".to_string()
        )]
    );
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}});
    let c = compare(&store, &scope("", &none), Some(&[ns]), &[]);
    assert!(c.conditions.is_empty(), "a cluster-scoped one needs none");
}

/// Audit 3 L5: a live object another app tracks.
#[test]
fn a_live_object_of_another_app_is_a_shared_resource() {
    let store = store();
    let ty = &crate::kinds::CONFIG_MAP;
    live(
        &store,
        ty,
        "default",
        cm("s1", "1"),
        "other:/ConfigMap:default/s1",
    );
    let none = SyncOptions::default();
    let c = compare(
        &store,
        &scope("default", &none),
        Some(&[cm("s1", "1")]),
        &[],
    );
    assert_eq!(
        c.conditions,
        [(
            "SharedResourceWarning",
            "ConfigMap/s1 is part of applications argocd/app and other".to_string()
        )]
    );
    assert_eq!(
        tracked_by(c.targets[0].live.as_deref().unwrap()),
        Some("other")
    );
}

/// Differential `hooks-waves/syncfail`: a live hook no longer in the manifests requires
/// pruning when its tracking id is its own; a `generateName` hook's id names no object, and
/// an object carrying a copied id is listed without a status and never pruned.
#[test]
fn live_objects_require_pruning_only_when_their_tracking_id_is_their_own() {
    let store = store();
    let job_ty = &crate::kinds::JOB;
    let job = |name: &str| {
        json!({"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": name}, "spec": {"template": {"spec": {"restartPolicy": "Never",
                "containers": [{"name": "c", "image": "busybox"}]}}}})
    };
    let hooked = |name: &str| {
        let mut j = job(name);
        j["metadata"]["annotations"] = json!({hooks::HOOK: "PreSync"});
        j
    };
    let mut named = hooked("pre");
    named["metadata"]["annotations"][TRACKING] = json!("app:batch/Job:default/pre");
    ops::create(&store, job_ty, "default", named, &Actor::new("t")).unwrap();
    let mut generated = hooked("migrate-3f2a9c1-presync-1760000000");
    generated["metadata"]["annotations"][TRACKING] = json!("app:batch/Job:default/");
    ops::create(&store, job_ty, "default", generated, &Actor::new("t")).unwrap();
    live(
        &store,
        &crate::kinds::CONFIG_MAP,
        "default",
        cm("copy", "1"),
        "app:/ConfigMap:default/original",
    );
    let none = SyncOptions::default();
    let c = compare(
        &store,
        &scope("default", &none),
        Some(&[cm("kept", "1")]),
        &[],
    );
    assert_eq!(resource(&c, "pre")["requiresPruning"], true);
    assert_eq!(resource(&c, "pre")["hook"], true);
    let generated = resource(&c, "migrate-3f2a9c1-presync-1760000000");
    assert!(generated.get("requiresPruning").is_none(), "{generated}");
    let copy = resource(&c, "copy");
    assert!(
        copy.get("status").is_none() && copy.get("requiresPruning").is_none(),
        "{copy}"
    );
    assert!(
        !c.targets
            .iter()
            .find(|t| t.name == "copy")
            .unwrap()
            .self_referenced
    );
}

/// `Prune=confirm` or `Delete=confirm`, the object's own or the app's.
#[test]
fn resources_that_need_confirmation_say_so() {
    let store = store();
    let app_confirms = SyncOptions::from_json(&json!(["Delete=confirm"]));
    let c = compare(
        &store,
        &scope("default", &app_confirms),
        Some(&[cm("a", "1")]),
        &[],
    );
    assert_eq!(resource(&c, "a")["requiresDeletionConfirmation"], true);
    let none = SyncOptions::default();
    let mut own = cm("b", "1");
    own["metadata"]["annotations"] = json!({options::SYNC_OPTIONS: "Prune=confirm"});
    let c = compare(
        &store,
        &scope("default", &none),
        Some(&[own, cm("c", "1")]),
        &[],
    );
    assert_eq!(resource(&c, "b")["requiresDeletionConfirmation"], true);
    assert!(
        resource(&c, "c")
            .get("requiresDeletionConfirmation")
            .is_none()
    );
}

fn annotated(annotations: Value) -> Value {
    json!({"metadata": {"annotations": annotations}})
}

#[test]
fn a_wave_is_read_as_go_reads_it_untrimmed_falling_back_to_the_helm_weight() {
    let wave = |a: Value| sync_wave(&annotated(a));
    assert_eq!(wave(json!({"argocd.argoproj.io/sync-wave": "-1"})), -1);
    assert_eq!(wave(json!({"argocd.argoproj.io/sync-wave": "+2"})), 2);
    assert_eq!(
        wave(json!({"argocd.argoproj.io/sync-wave": " 3", "helm.sh/hook-weight": "7"})),
        7,
        "Atoi refuses the space, so Helm's weight counts"
    );
    assert_eq!(wave(json!({"argocd.argoproj.io/sync-wave": " 3"})), 0);
    assert_eq!(wave(json!({"helm.sh/hook-weight": "-5"})), -5);
    assert_eq!(wave(json!({})), 0);
}
