//! An operation's life in `status.operationState` (docs/sim-behaviour.md §5.2, §5.3, §8.3): started, advanced one
//! engine pass at a time, retried with backoff (the message's time computed with the count
//! before the increment, the real wait with the count after, as Argo CD does), terminated on
//! request, and completed — clearing `.operation`, adding a `history` entry for full syncs.

use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Value, json};

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

/// The new `operationState` of an operation just picked up (no message: it is omitempty).
pub fn started(operation: &Value, now: Timestamp) -> Value {
    json!({"operation": operation, "phase": "Running", "startedAt": rfc3339(now)})
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
    fn kitchen_time_is_gos() {
        let t: Timestamp = "2026-11-30T15:04:05Z".parse().unwrap();
        assert_eq!(kitchen(t), "3:04PM");
    }
}
