//! The watch loop against a scripted API server: a list, a watch that ends by itself and is
//! resumed, a 410 that re-lists, a refused connection that is said once and re-lists.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use futures::future::BoxFuture;
use http::{Request, Response};
use kube::client::Body;

use super::*;
use crate::cluster::problem::Unreachable;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

enum Reply {
    /// 200 with this body.
    Body(String),
    /// No answer: the connection was refused.
    Refused,
}

/// Answers each request with the next reply of the script (and never once it is used up).
#[derive(Clone)]
struct Scripted {
    script: Arc<Mutex<VecDeque<Reply>>>,
    asked: Arc<Mutex<Vec<String>>>,
}

impl tower_service::Service<Request<Body>> for Scripted {
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<Response<Body>, BoxError>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<Body>) -> Self::Future {
        let uri = req.uri().to_string();
        let watch = if uri.contains("watch=true") {
            "watch"
        } else {
            "list"
        };
        let rv = uri
            .split(['?', '&'])
            .find_map(|kv| kv.strip_prefix("resourceVersion="))
            .unwrap_or("-")
            .to_string();
        self.asked.lock().unwrap().push(format!("{watch} {rv}"));
        let reply = self.script.lock().unwrap().pop_front();
        Box::pin(async move {
            match reply {
                Some(Reply::Body(text)) => Ok(Response::new(Body::from(text.into_bytes()))),
                Some(Reply::Refused) => Err(Box::new(Unreachable {
                    server: "https://127.0.0.1:1".into(),
                    why: crate::cluster::problem::Why::Refused,
                }) as BoxError),
                None => std::future::pending().await,
            }
        })
    }
}

fn list(rv: u32, names: &[&str]) -> Reply {
    let items: Vec<String> = names
        .iter()
        .map(|n| {
            format!(r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{n}","namespace":"lab","resourceVersion":"{rv}"}}}}"#)
        })
        .collect();
    Reply::Body(format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMapList","metadata":{{"resourceVersion":"{rv}"}},"items":[{}]}}"#,
        items.join(",")
    ))
}

fn added(rv: u32, name: &str) -> String {
    format!(
        r#"{{"type":"ADDED","object":{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{name}","namespace":"lab","resourceVersion":"{rv}"}}}}}}"#
    ) + "\n"
}

const GONE: &str = r#"{"type":"ERROR","object":{"apiVersion":"v1","kind":"Status","status":"Failure","message":"too old resource version: 6 (8)","reason":"Expired","code":410}}"#;

fn said(change: &Change) -> String {
    let names = |items: &[DynamicObject]| {
        items
            .iter()
            .map(|o| o.name_any())
            .collect::<Vec<_>>()
            .join(",")
    };
    match change {
        Change::Listed(items) => format!("listed [{}]", names(items)),
        Change::Applied(o) => format!("applied {}", o.name_any()),
        Change::Deleted(o) => format!("deleted {}", o.name_any()),
        Change::Lost(p) => format!("lost ({}): {p}", p.unreachable()),
        Change::Expired => "expired".into(),
    }
}

#[tokio::test]
async fn lists_resumes_after_a_timeout_relists_after_410_and_after_a_lost_connection() {
    let script = VecDeque::from([
        list(5, &["a"]),
        // Ends by itself after one event: resumed from 6, saying nothing.
        Reply::Body(added(6, "b")),
        Reply::Body(format!("{GONE}\n")),
        list(9, &["b"]),
        Reply::Refused,
        // Refused again while retrying: not said twice.
        Reply::Refused,
        list(10, &[]),
    ]);
    let service = Scripted {
        script: Arc::new(Mutex::new(script)),
        asked: Arc::default(),
    };
    let asked = service.asked.clone();
    let client = kube::Client::new(service, "default");
    let api = crate::cluster::watch::api(&client, "lab", crate::cluster::Kind::ConfigMap);
    let mut seen = Vec::new();
    let run = follow(api, None, None, |c| {
        seen.push(said(&c));
        seen.len() < 6
    });
    tokio::time::timeout(std::time::Duration::from_secs(10), run)
        .await
        .expect("the script plays out");
    assert_eq!(
        seen,
        [
            "listed [a]",
            "applied b",
            "expired",
            "listed [b]",
            "lost (true): cannot reach https://127.0.0.1:1: connection refused",
            "listed []",
        ]
    );
    assert_eq!(
        *asked.lock().unwrap(),
        [
            "list -", "watch 5", "watch 6", "list -", "watch 9", "list -", "list -"
        ]
    );
}
