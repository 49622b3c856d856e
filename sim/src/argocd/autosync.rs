//! Automated sync (docs/sim-behaviour.md §5.1) and self-heal (§6.3): whether a refresh starts an operation, the
//! "already attempted" rule with its `SyncError` condition, and self-heal's partial syncs with
//! their backoff (immediate, then 2 s × 3ⁿ⁻¹ capped at 300 s, from the last `finishedAt`).

use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::app::AppView;
use super::compare::Comparison;
use super::operation::is_completed;
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

pub fn decide(app: &Value, comparison: &Comparison, revision: &str, now: Timestamp) -> Decision {
    let view = AppView::new(app);
    if !view.auto_sync()
        || !app["operation"].is_null()
        || objects::is_deleting(app)
        || comparison.synced
    {
        return Decision::Nothing;
    }
    let only_prunes = comparison
        .targets
        .iter()
        .filter(|t| t.out_of_sync)
        .all(|t| t.desired.is_none());
    if only_prunes && !view.auto_prune() {
        return Decision::Nothing;
    }
    let last = &app["status"]["operationState"];
    let attempted = is_completed(last["phase"].as_str().unwrap_or_default())
        && last["syncResult"]["revision"] == revision
        && last["syncResult"]["source"] == *view.source();
    let base = json!({
        "revision": revision,
        "prune": view.auto_prune(),
        "syncOptions": view.sync_options(),
    });
    let mut operation = json!({"sync": base, "initiatedBy": {"automated": true}, "retry": view.retry_for_auto_sync()});
    if view.sync_options().is_empty()
        && let Some(o) = operation["sync"].as_object_mut()
    {
        o.remove("syncOptions");
    }
    if !attempted {
        return Decision::Start {
            operation,
            self_heal: false,
        };
    }
    if last["phase"] != "Succeeded" {
        let message = last["message"].as_str().unwrap_or_default();
        return Decision::SyncError(format!(
            "Failed last sync attempt to [{revision}]: {message}"
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
    let resources: Vec<Value> = comparison
        .targets
        .iter()
        .filter(|t| t.out_of_sync)
        .map(|t| {
            let mut r = json!({"kind": t.ty.kind, "name": t.name});
            if !t.ty.group.is_empty() {
                r["group"] = json!(t.ty.group);
            }
            if !t.namespace.is_empty() {
                r["namespace"] = json!(t.namespace);
            }
            r
        })
        .collect();
    operation["sync"]["resources"] = json!(resources);
    operation["sync"]["autoHealAttemptsCount"] = json!(attempts + 1);
    Decision::Start {
        operation,
        self_heal: true,
    }
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

    #[test]
    fn self_heal_backs_off_by_threes_from_two_seconds() {
        let waits: Vec<u64> = (0..8).map(|n| self_heal_backoff(n).as_secs()).collect();
        assert_eq!(waits, [0, 2, 6, 18, 54, 162, 300, 300]);
    }
}
