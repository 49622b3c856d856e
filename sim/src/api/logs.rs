//! `GET .../pods/{name}/log`: what a simulated container printed, as plain text; with
//! `follow=true` the response stays open until the container exits.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::ApiState;
use super::path::ResourcePath;
use super::request::Query;
use crate::status::{ApiError, ApiResult};
use crate::store::Key;

pub async fn serve(
    st: &Arc<ApiState>,
    rp: &ResourcePath,
    method: &Method,
    q: &Query,
) -> ApiResult<Response> {
    if method != Method::GET {
        return Err(ApiError::method_not_allowed(method.as_str(), "pods/log"));
    }
    let (ns, name) = (
        rp.namespace.as_deref().unwrap_or_default(),
        rp.name.as_deref().unwrap_or_default(),
    );
    let pod = st
        .store
        .get(&Key::new(rp.ty, ns, name))
        .ok_or_else(|| ApiError::not_found(rp.ty, name))?;
    let containers: Vec<String> = pod["spec"]["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str().map(String::from))
        .collect();
    let container = match (&q.container, containers.as_slice()) {
        (Some(c), _) if containers.contains(c) => c.clone(),
        (Some(c), _) => {
            return Err(ApiError::bad_request(format!(
                "container {c} is not valid for pod {name}"
            )));
        }
        (None, [only]) => only.clone(),
        (None, _) => {
            return Err(ApiError::bad_request(format!(
                "a container name must be specified for pod {name}, choose one of: [{}]",
                containers.join(" ")
            )));
        }
    };
    let Some(view) = st.logs.view(ns, name, &container) else {
        return Err(ApiError::bad_request(format!(
            "container \"{container}\" in pod \"{name}\" is waiting to start: ContainerCreating"
        )));
    };
    let tail = |text: &str| match q.tail_lines {
        Some(n) => {
            let lines: Vec<&str> = text.lines().collect();
            let mut out = lines[lines.len().saturating_sub(n)..].join("\n");
            if !out.is_empty() {
                out.push('\n');
            }
            out
        }
        None => text.to_string(),
    };
    if !q.follow || view.finished {
        return Ok((
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/plain")],
            tail(&view.text),
        )
            .into_response());
    }
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(16);
    let logs = st.logs.clone();
    let (ns, name) = (ns.to_string(), name.to_string());
    let first = tail(&view.text);
    let mut sent = view.text.len();
    let mut changes = view.changes;
    tokio::spawn(async move {
        if tx.send(Ok(first.into_bytes())).await.is_err() {
            return;
        }
        while changes.changed().await.is_ok() {
            let Some(now) = logs.view(&ns, &name, &container) else {
                return;
            };
            if now.text.len() > sent {
                if tx
                    .send(Ok(now.text.as_bytes()[sent..].to_vec()))
                    .await
                    .is_err()
                {
                    return;
                }
                sent = now.text.len();
            }
            if now.finished {
                return;
            }
        }
    });
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain")],
        Body::from_stream(tokio_stream::wrappers::ReceiverStream::new(rx)),
    )
        .into_response())
}
