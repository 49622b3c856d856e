//! Fidelity audit 3 and the differential suite against the real Argo CD, the controller end to
//! end: self-heal after an unrelated commit, a retry that refreshes, shared resources, specs
//! that are invalid only once compared, option names spelt otherwise, and repoURLs that are
//! paths. Item numbers are the audit's.

use serde_json::{Value, json};

use crate::common::{
    Lab, URL, apply_app, cm, commit_and_push, job, lab_with_repo, op_state, synced_healthy,
    wait_app, write,
};

async fn apply_yaml(lab: &Lab, name: &str, yaml: &str) {
    lab.kubectl(&[
        "apply",
        "-f",
        lab.file(&format!("{name}.yaml"), yaml).to_str().unwrap(),
    ])
    .await;
}

/// An automated Application of `path` into `namespace` (none when empty), without selfHeal,
/// `sync_policy` appended under syncPolicy (4-space indent).
fn app(name: &str, repo_url: &str, path: &str, namespace: &str, sync_policy: &str) -> String {
    let ns = if namespace.is_empty() {
        String::new()
    } else {
        format!("\n    namespace: {namespace}")
    };
    format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: {name}, namespace: argocd}}\nspec:\n  project: default\n  source: {{repoURL: \"{repo_url}\", targetRevision: main, path: {path}}}\n  destination:\n    server: https://kubernetes.default.svc{ns}\n  syncPolicy:\n    automated: {{prune: true}}\n{sync_policy}"
    )
}

fn conditions(app: &Value) -> Vec<String> {
    app["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            format!(
                "{}: {}",
                c["type"].as_str().unwrap_or_default(),
                c["message"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

async fn hard_refresh(lab: &Lab, name: &str) {
    lab.kubectl(&[
        "-n",
        "argocd",
        "annotate",
        "app",
        name,
        "argocd.argoproj.io/refresh=hard",
        "--overwrite",
    ])
    .await;
}

/// M1: a commit that changes nothing of the app moves `sync.revision` past the last sync's;
/// a hand edit seen then (a resource event: nothing in Git can have changed) is healed by a
/// partial self-heal of what drifted — live hooks listed too, none run — at the new revision,
/// with no history entry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_edit_after_an_unrelated_commit_is_healed_partially_audit_3_m1() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "w/cm.yaml", &cm("settings", "", "blue"));
    write(
        &repo,
        "w/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "echo pre"),
    );
    commit_and_push(&repo, "one").await;
    apply_app(&lab, "hac", "w", "", "").await;
    let first = wait_app(&lab, "hac", "Synced and Healthy", synced_healthy).await;
    // Status as Go writes it: `sourceHydrator` is a struct, never dropped (survey 4).
    assert_eq!(first["status"]["sourceHydrator"], json!({}));
    let synced = op_state(&first)["syncResult"]["revision"].clone();
    write(&repo, "NOTES.md", "notes\n");
    let head = commit_and_push(&repo, "notes").await;
    hard_refresh(&lab, "hac").await;
    wait_app(&lab, "hac", "showing the new commit", |a| {
        a["status"]["sync"]["revision"] == head.as_str()
            && a["status"]["sync"]["status"] == "Synced"
    })
    .await;
    assert_eq!(
        op_state(
            &lab.kubectl_json(&["-n", "argocd", "get", "app", "hac"])
                .await
        )["syncResult"]["revision"],
        synced,
        "a synced app starts no sync for a commit that changed nothing"
    );
    lab.kubectl(&[
        "-n",
        "hac",
        "patch",
        "cm",
        "settings",
        "--type",
        "merge",
        "-p",
        r#"{"data":{"value":"hand-edited"}}"#,
    ])
    .await;
    let healed = wait_app(&lab, "hac", "healed", |a| {
        op_state(a)["operation"]["sync"]["autoHealAttemptsCount"] == 1
            && op_state(a)["phase"] == "Succeeded"
            && a["operation"].is_null()
    })
    .await;
    let sync = &op_state(&healed)["operation"]["sync"];
    assert_eq!(
        sync["resources"],
        json!([{"kind": "ConfigMap", "name": "settings"}, {"group": "batch", "kind": "Job", "name": "pre"}]),
        "{sync:#}"
    );
    assert_eq!(sync["revision"], head.as_str());
    assert_eq!(op_state(&healed)["syncResult"]["revision"], head.as_str());
    assert_eq!(healed["status"]["history"].as_array().unwrap().len(), 1);
    let settings = lab
        .kubectl_json(&["-n", "hac", "get", "cm", "settings"])
        .await;
    assert_eq!(settings["data"]["value"], "blue");
}

/// M2: `retry.refresh: true` resolves the target revision again for each retry, so a fix
/// pushed while the operation waits is what the retry syncs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refreshing_retry_syncs_a_fix_pushed_meanwhile_audit_3_m2() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "h/cm.yaml", &cm("c", "", "1"));
    write(
        &repo,
        "h/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "exit 1"),
    );
    commit_and_push(&repo, "broken").await;
    apply_app(
        &lab,
        "rr",
        "h",
        "    retry: {limit: 3, refresh: true, backoff: {duration: 10s, factor: 1}}\n",
        "",
    )
    .await;
    wait_app(&lab, "rr", "waiting for its first retry", |a| {
        op_state(a)["retryCount"] == 1
    })
    .await;
    write(
        &repo,
        "h/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "echo fixed"),
    );
    let fix = commit_and_push(&repo, "fixed").await;
    let done = wait_app(&lab, "rr", "done", |a| {
        a["operation"].is_null()
            && matches!(op_state(a)["phase"].as_str(), Some("Succeeded" | "Failed"))
    })
    .await;
    let state = op_state(&done);
    assert_eq!(state["phase"], "Succeeded", "{state:#}");
    assert_eq!(state["retryCount"], 1);
    assert_eq!(state["syncResult"]["revision"], fix.as_str());
    assert_eq!(done["status"]["history"].as_array().unwrap().len(), 1);
}

/// L5: an app whose object another app took over says so, and learns of it from the object's
/// change (it was tracked to it before).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_an_object_was_taken_from_warns_of_sharing_audit_3_l5() {
    let (lab, repo) = lab_with_repo().await;
    lab.kubectl(&["create", "namespace", "shared"]).await;
    write(
        &repo,
        "p/s1.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s1, namespace: shared}\ndata: {a: '1'}\n",
    );
    commit_and_push(&repo, "one").await;
    apply_yaml(&lab, "shr-a", &app("shr-a", URL, "p", "shared", "")).await;
    wait_app(&lab, "shr-a", "Synced and Healthy", synced_healthy).await;
    apply_yaml(&lab, "shr-b", &app("shr-b", URL, "p", "shared", "")).await;
    let a = wait_app(&lab, "shr-a", "warned", |a| !conditions(a).is_empty()).await;
    assert_eq!(
        conditions(&a),
        ["SharedResourceWarning: ConfigMap/s1 is part of applications argocd/shr-a and shr-b"]
    );
    let b = wait_app(&lab, "shr-b", "synced", |a| {
        op_state(a)["phase"] == "Succeeded"
    })
    .await;
    assert!(conditions(&b).is_empty(), "{:?}", conditions(&b));
}

