//! WATCH: newline-delimited events streamed from the store. Honours `resourceVersion` (replay,
//! or 410 Expired when history is gone), `sendInitialEvents` with the
//! `k8s.io/initial-events-end` bookmark (kubectl 1.35's WatchList), periodic BOOKMARKs,
//! `timeoutSeconds`, and selectors — an object that stops matching is sent as DELETED, one that
//! starts matching as ADDED, as a real watch cache does.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};

use super::ApiState;
use super::negotiate::{Encoding, Form, Output};
use super::path::ResourcePath;
use super::request::Query;
use super::resource::metadata_only;
use crate::kinds::ResourceType;
use crate::status::{ApiError, ApiResult};
use crate::store::{Event, EventType};
use crate::table;

/// How often a watch that allows bookmarks gets one (the cacher's `defaultBookmarkFrequency`);
/// it also gets one 2 s before its timeout (`nextBookmarkTime`), so a client resumes from the
/// newest version rather than an old one.
const BOOKMARK_INTERVAL: Duration = Duration::from_secs(60);
const BOOKMARK_BEFORE_TIMEOUT: Duration = Duration::from_secs(2);
/// A watch with no `timeoutSeconds` ends after this long, as the real server's default does.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(1800);

/// What a watch stream needs to decide and encode each event.
struct Filter {
    ty: &'static ResourceType,
    namespace: Option<String>,
    query: Query,
    form: Form,
    encoding: Encoding,
}

pub async fn serve(
    st: &Arc<ApiState>,
    rp: &ResourcePath,
    query: &Query,
    output: Output,
) -> ApiResult<Response> {
    let errors = query.list_option_errors();
    if !errors.is_empty() {
        return Err(ApiError::invalid_list_options(&errors));
    }
    let fields = query
        .fields
        .for_type(rp.ty)
        .map_err(ApiError::bad_request)?;
    let from = match query.resource_version.as_deref() {
        None | Some("0") => None,
        Some(rv) => Some(rv.parse::<u64>().map_err(|_| {
            ApiError::bad_request(format!(
                "resourceVersion: Invalid value: {rv:?}: must be a number"
            ))
        })?),
    };
    let from = if query.send_initial_events {
        None
    } else {
        from
    };
    let start = match st.store.watch(rp.ty, rp.namespace.as_deref(), from) {
        Ok(start) => start,
        // As a real server does: the watch opens, says why it cannot go on, and ends.
        Err(e) => {
            let status = ApiError::gone(format!(
                "too old resource version: {} ({})",
                from.unwrap_or(0),
                e.oldest.saturating_sub(1)
            ))
            .to_status();
            let frame = event_bytes(output.encoding, "ERROR", &status);
            return Ok((
                StatusCode::OK,
                [(header::CONTENT_TYPE, stream_media_type(output.encoding))],
                frame,
            )
                .into_response());
        }
    };
    let filter = Filter {
        ty: rp.ty,
        namespace: rp.namespace.clone(),
        query: Query {
            labels: query.labels.clone(),
            fields,
            bookmarks: query.bookmarks,
            send_initial_events: query.send_initial_events,
            ..Query::default()
        },
        form: output.form,
        encoding: output.encoding,
    };
    let timeout = query
        .timeout_seconds
        .map(Duration::from_secs)
        .unwrap_or(DEFAULT_TIMEOUT);
    let (tx, rx) = mpsc::channel::<Result<Vec<u8>, std::io::Error>>(256);
    let store = st.store.clone();
    tokio::spawn(async move {
        let mut stream = Stream {
            filter,
            tx,
            last_rv: start.rv,
            first: true,
            now: store.clock.clone(),
        };
        if stream
            .send_initial(&start.current, &start.replay)
            .await
            .is_err()
        {
            return;
        }
        stream.follow(start.live, timeout).await;
    });
    let body = Body::from_stream(tokio_stream::wrappers::ReceiverStream::new(rx));
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, stream_media_type(output.encoding))],
        body,
    )
        .into_response())
}

fn stream_media_type(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::Json => "application/json",
        Encoding::Protobuf => crate::proto::STREAM_MEDIA_TYPE,
    }
}

/// One event on the wire: a JSON line, or a length-prefixed protobuf `WatchEvent`. An object
/// that cannot be written in protobuf becomes an ERROR event saying why.
fn event_bytes(encoding: Encoding, kind: &str, object: &Value) -> Vec<u8> {
    if encoding == Encoding::Protobuf {
        return crate::proto::watch_frame(kind, object).unwrap_or_else(|e| {
            let status = ApiError::internal(format!("unable to encode a watch event: {e}"));
            crate::proto::watch_frame("ERROR", &status.to_status()).unwrap_or_default()
        });
    }
    let mut line = serde_json::to_vec(&json!({"type": kind, "object": object})).unwrap_or_default();
    line.push(b'\n');
    line
}

