//! The repo-server half of the simulated Argo CD: resolves `targetRevision` against the lab's
//! git daemon and renders `spec.source` with the real helm / kustomize (via kubectl), the way
//! Argo CD 3.5's repo-server does, objects stamped with the annotation tracking-id.

mod detect;
mod directory;
mod error;
mod exec;
mod git;
mod helm;
mod hostmap;
mod kustfile;
mod kustomize;
mod manifests;
mod scratch;
mod source;
#[cfg(test)]
mod tests;
mod tracking;
mod valuefiles;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::Value;

use jiff::Timestamp;

use crate::clock::Clock;
use crate::tools;

pub use error::RepoError;
pub use hostmap::HostMap;
#[cfg(test)]
use {error::RpcCode, tracking::TRACKING_ID};

use scratch::{TempFile, WorkDir};

/// What rendered a source; becomes `status.sourceType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceType {
    Helm,
    Kustomize,
    Directory,
}

impl SourceType {
    pub fn as_str(self) -> &'static str {
        match self {
            SourceType::Helm => "Helm",
            SourceType::Kustomize => "Kustomize",
            SourceType::Directory => "Directory",
        }
    }
}

/// The desired state of one Application at one commit.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifests {
    /// The full commit SHA rendered.
    pub revision: String,
    pub source_type: SourceType,
    /// In output order, Lists flattened, each with the tracking-id annotation (CRDs excepted).
    pub objects: Vec<Value>,
}

/// Fetches into a bare cache per repo URL and renders in private temporary checkouts, so the
/// cache is never modified by a render. Blocking; safe to share between threads.
pub struct RepoServer {
    cache_dir: PathBuf,
    hosts: HostMap,
    kube_version: Option<String>,
    api_versions: Vec<String>,
    /// One lock per repo URL: fetches into the same bare repo must not overlap.
    locks: Mutex<HashMap<String, Arc<Mutex<()>>>>,
    /// The cluster's clock, for how old a repo's listed refs are; none: never cached.
    clock: Option<Clock>,
    /// Each repo's refs as last listed, and when (`SetGitReferences`).
    refs: Mutex<HashMap<String, (Vec<git::RemoteRef>, Timestamp)>>,
    /// Unit tests serve their repos as local paths; the cluster's repo server never reads one.
    local_paths: bool,
}

/// `--revision-cache-expiration`: how long a repo's listed refs are reused (3 min by default,
/// `ARGOCD_RECONCILIATION_TIMEOUT` unset in a stock install).
pub const REFS_TTL: std::time::Duration = std::time::Duration::from_secs(180);

impl RepoServer {
    pub fn new(cache_dir: PathBuf, hosts: HostMap) -> RepoServer {
        // Checkouts left behind by a crash are of no use to anyone.
        let _ = std::fs::remove_dir_all(cache_dir.join("work"));
        RepoServer {
            cache_dir,
            hosts,
            kube_version: None,
            api_versions: Vec::new(),
            locks: Mutex::new(HashMap::new()),
            clock: None,
            refs: Mutex::new(HashMap::new()),
            local_paths: false,
        }
    }

    /// Reads `file://` and path repoURLs from this machine's disk, for tests that build their
    /// repos in a temp dir.
    #[cfg(test)]
    pub fn reading_local_paths(mut self) -> RepoServer {
        self.local_paths = true;
        self
    }

    /// What the repo server's transport makes of the URL before reaching out: a path (or
    /// `file://`) is on the repo server's own disk, where there are no repositories; a scheme
    /// without a client is refused.
    fn reachable(&self, repo_url: &str) -> Result<(), RepoError> {
        if self.local_paths {
            return Ok(());
        }
        git::reachable(repo_url)
    }

    /// Keeps each repo's listed refs for [`REFS_TTL`] of this clock's time, as the real repo
    /// server's cache does.
    pub fn with_clock(mut self, clock: Clock) -> RepoServer {
        self.clock = Some(clock);
        self
    }

    /// The destination cluster's version (`v1.35.2`) and API resources (`apps/v1`,
    /// `apps/v1/Deployment`, …), which Argo CD passes to helm as `--kube-version` and
    /// `--api-versions`. Without them those flags are left out.
    pub fn with_cluster(
        mut self,
        kube_version: impl Into<String>,
        api_versions: Vec<String>,
    ) -> RepoServer {
        self.kube_version = Some(kube_version.into());
        self.api_versions = api_versions;
        self
    }

    /// Resolves `targetRevision` ("main", "HEAD", "", a tag, a full or short SHA) to a full
    /// commit SHA, listing the repo's refs now and fetching into the cache (what a refresh
    /// that forces resolution does: `noRevisionCache`). A full SHA is returned as given, as
    /// Argo CD does; whether it exists shows when rendering.
    pub fn resolve(&self, repo_url: &str, target_revision: &str) -> Result<String, RepoError> {
        self.resolve_with(repo_url, target_revision, false)
    }

