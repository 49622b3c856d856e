//! An operation's life in `status.operationState` (docs/sim-behaviour.md §5.2, §5.3, §8.3): started, advanced one
//! engine pass at a time, retried with backoff (the message's time computed with the count
//! before the increment, the real wait with the count after, as Argo CD does), terminated on
//! request, and completed — clearing `.operation`, adding a `history` entry for full syncs.

use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Map, Value, json};

use super::sync::{Outcome, Run};
use crate::clock::{parse, rfc3339};

/// What the caller must do after a step.
pub enum Step {
    /// Nothing is running.
    Idle,
    /// Look again after this long, asking for this much of a refresh.
    Wait(Duration, super::compare::Level),
    /// The operation finished (the status is written); compare again: from the refs cache
    /// after an automated operation, listing the refs afresh after a manual one.
    Completed {
        /// Whether the operation was initiated by automated sync.
        automated: bool,
    },
}

pub fn is_completed(phase: &str) -> bool {
    matches!(phase, "Succeeded" | "Failed" | "Error")
}

/// The retry strategy an operation carries (`retry.limit`, `retry.backoff`).
pub struct Retry {
    pub limit: i64,
    duration: Duration,
    factor: u32,
    max: Duration,
}

impl Retry {
    pub fn from(op: &Value) -> Retry {
        let r = &op["retry"];
        let b = &r["backoff"];
        Retry {
            limit: r["limit"].as_i64().unwrap_or(0),
            duration: parse_duration(&b["duration"]).unwrap_or(Duration::from_secs(5)),
            factor: b["factor"].as_u64().map_or(2, |f| f.max(1) as u32),
            max: parse_duration(&b["maxDuration"]).unwrap_or(Duration::from_secs(180)),
        }
    }

    /// `duration × factor^n`, capped at `maxDuration`.
    pub fn backoff(&self, n: i64) -> Duration {
        let factor = self.factor.saturating_pow(n.clamp(0, 30) as u32);
        self.duration.saturating_mul(factor).min(self.max)
    }
}

/// "5s", "2m", "3m0s", "1h", or a number of seconds.
pub fn parse_duration(v: &Value) -> Option<Duration> {
    if let Some(n) = v.as_u64() {
        return Some(Duration::from_secs(n));
    }
    let s = v.as_str()?.trim();
    if let Ok(n) = s.parse::<u64>() {
        return Some(Duration::from_secs(n));
    }
    let mut total = 0u64;
    let mut number = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let n: u64 = number.parse().ok()?;
        number.clear();
        total += n * match c {
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return None,
        };
    }
    number.is_empty().then_some(Duration::from_secs(total))
}

/// Go's `time.Kitchen` ("3:04PM").
pub fn kitchen(t: Timestamp) -> String {
    t.strftime("%-I:%M%p").to_string()
}

/// The source an attempt of this operation syncs (`newSyncOperationResult`): the operation's
/// own `sync.source` (automated sync records it), else the app's `spec.source` as it is now.
pub fn sync_source(state: &Value, app: &Value) -> Value {
    match &state["operation"]["sync"]["source"] {
        Value::Object(_) => state["operation"]["sync"]["source"].clone(),
        _ => app["spec"]["source"].clone(),
    }
}

/// The new `operationState` of an operation just picked up (no message: it is omitempty). Its
/// `operation` is the controller's Go struct written back, not the object as stored.
pub fn started(operation: &Value, now: Timestamp) -> Value {
    json!({"operation": as_go(operation), "phase": "Running", "startedAt": rfc3339(now)})
}

