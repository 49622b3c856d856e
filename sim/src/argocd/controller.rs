//! Argo CD's application controller: one loop over the Applications in `argocd`. Each pass for
//! an app first decides whether and how thoroughly to refresh it (`needRefreshAppStatus`, in
//! `refresh`): a managed resource's event compares with the cached manifests; the periodic
//! 120 s + jitter, a changed destination or ignoreDifferences, automated sync switched on, or
//! an automated operation's end re-resolve the revision from the repo server's refs cache; the
//! refresh annotation, a changed source or a manual operation's end list the refs afresh;
//! `hard` also re-renders. Then it writes `status`, advances a running operation by one step,
//! and decides automated sync.

mod finalize;
mod operate;
mod refresh;
#[cfg(test)]
mod route_tests;
mod status;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc};

use super::app::AppView;
use super::bootstrap::NAMESPACE;
use super::compare::{Level, tracked_by};
use super::operation::Step;
use super::repo::{Manifests, RepoServer};
use super::sync::Run;
use crate::controllers::Env;
use crate::kinds::ResourceType;
use crate::objects;
use crate::store::{Event, Key};

/// Who writes Applications (the User-Agent prefix a real controller's writes show).
const APP_MANAGER: &str = "argocd-application-controller";
const RESYNC: Duration = Duration::from_secs(120);
const JITTER_SECS: u64 = 60;

#[derive(Default)]
struct Memory {
    revision: Option<String>,
    source_type: Option<&'static str>,
    next_periodic: Option<Timestamp>,
    /// The running attempt, by the operation's `startedAt`.
    run: Option<(String, Run)>,
    sync_error: Option<String>,
    timer_at: Option<tokio::time::Instant>,
    /// When a repo error was first met on a refresh that did not force resolution.
    repo_error_since: Option<Timestamp>,
}

pub struct Controller {
    env: Env,
    repo: Arc<RepoServer>,
    apps: HashMap<String, Memory>,
    manifests: HashMap<String, Arc<Manifests>>,
    wake: mpsc::UnboundedSender<(String, Level)>,
}

fn app_type() -> &'static ResourceType {
    &crate::kinds::APPLICATION
}

