//! Unit tests of `table`.

use super::*;

/// Fixture timestamps are read against this instant.
fn now() -> Timestamp {
    "2026-07-01T12:00:00Z".parse().unwrap()
}

fn v(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

/// Objects as the API stores them and the cells a 1.35 server prints for them; `kind` is
/// `group/Kind` (bare for the core group).
const ROWS: &str = r#"[
{"kind": "apps/Deployment", "object": {"metadata": {"name": "web",
    "creationTimestamp": "2026-07-01T11:55:00Z"}, "spec": {"replicas": 2, "selector":
    {"matchLabels": {"app": "web"}}, "template": {"spec": {"containers": [{"name": "web",
    "image": "nginx:1.27"}, {"name": "log", "image": "busybox:1.36"}]}}}, "status": {
    "replicas": 2, "readyReplicas": 1, "updatedReplicas": 2, "availableReplicas": 1}},
 "cells": ["web", "1/2", 2, 1, "5m", "web,log", "nginx:1.27,busybox:1.36", "app=web"]},
{"kind": "autoscaling/Scale", "object": {"metadata": {"name": "api",
    "creationTimestamp": "2026-07-01T11:55:00Z"}, "spec": {"replicas": 2}, "status": {
    "replicas": 1, "selector": "app=api"}},
 "cells": ["api", 2, 1, "5m"]},
{"kind": "apps/ReplicaSet", "object": {"metadata": {"name": "web-7d9c",
    "creationTimestamp": "2026-07-01T11:59:00Z"}},
 "cells": ["web-7d9c", 1, 0, 0, "60s", "", "", "<none>"]},
{"kind": "Pod", "object": {"metadata": {"name": "web-abc",
    "creationTimestamp": "2026-07-01T11:56:58Z"}, "spec": {"nodeName": "lab", "containers":
    [{"name": "web"}]}, "status": {"phase": "Running", "podIP": "10.42.0.7", "podIPs":
    [{"ip": "10.42.0.7"}], "conditions": [{"type": "Ready", "status": "True"}],
    "containerStatuses": [{"name": "web", "ready": true, "restartCount": 0,
    "state": {"running": {"startedAt": "2026-07-01T11:57:00Z"}}}]}},
 "cells": ["web-abc", "1/1", "Running", "0", "3m2s", "10.42.0.7", "lab", "<none>", "<none>"]},
{"kind": "Pod", "object": {"metadata": {"name": "p"}, "spec": {"containers": [{}]},
    "status": {"phase": "Pending"}},
 "cells": ["p", "0/1", "Pending", "0", "<unknown>", "<none>", "<none>", "<none>", "<none>"]},
{"kind": "batch/Job", "object": {"metadata": {"name": "migrate",
    "creationTimestamp": "2026-07-01T11:50:00Z"}, "spec": {"completions": 1, "selector":
    {"matchLabels": {"batch.kubernetes.io/controller-uid": "c0ffee"}}, "template": {"spec":
    {"containers": [{"name": "migrate", "image": "busybox:1.36"}]}}}, "status": {
    "succeeded": 1, "startTime": "2026-07-01T11:50:01Z",
    "completionTime": "2026-07-01T11:50:05Z", "conditions": [
    {"type": "SuccessCriteriaMet", "status": "True"}, {"type": "Complete", "status": "True"}]}},
 "cells": ["migrate", "Complete", "1/1", "4s", "10m", "migrate", "busybox:1.36",
    "batch.kubernetes.io/controller-uid=c0ffee"]},
{"kind": "argoproj.io/Application", "object": {"metadata": {"name": "guestbook"},
    "spec": {"project": "default"}, "status": {"sync": {"status": "Synced",
    "revision": "4f2c1a9"}, "health": {"status": "Healthy"}}},
 "cells": ["guestbook", "Synced", "Healthy", "4f2c1a9", "default"]},
{"kind": "argoproj.io/Application", "object": {"metadata": {"name": "guestbook"},
    "spec": {"project": "default"}},
 "cells": ["guestbook", null, null, null, "default"]},
{"kind": "argoproj.io/AppProject", "object": {"metadata": {"name": "default",
    "creationTimestamp": "2026-07-01T10:00:00Z"}},
 "cells": ["default", "120m"]},
{"kind": "ServiceAccount", "object": {"metadata": {"name": "default",
    "creationTimestamp": "2026-07-01T10:00:00Z"}},
 "cells": ["default", "120m"]},
{"kind": "apiextensions.k8s.io/CustomResourceDefinition", "object": {"metadata":
    {"name": "applications.argoproj.io", "creationTimestamp": "2026-06-30T08:00:00.25Z"}},
 "cells": ["applications.argoproj.io", "2026-06-30T08:00:00Z"]},
{"kind": "Namespace", "object": {"metadata": {"name": "demo",
    "creationTimestamp": "2026-07-01T11:55:00Z"}},
 "cells": ["demo", "Active", "5m"]},
{"kind": "ConfigMap", "object": {"metadata": {"name": "cfg"}, "data": {"a": "1", "b": "2"},
    "binaryData": {"c": "AA=="}},
 "cells": ["cfg", 3, "<unknown>"]},
{"kind": "Secret", "object": {"metadata": {"name": "s"}, "data": {"a": "MQ=="},
    "stringData": {"a": "1", "b": "2"}},
 "cells": ["s", "Opaque", 2, "<unknown>"]},
{"kind": "Service", "object": {"metadata": {"name": "web",
    "creationTimestamp": "2026-07-01T11:55:00Z"}, "spec": {"type": "NodePort",
    "clusterIPs": ["10.43.0.10"], "selector": {"tier": "fe", "app": "web"}, "ports":
    [{"port": 80, "protocol": "TCP", "nodePort": 30080}, {"port": 53, "protocol": "UDP"}]}},
 "cells": ["web", "NodePort", "10.43.0.10", "<none>", "80:30080/TCP,53/UDP", "5m",
    "app=web,tier=fe"]},
{"kind": "Service", "object": {"metadata": {"name": "lb"}, "spec": {"type": "LoadBalancer",
    "ports": [{"port": 443}]}},
 "cells": ["lb", "LoadBalancer", "<none>", "<pending>", "443/TCP", "<unknown>", "<none>"]},
{"kind": "Event", "object": {"metadata": {"name": "web-abc.17f"}, "type": "Normal",
    "reason": "Pulled", "count": 3, "involvedObject": {"kind": "Pod", "name": "web-abc",
    "fieldPath": "spec.containers{web}"}, "message": "Image \"nginx\" present\n",
    "source": {"component": "kubelet", "host": "lab"},
    "firstTimestamp": "2026-07-01T11:58:00Z", "lastTimestamp": "2026-07-01T11:59:30Z"},
 "cells": ["30s", "Normal", "Pulled", "pod/web-abc", "spec.containers{web}", "kubelet, lab",
    "Image \"nginx\" present", "2m", 3, "web-abc.17f"]},
{"kind": "Event", "object": {"metadata": {"name": "e"}, "type": "Normal", "reason": "Synced",
    "eventTime": "2026-07-01T11:59:50.000000Z", "involvedObject": {"kind": "Application",
    "name": "guestbook"}, "reportingComponent": "argocd-application-controller"},
 "cells": ["10s", "Normal", "Synced", "application/guestbook", "",
    "argocd-application-controller", "", "10s", 1, "e"]}
]"#;

