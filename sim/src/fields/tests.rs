//! Scenario tests: the stories a learner walks through, end to end across the field manager.

use serde_json::{Value, json};

use super::*;

const T0: &str = "2024-05-01T10:00:00Z";
const T1: &str = "2024-05-01T10:01:00Z";
const T2: &str = "2024-05-01T10:02:00Z";

fn writer<'a>(manager: &'a str, time: &'a str) -> Writer<'a> {
    Writer {
        manager,
        api_version: "apps/v1",
        subresource: None,
        time,
        builtin: true,
    }
}

/// An applied configuration for Deployment "web".
fn config(replicas: i64, labels: Value) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "labels": labels},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
                 "template": {"metadata": {"labels": {"app": "web"}},
                              "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}
    })
}

/// The live object and entries after a client-side create of `config(2, ...)`.
fn client_side_created(annotate: bool) -> (Value, Vec<ManagedFieldsEntry>) {
    let mut obj = config(2, json!({"app": "web"}));
    if annotate {
        let last = config(2, json!({"app": "web"})).to_string();
        obj["metadata"]["annotations"] = json!({LAST_APPLIED: last});
    }
    obj["metadata"]["uid"] = json!("u-1");
    let mut entries = Vec::new();
    record_update(
        &mut entries,
        None,
        &obj,
        &writer("kubectl-client-side-apply", T0),
    );
    write_entries(&mut obj, &entries);
    (obj, entries)
}

fn entry<'a>(
    entries: &'a [ManagedFieldsEntry],
    manager: &str,
    op: Operation,
) -> &'a ManagedFieldsEntry {
    let found = entries
        .iter()
        .find(|e| e.manager == manager && e.operation == op);
    found.unwrap_or_else(|| panic!("no {op:?} entry for {manager}: {entries:#?}"))
}

#[test]
fn server_side_apply_of_other_replicas_conflicts_with_the_client_side_creator() {
    let (live, entries) = client_side_created(false);
    let err = server_side_apply(
        Some(&live),
        &entries,
        &config(3, json!({"app": "web"})),
        &writer("kubectl", T1),
        false,
    )
    .unwrap_err();
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].path, ".spec.replicas");
    assert_eq!(
        conflict_message(&err),
        r#"Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas"#
    );
}

#[test]
fn forcing_moves_the_conflicting_field_to_the_applier_alone() {
    let (live, entries) = client_side_created(false);
    let cfg = config(3, json!({"app": "web"}));
    let (obj, new) =
        server_side_apply(Some(&live), &entries, &cfg, &writer("kubectl", T1), true).unwrap();
    assert_eq!(obj["spec"]["replicas"], 3);
    assert_eq!(
        obj["metadata"]["uid"], "u-1",
        "identity comes from the live object"
    );
    let mine = entry(&new, "kubectl", Operation::Apply);
    assert_eq!(mine.fields, FieldSet::from_object(&cfg, true));
    assert_eq!(mine.time, T1);
    let csa = entry(&new, "kubectl-client-side-apply", Operation::Update);
    assert!(!csa.fields.contains_path(&["spec", "replicas"]));
    // Equal values are shared, not taken.
    assert!(csa.fields.contains_path(&["metadata", "labels", "app"]));
    assert!(mine.fields.contains_path(&["metadata", "labels", "app"]));
    assert_eq!(
        read_entries(&obj),
        new,
        "the object carries the new entries"
    );
    assert_eq!(
        obj["metadata"]["managedFields"][0]["operation"], "Apply",
        "Apply sorts first"
    );
}

#[test]
fn kubectl_takes_over_client_side_applied_fields_that_still_match_the_annotation() {
    let (live, entries) = client_side_created(true);
    let cfg = config(3, json!({"app": "web"}));
    let (obj, new) =
        server_side_apply(Some(&live), &entries, &cfg, &writer("kubectl", T1), false).unwrap();
    assert_eq!(obj["spec"]["replicas"], 3);
    assert!(
        entry(&new, "kubectl", Operation::Apply)
            .fields
            .contains_path(&["spec", "replicas"])
    );
    let last: Value = serde_json::from_str(
        obj["metadata"]["annotations"][LAST_APPLIED]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        last["spec"]["replicas"], 3,
        "the annotation follows the apply"
    );
    // Another manager name gets no such help.
    let err = server_side_apply(Some(&live), &entries, &cfg, &writer("ci", T1), false).unwrap_err();
    assert_eq!(err[0].manager, "kubectl-client-side-apply");
}

