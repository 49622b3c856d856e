//! What a refresh writes to an Application's status (docs/sim-behaviour.md §8): sync, health, resources, summary,
//! conditions, and the automated-sync decision with its SyncError condition.

use jiff::Timestamp;
use serde_json::{Value, json};

use super::{APP_MANAGER, Controller, Level};
use crate::argocd::app::{AppView, REFRESH};
use crate::argocd::autosync::{self, Decision};
use crate::argocd::bootstrap::NAMESPACE;
use crate::argocd::compare::Comparison;
use crate::clock::rfc3339;
use crate::controllers::record_event;
use crate::objects;

impl Controller {
    /// Writes what the refresh found (docs/sim-behaviour.md §8): sync, health, resources, summary, conditions.
    pub(super) fn write_comparison(
        &mut self,
        app: &Value,
        revision: Option<&str>,
        comparison: &Comparison,
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
        let sync_status = match (comparison.failed_to_load, error, comparison.synced) {
            (false, None, true) => "Synced",
            (false, None, false) => "OutOfSync",
            _ => "Unknown",
        };
        status["sync"] = json!({"status": sync_status, "comparedTo": compared_to});
        if let Some(rev) = revision {
            status["sync"]["revision"] = json!(rev);
        }
        let c = comparison;
        let health = c.health.as_str();
        let since = if old["health"]["status"] == health {
            old["health"]["lastTransitionTime"].clone()
        } else {
            json!(now)
        };
        status["health"] = json!({"status": health, "lastTransitionTime": since});
        // `resources` is omitempty: an app with nothing to show has no list at all.
        if !c.resources.is_empty() {
            status["resources"] = json!(c.resources);
        }
        status["summary"] = if c.images.is_empty() {
            json!({})
        } else {
            json!({"images": c.images})
        };
        if let Some(t) = mem.source_type {
            status["sourceType"] = json!(t);
        }
        status["resourceHealthSource"] = json!("appTree");
        status["controllerNamespace"] = json!(NAMESPACE);
        // A struct field, not a pointer: Go's omitempty never drops it, so an app without a
        // hydrator still carries `sourceHydrator: {}` (survey 4; the real lab shows it).
        if status["sourceHydrator"].is_null() {
            status["sourceHydrator"] = json!({});
        }
        status["reconciledAt"] = if level >= Level::Latest || old["reconciledAt"].is_null() {
            json!(now)
        } else {
            old["reconciledAt"].clone()
        };
        let mut wanted: Vec<(&str, String)> = Vec::new();
        if let Some(e) = error {
            wanted.push(("ComparisonError", e.to_string()));
        }
        if !c.diff_errors.is_empty() {
            wanted.push(("ComparisonError", c.diff_errors.join("; ")));
        }
        wanted.extend(c.conditions.iter().map(|(t, m)| (*t, m.clone())));
        if let Some(e) = &mem.sync_error {
            wanted.push(("SyncError", e.clone()));
        }
        status["conditions"] = conditions(old, &wanted, &now);
        let mut patch = json!({"status": status_patch(old, &status)});
        if view.refresh_requested().is_some() {
            patch["metadata"] = json!({"annotations": {REFRESH: null}});
        }
        self.events_for_changes(app, old, &status);
        let _ = self.patch_app(view.name(), &patch);
    }
    /// An invalid spec (`refreshAppConditions` found errors): sync and health `Unknown`, the
    /// InvalidSpecError conditions in place of earlier ones of that type; the rest of the status
    /// is left as it was, as `persistReconciliationStatus` leaves it.
    pub(super) fn write_invalid_spec(&mut self, app: &Value, errors: &[String]) {
        let view = AppView::new(app);
        let now = self.env.store.clock.now_rfc3339();
        let old = &app["status"];
        let mut wanted: Vec<(&str, String)> = old["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| {
                !matches!(
                    c["type"].as_str(),
                    Some("InvalidSpecError" | "UnknownError")
                )
            })
            .filter_map(|c| Some((c["type"].as_str()?, c["message"].as_str()?.to_string())))
            .collect();
        wanted.extend(errors.iter().map(|e| ("InvalidSpecError", e.clone())));
        let mut status = json!({
            "sync": {"status": "Unknown"},
            "health": {"status": "Unknown"},
            "conditions": conditions(old, &wanted, &now),
        });
        if old["health"]["status"] != "Unknown" {
            status["health"]["lastTransitionTime"] = json!(now);
        }
        let mut patch = json!({"status": status});
        if view.refresh_requested().is_some() {
            patch["metadata"] = json!({"annotations": {REFRESH: null}});
        }
        self.events_for_changes(app, old, &patch["status"]);
        let _ = self.patch_app(view.name(), &patch);
    }

    pub(super) fn events_for_changes(&self, app: &Value, old: &Value, new: &Value) {
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
    pub(super) fn auto_sync(
        &mut self,
        app: &Value,
        comparison: &Comparison,
        revision: &str,
        may_have_changes: bool,
        now: Timestamp,
    ) {
        let name = objects::name(app).to_string();
        let decision = autosync::decide(app, comparison, revision, may_have_changes, now);
        let sync_error = match &decision {
            Decision::SyncError(m) => Some(m.clone()),
            _ => None,
        };
        let changed_error =
            self.apps.get(&name).map(|m| m.sync_error.clone()) != Some(sync_error.clone());
        self.apps.entry(name.clone()).or_default().sync_error = sync_error.clone();
        log_decision(&self.env, app, &decision, revision, comparison.synced);
        match decision {
            Decision::Start {
                operation,
                self_heal,
            } => {
                let patch = json!({"operation": operation, "status": {"operationState": null}});
                tracing::debug!(app = %name, self_heal, "initiating automated sync");
                // A self-heal is announced as any automated sync is.
                if self.patch_app(&name, &patch).is_ok() {
                    record_event(
                        &self.env,
                        app,
                        false,
                        "OperationStarted",
                        &format!("Initiated automated sync to '{revision}'"),
                        APP_MANAGER,
                    );
                }
            }
            Decision::Wait(d) => self.schedule(&name, d, Level::Latest),
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
            let _ = self.patch_app(&name, &patch);
        }
    }
}

