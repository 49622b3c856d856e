//! Argo CD operations that work on any cluster with the Application CRD, without the argocd
//! CLI: the refresh annotation (docs/sim-behaviour.md §5.4) and terminating a running operation as
//! `argocd app terminate-op --core` does (docs/sim-behaviour.md §5.3).

use kube::api::{Api, DynamicObject, Patch, PatchParams, PostParams};
use serde_json::json;

use super::{Application, ClusterError, Result, explain};

pub const NAMESPACE: &str = "argocd";

fn applications(client: kube::Client, namespace: &str) -> Api<DynamicObject> {
    super::application::api(client, namespace)
}

/// An Application, typed.
pub async fn application(client: kube::Client, namespace: &str, name: &str) -> Result<Application> {
    let app = applications(client, namespace)
        .get(name)
        .await
        .map_err(explain)?;
    serde_json::to_value(app)
        .ok()
        .and_then(|v| Application::from_json(&v))
        .ok_or_else(|| ClusterError::NotAnApplication(name.to_string()))
}

/// Any object by its API path, as JSON (managedFields included).
pub async fn raw_get(client: kube::Client, path: &str) -> Result<serde_json::Value> {
    let req = http::Request::get(path)
        .body(Vec::new())
        .map_err(|e| ClusterError::Api(e.to_string()))?;
    client
        .request::<serde_json::Value>(req)
        .await
        .map_err(explain)
}

/// As [`raw_get`], with `None` when the object does not exist.
pub async fn raw_get_if_any(client: kube::Client, path: &str) -> Result<Option<serde_json::Value>> {
    match raw_get(client, path).await {
        Ok(v) => Ok(Some(v)),
        Err(ClusterError::NotFound(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Asks Argo CD to compare again now (`hard` also regenerates manifests).
pub async fn refresh(client: kube::Client, namespace: &str, name: &str, hard: bool) -> Result<()> {
    let patch = json!({"metadata": {"annotations": {"argocd.argoproj.io/refresh": if hard { "hard" } else { "normal" }}}});
    applications(client, namespace)
        .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .map(|_| ())
        .map_err(explain)
}

/// Sets `status.operationState.phase: Terminating` with an update (retried on conflicts, as
/// Argo CD's API server does); the controller then ends the operation as `Failed` /
/// `Operation terminated` (with ` (retried N times).` after retries).
/// What `argocd app terminate-op` answers when the Application has no operation, quoted so a
/// learner who searches for it finds Argo CD's own words.
pub const NO_OPERATION: &str = "Unable to terminate operation. No operation is in progress";

pub async fn terminate_op(client: kube::Client, namespace: &str, name: &str) -> Result<()> {
    let api = applications(client, namespace);
    for _ in 0..10 {
        let mut app = api.get(name).await.map_err(explain)?;
        let running = app.data.get("operation").is_some_and(|o| !o.is_null())
            && app.data["status"]
                .get("operationState")
                .is_some_and(|s| !s.is_null());
        if !running {
            return Err(ClusterError::NoOperation(name.to_string()));
        }
        app.data["status"]["operationState"]["phase"] = json!("Terminating");
        match api.replace(name, &PostParams::default(), &app).await {
            Ok(_) => return Ok(()),
            Err(kube::Error::Api(s)) if s.code == 409 => continue,
            Err(e) => return Err(explain(e)),
        }
    }
    Err(ClusterError::KeptChanging(name.to_string()))
}
