//! An Application's operation, one engine pass per reconcile (docs/sim-behaviour.md §4, §5): picked up, retried,
//! terminated, and completed with its history entry and Kubernetes Event.

use serde_json::{Value, json};

use super::{APP_MANAGER, Controller, Level, status::replacing};
use crate::argocd::app::AppView;
use crate::argocd::bootstrap::NAMESPACE;
use crate::argocd::compare;
use crate::argocd::diff;
use crate::argocd::operation::{self, Next, Retry, Step};
use crate::argocd::options::{self as opts, SyncOptions};
use crate::argocd::project;
use crate::argocd::sync::{self, BuildInput, NamespaceInput, Run, SyncResource};
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
            match self.start_run(app, &operation::attempt(&state)).await {
                Ok(run) => {
                    self.apps.entry(name.clone()).or_default().run = Some((started_at.clone(), run))
                }
                Err(error) => return self.start_failed(app, state, &error, &retry),
            }
        }
        let Some((_, run)) = self.apps.get_mut(&name).and_then(|m| m.run.as_mut()) else {
            return Step::Idle;
        };
        // Each pass reads the app afresh, as `SyncAppState` does: the deletion approval, and
        // the namespace metadata the result records.
        let started = state["startedAt"].as_str().and_then(crate::clock::parse);
        run.options.prune_confirmed = started.is_some_and(|t| view.deletion_approved_since(t));
        run.namespace_metadata = view.managed_namespace_metadata().cloned();
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
        let (phase, message) = match error {
            StartError::Comparison(m) => ("Error", format!("ComparisonError: {m}")),
            StartError::Refused(m) => ("Error", m.clone()),
            StartError::Failed(m) => ("Failed", m.clone()),
        };
        let next = operation::attempt_failed(state, phase, &message, retry, now);
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
        let app_options = view.sync_options();
        let scope = compare::Scope {
            app: view.name(),
            dest_namespace: view.dest_namespace(),
            options: &app_options,
            namespace_metadata_changed: view.namespace_metadata_changed(),
        };
        let comparison =
            compare::compare(&self.env.store, &scope, Some(&manifests.objects), &rules);
        // Only the operation's own options count (automated sync, the CLI and the UI copy the
        // spec's in; an operation written by hand without them has none).
        let options = SyncOptions::from_json(&sync["syncOptions"]);
        refuse_compared(&comparison, &options)?;
        let only: Option<Vec<SyncResource>> = sync["resources"]
            .as_array()
            .filter(|r| !r.is_empty())
            .map(|list| list.iter().map(SyncResource::from_json).collect());
        let started_at = state["startedAt"].as_str().and_then(crate::clock::parse);
        let started_at_unix = started_at.map_or(0, |t| t.as_second());
        let strategy = &sync["syncStrategy"];
        let apply_strategy = strategy["apply"].is_object();
        let namespace = options.has(opts::CREATE_NAMESPACE).then(|| NamespaceInput {
            live: self.env.store.get(&Key::new(
                &crate::kinds::NAMESPACE,
                "",
                view.dest_namespace(),
            )),
            metadata: view.managed_namespace_metadata(),
        });
        let built = sync::build(&BuildInput {
            comparison: &comparison,
            revision: &revision,
            started_at_unix,
            dest_namespace: view.dest_namespace(),
            namespace,
            skip_hooks: only.is_some() || apply_strategy,
            only,
            prune_last: options.has(opts::PRUNE_LAST),
            skip_dry_run_on_missing: options.has(opts::SKIP_DRY_RUN_ON_MISSING_RESOURCE),
        });
        let run_options = sync::Options {
            prune: sync["prune"] == Value::Bool(true),
            replace: options.has(opts::REPLACE),
            force: strategy_force(strategy),
            prune_propagation: prune_propagation(&options),
            server_side: options.has(opts::SERVER_SIDE_APPLY),
            respect_ignore_differences: options.has(opts::RESPECT_IGNORE_DIFFERENCES),
            rules,
            default_prune: options.value(opts::PRUNE).map(String::from),
            apply_out_of_sync_only: options.has(opts::APPLY_OUT_OF_SYNC_ONLY),
            prune_confirmed: started_at.is_some_and(|t| view.deletion_approved_since(t)),
        };
        let managed = view.managed_namespace_metadata().is_some();
        let mut run = Run::new(revision, source, built, run_options, managed);
        // An attempt the controller had begun before it restarted carries on where it was (a
        // retry starts without a result).
        if let Some(results) = state["syncResult"]["resources"].as_array()
            && state["syncResult"]["revision"].as_str() == Some(run.revision.as_str())
        {
            run.resume_from(results);
        }
        Ok(run)
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
    /// Upstream refuses; the message is its own.
    Refused(String),
    /// Upstream fails the attempt (`Failed`, not `Error`); the message is its own.
    Failed(String),
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
    // In the order the status keeps its conditions (sorted by type and message).
    let mut formatted: Vec<String> = errors
        .iter()
        .map(|e| format!("InvalidSpecError: {e}"))
        .collect();
    formatted.sort();
    Err(StartError::Refused(formatted.join(";")))
}

/// `SyncStrategy.Force()`: the apply strategy's `force`, else the hook strategy's. An app's
/// `Force=true` sync option is no operation setting (only a resource's annotation is read).
fn strategy_force(strategy: &Value) -> bool {
    let force = |s: &Value| s["force"] == Value::Bool(true);
    if strategy["apply"].is_object() {
        force(&strategy["apply"])
    } else {
        force(&strategy["hook"])
    }
}