/// The fixtures as (group, kind, object, cells).
fn rows() -> Vec<(String, String, Value, Value)> {
    let row = |mut f: Value| {
        let kind = f["kind"].as_str().unwrap_or_default().to_owned();
        let (group, kind) = kind.rsplit_once('/').unwrap_or(("", &kind));
        (
            group.to_owned(),
            kind.to_owned(),
            f["object"].take(),
            f["cells"].take(),
        )
    };
    let Value::Array(fixtures) = v(ROWS) else {
        panic!("ROWS is a list")
    };
    fixtures.into_iter().map(row).collect()
}

#[test]
fn rows_match_the_server() {
    for (group, kind, obj, want) in rows() {
        let got = Value::from(row_cells(&group, &kind, &obj, now()));
        assert_eq!(got, want, "{kind} {obj}");
    }
}

/// Per kind, a field of every column definition as the 1.35 server sends it.
const COLUMNS: &str = r#"[
["apps/Deployment", "name", ["Name", "Ready", "Up-to-date", "Available", "Age", "Containers",
    "Images", "Selector"]],
["apps/Deployment", "priority", [0, 0, 0, 0, 0, 1, 1, 1]],
["apps/ReplicaSet", "type", ["string", "integer", "integer", "integer", "string", "string",
    "string", "string"]],
["batch/Job", "name", ["Name", "Status", "Completions", "Duration", "Age", "Containers",
    "Images", "Selector"]],
