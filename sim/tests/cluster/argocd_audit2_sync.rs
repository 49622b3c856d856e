//! Fidelity audit 2, the sync engine: which source an operation renders, what pruning and
//! per-resource sync options do, a resource deleted while a sync waits on it, hooks whose type
//! is mistyped. Item numbers are the audit's.

use serde_json::Value;

use crate::common::{
    apply_app, cm, commit_and_push, job, lab_with_repo, op_state, synced_healthy, wait_app, write,
};

pub fn result<'a>(app: &'a Value, name: &str) -> Option<&'a Value> {
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

fn cm_with_options(name: &str, sync_options: &str) -> String {
    cm(
        name,
        &format!("argocd.argoproj.io/sync-options: \"{sync_options}\""),
        "1",
    )
}

async fn hard_refresh(lab: &crate::common::Lab, name: &str) {
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

/// Items 4, 5 and 17: pruning as `pruneObject` decides. A live object marked `Prune=false` is
/// kept (`PruneSkipped`, `ignored (no prune)`) and keeps the app OutOfSync; with
/// `PrunePropagationPolicy=orphan` a pruned Deployment leaves its ReplicaSet behind, and its
/// result carries the live images. With prune off every extra object is still a task:
/// `PruneSkipped`, `ignored (requires pruning)`, hookPhase Succeeded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pruning_honours_prune_false_prune_off_and_propagation_audit_2_4_5_17() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/keep.yaml",
        &cm_with_options("keep", "Prune=false"),
    );
    write(&repo, "app/stay.yaml", &cm("stay", "", "1"));
    write(
        &repo,
        "app/web.yaml",
        &crate::common::WEB.replace("  namespace: default\n", ""),
    );
    commit_and_push(&repo, "three").await;
    apply_app(&lab, "prunetest", "app", "", "").await;
    lab.kubectl(&["-n", "argocd", "patch", "app", "prunetest", "--type", "json", "-p",
        r#"[{"op":"add","path":"/spec/syncPolicy/syncOptions/-","value":"PrunePropagationPolicy=orphan"}]"#]).await;
    wait_app(&lab, "prunetest", "Synced and Healthy", synced_healthy).await;
    // selfHeal would sync the same revision again while `keep` keeps the app OutOfSync (as
    // Argo CD does), replacing the result this test reads; the pruning is what is under test.
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "prunetest",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"syncPolicy":{"automated":{"selfHeal":false}}}}"#,
    ])
    .await;
    std::fs::remove_file(repo.join("app/keep.yaml")).unwrap();
    std::fs::remove_file(repo.join("app/web.yaml")).unwrap();
    let only_stay = commit_and_push(&repo, "only stay").await;
    hard_refresh(&lab, "prunetest").await;
    let app = wait_app(&lab, "prunetest", "pruned", |a| {
        op_state(a)["phase"] == "Succeeded" && op_state(a)["syncResult"]["revision"] == only_stay
    })
    .await;
    let keep = result(&app, "keep").unwrap();
    assert_eq!(
        (keep["status"].as_str(), keep["message"].as_str()),
        (Some("PruneSkipped"), Some("ignored (no prune)")),
        "{keep}"
    );
    assert_eq!(keep["hookPhase"], "Succeeded");
    let web = result(&app, "web").unwrap();
    assert_eq!(
        (web["status"].as_str(), web["message"].as_str()),
        (Some("Pruned"), Some("pruned"))
    );
    assert_eq!(
        web["images"],
        serde_json::json!(["nginx:1.27-alpine"]),
        "the live object's images"
    );
    lab.kubectl(&["-n", "prunetest", "get", "cm", "keep"]).await;
    assert!(
        !lab.kubectl_output(&["-n", "prunetest", "get", "deploy", "web"])
            .await
            .status
            .success()
    );
    let sets = lab.kubectl_json(&["-n", "prunetest", "get", "rs"]).await;
    assert_eq!(
        sets["items"].as_array().map(Vec::len),
        Some(1),
        "orphaned, not deleted: {sets}"
    );
    let app = wait_app(&lab, "prunetest", "OutOfSync on keep", |a| {
        a["status"]["sync"]["status"] == "OutOfSync"
    })
    .await;
    let kept = app["status"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "keep")
        .unwrap()
        .clone();
    assert_eq!(kept["requiresPruning"], true);

    // Prune off: the extra object is a task that is skipped.
    write(&repo, "other/one.yaml", &cm("one", "", "1"));
    write(&repo, "other/two.yaml", &cm("two", "", "1"));
    commit_and_push(&repo, "other").await;
    apply_app(&lab, "noprune", "other", "", "").await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "noprune",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"syncPolicy":{"automated":{"prune":false}}}}"#,
    ])
    .await;
    wait_app(&lab, "noprune", "Synced and Healthy", synced_healthy).await;
    std::fs::remove_file(repo.join("other/two.yaml")).unwrap();
    write(&repo, "other/one.yaml", &cm("one", "", "2"));
    let two_gone = commit_and_push(&repo, "one changed, two gone").await;
    hard_refresh(&lab, "noprune").await;
    let app = wait_app(&lab, "noprune", "synced without pruning", |a| {
        op_state(a)["phase"] == "Succeeded" && op_state(a)["syncResult"]["revision"] == two_gone
    })
    .await;
    let two = result(&app, "two").unwrap();
    assert_eq!(
        (
            two["status"].as_str(),
            two["message"].as_str(),
            two["hookPhase"].as_str()
        ),
        (
            Some("PruneSkipped"),
            Some("ignored (requires pruning)"),
            Some("Succeeded")
        ),
        "{two}"
    );
    lab.kubectl(&["-n", "noprune", "get", "cm", "two"]).await;
}

