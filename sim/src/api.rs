//! The embedded cluster's HTTP front: authentication, body limits, content negotiation, and
//! dispatch to discovery, OpenAPI, resources, watches and logs. Every failure is answered with
//! a `Status` object; nothing a client sends can panic the server or stall other clients.

mod ctx;
mod discovery;
mod logs;
mod metrics;
mod negotiate;
mod openapi;
mod path;
mod request;
mod resource;
pub mod selector;
mod watch;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::logs::LogBook;
use super::status::{self, ApiError};
use super::store::Store;
pub use discovery::k3s_version;
use negotiate::Encoding;
use path::Route;
pub use request::MAX_BODY_BYTES;
use request::Query;

/// How many requests of each kind the server has answered (for benchmarks: a watching client
/// in steady state should make no LISTs).
#[derive(Default, Debug)]
pub struct RequestCounts {
    /// LIST requests (a GET of a collection).
    pub lists: std::sync::atomic::AtomicU64,
    /// WATCH requests.
    pub watches: std::sync::atomic::AtomicU64,
    /// GETs of one object.
    pub gets: std::sync::atomic::AtomicU64,
    /// Creates, updates, patches and deletes.
    pub writes: std::sync::atomic::AtomicU64,
}

impl RequestCounts {
    /// (lists, watches, gets, writes) so far.
    pub fn snapshot(&self) -> (u64, u64, u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (
            self.lists.load(Relaxed),
            self.watches.load(Relaxed),
            self.gets.load(Relaxed),
            self.writes.load(Relaxed),
        )
    }
}

/// What every request handler can reach.
pub struct ApiState {
    pub counts: Arc<RequestCounts>,
    pub store: Arc<Store>,
    pub logs: Arc<LogBook>,
    /// The bearer token clients must send.
    pub token: String,
    /// The Kubernetes version reported by `/version` (that of the kubectl in `.tools`).
    pub git_version: String,
    /// `127.0.0.1:port`, for `/api`'s serverAddressByClientCIDRs.
    pub address: String,
}

pub fn router(state: Arc<ApiState>) -> Router {
    Router::new().fallback(handle).with_state(state)
}

async fn handle(State(st): State<Arc<ApiState>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let route = path::parse(parts.uri.path());
    let public = matches!(route, Route::Health | Route::Version);
    if !public && !authorized(&st.token, &parts.headers) {
        return error(&ApiError::unauthorized());
    }
    let query = match Query::parse(parts.uri.query()) {
        Ok(q) => q,
        Err(e) => return error(&e),
    };
    let date = st
        .store
        .clock
        .now()
        .strftime("%a, %d %b %Y %H:%M:%S GMT")
        .to_string();
    // Errors on a resource are written as its responses would be (a protobuf Status for a
    // client that asked for protobuf), as the real server does.
    let error_encoding = match &route {
        Route::Resource(rp) => negotiate::output(accept_header(&parts.headers), rp.ty.builtin)
            .map_or(Encoding::Json, |o| o.encoding),
        _ => Encoding::Json,
    };
    // Since 1.33 every request for core/v1 Endpoints is answered with a deprecation warning.
    let deprecated = matches!(&route, Route::Resource(rp) if rp.ty.kind == "Endpoints");
    let mut response = match dispatch(&st, route, &parts, body, query).await {
        Ok(r) => r,
        Err(e) => error_in(error_encoding, &e),
    };
    // The Date header carries the cluster's (possibly sped-up) clock, so clients can read it.
    if let Ok(v) = HeaderValue::from_str(&date) {
        response.headers_mut().insert(header::DATE, v);
    }
    if deprecated {
        response.headers_mut().append(
            header::WARNING,
            HeaderValue::from_static(
                "299 - \"v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\"",
            ),
        );
    }
    response
}

