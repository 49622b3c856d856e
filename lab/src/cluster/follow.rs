//! A kube client that follows its kubeconfig file. When the file changes (the embedded cluster
//! restarted on another port and wrote a new one), the next request goes where the new file
//! points — for every holder of the client: the watches, a running plan, the self-check. Every
//! request that gets no answer fails with [`Unreachable`], naming the server it tried.
//!
//! The file is watched with filesystem notifications on its folder (writers replace it with a
//! rename), never polled; a file that does not parse leaves the client where it was.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::task::{Context, Poll};
use std::time::Duration;

use futures::future::BoxFuture;
use http::{Request, Response};
use kube::client::Body;
use notify::{RecursiveMode, Watcher};
use tokio::sync::{mpsc, watch};

use super::problem::{Unreachable, transport_why};
use super::{ClusterError, Result};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A rewrite comes as several notifications (temp file, rename): wait for them to settle.
const SETTLE: Duration = Duration::from_millis(100);

/// The client in use now and the server it talks to.
struct Current {
    client: kube::Client,
    server: String,
}

/// The tower service under the followed client: hands each request to the current client.
#[derive(Clone)]
struct Following(Arc<RwLock<Current>>);

impl tower_service::Service<Request<Body>> for Following {
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = BoxFuture<'static, std::result::Result<Response<Body>, Self::Error>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<std::result::Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let (client, server) = {
            let current = self.0.read().unwrap_or_else(|p| p.into_inner());
            (current.client.clone(), current.server.clone())
        };
        Box::pin(async move {
            client.send(request).await.map_err(|e| match e {
                // The credentials could not be made: that is not the network's fault.
                kube::Error::Auth(_) => Box::new(e) as BoxError,
                other => Box::new(Unreachable {
                    server,
                    why: transport_why(&other),
                }),
            })
        })
    }
}

/// A client following `path`, and what keeps it following.
pub struct Followed {
    pub client: kube::Client,
    /// Counts the times the kubeconfig changed and the client moved to what it now says.
    pub changes: watch::Receiver<u64>,
    _watcher: Option<notify::RecommendedWatcher>,
}

/// A client for `path` and `context` that follows the file as it changes.
pub async fn connect(path: &Path, context: Option<&str>) -> Result<Followed> {
    let text = read(path)?;
    let (client, server) = super::client_from_text(path, &text, context).await?;
    let default_ns = client.default_namespace().to_string();
    let shared = Arc::new(RwLock::new(Current { client, server }));
    let followed = kube::Client::new(Following(shared.clone()), default_ns);
    let (changes_tx, changes) = watch::channel(0u64);
    let (tx, rx) = mpsc::unbounded_channel::<()>();
    let watcher = watch_file(path, tx);
    if let Err(e) = &watcher {
        tracing::warn!(
            "cannot watch the kubeconfig {}: {e}; the tutor keeps talking to the cluster it named",
            path.display()
        );
    }
    let target = Target {
        path: path.to_path_buf(),
        context: context.map(String::from),
        last: text,
    };
    tokio::spawn(reload_on_change(target, shared, rx, changes_tx));
    Ok(Followed {
        client: followed,
        changes,
        _watcher: watcher.ok(),
    })
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| ClusterError::BadKubeconfig {
        path: path.to_path_buf(),
        source: e.into(),
    })
}

/// Notifications for `path`, from a watch on its folder.
fn watch_file(
    path: &Path,
    tx: mpsc::UnboundedSender<()>,
) -> notify::Result<notify::RecommendedWatcher> {
    let name = path.file_name().map(std::ffi::OsStr::to_os_string);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if event.paths.iter().any(|p| p.file_name() == name.as_deref()) {
            let _ = tx.send(());
        }
    })?;
    watcher.watch(&dir, RecursiveMode::NonRecursive)?;
    Ok(watcher)
}

/// Where the client comes from, and the text it was last built from.
struct Target {
    path: PathBuf,
    context: Option<String>,
    last: String,
}

/// Rebuilds the current client each time the file's text changes (until the watch is dropped).
async fn reload_on_change(
    mut target: Target,
    shared: Arc<RwLock<Current>>,
    mut rx: mpsc::UnboundedReceiver<()>,
    changes: watch::Sender<u64>,
) {
    while rx.recv().await.is_some() {
        tokio::time::sleep(SETTLE).await;
        while rx.try_recv().is_ok() {}
        let Ok(text) = std::fs::read_to_string(&target.path) else {
            continue;
        };
        if text == target.last {
            continue;
        }
        match super::client_from_text(&target.path, &text, target.context.as_deref()).await {
            Ok((client, server)) => {
                tracing::info!("{} changed: now talking to {server}", target.path.display());
                *shared.write().unwrap_or_else(|p| p.into_inner()) = Current { client, server };
                target.last = text;
                changes.send_modify(|n| *n += 1);
            }
            Err(e) => tracing::warn!("{e}; keeping the client as it was"),
        }
    }
}
