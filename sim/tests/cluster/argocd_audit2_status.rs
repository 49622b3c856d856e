//! Fidelity audit 2 (shared/reference/fidelity-audit-2.md), what a refresh writes: a target
//! state that cannot be loaded, an invalid spec, the git-refs cache. Item numbers are the
//! audit's.

use serde_json::Value;

use crate::common::{
    Lab, WEB, apply_app, cm, commit_and_push, comparison_error, lab_with_repo, synced_healthy,
    wait_app, write,
};

fn resource<'a>(app: &'a Value, kind: &str, name: &str) -> &'a Value {
    app["status"]["resources"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["kind"] == kind && r["name"] == name))
        .unwrap_or_else(|| panic!("{kind}/{name} is not in status.resources: {app:#}"))
}

/// Items 2 and 13: a source path that does not exist (the lab's common mistake) is a
/// ComparisonError, and the comparison goes on against an empty target: `kubectl get app`
/// shows `Unknown  Healthy`, the live resources are listed `Unknown` and `requiresPruning`,
/// the images are still summed up, the revision is the unresolved `main`, and no source type.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comparison_error_keeps_health_resources_and_images_audit_2_2_13() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/web.yaml",
        &WEB.replace("  namespace: default\n", ""),
    );
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "web").await;
    apply_app(&lab, "probe", "app", "", "").await;
    let synced = wait_app(&lab, "probe", "Synced and Healthy", synced_healthy).await;
    assert_eq!(synced["status"]["sourceType"], "Directory");
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "probe",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"source":{"path":"probe-nope"}}}"#,
    ])
    .await;
    let (app, condition) = comparison_error(&lab, "probe").await;
    assert!(
        condition["message"]
            .as_str()
            .unwrap()
            .contains("probe-nope: app path does not exist"),
        "{condition}"
    );
    let status = &app["status"];
    assert_eq!(status["sync"]["status"], "Unknown");
    assert_eq!(status["health"]["status"], "Healthy", "{status:#}");
    assert_eq!(status["sync"]["revision"], "main", "the unresolved target");
    assert!(status["sourceType"].is_null(), "{status:#}");
    for (kind, name) in [("Deployment", "web"), ("ConfigMap", "settings")] {
        let r = resource(&app, kind, name);
        assert_eq!(r["status"], "Unknown", "{r}");
        assert_eq!(r["requiresPruning"], true, "{r}");
    }
    assert_eq!(
        status["summary"]["images"],
        serde_json::json!(["nginx:1.27-alpine"])
    );
    let table = lab.kubectl(&["-n", "argocd", "get", "app", "probe"]).await;
    let row = table.lines().nth(1).unwrap_or_default();
    let columns: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(columns, ["probe", "Unknown", "Healthy"], "{table}");
    // Nothing is pruned or synced from a comparison that could not be made.
    lab.kubectl(&["-n", "probe", "get", "deploy", "web"]).await;
    assert!(app["operation"].is_null());
}

/// Item 2: an app whose target cannot be loaded and that tracks nothing is Healthy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comparison_error_with_nothing_tracked_is_healthy_audit_2_2() {
    let lab = Lab::start().await;
    let _repo = crate::common::src_repo(&lab).await;
    apply_app(&lab, "empty", "nowhere", "", "").await;
    let (app, _) = comparison_error(&lab, "empty").await;
    assert_eq!(app["status"]["health"]["status"], "Healthy");
    assert!(app["status"]["resources"].is_null(), "omitempty: no list");
}
