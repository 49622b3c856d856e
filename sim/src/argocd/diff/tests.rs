//! Scenarios from the lab: a Helm-rendered Deployment against what k3s stores.

use serde_json::{Value, json};

use super::*;
use crate::argocd::apply::{LAST_APPLIED, client_side_apply};

fn desired(replicas: u32, image: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "src-helm-web", "namespace": "src-helm",
            "labels": {"app": "web"},
            "annotations": {"argocd.argoproj.io/tracking-id": "src-helm:apps/Deployment:src-helm/src-helm-web"}},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": image,
                    "ports": [{"containerPort": 80}], "resources": {}}]}}}})
}

/// The server defaults a Deployment gets (the simulator's `defaults::apply` does the same).
fn server_defaults(obj: &mut Value) {
    if obj["kind"] != "Deployment" {
        return;
    }
    let spec = &mut obj["spec"];
    if spec.get("replicas").is_none() {
        spec["replicas"] = json!(1);
    }
    if spec.get("strategy").is_none() {
        spec["strategy"] = json!({"type": "RollingUpdate"});
    }
    if spec["strategy"]["type"] == "RollingUpdate"
        && spec["strategy"].get("rollingUpdate").is_none()
    {
        spec["strategy"]["rollingUpdate"] = json!({"maxSurge": "25%", "maxUnavailable": "25%"});
    }
    for (k, v) in [
        ("revisionHistoryLimit", json!(10)),
        ("progressDeadlineSeconds", json!(600)),
    ] {
        if spec.get(k).is_none() {
            spec[k] = v;
        }
    }
    let pod = &mut spec["template"]["spec"];
    for (k, v) in [
        ("restartPolicy", json!("Always")),
        ("dnsPolicy", json!("ClusterFirst")),
        ("schedulerName", json!("default-scheduler")),
        ("securityContext", json!({})),
        ("terminationGracePeriodSeconds", json!(30)),
    ] {
        if pod.get(k).is_none() {
            pod[k] = v;
        }
    }
    if let Some(containers) = pod["containers"].as_array_mut() {
        for c in containers {
            for (k, v) in [
                ("imagePullPolicy", json!("IfNotPresent")),
                ("terminationMessagePath", json!("/dev/termination-log")),
                ("terminationMessagePolicy", json!("File")),
                ("resources", json!({})),
            ] {
                if c.get(k).is_none() {
                    c[k] = v;
                }
            }
            if let Some(ports) = c["ports"].as_array_mut() {
                for p in ports {
                    if p.get("protocol").is_none() {
                        p["protocol"] = json!("TCP");
                    }
                }
            }
        }
    }
}

