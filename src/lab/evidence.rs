//! The lab's evidence files, read from the live cluster (never hard-coded) and written
//! atomically into the source dir; a different file already there is kept as `<name>.bak`.

use std::path::{Path, PathBuf};

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{Api, ListParams};
use serde_json::{Value, json};

use super::report;
use crate::cluster::{self, argocd};

#[derive(Debug, thiserror::Error)]
pub enum EvidenceError {
    #[error("{0}")]
    Cluster(#[from] cluster::ClusterError),
    #[error("{what} is not there yet: {hint}")]
    Missing { what: String, hint: String },
    #[error("cannot write {path}: {source}. Is the source dir writable?")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Report(String),
}

pub type Result<T> = std::result::Result<T, EvidenceError>;

/// What a capture may need beyond the cluster.
pub struct Context<'a> {
    pub client: &'a kube::Client,
    pub src_dir: &'a Path,
}

fn missing(what: impl Into<String>, hint: impl Into<String>) -> EvidenceError {
    EvidenceError::Missing {
        what: what.into(),
        hint: hint.into(),
    }
}

async fn get<K>(client: &kube::Client, ns: &str, name: &str) -> Result<K>
where
    K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope>
        + Clone
        + serde::de::DeserializeOwned
        + std::fmt::Debug,
    <K as kube::Resource>::DynamicType: Default,
{
    Api::<K>::namespaced(client.clone(), ns)
        .get(name)
        .await
        .map_err(|e| EvidenceError::Cluster(cluster::explain(e)))
}

/// Captures the named evidence file's content from the cluster.
pub async fn capture(file: &str, ctx: &Context<'_>) -> Result<Value> {
    match file {
        "precedence.json" => precedence(ctx.client).await,
        "tracking.json" => tracking(ctx.client).await,
        "waves.json" => waves(ctx.client).await,
        "failed-hook.json" => failed_hook(ctx.client).await,
        "ignore.json" => ignore(ctx.client).await,
        "report.json" => report::derive(ctx).await.map_err(EvidenceError::Report),
        other => Err(missing(other, "capa-tui does not know this evidence file")),
    }
}

async fn precedence(client: &kube::Client) -> Result<Value> {
    let d: Deployment = get(client, "src-helm", "src-helm-web").await?;
    let cm: ConfigMap = get(client, "src-helm", "src-helm-greeting").await?;
    let replicas = d
        .spec
        .and_then(|s| s.replicas)
        .ok_or_else(|| missing("spec.replicas of src-helm-web", "wait for src-helm to sync"))?;
    let greeting = cm
        .data
        .and_then(|d| d.get("greeting").cloned())
        .ok_or_else(|| {
            missing(
                "data.greeting of src-helm-greeting",
                "wait for src-helm to sync",
            )
        })?;
    Ok(json!({"replicas": replicas, "greeting": greeting}))
}

async fn tracking(client: &kube::Client) -> Result<Value> {
    let secrets = Api::<Secret>::namespaced(client.clone(), "src-helm")
        .list(&ListParams::default().fields("type=helm.sh/release.v1"))
        .await
        .map_err(|e| EvidenceError::Cluster(cluster::explain(e)))?;
    let cm: ConfigMap = get(client, "src-helm", "src-helm-greeting").await?;
    let annotation = cm
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get("argocd.argoproj.io/tracking-id").cloned());
    let label = cm
        .metadata
        .labels
        .as_ref()
        .and_then(|l| l.get("app.kubernetes.io/instance").cloned());
    Ok(json!({
        "helm_release_secrets": secrets.items.len(),
        "tracking_annotation": annotation.ok_or_else(|| missing("the tracking-id annotation", "wait for src-helm to sync"))?,
        "instance_label": label,
    }))
}