pub fn run(env: Env, repo: Arc<RepoServer>) -> tokio::task::JoinHandle<()> {
    let mut events = env.store.subscribe();
    let (wake, mut woken) = mpsc::unbounded_channel();
    let mut ctl = Controller {
        env,
        repo,
        apps: HashMap::new(),
        manifests: HashMap::new(),
        wake,
    };
    tokio::spawn(async move {
        let mut pending: BTreeMap<String, Level> = ctl
            .all_apps()
            .into_iter()
            .map(|n| (n, Level::Nothing))
            .collect();
        loop {
            while let Some((name, level)) = pending.pop_first() {
                ctl.reconcile(&name, level).await;
                loop {
                    match events.try_recv() {
                        Ok(e) => ctl.route(&e, &mut pending),
                        Err(broadcast::error::TryRecvError::Lagged(_)) => {
                            pending.extend(ctl.all_apps().into_iter().map(|n| (n, Level::Recent)))
                        }
                        Err(_) => break,
                    }
                }
                while let Ok((name, level)) = woken.try_recv() {
                    merge(&mut pending, name, level);
                }
            }
            tokio::select! {
                e = events.recv() => match e {
                    Ok(e) => ctl.route(&e, &mut pending),
                    Err(broadcast::error::RecvError::Lagged(_)) => pending.extend(ctl.all_apps().into_iter().map(|n| (n, Level::Recent))),
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                Some((name, level)) = woken.recv() => {
                    if let Some(m) = ctl.apps.get_mut(&name) { m.timer_at = None; }
                    merge(&mut pending, name, level);
                }
            }
        }
    })
}

/// The apps the object is tracked to, before and after the change, refreshed at `Recent`: an
/// object another app took over (or let go of) concerns both. An Application is such an
/// object too: the parent of an app of apps is refreshed when its child is made, changed or
/// deleted, but not by the child's own status and operation (`ignoreResourceUpdates`:
/// `/status` for all kinds, `.operation` for Applications), or its every reconcile would
/// refresh the parent. Whether the event is routed (an Application's always is).
fn route_to_trackers(event: &Event, pending: &mut BTreeMap<String, Level>) -> bool {
    let owners: Vec<&str> = [Some(&*event.object), event.previous.as_deref()]
        .into_iter()
        .flatten()
        .filter_map(tracked_by)
        .collect();
    let is_app = std::ptr::eq(event.key.ty(), app_type());
    if !is_app || app_changed_for_its_parent(event) {
        for app in &owners {
            merge(pending, (*app).to_string(), Level::Recent);
        }
    }
    !owners.is_empty() || is_app
}

/// Whether an Application's change is more than its status, operation and refresh annotation:
/// made, deleted, or its spec, finalizers or deletion changed.
fn app_changed_for_its_parent(event: &Event) -> bool {
    let Some(old) = event.previous.as_deref() else {
        return true;
    };
    let new = &*event.object;
    matches!(event.kind, crate::store::EventType::Deleted)
        || old["spec"] != new["spec"]
        || old["metadata"]["finalizers"] != new["metadata"]["finalizers"]
        || old["metadata"]["deletionTimestamp"] != new["metadata"]["deletionTimestamp"]
}

fn merge(pending: &mut BTreeMap<String, Level>, name: String, level: Level) {
    let e = pending.entry(name).or_insert(level);
    *e = (*e).max(level);
}

impl Controller {
    fn all_apps(&self) -> Vec<String> {
        self.env
            .store
            .list(app_type(), Some(NAMESPACE))
            .0
            .iter()
            .map(|a| objects::name(a).to_string())
            .collect()
    }

    /// Which apps an event concerns, and how much.
    fn route(&self, event: &Event, pending: &mut BTreeMap<String, Level>) {
        let ty = event.key.ty();
        if std::ptr::eq(ty, app_type()) && event.key.namespace == NAMESPACE {
            let switched_on = event
                .previous
                .as_deref()
                .is_some_and(|old| automated_sync_enabled(old, &event.object));
            let level = if switched_on {
                Level::Latest
            } else {
                Level::Nothing
            };
            merge(pending, event.key.name.clone(), level);
        }
        if route_to_trackers(event, pending) {
            return;
        }
        // Children (ReplicaSets, Pods) change an app's health and images.
        if matches!(ty.kind, "Pod" | "ReplicaSet") {
            for app in self.env.store.list(app_type(), Some(NAMESPACE)).0 {
                if AppView::new(&app).dest_namespace() == event.key.namespace {
                    merge(pending, objects::name(&app).to_string(), Level::Recent);
                }
            }
        }
    }

    /// Looks at the app again after `after` (cluster time), unless a wake-up is already due
    /// sooner.
    fn schedule(&mut self, name: &str, after: Duration, level: Level) {
        let real = self.env.store.clock.real(after);
        let at = tokio::time::Instant::now() + real;
        let mem = self.apps.entry(name.to_string()).or_default();
        if mem
            .timer_at
            .is_some_and(|t| t <= at && t > tokio::time::Instant::now())
        {
            return;
        }
        mem.timer_at = Some(at);
        let (tx, name) = (self.wake.clone(), name.to_string());
        tokio::spawn(async move {
            tokio::time::sleep_until(at).await;
            let _ = tx.send((name, level));
        });
    }

    async fn reconcile(&mut self, name: &str, requested: Level) {
        let key = Key::new(app_type(), NAMESPACE, name);
        let Some(app) = self.env.store.get(&key) else {
            self.apps.remove(name);
            return;
        };
        let now = self.env.store.clock.now();
        let wanted = self.refresh_wanted(&app, requested, now);
        let spec_errors = super::project::spec_errors(&self.env.store, &app);
        let mut compared = None;
        if let Some(refresh) = wanted {
            // An invalid spec is not compared at all (`refreshAppConditions`): Unknown, Unknown
            // and the InvalidSpecError conditions; a requested operation still runs, and fails.
            if spec_errors.is_empty() {
                compared = self.refresh(&app, refresh, now).await;
            } else {
                self.write_invalid_spec(&app, &spec_errors);
            }
        }

        // Operation.
        let app = self.env.store.get(&key).unwrap_or(app);
        let idle = match self.step_operation(&app).await {
            Step::Wait(d, level) => {
                self.schedule(name, d, level);
                false
            }
            Step::Completed { automated } => {
                // An automated operation's end re-resolves from the refs cache (to spare
                // ls-remote on monorepos); a manual one's lists the refs afresh.
                let level = if automated {
                    Level::Latest
                } else {
                    Level::ForceResolve
                };
                let _ = self.wake.send((name.to_string(), level));
                false
            }
            Step::Idle => true,
        };

        // Automated sync — only from a comparison no operation has overtaken: after an
        // operation moves, the next refresh compares afresh and decides.
        let app = self.env.store.get(&key).unwrap_or(app);
        if idle && let Some(c) = compared.as_ref().filter(|c| !c.auto_synced) {
            self.auto_sync(&app, &c.comparison, &c.sha, c.may_have_changes, now);
        }
        // A deleting app with no operation: its resources finalizer does its work.
        if idle {
            self.finalize_deletion(&app);
        }
    }

    /// A merge patch of an Application, as the real controller writes status and operations.
    fn patch_app(&self, name: &str, patch: &Value) -> crate::status::ApiResult<Arc<Value>> {
        use crate::ops::{self, Part};
        let key = crate::store::Key::new(app_type(), NAMESPACE, name);
        ops::merge(&self.env.store, &key, patch, Part::Main, APP_MANAGER)
    }

    /// The commit `target` names in `repo_url`; from the refs cache unless `fresh`.
    async fn resolve(&self, repo_url: &str, target: &str, fresh: bool) -> Result<String, String> {
        let (repo, url, target) = (self.repo.clone(), repo_url.to_string(), target.to_string());
        tokio::task::spawn_blocking(move || {
            let resolved = if fresh {
                repo.resolve(&url, &target)
            } else {
                repo.resolve_cached(&url, &target)
            };
            resolved.map_err(|e| e.to_string())
        })
        .await
        .unwrap_or_else(|e| Err(format!("repo server failed: {e}")))
    }

    /// The manifests `source` renders to at `sha` for this app (cached unless `hard`).
    async fn render(
        &mut self,
        app: &Value,
        source: &Value,
        sha: &str,
        hard: bool,
    ) -> Result<Arc<Manifests>, String> {
        let view = AppView::new(app);
        let cache_key = format!("{sha}|{}|{}|{source}", view.name(), view.dest_namespace());
        if !hard && let Some(m) = self.manifests.get(&cache_key) {
            return Ok(m.clone());
        }
        let (repo, name, dest, source, sha) = (
            self.repo.clone(),
            view.name().to_string(),
            view.dest_namespace().to_string(),
            source.clone(),
            sha.to_string(),
        );
        let manifests = tokio::task::spawn_blocking(move || {
            repo.generate(&name, &dest, &source, &sha)
                .map_err(|e| e.to_string())
        })
        .await
        .unwrap_or_else(|e| Err(format!("repo server failed: {e}")))?;
        let manifests = Arc::new(manifests);
        self.manifests.insert(cache_key, manifests.clone());
        Ok(manifests)
    }
}

/// `automatedSyncEnabled`: automated sync, or its self-heal, switched on by this update.
fn automated_sync_enabled(old: &Value, new: &Value) -> bool {
    let state = |app: &Value| {
        let view = AppView::new(app);
        (view.auto_sync(), view.auto_sync() && view.self_heal())
    };
    let ((was, was_healing), (is, is_healing)) = (state(old), state(new));
    (!was && is) || (!was_healing && is_healing)
}