/// Sleeps until `at`, or for ever when there is no next bookmark.
async fn sleep_until_some(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

struct Stream {
    filter: Filter,
    tx: mpsc::Sender<Result<Vec<u8>, std::io::Error>>,
    last_rv: u64,
    first: bool,
    now: crate::clock::Clock,
}

/// The client went away.
struct Gone;

impl Stream {
    async fn send_initial(
        &mut self,
        current: &[Arc<Value>],
        replay: &[Arc<Event>],
    ) -> Result<(), Gone> {
        for obj in current {
            if self.filter.static_match(obj) && self.filter.selected(obj) {
                self.send(EventType::Added.as_str(), obj).await?;
            }
        }
        for event in replay {
            self.forward(event).await?;
        }
        if self.filter.query.send_initial_events {
            self.bookmark(true).await?;
        }
        Ok(())
    }

    async fn follow(&mut self, mut live: broadcast::Receiver<Arc<Event>>, timeout: Duration) {
        let end = tokio::time::Instant::now() + timeout;
        // Every minute, and last 2 s before the end; none after that.
        let next_bookmark = |now: tokio::time::Instant| {
            let before_end = end.checked_sub(BOOKMARK_BEFORE_TIMEOUT)?;
            (before_end > now).then(|| before_end.min(now + BOOKMARK_INTERVAL))
        };
        let mut bookmark_at = next_bookmark(tokio::time::Instant::now());
        loop {
            let step = tokio::select! {
                _ = tokio::time::sleep_until(end) => return,
                _ = self.tx.closed() => return,
                _ = sleep_until_some(bookmark_at) => {
                    bookmark_at = next_bookmark(tokio::time::Instant::now());
                    if self.filter.query.bookmarks { self.bookmark(false).await } else { Ok(()) }
                }
                event = live.recv() => match event {
                    Ok(event) if event.rv > self.last_rv => self.forward(&event).await,
                    Ok(_) => Ok(()),
                    // Too slow to keep up, or the server is stopping: end the stream; the
                    // client resumes from the last resourceVersion it saw.
                    Err(_) => return,
                },
            };
            if step.is_err() {
                return;
            }
        }
    }

    async fn forward(&mut self, event: &Event) -> Result<(), Gone> {
        self.last_rv = self.last_rv.max(event.rv);
        if !self.filter.in_scope(event) {
            return Ok(());
        }
        let now_matches = self.filter.selected(&event.object);
        let was_matching = event
            .previous
            .as_deref()
            .is_some_and(|p| self.filter.selected(p));
        let kind = match (event.kind, was_matching, now_matches) {
            (EventType::Deleted, true, _) => EventType::Deleted,
            (EventType::Deleted, false, _) => return Ok(()),
            (_, false, true) => EventType::Added,
            (EventType::Modified, true, true) => EventType::Modified,
            (EventType::Modified, true, false) => {
                // The cacher's DELETED for an object that stopped matching carries the object
                // as it last matched, at the event's resourceVersion.
                if let Some(previous) = event.previous.as_deref() {
                    let mut last = previous.clone();
                    last["metadata"]["resourceVersion"] = json!(event.rv.to_string());
                    return self.send(EventType::Deleted.as_str(), &last).await;
                }
                EventType::Deleted
            }
            _ => return Ok(()),
        };
        self.send(kind.as_str(), &event.object).await
    }

    async fn bookmark(&mut self, initial_events_end: bool) -> Result<(), Gone> {
        let ty = self.filter.ty;
        let mut obj = json!({"kind": ty.kind, "apiVersion": ty.api_version(), "metadata": {"resourceVersion": self.last_rv.to_string()}});
        if initial_events_end {
            obj["metadata"]["annotations"] = json!({"k8s.io/initial-events-end": "true"});
        }
        // A metadata-only watch gets its bookmarks in the same form as its objects (which is
        // also what lets them be written in protobuf for a custom resource).
        if self.filter.form == Form::Metadata {
            obj = metadata_only(&obj);
        }
        self.write("BOOKMARK", &obj).await
    }

    async fn send(&mut self, kind: &str, obj: &Value) -> Result<(), Gone> {
        // A Table is printed from the stored form (one printer for every version of a kind).
        let ty = self.filter.ty.storage();
        let object = match self.filter.form {
            Form::Object => crate::views::to_view(self.filter.ty, obj),
            Form::Metadata => metadata_only(obj),
            Form::Table => {
                let rv = obj["metadata"]["resourceVersion"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                // Column definitions go with the first event only, as the real server sends them.
                table::table_of(ty, &[obj], &rv, self.first, self.now.now())
            }
        };
        self.first = false;
        self.write(kind, &object).await
    }

    async fn write(&mut self, kind: &str, object: &Value) -> Result<(), Gone> {
        let bytes = event_bytes(self.filter.encoding, kind, object);
        self.tx.send(Ok(bytes)).await.map_err(|_| Gone)
    }
}

impl Filter {
    /// Same type and namespace (fixed for the life of the object).
    fn in_scope(&self, event: &Event) -> bool {
        std::ptr::eq(event.key.ty(), self.ty.storage()) && self.static_match(&event.object)
    }

    fn static_match(&self, obj: &Value) -> bool {
        self.namespace
            .as_deref()
            .is_none_or(|ns| obj["metadata"]["namespace"].as_str() == Some(ns))
    }

    /// Labels match the object as this version shows it, fields the kind's selectable
    /// fields of the stored object.
    fn selected(&self, obj: &Value) -> bool {
        if self.ty.view_of.is_some() {
            let seen = crate::views::to_view(self.ty, obj);
            return self.query.labels.matches(&seen) && self.query.fields.matches(obj);
        }
        self.query.labels.matches(obj) && self.query.fields.matches(obj)
    }
}