async fn dispatch(
    st: &Arc<ApiState>,
    route: Route,
    parts: &axum::http::request::Parts,
    body: Body,
    query: Query,
) -> Result<Response, ApiError> {
    let only_get = |v: Option<Value>, what: &str| -> Result<Response, ApiError> {
        if parts.method != Method::GET {
            return Err(ApiError::method_not_allowed(parts.method.as_str(), what));
        }
        v.map(|v| json(StatusCode::OK, &v))
            .ok_or_else(|| ApiError::path_not_found(parts.uri.path()))
    };
    match route {
        Route::Health => Ok((StatusCode::OK, "ok").into_response()),
        Route::Version => only_get(Some(discovery::version(&st.git_version)), "/version"),
        Route::CoreVersions => only_get(Some(discovery::core_versions(&st.address)), "/api"),
        Route::Groups => only_get(Some(discovery::groups()), "/apis"),
        Route::Group(g) => only_get(discovery::group(&g), "an API group"),
        Route::GroupVersion { group, version } => only_get(
            discovery::resource_list(&group, &version),
            "an API group version",
        ),
        Route::OpenApiV3Index => only_get(Some(openapi::index()), "/openapi/v3"),
        Route::OpenApiV3 { group, version } => {
            only_get(openapi::document(&group, &version), "an OpenAPI document")
        }
        Route::OpenApiV2 => Err(ApiError::path_not_found(parts.uri.path())),
        Route::Unknown => Err(ApiError::path_not_found(parts.uri.path())),
        Route::Resource(rp) => {
            use std::sync::atomic::Ordering::Relaxed;
            let counter = match (&parts.method, query.watch, rp.name.is_some()) {
                (&Method::GET, true, _) => &st.counts.watches,
                (&Method::GET, false, false) => &st.counts.lists,
                (&Method::GET, false, true) => &st.counts.gets,
                _ => &st.counts.writes,
            };
            counter.fetch_add(1, Relaxed);
            if rp.subresource.as_deref() == Some("log") && rp.ty.log_subresource {
                return logs::serve(st, &rp, &parts.method, &query, parts.uri.query()).await;
            }
            let output = negotiate::output(accept_header(&parts.headers), rp.ty.builtin)?;
            let content_type = parts
                .headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            let manager_default = user_agent_manager(&parts.headers);
            if parts.method == Method::GET && query.watch {
                if rp.ty.computed {
                    return Err(ApiError::method_not_allowed(
                        "watch",
                        &status::qualified(rp.ty),
                    ));
                }
                return watch::serve(st, &rp, &query, output).await;
            }
            let body = request::read_body(body, &parts.headers).await?;
            let ctx = ctx::Ctx {
                st,
                rp: &rp,
                query: &query,
                output,
                content_type,
                manager_default: &manager_default,
                warnings: Default::default(),
            };
            resource::serve(&ctx, &parts.method, &body)
        }
    }
}

fn accept_header(headers: &axum::http::HeaderMap) -> &str {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

fn authorized(token: &str, headers: &axum::http::HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    // Constant-time compare: the token is the only thing guarding the cluster.
    let given = value.strip_prefix("Bearer ").unwrap_or_default().as_bytes();
    let want = token.as_bytes();
    given.len() == want.len()
        && given
            .iter()
            .zip(want)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// With no `fieldManager`, the manager is the User-Agent's text before the first `/`
/// (`kubectl/v1.35.2 (linux/amd64) ...` → `kubectl`), as the real API server does.
fn user_agent_manager(headers: &axum::http::HeaderMap) -> String {
    let ua = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("unknown");
    let manager = ua.split('/').next().unwrap_or(ua).trim();
    if manager.is_empty() {
        "unknown".to_string()
    } else {
        manager.chars().take(128).collect()
    }
}

pub(crate) fn json(status: StatusCode, body: &Value) -> Response {
    let bytes = serde_json::to_vec(body).unwrap_or_default();
    (status, [(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

fn error(e: &ApiError) -> Response {
    error_in(Encoding::Json, e)
}

pub(crate) fn error_in(encoding: Encoding, e: &ApiError) -> Response {
    let status = StatusCode::from_u16(e.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    negotiate::reply(encoding, status, &e.to_status())
}
