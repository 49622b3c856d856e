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
    /// Look again after this long.
    Wait(Duration),
    /// The operation finished (the status is written); compare again with the latest revision.
    Completed,
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

/// The new `operationState` of an operation just picked up.
pub fn started(operation: &Value, now: Timestamp) -> Value {
    json!({"operation": operation, "phase": "Running", "message": "", "startedAt": rfc3339(now)})
}

/// A failed attempt waiting for its retry: when it may run again.
pub fn retry_due(state: &Value, retry: &Retry) -> Option<Timestamp> {
    let finished = state["finishedAt"].as_str().and_then(parse)?;
    let count = state["retryCount"].as_i64().unwrap_or(0);
    Some(finished + retry.backoff(count))
}

/// The state after the engine's outcome; `Err` carries a completed state.
pub fn after_pass(
    mut state: Value,
    outcome: Outcome,
    run: &Run,
    source: &Value,
    retry: &Retry,
    now: Timestamp,
) -> Result<(Value, Duration), Value> {
    state["syncResult"] =
        json!({"revision": run.revision, "source": source, "resources": run.result_resources()});
    match outcome {
        Outcome::Running { message, wait } => {
            state["message"] = json!(message);
            Ok((state, wait))
        }
        Outcome::Succeeded { message } => Err(complete(state, "Succeeded", &message, now)),
        Outcome::Failed { message } => {
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
                return Ok((state, retry.backoff(next)));
            }
            let message = if count > 0 {
                format!("{message} (retried {count} times).")
            } else {
                message
            };
            Err(complete(state, "Failed", &message, now))
        }
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
    state["message"] = json!(message);
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
    fn kitchen_time_is_gos() {
        let t: Timestamp = "2026-11-30T15:04:05Z".parse().unwrap();
        assert_eq!(kitchen(t), "3:04PM");
    }
}