/// An `Operation` as Go's `encoding/json` writes the controller's struct: unknown fields gone,
/// `omitempty` fields left out when empty, while the structs `initiatedBy` and `retry` are
/// always there (`omitempty` does not omit a struct: an operation written without a retry
/// shows `retry: {}`).
pub fn as_go(op: &Value) -> Value {
    let mut out = Map::new();
    if op["sync"].is_object() {
        out.insert("sync".into(), go_sync(&op["sync"]));
    }
    let by = &op["initiatedBy"];
    let mut initiated = Map::new();
    copy_if(&mut initiated, by, "username", non_empty_string);
    copy_if(&mut initiated, by, "automated", is_true);
    out.insert("initiatedBy".into(), Value::Object(initiated));
    copy_if(&mut out, op, "info", non_empty_array);
    let r = &op["retry"];
    let mut retry = Map::new();
    copy_if(&mut retry, r, "limit", non_zero);
    if r["backoff"].is_object() {
        let b = &r["backoff"];
        let mut backoff = Map::new();
        copy_if(&mut backoff, b, "duration", non_empty_string);
        copy_if(&mut backoff, b, "factor", |v| !v.is_null());
        copy_if(&mut backoff, b, "maxDuration", non_empty_string);
        retry.insert("backoff".into(), Value::Object(backoff));
    }
    copy_if(&mut retry, r, "refresh", is_true);
    out.insert("retry".into(), Value::Object(retry));
    Value::Object(out)
}

/// A `SyncOperation` as Go writes it: every field is `omitempty`.
fn go_sync(sync: &Value) -> Value {
    let mut out = Map::new();
    copy_if(&mut out, sync, "revision", non_empty_string);
    copy_if(&mut out, sync, "prune", is_true);
    copy_if(&mut out, sync, "dryRun", is_true);
    if sync["syncStrategy"].is_object() {
        // `{apply?: {force?}, hook?: {force?}}`: pointers to structs of one omitempty bool.
        let mut strategy = Map::new();
        for kind in ["apply", "hook"] {
            if sync["syncStrategy"][kind].is_object() {
                let mut s = Map::new();
                copy_if(&mut s, &sync["syncStrategy"][kind], "force", is_true);
                strategy.insert(kind.into(), Value::Object(s));
            }
        }
        out.insert("syncStrategy".into(), Value::Object(strategy));
    }
    if let Some(list) = sync["resources"].as_array().filter(|l| !l.is_empty()) {
        let resources = list
            .iter()
            .map(|r| {
                let mut res = Map::new();
                copy_if(&mut res, r, "group", non_empty_string);
                res.insert("kind".into(), json!(r["kind"].as_str().unwrap_or_default()));
                res.insert("name".into(), json!(r["name"].as_str().unwrap_or_default()));
                copy_if(&mut res, r, "namespace", non_empty_string);
                Value::Object(res)
            })
            .collect();
        out.insert("resources".into(), Value::Array(resources));
    }
    copy_if(&mut out, sync, "source", Value::is_object);
    for list in ["manifests", "syncOptions", "sources", "revisions"] {
        copy_if(&mut out, sync, list, non_empty_array);
    }
    copy_if(&mut out, sync, "autoHealAttemptsCount", non_zero);
    Value::Object(out)
}

fn copy_if(out: &mut Map<String, Value>, from: &Value, key: &str, keep: impl Fn(&Value) -> bool) {
    if let Some(v) = from.get(key).filter(|v| keep(v)) {
        out.insert(key.into(), v.clone());
    }
}

fn non_empty_string(v: &Value) -> bool {
    v.as_str().is_some_and(|s| !s.is_empty())
}

fn non_empty_array(v: &Value) -> bool {
    v.as_array().is_some_and(|a| !a.is_empty())
}

fn is_true(v: &Value) -> bool {
    *v == Value::Bool(true)
}

fn non_zero(v: &Value) -> bool {
    v.as_i64().is_some_and(|n| n != 0)
}

/// A failed attempt waiting for its retry: when it may run again.
pub fn retry_due(state: &Value, retry: &Retry) -> Option<Timestamp> {
    let finished = state["finishedAt"].as_str().and_then(parse)?;
    let count = state["retryCount"].as_i64().unwrap_or(0);
    Some(finished + retry.backoff(count))
}

/// What becomes of the operation after an engine pass.
#[derive(Debug)]
pub enum Next {
    /// Nothing to write (the engine is inside a wave delay); look again after this long.
    Wait(Duration),
    /// Write this state; look again after this long.
    Write(Value, Duration),
    /// The operation is completed with this state.
    Done(Value),
}