/// What `autoSync` logs about its decision.
fn log_decision(
    env: &crate::controllers::Env,
    app: &Value,
    decision: &Decision,
    revision: &str,
    synced: bool,
) {
    use crate::argocd::ctrllog;
    match decision {
        Decision::Start { .. } => ctrllog::info(
            env,
            app,
            &format!("Initiated automated sync to '{revision}'"),
        ),
        Decision::SyncError(message) => {
            ctrllog::write(env, Some(app), ctrllog::Level::Warn, message, &[])
        }
        Decision::Nothing if synced => {
            ctrllog::info(env, app, "Skipping auto-sync: application status is Synced")
        }
        Decision::Nothing | Decision::Wait(_) => {}
    }
}

/// The conditions list: each wanted (type, message), keeping `lastTransitionTime` of one that
/// was already there unchanged, sorted by type and message as `SetConditions` sorts them;
/// `null` when there are none (the field is omitted).
fn conditions(old_status: &Value, wanted: &[(&str, String)], now: &str) -> Value {
    if wanted.is_empty() {
        return Value::Null;
    }
    let mut wanted = wanted.to_vec();
    wanted.sort_by_key(|(t, m)| format!("{t}/{m}"));
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

/// `new` as a merge patch that replaces `old` whole: every key `old` has and `new` dropped
/// becomes `null`, at every depth (a merge patch merges nested maps: a new operation written
/// over an old one would otherwise keep the old one's `retry` and `initiatedBy.automated`).
pub(super) fn replacing(old: &Value, new: &Value) -> Value {
    let mut patch = new.clone();
    if let (Some(o), Some(p)) = (old.as_object(), patch.as_object_mut()) {
        for (k, old_value) in o {
            match p.get_mut(k) {
                None => {
                    p.insert(k.clone(), Value::Null);
                }
                Some(new_value) => {
                    if old_value.is_object() && new_value.is_object() {
                        *new_value = replacing(old_value, new_value);
                    }
                }
            }
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