#[test]
fn a_field_changed_since_the_client_side_apply_still_conflicts() {
    let (live, mut entries) = client_side_created(true);
    let mut scaled = live.clone();
    scaled["spec"]["replicas"] = json!(5);
    let scale = Writer {
        subresource: Some("scale"),
        ..writer("kubectl", T1)
    };
    record_update(&mut entries, Some(&live), &scaled, &scale);
    let err = server_side_apply(
        Some(&scaled),
        &entries,
        &config(3, json!({"app": "web"})),
        &writer("kubectl", T2),
        false,
    )
    .unwrap_err();
    assert_eq!(
        conflict_message(&err),
        r#"Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas"#
    );
}

#[test]
fn several_conflicts_use_the_grouped_message() {
    let (live, mut entries) = client_side_created(false);
    let mut scaled = live.clone();
    scaled["spec"]["replicas"] = json!(5);
    record_update(
        &mut entries,
        Some(&live),
        &scaled,
        &Writer {
            subresource: Some("scale"),
            ..writer("kubectl", T1)
        },
    );
    let mut cfg = config(3, json!({"app": "web", "tier": "x"}));
    cfg["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.28");
    cfg["metadata"]["labels"]["app"] = json!("other");
    let err =
        server_side_apply(Some(&scaled), &entries, &cfg, &writer("ci", T2), false).unwrap_err();
    let expected = [
        "Apply failed with 3 conflicts: conflicts with \"kubectl\" with subresource \"scale\" using apps/v1:",
        "- .spec.replicas",
        "conflicts with \"kubectl-client-side-apply\" using apps/v1:",
        "- .metadata.labels.app",
        "- .spec.template.spec.containers[name=\"web\"].image",
    ];
    assert_eq!(conflict_message(&err), expected.join("\n"));
}

#[test]
fn two_appliers_share_an_equal_label_and_conflict_on_a_different_one() {
    let a = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": {"team": "x"}}, "data": {"a": "1"}});
    let b = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": {"team": "x"}}, "data": {"b": "2"}});
    let wa = Writer {
        api_version: "v1",
        ..writer("alice", T0)
    };
    let wb = Writer {
        api_version: "v1",
        ..writer("bob", T1)
    };
    let (obj, entries) = server_side_apply(None, &[], &a, &wa, false).unwrap();
    assert_eq!(
        obj,
        json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "c", "labels": {"team": "x"}, "managedFields": [entries[0].to_json()]}, "data": {"a": "1"}})
    );
    let (obj, entries) = server_side_apply(Some(&obj), &entries, &b, &wb, false).unwrap();
    assert!(
        entry(&entries, "alice", Operation::Apply)
            .fields
            .contains_path(&["metadata", "labels", "team"])
    );
    assert!(
        entry(&entries, "bob", Operation::Apply)
            .fields
            .contains_path(&["metadata", "labels", "team"])
    );
    assert_eq!(obj["data"], json!({"a": "1", "b": "2"}));
    let mut b2 = b.clone();
    b2["metadata"]["labels"]["team"] = json!("y");
    let err = server_side_apply(Some(&obj), &entries, &b2, &wb, false).unwrap_err();
    assert_eq!(
        conflict_message(&err),
        r#"Apply failed with 1 conflict: conflict with "alice": .metadata.labels.team"#
    );
}

#[test]
fn dropping_a_label_removes_it_only_when_nobody_else_owns_it() {
    let wa = Writer {
        api_version: "v1",
        ..writer("alice", T0)
    };
    let wb = Writer {
        api_version: "v1",
        ..writer("bob", T1)
    };
    let cm = |labels: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": labels}});
    let (obj, entries) = server_side_apply(
        None,
        &[],
        &cm(json!({"solo": "1", "shared": "s"})),
        &wa,
        false,
    )
    .unwrap();
    let (obj, entries) = server_side_apply(
        Some(&obj),
        &entries,
        &cm(json!({"shared": "s"})),
        &wb,
        false,
    )
    .unwrap();
    let (obj, entries) =
        server_side_apply(Some(&obj), &entries, &cm(json!(null)), &wa, false).unwrap();
    assert_eq!(
        obj["metadata"]["labels"],
        json!({"shared": "s"}),
        "solo removed, shared kept"
    );
    assert!(
        entry(&entries, "bob", Operation::Apply)
            .fields
            .contains_path(&["metadata", "labels", "shared"])
    );
    assert!(
        entries.iter().all(|e| e.manager != "alice"),
        "alice applied nothing, so owns nothing"
    );
    let (obj, entries) =
        server_side_apply(Some(&obj), &entries, &cm(json!(null)), &wb, false).unwrap();
    assert!(
        obj["metadata"].get("labels").is_none(),
        "the emptied map goes too: {obj}"
    );
    assert!(entries.is_empty() && obj["metadata"].get("managedFields").is_none());
}

