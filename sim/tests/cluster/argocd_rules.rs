//! One test for each Argo CD rule the lab walk does not reach (reference § in each name).

use std::time::Duration;

use serde_json::Value;

use crate::common::{Lab, URL, apply_app, cm, job, lab_with_repo, op_state};
use crate::common::{commit_and_push, comparison_error, src_repo, synced_healthy, wait_app, write};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hook_succeeded_hooks_are_deleted_only_when_the_whole_operation_succeeds_4_5() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/pre.yaml",
        &job(
            "pre",
            "argocd.argoproj.io/hook: PreSync, argocd.argoproj.io/hook-delete-policy: HookSucceeded",
            "echo pre",
        ),
    );
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "hooked").await;
    apply_app(&lab, "hooks", "app", "", "").await;
    let app = wait_app(&lab, "hooks", "Succeeded", |a| {
        op_state(a)["phase"] == "Succeeded"
    })
    .await;
    let hook = op_state(&app)["syncResult"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "pre")
        .cloned()
        .unwrap();
    assert_eq!(
        (
            hook["hookType"].as_str(),
            hook["hookPhase"].as_str(),
            hook["syncPhase"].as_str()
        ),
        (Some("PreSync"), Some("Succeeded"), Some("PreSync"))
    );
    let err = lab
        .kubectl_fails(&["-n", "hooks", "get", "job", "pre"])
        .await;
    assert!(
        err.contains("not found"),
        "the HookSucceeded hook is gone after success: {err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_presync_hook_runs_syncfail_hooks_and_never_applies_the_sync_phase_4_6() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/pre.yaml",
        &job(
            "pre",
            "argocd.argoproj.io/hook: PreSync",
            "echo broken; exit 1",
        ),
    );
    write(
        &repo,
        "app/onfail.yaml",
        &job(
            "onfail",
            "argocd.argoproj.io/hook: SyncFail",
            "echo cleaning up",
        ),
    );
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "failing").await;
    apply_app(&lab, "fails", "app", "    retry: {limit: 0}\n", "").await;
    let app = wait_app(&lab, "fails", "Failed", |a| {
        op_state(a)["phase"] == "Failed"
    })
    .await;
    assert_eq!(
        op_state(&app)["message"],
        "one or more synchronization tasks completed unsuccessfully"
    );
    let results = op_state(&app)["syncResult"]["resources"]
        .as_array()
        .unwrap();
    let pre = results.iter().find(|r| r["name"] == "pre").unwrap();
    assert_eq!(
        (pre["hookPhase"].as_str(), pre["status"].as_str()),
        (Some("Failed"), Some("Synced"))
    );
    assert_eq!(
        pre["message"],
        "Job has reached the specified backoff limit"
    );
    let onfail = results
        .iter()
        .find(|r| r["name"] == "onfail")
        .expect("the SyncFail hook ran");
    assert_eq!(onfail["syncPhase"], "SyncFail");
    assert!(
        lab.kubectl_fails(&["-n", "fails", "get", "cm", "settings"])
            .await
            .contains("not found"),
        "the Sync phase was never applied"
    );
    assert_eq!(
        lab.kubectl(&["-n", "fails", "logs", "job/onfail"]).await,
        "cleaning up\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn self_heal_reverts_drift_on_a_field_that_is_not_ignored_6_3() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "from-git"));
    commit_and_push(&repo, "cm").await;
    apply_app(&lab, "heal", "app", "", "").await;
    wait_app(&lab, "heal", "Synced", synced_healthy).await;
    lab.kubectl(&[
        "-n",
        "heal",
        "patch",
        "cm",
        "settings",
        "--type=merge",
        "-p",
        r#"{"data":{"value":"drifted"}}"#,
    ])
    .await;
    let app = wait_app(&lab, "heal", "healed", |a| {
        synced_healthy(a) && op_state(a)["operation"]["sync"]["autoHealAttemptsCount"] == 1
    })
    .await;
    let partial = &op_state(&app)["operation"]["sync"]["resources"];
    assert_eq!(
        partial[0]["kind"], "ConfigMap",
        "a partial sync of the drifted resource: {partial}"
    );
    let cm = lab
        .kubectl_json(&["-n", "heal", "get", "cm", "settings"])
        .await;
    assert_eq!(cm["data"]["value"], "from-git");
    assert_eq!(
        app["status"]["history"].as_array().unwrap().len(),
        1,
        "partial syncs add no history entry"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ignore_differences_alone_is_overwritten_by_a_later_sync_6_2() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "from-git"));
    write(&repo, "app/other.yaml", &cm("other", "", "1"));
    commit_and_push(&repo, "two").await;
    let ignore = "  ignoreDifferences:\n  - {kind: ConfigMap, name: settings, jsonPointers: [/data/value]}\n";
    apply_app(&lab, "plain", "app", "", ignore).await;
    wait_app(&lab, "plain", "Synced", synced_healthy).await;
    lab.kubectl(&[
        "-n",
        "plain",
        "patch",
        "cm",
        "settings",
        "--type=merge",
        "-p",
        r#"{"data":{"value":"by-hand"}}"#,
    ])
    .await;
    tokio::time::sleep(lab.handle_real(Duration::from_secs(10))).await;
    let app = lab
        .kubectl_json(&["-n", "argocd", "get", "app", "plain"])
        .await;
    assert_eq!(
        app["status"]["sync"]["status"], "Synced",
        "the ignored field does not make the app OutOfSync"
    );
    assert_eq!(
        lab.kubectl_json(&["-n", "plain", "get", "cm", "settings"])
            .await["data"]["value"],
        "by-hand"
    );
    // A sync for another reason applies the Git manifest as is, ignored field included.
    write(&repo, "app/other.yaml", &cm("other", "", "2"));
    let rev = commit_and_push(&repo, "touch other").await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "annotate",
        "app",
        "plain",
        "argocd.argoproj.io/refresh=normal",
        "--overwrite",
    ])
    .await;
    wait_app(&lab, "plain", "synced to the new commit", |a| {
        synced_healthy(a) && op_state(a)["syncResult"]["revision"] == rev.as_str()
    })
    .await;
    assert_eq!(
        lab.kubectl_json(&["-n", "plain", "get", "cm", "settings"])
            .await["data"]["value"],
        "from-git"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_render_error_becomes_a_comparison_error_with_helms_message_8_4() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "chart/Chart.yaml",
        "apiVersion: v2\nname: broken\nversion: 0.1.0\n",
    );
    write(
        &repo,
        "chart/templates/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: {{ .Values.missing.deeper }}\n",
    );
    commit_and_push(&repo, "broken chart").await;
    apply_app(&lab, "broken", "chart", "", "").await;
    let (app, condition) = comparison_error(&lab, "broken").await;
    let message = condition["message"].as_str().unwrap();
    assert!(
        message.contains("nil pointer") || message.contains("missing"),
        "helm's own error text: {message}"
    );
    assert_eq!(app["status"]["sync"]["status"], "Unknown");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_run_out_and_the_message_says_how_many_5_2() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "exit 3"),
    );
    // A hook alone never makes an app OutOfSync (hooks are not compared): give it a resource.
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "always failing").await;
    apply_app(
        &lab,
        "retry",
        "app",
        "    retry: {limit: 2, backoff: {duration: 1s, factor: 2, maxDuration: 1m}}\n",
        "",
    )
    .await;
    let app = wait_app(&lab, "retry", "out of retries", |a| {
        op_state(a)["phase"] == "Failed" && a["operation"].is_null()
    })
    .await;
    assert_eq!(op_state(&app)["retryCount"], 2);
    assert_eq!(
        op_state(&app)["message"],
        "one or more synchronization tasks completed unsuccessfully (retried 2 times)."
    );
    let condition = wait_app(&lab, "retry", "with a SyncError", |a| {
        a["status"]["conditions"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["type"] == "SyncError"))
    })
    .await;
    let sync_error = condition["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "SyncError")
        .unwrap();
    assert!(
        sync_error["message"]
            .as_str()
            .unwrap()
            .starts_with("Failed last sync attempt to ["),
        "{sync_error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn automated_syncs_retry_five_times_by_default_5_1() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "exit 1"),
    );
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "failing").await;
    apply_app(&lab, "defaults", "app", "", "").await;
    let app = wait_app(&lab, "defaults", "retrying", |a| {
        op_state(a)["retryCount"] == 1
    })
    .await;
    assert_eq!(app["operation"]["retry"], serde_json::json!({"limit": 5}));
    assert_eq!(app["operation"]["initiatedBy"]["automated"], true);
    let message = op_state(&app)["message"].as_str().unwrap();
    assert!(message.contains(". Retrying attempt #1 at "), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_refresh_annotation_is_removed_and_create_namespace_leaves_no_tracking_10_2() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "cm").await;
    apply_app(&lab, "tidy", "app", "", "").await;
    let app = wait_app(&lab, "tidy", "Synced", synced_healthy).await;
    let first = app["status"]["reconciledAt"].clone();
    let ns = lab.kubectl_json(&["get", "ns", "tidy"]).await;
    assert!(ns["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"].is_null());
    assert!(
        !app["status"]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["kind"] == "Namespace")
    );
    let ns_result = op_state(&app)["syncResult"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "Namespace")
        .cloned();
    assert_eq!(
        ns_result.unwrap()["syncPhase"],
        "PreSync",
        "the auto-created namespace is recorded as a PreSync entry"
    );
    tokio::time::sleep(lab.handle_real(Duration::from_secs(2))).await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "annotate",
        "app",
        "tidy",
        "argocd.argoproj.io/refresh=hard",
        "--overwrite",
    ])
    .await;
    let app = wait_app(&lab, "tidy", "refreshed", |a| {
        a["metadata"]["annotations"]["argocd.argoproj.io/refresh"].is_null()
            && a["status"]["reconciledAt"] != first
    })
    .await;
    assert!(app["status"]["reconciledAt"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn syncs_show_argocd_controller_update_by_default_and_apply_with_server_side_apply_7() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "cm").await;
    apply_app(&lab, "csa", "app", "", "").await;
    wait_app(&lab, "csa", "Synced", synced_healthy).await;
    let managers = |obj: &Value| -> Vec<(String, String)> {
        crate::common::entries_where(obj, false)
            .into_iter()
            .map(|(m, op, _)| (m, op))
            .collect()
    };
    let csa = lab
        .kubectl_json(&[
            "-n",
            "csa",
            "get",
            "cm",
            "settings",
            "--show-managed-fields",
        ])
        .await;
    assert_eq!(
        managers(&csa),
        [("argocd-controller".to_string(), "Update".to_string())]
    );
    assert!(
        csa["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"]
            .is_string()
    );
    let ssa = format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: ssa, namespace: argocd}}\nspec:\n  project: default\n  source: {{repoURL: \"{URL}\", targetRevision: main, path: app}}\n  destination: {{server: \"https://kubernetes.default.svc\", namespace: ssa}}\n  syncPolicy:\n    automated: {{}}\n    syncOptions: [CreateNamespace=true, ServerSideApply=true]\n"
    );
    lab.kubectl(&["apply", "-f", lab.file("ssa.yaml", &ssa).to_str().unwrap()])
        .await;
    wait_app(&lab, "ssa", "Synced", synced_healthy).await;
    let applied = lab
        .kubectl_json(&[
            "-n",
            "ssa",
            "get",
            "cm",
            "settings",
            "--show-managed-fields",
        ])
        .await;
    assert_eq!(
        managers(&applied),
        [("argocd-controller".to_string(), "Apply".to_string())]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apps_are_compared_again_every_120_s_plus_jitter_without_any_trigger_10_1() {
    let lab = Lab::start_with(capa_sim::Config {
        speed: 100.0,
        ..Default::default()
    })
    .await;
    let repo = src_repo(&lab).await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "cm").await;
    apply_app(&lab, "periodic", "app", "", "").await;
    let first = wait_app(&lab, "periodic", "Synced", synced_healthy).await;
    let at = |a: &Value| {
        a["status"]["reconciledAt"]
            .as_str()
            .unwrap()
            .parse::<jiff::Timestamp>()
            .unwrap()
    };
    let t0 = at(&first);
    // Nothing changes from here on; only the periodic refresh moves reconciledAt.
    let later = wait_app(&lab, "periodic", "reconciled again", |a| {
        at(a).duration_since(t0).as_secs() >= 120
    })
    .await;
    let gap = at(&later).duration_since(t0).as_secs();
    // 120 s + up to 60 s jitter; a loaded machine adds a little (0.1 s real is 10 s here).
    assert!(
        (120..=300).contains(&gap),
        "the next periodic refresh came {gap} s (cluster time) later"
    );
}