/// Item 4: per-resource `Replace=true` runs `kubectl create`/`replace` (no last-applied
/// annotation, the controller's User-Agent as manager), `ServerSideApply=true` a forced apply,
/// and `compare-options: IgnoreExtraneous` keeps an extra object from making the app OutOfSync.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_resource_sync_and_compare_options_audit_2_4() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/replaced.yaml",
        &cm_with_options("replaced", "Replace=true"),
    );
    write(
        &repo,
        "app/ssa.yaml",
        &cm_with_options("ssa", "ServerSideApply=true"),
    );
    write(
        &repo,
        "app/extra.yaml",
        &cm(
            "extra",
            "argocd.argoproj.io/compare-options: IgnoreExtraneous",
            "1",
        ),
    );
    commit_and_push(&repo, "options").await;
    apply_app(&lab, "opts", "app", "", "").await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "opts",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"syncPolicy":{"automated":{"prune":false}}}}"#,
    ])
    .await;
    let app = wait_app(&lab, "opts", "Synced and Healthy", synced_healthy).await;
    assert_eq!(
        result(&app, "replaced").unwrap()["message"],
        "configmap/replaced created"
    );
    assert_eq!(
        result(&app, "ssa").unwrap()["message"],
        "configmap/ssa serverside-applied"
    );
    let replaced = lab
        .kubectl_json(&[
            "-n",
            "opts",
            "get",
            "cm",
            "replaced",
            "--show-managed-fields",
        ])
        .await;
    assert!(
        replaced["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"]
            .is_null()
    );
    assert_eq!(
        replaced["metadata"]["managedFields"][0]["manager"],
        "argocd-application-controller"
    );
    let ssa = lab
        .kubectl_json(&["-n", "opts", "get", "cm", "ssa", "--show-managed-fields"])
        .await;
    assert_eq!(
        ssa["metadata"]["managedFields"][0]["manager"],
        "argocd-controller"
    );
    assert_eq!(ssa["metadata"]["managedFields"][0]["operation"], "Apply");
    // A change to the replaced object is a replace.
    write(
        &repo,
        "app/replaced.yaml",
        &cm_with_options("replaced", "Replace=true").replace("\"1\"", "\"2\""),
    );
    std::fs::remove_file(repo.join("app/extra.yaml")).unwrap();
    commit_and_push(&repo, "replaced changes, extra leaves").await;
    hard_refresh(&lab, "opts").await;
    let app = wait_app(&lab, "opts", "replaced again", |a| {
        result(a, "replaced").is_some_and(|r| r["message"] == "configmap/replaced replaced")
            && op_state(a)["phase"] == "Succeeded"
    })
    .await;
    let app = wait_app(&lab, "opts", "compared after the sync", |a| {
        a["status"]["sync"]["revision"] == op_state(&app)["syncResult"]["revision"]
    })
    .await;
    let extra = app["status"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "extra")
        .unwrap()
        .clone();
    assert_eq!(
        (extra["status"].as_str(), extra["requiresPruning"].as_bool()),
        (Some("OutOfSync"), Some(true))
    );
    assert_eq!(
        app["status"]["sync"]["status"], "Synced",
        "IgnoreExtraneous: {:#}",
        app["status"]
    );
}

