//! Automated sync (docs/sim-behaviour.md §5.1) and self-heal (§6.3): whether a refresh starts an operation, the
//! "already attempted" rule with its `SyncError` condition, and self-heal's partial syncs with
//! their backoff (immediate, then 2 s × 3ⁿ⁻¹ capped at 300 s, from the last `finishedAt`).

use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::app::AppView;
use super::compare::Comparison;
use super::operation::{as_go, is_completed};
use crate::clock::parse;
use crate::objects;

pub enum Decision {
    Nothing,
    /// Self-heal must wait this long before it may run.
    Wait(Duration),
    /// The same revision and source failed last time: no new sync.
    SyncError(String),
    /// Start this operation.
    Start {
        operation: Value,
        self_heal: bool,
    },
}

/// `autoSync` for a comparison at `revision`. `may_have_changes` is `revisionsMayHaveChanges`:
/// false when the comparison asked for the revision already shown (`status.sync.revision`, as
/// a managed resource's event does), so nothing can have changed in Git; then whether this
/// revision was already attempted is decided by the source alone, and a drift is healed at
/// the last synced revision's place even when the shown revision is a later commit.
pub fn decide(
    app: &Value,
    comparison: &Comparison,
    revision: &str,
    may_have_changes: bool,
    now: Timestamp,
) -> Decision {
    let view = AppView::new(app);
    if !view.auto_sync()
        || !app["operation"].is_null()
        || objects::is_deleting(app)
        || comparison.synced
    {
        return Decision::Nothing;
    }
    // `requirePruneOnly` reads status.resources: a live hook has no status, and it requires
    // pruning only when its tracking id is its own (not a generateName hook's).
    let only_prunes = comparison
        .resources
        .iter()
        .all(|r| r["status"] == "Synced" || r["requiresPruning"] == Value::Bool(true));
    if only_prunes && !view.auto_prune() {
        return Decision::Nothing;
    }
    let mut sync = json!({
        "revision": revision,
        "prune": view.auto_prune(),
        "source": view.source(),
        "syncOptions": view.sync_options().as_json(),
    });
    let last = &app["status"]["operationState"];
    let (attempted, last_revisions) = already_attempted(app, revision, may_have_changes);
    if attempted {
        if last["phase"] != "Succeeded" {
            let message = last["message"].as_str().unwrap_or_default();
            return Decision::SyncError(format!(
                "Failed last sync attempt to {last_revisions}: {message}"
            ));
        }
        if !view.self_heal() {
            return Decision::Nothing;
        }
        let attempts = last["operation"]["sync"]["autoHealAttemptsCount"]
            .as_i64()
            .unwrap_or(0);
        let wait = self_heal_backoff(attempts);
        if let Some(finished) = last["finishedAt"].as_str().and_then(parse) {
            let due = finished + wait;
            if now < due {
                return Decision::Wait(due.duration_since(now).unsigned_abs());
            }
        }
        // Every resource of `status.resources` not Synced (live hooks have no status), named
        // by group, kind and name only.
        let resources: Vec<Value> = comparison
            .resources
            .iter()
            .filter(|r| r["status"] != "Synced")
            .map(|r| json!({"group": r["group"], "kind": r["kind"], "name": r["name"]}))
            .collect();
        sync["resources"] = json!(resources);
        sync["autoHealAttemptsCount"] = json!(attempts + 1);
    }
    if let Some(refused) = wipe_out_guard(&view, comparison, revision) {
        return refused;
    }
    // Written as the controller's Go struct: `prune: false` and an empty list are left out.
    let operation = as_go(&json!({
        "sync": sync,
        "initiatedBy": {"automated": true},
        "retry": view.retry_for_auto_sync(),
    }));
    Decision::Start {
        operation,
        self_heal: attempted,
    }
}

