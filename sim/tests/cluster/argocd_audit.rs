//! Fidelity audit 1 (shared/reference/fidelity-audit-1.md), end to end: operations that are
//! terminated, that fail before they start, and the Events they leave. The engine's timing and
//! messages are in `argocd_audit_engine.rs`; item numbers are the audit's.

use serde_json::Value;

use crate::common::{apply_app, cm, job, lab_with_repo, op_state, terminate_op};
use crate::common::{commit_and_push, synced_healthy, wait_app, write};

fn condition<'a>(app: &'a Value, kind: &str) -> Option<&'a Value> {
    app["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == kind)
}

/// Audit item 1: a terminated operation that had retried says so, and so does SyncError.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminate_op_after_a_retry_tells_the_retries_audit_1() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "exit 1"),
    );
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    let sha = commit_and_push(&repo, "failing hook").await;
    // A long backoff keeps the operation waiting for its second attempt.
    apply_app(
        &lab,
        "stopped",
        "app",
        "    retry: {limit: 5, backoff: {duration: 30s}}\n",
        "",
    )
    .await;
    wait_app(&lab, "stopped", "waiting to retry", |a| {
        op_state(a)["retryCount"] == 1 && op_state(a)["phase"] == "Running"
    })
    .await;
    terminate_op(&lab, "stopped").await;
    let app = wait_app(&lab, "stopped", "terminated", |a| {
        op_state(a)["phase"] == "Failed" && a["operation"].is_null()
    })
    .await;
    assert_eq!(
        op_state(&app)["message"],
        "Operation terminated (retried 1 times)."
    );
    let app = wait_app(&lab, "stopped", "with a SyncError", |a| {
        condition(a, "SyncError").is_some()
    })
    .await;
    assert_eq!(
        condition(&app, "SyncError").unwrap()["message"],
        format!("Failed last sync attempt to [{sha}]: Operation terminated (retried 1 times).")
    );
}

/// Audit item 7: a hook still running when the operation is terminated is recorded as
/// Failed, `Terminated`, and deleted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminating_while_a_hook_runs_records_it_terminated_audit_7() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "sleep 600"),
    );
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "slow hook").await;
    apply_app(&lab, "slow", "app", "", "").await;
    wait_app(&lab, "slow", "waiting for the hook", |a| {
        op_state(a)["message"] == "waiting for completion of hook batch/Job/pre"
    })
    .await;
    terminate_op(&lab, "slow").await;
    let app = wait_app(&lab, "slow", "terminated", |a| {
        op_state(a)["phase"] == "Failed"
    })
    .await;
    assert_eq!(op_state(&app)["message"], "Operation terminated");
    let pre = op_state(&app)["syncResult"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "pre")
        .cloned()
        .unwrap();
    assert_eq!(
        (pre["hookPhase"].as_str(), pre["message"].as_str()),
        (Some("Failed"), Some("Terminated")),
        "{pre}"
    );
    assert!(
        lab.kubectl_fails(&["-n", "slow", "get", "job", "pre"])
            .await
            .contains("not found"),
        "the running hook is deleted"
    );
}

/// Audit item 8: sources that cannot be rendered when an operation starts end the attempt
/// `Error`, and `Error` is retried like `Failed`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_at_operation_start_is_retried_audit_8() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "cm").await;
    let yaml = format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: manual, namespace: argocd}}\nspec:\n  project: default\n  source: {{repoURL: \"{}\", targetRevision: main, path: missing}}\n  destination: {{server: \"https://kubernetes.default.svc\", namespace: default}}\n",
        crate::common::URL
    );
    lab.kubectl(&[
        "apply",
        "-f",
        lab.file("manual.yaml", &yaml).to_str().unwrap(),
    ])
    .await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "manual",
        "--type=merge",
        "-p",
        r#"{"operation": {"sync": {}, "initiatedBy": {"username": "learner"}, "retry": {"limit": 1, "backoff": {"duration": "10s"}}}}"#,
    ])
    .await;
    // The second attempt is due 20 s (cluster) after the first: seen while it waits.
    let app = wait_app(&lab, "manual", "retrying after an Error", |a| {
        op_state(a)["retryCount"] == 1 && op_state(a)["phase"] == "Running"
    })
    .await;
    let message = op_state(&app)["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(
            "ComparisonError: Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = missing: app path does not exist"
        ) && message.contains(". Retrying attempt #1 at "),
        "{message}"
    );
    let app = wait_app(&lab, "manual", "out of retries", |a| {
        a["operation"].is_null() && op_state(a)["phase"] == "Error"
    })
    .await;
    assert!(
        op_state(&app)["message"]
            .as_str()
            .unwrap()
            .ends_with("app path does not exist (retried 1 times)."),
        "{}",
        op_state(&app)["message"]
    );
}

/// Audit items 5 and 9: automated syncs (self-heal too) carry the app's source, and the only
/// OperationStarted Events are autoSync's, worded alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn automated_syncs_carry_the_source_and_announce_themselves_once_audit_5_9() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "from-git"));
    let sha = commit_and_push(&repo, "cm").await;
    apply_app(&lab, "told", "app", "", "").await;
    let app = wait_app(&lab, "told", "Synced", synced_healthy).await;
    assert_eq!(
        op_state(&app)["operation"]["sync"]["source"],
        app["spec"]["source"]
    );
    lab.kubectl(&[
        "-n",
        "told",
        "patch",
        "cm",
        "settings",
        "--type=merge",
        "-p",
        r#"{"data":{"value":"drifted"}}"#,
    ])
    .await;
    let app = wait_app(&lab, "told", "healed", |a| {
        synced_healthy(a) && op_state(a)["operation"]["sync"]["autoHealAttemptsCount"] == 1
    })
    .await;
    assert_eq!(
        op_state(&app)["operation"]["sync"]["source"],
        app["spec"]["source"]
    );
    assert_eq!(
        op_state(&app)["operation"]["sync"]["resources"],
        serde_json::json!([{"kind": "ConfigMap", "name": "settings"}])
    );
    let events = lab.kubectl_json(&["-n", "argocd", "get", "events"]).await;
    let started: Vec<&str> = events["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["involvedObject"]["name"] == "told" && e["reason"] == "OperationStarted")
        .filter_map(|e| e["message"].as_str())
        .collect();
    let expected = format!("Initiated automated sync to '{sha}'");
    assert_eq!(started, [expected.as_str(), expected.as_str()]);
}
