//! One collection kept in step with the cluster: list it, then watch from the list's
//! resourceVersion, and say exactly what happened, so whoever listens can tell live data from
//! stale data.
//!
//! - A list is the whole truth: what is not in it is gone (objects deleted while the cluster was
//!   away disappear).
//! - A watch that ends by itself (its timeout) is resumed from the last resourceVersion: nothing
//!   was lost, nothing is said.
//! - A watch answered with 410 Gone (the server's history no longer reaches back) re-lists.
//! - After any other error the collection is re-listed, not resumed: a watch that opens can still
//!   answer 410 in its first line, so only a list proves the picture complete again. kube's own
//!   watcher resumes silently, which is why it cannot say when a stream is live again.
//! - Retries back off from 250 ms to 2 s (so a cluster that comes back is seen within seconds),
//!   and start at once when the kubeconfig changes.

use std::time::{Duration, Instant};

use futures::StreamExt;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, ListParams, WatchEvent as ApiEvent, WatchParams};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use crate::cluster::problem::{Problem, describe};

/// How long one watch request lasts before it is resumed (the server's default is longer; kube's
/// watcher uses the same, below the client's 295 s read timeout).
const WATCH_SECONDS: u32 = 290;
const FIRST_RETRY: Duration = Duration::from_millis(250);
const LAST_RETRY: Duration = Duration::from_secs(2);
/// A watch that ends this soon without a single event is retried after a pause, not at once.
const TOO_SOON: Duration = Duration::from_secs(1);

/// What happened to a watched collection.
#[derive(Debug)]
pub enum Change {
    /// Everything the collection holds now; what is not in it is gone.
    Listed(Vec<DynamicObject>),
    Applied(DynamicObject),
    Deleted(DynamicObject),
    /// No answer, or an answer that says no; the next try re-lists.
    Lost(Problem),
    /// The server's history no longer reaches back to what was seen (410 Gone): re-listing.
    Expired,
}

/// Retry pauses, cut short when the kubeconfig changes.
struct Backoff {
    next: Duration,
}

impl Backoff {
    fn new() -> Backoff {
        Backoff { next: FIRST_RETRY }
    }

    fn reset(&mut self) {
        self.next = FIRST_RETRY;
    }

    async fn wait(&mut self, nudge: &mut Option<watch::Receiver<u64>>) {
        let pause = self.next;
        self.next = (pause * 2).min(LAST_RETRY);
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = changed(nudge) => {}
        }
    }
}

/// Resolves when the kubeconfig changed; never when there is nothing to follow.
async fn changed(nudge: &mut Option<watch::Receiver<u64>>) {
    match nudge {
        Some(rx) => {
            if rx.changed().await.is_err() {
                *nudge = None;
                std::future::pending::<()>().await;
            }
        }
        None => std::future::pending::<()>().await,
    }
}

/// Keeps `api` (narrowed by the field `selector`) in step, telling `emit` each change, until
/// `emit` returns false.
pub async fn follow(
    api: Api<DynamicObject>,
    selector: Option<String>,
    mut nudge: Option<watch::Receiver<u64>>,
    emit: impl FnMut(Change) -> bool + Send,
) {
    let mut emit = said_once(emit);
    let mut backoff = Backoff::new();
    let mut version: Option<String> = None;
    loop {
        let Some(from) = version.clone() else {
            let params = ListParams {
                field_selector: selector.clone(),
                ..ListParams::default()
            };
            match api.list(&params).await {
                Ok(list) => {
                    version = list.metadata.resource_version.filter(|v| !v.is_empty());
                    if !emit(Change::Listed(list.items)) {
                        return;
                    }
                    // Without a version there is nothing to watch from: list again, slowly.
                    if version.is_none() {
                        backoff.wait(&mut nudge).await;
                    } else {
                        backoff.reset();
                    }
                }
                Err(e) => {
                    if !emit(Change::Lost(describe(&e))) {
                        return;
                    }
                    backoff.wait(&mut nudge).await;
                }
            }
            continue;
        };
        let params = WatchParams {
            field_selector: selector.clone(),
            timeout: Some(WATCH_SECONDS),
            ..WatchParams::default()
        };
        let opened = Instant::now();
        let ended = match api.watch(&params, &from).await {
            Ok(events) => {
                let events = events.boxed();
                match watch_until_end(events, &mut version, &mut nudge, &mut emit).await {
                    Some(end) => end,
                    None => return,
                }
            }
            Err(e) => End::Failed(e),
        };
        match ended {
            End::Timeout { quiet } if quiet && opened.elapsed() < TOO_SOON => {
                backoff.wait(&mut nudge).await;
            }
            End::Timeout { .. } => {}
            End::Moved => version = None,
            End::Expired => {
                version = None;
                if !emit(Change::Expired) {
                    return;
                }
            }
            End::Refused(problem) => {
                version = None;
                if !emit(Change::Lost(problem)) {
                    return;
                }
                backoff.wait(&mut nudge).await;
            }
            End::Failed(e) => {
                version = None;
                let change = match &e {
                    kube::Error::Api(s) if s.code == 410 => Change::Expired,
                    _ => Change::Lost(describe(&e)),
                };
                let expired = matches!(change, Change::Expired);
                if !emit(change) {
                    return;
                }
                if !expired {
                    backoff.wait(&mut nudge).await;
                }
            }
        }
    }
}