["Pod", "name", ["Name", "Ready", "Status", "Restarts", "Age", "IP", "Node", "Nominated Node",
    "Readiness Gates"]],
["Pod", "format", ["name", "", "", "", "", "", "", "", ""]],
["Event", "name", ["Last Seen", "Type", "Reason", "Object", "Subobject", "Source", "Message",
    "First Seen", "Count", "Name"]],
["Event", "priority", [0, 0, 0, 0, 1, 1, 0, 1, 1, 1]],
["Service", "name", ["Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age",
    "Selector"]],
["argoproj.io/Application", "name", ["Name", "Sync Status", "Health Status", "Revision",
    "Project"]],
["argoproj.io/Application", "priority", [0, 0, 0, 10, 10]],
["argoproj.io/AppProject", "type", ["string", "date"]],
["example.com/Widget", "name", ["Name", "Age"]],
["ServiceAccount", "name", ["Name", "Age"]],
["Secret", "name", ["Name", "Type", "Data", "Age"]],
["apiextensions.k8s.io/CustomResourceDefinition", "name", ["Name", "Created At"]]
]"#;

#[test]
fn columns_match_the_server() {
    let Value::Array(fixtures) = v(COLUMNS) else {
        panic!("COLUMNS is a list")
    };
    for f in fixtures {
        let kind = f[0].as_str().unwrap_or_default();
        let (group, kind) = kind.rsplit_once('/').unwrap_or(("", kind));
        let field = f[1].as_str().unwrap_or_default();
        let got: Value = column_definitions(group, kind)
            .iter()
            .map(|c| c[field].clone())
            .collect();
        assert_eq!(got, f[2], "{kind} {field}");
    }
    let sync = "Custom resource definition column (in JSONPath format): .status.sync.status";
    assert_eq!(
        column_definitions("argoproj.io", "Application")[1]["description"],
        sync
    );
}

#[test]
fn human_age_follows_go_boundaries() {
    #[rustfmt::skip]
    let cases = [
        (0, "0s"), (119, "119s"), (120, "2m"), (121, "2m1s"), (599, "9m59s"), (600, "10m"),
        (10_799, "179m"), (10_800, "3h"), (10_860, "3h1m"), (28_799, "7h59m"), (28_800, "8h"),
        (172_799, "47h"), (172_800, "2d"), (176_400, "2d1h"), (691_199, "7d23h"),
        (691_200, "8d"), (63_071_999, "729d"), (63_072_000, "2y"), (63_158_400, "2y1d"),
        (252_287_999, "7y364d"), (252_288_000, "8y"), (253_152_000, "8y"),
    ];
    for (secs, want) in cases {
        assert_eq!(human_age(Duration::from_secs(secs)), want, "{secs}s");
    }
    assert_eq!(human_age(Duration::from_millis(119_999)), "119s");
    let t = |s: &str| s.parse::<Timestamp>().unwrap();
    assert_eq!(between(t("2026-07-01T12:00:01.9Z"), now()), "0s");
    assert_eq!(between(t("2026-07-01T12:00:02Z"), now()), "<invalid>");
}

/// Pods and their Ready, Status and Restarts cells.
const PODS: &str = r#"[
[{"status": {"phase": "Succeeded", "containerStatuses": [{"state": {"terminated":
    {"exitCode": 0, "reason": "Completed"}}}]}}, ["0/1", "Completed", "0"]],
[{"status": {"phase": "Failed", "containerStatuses": [{"state": {"terminated":
    {"exitCode": 1, "reason": "Error"}}}]}}, ["0/1", "Error", "0"]],
[{"status": {"phase": "Failed", "containerStatuses": [{"state": {"terminated":
    {"exitCode": 2}}}]}}, ["0/1", "ExitCode:2", "0"]],
[{"status": {"phase": "Pending", "containerStatuses": [{"state": {"waiting":
    {"reason": "ContainerCreating"}}}]}}, ["0/1", "ContainerCreating", "0"]],
[{"status": {"phase": "Running", "containerStatuses": [{"restartCount": 2, "state":
    {"waiting": {"reason": "CrashLoopBackOff"}}, "lastState": {"terminated": {"exitCode": 1,
    "finishedAt": "2026-07-01T11:59:15Z"}}}]}}, ["0/1", "CrashLoopBackOff", "2 (45s ago)"]],