#[test]
fn applying_an_empty_map_owns_the_map_itself() {
    let w = Writer {
        api_version: "v1",
        ..writer("alice", T0)
    };
    let cm = |labels: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": labels}});
    let (obj, entries) = server_side_apply(None, &[], &cm(json!({"a": "1"})), &w, false).unwrap();
    let (obj, entries) =
        server_side_apply(Some(&obj), &entries, &cm(json!({})), &w, false).unwrap();
    assert_eq!(obj["metadata"]["labels"], json!({}));
    assert_eq!(
        entries[0].fields.to_fields_v1(),
        json!({"f:metadata": {"f:labels": {}}})
    );
}

#[test]
fn a_container_no_longer_applied_is_removed_unless_someone_else_owns_part_of_it() {
    let mut cfg = config(1, json!({"app": "web"}));
    cfg["spec"]["template"]["spec"]["containers"] =
        json!([{"name": "web", "image": "a"}, {"name": "side", "image": "s"}]);
    let (obj, entries) = server_side_apply(None, &[], &cfg, &writer("ci", T0), false).unwrap();
    let (pruned, _) = server_side_apply(
        Some(&obj),
        &entries,
        &config(1, json!({"app": "web"})),
        &writer("ci", T1),
        false,
    )
    .unwrap();
    assert_eq!(
        pruned["spec"]["template"]["spec"]["containers"],
        json!([{"name": "web", "image": "nginx:1.27"}])
    );
    // Someone edits the sidecar's image: that field is theirs now, so the item survives.
    let mut edited = obj.clone();
    edited["spec"]["template"]["spec"]["containers"][1]["image"] = json!("s2");
    let mut entries2 = entries.clone();
    record_update(
        &mut entries2,
        Some(&obj),
        &edited,
        &writer("kubectl-edit", T1),
    );
    let (kept, _) = server_side_apply(
        Some(&edited),
        &entries2,
        &config(1, json!({"app": "web"})),
        &writer("ci", T2),
        false,
    )
    .unwrap();
    assert_eq!(
        kept["spec"]["template"]["spec"]["containers"][1],
        json!({"name": "side", "image": "s2"})
    );
}

#[test]
fn re_applying_the_same_configuration_is_a_no_op_down_to_timestamps() {
    let cfg = config(2, json!({"app": "web"}));
    let (obj, entries) = server_side_apply(None, &[], &cfg, &writer("ci", T0), false).unwrap();
    let (again, entries2) =
        server_side_apply(Some(&obj), &entries, &cfg, &writer("ci", T2), false).unwrap();
    assert_eq!(again, obj);
    assert_eq!(entries2, entries);
    assert_eq!(entries2[0].time, T0);
}

/// kubectl's `apply --server-side` after client-side applies re-applies the annotation as
/// `kubectl-last-applied`: the object does not change, so the new entry has ownership but no
/// time (the real server dates an apply only when it changed the object; measured in the real
/// lab).
#[test]
fn an_apply_that_changes_nothing_owns_without_a_time() {
    let (obj, entries) = client_side_created(true);
    let annotation = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default",
                     "annotations": {LAST_APPLIED: obj["metadata"]["annotations"][LAST_APPLIED]}}});
    let (same, entries2) = server_side_apply(
        Some(&obj),
        &entries,
        &annotation,
        &writer("kubectl-last-applied", T1),
        false,
    )
    .unwrap();
    assert_eq!(
        super::apply::strip_managed(&same),
        super::apply::strip_managed(&obj)
    );
    let mine = entry(&entries2, "kubectl-last-applied", Operation::Apply);
    assert_eq!(mine.time, "", "no change, no time");
    assert!(mine.to_json().get("time").is_none());
}

#[test]
fn first_apply_to_an_untracked_object_credits_before_first_apply() {
    let live = config(2, json!({"app": "web"}));
    let err = server_side_apply(
        Some(&live),
        &[],
        &config(4, json!({"app": "web"})),
        &writer("ci", T1),
        false,
    )
    .unwrap_err();
    assert_eq!(err[0].manager, BEFORE_FIRST_APPLY);
    let (_, entries) = server_side_apply(
        Some(&live),
        &[],
        &config(2, json!({"app": "web"})),
        &writer("ci", T1),
        false,
    )
    .unwrap();
    let before = entry(&entries, BEFORE_FIRST_APPLY, Operation::Update);
    assert!(before.fields.contains_path(&["spec", "replicas"]));
}

#[test]
fn applying_only_identity_gives_up_everything() {
    let cfg = config(2, json!({"app": "web"}));
    let (obj, entries) = server_side_apply(None, &[], &cfg, &writer("ci", T0), false).unwrap();
    let bare = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"}});
    let (obj, entries) =
        server_side_apply(Some(&obj), &entries, &bare, &writer("ci", T1), false).unwrap();
    assert!(entries.is_empty());
    assert_eq!(obj, bare);
}
