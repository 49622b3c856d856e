//! The embedded cluster's HTTP front: authentication, body limits, content negotiation, and
//! dispatch to discovery, OpenAPI, resources, watches and logs. Every failure is answered with
//! a `Status` object; nothing a client sends can panic the server or stall other clients.

mod auth;
mod components;
mod ctx;
mod discovery;
mod eviction;
mod health;
mod logs;
mod metrics;
mod negotiate;
mod openapi;
mod paging;
mod path;
mod prometheus;
mod rbac;
mod request;
mod resource;
mod reviews;
pub mod selector;
mod token;
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
    /// Every request by what it was and how it ended, for `/metrics`.
    pub totals: prometheus::RequestTotals,
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
    /// How long a request body may take to arrive (see `connections`).
    pub body_timeout: std::time::Duration,
}

pub fn router(state: Arc<ApiState>) -> Router {
    Router::new().fallback(handle).with_state(state)
}

async fn handle(State(st): State<Arc<ApiState>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let route = path::parse(parts.uri.path(), &st.store.kinds);
    let public = matches!(route, Route::Health { .. } | Route::Version);
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
    let watching = query.watch;
    let is_apply = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/apply-patch"));
    let labels = prometheus::labels(&route, &parts.method, &query, is_apply);
    let mut response = match dispatch(&st, route, &parts, body, query).await {
        Ok(r) => r,
        Err(e) => error_in(error_encoding, &e),
    };
    st.counts.totals.record(labels, response.status().as_u16());
    // A watch is a stream of JSON lines, never indented.
    if !watching && pretty(&parts) {
        response = indented(response).await;
    }
    // The Date header carries the cluster's (possibly sped-up) clock, so clients can read it.
    if let Ok(v) = HeaderValue::from_str(&date) {
        response.headers_mut().insert(header::DATE, v);
    }
    // `WithCacheControl`: nothing is cached. Without it kubectl's disk cache would keep a
    // discovery answer whose Date is ahead of the wall clock (a sped-up cluster) as fresh, and
    // never see a CRD's new group.
    response
        .headers_mut()
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-cache, private"));
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
    let kinds = &st.store.kinds;
    match route {
        Route::Health { endpoint, check } => Ok(health::serve(
            &endpoint,
            check.as_deref(),
            parts.uri.query(),
        )),
        // `WriteRawJSON`: indented, as `kubectl get --raw /version` shows it.
        Route::Version => raw_get(
            parts,
            "/version",
            "application/json",
            serde_json::to_string_pretty(&discovery::version(&st.git_version)).unwrap_or_default(),
        ),
        Route::CoreVersions => only_get(Some(discovery::core_versions(&st.address)), "/api"),
        Route::Groups => only_get(Some(discovery::groups(kinds)), "/apis"),
        Route::Group(g) => only_get(discovery::group(kinds, &g), "an API group"),
        Route::GroupVersion { group, version } => only_get(
            discovery::resource_list(kinds, &group, &version),
            "an API group version",
        ),
        Route::OpenApiV3Index => only_get(Some(openapi::index(kinds)), "/openapi/v3"),
        Route::OpenApiV3 { group, version } => match openapi::document(kinds, &group, &version) {
            Some(doc) => only_get(Some(doc), "an OpenAPI document"),
            // The OpenAPI v3 handler answers a group-version it does not have with an empty 404.
            None => Ok(StatusCode::NOT_FOUND.into_response()),
        },
        Route::OpenApiV2 => openapi_v2(parts, &st.git_version, kinds),
        Route::Metrics => raw_get(
            parts,
            "/metrics",
            "text/plain; version=0.0.4; charset=utf-8",
            st.counts.totals.render(),
        ),
        Route::Unknown => Err(ApiError::path_not_found(parts.uri.path())),
        Route::UnservedGroupVersion => Ok((
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "404 page not found\n",
        )
            .into_response()),
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
                if rp.ty.create_only {
                    return Err(auth::method_not_allowed());
                }
                if rp.ty.computed {
                    return Err(ApiError::method_not_allowed(
                        "watch",
                        &status::qualified(rp.ty),
                    ));
                }
                return watch::serve(st, &rp, &query, output).await;
            }
            let body = request::read_body(body, &parts.headers, st.body_timeout).await?;
            let ctx = ctx::Ctx {
                st,
                rp: &rp,
                query: &query,
                output,
                content_type,
                manager_default: &manager_default,
                impersonating: impersonated(&parts.headers),
                warnings: Default::default(),
            };
            resource::serve(&ctx, &parts.method, &body)
        }
    }
}

