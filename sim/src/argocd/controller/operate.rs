//! An Application's operation, one engine pass per reconcile (docs/sim-behaviour.md §4, §5): picked up, retried,
//! terminated, and completed with its history entry and Kubernetes Event.

use serde_json::{Value, json};

use super::{APP_MANAGER, Controller, Level, status::replacing};
use crate::argocd::app::{AppView, has_option};
use crate::argocd::bootstrap::NAMESPACE;
use crate::argocd::compare;
use crate::argocd::diff;
use crate::argocd::operation::{self, Next, Retry, Step};
use crate::argocd::project;
use crate::argocd::sync::{self, BuildInput, Run};
use crate::controllers::record_event;
use crate::objects;
use crate::ops::Propagation;
use crate::store::Key;

impl Controller {
    pub(super) async fn step_operation(&mut self, app: &Value) -> Step {
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
            // Picked up: written at once, as `NewOperationState` is (no Event: only autoSync
            // and the API server record OperationStarted).
            state = operation::started(op, now);
            self.apps.entry(name.clone()).or_default().run = None;
            self.write_state(app, &state);
        }
        let retry = Retry::from(&state["operation"]);
        let started_at = state["startedAt"].as_str().unwrap_or_default().to_string();
        if phase == "Terminating" {
            return self.terminate(app, state);
        }
        if state["finishedAt"].is_string() {
            if let Some(due) = operation::retry_due(&state, &retry)
                && now < due
            {
                // `requestAppRefresh(CompareWithLatest, retryAfter)`.
                return Step::Wait(due.duration_since(now).unsigned_abs(), Level::Latest);
            }
            state = operation::retrying(state);
            self.apps.entry(name.clone()).or_default().run = None;
            self.write_state(app, &state);
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
                Err(error) => return self.start_failed(app, state, &error, &retry),
            }
        }
        let Some((_, run)) = self.apps.get_mut(&name).and_then(|m| m.run.as_mut()) else {
            return Step::Idle;
        };
        let outcome = run.pass(&self.env);
        let next = operation::after_pass(state, outcome, run, &retry, now);
        self.follow(app, next)
    }

    /// Acts on what the engine pass decided: write and wait, only wait, or finish.
    fn follow(&mut self, app: &Value, next: Next) -> Step {
        match next {
            Next::Wait(wait) => Step::Wait(wait, Level::Nothing),
            Next::Write(state, wait) => {
                self.write_state(app, &state);
                Step::Wait(wait, Level::Nothing)
            }
            Next::Done(state) => self.finish(app, state),
        }
    }

    /// Writes `status.operationState` (keys the new state dropped are removed).
    fn write_state(&self, app: &Value, state: &Value) {
        log_state_change(&self.env, app, &app["status"]["operationState"], state);
        let patch = json!({"status": {"operationState": replacing(&app["status"]["operationState"], state)}});
        let _ = self.patch_app(objects::name(app), &patch);
    }

    /// The attempt could not begin (docs/sim-behaviour.md §16.1): no project, no destination
    /// cluster, an invalid spec, or sources that could not be resolved or rendered (upstream's
    /// sync finds the ComparisonError condition). It ends `Error`, retried like `Failed`.
    fn start_failed(
        &mut self,
        app: &Value,
        mut state: Value,
        error: &StartError,
        retry: &Retry,
    ) -> Step {
        let now = self.env.store.clock.now();
        if state["syncResult"].is_null() {
            state["syncResult"] = json!({
                "revision": state["operation"]["sync"]["revision"].as_str().unwrap_or_default(),
                "source": operation::sync_source(&state, app),
            });
        }
        let message = match error {
            StartError::Comparison(m) => format!("ComparisonError: {m}"),
            StartError::Refused(m) => m.clone(),
        };
        let next = operation::attempt_failed(state, "Error", &message, retry, now);
        self.follow(app, next)
    }

    /// `terminate-op` (docs/sim-behaviour.md §5.3): running hooks are terminated and recorded,
    /// and the operation completes without a retry.
    fn terminate(&mut self, app: &Value, mut state: Value) -> Step {
        let name = objects::name(app).to_string();
        let now = self.env.store.clock.now();
        let mut clean = true;
        if let Some((_, run)) = self.apps.get_mut(&name).and_then(|m| m.run.as_mut()) {
            clean = run.terminate(&self.env);
            let resources = run.result_resources();
            state["syncResult"]["revision"] = json!(run.revision);
            if !resources.is_empty() {
                state["syncResult"]["resources"] = json!(resources);
            }
        }
        if state["syncResult"]["source"].is_null() {
            state["syncResult"]["source"] = operation::sync_source(&state, app);
        }
        if state["syncResult"]["revision"].is_null() {
            let requested = state["operation"]["sync"]["revision"].as_str();
            let revision = requested
                .filter(|r| !r.is_empty())
                .or(app["status"]["sync"]["revision"].as_str());
            state["syncResult"]["revision"] = json!(revision.unwrap_or_default());
        }
        let done = operation::terminated(state, clean, now);
        self.finish(app, done)
    }

    pub(super) async fn start_run(
        &mut self,
        app: &Value,
        state: &Value,
    ) -> Result<Run, StartError> {
        let view = AppView::new(app);
        let sync = &state["operation"]["sync"];
        refuse_invalid(&self.env.store, app)?;
        // A requested revision (a branch, a tag, a short SHA) is resolved to its commit, as
        // the repo server resolves it: the SHA is what syncResult and history record.
        // Every attempt renders the operation's own source (`newSyncOperationResult`: the one
        // automated sync recorded, else the spec's as the attempt begins), never a later edit.
        let source = operation::sync_source(state, app);
        let requested = sync["revision"]
            .as_str()
            .filter(|r| !r.is_empty())
            .unwrap_or_else(|| source["targetRevision"].as_str().unwrap_or("HEAD"));
        let repo_url = source["repoURL"].as_str().unwrap_or_default();
        let revision = self
            .resolve(repo_url, requested, true)
            .await
            .map_err(StartError::Comparison)?;
        let manifests = self
            .render(app, &source, &revision, false)
            .await
            .map_err(StartError::Comparison)?;
        let rules = diff::ignore_rules(view.ignore_differences());
        let comparison = compare::compare(
            &self.env.store,
            view.name(),
            view.dest_namespace(),
            Some(&manifests.objects),
            &rules,
        );
        // Only the operation's own options count (automated sync, the CLI and the UI copy the
        // spec's in; an operation written by hand without them has none).
        let options: Vec<String> = sync["syncOptions"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let ns_ty = &crate::kinds::NAMESPACE;
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
            .and_then(crate::clock::parse)
            .map_or(0, |t| t.as_second());
        let built = sync::build(&BuildInput {
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
            only,
        });
        let run_options = sync::Options {
            prune: sync["prune"] == Value::Bool(true),
            replace: has_option(&options, "Replace"),
            force: has_option(&options, "Force"),
            prune_propagation: prune_propagation(&options),
            server_side: has_option(&options, "ServerSideApply"),
            respect_ignore_differences: has_option(&options, "RespectIgnoreDifferences"),
            rules,
        };
        Ok(Run::new(revision, source, built, run_options))
    }
    /// Stores a completed operation: clears `.operation`, adds history for full successful syncs.
    pub(super) fn finish(&mut self, app: &Value, state: Value) -> Step {
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
        log_state_change(&self.env, app, &app["status"]["operationState"], &state);
        let patch = json!({"operation": null, "status": status});
        let _ = self.patch_app(&name, &patch);
        record_event(
            &self.env,
            app,
            !succeeded,
            "OperationCompleted",
            &message,
            APP_MANAGER,
        );
        Step::Completed {
            automated: state["operation"]["initiatedBy"]["automated"] == Value::Bool(true),
        }
    }
}

