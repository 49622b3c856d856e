//! `metrics.k8s.io/v1beta1`, as k3s's metrics-server serves it (docs/sim-behaviour.md §15.9):
//! NodeMetrics and PodMetrics computed on every read, `get` and `list` only, so that
//! `kubectl top node` and `kubectl top pod` work. The figures are simulated: small, stable
//! per container (derived from the Pod's uid), the node's being the system's share plus its
//! Pods'. A Pod has metrics once it has run for a scrape interval.

use axum::http::{Method, StatusCode};
use axum::response::Response;
use jiff::Timestamp;
use serde_json::{Value, json};

use super::ctx::Ctx;
use crate::clock::rfc3339;
use crate::controllers::node::NODE_NAME;
use crate::objects;
use crate::status::{ApiError, ApiResult};
use crate::store::Key;

/// metrics-server scrapes the kubelet every 15 s; a sample covers that window.
const SCRAPE_SECS: i64 = 15;
/// What k3s itself (server, containerd, flannel, ...) uses on an idle node.
const SYSTEM_CPU_NANOS: u64 = 95_000_000;
const SYSTEM_MEMORY_KI: u64 = 1_126_400;

pub fn serve(ctx: &Ctx, method: &Method) -> ApiResult<Response> {
    let ty = ctx.rp.ty;
    if *method != Method::GET {
        return Err(ApiError::method_not_allowed(
            method.as_str(),
            &crate::status::qualified(ty),
        ));
    }
    let now = ctx.st.store.clock.now();
    let all = if ty.kind == "NodeMetrics" {
        node_metrics(ctx, now).into_iter().collect::<Vec<_>>()
    } else {
        pod_metrics(ctx, now)
    };
    let body = match &ctx.rp.name {
        Some(name) => all
            .into_iter()
            .find(|m| objects::name(m) == name)
            .ok_or_else(|| ApiError::not_found(ty, name))?,
        None => {
            let items: Vec<Value> = all
                .into_iter()
                .filter(|m| ctx.query.labels.matches(m) && ctx.query.fields.matches(m))
                .collect();
            json!({"kind": format!("{}List", ty.kind), "apiVersion": ty.api_version(),
                   "metadata": {}, "items": items})
        }
    };
    Ok(super::negotiate::reply(
        ctx.output.encoding,
        StatusCode::OK,
        &body,
    ))
}

/// The start of the last completed scrape.
fn scraped_at(now: Timestamp) -> Timestamp {
    let secs = now.as_second();
    Timestamp::from_second(secs - secs.rem_euclid(SCRAPE_SECS)).unwrap_or(now)
}

/// Running Pods that have been up for a whole scrape interval, in the asked namespace.
fn measured_pods(ctx: &Ctx, now: Timestamp) -> Vec<std::sync::Arc<Value>> {
    let pod_ty = &crate::kinds::POD;
    ctx.st
        .store
        .list(pod_ty, ctx.rp.namespace.as_deref())
        .0
        .into_iter()
        .filter(|p| p["status"]["phase"] == "Running")
        .filter(|p| {
            p["status"]["startTime"]
                .as_str()
                .and_then(crate::clock::parse)
                .is_some_and(|t| now.as_second() - t.as_second() >= SCRAPE_SECS)
        })
        .collect()
}

/// A container's usage (the one model `kubectl top` and the HPA controller read).
fn container_usage(pod: &Value, container: &str) -> (u64, u64) {
    crate::usage::container(pod, container)
}

fn pod_metrics(ctx: &Ctx, now: Timestamp) -> Vec<Value> {
    let at = scraped_at(now);
    measured_pods(ctx, now)
        .iter()
        .map(|pod| {
            let containers: Vec<Value> = pod["spec"]["containers"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["name"].as_str())
                .map(|name| {
                    let (cpu, mem) = container_usage(pod, name);
                    json!({"name": name, "usage": {"cpu": format!("{cpu}n"), "memory": format!("{mem}Ki")}})
                })
                .collect();
            let mut meta = json!({"name": objects::name(pod), "namespace": objects::namespace(pod),
                                  "creationTimestamp": rfc3339(now)});
            if let Some(labels) = objects::labels(pod) {
                meta["labels"] = json!(labels);
            }
            json!({"kind": "PodMetrics", "apiVersion": "metrics.k8s.io/v1beta1", "metadata": meta,
                   "timestamp": rfc3339(at), "window": format!("{SCRAPE_SECS}s"), "containers": containers})
        })
        .collect()
}

fn node_metrics(ctx: &Ctx, now: Timestamp) -> Option<Value> {
    let node = ctx
        .st
        .store
        .get(&Key::new(&crate::kinds::NODE, "", NODE_NAME))?;
    let pod_ty = &crate::kinds::POD;
    let (mut cpu, mut memory) = (SYSTEM_CPU_NANOS, SYSTEM_MEMORY_KI);
    for pod in ctx.st.store.list(pod_ty, None).0 {
        if pod["status"]["phase"] != "Running" {
            continue;
        }
        for c in pod["spec"]["containers"].as_array().into_iter().flatten() {
            let (c_cpu, c_mem) = container_usage(&pod, c["name"].as_str().unwrap_or_default());
            cpu += c_cpu;
            memory += c_mem;
        }
    }
    let mut meta = json!({"name": NODE_NAME, "creationTimestamp": rfc3339(now)});
    if let Some(labels) = objects::labels(&node) {
        meta["labels"] = json!(labels);
    }
    Some(
        json!({"kind": "NodeMetrics", "apiVersion": "metrics.k8s.io/v1beta1", "metadata": meta,
                "timestamp": rfc3339(scraped_at(now)), "window": format!("{SCRAPE_SECS}s"),
                "usage": {"cpu": format!("{cpu}n"), "memory": format!("{memory}Ki")}}),
    )
}