/// `emit`, without saying the same problem again and again while the cluster stays away (each
/// retry fails the same way; the listener already knows, and an idle screen stays idle).
fn said_once(mut emit: impl FnMut(Change) -> bool + Send) -> impl FnMut(Change) -> bool + Send {
    let mut said: Option<Problem> = None;
    move |change| {
        match &change {
            Change::Lost(p) if said.as_ref() == Some(p) => return true,
            Change::Lost(p) => said = Some(p.clone()),
            Change::Listed(_) | Change::Expired => said = None,
            Change::Applied(_) | Change::Deleted(_) => {}
        }
        emit(change)
    }
}

/// How a watch request ended.
enum End {
    /// The server ended it (its timeout, or it is going away): resume from the last version.
    /// `quiet` when not one event came.
    Timeout {
        quiet: bool,
    },
    /// The kubeconfig changed: the cluster may be another one, so start again with a list.
    Moved,
    Expired,
    /// The watch said why it stopped (an ERROR event other than 410).
    Refused(Problem),
    Failed(kube::Error),
}

/// Passes a watch's events on; `None` when `emit` wants no more.
async fn watch_until_end(
    mut events: futures::stream::BoxStream<'_, kube::Result<ApiEvent<DynamicObject>>>,
    version: &mut Option<String>,
    nudge: &mut Option<watch::Receiver<u64>>,
    emit: &mut (impl FnMut(Change) -> bool + Send),
) -> Option<End> {
    let mut quiet = true;
    loop {
        let event = tokio::select! {
            e = events.next() => e,
            () = changed(nudge) => return Some(End::Moved),
        };
        let Some(event) = event else {
            return Some(End::Timeout { quiet });
        };
        quiet = false;
        let change = match event {
            Ok(ApiEvent::Added(o) | ApiEvent::Modified(o)) => {
                keep_version(version, &o);
                Change::Applied(o)
            }
            Ok(ApiEvent::Deleted(o)) => {
                keep_version(version, &o);
                Change::Deleted(o)
            }
            Ok(ApiEvent::Bookmark(b)) => {
                *version = Some(b.metadata.resource_version);
                continue;
            }
            Ok(ApiEvent::Error(status)) if status.code == 410 => return Some(End::Expired),
            Ok(ApiEvent::Error(status)) => {
                return Some(End::Refused(Problem::WatchStopped(status.message)));
            }
            Err(e) => return Some(End::Failed(e)),
        };
        if !emit(change) {
            return None;
        }
    }
}

/// Resuming continues after the last object seen.
fn keep_version(version: &mut Option<String>, o: &DynamicObject) {
    if let Some(v) = o.resource_version().filter(|v| !v.is_empty()) {
        *version = Some(v);
    }
}

/// The changes of one collection as a channel; the watch stops when this is dropped.
pub struct Changes {
    rx: mpsc::UnboundedReceiver<Change>,
    task: JoinHandle<()>,
}

impl Changes {
    pub fn start(
        api: Api<DynamicObject>,
        selector: Option<String>,
        nudge: Option<watch::Receiver<u64>>,
    ) -> Changes {
        let (tx, rx) = mpsc::unbounded_channel();
        let task = tokio::spawn(follow(api, selector, nudge, move |c| tx.send(c).is_ok()));
        Changes { rx, task }
    }

    pub async fn next(&mut self) -> Option<Change> {
        self.rx.recv().await
    }
}

impl Drop for Changes {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[cfg(test)]
mod tests;
