//! The embedded lab cluster: a Kubernetes API server on loopback with k3s's workload
//! controllers (and, in `argocd`, Argo CD's application controller), for machines that cannot
//! run k3s. It imports nothing of the tutor: the tutor talks to it over HTTP like any cluster.
//!
//! Start it with [`start`] in-process (tests, `capa-tui --sim`) or with `capa-tui sim serve`.
//!
//! The modules, from the wire inwards:
//!
//! | module | owns |
//! |---|---|
//! | `api` | the HTTP front: auth, negotiation, discovery, OpenAPI, resources, watches, logs, metrics |
//! | `body`, `proto`, `validation` | reading request bodies (JSON, YAML, protobuf) and field validation |
//! | `ops`, `patch`, `fields`, `defaults` | the one write path: admission, patches, managedFields, defaulting |
//! | `store`, `key`, `journal`, `clock` | objects by key, resourceVersions, watch history, the state dir, sped-up time |
//! | `kinds`, `schema`, `table`, `status`, `objects`, `labels` | the served types, field shapes, kubectl's Tables, API errors, metadata helpers, label selectors |
//! | `controllers`, `logs`, `shell` | k3s's workload controllers, Pod output, the Job containers' tiny shell |
//! | `argocd` | Argo CD 3.5's application controller and repo server |
//! | `gitd`, `tools`, `tls`, `bootstrap` | the real git daemon, the real kubectl/helm, HTTPS, what a fresh cluster holds |

#![warn(missing_docs)]

mod amount;
mod api;
mod argocd;
mod body;
mod bootstrap;
mod clock;
mod connections;
mod controllers;
mod defaults;
mod fields;
mod gitd;
mod glob;
mod journal;
mod key;
mod kinds;
mod labels;
mod logs;
mod objects;
mod ops;
mod patch;
mod peer;
mod private_files;
pub mod proto;
mod schema;
mod shell;
mod status;
mod store;
mod table;
mod tls;
pub mod tools;
mod usage;
mod validation;
mod views;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;

pub use api::{MAX_BODY_BYTES, RequestCounts};
pub use clock::{ClockRun, read_runs};
pub use connections::Limits;
pub use journal::Repaired;
pub use private_files::UnsafeFolder;
use store::Store;

/// The git server's in-cluster address on the lab VM, mapped to the local git daemon.
pub const GITD_HOST: &str = "gitd.gitsrv.svc.cluster.local:9418";

/// How to run the embedded cluster.
#[derive(Debug, Clone)]
pub struct Config {
    /// Loopback address to listen on; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Keep the store here across restarts; `None` keeps it in memory only.
    pub state_dir: Option<PathBuf>,
    /// How much faster than the wall clock the cluster's time runs.
    pub speed: f64,
    /// Where the git daemon serves bare repos from (`<name>.git`); default `<state-dir>/bare`,
    /// or a temporary folder without a state dir.
    pub bare_dir: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            state_dir: None,
            speed: 1.0,
            bare_dir: None,
        }
    }
}

