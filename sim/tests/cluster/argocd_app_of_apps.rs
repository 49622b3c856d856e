//! An app of apps as Argo CD runs it: a parent whose Git path holds an Application makes it,
//! and when the child's file leaves Git the parent prunes it and, refreshed by the child's
//! deletion (a managed resource's event), reads Synced again at once, not at its next periodic
//! refresh. At real speed, so the periodic refresh (3 minutes) cannot be what ends the wait.

use std::time::Duration;

use crate::common::git::git;
use crate::common::{Lab, URL, commit_and_push, src_repo, synced_healthy, wait_app, write};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parent_prunes_its_child_and_is_synced_again_without_waiting_for_a_refresh() {
    let lab = Lab::start_with(capa_sim::Config {
        speed: 1.0,
        ..capa_sim::Config::default()
    })
    .await;
    let repo = src_repo(&lab).await;
    // Two children: one deleted alone, one with the resources finalizer, which deletes what it
    // deployed first and so is still there, being deleted, when the parent's sync ends.
    let child = |name: &str, finalizers: &str| {
        format!(
            "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: {name}, namespace: argocd{finalizers}}}\nspec:\n  project: default\n  source: {{repoURL: \"{URL}\", targetRevision: main, path: hello}}\n  destination: {{server: \"https://kubernetes.default.svc\", namespace: {name}}}\n  syncPolicy:\n    automated: {{}}\n    syncOptions: [CreateNamespace=true]\n"
        )
    };
    write(&repo, "apps/alone.yaml", &child("alone", ""));
    write(
        &repo,
        "apps/cascade.yaml",
        &child(
            "cascade",
            ", finalizers: [resources-finalizer.argocd.argoproj.io]",
        ),
    );
    // A third is held by a finalizer of someone else's until the test lets it go: the parent's
    // sync ends while it is still there, being deleted.
    write(
        &repo,
        "apps/held.yaml",
        &child("held", ", finalizers: [example.com/hold]"),
    );
    write(&repo, "apps/README.md", "the parent's children\n");
    write(
        &repo,
        "hello/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: hello}\ndata: {message: hi}\n",
    );
    commit_and_push(&repo, "a parent's child").await;
    let parent = format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: parent, namespace: argocd}}\nspec:\n  project: default\n  source: {{repoURL: \"{URL}\", targetRevision: main, path: apps}}\n  destination: {{server: \"https://kubernetes.default.svc\", namespace: argocd}}\n  syncPolicy:\n    automated: {{prune: true, allowEmpty: true}}\n"
    );
    lab.kubectl(&[
        "apply",
        "-f",
        lab.file("parent.yaml", &parent).to_str().unwrap(),
    ])
    .await;
    // The children exist once the parent has synced (asking for one before is a NotFound).
    wait_app(&lab, "parent", "Synced and Healthy", synced_healthy).await;
    for name in ["alone", "cascade", "held"] {
        wait_app(&lab, name, "Synced and Healthy", synced_healthy).await;
    }

    git(
        &repo,
        &[
            "rm",
            "-q",
            "apps/alone.yaml",
            "apps/cascade.yaml",
            "apps/held.yaml",
        ],
    )
    .await;
    let removed = commit_and_push(&repo, "prune the children").await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "annotate",
        "application",
        "parent",
        "argocd.argoproj.io/refresh=hard",
        "--overwrite",
    ])
    .await;
    wait_app(&lab, "parent", "done syncing the removal", |a| {
        a["status"]["operationState"]["phase"] == "Succeeded"
            && a["status"]["operationState"]["syncResult"]["revision"] == removed.as_str()
    })
    .await;
    let held = wait_app(&lab, "held", "being deleted", |a| {
        !a["metadata"]["deletionTimestamp"].is_null()
    })
    .await;
    assert_eq!(held["metadata"]["finalizers"][0], "example.com/hold");
    // Let it go: the child is deleted, and that event is what refreshes the parent.
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "application",
        "held",
        "--type=json",
        "-p",
        r#"[{"op": "remove", "path": "/metadata/finalizers"}]"#,
    ])
    .await;
    let started = tokio::time::Instant::now();
    let app = wait_app(
        &lab,
        "parent",
        "Synced at the removal, its children gone",
        |a| {
            synced_healthy(a)
                && a["status"]["sync"]["revision"] == removed.as_str()
                && a["status"]["resources"]
                    .as_array()
                    .is_none_or(Vec::is_empty)
        },
    )
    .await;
    assert_eq!(app["status"]["operationState"]["phase"], "Succeeded");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the parent waited for a periodic refresh: {:?}",
        started.elapsed()
    );
    for name in ["alone", "cascade", "held"] {
        let gone = lab
            .kubectl_output(&["-n", "argocd", "get", "application", name])
            .await;
        assert!(!gone.status.success(), "{name} is pruned");
    }
    // Without the resources finalizer what a child deployed stays; with it, it goes first.
    lab.kubectl(&["-n", "alone", "get", "configmap", "hello"])
        .await;
    let cascaded = lab
        .kubectl_output(&["-n", "cascade", "get", "configmap", "hello"])
        .await;
    assert!(!cascaded.status.success(), "the finalizer deleted it");
}