/// `alreadyAttemptedSync`: the last operation completed at this revision (compared only when
/// it may have changes) and this source, or completed without any result. Also the revisions
/// it attempted, as its SyncError names them (`[<sha>]`, `[]` without a result).
fn already_attempted(app: &Value, revision: &str, may_have_changes: bool) -> (bool, String) {
    let last = &app["status"]["operationState"];
    if last.is_null() {
        return (false, "[]".into());
    }
    let completed = is_completed(last["phase"].as_str().unwrap_or_default());
    let result = &last["syncResult"];
    if result.is_null() {
        return (completed, "[]".into());
    }
    let last_revision = result["revision"].as_str().unwrap_or_default();
    let shown = format!("[{last_revision}]");
    if may_have_changes && last_revision != revision {
        return (false, shown);
    }
    let same_source = result["source"] == *AppView::new(app).source();
    (completed && same_source, shown)
}

/// `allowEmpty` off and every resource requiring pruning: an automated sync that would delete
/// everything is refused with a SyncError, and nothing is pruned.
fn wipe_out_guard(view: &AppView, comparison: &Comparison, revision: &str) -> Option<Decision> {
    let all_need_pruning = comparison
        .resources
        .iter()
        .all(|r| r["requiresPruning"] == Value::Bool(true));
    (view.auto_prune() && !view.allow_empty() && all_need_pruning).then(|| {
        Decision::SyncError(format!(
            "Skipping sync attempt to [{revision}]: auto-sync will wipe out all resources"
        ))
    })
}