async fn waves(client: &kube::Client) -> Result<Value> {
    let app = argocd::application(client.clone(), argocd::NAMESPACE, "src-waves").await?;
    let hook = app["status"]["operationState"]["syncResult"]["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["hookType"] == "PreSync" && r["hookPhase"] == "Succeeded")
        .and_then(|r| r["name"].as_str().map(String::from))
        .ok_or_else(|| {
            missing(
                "a succeeded PreSync hook in src-waves' last sync",
                "wait until src-waves is Synced, Healthy and its operation Succeeded",
            )
        })?;
    let job: Job = get(client, "src-waves", &hook).await?;
    let settings: ConfigMap = get(client, "src-waves", "settings").await?;
    let created = |t: Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::Time>| {
        t.map(|t| t.0.to_string())
    };
    Ok(json!({
        "hook_job": hook,
        "hook_created": created(job.metadata.creation_timestamp).ok_or_else(|| missing("the hook Job's creationTimestamp", "look again"))?,
        "settings_created": created(settings.metadata.creation_timestamp).ok_or_else(|| missing("settings' creationTimestamp", "look again"))?,
    }))
}

async fn failed_hook(client: &kube::Client) -> Result<Value> {
    let app = argocd::application(client.clone(), argocd::NAMESPACE, "src-waves").await?;
    let state = &app["status"]["operationState"];
    let commit = state["operation"]["sync"]["revision"]
        .as_str()
        .ok_or_else(|| {
            missing(
                "src-waves' operation",
                "push the step-6 commit and hard-refresh src-waves first",
            )
        })?;
    let settings: ConfigMap = get(client, "src-waves", "settings").await?;
    Ok(json!({
        "commit": commit,
        "phase": state["phase"],
        "live_mode": settings.data.and_then(|d| d.get("mode").cloned()),
    }))
}

/// When `kubectl scale` last wrote prod-api's replicas (its managedFields entry's time).
pub async fn scaled_at(
    client: &kube::Client,
    namespace: &str,
    deployment: &str,
) -> Result<jiff::Timestamp> {
    let d = argocd::raw_get(
        client.clone(),
        &format!("/apis/apps/v1/namespaces/{namespace}/deployments/{deployment}"),
    )
    .await?;
    d["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| {
            m["subresource"] == "scale" && m["fieldsV1"]["f:spec"]["f:replicas"].is_object()
        })
        .filter_map(|m| m["time"].as_str()?.parse::<jiff::Timestamp>().ok())
        .max()
        .ok_or_else(|| {
            missing(
                format!("a scale of {deployment}"),
                format!(
                    "scale it first: kubectl -n {namespace} scale deploy/{deployment} --replicas=4"
                ),
            )
        })
}

async fn ignore(client: &kube::Client) -> Result<Value> {
    let scaled = scaled_at(client, "src-kust", "prod-api").await?;
    let checked = cluster::now(client).await?;
    let d = argocd::raw_get(
        client.clone(),
        "/apis/apps/v1/namespaces/src-kust/deployments/prod-api",
    )
    .await?;
    let app = argocd::application(client.clone(), argocd::NAMESPACE, "src-kust").await?;
    Ok(json!({
        "scaled_at": scaled.as_second(),
        "checked_at": checked.as_second(),
        "replicas": d["spec"]["replicas"],
        "sync_status": app["status"]["sync"]["status"],
    }))
}

/// Writes `value` to `path` atomically (pretty JSON). If a different file is already there (the
/// learner's own), it is first kept as `<name>.bak`; returns that backup's path.
pub fn write(path: &Path, value: &Value) -> Result<Option<PathBuf>> {
    let text = format!(
        "{}\n",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
    super::files::write_keeping_backup(path, &text).map_err(|source| EvidenceError::Write {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_is_pretty_json_and_a_learners_file_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("precedence.json");
        std::fs::write(&p, "{\"replicas\": 9}").unwrap();
        let bak = write(&p, &json!({"replicas": 3})).unwrap().unwrap();
        assert_eq!(std::fs::read_to_string(&bak).unwrap(), "{\"replicas\": 9}");
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "{\n  \"replicas\": 3\n}\n"
        );
    }
}