/// Why an attempt could not begin.
pub(super) enum StartError {
    /// The sources could not be resolved or rendered (shown as `ComparisonError: ...`).
    Comparison(String),
    /// Upstream refuses before comparing; the message is its own.
    Refused(String),
}

/// What `processRequestedAppOperation` and `SyncAppState` refuse before they compare: a missing
/// project, a destination that is no cluster, then the app's InvalidSpecError conditions
/// (`FormatAppConditions`).
fn refuse_invalid(store: &crate::store::Store, app: &Value) -> Result<(), StartError> {
    let view = AppView::new(app);
    let project = Key::new(&crate::kinds::APP_PROJECT, NAMESPACE, view.project());
    if store.get(&project).is_none() {
        return Err(StartError::Refused(format!(
            "Failed to load application project: appproject.argoproj.io {:?} not found",
            view.project()
        )));
    }
    project::destination_server(view.destination()).map_err(StartError::Refused)?;
    let errors = project::spec_errors(store, app);
    if errors.is_empty() {
        return Ok(());
    }
    let formatted: Vec<String> = errors
        .iter()
        .map(|e| format!("InvalidSpecError: {e}"))
        .collect();
    Err(StartError::Refused(formatted.join(";")))
}

/// `PrunePropagationPolicy=foreground|background|orphan`; unset, the engine's foreground.
fn prune_propagation(options: &[String]) -> Option<Propagation> {
    options.iter().find_map(|o| {
        let (name, value) = o.split_once('=')?;
        if !name.eq_ignore_ascii_case("PrunePropagationPolicy") {
            return None;
        }
        match value.to_ascii_lowercase().as_str() {
            "foreground" => Some(Propagation::Foreground),
            "background" => Some(Propagation::Background),
            "orphan" => Some(Propagation::Orphan),
            _ => None,
        }
    })
}