/// The wait before self-heal attempt `attempts + 1`: 0, 2 s, 6 s, 18 s, ... capped at 300 s.
pub fn self_heal_backoff(attempts: i64) -> Duration {
    if attempts <= 0 {
        return Duration::ZERO;
    }
    let secs = 2u64.saturating_mul(3u64.saturating_pow((attempts - 1).clamp(0, 20) as u32));
    Duration::from_secs(secs.min(300))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::argocd::compare::Target;
    use crate::argocd::health::HealthStatus;

    const SHA: &str = "3f2a9c1d00aa3f2a9c1d00aa3f2a9c1d00aa3f2a";

    fn source() -> Value {
        json!({"repoURL": "git://gitd/src.git", "targetRevision": "main", "path": "app"})
    }

    /// A self-healing app whose last sync of `SHA` succeeded a minute before `now()`.
    fn app() -> Value {
        json!({
            "metadata": {"name": "heal", "namespace": "argocd"},
            "spec": {"source": source(), "destination": {"namespace": "heal"},
                "syncPolicy": {"automated": {"prune": true, "selfHeal": true}}},
            "status": {"operationState": {"phase": "Succeeded",
                "finishedAt": "2026-11-30T15:03:00Z",
                "operation": {"sync": {"revision": SHA}},
                "syncResult": {"revision": SHA, "source": source()}}}
        })
    }

    fn now() -> Timestamp {
        "2026-11-30T15:04:00Z".parse().unwrap()
    }

    /// A drifted ConfigMap next to a synced Deployment and a live hook Job.
    fn drifted() -> Comparison {
        let cm = &crate::kinds::CONFIG_MAP;
        let target = |ty, name: &str, out_of_sync| Target {
            ty,
            namespace: "heal".into(),
            name: name.into(),
            desired: Some(json!({})),
            live: None,
            wave: 0,
            out_of_sync,
            skip: false,
            self_referenced: true,
        };
        Comparison {
            failed_to_load: false,
            targets: vec![
                target(cm, "settings", true),
                target(&crate::kinds::DEPLOYMENT, "web", false),
            ],
            hooks: Vec::new(),
            diff_errors: Vec::new(),
            conditions: Vec::new(),
            synced: false,
            health: HealthStatus::Healthy,
            resources: vec![
                json!({"group": "apps", "version": "v1", "kind": "Deployment", "namespace": "heal", "name": "web", "status": "Synced"}),
                json!({"group": "batch", "version": "v1", "kind": "Job", "namespace": "heal", "name": "migrate", "hook": true}),
                json!({"version": "v1", "kind": "ConfigMap", "namespace": "heal", "name": "settings", "status": "OutOfSync"}),
            ],
            images: Vec::new(),
        }
    }

    fn started(decision: Decision) -> (Value, bool) {
        match decision {
            Decision::Start {
                operation,
                self_heal,
            } => (operation, self_heal),
            _ => panic!("an operation starts"),
        }
    }

    #[test]
    fn automated_operations_carry_the_apps_source() {
        let mut fresh = app();
        fresh["status"] = json!({});
        let (op, self_heal) = started(decide(&fresh, &drifted(), SHA, true, now()));
        assert!(!self_heal);
        assert_eq!(op["sync"]["source"], source());
        let (healing, self_heal) = started(decide(&app(), &drifted(), SHA, true, now()));
        assert!(self_heal);
        assert_eq!(healing["sync"]["source"], source());
    }

    #[test]
    fn self_heal_lists_every_resource_not_synced_by_group_kind_and_name() {
        let (op, _) = started(decide(&app(), &drifted(), SHA, true, now()));
        assert_eq!(
            op["sync"]["resources"],
            json!([
                {"group": "batch", "kind": "Job", "name": "migrate"},
                {"kind": "ConfigMap", "name": "settings"},
            ]),
            "live hooks count (they have no status); no namespace is written"
        );
        assert_eq!(op["sync"]["autoHealAttemptsCount"], 1);
    }

    const LATER: &str = "9ab0cf3d00aa3f2a9c1d00aa3f2a9c1d00aa3f2a";

    /// Audit 3 M1: a commit that changed nothing of the app moved the shown revision past the
    /// last sync's. A drift then seen by a resource event (no Git change possible) is healed
    /// partially at the shown revision, with no history entry; a comparison that re-resolved
    /// the revision (may have changes) starts a full sync of the new commit instead.
    #[test]
    fn a_drift_after_an_unrelated_commit_is_healed_not_fully_synced() {
        let (op, self_heal) = started(decide(&app(), &drifted(), LATER, false, now()));
        assert!(self_heal, "a self-heal: {op}");
        assert_eq!(op["sync"]["revision"], LATER);
        assert!(op["sync"]["resources"].is_array(), "partial: {op}");
        let (op, self_heal) = started(decide(&app(), &drifted(), LATER, true, now()));
        assert!(!self_heal);
        assert!(op["sync"].get("resources").is_none(), "a full sync: {op}");
        assert!(op["sync"].get("autoHealAttemptsCount").is_none());
    }

    /// The SyncError names the revision last attempted, which a comparison without changes
    /// may not be showing; a completed operation without any result counts as attempted.
    #[test]
    fn an_attempt_that_failed_is_named_by_its_own_revision() {
        let mut failed = app();
        failed["status"]["operationState"]["phase"] = json!("Failed");
        failed["status"]["operationState"]["message"] = json!("boom");
        match decide(&failed, &drifted(), LATER, false, now()) {
            Decision::SyncError(m) => {
                assert_eq!(m, format!("Failed last sync attempt to [{SHA}]: boom"))
            }
            _ => panic!("no new sync after a failed attempt"),
        }
        let mut no_result = failed.clone();
        no_result["status"]["operationState"]["syncResult"] = Value::Null;
        match decide(&no_result, &drifted(), LATER, true, now()) {
            Decision::SyncError(m) => assert_eq!(m, "Failed last sync attempt to []: boom"),
            _ => panic!("a completed operation without a result counts as attempted"),
        }
    }

    /// Audit 3 L7: the operation is the controller's Go struct: `prune: false` and an empty
    /// `syncOptions` are not written, `retry` is.
    #[test]
    fn an_automated_operation_without_prune_has_no_prune_key() {
        let mut fresh = app();
        fresh["status"] = json!({});
        fresh["spec"]["syncPolicy"]["automated"] = json!({});
        let (op, _) = started(decide(&fresh, &drifted(), SHA, true, now()));
        assert_eq!(
            op,
            json!({"sync": {"revision": SHA, "source": source()},
                "initiatedBy": {"automated": true}, "retry": {"limit": 5}})
        );
    }

    #[test]
    fn self_heal_backs_off_by_threes_from_two_seconds() {
        let waits: Vec<u64> = (0..8).map(|n| self_heal_backoff(n).as_secs()).collect();
        assert_eq!(waits, [0, 2, 6, 18, 54, 162, 300, 300]);
    }
}