/// What k3s holds after Argo CD applied `manifest` (with the annotation) or after someone
/// created it without one.
fn live_of(manifest: &Value, annotated: bool) -> Value {
    let mut live = if annotated {
        client_side_apply(None, manifest, true)
    } else {
        manifest.clone()
    };
    server_defaults(&mut live);
    let meta = &mut live["metadata"];
    meta["uid"] = json!("5f0c6a57-1f0e-4b57-a3c4-7d2f5a1e9b10");
    meta["resourceVersion"] = json!("1234");
    meta["generation"] = json!(1);
    meta["creationTimestamp"] = json!("2026-05-01T10:00:00Z");
    meta["managedFields"] = json!([{"manager": "argocd-controller", "operation": "Update",
        "apiVersion": "apps/v1", "time": "2026-05-01T10:00:00Z", "fieldsType": "FieldsV1",
        "fieldsV1": {"f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
            "k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}}]);
    live["status"] = json!({"observedGeneration": 1, "replicas": 2, "updatedReplicas": 2,
        "readyReplicas": 2, "availableReplicas": 2,
        "conditions": [{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
            {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}]});
    live
}

fn replicas_rule() -> Vec<IgnoreRule> {
    ignore_rules(
        &json!([{"group": "apps", "kind": "Deployment", "jsonPointers": ["/spec/replicas"]}]),
    )
}

fn check(desired: &Value, live: &Value, rules: &[IgnoreRule]) -> DiffResult {
    let matching = rules_for(rules, desired);
    diff_with_defaults(desired, Some(live), &matching, true, &server_defaults)
}

#[test]
fn a_synced_deployment_with_server_defaults_and_status_is_not_modified() {
    let d = desired(2, "nginx:1.27-alpine");
    for annotated in [true, false] {
        let result = check(&d, &live_of(&d, annotated), &[]);
        assert!(!result.modified, "annotated={annotated}: {result:?}");
        assert_eq!(result.error, None);
        assert!(
            result.normalized_live.get("status").is_none(),
            "status is never compared"
        );
        // Without defaulting, the same holds: nothing in the prediction needed it.
        assert!(!diff(&d, Some(&live_of(&d, annotated)), &[], true).modified);
    }
}

#[test]
fn kubectl_scale_is_drift_unless_replicas_are_ignored() {
    let d = desired(2, "nginx:1.27-alpine");
    for annotated in [true, false] {
        let mut live = live_of(&d, annotated);
        live["spec"]["replicas"] = json!(4);
        let result = check(&d, &live, &[]);
        assert!(result.modified, "annotated={annotated}");
        assert_eq!(result.predicted_live["spec"]["replicas"], 2);
        assert!(
            !check(&d, &live, &replicas_rule()).modified,
            "annotated={annotated}"
        );
        // The rule is for apps/Deployment only.
        let other = ignore_rules(
            &json!([{"group": "", "kind": "Deployment", "jsonPointers": ["/spec/replicas"]}]),
        );
        assert!(check(&d, &live, &other).modified);
    }
}

#[test]
fn a_git_change_to_an_ignored_field_alone_is_no_drift() {
    let live = live_of(&desired(2, "nginx:1.27-alpine"), true);
    assert!(!check(&desired(3, "nginx:1.27-alpine"), &live, &replicas_rule()).modified);
    assert!(check(&desired(3, "nginx:1.27-alpine"), &live, &[]).modified);
}

#[test]
fn an_image_change_is_drift() {
    let live = live_of(&desired(2, "nginx:1.27-alpine"), true);
    let result = check(&desired(2, "nginx:1.28-alpine"), &live, &replicas_rule());
    assert!(result.modified);
    let c = &result.predicted_live["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(c["image"], "nginx:1.28-alpine");
    assert_eq!(
        c["imagePullPolicy"], "IfNotPresent",
        "server defaults survive the patch"
    );
}

#[test]
fn labels_added_by_others_are_not_drift_but_dropped_ones_are() {
    let mut d = desired(2, "nginx:1.27-alpine");
    d["metadata"]["labels"]["tier"] = json!("front");
    let mut live = live_of(&d, true);
    live["metadata"]["labels"]["team"] = json!("ops");
    assert!(!check(&d, &live, &[]).modified);
    let mut fewer = d.clone();
    fewer["metadata"]["labels"] = json!({"app": "web"});
    let result = check(&fewer, &live, &[]);
    assert!(
        result.modified,
        "tier was in the last apply and is gone from Git"
    );
    assert_eq!(
        result.predicted_live["metadata"]["labels"],
        json!({"app": "web", "team": "ops"})
    );
    // Without the annotation Argo CD cannot know the label was ever its own.
    assert!(!check(&fewer, &live_of(&d, false), &[]).modified);
}

#[test]
fn retain_keys_needs_the_server_defaults() {
    let mut d = desired(2, "nginx:1.27-alpine");
    d["spec"]["strategy"] = json!({"type": "RollingUpdate"});
    let live = live_of(&d, true);
    // kubectl's patch clears rollingUpdate, the defaults bring it back.
    assert!(!check(&d, &live, &[]).modified);
    assert!(diff(&d, Some(&live), &[], true).modified);
}

#[test]
fn scale_ownership_can_be_trusted_instead_of_a_pointer() {
    let d = desired(2, "nginx:1.27-alpine");
    let mut live = live_of(&d, true);
    live["spec"]["replicas"] = json!(4);
    live["metadata"]["managedFields"] = json!([
        {"manager": "argocd-controller", "operation": "Update", "fieldsV1": {"f:spec": {}}},
        {"manager": "kubectl", "operation": "Update", "subresource": "scale",
         "fieldsV1": {"f:spec": {"f:replicas": {}}}}]);
    let rules =
        ignore_rules(&json!([{"group": "*", "kind": "*", "managedFieldsManagers": ["kubectl"]}]));
    assert!(!check(&d, &live, &rules).modified);
    let mut image = desired(2, "nginx:1.28-alpine");
    image["spec"]["replicas"] = json!(2);
    assert!(
        check(&image, &live, &rules).modified,
        "the image is still argocd's"
    );
}

#[test]
fn jq_rules_ignore_injected_containers() {
    let d = desired(2, "nginx:1.27-alpine");
    let mut live = live_of(&d, true);
    live["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.29");
    let rules = ignore_rules(&json!([{"group": "apps", "kind": "Deployment",
        "jqPathExpressions": [".spec.template.spec.containers[] | select(.name == \"web\").image"]}]));
    assert!(!check(&d, &live, &rules).modified);
    let broken = ignore_rules(
        &json!([{"group": "apps", "kind": "Deployment", "jqPathExpressions": [".a | map(.b)"]}]),
    );
    assert_eq!(check_rules(&broken).len(), 1);
    let result = check(&d, &live, &broken);
    assert!(result.error.is_some_and(|e| e.contains("map")));
}

#[test]
fn a_missing_resource_is_modified() {
    let result = diff(&desired(2, "x"), None, &[], true);
    assert!(result.modified);
    assert_eq!(result.normalized_live, Value::Null);
    assert_eq!(result.predicted_live["spec"]["replicas"], 2);
}

#[test]
fn respect_ignore_differences_keeps_the_live_replicas() {
    let d = desired(2, "nginx:1.28-alpine");
    let mut live = live_of(&desired(2, "nginx:1.27-alpine"), true);
    live["spec"]["replicas"] = json!(4);
    let rules = replicas_rule();
    let target = respect_ignore_differences(&d, Some(&live), &rules_for(&rules, &d));
    assert_eq!(target["spec"]["replicas"], 4);
    assert_eq!(
        target["spec"]["template"], d["spec"]["template"],
        "everything else from Git"
    );
    assert!(target.get("status").is_none());
    assert!(target["metadata"].get("managedFields").is_none());
    assert_eq!(
        respect_ignore_differences(&d, None, &rules_for(&rules, &d)),
        d
    );
    assert_eq!(respect_ignore_differences(&d, Some(&live), &[]), d);
}

#[test]
fn respect_ignore_differences_with_jq_and_custom_resources() {
    let d = desired(2, "nginx:1.28-alpine");
    let mut live = live_of(&d, true);
    live["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.29");
    let rules = ignore_rules(&json!([{"group": "apps", "kind": "Deployment",
        "jqPathExpressions": [".spec.template.spec.containers[] | select(.name == \"web\").image"]}]));
    let target = respect_ignore_differences(&d, Some(&live), &rules_for(&rules, &d));
    let c = &target["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(c["image"], "nginx:1.29");
    assert_eq!(
        c["ports"],
        json!([{"containerPort": 80}]),
        "not live's defaulted ports"
    );

    let app = |opts: Value| {
        json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
        "metadata": {"name": "child", "namespace": "argocd"},
        "spec": {"project": "default", "syncPolicy": {"syncOptions": opts}}})
    };
    let live = app(json!(["Live=1"]));
    let rules = ignore_rules(&json!([{"group": "argoproj.io", "kind": "Application",
        "jsonPointers": ["/spec/syncPolicy/syncOptions"]}]));
    let target = respect_ignore_differences(
        &app(json!(["Git=1"])),
        Some(&live),
        &rules_for(&rules, &live),
    );
    assert_eq!(
        target["spec"]["syncPolicy"]["syncOptions"],
        json!(["Live=1"])
    );
}

#[test]
fn custom_resource_lists_are_compared_whole() {
    let app = |opts: Value| {
        json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
        "metadata": {"name": "child", "namespace": "argocd"},
        "spec": {"project": "default", "destination": {"namespace": "x"},
            "syncPolicy": {"syncOptions": opts}}})
    };
    let d = app(json!(["CreateNamespace=true"]));
    let mut live = client_side_apply(None, &d, false);
    live["status"] = json!({"sync": {"status": "Synced"}});
    live["spec"]["destination"]["server"] = json!("https://kubernetes.default.svc");
    assert!(
        !diff(&d, Some(&live), &[], false).modified,
        "defaulted fields and status do not count"
    );
    live["spec"]["syncPolicy"]["syncOptions"] = json!(["CreateNamespace=true", "Prune=false"]);
    let result = diff(&d, Some(&live), &[], false);
    assert!(result.modified);
    assert_eq!(
        result.predicted_live["spec"]["syncPolicy"]["syncOptions"],
        json!(["CreateNamespace=true"])
    );
}

#[test]
fn secrets_compare_string_data_as_data() {
    let d = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "n"},
        "stringData": {"password": "hunter2"}});
    let mut live = client_side_apply(None, &d, true);
    live.as_object_mut().map(|o| o.shift_remove("stringData"));
    live["data"] = json!({"password": "aHVudGVyMg=="});
    live["type"] = json!("Opaque");
    assert!(!diff(&d, Some(&live), &[], true).modified);
    live["data"]["password"] = json!("b3RoZXI=");
    assert!(diff(&d, Some(&live), &[], true).modified);
}