[{"metadata": {"deletionTimestamp": "2026-07-01T11:59:59Z"}, "status": {"phase": "Running",
    "containerStatuses": [{"ready": true, "state": {"running": {}}}]}},
    ["1/1", "Terminating", "0"]],
[{"spec": {"initContainers": [{"name": "wait"}]}, "status": {"phase": "Pending",
    "initContainerStatuses": [{"name": "wait", "state": {"running": {}}}], "containerStatuses":
    [{"state": {"waiting": {"reason": "PodInitializing"}}}]}}, ["0/1", "Init:0/1", "0"]],
[{"status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False",
    "reason": "SchedulingGated"}]}}, ["0/1", "SchedulingGated", "0"]]
]"#;

#[test]
fn pod_statuses() {
    let Value::Array(fixtures) = v(PODS) else {
        panic!("PODS is a list")
    };
    for mut f in fixtures {
        // Every fixture pod runs one container.
        f[0]["spec"]["containers"] = json!([{"name": "c"}]);
        let got = row_cells("", "Pod", &f[0], now());
        assert_eq!(Value::from(&got[1..4]), f[1], "{}", f[0]);
    }
}

#[test]
fn job_statuses() {
    let status = |job: &str| Value::from(row_cells("batch", "Job", &v(job), now())[1..4].to_vec());
    let failed = r#"{"spec": {"completions": 1}, "status": {"failed": 1, "startTime": "2026-07-01T11:59:30Z",
        "conditions": [{"type": "FailureTarget", "status": "True"}, {"type": "Failed", "status": "True"}]}}"#;
    assert_eq!(status(failed), v(r#"["Failed", "0/1", "30s"]"#));
    let running =
        r#"{"spec": {"parallelism": 3}, "status": {"startTime": "2026-07-01T11:59:30Z"}}"#;
    assert_eq!(status(running), v(r#"["Running", "0/1 of 3", "30s"]"#));
    let suspended = r#"{"status": {"conditions": [{"type": "Suspended", "status": "True"}]}}"#;
    assert_eq!(status(suspended), v(r#"["Suspended", "0/1", ""]"#));
}

#[test]
fn selectors_print_like_the_server() {
    let sel = v(
        r#"{"matchLabels": {"tier": "fe"}, "matchExpressions": [{"key": "env", "operator": "In",
        "values": ["prod", "dev"]}, {"key": "canary", "operator": "DoesNotExist"}]}"#,
    );
    assert_eq!(
        label_selector(Some(&sel)),
        Ok("!canary,env in (dev,prod),tier=fe".into())
    );
    let bad = v(r#"{"matchExpressions": [{"key": "a", "operator": "Bogus"}]}"#);
    assert_eq!(format_label_selector(Some(&bad)), "<error>");
    assert_eq!(format_label_selector(Some(&v("{}"))), "<none>");
}

#[test]
fn whole_table() {
    let done =
        r#"{"metadata": {"name": "p", "namespace": "demo"}, "status": {"phase": "Succeeded"}}"#;
    let done = v(done);
    let t = table("", "Pod", &[&done], "42", true, now());
    let head = json!([
        t["kind"],
        t["apiVersion"],
        t["metadata"],
        t["columnDefinitions"][8]["name"]
    ]);
    assert_eq!(
        head,
        v(r#"["Table", "meta.k8s.io/v1", {"resourceVersion": "42"}, "Readiness Gates"]"#)
    );
    let object = r#"{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
        "metadata": {"name": "p", "namespace": "demo"}}"#;
    assert_eq!(t["rows"][0]["object"], v(object));
    assert_eq!(t["rows"][0]["conditions"][0]["reason"], "Succeeded");
    let bare = r#"{"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {},
        "columnDefinitions": [], "rows": []}"#;
    assert_eq!(table("batch", "Job", &[], "", false, now()), v(bare));
    let job = table("batch", "Job", &[&done], "1", true, now());
    assert_eq!(job["rows"][0].get("conditions"), None);
}

#[test]
fn odd_input_never_panics() {
    let odd = [
        v("null"),
        v("42"),
        v(r#"{"metadata": 5, "spec": [], "status": [1], "series": 1}"#),
    ];
    for (group, kind, _, _) in rows() {
        for obj in &odd {
            let cells = row_cells(&group, &kind, obj, now());
            assert_eq!(
                cells.len(),
                column_definitions(&group, &kind).len(),
                "{kind}"
            );
        }
    }
}
