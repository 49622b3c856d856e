//! The moment lesson 6 records, kept across a stopped run. Ending a failing operation and
//! recording it are two writes, and once the fix syncs the failed operation is gone from the
//! app; a run stopped between them left nothing to record (every re-run waited its whole
//! deadline for a Failed that would never come). So the app and the objects the evidence reads
//! are saved before the end, and a later run records from them, as of then, once the app's
//! `OperationCompleted` Event proves that operation ended Failed.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::cluster::argocd;
use crate::lab::engine::{Runner, StepError};
use crate::lab::eval::evidence::{self, Known};
use crate::lab::paths::LabPaths;
use crate::lab::spec::EvidenceSpec;

/// Where the moment of evidence `file` is kept until it is recorded.
pub struct Saved;

impl Saved {
    pub fn path(paths: &LabPaths, file: &str) -> PathBuf {
        paths.tutor_dir().join(format!("ending-{file}"))
    }
}

/// Keeps `app` (its operation still running) and the objects `known` as they are now.
pub fn save(path: &Path, app: &Value, known: &Known) -> Result<(), StepError> {
    let text = json!({"app": app, "known": known}).to_string();
    let cannot = |source: std::io::Error| StepError::CannotWrite {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(cannot)?;
    }
    crate::lab::files::write_atomic(path, &text).map_err(cannot)
}

/// The evidence of `spec` as of the end a stopped run made: `None` when nothing was saved, or
/// no Event (yet) says that operation ended Failed.
pub async fn record_from_saved(
    r: &Runner,
    path: &Path,
    spec: &EvidenceSpec,
) -> Result<Option<Value>, StepError> {
    let Some(saved) = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
    else {
        return Ok(None);
    };
    let mut app = saved["app"].clone();
    let (Some(name), Some(revision)) = (
        app["metadata"]["name"].as_str().map(String::from),
        app["status"]["operationState"]["operation"]["sync"]["revision"]
            .as_str()
            .map(String::from),
    ) else {
        return Ok(None);
    };
    let Some((message, at)) = failed_end(r, &name, &revision).await? else {
        return Ok(None);
    };
    let state = &mut app["status"]["operationState"];
    state["phase"] = json!("Failed");
    state["message"] = json!(message);
    state["finishedAt"] = at;
    app["operation"] = Value::Null;
    let mut known: Known = serde_json::from_value(saved["known"].clone()).unwrap_or_default();
    known.insert(
        format!(
            "{}/{name}",
            crate::cluster::Kind::Application.collection_path(argocd::NAMESPACE)
        ),
        app,
    );
    Ok(Some(
        evidence::capture_as_of(spec, &r.context(), &known).await?,
    ))
}

/// The message and time of the Event saying app `name`'s operation on `revision` failed.
async fn failed_end(
    r: &Runner,
    name: &str,
    revision: &str,
) -> Result<Option<(String, Value)>, StepError> {
    let events = argocd::raw_get(
        r.client.clone(),
        &format!(
            "/api/v1/namespaces/{}/events?fieldSelector=involvedObject.name={name},reason=OperationCompleted",
            argocd::NAMESPACE
        ),
    )
    .await?;
    let ended = events["items"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|e| {
            let message = e["message"].as_str()?;
            let rest = message
                .strip_prefix("Sync operation to ")
                .or_else(|| message.strip_prefix("Partial sync operation to "))?;
            let why = rest.strip_prefix(revision)?.strip_prefix(" failed: ")?;
            Some((why.to_string(), e["lastTimestamp"].clone()))
        });
    Ok(ended)
}
