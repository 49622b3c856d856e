//! Argo CD as a learner drives it with kubectl: Applications applied and polled, the manifests
//! the tests commit, and ending an operation.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use super::Lab;
use super::git::src_repo;

pub const URL: &str = "git://gitd.gitsrv.svc.cluster.local:9418/src.git";

/// A cluster with an empty `src.git` cloned to `repo`.
pub async fn lab_with_repo() -> (Lab, PathBuf) {
    let lab = Lab::start().await;
    let repo = src_repo(&lab).await;
    (lab, repo)
}

/// An automated Directory app on `path` (extra YAML appended under spec).
pub async fn apply_app(
    lab: &Lab,
    name: &str,
    path: &str,
    sync_policy_extra: &str,
    spec_extra: &str,
) {
    let yaml = format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: {name}, namespace: argocd}}\nspec:\n  project: default\n  source: {{repoURL: \"{URL}\", targetRevision: main, path: {path}}}\n  destination: {{server: \"https://kubernetes.default.svc\", namespace: {name}}}\n  syncPolicy:\n    automated: {{prune: true, selfHeal: true}}\n    syncOptions: [CreateNamespace=true]\n{sync_policy_extra}{spec_extra}"
    );
    lab.kubectl(&[
        "apply",
        "-f",
        lab.file(&format!("{name}.yaml"), &yaml).to_str().unwrap(),
    ])
    .await;
}

pub fn cm(name: &str, annotations: &str, value: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  annotations: {{{annotations}}}\ndata: {{value: \"{value}\"}}\n"
    )
}

pub fn job(name: &str, annotations: &str, script: &str) -> String {
    format!(
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {name}\n  annotations: {{{annotations}}}\nspec:\n  backoffLimit: 0\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {{name: c, image: \"busybox:1.36\", command: [sh, -c, \"{script}\"]}}\n"
    )
}

pub fn op_state(app: &Value) -> &Value {
    &app["status"]["operationState"]
}

pub fn app_yaml(name: &str, path: &str, extra_source: &str, extra_spec: &str) -> String {
    format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: {name}\n  namespace: argocd\nspec:\n  project: default\n  source:\n    repoURL: {URL}\n    targetRevision: main\n    path: {path}\n{extra_source}  destination:\n    server: https://kubernetes.default.svc\n    namespace: {name}\n  syncPolicy:\n    automated: {{prune: true, selfHeal: true}}\n    syncOptions: [CreateNamespace=true]\n{extra_spec}"
    )
}

/// Polls an Application (through kubectl, as a learner would) until `check` holds.
pub async fn wait_app(lab: &Lab, name: &str, what: &str, check: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(90);
    loop {
        let app = lab
            .kubectl_json(&["-n", "argocd", "get", "application", name])
            .await;
        if check(&app) {
            return app;
        }
        if tokio::time::Instant::now() > deadline {
            panic!(
                "{name} never became {what}; last status:\n{}",
                serde_json::to_string_pretty(&app["status"]).unwrap()
            );
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits until the Application has a ComparisonError condition; returns it and the condition.
pub async fn comparison_error(lab: &Lab, name: &str) -> (Value, Value) {
    let is_it = |c: &Value| c["type"] == "ComparisonError";
    let app = wait_app(lab, name, "in ComparisonError", |a| {
        a["status"]["conditions"]
            .as_array()
            .is_some_and(|c| c.iter().any(is_it))
    })
    .await;
    let condition = app["status"]["conditions"]
        .as_array()
        .and_then(|c| c.iter().find(|c| is_it(c)).cloned())
        .unwrap_or_default();
    (app, condition)
}

pub fn synced_healthy(app: &Value) -> bool {
    app["status"]["sync"]["status"] == "Synced"
        && app["status"]["health"]["status"] == "Healthy"
        && app["operation"].is_null()
}

/// Ends the running operation as `argocd app terminate-op --core` does: the Application's
/// `status.operationState.phase` set to `Terminating` with an update, retried on a conflict.
pub async fn terminate_op(lab: &Lab, name: &str) {
    use kube::api::{Api, DynamicObject, PostParams};
    let gvk = kube::api::GroupVersionKind::gvk("argoproj.io", "v1alpha1", "Application");
    let resource = kube::api::ApiResource::from_gvk(&gvk);
    let apps: Api<DynamicObject> = Api::namespaced_with(lab.client().await, "argocd", &resource);
    for _ in 0..10 {
        let mut app = apps.get(name).await.expect("the Application exists");
        assert!(
            app.data["operation"].is_object()
                && app.data["status"]["operationState"]["phase"].is_string(),
            "{name} has no operation in progress"
        );
        app.data["status"]["operationState"]["phase"] = serde_json::json!("Terminating");
        match apps.replace(name, &PostParams::default(), &app).await {
            Ok(_) => return,
            Err(kube::Error::Api(e)) if e.code == 409 => continue,
            Err(e) => panic!("terminating {name}: {e}"),
        }
    }
    panic!("terminating {name}: ten conflicts in a row");
}
