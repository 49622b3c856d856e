//! Argo CD's application controller: one loop over the Applications in `argocd`. Each pass for
//! an app refreshes it at the level its trigger calls for (a resource event compares with the
//! cached manifests; a spec change, the refresh annotation or the periodic 120 s + jitter
//! re-resolve the revision; `hard` also re-renders), writes `status`, advances a running
//! operation by one step, and decides automated sync.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};

use super::app::{AppView, REFRESH, has_option};
use super::autosync::{self, Decision};
use super::bootstrap::NAMESPACE;
use super::compare::{self, Comparison, TRACKING};
use super::diff;
use super::operation::{self, Retry, Step};
use super::repo::{Manifests, RepoServer};
use super::sync::{self, BuildInput, Run};
use crate::sim::clock::rfc3339;
use crate::sim::controllers::{Env, record_event};
use crate::sim::kinds::{ResourceType, by_kind};
use crate::sim::objects;
use crate::sim::ops::{self, Actor, Part};
use crate::sim::patch::PatchKind;
use crate::sim::store::{Event, Key};

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
    by_kind("argoproj.io/v1alpha1", "Application").expect("applications are served")
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

        // Refresh: resolve, render, compare.
        let mut comparison_error = None;
        if level >= Level::Latest {
            match self.resolve(view.repo_url(), view.target_revision()).await {
                Ok(sha) => self.apps.entry(name.to_string()).or_default().revision = Some(sha),
                Err(e) => comparison_error = Some(e),
            }
        }
        let revision = self.apps.get(name).and_then(|m| m.revision.clone());
        let mut comparison = None;
        if let (Some(sha), None) = (&revision, &comparison_error) {
            match self.render(&app, sha, level == Level::Hard).await {
                Ok(manifests) => {
                    let rules = diff::ignore_rules(view.ignore_differences());
                    self.apps.entry(name.to_string()).or_default().source_type =
                        Some(manifests.source_type.as_str());
                    comparison = Some(compare::compare(
                        &self.env.store,
                        name,
                        view.dest_namespace(),
                        &manifests.objects,
                        &rules,
                    ));
                }
                Err(e) => comparison_error = Some(e),
            }
        }
        self.write_comparison(
            &app,
            revision.as_deref(),
            comparison.as_ref(),
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
        if idle && let (Some(c), Some(sha)) = (&comparison, &revision) {
            self.auto_sync(&app, c, sha, now);
        }
        // The periodic refresh (120 s + jitter), armed once per period.
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

    /// Writes what the refresh found (§8): sync, health, resources, summary, conditions.
    fn write_comparison(
        &mut self,
        app: &Value,
        revision: Option<&str>,
        comparison: Option<&Comparison>,
        error: Option<&str>,
        level: Level,
    ) {
        let view = AppView::new(app);
        let now = self.env.store.clock.now_rfc3339();
        let mem = self.apps.entry(view.name().to_string()).or_default();
        let old = &app["status"];
        let mut status = json!({});
        let mut compared_to = json!({"source": view.source(), "destination": view.destination()});
        if view.ignore_differences().is_array() {
            compared_to["ignoreDifferences"] = view.ignore_differences().clone();
        }
        let sync_status = match (comparison, error) {
            (Some(c), None) => {
                if c.synced {
                    "Synced"
                } else {
                    "OutOfSync"
                }
            }
            _ => "Unknown",
        };
        status["sync"] = json!({"status": sync_status, "comparedTo": compared_to});
        if let Some(rev) = revision {
            status["sync"]["revision"] = json!(rev);
        }
        if let Some(c) = comparison {
            let health = c.health.as_str();
            let since = if old["health"]["status"] == health {
                old["health"]["lastTransitionTime"].clone()
            } else {
                json!(now)
            };
            status["health"] = json!({"status": health, "lastTransitionTime": since});
            status["resources"] = json!(c.resources);
            status["summary"] = if c.images.is_empty() {
                json!({})
            } else {
                json!({"images": c.images})
            };
        }
        if let Some(t) = mem.source_type {
            status["sourceType"] = json!(t);
        }
        status["resourceHealthSource"] = json!("appTree");
        status["controllerNamespace"] = json!(NAMESPACE);
        status["reconciledAt"] = if level >= Level::Latest || old["reconciledAt"].is_null() {
            json!(now)
        } else {
            old["reconciledAt"].clone()
        };
        let mut wanted: Vec<(&str, String)> = Vec::new();
        if let Some(e) = error {
            wanted.push(("ComparisonError", e.to_string()));
        }
        if let Some(c) = comparison
            && !c.unknown_kinds.is_empty()
        {
            wanted.push((
                "ComparisonError",
                format!(
                    "the embedded cluster does not serve these kinds: {}",
                    c.unknown_kinds.join(", ")
                ),
            ));
        }
        if let Some(c) = comparison
            && !c.diff_errors.is_empty()
        {
            wanted.push(("ComparisonError", c.diff_errors.join("; ")));
        }
        if let Some(e) = &mem.sync_error {
            wanted.push(("SyncError", e.clone()));
        }
        status["conditions"] = conditions(old, &wanted, &now);
        let mut patch = json!({"status": status_patch(old, &status)});
        if view.refresh_requested().is_some() {
            patch["metadata"] = json!({"annotations": {REFRESH: null}});
        }
        self.events_for_changes(app, old, &status);
        let _ = ops::patch(
            &self.env.store,
            app_type(),
            NAMESPACE,
            view.name(),
            PatchKind::Merge,
            &patch,
            Part::Main,
            false,
            &Actor::new(APP_MANAGER),
        );
    }

    fn events_for_changes(&self, app: &Value, old: &Value, new: &Value) {
        for (what, field) in [
            ("sync", &["sync", "status"]),
            ("health", &["health", "status"]),
        ] {
            let (before, after) = (&old[field[0]][field[1]], &new[field[0]][field[1]]);
            if after.is_string() && before != after {
                let message = format!(
                    "Updated {what} status: {} -> {}",
                    before.as_str().unwrap_or(""),
                    after.as_str().unwrap_or("")
                );
                record_event(
                    &self.env,
                    app,
                    false,
                    "ResourceUpdated",
                    &message,
                    APP_MANAGER,
                );
            }
        }
    }

    async fn step_operation(&mut self, app: &Value) -> Step {
        let view = AppView::new(app);
        let name = view.name().to_string();
        let op = &app["operation"];
        if op.is_null() {
            self.apps.entry(name).or_default().run = None;
            return Step::Idle;
        }
        let now = self.env.store.clock.now();
        let mut state = app["status"]["operationState"].clone();
        let phase = state["phase"].as_str().unwrap_or_default().to_string();
        if state.is_null() || operation::is_completed(&phase) {
            state = operation::started(op, now);
            self.apps.entry(name.clone()).or_default().run = None;
            record_event(
                &self.env,
                app,
                false,
                "OperationStarted",
                &initiated_message(op),
                APP_MANAGER,
            );
        }
        let retry = Retry::from(&state["operation"]);
        let started_at = state["startedAt"].as_str().unwrap_or_default().to_string();
        if phase == "Terminating" {
            if let Some((_, run)) = self.apps.get_mut(&name).and_then(|m| m.run.as_mut()) {
                run.terminate(&self.env);
            }
            let done = operation::complete(state, "Failed", "Operation terminated", now);
            return self.finish(app, done);
        }
        if state["finishedAt"].is_string() {
            if let Some(due) = operation::retry_due(&state, &retry)
                && now < due
            {
                return Step::Wait(due.duration_since(now).unsigned_abs());
            }
            state = operation::retrying(state);
            self.apps.entry(name.clone()).or_default().run = None;
        }
        let has_run = self
            .apps
            .get(&name)
            .and_then(|m| m.run.as_ref())
            .is_some_and(|(s, _)| *s == started_at);
        if !has_run {
            match self.start_run(app, &state).await {
                Ok(run) => {
                    self.apps.entry(name.clone()).or_default().run = Some((started_at.clone(), run))
                }
                Err(message) => {
                    let done = operation::complete(state, "Error", &message, now);
                    return self.finish(app, done);
                }
            }
        }
        let Some((_, run)) = self.apps.get_mut(&name).and_then(|m| m.run.as_mut()) else {
            return Step::Idle;
        };
        let outcome = run.pass(&self.env);
        match operation::after_pass(state, outcome, run, view.source(), &retry, now) {
            Ok((state, wait)) => {
                let patch = json!({"status": {"operationState": replacing(&app["status"]["operationState"], &state)}});
                let _ = ops::patch(
                    &self.env.store,
                    app_type(),
                    NAMESPACE,
                    &name,
                    PatchKind::Merge,
                    &patch,
                    Part::Main,
                    false,
                    &Actor::new(APP_MANAGER),
                );
                Step::Wait(wait)
            }
            Err(done) => self.finish(app, done),
        }
    }

    async fn start_run(&mut self, app: &Value, state: &Value) -> Result<Run, String> {
        let view = AppView::new(app);
        let sync = &state["operation"]["sync"];
        let revision = match sync["revision"].as_str().filter(|r| !r.is_empty()) {
            Some(r) => r.to_string(),
            None => {
                self.resolve(view.repo_url(), view.target_revision())
                    .await?
            }
        };
        let manifests = self.render(app, &revision, false).await?;
        let rules = diff::ignore_rules(view.ignore_differences());
        let comparison = compare::compare(
            &self.env.store,
            view.name(),
            view.dest_namespace(),
            &manifests.objects,
            &rules,
        );
        let options: Vec<String> = sync["syncOptions"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_else(|| view.sync_options());
        let ns_ty = by_kind("v1", "Namespace").expect("namespaces are served");
        let only = sync["resources"]
            .as_array()
            .filter(|r| !r.is_empty())
            .map(|list| {
                list.iter()
                    .map(|r| {
                        (
                            r["group"].as_str().unwrap_or("").to_string(),
                            r["kind"].as_str().unwrap_or("").to_string(),
                            r["name"].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            });
        let started_at_unix = state["startedAt"]
            .as_str()
            .and_then(crate::sim::clock::parse)
            .map_or(0, |t| t.as_second());
        let (tasks, sync_fail) = sync::build(&BuildInput {
            comparison: &comparison,
            revision: &revision,
            started_at_unix,
            dest_namespace: view.dest_namespace(),
            create_namespace: has_option(&options, "CreateNamespace"),
            namespace_exists: self
                .env
                .store
                .get(&Key::new(ns_ty, "", view.dest_namespace()))
                .is_some(),
            prune: sync["prune"] == Value::Bool(true),
            only,
        });
        let run_options = sync::Options {
            server_side: has_option(&options, "ServerSideApply"),
            respect_ignore_differences: has_option(&options, "RespectIgnoreDifferences"),
            rules,
        };
        Ok(Run::new(revision, tasks, sync_fail, run_options))
    }

    /// Stores a completed operation: clears `.operation`, adds history for full successful syncs.
    fn finish(&mut self, app: &Value, state: Value) -> Step {
        let name = objects::name(app).to_string();
        if let Some(m) = self.apps.get_mut(&name) {
            m.run = None;
        }
        let mut status =
            json!({"operationState": replacing(&app["status"]["operationState"], &state)});
        let partial = state["operation"]["sync"]["resources"]
            .as_array()
            .is_some_and(|r| !r.is_empty());
        let succeeded = state["phase"] == "Succeeded";
        if succeeded && !partial {
            let limit = app["spec"]["revisionHistoryLimit"].as_u64().unwrap_or(10) as usize;
            status["history"] = operation::history_with(app, &state, limit);
        }
        let revision = state["syncResult"]["revision"]
            .as_str()
            .or(state["operation"]["sync"]["revision"].as_str())
            .unwrap_or_default()
            .to_string();
        let message = match (succeeded, partial) {
            (true, true) => format!("Partial sync operation to {revision} succeeded"),
            (true, false) => format!("Sync operation to {revision} succeeded"),
            (false, _) => format!(
                "Sync operation to {revision} failed: {}",
                state["message"].as_str().unwrap_or_default()
            ),
        };
        let patch = json!({"operation": null, "status": status});
        let _ = ops::patch(
            &self.env.store,
            app_type(),
            NAMESPACE,
            &name,
            PatchKind::Merge,
            &patch,
            Part::Main,
            false,
            &Actor::new(APP_MANAGER),
        );
        record_event(
            &self.env,
            app,
            !succeeded,
            "OperationCompleted",
            &message,
            APP_MANAGER,
        );
        Step::Completed
    }

    fn auto_sync(&mut self, app: &Value, comparison: &Comparison, revision: &str, now: Timestamp) {
        let name = objects::name(app).to_string();
        let decision = autosync::decide(app, comparison, revision, now);
        let sync_error = match &decision {
            Decision::SyncError(m) => Some(m.clone()),
            _ => None,
        };
        let changed_error =
            self.apps.get(&name).map(|m| m.sync_error.clone()) != Some(sync_error.clone());
        self.apps.entry(name.clone()).or_default().sync_error = sync_error.clone();
        match decision {
            Decision::Start {
                operation,
                self_heal,
            } => {
                let patch = json!({"operation": operation, "status": {"operationState": null}});
                if ops::patch(
                    &self.env.store,
                    app_type(),
                    NAMESPACE,
                    &name,
                    PatchKind::Merge,
                    &patch,
                    Part::Main,
                    false,
                    &Actor::new(APP_MANAGER),
                )
                .is_ok()
                {
                    let why = if self_heal {
                        "Initiated automated sync (self-heal)"
                    } else {
                        "Initiated automated sync"
                    };
                    record_event(
                        &self.env,
                        app,
                        false,
                        "OperationStarted",
                        &format!("{why} to '{revision}'"),
                        APP_MANAGER,
                    );
                }
            }
            Decision::Wait(d) => self.schedule(&name, d, Level::Recent),
            Decision::SyncError(_) | Decision::Nothing => {}
        }
        if changed_error {
            let now_s = rfc3339(now);
            let mut wanted: Vec<(&str, String)> = app["status"]["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|c| c["type"] != "SyncError")
                .filter_map(|c| Some((c["type"].as_str()?, c["message"].as_str()?.to_string())))
                .collect();
            if let Some(e) = sync_error {
                wanted.push(("SyncError", e));
            }
            let patch =
                json!({"status": {"conditions": conditions(&app["status"], &wanted, &now_s)}});
            let _ = ops::patch(
                &self.env.store,
                app_type(),
                NAMESPACE,
                &name,
                PatchKind::Merge,
                &patch,
                Part::Main,
                false,
                &Actor::new(APP_MANAGER),
            );
        }
    }
}

fn initiated_message(op: &Value) -> String {
    let rev = op["sync"]["revision"].as_str().unwrap_or_default();
    if op["initiatedBy"]["automated"] == Value::Bool(true) {
        format!("Initiated automated sync to '{rev}'")
    } else {
        format!("Initiated sync to '{rev}'")
    }
}

/// The conditions list: each wanted (type, message), keeping `lastTransitionTime` of one that
/// was already there unchanged; `null` when there are none (the field is omitted).
fn conditions(old_status: &Value, wanted: &[(&str, String)], now: &str) -> Value {
    if wanted.is_empty() {
        return Value::Null;
    }
    let old: Vec<&Value> = old_status["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    Value::Array(
        wanted
            .iter()
            .map(|(t, m)| {
                let since = old
                    .iter()
                    .find(|c| c["type"] == *t && c["message"] == m.as_str())
                    .map_or(json!(now), |c| c["lastTransitionTime"].clone());
                json!({"type": t, "message": m, "lastTransitionTime": since})
            })
            .collect(),
    )
}

/// `new` as a merge patch that replaces `old`: keys `old` has and `new` dropped become `null`
/// (a merge patch cannot remove a key by leaving it out).
fn replacing(old: &Value, new: &Value) -> Value {
    let mut patch = new.clone();
    if let (Some(o), Some(p)) = (old.as_object(), patch.as_object_mut()) {
        for k in o.keys() {
            p.entry(k.clone()).or_insert(Value::Null);
        }
    }
    patch
}

/// A merge patch from `old` to `new` at the top level of status (fields not recomputed, such as
/// operationState and history, are left alone).
fn status_patch(old: &Value, new: &Value) -> Value {
    let mut patch = new.clone();
    if let (Some(p), Some(o)) = (patch.as_object_mut(), old.as_object()) {
        for key in ["health", "resources", "summary", "conditions", "sourceType"] {
            if o.contains_key(key) && !p.contains_key(key) {
                p.insert(key.into(), Value::Null);
            }
        }
        // A merge patch would merge maps; these are replaced whole.
        for key in ["sync", "health", "summary"] {
            if let (Some(_), Some(newv)) = (o.get(key), p.get(key).cloned())
                && newv.is_object()
            {
                let mut replaced = newv.clone();
                if let (Some(r), Some(ov)) = (
                    replaced.as_object_mut(),
                    o.get(key).and_then(Value::as_object),
                ) {
                    for k in ov.keys() {
                        r.entry(k.clone()).or_insert(Value::Null);
                    }
                }
                p.insert(key.into(), replaced);
            }
        }
    }
    patch
}
