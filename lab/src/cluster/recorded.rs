//! The cluster as it answered, kept: a kube client that records every request and its answer
//! (`Recorder`), and one that answers from such a record with no cluster at all (`Replayer`). A
//! class collects each learner's lab with the first, as `check` reads it, and grades it later
//! with the second: the grading code is the same, only the client differs.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use futures::future::BoxFuture;
use http::{Request, Response};
use kube::client::Body;
use serde::{Deserialize, Serialize};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// One request and the cluster's answer to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    pub method: String,
    /// The path with its query: `/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/x`.
    pub path: String,
    pub status: u16,
    /// The answer's `Date` (the cluster's clock, which some checks read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    pub body: String,
}

/// A client that passes every request to `inner` and keeps a copy of each answer.
#[derive(Clone)]
pub struct Recorder {
    inner: kube::Client,
    kept: Arc<Mutex<Vec<Exchange>>>,
}

impl Recorder {
    /// A client recording what `inner` answers; the record is [`Recorder::exchanges`].
    pub fn new(inner: kube::Client) -> (kube::Client, Recorder) {
        let recorder = Recorder {
            inner: inner.clone(),
            kept: Arc::default(),
        };
        let ns = inner.default_namespace().to_string();
        (kube::Client::new(recorder.clone(), ns), recorder)
    }

    /// Every exchange so far, in order.
    pub fn exchanges(&self) -> Vec<Exchange> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// A request as a record knows it: its method, and its path with the query.
fn key_of(request: &Request<Body>) -> (String, String) {
    let path = request
        .uri()
        .path_and_query()
        .map(|p| p.to_string())
        .unwrap_or_default();
    (request.method().to_string(), path)
}

fn header(response: &Response<Body>, name: http::header::HeaderName) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(String::from)
}

impl tower_service::Service<Request<Body>> for Recorder {
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<Response<Body>, BoxError>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let (inner, kept) = (self.inner.clone(), self.kept.clone());
        let (method, path) = key_of(&request);
        Box::pin(async move {
            let response = inner.send(request).await.map_err(Box::new)?;
            let (date, content_type) = (
                header(&response, http::header::DATE),
                header(&response, http::header::CONTENT_TYPE),
            );
            let (parts, body) = response.into_parts();
            let bytes = body.collect_bytes().await.map_err(Box::new)?;
            kept.lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(Exchange {
                    method,
                    path,
                    status: parts.status.as_u16(),
                    date,
                    content_type,
                    body: String::from_utf8_lossy(&bytes).into_owned(),
                });
            Ok(Response::from_parts(parts, Body::from(bytes.to_vec())))
        })
    }
}

/// A client that answers from a record: each request gets the last answer recorded for its
/// method and path, and one never asked then gets a 404 that says so.
#[derive(Clone)]
pub struct Replayer {
    answers: Arc<BTreeMap<(String, String), Exchange>>,
}

impl Replayer {
    pub fn client(exchanges: &[Exchange]) -> kube::Client {
        let answers = exchanges
            .iter()
            .map(|e| ((e.method.clone(), e.path.clone()), e.clone()))
            .collect();
        kube::Client::new(
            Replayer {
                answers: Arc::new(answers),
            },
            "default",
        )
    }
}

impl tower_service::Service<Request<Body>> for Replayer {
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<Response<Body>, BoxError>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let key = key_of(&request);
        let found = self.answers.get(&key).cloned();
        Box::pin(async move {
            let mut builder = Response::builder();
            let body = match found {
                Some(e) => {
                    builder = builder.status(e.status);
                    if let Some(d) = e.date {
                        builder = builder.header(http::header::DATE, d);
                    }
                    if let Some(t) = e.content_type {
                        builder = builder.header(http::header::CONTENT_TYPE, t);
                    }
                    e.body
                }
                None => {
                    builder = builder
                        .status(404)
                        .header(http::header::CONTENT_TYPE, "application/json");
                    serde_json::json!({"kind": "Status", "apiVersion": "v1", "status": "Failure",
                        "reason": "NotFound", "code": 404,
                        "message": format!("{} {} was not asked when the lab was collected", key.0, key.1)})
                    .to_string()
                }
            };
            builder
                .body(Body::from(body.into_bytes()))
                .map_err(|e| Box::new(e) as BoxError)
        })
    }
}