/// Item 6: with prune on and `allowEmpty` off, an automated sync that would prune every
/// resource is refused (`Skipping sync attempt to [sha]: auto-sync will wipe out all
/// resources`) and nothing is deleted; with `allowEmpty: true` it goes ahead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn automated_sync_never_wipes_out_everything_unless_allowed_audit_2_6() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/stay.yaml", &cm("stay", "", "1"));
    write(&repo, "app/README.md", "the manifests of this app\n");
    commit_and_push(&repo, "stay").await;
    apply_app(&lab, "wipe", "app", "", "").await;
    wait_app(&lab, "wipe", "Synced and Healthy", synced_healthy).await;
    std::fs::remove_file(repo.join("app/stay.yaml")).unwrap();
    let empty = commit_and_push(&repo, "nothing left").await;
    hard_refresh(&lab, "wipe").await;
    let app = wait_app(&lab, "wipe", "a SyncError", |a| {
        a["status"]["conditions"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["type"] == "SyncError"))
    })
    .await;
    let condition = app["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "SyncError")
        .unwrap()
        .clone();
    assert_eq!(
        condition["message"],
        format!("Skipping sync attempt to [{empty}]: auto-sync will wipe out all resources")
    );
    assert_eq!(app["status"]["sync"]["status"], "OutOfSync");
    lab.kubectl(&["-n", "wipe", "get", "cm", "stay"]).await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "wipe",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"syncPolicy":{"automated":{"allowEmpty":true}}}}"#,
    ])
    .await;
    hard_refresh(&lab, "wipe").await;
    wait_app(&lab, "wipe", "Synced with nothing", |a| {
        a["status"]["sync"]["status"] == "Synced"
    })
    .await;
    assert!(
        !lab.kubectl_output(&["-n", "wipe", "get", "cm", "stay"])
            .await
            .status
            .success()
    );
}