#[test]
fn rules_parse_and_match_by_glob_name_and_namespace() {
    let rules = ignore_rules(&json!([
        {"group": "*", "kind": "*", "managedFieldsManagers": ["kube-controller-manager"]},
        {"kind": "Node", "jsonPointers": ["/metadata/labels/node-role.kubernetes.io~1worker"]},
        {"group": "apps", "kind": "Deployment", "name": "guestbook", "namespace": "default",
         "jsonPointers": ["/spec/replicas"]},
        "not a rule"]));
    assert_eq!(rules.len(), 3);
    let d = desired(1, "x");
    assert_eq!(rules_for(&rules, &d).len(), 1);
    let mut guestbook = d.clone();
    guestbook["metadata"]["name"] = json!("guestbook");
    guestbook["metadata"]["namespace"] = json!("default");
    assert_eq!(rules_for(&rules, &guestbook).len(), 2);
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n",
        "labels": {"node-role.kubernetes.io/worker": "", "keep": "1"}}});
    let matching = rules_for(&rules, &node);
    assert_eq!(matching.len(), 2);
    assert_eq!(
        normalize(&node, &matching)["metadata"]["labels"],
        json!({"keep": "1"})
    );
}

#[test]
fn odd_inputs_never_panic() {
    let shapes = [
        json!(null),
        json!(1),
        json!("x"),
        json!([]),
        json!({}),
        json!({"metadata": "x", "spec": []}),
        json!({"apiVersion": 3, "kind": {}, "metadata": {"annotations": {LAST_APPLIED: "[1]"}}}),
        json!({"metadata": {"annotations": {LAST_APPLIED: "{\"spec\": {\"containers\": [{\"x\": 1}]}}"}},
            "spec": {"containers": [1, {"name": "a"}]}}),
    ];
    let rules = ignore_rules(
        &json!([{"group": "*", "kind": "*", "jsonPointers": ["/spec/0", "/metadata/x"],
        "jqPathExpressions": [".spec[]?.name", ".metadata | select(. == null)"], "managedFieldsManagers": ["m"]}]),
    );
    let all: Vec<&IgnoreRule> = rules.iter().collect();
    for d in &shapes {
        for l in &shapes {
            for builtin in [true, false] {
                let _ = diff(d, Some(l), &all, builtin);
                let _ = respect_ignore_differences(d, Some(l), &all);
                let _ = normalize_pair(l, d, &all);
            }
        }
    }
}