/// `PrunePropagationPolicy=background|foreground|orphan`, matched whole in that order;
/// unset (or spelt otherwise), the engine's foreground.
fn prune_propagation(options: &SyncOptions) -> Option<Propagation> {
    [
        ("PrunePropagationPolicy=background", Propagation::Background),
        ("PrunePropagationPolicy=foreground", Propagation::Foreground),
        ("PrunePropagationPolicy=orphan", Propagation::Orphan),
    ]
    .into_iter()
    .find_map(|(option, policy)| options.has(option).then_some(policy))
}

/// What `SyncAppState` refuses once it has compared: a shared resource with
/// `FailOnSharedResource=true` (Failed), then the comparison's ComparisonError and
/// InvalidSpecError conditions (Error, `FormatAppConditions`: `Type: message` joined by `;`,
/// in the conditions' order).
fn refuse_compared(
    comparison: &compare::Comparison,
    options: &SyncOptions,
) -> Result<(), StartError> {
    let mut conditions: Vec<(&str, String)> = comparison.conditions.clone();
    if !comparison.diff_errors.is_empty() {
        conditions.push(("ComparisonError", comparison.diff_errors.join("; ")));
    }
    conditions.sort_by_key(|(t, m)| format!("{t}/{m}"));
    if options.has(opts::FAIL_ON_SHARED_RESOURCE)
        && let Some((_, shared)) = conditions
            .iter()
            .find(|(t, _)| *t == "SharedResourceWarning")
    {
        return Err(StartError::Failed(format!(
            "Shared resource found: {shared}"
        )));
    }
    let errors: Vec<String> = conditions
        .iter()
        .filter(|(t, _)| matches!(*t, "ComparisonError" | "InvalidSpecError"))
        .map(|(t, m)| format!("{t}: {m}"))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(StartError::Refused(errors.join(";")))
    }
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::argocd::compare::Comparison;
    use crate::argocd::health::HealthStatus;

    fn options(list: Value) -> SyncOptions {
        SyncOptions::from_json(&list)
    }

    #[test]
    fn the_propagation_policy_is_read_whole() {
        let policy = |list: Value| prune_propagation(&options(list));
        assert_eq!(
            policy(json!(["PrunePropagationPolicy=orphan"])),
            Some(Propagation::Orphan)
        );
        assert_eq!(
            policy(json!([
                "PrunePropagationPolicy=background",
                "PrunePropagationPolicy=orphan"
            ])),
            Some(Propagation::Background)
        );
        assert_eq!(policy(json!(["PrunePropagationPolicy=Orphan"])), None);
        assert_eq!(policy(json!(["prunePropagationPolicy=orphan"])), None);
    }

    #[test]
    fn force_is_the_operations_sync_strategy() {
        assert!(strategy_force(&json!({"hook": {"force": true}})));
        assert!(strategy_force(&json!({"apply": {"force": true}})));
        assert!(!strategy_force(
            &json!({"apply": {}, "hook": {"force": true}})
        ));
        assert!(!strategy_force(&Value::Null));
    }

    fn compared(conditions: Vec<(&'static str, String)>, diff_errors: Vec<String>) -> Comparison {
        Comparison {
            failed_to_load: false,
            targets: Vec::new(),
            hooks: Vec::new(),
            diff_errors,
            conditions,
            synced: false,
            health: HealthStatus::Healthy,
            resources: Vec::new(),
            images: Vec::new(),
        }
    }

    fn refusal(result: Result<(), StartError>) -> (&'static str, String) {
        match result {
            Ok(()) => ("", String::new()),
            Err(StartError::Refused(m)) => ("Error", m),
            Err(StartError::Failed(m)) => ("Failed", m),
            Err(StartError::Comparison(m)) => ("Comparison", m),
        }
    }

    /// `SyncAppState` after its comparison: `FailOnSharedResource=true` fails a sync of a
    /// shared resource; ComparisonError and InvalidSpecError conditions refuse it with `Error`,
    /// formatted as `FormatAppConditions` formats them, in the conditions' order.
    #[test]
    fn a_comparison_with_errors_or_a_shared_resource_refuses_the_sync() {
        let shared = "ConfigMap/s1 is part of applications argocd/a and b".to_string();
        let c = compared(vec![("SharedResourceWarning", shared.clone())], Vec::new());
        assert_eq!(
            refusal(refuse_compared(&c, &options(json!([])))),
            ("", String::new())
        );
        assert_eq!(
            refusal(refuse_compared(
                &c,
                &options(json!(["FailOnSharedResource=true"]))
            )),
            ("Failed", format!("Shared resource found: {shared}"))
        );
        let c = compared(
            vec![
                (
                    "InvalidSpecError",
                    "Namespace for b /v1, Kind=ConfigMap is missing.".into(),
                ),
                (
                    "InvalidSpecError",
                    "Namespace for a /v1, Kind=ConfigMap is missing.".into(),
                ),
                (
                    "RepeatedResourceWarning",
                    "Resource /ConfigMap//a appeared 2 times among application resources.".into(),
                ),
            ],
            vec!["ConfigMap/x: bad rule".into()],
        );
        assert_eq!(
            refusal(refuse_compared(&c, &options(json!([])))),
            (
                "Error",
                "ComparisonError: ConfigMap/x: bad rule;InvalidSpecError: Namespace for a /v1, Kind=ConfigMap is missing.;InvalidSpecError: Namespace for b /v1, Kind=ConfigMap is missing.".into()
            )
        );
    }
}