/// Item 16: with prune off, a change that only needs pruning is not synced. A live hook is
/// listed without a sync status; one whose tracking id is its own (a named hook) requires
/// pruning like the removed object, so only pruning is needed still. A `generateName` hook's
/// id names no object (its name is made at sync time): it does not require pruning, so
/// `requirePruneOnly` does not hold and the change is synced, its prune skipped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_generate_name_hook_cancels_the_prune_only_skip_audit_2_16() {
    let (lab, repo) = lab_with_repo().await;
    for (dir, hook_name) in [("named", "name: pre"), ("generated", "generateName: pre-")] {
        write(&repo, &format!("{dir}/one.yaml"), &cm("one", "", "1"));
        write(&repo, &format!("{dir}/two.yaml"), &cm("two", "", "1"));
        write(
            &repo,
            &format!("{dir}/pre.yaml"),
            &job("pre", "argocd.argoproj.io/hook: PreSync", "echo ok")
                .replace("name: pre", hook_name),
        );
    }
    commit_and_push(&repo, "with a hook").await;
    for dir in ["named", "generated"] {
        apply_app(&lab, dir, dir, "", "").await;
        lab.kubectl(&[
            "-n",
            "argocd",
            "patch",
            "app",
            dir,
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"syncPolicy":{"automated":{"prune":false}}}}"#,
        ])
        .await;
    }
    for dir in ["named", "generated"] {
        wait_app(&lab, dir, "Synced and Healthy", synced_healthy).await;
        std::fs::remove_file(repo.join(format!("{dir}/two.yaml"))).unwrap();
    }
    let second = commit_and_push(&repo, "two gone").await;
    for dir in ["named", "generated"] {
        hard_refresh(&lab, dir).await;
    }
    let app = wait_app(&lab, "generated", "synced at the new commit", |a| {
        op_state(a)["phase"] == "Succeeded" && op_state(a)["syncResult"]["revision"] == second
    })
    .await;
    assert_eq!(result(&app, "two").unwrap()["status"], "PruneSkipped");
    let hook = app["status"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "Job")
        .cloned()
        .unwrap();
    assert!(hook.get("requiresPruning").is_none(), "{hook}");
    wait_app(&lab, "named", "showing the new commit", |a| {
        a["status"]["sync"]["revision"] == second && a["status"]["sync"]["status"] == "OutOfSync"
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let named = lab
        .kubectl_json(&["-n", "argocd", "get", "app", "named"])
        .await;
    assert_ne!(
        op_state(&named)["syncResult"]["revision"],
        second,
        "no sync started"
    );
    let hook = named["status"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "Job")
        .cloned()
        .unwrap();
    assert_eq!(hook["requiresPruning"], true, "{hook}");
}

/// Item 8: a resource the operation waits on that is deleted meanwhile fails the sync —
/// `SyncFailed`, hookPhase `Error`, `Resource apps/Deployment/slow is missing, it might have
/// been deleted` — instead of being waited on for ever; the operation names it as the reason
/// and its retry applies the resource again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_deleted_mid_wave_fails_the_sync_audit_2_8() {
    let (lab, repo) = lab_with_repo().await;
    let slow = crate::common::WEB
        .replace("  namespace: default\n", "")
        .replace("name: web\n", "name: slow\n")
        .replace("replicas: 2", "replicas: 1")
        .replace("initialDelaySeconds: 2", "initialDelaySeconds: 120");
    write(&repo, "app/slow.yaml", &slow);
    write(
        &repo,
        "app/after.yaml",
        &cm("after", "argocd.argoproj.io/sync-wave: \"1\"", "1"),
    );
    commit_and_push(&repo, "slow").await;
    apply_app(&lab, "slow", "app", "", "").await;
    wait_app(&lab, "slow", "waiting for the Deployment", |a| {
        op_state(a)["message"]
            .as_str()
            .is_some_and(|m| m.contains("waiting for healthy state of apps/Deployment/slow"))
    })
    .await;
    lab.kubectl(&["-n", "slow", "delete", "deploy", "slow", "--wait=false"])
        .await;
    let app = wait_app(&lab, "slow", "failed and retrying", |a| {
        op_state(a)["retryCount"].as_i64() >= Some(1)
    })
    .await;
    let missing = "Resource apps/Deployment/slow is missing, it might have been deleted";
    let message = op_state(&app)["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("one or more synchronization tasks completed unsuccessfully, reason: {missing}. Retrying attempt #")),
        "{message}"
    );
    // Until the retry begins, the failed attempt's result is kept.
    if op_state(&app)["finishedAt"].is_string() {
        let slow = op_state(&app)["syncResult"]["resources"]
            .as_array()
            .and_then(|r| r.iter().find(|r| r["kind"] == "Deployment"))
            .unwrap();
        assert_eq!(
            (
                slow["status"].as_str(),
                slow["hookPhase"].as_str(),
                slow["message"].as_str()
            ),
            (Some("SyncFailed"), Some("Error"), Some(missing))
        );
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !lab
        .kubectl_output(&["-n", "slow", "get", "deploy", "slow"])
        .await
        .status
        .success()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the retry never applied the Deployment"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// Item 11: a hook whose type is misspelt (`Presync`) is still a hook, of no phase: never
/// applied and never listed. `Skip` alone is no hook but a resource listed with no status and
/// never applied; `PreSync,Skip` is a PreSync hook.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn misspelt_and_skip_hook_annotations_audit_2_11() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/typo.yaml",
        &cm("typo-hook", "argocd.argoproj.io/hook: Presync", "1"),
    );
    write(
        &repo,
        "app/skipped.yaml",
        &cm("skipped", "argocd.argoproj.io/hook: Skip", "1"),
    );
    write(
        &repo,
        "app/both.yaml",
        &job(
            "both",
            "argocd.argoproj.io/hook: \\\"PreSync,Skip\\\"",
            "echo ok",
        )
        .replace("\\\"", "\""),
    );
    write(&repo, "app/plain.yaml", &cm("plain", "", "1"));
    commit_and_push(&repo, "typos").await;
    apply_app(&lab, "typo", "app", "", "").await;
    let app = wait_app(&lab, "typo", "Synced and Healthy", synced_healthy).await;
    let listed: Vec<(String, Value)> = app["status"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap().to_string(), r["status"].clone()))
        .collect();
    assert!(!listed.iter().any(|(n, _)| n == "typo-hook"), "{listed:?}");
    let skipped = listed
        .iter()
        .find(|(n, _)| n == "skipped")
        .expect("Skip alone is listed");
    assert!(skipped.1.is_null(), "with no status: {listed:?}");
    for never in ["typo-hook", "skipped"] {
        assert!(
            !lab.kubectl_output(&["-n", "typo", "get", "cm", never])
                .await
                .status
                .success(),
            "{never} was applied"
        );
    }
    let both = result(&app, "both").expect("PreSync,Skip ran");
    assert_eq!(both["hookType"], "PreSync");
}