    /// [`RepoServer::resolve`], but with the refs listed up to [`REFS_TTL`] ago when there are
    /// any (`nativeGitClient.getRefs` with the cache): a periodic refresh does not see a push
    /// until they expire.
    pub fn resolve_cached(
        &self,
        repo_url: &str,
        target_revision: &str,
    ) -> Result<String, RepoError> {
        self.resolve_with(repo_url, target_revision, true)
    }

    fn resolve_with(
        &self,
        repo_url: &str,
        target_revision: &str,
        use_cache: bool,
    ) -> Result<String, RepoError> {
        if git::is_commit_sha(target_revision) {
            return Ok(target_revision.to_ascii_lowercase());
        }
        self.reachable(repo_url)?;
        let lock = self.lock_for(repo_url);
        let _held = hold(&lock);
        let repo = git::open_cache(&git::bare_dir(&self.cache_dir, repo_url))?;
        let cached = use_cache.then(|| self.cached_refs(repo_url)).flatten();
        let refs = match cached {
            Some(refs) => refs,
            None => {
                let refs = git::fetch(&repo, &self.hosts.rewrite(repo_url), repo_url)?;
                if let Some(clock) = &self.clock {
                    let mut all = self.refs.lock().unwrap_or_else(PoisonError::into_inner);
                    all.insert(repo_url.to_string(), (refs.clone(), clock.now()));
                }
                refs
            }
        };
        match git::name_revision(&refs, target_revision)? {
            git::Named::Ref(oid) => git::peel(&repo, oid)
                .map(|c| c.to_string())
                .ok_or_else(|| {
                    RepoError::Checkout(format!(
                        "Failed to checkout revision {target_revision}: `git checkout --force {target_revision}` failed exit status 128: fatal: reference is not a tree: {target_revision}"
                    ))
                }),
            git::Named::Sha(prefix) => git::find_commit(&repo, &prefix)
                .map(|c| c.to_string())
                .ok_or_else(|| git::missing_commit(target_revision)),
        }
    }

    /// The refs of `repo_url` listed less than [`REFS_TTL`] ago.
    fn cached_refs(&self, repo_url: &str) -> Option<Vec<git::RemoteRef>> {
        let clock = self.clock.as_ref()?;
        let all = self.refs.lock().unwrap_or_else(PoisonError::into_inner);
        let (refs, listed) = all.get(repo_url)?;
        let fresh = clock.now().duration_since(*listed).unsigned_abs() < REFS_TTL;
        fresh.then(|| refs.clone())
    }

    /// Renders `source` (the Application's `spec.source`) at `revision` (a full SHA; anything
    /// else is resolved first) for Application `app_name` with destination namespace
    /// `dest_namespace`.
    pub fn generate(
        &self,
        app_name: &str,
        dest_namespace: &str,
        source: &Value,
        revision: &str,
    ) -> Result<Manifests, RepoError> {
        let raw = source::normalize(source);
        let src = source::parse(&raw);
        if !src.chart.is_empty() {
            return Err(RepoError::Source(
                "Helm repository charts (spec.source.chart) are not available in this simulator: put the chart in git and use spec.source.path".into(),
            ));
        }
        let revision = if git::is_commit_sha(revision) {
            revision.to_ascii_lowercase()
        } else {
            self.resolve(&src.repo_url, revision)?
        };

        std::fs::create_dir_all(self.cache_dir.join("work"))
            .map_err(|e| RepoError::Io(format!("cannot create work directory: {e}")))?;
        let work = WorkDir::new(&self.cache_dir.join("work"))
            .map_err(|e| RepoError::Io(format!("cannot create work directory: {e}")))?;
        let root = work.path().join("repo");
        std::fs::create_dir(&root)
            .map_err(|e| RepoError::Io(format!("cannot create checkout: {e}")))?;
        self.checkout(&src.repo_url, &revision, &root)?;

        let job = Render {
            app_name,
            dest_namespace,
            revision: &revision,
            root: &root,
            work: work.path(),
            kube_version: self.kube_version.as_deref(),
            api_versions: &self.api_versions,
        };
        let (source_type, objects) = job
            .render(&raw)
            .map_err(|e| e.sanitized(&root.display().to_string()))?;
        Ok(Manifests {
            revision,
            source_type,
            objects,
        })
    }

    /// Writes the commit into `dest`, fetching first if the cache does not have it yet.
    fn checkout(&self, repo_url: &str, revision: &str, dest: &Path) -> Result<(), RepoError> {
        if let (false, git::Transport::Local(path)) = (self.local_paths, git::transport(repo_url)) {
            // The native git of the repo server's container finds no repository at the path.
            return Err(RepoError::Checkout(format!(
                "Failed to fetch default: `git fetch origin --tags --force --prune` failed exit status 128: fatal: '{path}' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists."
            )));
        }
        let lock = self.lock_for(repo_url);
        let _held = hold(&lock);
        let repo = git::open_cache(&git::bare_dir(&self.cache_dir, repo_url))?;
        let oid = git2::Oid::from_str(revision).map_err(|_| git::missing_commit(revision))?;
        if repo.find_commit(oid).is_err() {
            git::fetch(&repo, &self.hosts.rewrite(repo_url), repo_url).map_err(|e| {
                RepoError::Checkout(format!(
                    "Failed to fetch default: `git fetch origin --tags --force --prune` failed exit status 128: fatal: {}",
                    e.detail().trim_start_matches("failed to list refs: ")
                ))
            })?;
        }
        if repo.find_commit(oid).is_err() {
            return Err(git::missing_commit(revision));
        }
        git::checkout(&repo, oid, dest)
    }