/// The state after the engine's outcome.
pub fn after_pass(
    mut state: Value,
    outcome: Outcome,
    run: &Run,
    retry: &Retry,
    now: Timestamp,
) -> Next {
    if let Outcome::Paused { wait } = outcome {
        return Next::Wait(wait);
    }
    let resources = run.result_resources();
    state["syncResult"] = json!({"revision": run.revision, "source": run.source});
    if !resources.is_empty() {
        state["syncResult"]["resources"] = json!(resources);
    }
    if let Some(metadata) = &run.namespace_metadata {
        // A struct of two omitempty maps: empty ones are not written.
        let mut recorded = Map::new();
        for key in ["labels", "annotations"] {
            if let Some(m) = metadata[key].as_object().filter(|m| !m.is_empty()) {
                recorded.insert(key.into(), Value::Object(m.clone()));
            }
        }
        state["syncResult"]["managedNamespaceMetadata"] = Value::Object(recorded);
    }
    match outcome {
        Outcome::Paused { wait } => Next::Wait(wait),
        Outcome::Running { message, wait } => {
            set_message(&mut state, &message);
            Next::Write(state, wait)
        }
        Outcome::Succeeded { message } => Next::Done(complete(state, "Succeeded", &message, now)),
        Outcome::Failed { message } => attempt_failed(state, "Failed", &message, retry, now),
    }
}

/// An attempt that ended `Failed` or `Error` (`processRequestedAppOperation`): while retries
/// remain the phase goes back to `Running` with `finishedAt` set and the retry's time in the
/// message — computed with the count before the increment, while the real wait uses the count
/// after it, as upstream does — else the operation completes, saying how often it retried.
pub fn attempt_failed(
    mut state: Value,
    phase: &str,
    message: &str,
    retry: &Retry,
    now: Timestamp,
) -> Next {
    let count = state["retryCount"].as_i64().unwrap_or(0);
    if retry.limit < 0 || count < retry.limit {
        let shown = now + retry.backoff(count);
        let next = count + 1;
        state["retryCount"] = json!(next);
        state["phase"] = json!("Running");
        state["finishedAt"] = json!(rfc3339(now));
        state["message"] = json!(format!(
            "{message}. Retrying attempt #{next} at {}.",
            kitchen(shown)
        ));
        return Next::Write(state, retry.backoff(next));
    }
    Next::Done(complete(state, phase, &with_retries(message, count), now))
}

/// A terminated operation: `Failed`, `Operation terminated` (`Error`, `Operation termination
/// had errors` when hooks could not be handled). No retry follows, yet a count of earlier
/// retries is still told.
pub fn terminated(state: Value, clean: bool, now: Timestamp) -> Value {
    let (phase, message) = if clean {
        ("Failed", "Operation terminated")
    } else {
        ("Error", "Operation termination had errors")
    };
    let count = state["retryCount"].as_i64().unwrap_or(0);
    complete(state, phase, &with_retries(message, count), now)
}

fn with_retries(message: &str, count: i64) -> String {
    if count > 0 {
        format!("{message} (retried {count} times).")
    } else {
        message.to_string()
    }
}

/// Sets `message`, leaving it out when empty (it is omitempty).
fn set_message(state: &mut Value, message: &str) {
    if message.is_empty() {
        if let Some(o) = state.as_object_mut() {
            o.remove("message");
        }
    } else {
        state["message"] = json!(message);
    }
}

/// Marks a retry as begun: `Retrying operation. Attempt #N`, no `finishedAt`, no result yet.
pub fn retrying(mut state: Value) -> Value {
    let n = state["retryCount"].as_i64().unwrap_or(0);
    let refresh = state["operation"]["retry"]["refresh"] == Value::Bool(true);
    state["message"] = json!(if refresh {
        format!("Retrying operation with latest revisions. Attempt #{n}")
    } else {
        format!("Retrying operation. Attempt #{n}")
    });
    if let Some(o) = state.as_object_mut() {
        o.remove("finishedAt");
        o.remove("syncResult");
    }
    state
}

/// The state an attempt starts from (`SyncAppState`). Resumed, it syncs the commit its result
/// already names. A retry of an operation with `retry.refresh` (no result yet) syncs the latest
/// revision: `sync.revision` and `revisions` are cleared for the attempt, so the target
/// revision is resolved afresh. The stored operation keeps them, as 3.5's merge patch of the
/// state cannot remove an emptied `omitempty` field.
pub fn attempt(state: &Value) -> Value {
    let mut attempt = state.clone();
    let result = &state["syncResult"];
    if let Some(revision) = result["revision"].as_str().filter(|r| !r.is_empty()) {
        attempt["operation"]["sync"]["revision"] = json!(revision);
    } else if result.is_null()
        && state["retryCount"].as_i64().unwrap_or(0) > 0
        && state["operation"]["retry"]["refresh"] == Value::Bool(true)
        && let Some(sync) = attempt["operation"]["sync"].as_object_mut()
    {
        sync.remove("revision");
        sync.remove("revisions");
    }
    attempt
}