/// Why the embedded cluster could not start or write its kubeconfig; each says what to do.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// `--listen` named an address other than loopback.
    #[error(
        "the embedded lab cluster only listens on loopback; {0} is not a loopback address (use 127.0.0.1:PORT)"
    )]
    NotLoopback(SocketAddr),
    /// The port is taken or cannot be bound.
    #[error(
        "cannot listen on {addr}: {source} (is another capa-tui sim already running there? pick another --listen port, or 0 for any free one)"
    )]
    Listen {
        /// The address asked for.
        addr: SocketAddr,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// `--speed` was zero, negative or not a number.
    #[error("--speed must be a positive number (1 is real time, 10 is ten times faster); got {0}")]
    BadSpeed(f64),
    /// The state dir could not be read or written.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// The server's certificate could not be made.
    #[error(transparent)]
    Tls(#[from] tls::TlsError),
    /// The git daemon did not start.
    #[error(transparent)]
    Gitd(#[from] gitd::GitdError),
    /// The bare-repo folder could not be made.
    #[error("cannot use {path} for bare repos: {source}")]
    BareDir {
        /// The folder.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A folder for the cluster's files is not private enough (another user owns it or may
    /// write into it).
    #[error(transparent)]
    UnsafeFolder(#[from] UnsafeFolder),
    /// The kubeconfig could not be written.
    #[error("cannot write the kubeconfig to {path}: {source}")]
    Kubeconfig {
        /// Where it was to go.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
}

impl SimError {
    /// The folder the cluster refused, wherever in the error it was found (the journal's
    /// own check wraps it too), so a front end can say it in the learner's words.
    pub fn unsafe_folder(&self) -> Option<&UnsafeFolder> {
        match self {
            SimError::UnsafeFolder(u)
            | SimError::Store(store::StoreError::Journal(journal::JournalError::Unsafe(u))) => {
                Some(u)
            }
            _ => None,
        }
    }
}

/// One stored object, as [`Handle::objects`] lists them.
#[derive(Debug)]
pub struct Stored {
    /// The object's kind (`Deployment`).
    pub kind: &'static str,
    /// Its resource's plural name (`deployments`).
    pub plural: &'static str,
    /// Its namespace; empty for a cluster-scoped object.
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// The object as stored.
    pub object: Arc<serde_json::Value>,
    ty: &'static kinds::ResourceType,
}

impl Stored {
    /// The fields its kind's schema does not declare (usually none), as strict decoding names
    /// them (`unknown field "spec.replica"`): what the cluster's controllers and Argo CD wrote
    /// must be something a real server would keep, or a later `kubectl apply` of it would fail.
    pub fn undeclared_fields(&self) -> Vec<String> {
        validation::unknown_fields(self.ty, &self.object)
    }
}

/// A running embedded cluster. Dropping it without [`Handle::shutdown`] aborts its tasks.
pub struct Handle {
    /// Where the API server listens (HTTPS, loopback).
    pub addr: SocketAddr,
    /// The bearer token every request must carry.
    pub token: String,
    ca_pem: String,
    store: Arc<Store>,
    counts: Arc<api::RequestCounts>,
    gitd: gitd::GitDaemon,
    /// Temporary folders of a cluster without a state dir, removed when it stops.
    _scratch: Option<tempfile::TempDir>,
    tasks: Vec<JoinHandle<()>>,
    server: Option<(tokio::sync::oneshot::Sender<()>, JoinHandle<()>)>,
}

/// Starts the API server and the controllers; returns once the server accepts connections.
pub async fn start(config: Config) -> Result<Handle, SimError> {
    start_with_limits(config, Limits::default()).await
}

/// [`start`], with the API's connection and request limits given (tests shorten them).
pub async fn start_with_limits(config: Config, limits: Limits) -> Result<Handle, SimError> {
    if !config.listen.ip().is_loopback() {
        return Err(SimError::NotLoopback(config.listen));
    }
    if !(config.speed.is_finite() && config.speed > 0.0) {
        return Err(SimError::BadSpeed(config.speed));
    }
    let store = match &config.state_dir {
        Some(dir) => Store::open(dir, config.speed)?,
        None => Store::in_memory(config.speed),
    };
    let git_version = tools::kubectl_version();
    bootstrap::seed(&store);
    controllers::node::seed(&store, &api::k3s_version(&git_version));
    controllers::endpoints::seed(&store);
    argocd::seed(&store);
    store.acknowledge_durably()?;
    store.open_watch_window();
    let WorkDirs {
        scratch,
        work_dir,
        bare_dir,
    } = work_dirs(&config)?;
    let gitd = gitd::GitDaemon::start(&bare_dir)?;
    let hosts = argocd::repo::HostMap::new(vec![(
        GITD_HOST.to_string(),
        format!("127.0.0.1:{}", gitd.port()),
    )]);
    // Argo CD passes the destination's version and API resources to helm (`GetVersionsInfo`).
    // Its refs cache runs on the cluster's clock.
    let repo_server = Arc::new(
        argocd::repo::RepoServer::new(work_dir.join("repo-cache"), hosts)
            .with_cluster(
                api::k3s_version(&git_version),
                kinds::api_resource_strings(),
            )
            .with_clock(store.clock.clone()),
    );
    let listener = TcpListener::bind(config.listen)
        .await
        .map_err(|source| SimError::Listen {
            addr: config.listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| SimError::Listen {
        addr: config.listen,
        source,
    })?;
    let credentials = tls::Credentials::load_or_create(config.state_dir.as_deref())?;
    let acceptor = credentials.acceptor()?;
    let token = credentials.token.clone();
    let logs = Arc::new(logs::LogBook::default());
    let counts = Arc::new(api::RequestCounts::default());
    let state = Arc::new(api::ApiState {
        counts: counts.clone(),
        store: store.clone(),
        logs: logs.clone(),
        token: token.clone(),
        git_version,
        address: addr.to_string(),
        body_timeout: limits.body_timeout,
    });
    let env = controllers::Env {
        store: store.clone(),
        logs,
        events: Arc::new(controllers::EventCorrelator::default()),
    };
    let mut tasks = controllers::spawn_all(env.clone(), &api::k3s_version(&state.git_version));
    tasks.push(argocd::spawn(env, repo_server));
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(connections::serve_tls(
        listener,
        acceptor,
        api::router(state),
        limits,
        stop_rx,
    ));
    Ok(Handle {
        addr,
        token,
        ca_pem: credentials.ca_pem,
        store,
        counts,
        gitd,
        _scratch: scratch,
        tasks,
        server: Some((stop_tx, server)),
    })
}

/// Where a cluster keeps its working files (the repo server's cache) and its bare repos.
struct WorkDirs {
    /// Temporary folders of a cluster without a state dir, removed when it stops.
    scratch: Option<tempfile::TempDir>,
    work_dir: PathBuf,
    bare_dir: PathBuf,
}

/// The state dir (or a temporary folder without one), and the bare-repo folder made at 0700.
fn work_dirs(config: &Config) -> Result<WorkDirs, SimError> {
    let scratch = match &config.state_dir {
        Some(_) => None,
        None => Some(
            tempfile::Builder::new()
                .prefix("capa-sim-")
                .tempdir()
                .map_err(|source| SimError::BareDir {
                    path: std::env::temp_dir(),
                    source,
                })?,
        ),
    };
    let work_dir = config
        .state_dir
        .clone()
        .or_else(|| scratch.as_ref().map(|d| d.path().to_path_buf()))
        .unwrap_or_default();
    let bare_dir = config
        .bare_dir
        .clone()
        .unwrap_or_else(|| work_dir.join("bare"));
    std::os::unix::fs::DirBuilderExt::mode(std::fs::DirBuilder::new().recursive(true), 0o700)
        .create(&bare_dir)
        .map_err(|source| SimError::BareDir {
            path: bare_dir.clone(),
            source,
        })?;
    Ok(WorkDirs {
        scratch,
        work_dir,
        bare_dir,
    })
}

impl Handle {
    /// `https://127.0.0.1:PORT`
    pub fn url(&self) -> String {
        format!("https://{}", self.addr)
    }

    /// The folder the git daemon serves bare repos from.
    pub fn bare_dir(&self) -> &Path {
        self.gitd.base()
    }

    /// The git daemon's loopback port (Applications use `git://gitd.gitsrv.svc.cluster.local:9418/`).
    pub fn git_port(&self) -> u16 {
        self.gitd.port()
    }

    /// The URL to clone and push `<name>.git` from this machine.
    pub fn git_url(&self, name: &str) -> String {
        format!("git://127.0.0.1:{}/{name}.git", self.gitd.port())
    }

    /// Every stored object, for tests that check what a request did or did not change.
    pub fn objects(&self) -> Vec<Stored> {
        self.store
            .all()
            .into_iter()
            .map(|(key, object)| Stored {
                kind: key.ty().kind,
                plural: key.ty().plural,
                namespace: key.namespace.clone(),
                name: key.name.clone(),
                object,
                ty: key.ty(),
            })
            .collect()
    }

    /// The CA certificate (PEM) that signed the server's certificate.
    pub fn ca_pem(&self) -> &str {
        &self.ca_pem
    }

    /// A kubeconfig for this cluster (context `capa-sim`, namespace `default`).
    pub fn kubeconfig(&self) -> String {
        kubeconfig_yaml(&self.url(), &self.token, &self.ca_pem)
    }

    /// Writes the kubeconfig atomically (0600), so a reader never sees half of it. A folder
    /// that another user owns or may write into (without the sticky bit) is refused: whoever
    /// can replace the kubeconfig can make kubectl run their program.
    pub fn write_kubeconfig(&self, path: &Path) -> Result<(), SimError> {
        let failed = |source| SimError::Kubeconfig {
            path: path.to_path_buf(),
            source,
        };
        let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
            Some(dir) => dir,
            None => Path::new("."),
        };
        std::os::unix::fs::DirBuilderExt::mode(std::fs::DirBuilder::new().recursive(true), 0o700)
            .create(dir)
            .map_err(failed)?;
        private_files::check_folder_for_file(dir)?;
        write_private(path, self.kubeconfig().as_bytes()).map_err(failed)
    }

    /// The requests answered so far, by kind.
    pub fn requests(&self) -> &RequestCounts {
        &self.counts
    }

    /// How many objects the cluster holds (for benchmarks and tests).
    pub fn object_count(&self) -> usize {
        self.store.count()
    }

    /// Stops serving, stops the controllers, and flushes the state dir.
    pub async fn shutdown(mut self) {
        if let Some((stop, server)) = self.server.take() {
            let _ = stop.send(());
            // Open watches keep connections alive; do not wait on them for long.
            let _ = tokio::time::timeout(std::time::Duration::from_secs(2), server).await;
        }
        for t in self.tasks.drain(..) {
            t.abort();
        }
        if let Err(e) = self.store.flush() {
            tracing::error!("state dir not flushed: {e}");
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
        if let Some((_, server)) = &self.server {
            server.abort();
        }
    }
}

fn kubeconfig_yaml(server: &str, token: &str, ca_pem: &str) -> String {
    use base64::Engine;
    let ca = base64::engine::general_purpose::STANDARD.encode(ca_pem);
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: capa-sim\n  cluster:\n    server: {server}\n    certificate-authority-data: {ca}\ncontexts:\n- name: capa-sim\n  context:\n    cluster: capa-sim\n    user: capa-sim\n    namespace: default\ncurrent-context: capa-sim\nusers:\n- name: capa-sim\n  user:\n    token: {token}\n"
    )
}

/// Writes `bytes` to `path` at 0600 through a new file of a random name (`O_EXCL`) in the same
/// folder, synced, then renamed into place: a reader sees the old file or the new one, and no
/// other user can have made the temporary file first.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    private_files::write_private(path, bytes)
}

/// Makes the state dir (0700) or checks the one there, as [`start`] does: refused when another
/// user owns it or may write into it, or a folder above it is not the user's or root's (or
/// others may write there without the sticky bit). Call it before writing anything into the
/// state dir (a lock file, say), so nothing is written into a folder someone else controls.
pub fn check_state_dir(state_dir: &Path) -> Result<(), SimError> {
    Ok(private_files::make_private_dir(state_dir)?)
}

/// Makes `dir` (0700) or checks the one there as [`check_state_dir`] does, for a folder of
/// the tutor's own that holds what it later trusts or runs (a learner's progress, a shell's
/// start-up file): refused when another user owns it or may write into it or above it.
pub fn check_private_dir(dir: &Path) -> Result<(), UnsafeFolder> {
    private_files::make_private_dir(dir)
}

/// Repairs a state dir whose journal stops the cluster from starting (`Damaged at line N`):
/// keeps every change before the first damaged line, and the whole journal as it was in
/// `journal.jsonl.damaged-<time>` beside it. `None` when there was nothing to repair. Call it
/// only while no process serves the state dir (hold its lock).
pub fn repair_journal(state_dir: &Path) -> Result<Option<Repaired>, SimError> {
    journal::repair_journal(state_dir).map_err(|e| SimError::Store(store::StoreError::Journal(e)))
}
