//! Argo CD 3.5 around the lab's Applications, with the real kubectl: cascade deletion through
//! the resources finalizer (foreground and background), deletion without it, and manual syncs
//! recorded with the commit they resolved to.

use crate::common::Lab;
use crate::common::{URL, cm, lab_with_repo};
use crate::common::{commit_and_push, synced_healthy, wait_app, write};

const DEPLOY: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: \"nginx:1.27-alpine\"}]\n";

/// A manual app on `path` into namespace `name`, with these finalizers.
async fn app_with_finalizers(lab: &Lab, name: &str, path: &str, finalizers: &str) {
    let yaml = format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: {name}, namespace: argocd, finalizers: [{finalizers}]}}\nspec:\n  project: default\n  source: {{repoURL: \"{URL}\", targetRevision: main, path: {path}}}\n  destination: {{server: \"https://kubernetes.default.svc\", namespace: {name}}}\n  syncPolicy:\n    automated: {{prune: true}}\n    syncOptions: [CreateNamespace=true]\n"
    );
    let file = lab.file(&format!("{name}.yaml"), &yaml);
    lab.kubectl(&["apply", "-f", file.to_str().unwrap()]).await;
    wait_app(lab, name, "Synced and Healthy", synced_healthy).await;
}

async fn names(lab: &Lab, kind: &str, ns: &str) -> Vec<String> {
    let list = lab.kubectl_json(&["get", kind, "-n", ns]).await;
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["metadata"]["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_resources_finalizer_deletes_wave_by_wave_then_lets_the_app_go() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/web.yaml", DEPLOY);
    // The highest wave goes first, and is waited for: a finalizer of our own holds it.
    write(
        &repo,
        "app/late.yaml",
        &cm("late", "argocd.argoproj.io/sync-wave: \"1\"", "x").replace(
            "  annotations:",
            "  finalizers: [example.com/hold]\n  annotations:",
        ),
    );
    write(
        &repo,
        "app/kept.yaml",
        &cm("kept", "argocd.argoproj.io/sync-options: Delete=false", "x"),
    );
    commit_and_push(&repo, "shop").await;
    app_with_finalizers(
        &lab,
        "shop",
        "app",
        "resources-finalizer.argocd.argoproj.io",
    )
    .await;

    lab.kubectl(&["delete", "app", "shop", "-n", "argocd", "--wait=false"])
        .await;
    let late = crate::common::wait_json(&lab, &["get", "cm", "late", "-n", "shop"], |c| {
        c["metadata"]["deletionTimestamp"].is_string()
    })
    .await;
    assert_eq!(late["metadata"]["finalizers"][0], "example.com/hold");
    // Wave 0 is not touched while wave 1 is still going.
    let web = lab
        .kubectl_json(&["get", "deploy", "web", "-n", "shop"])
        .await;
    assert!(web["metadata"]["deletionTimestamp"].is_null(), "{web:#}");
    let app = lab
        .kubectl_json(&["get", "app", "shop", "-n", "argocd"])
        .await;
    assert_eq!(
        app["metadata"]["finalizers"][0],
        "resources-finalizer.argocd.argoproj.io"
    );

    lab.kubectl(&[
        "patch",
        "cm",
        "late",
        "-n",
        "shop",
        "--type=merge",
        "-p",
        r#"{"metadata":{"finalizers":null}}"#,
    ])
    .await;
    lab.kubectl(&[
        "wait",
        "--for=delete",
        "app/shop",
        "-n",
        "argocd",
        "--timeout=60s",
    ])
    .await;
    // Foreground: the Deployment went only once its ReplicaSet and Pods had gone.
    assert!(names(&lab, "deploy", "shop").await.is_empty());
    assert!(names(&lab, "pods", "shop").await.is_empty());
    assert_eq!(
        names(&lab, "cm", "shop").await,
        ["kept", "kube-root-ca.crt"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn background_finalizer_deletes_too_and_no_finalizer_leaves_the_resources() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/web.yaml", DEPLOY);
    commit_and_push(&repo, "web").await;
    app_with_finalizers(
        &lab,
        "quick",
        "app",
        "resources-finalizer.argocd.argoproj.io/background",
    )
    .await;
    lab.kubectl(&["delete", "app", "quick", "-n", "argocd", "--timeout=60s"])
        .await;
    crate::common::wait_json(&lab, &["get", "deploy", "-n", "quick"], |l| {
        l["items"].as_array().is_some_and(Vec::is_empty)
    })
    .await;

    app_with_finalizers(&lab, "plain", "app", "").await;
    lab.kubectl(&["delete", "app", "plain", "-n", "argocd", "--timeout=60s"])
        .await;
    let err = lab
        .kubectl_fails(&["get", "app", "plain", "-n", "argocd"])
        .await;
    assert!(err.contains("not found"), "{err}");
    assert_eq!(names(&lab, "deploy", "plain").await, ["web"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_manual_sync_to_a_branch_records_the_commit_it_resolved_to() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    let sha = commit_and_push(&repo, "settings").await;
    let yaml = format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: manual, namespace: argocd}}\nspec:\n  project: default\n  source: {{repoURL: \"{URL}\", targetRevision: main, path: app}}\n  destination: {{server: \"https://kubernetes.default.svc\", namespace: manual}}\n  syncPolicy:\n    syncOptions: [CreateNamespace=true]\n"
    );
    let file = lab.file("manual.yaml", &yaml);
    lab.kubectl(&["apply", "-f", file.to_str().unwrap()]).await;
    wait_app(&lab, "manual", "OutOfSync", |a| {
        a["status"]["sync"]["status"] == "OutOfSync"
    })
    .await;
    // What `argocd app sync manual --revision main` sets (the API server copies the spec's
    // sync options into the operation).
    lab.kubectl(&[
        "patch", "app", "manual", "-n", "argocd", "--type=merge", "-p",
        r#"{"operation":{"initiatedBy":{"username":"admin"},"sync":{"revision":"main","syncOptions":["CreateNamespace=true"],"syncStrategy":{"hook":{}}}}}"#,
    ])
    .await;
    let app = wait_app(&lab, "manual", "a finished sync", |a| {
        a["status"]["operationState"]["phase"] == "Succeeded"
    })
    .await;
    let state = &app["status"]["operationState"];
    assert_eq!(
        state["operation"]["sync"]["revision"], "main",
        "the request is kept as sent"
    );
    assert_eq!(state["syncResult"]["revision"], sha.as_str());
    assert_eq!(app["status"]["history"][0]["revision"], sha.as_str());
    assert_eq!(state["message"], "successfully synced (all tasks run)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_app_with_services_is_synced_and_healthy_despite_the_addresses_the_server_allocates() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/web.yaml", DEPLOY);
    let svc = |name: &str, ty: &str| {
        format!(
            "apiVersion: v1\nkind: Service\nmetadata: {{name: {name}}}\nspec:\n  type: {ty}\n  selector: {{app: web}}\n  ports: [{{port: 80}}]\n"
        )
    };
    write(&repo, "app/svc.yaml", &svc("web", "ClusterIP"));
    // k3s's ServiceLB gives a LoadBalancer the node's address, so Argo CD calls it Healthy.
    write(&repo, "app/lb.yaml", &svc("web-lb", "LoadBalancer"));
    commit_and_push(&repo, "web with services").await;
    app_with_finalizers(&lab, "svcs", "app", "").await;
    let lb = lab
        .kubectl_json(&["get", "svc", "web-lb", "-n", "svcs"])
        .await;
    assert_eq!(
        lb["status"]["loadBalancer"]["ingress"][0]["ip"],
        "10.0.2.15"
    );
    let port = lb["spec"]["ports"][0]["nodePort"].as_u64().unwrap();
    assert!((30000..=32767).contains(&port));
    // A refresh later, the allocated fields still count as no drift.
    lab.kubectl(&[
        "annotate",
        "app",
        "svcs",
        "-n",
        "argocd",
        "argocd.argoproj.io/refresh=normal",
    ])
    .await;
    let app = wait_app(&lab, "svcs", "refreshed", |a| {
        a["metadata"]["annotations"]["argocd.argoproj.io/refresh"].is_null()
    })
    .await;
    assert!(synced_healthy(&app), "{:#}", app["status"]);
}
