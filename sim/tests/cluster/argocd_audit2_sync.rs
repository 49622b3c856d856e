//! Fidelity audit 2, the sync engine: which source an operation renders, what pruning and
//! per-resource sync options do, a resource deleted while a sync waits on it, hooks whose type
//! is mistyped. Item numbers are the audit's.

use serde_json::Value;

use crate::common::{
    apply_app, cm, commit_and_push, job, lab_with_repo, op_state, synced_healthy, wait_app, write,
};

fn result<'a>(app: &'a Value, name: &str) -> Option<&'a Value> {
    op_state(app)["syncResult"]["resources"]
        .as_array()?
        .iter()
        .find(|r| r["name"] == name)
}

/// Item 7: every retry renders the operation's own `sync.source`, the one automated sync
/// recorded, even after the spec's source changed; only once the operation has ended does the
/// changed source (no longer the last attempt's) start a new sync.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_operation_renders_its_own_source_audit_2_7() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "fail/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "exit 1"),
    );
    write(&repo, "fail/cm.yaml", &cm("settings", "", "fail"));
    write(&repo, "probe/cm.yaml", &cm("settings", "", "probe"));
    commit_and_push(&repo, "two paths").await;
    apply_app(&lab, "retry-test", "fail", "    retry: {limit: 2}\n", "").await;
    wait_app(&lab, "retry-test", "retrying", |a| {
        op_state(a)["retryCount"] == 1
    })
    .await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "retry-test",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"source":{"path":"probe"}}}"#,
    ])
    .await;
    let retried = wait_app(&lab, "retry-test", "its first retry failed", |a| {
        op_state(a)["retryCount"] == 2 || op_state(a)["phase"] != "Running"
    })
    .await;
    let state = op_state(&retried);
    assert_eq!(
        state["retryCount"], 2,
        "the retry after the edit failed too: {state:#}"
    );
    assert_eq!(state["operation"]["sync"]["source"]["path"], "fail");
    assert_eq!(state["syncResult"]["source"]["path"], "fail");
    // The spec's source is not the last attempt's: a new automated sync renders probe, after
    // the operation ended failing on fail.
    let app = wait_app(&lab, "retry-test", "synced at probe", synced_healthy).await;
    let events = lab
        .kubectl_json(&[
            "-n",
            "argocd",
            "get",
            "events",
            "--field-selector",
            "involvedObject.name=retry-test",
        ])
        .await;
    assert!(
        events["items"].as_array().unwrap().iter().any(|e| {
            e["reason"] == "OperationCompleted"
                && e["message"].as_str().unwrap().contains("failed: one or more synchronization tasks completed unsuccessfully (retried 2 times).")
        }),
        "{events:#}"
    );
    assert_eq!(op_state(&app)["syncResult"]["source"]["path"], "probe");
    let cm = lab
        .kubectl_json(&["-n", "retry-test", "get", "cm", "settings"])
        .await;
    assert_eq!(cm["data"]["value"], "probe");
    assert!(result(&app, "settings").is_some());
}
