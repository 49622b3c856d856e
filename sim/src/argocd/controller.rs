//! Argo CD's application controller: one loop over the Applications in `argocd`. Each pass for
//! an app refreshes it at the level its trigger calls for (a resource event compares with the
//! cached manifests; a spec change, the refresh annotation or the periodic 120 s + jitter
//! re-resolve the revision; `hard` also re-renders), writes `status`, advances a running
//! operation by one step, and decides automated sync.

mod finalize;
mod operate;
mod status;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc};

use super::app::AppView;
use super::bootstrap::NAMESPACE;
use super::compare::{self, TRACKING};
use super::diff;
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

/// How thoroughly to refresh (Argo CD's CompareWith levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// A managed resource changed: compare with the cached manifests.
    Recent,
    /// Re-resolve the target revision.
    Latest,
    /// Also render again, bypassing the manifest cache.
    Hard,
}

#[derive(Default)]
struct Memory {
    spec: String,
    revision: Option<String>,
    source_type: Option<&'static str>,
    next_periodic: Option<Timestamp>,
    /// The running attempt, by the operation's `startedAt`.
    run: Option<(String, Run)>,
    sync_error: Option<String>,
    timer_at: Option<tokio::time::Instant>,
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
            .map(|n| (n, Level::Latest))
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
        if std::ptr::eq(ty, app_type()) {
            if event.key.namespace == NAMESPACE {
                merge(pending, event.key.name.clone(), Level::Recent);
            }
            return;
        }
        if let Some(tracking) = objects::annotation(&event.object, TRACKING)
            && let Some((app, _)) = tracking.split_once(':')
        {
            merge(pending, app.to_string(), Level::Recent);
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

    async fn reconcile(&mut self, name: &str, level: Level) {
        let key = Key::new(app_type(), NAMESPACE, name);
        let Some(app) = self.env.store.get(&key) else {
            self.apps.remove(name);
            return;
        };
        let now = self.env.store.clock.now();
        let view = AppView::new(&app);
        let mut level = level;
        let mem = self.apps.entry(name.to_string()).or_default();
        let spec = app["spec"].to_string();
        if mem.spec != spec {
            mem.spec = spec;
            level = level.max(Level::Latest);
        }
        match view.refresh_requested() {
            Some("hard") => level = Level::Hard,
            Some(_) => level = level.max(Level::Latest),
            None => {}
        }
        let mut periodic = None;
        if mem.next_periodic.is_none_or(|t| now >= t) {
            let period = RESYNC + Duration::from_secs(rand::random::<u64>() % JITTER_SECS);
            mem.next_periodic = Some(now + period);
            periodic = Some(period);
            level = level.max(Level::Latest);
        }
        if mem.revision.is_none() {
            level = level.max(Level::Latest);
        }

        // An invalid spec is not compared at all (`refreshAppConditions`): Unknown, Unknown and
        // the InvalidSpecError conditions; a requested operation still runs, and fails.
        let spec_errors = super::project::spec_errors(&self.env.store, &app);
        if !spec_errors.is_empty() {
            self.reconcile_invalid(&key, &app, &spec_errors).await;
            self.arm_periodic(name, periodic);
            return;
        }

        // Refresh: resolve, render, compare.
        let mut comparison_error = None;
        if level >= Level::Latest {
            match self.resolve(view.repo_url(), view.target_revision()).await {
                Ok(sha) => self.apps.entry(name.to_string()).or_default().revision = Some(sha),
                Err(e) => comparison_error = Some(e),
            }
        }
        let revision = self.apps.get(name).and_then(|m| m.revision.clone());
        let mut manifests = None;
        if let (Some(sha), None) = (&revision, &comparison_error) {
            match self.render(&app, sha, level == Level::Hard).await {
                Ok(m) => manifests = Some(m),
                Err(e) => comparison_error = Some(e),
            }
        }
        // A target state that could not be loaded is compared as empty, best effort, as
        // upstream does: the tracked live objects are still listed and health still computed.
        let rules = diff::ignore_rules(view.ignore_differences());
        let comparison = compare::compare(
            &self.env.store,
            name,
            view.dest_namespace(),
            manifests.as_ref().map(|m| m.objects.as_slice()),
            &rules,
        );
        self.apps.entry(name.to_string()).or_default().source_type =
            manifests.as_ref().map(|m| m.source_type.as_str());
        // On a failure the revision shown is the one asked for, unresolved (`revisions[0]`;
        // no manifest revision replaces it); a resource event keeps the last one shown.
        let shown_revision = match (&comparison_error, level) {
            (None, _) => revision.clone(),
            (Some(_), Level::Recent) => {
                app["status"]["sync"]["revision"].as_str().map(String::from)
            }
            (Some(_), _) => Some(view.target_revision().to_string()),
        };
        self.write_comparison(
            &app,
            shown_revision.as_deref(),
            &comparison,
            comparison_error.as_deref(),
            level,
        );

        // Operation.
        let app = self.env.store.get(&key).unwrap_or(app);
        let idle = match self.step_operation(&app).await {
            Step::Wait(d) => {
                self.schedule(name, d, Level::Recent);
                false
            }
            Step::Completed => {
                let _ = self.wake.send((name.to_string(), Level::Latest));
                false
            }
            Step::Idle => true,
        };

        // Automated sync — only from a comparison no operation has overtaken: after an
        // operation moves, the next refresh compares afresh and decides.
        let app = self.env.store.get(&key).unwrap_or(app);
        if idle
            && comparison_error.is_none()
            && let Some(sha) = &revision
        {
            self.auto_sync(&app, &comparison, sha, now);
        }
        // A deleting app with no operation: its resources finalizer does its work.
        if idle {
            self.finalize_deletion(&app);
        }
        self.arm_periodic(name, periodic);
    }

    /// An app whose spec cannot be reconciled: its conditions written, its operation (if one
    /// was asked for) refused.
    async fn reconcile_invalid(&mut self, key: &Key, app: &Value, errors: &[String]) {
        self.write_invalid_spec(app, errors);
        let app = self
            .env
            .store
            .get(key)
            .unwrap_or_else(|| Arc::new(app.clone()));
        match self.step_operation(&app).await {
            Step::Wait(d) => self.schedule(&key.name, d, Level::Recent),
            Step::Completed => {
                let _ = self.wake.send((key.name.clone(), Level::Latest));
            }
            Step::Idle => {}
        }
    }

    /// The periodic refresh (120 s + jitter), armed once per period.
    fn arm_periodic(&self, name: &str, periodic: Option<Duration>) {
        if let Some(period) = periodic {
            let (tx, name, real) = (
                self.wake.clone(),
                name.to_string(),
                self.env.store.clock.real(period),
            );
            tokio::spawn(async move {
                tokio::time::sleep(real).await;
                let _ = tx.send((name, Level::Recent));
            });
        }
    }

    /// A merge patch of an Application, as the real controller writes status and operations.
    fn patch_app(&self, name: &str, patch: &Value) -> crate::status::ApiResult<Arc<Value>> {
        use crate::ops::{self, Part};
        let key = crate::store::Key::new(app_type(), NAMESPACE, name);
        ops::merge(&self.env.store, &key, patch, Part::Main, APP_MANAGER)
    }

    async fn resolve(&self, repo_url: &str, target: &str) -> Result<String, String> {
        let (repo, url, target) = (self.repo.clone(), repo_url.to_string(), target.to_string());
        tokio::task::spawn_blocking(move || repo.resolve(&url, &target).map_err(|e| e.to_string()))
            .await
            .unwrap_or_else(|e| Err(format!("repo server failed: {e}")))
    }

    async fn render(
        &mut self,
        app: &Value,
        sha: &str,
        hard: bool,
    ) -> Result<Arc<Manifests>, String> {
        let view = AppView::new(app);
        let cache_key = format!(
            "{sha}|{}|{}|{}",
            view.name(),
            view.dest_namespace(),
            view.source()
        );
        if !hard && let Some(m) = self.manifests.get(&cache_key) {
            return Ok(m.clone());
        }
        let (repo, name, dest, source, sha) = (
            self.repo.clone(),
            view.name().to_string(),
            view.dest_namespace().to_string(),
            view.source().clone(),
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