/// A raw endpoint's text, for GET only.
fn raw_get(
    parts: &axum::http::request::Parts,
    what: &str,
    content_type: &'static str,
    text: String,
) -> Result<Response, ApiError> {
    if parts.method != Method::GET {
        return Err(ApiError::method_not_allowed(parts.method.as_str(), what));
    }
    Ok((StatusCode::OK, [(header::CONTENT_TYPE, content_type)], text).into_response())
}

/// `isPrettyPrint`: `?pretty=true`, or a browser's or command-line tool's user agent (curl,
/// Wget), gets indented JSON.
fn pretty(parts: &axum::http::request::Parts) -> bool {
    let asked = parts.uri.query().and_then(|q| {
        request::form_pairs(q)
            .into_iter()
            .find(|(k, v)| k == "pretty" && !v.is_empty())
            .map(|(_, v)| matches!(v.as_str(), "1" | "t" | "T" | "true" | "True" | "TRUE"))
    });
    if let Some(asked) = asked {
        return asked;
    }
    let agent = parts
        .headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    ["curl", "Wget", "Mozilla/5.0"]
        .iter()
        .any(|p| agent.starts_with(p))
}

/// A JSON response re-written as Go's `json.MarshalIndent` writes it (two spaces, no newline
/// at the end); streams and other media types are left as they are.
async fn indented(response: Response) -> Response {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t == "application/json");
    if !is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let text = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|v| serde_json::to_vec_pretty(&v).ok())
        .unwrap_or_else(|| bytes.to_vec());
    let mut parts = parts;
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(text))
}

fn accept_header(headers: &axum::http::HeaderMap) -> &str {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// The user named by `Impersonate-User` (and its `Impersonate-Group`s), as `kubectl --as`
/// sends them; the cluster's admin may impersonate anyone.
fn impersonated(headers: &axum::http::HeaderMap) -> Option<rbac::User> {
    let user = headers.get("impersonate-user")?.to_str().ok()?;
    let groups: Vec<String> = headers
        .get_all("impersonate-group")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(String::from)
        .collect();
    Some(rbac::User::impersonated(user, &groups))
}

fn authorized(token: &str, headers: &axum::http::HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    // Constant-time compare: the token is the only thing guarding the cluster.
    let Some(given) = value.strip_prefix("Bearer ") else {
        return false;
    };
    let (given, want) = (given.as_bytes(), token.as_bytes());
    // An empty token would match an empty header; it never lets anyone in.
    !want.is_empty()
        && given.len() == want.len()
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

/// `/openapi/v2` in gnostic's protobuf when client-go asks for it, else JSON.
fn openapi_v2(
    parts: &axum::http::request::Parts,
    git_version: &str,
    kinds: &crate::kinds::Catalog,
) -> Result<Response, ApiError> {
    use openapi::v2;
    if parts.method != Method::GET {
        return Err(ApiError::method_not_allowed(
            parts.method.as_str(),
            "/openapi/v2",
        ));
    }
    if accept_header(&parts.headers).contains(v2::PROTOBUF_ACCEPT) {
        let body = v2::protobuf_document(git_version, kinds);
        return Ok((
            StatusCode::OK,
            [(header::CONTENT_TYPE, v2::PROTOBUF_CONTENT_TYPE)],
            body,
        )
            .into_response());
    }
    Ok(json(StatusCode::OK, &v2::json_document(git_version, kinds)))
}