    fn lock_for(&self, repo_url: &str) -> Arc<Mutex<()>> {
        let mut locks = self.locks.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(locks.entry(repo_url.to_string()).or_default())
    }
}

/// A lock that a panicking holder poisoned still serialises fetches.
fn hold(lock: &Mutex<()>) -> MutexGuard<'_, ()> {
    lock.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One render of a checked-out source.
struct Render<'a> {
    app_name: &'a str,
    dest_namespace: &'a str,
    revision: &'a str,
    root: &'a Path,
    work: &'a Path,
    kube_version: Option<&'a str>,
    api_versions: &'a [String],
}

impl Render<'_> {
    fn render(&self, raw: &Value) -> Result<(SourceType, Vec<Value>), RepoError> {
        let path = raw.get("path").and_then(Value::as_str).unwrap_or("");
        let app_path = app_path(self.root, path)?;
        let merged = source::merge_overrides(raw, &app_path, self.app_name).map_err(|e| {
            RepoError::Source(format!(
                "error getting app source type: error while parsing source parameters: {e}"
            ))
        })?;
        let src = source::parse(&merged);
        let source_type = detect::source_type(&src, &app_path)
            .map_err(|e| RepoError::Source(format!("error getting app source type: {e}")))?;
        let env = source::Env::new(self.app_name, self.dest_namespace, &src, self.revision);

        let objects = match source_type {
            SourceType::Helm => {
                let helm_bin = tools::find("helm").ok_or(RepoError::ToolMissing("helm"))?;
                let job = helm::HelmJob {
                    helm_bin: &helm_bin,
                    app_path: &app_path,
                    repo_root: self.root,
                    work: self.work,
                    app_name: self.app_name,
                    dest_namespace: self.dest_namespace,
                    env: &env,
                    cluster_kube_version: self.kube_version,
                    cluster_api_versions: self.api_versions,
                };
                let out = helm::template(&job, src.helm.as_ref())?;
                manifests::parse_all(&out).map_err(RepoError::Manifest)?
            }
            SourceType::Kustomize => {
                let kubectl = tools::find("kubectl").ok_or(RepoError::ToolMissing("kubectl"))?;
                let job = kustomize::KustomizeJob {
                    kubectl_bin: &kubectl,
                    app_path: &app_path,
                    repo_root: self.root,
                    env: &env,
                };
                let out = kustomize::build(&job, src.kustomize.as_ref())?;
                manifests::parse_all(&out).map_err(RepoError::Manifest)?
            }
            SourceType::Directory => {
                let spec = src.directory.clone().unwrap_or_default();
                directory::manifests(&app_path, self.root, &spec)?
            }
        };
        let mut objects = manifests::flatten(objects).map_err(RepoError::Manifest)?;
        for obj in &mut objects {
            tracking::stamp(self.app_name, obj, self.dest_namespace)
                .map_err(RepoError::Manifest)?;
        }
        Ok((source_type, objects))
    }
}

/// `apppathutil.Path`: the source path inside the checkout, which must exist as a directory.
fn app_path(root: &Path, path: &str) -> Result<PathBuf, RepoError> {
    if path.starts_with('/') {
        return Err(RepoError::Source(format!("{path}: app path is absolute")));
    }
    let joined = valuefiles::clean(&root.join(path));
    if !joined.starts_with(valuefiles::clean(root)) {
        return Err(RepoError::Source(format!("{path}: app path outside root")));
    }
    match std::fs::metadata(&joined) {
        Ok(m) if m.is_dir() => Ok(joined),
        Ok(_) => Err(RepoError::Source(format!(
            "{path}: app path is not a directory"
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(RepoError::Source(format!(
            "{path}: app path does not exist"
        ))),
        Err(e) => Err(RepoError::Io(e.to_string())),
    }
}

/// `parseKubeVersion`: `v1.35.2+k3s1` → `1.35.2` (Kubernetes' generic version parsing).
fn kube_version(v: &str) -> Result<Option<String>, String> {
    if v.is_empty() {
        return Ok(None);
    }
    let illegal =
        || format!("could not parse kubernetes version {v}: illegal version string \"{v}\"");
    let s = v.trim_start();
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts = Vec::new();
    let mut rest = s;
    loop {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            break;
        }
        parts.push(rest[..n].parse::<u64>().map_err(|_| illegal())?);
        rest = &rest[n..];
        match rest.strip_prefix('.') {
            Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => rest = r,
            _ => break,
        }
    }
    if parts.len() < 2 {
        return Err(illegal());
    }
    Ok(Some(
        parts
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("."),
    ))
}