/// The lines the controller and gitops-engine log as an operation moves: a new operation, a
/// retry, each resource result added or changed, and the phase with its message.
fn log_state_change(env: &crate::controllers::Env, app: &Value, old: &Value, new: &Value) {
    use crate::argocd::ctrllog;
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    if old.is_null() || old["startedAt"] != new["startedAt"] {
        let op = json!(new["operation"]).to_string();
        ctrllog::info(env, app, &format!("Initialized new operation: {op}"));
    }
    if text(&new["message"]).starts_with("Retrying operation") && old["message"] != new["message"] {
        ctrllog::info(env, app, &text(&new["message"]));
    }
    let results = |s: &Value| {
        s["syncResult"]["resources"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    };
    let before = results(old);
    for r in results(new) {
        let same = |o: &&Value| {
            o["kind"] == r["kind"] && o["name"] == r["name"] && o["namespace"] == r["namespace"]
        };
        let fields = [
            ("kind", r["kind"].clone()),
            ("name", r["name"].clone()),
            ("namespace", r["namespace"].clone()),
            ("phase", r["syncPhase"].clone()),
        ];
        let msg = match before.iter().find(same) {
            None => format!(
                "Adding resource result, status: '{}', phase: '{}', message: '{}'",
                text(&r["status"]),
                text(&r["hookPhase"]),
                text(&r["message"])
            ),
            Some(o) if *o != r => format!(
                "Updating resource result, status: '{}' -> '{}', phase '{}' -> '{}', message '{}' -> '{}'",
                text(&o["status"]),
                text(&r["status"]),
                text(&o["hookPhase"]),
                text(&r["hookPhase"]),
                text(&o["message"]),
                text(&r["message"])
            ),
            Some(_) => continue,
        };
        ctrllog::write(env, Some(app), ctrllog::Level::Info, &msg, &fields);
    }
    if old["phase"] != new["phase"] || old["message"] != new["message"] {
        let msg = format!(
            "Updating operation state. phase: {} -> {}, message: '{}' -> '{}'",
            text(&old["phase"]),
            text(&new["phase"]),
            text(&old["message"]),
            text(&new["message"])
        );
        ctrllog::info(env, app, &msg);
    }
    if operation::is_completed(new["phase"].as_str().unwrap_or_default()) {
        ctrllog::info(env, app, "sync/terminate complete");
    }
}