/// M5: no destination namespace and a namespaced manifest without one: an InvalidSpecError
/// the comparison finds (the app is still compared: OutOfSync, Missing), and an operation
/// that ends `Error` with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_without_any_namespace_is_an_invalid_spec_audit_3_m5() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "p/one.yaml", &cm("one", "", "1"));
    let sha = commit_and_push(&repo, "one").await;
    apply_yaml(
        &lab,
        "nons",
        &app("nons", URL, "p", "", "    retry: {limit: 0}\n"),
    )
    .await;
    let app = wait_app(&lab, "nons", "refusing to sync", |a| {
        a["operation"].is_null()
            && op_state(a)["phase"] == "Error"
            && conditions(a).iter().any(|c| c.starts_with("SyncError"))
    })
    .await;
    let invalid = "InvalidSpecError: Namespace for one /v1, Kind=ConfigMap is missing.";
    assert_eq!(
        conditions(&app),
        [
            invalid.to_string(),
            format!("SyncError: Failed last sync attempt to [{sha}]: {invalid}"),
        ]
    );
    assert_eq!(op_state(&app)["message"], invalid);
    assert_eq!(app["status"]["sync"]["status"], "OutOfSync");
    assert_eq!(app["status"]["health"]["status"], "Missing");
}

/// M6, L3: sync option names are case-sensitive (`createNamespace=true` is nothing), and the
/// reason both objects failed for is given once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_misspelt_option_is_ignored_audit_3_m6() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "p/one.yaml", &cm("one", "", "1"));
    write(&repo, "p/two.yaml", &cm("two", "", "2"));
    commit_and_push(&repo, "two").await;
    let policy = "    syncOptions: [createNamespace=true]\n    retry: {limit: 0}\n";
    apply_yaml(&lab, "cnc", &app("cnc", URL, "p", "cnc-absent", policy)).await;
    let app = wait_app(&lab, "cnc", "failed", |a| {
        a["operation"].is_null() && op_state(a)["phase"] == "Failed"
    })
    .await;
    let reason = "namespaces \"cnc-absent\" not found";
    assert_eq!(
        op_state(&app)["message"],
        format!("one or more objects failed to apply, reason: {reason}")
    );
    for r in op_state(&app)["syncResult"]["resources"]
        .as_array()
        .unwrap()
    {
        assert_eq!(
            (r["status"].as_str(), r["message"].as_str()),
            (Some("SyncFailed"), Some(reason))
        );
    }
    lab.kubectl_fails(&["get", "namespace", "cnc-absent"]).await;
}

/// The tutor's issue: a repoURL that is a path names the repo server's own disk, where there
/// are no repositories, even when this machine has one there: never synced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repo_url_that_is_a_path_is_never_read() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "p/one.yaml", &cm("one", "", "1"));
    commit_and_push(&repo, "one").await;
    let path = lab.handle.bare_dir().join("src.git");
    assert!(path.is_dir(), "the repository is on this machine's disk");
    let url = path.to_str().unwrap();
    apply_yaml(&lab, "local", &app("local", url, "p", "local", "")).await;
    let app = wait_app(&lab, "local", "in ComparisonError", |a| {
        !conditions(a).is_empty()
    })
    .await;
    assert_eq!(
        conditions(&app),
        [
            "ComparisonError: Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = failed to list refs: repository not found"
        ]
    );
    assert_eq!(app["status"]["sync"]["status"], "Unknown");
    assert!(op_state(&app).is_null(), "never synced: {app:#}");
}