pub fn complete(mut state: Value, phase: &str, message: &str, now: Timestamp) -> Value {
    state["phase"] = json!(phase);
    set_message(&mut state, message);
    state["finishedAt"] = json!(rfc3339(now));
    state
}

/// `status.history` with this successful full sync added (at most `limit` entries kept).
pub fn history_with(app: &Value, state: &Value, limit: usize) -> Value {
    let mut history: Vec<Value> = app["status"]["history"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let id = history
        .iter()
        .filter_map(|h| h["id"].as_i64())
        .max()
        .map_or(0, |m| m + 1);
    history.push(json!({
        "id": id,
        "revision": state["syncResult"]["revision"],
        "deployedAt": state["finishedAt"],
        "deployStartedAt": state["startedAt"],
        "source": state["syncResult"]["source"],
        "initiatedBy": state["operation"]["initiatedBy"],
    }));
    let drop = history.len().saturating_sub(limit);
    Value::Array(history.split_off(drop))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_retry_backs_off_from_five_seconds_doubling_to_three_minutes() {
        let r = Retry::from(&json!({"retry": {"limit": 5}}));
        let waits: Vec<u64> = (0..8).map(|n| r.backoff(n).as_secs()).collect();
        assert_eq!(waits, [5, 10, 20, 40, 80, 160, 180, 180]);
        assert_eq!(r.limit, 5);
    }

    #[test]
    fn durations_parse_in_argo_cds_forms() {
        assert_eq!(parse_duration(&json!("5s")), Some(Duration::from_secs(5)));
        assert_eq!(
            parse_duration(&json!("3m0s")),
            Some(Duration::from_secs(180))
        );
        assert_eq!(parse_duration(&json!(7)), Some(Duration::from_secs(7)));
        assert_eq!(parse_duration(&json!("soon")), None);
    }

    #[test]
    fn an_operation_starts_without_a_message() {
        let now: Timestamp = "2026-11-30T15:04:05Z".parse().unwrap();
        let state = started(&json!({"sync": {"revision": "abc"}}), now);
        assert_eq!(state["phase"], "Running");
        assert_eq!(state["startedAt"], "2026-11-30T15:04:05Z");
        assert!(
            state.get("message").is_none(),
            "an empty message is omitted (omitempty): {state}"
        );
    }

    fn at(t: &str) -> Timestamp {
        t.parse().unwrap()
    }

    fn write(next: Next) -> (Value, Duration) {
        match next {
            Next::Write(state, wait) => (state, wait),
            other => panic!("expected a write, got {other:?}"),
        }
    }

    fn done(next: Next) -> Value {
        match next {
            Next::Done(state) => state,
            other => panic!("expected a completed operation, got {other:?}"),
        }
    }

    #[test]
    fn the_retry_message_tells_the_backoff_before_the_increment_while_the_wait_is_after_it() {
        let retry = Retry::from(&json!({"retry": {"limit": 5}}));
        let state = json!({"phase": "Running", "startedAt": "2026-11-30T15:04:00Z"});
        let (state, wait) = write(attempt_failed(
            state,
            "Failed",
            "boom",
            &retry,
            at("2026-11-30T15:04:52Z"),
        ));
        // 15:04:52 + 5 s is still 3:04PM; the real wait is 10 s (15:05:02).
        assert_eq!(state["message"], "boom. Retrying attempt #1 at 3:04PM.");
        assert_eq!(wait, Duration::from_secs(10));
        assert_eq!(retry_due(&state, &retry), Some(at("2026-11-30T15:05:02Z")));
    }

    #[test]
    fn an_error_is_retried_like_a_failure_and_keeps_its_phase_at_the_end() {
        let retry = Retry::from(&json!({"retry": {"limit": 1}}));
        let now = at("2026-11-30T15:04:00Z");
        let state = json!({"phase": "Running"});
        let (state, _) = write(attempt_failed(
            state,
            "Error",
            "ComparisonError: x",
            &retry,
            now,
        ));
        assert_eq!(state["phase"], "Running");
        assert_eq!(state["retryCount"], 1);
        let state = done(attempt_failed(
            state,
            "Error",
            "ComparisonError: x",
            &retry,
            now,
        ));
        assert_eq!(state["phase"], "Error");
        assert_eq!(state["message"], "ComparisonError: x (retried 1 times).");
    }

    #[test]
    fn a_terminated_operation_still_tells_its_retries() {
        let now = at("2026-11-30T15:04:00Z");
        let state = terminated(json!({"phase": "Terminating", "retryCount": 1}), true, now);
        assert_eq!(
            (state["phase"].as_str(), state["message"].as_str()),
            (
                Some("Failed"),
                Some("Operation terminated (retried 1 times).")
            )
        );
        let state = terminated(json!({"phase": "Terminating"}), true, now);
        assert_eq!(state["message"], "Operation terminated");
        let state = terminated(json!({"phase": "Terminating"}), false, now);
        assert_eq!(
            (state["phase"].as_str(), state["message"].as_str()),
            (Some("Error"), Some("Operation termination had errors"))
        );
    }

    #[test]
    fn the_operation_state_holds_the_operation_as_go_writes_it() {
        let now: Timestamp = "2026-11-30T15:04:05Z".parse().unwrap();
        let by_hand = json!({"initiatedBy": {"username": "learner"}, "sync": {"revision": "main"}});
        assert_eq!(
            started(&by_hand, now)["operation"],
            json!({"sync": {"revision": "main"}, "initiatedBy": {"username": "learner"}, "retry": {}}),
            "retry is a struct: written even when the operation has none"
        );
        let odd = json!({"sync": {"prune": false, "revision": "", "syncOptions": [], "resources": [{"kind": "ConfigMap", "name": "a", "group": ""}], "autoHealAttemptsCount": 0, "bogus": 1,
                "syncStrategy": {"apply": {"force": false}}},
            "retry": {"limit": 0, "refresh": false, "backoff": {"duration": "5s"}}, "extra": true});
        assert_eq!(
            as_go(&odd),
            json!({"sync": {"syncStrategy": {"apply": {}}, "resources": [{"kind": "ConfigMap", "name": "a"}]}, "initiatedBy": {},
                "retry": {"backoff": {"duration": "5s"}}})
        );
    }

    /// Audit 3 M2: a retry with `retry.refresh` resolves the target revision afresh (and picks
    /// up a fix pushed meanwhile); without it, or once resumed, the attempt keeps its commit.
    #[test]
    fn a_refresh_retry_syncs_the_latest_revision() {
        let op = json!({"sync": {"revision": "aaaaaaa"}, "retry": {"limit": 2, "refresh": true}});
        let first = json!({"operation": op, "phase": "Running", "startedAt": "x"});
        assert_eq!(attempt(&first)["operation"]["sync"]["revision"], "aaaaaaa");
        let mut retry = first.clone();
        retry["retryCount"] = json!(1);
        let retry = retrying(retry);
        assert_eq!(
            retry["message"],
            "Retrying operation with latest revisions. Attempt #1"
        );
        assert!(
            attempt(&retry)["operation"]["sync"]
                .get("revision")
                .is_none()
        );
        assert_eq!(
            retry["operation"]["sync"]["revision"], "aaaaaaa",
            "the stored operation keeps it"
        );
        let mut resumed = retry.clone();
        resumed["syncResult"] = json!({"revision": "bbbbbbb"});
        assert_eq!(
            attempt(&resumed)["operation"]["sync"]["revision"],
            "bbbbbbb"
        );
        let mut plain = first.clone();
        plain["operation"]["retry"]["refresh"] = json!(false);
        plain["retryCount"] = json!(1);
        let plain = retrying(plain);
        assert_eq!(attempt(&plain)["operation"]["sync"]["revision"], "aaaaaaa");
    }

    #[test]
    fn kitchen_time_is_gos() {
        let t: Timestamp = "2026-11-30T15:04:05Z".parse().unwrap();
        assert_eq!(kitchen(t), "3:04PM");
    }
}
