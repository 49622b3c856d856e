//! Fidelity audit 2 and the survey, operations as written and kinds the cluster does not
//! serve: what an operation patched in by hand runs, and how a sync of an unserved kind fails.

use super::argocd_audit2_sync::result;
use crate::common::{
    apply_app, cm, commit_and_push, job, lab_with_repo, op_state, wait_app, write,
};

/// Survey item 7: a kind the cluster does not serve is never dropped in silence. It is listed
/// (OutOfSync, it cannot exist live), and the sync is invalid before anything is applied: the
/// operation fails with `one or more synchronization tasks are not valid: failed to discover
/// server resources for group version example.com/v1: the server could not find the requested
/// resource` (discovery's own error, as the real lab shows) and the resource's result says what
/// Argo CD says, with no hookPhase (it never got an operation state).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unserved_kind_fails_the_sync_with_argo_cds_message_survey_7() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    write(
        &repo,
        "app/widget.yaml",
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: web\nspec: {size: 3}\n",
    );
    commit_and_push(&repo, "a widget").await;
    apply_app(&lab, "t-widget", "app", "", "").await;
    let app = wait_app(&lab, "t-widget", "failed and retrying", |a| {
        op_state(a)["retryCount"].as_i64() >= Some(1)
    })
    .await;
    let message = op_state(&app)["message"].as_str().unwrap();
    assert!(
        message.starts_with("one or more synchronization tasks are not valid: failed to discover server resources for group version example.com/v1: the server could not find the requested resource. Retrying attempt #1"),
        "{message}"
    );
    let listed = app["status"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "Widget")
        .cloned()
        .unwrap();
    assert_eq!(
        (listed["group"].as_str(), listed["status"].as_str()),
        (Some("example.com"), Some("OutOfSync"))
    );
    assert_eq!(app["status"]["sync"]["status"], "OutOfSync");
    if op_state(&app)["finishedAt"].is_string() {
        let widget = result(&app, "web").unwrap();
        assert_eq!(widget["status"], "SyncFailed");
        assert!(widget["hookPhase"].is_null(), "{widget}");
        assert_eq!(
            widget["message"],
            "The Kubernetes API could not find example.com/Widget for requested resource t-widget/web. Make sure the \"Widget\" CRD is installed on the destination cluster."
        );
    }
    assert!(
        !lab.kubectl_output(&["-n", "t-widget", "get", "cm", "settings"])
            .await
            .status
            .success(),
        "nothing is applied"
    );
}

/// Survey item 4 and audit item 21: an `.operation` written by hand on an automated app runs as
/// written — not automated, no retry, only its own sync options — and the history says who.
/// The operation state holds it as the controller's Go struct writes it: `retry: {}`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_written_operation_runs_as_written_survey_4_audit_2_21() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    write(
        &repo,
        "app/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "exit 1"),
    );
    commit_and_push(&repo, "failing hook").await;
    apply_app(&lab, "t-fail2", "app", "    retry: {limit: 1}\n", "").await;
    wait_app(&lab, "t-fail2", "failed after its retry", |a| {
        op_state(a)["phase"] == "Failed" && a["operation"].is_null()
    })
    .await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "t-fail2",
        "--type",
        "merge",
        "-p",
        r#"{"operation":{"initiatedBy":{"username":"learner"},"sync":{"revision":"main"}}}"#,
    ])
    .await;
    let app = wait_app(&lab, "t-fail2", "the manual sync ended", |a| {
        op_state(a)["operation"]["initiatedBy"]["username"] == "learner"
            && op_state(a)["phase"] == "Failed"
    })
    .await;
    let state = op_state(&app);
    assert_eq!(
        state["operation"],
        serde_json::json!({"initiatedBy": {"username": "learner"}, "retry": {}, "sync": {"revision": "main"}}),
        "{state:#}"
    );
    assert!(state["retryCount"].is_null(), "no retry: {state:#}");
    assert!(
        !state["message"].as_str().unwrap().contains("retried"),
        "{state:#}"
    );
    // The history of a later success would name the learner; here the failure names no one
    // automated in the Events either.
    assert!(
        app["status"]["history"].is_null()
            || !app["status"]["history"].to_string().contains("learner")
    );
}
