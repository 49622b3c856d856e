//! The Job controller: runs a Pod from the template, replaces failed ones with the real
//! exponential backoff (10 s doubling, capped at 6 min) until `backoffLimit` is reached, and
//! reports status and conditions as Kubernetes 1.35 does (`SuccessCriteriaMet` + `Complete`,
//! or `FailureTarget` + `Failed` with reason `BackoffLimitExceeded`). Honours
//! `ttlSecondsAfterFinished`.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::replicaset::{is_ready, status_patch};
use super::{Condition, Env, MANAGER, events, owned, owner_key, set_condition};
use crate::objects;
use crate::ops::{self, Actor, DeleteOptions, Part, Propagation};
use crate::store::{Event, Key};

pub struct Jobs;

const BACKOFF_BASE: Duration = Duration::from_secs(10);
const BACKOFF_CAP: Duration = Duration::from_secs(360);

impl Controller for Jobs {
    fn keys_for(&self, _env: &Env, event: &Event) -> Vec<Key> {
        match event.key.ty().kind {
            "Job" => vec![event.key.clone()],
            "Pod" => owner_key(&event.object, &crate::kinds::JOB)
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        let job = &crate::kinds::JOB;
        env.store
            .list(job, None)
            .0
            .iter()
            .map(|o| Key::new(job, objects::namespace(o), objects::name(o)))
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(job) = env.store.get(key) else {
            return Next::Done;
        };
        if objects::is_deleting(&job) {
            return Next::Done;
        }
        let now = env.store.clock.now();
        let now_s = env.store.clock.now_rfc3339();
        if let Some(finished) = finished_at(&job) {
            return expire(env, &job, finished, now);
        }
        let pod_ty = &crate::kinds::POD;
        let pods = owned(env, pod_ty, &key.namespace, objects::uid(&job));
        let phase = |p: &Value| {
            p["status"]["phase"]
                .as_str()
                .unwrap_or("Pending")
                .to_string()
        };
        let succeeded = pods.iter().filter(|p| phase(p) == "Succeeded").count();
        let failed = pods.iter().filter(|p| phase(p) == "Failed").count();
        let active: Vec<_> = pods
            .iter()
            .filter(|p| !matches!(phase(p).as_str(), "Succeeded" | "Failed"))
            .collect();
        let completions = job["spec"]["completions"].as_u64().unwrap_or(1) as usize;
        let backoff_limit = job["spec"]["backoffLimit"].as_u64().unwrap_or(6) as usize;
        let mut status = job["status"].clone();
        if !status.is_object() {
            status = json!({});
        }
        if status["startTime"].is_null() {
            status["startTime"] = json!(now_s);
        }
        let mut next = Next::Done;
        let mut created = false;
        if succeeded >= completions {
            complete(env, &job, &mut status, &now_s);
        } else if failed > backoff_limit {
            fail(env, &job, key, &mut status, &active, &now_s);
        } else if active.is_empty() {
            let wait = backoff_remaining(&pods, failed, now);
            if wait.is_zero() {
                (created, next) = start_pod(env, &job, &key.namespace);
            } else {
                next = Next::After(wait);
            }
        }
        let finished = succeeded >= completions || failed > backoff_limit;
        let running = if finished {
            0
        } else {
            active.len() + usize::from(created)
        };
        status["active"] = json!(running);
        status["ready"] = json!(active.iter().filter(|p| is_ready(p)).count());
        status["succeeded"] = json!(succeeded);
        status["failed"] = json!(failed);
        status["terminating"] = json!(0);
        status["uncountedTerminatedPods"] = json!({});
        super::replicaset::drop_zero_counts(&mut status, &["active", "succeeded", "failed"]);
        if job["status"] != status {
            let patch = json!({"status": status_patch(&job["status"], &status)});
            let _ = ops::merge(&env.store, key, &patch, Part::Status, MANAGER);
        }
        next
    }
}

/// A Job's conditions have no `lastUpdateTime` (that is a Deployment's); the job controller
/// stamps `lastProbeTime` with the transition.
fn set_job_condition(status: &mut Value, condition: &Condition, now: &str) {
    set_condition(status, condition, now, false);
    if let Some(c) = status["conditions"]
        .as_array_mut()
        .and_then(|list| list.iter_mut().find(|c| c["type"] == condition.kind))
    {
        c["lastProbeTime"] = json!(now);
    }
}

/// Marks the Job complete: `SuccessCriteriaMet` then `Complete`, the completion time, and the
/// event.
fn complete(env: &Env, job: &Value, status: &mut Value, now: &str) {
    const WHY: &str = "Reached expected number of succeeded pods";
    for kind in ["SuccessCriteriaMet", "Complete"] {
        let condition = Condition {
            kind,
            status: true,
            reason: "CompletionsReached",
            message: WHY,
        };
        set_job_condition(status, &condition, now);
    }
    status["completionTime"] = json!(now);
    events::record(
        env,
        job,
        false,
        "Completed",
        "Job completed",
        "job-controller",
    );
}

/// Fails the Job at its backoff limit: `FailureTarget` then `Failed`, its running pods
/// deleted, and the event.
fn fail(env: &Env, job: &Value, key: &Key, status: &mut Value, active: &[&Arc<Value>], now: &str) {
    const WHY: &str = "Job has reached the specified backoff limit";
    for kind in ["FailureTarget", "Failed"] {
        let condition = Condition {
            kind,
            status: true,
            reason: "BackoffLimitExceeded",
            message: WHY,
        };
        set_job_condition(status, &condition, now);
    }
    for pod in active {
        let _ = ops::delete(
            &env.store,
            &crate::kinds::POD,
            &key.namespace,
            objects::name(pod),
            &DeleteOptions::default(),
        );
    }
    events::record(
        env,
        job,
        true,
        "BackoffLimitExceeded",
        WHY,
        "job-controller",
    );
}

/// Creates the Job's next pod from its template: whether it was created, and when to look
/// again (in 5 s after a failure, which is recorded as an event).
fn start_pod(env: &Env, job: &Value, namespace: &str) -> (bool, Next) {
    match ops::create(
        &env.store,
        &crate::kinds::POD,
        namespace,
        super::pod_from_template(job),
        &Actor::new(MANAGER),
    ) {
        Ok(pod) => {
            events::record(
                env,
                job,
                false,
                "SuccessfulCreate",
                &format!("Created pod: {}", objects::name(&pod)),
                "job-controller",
            );
            (true, Next::Done)
        }
        Err(e) => {
            events::record(
                env,
                job,
                true,
                "FailedCreate",
                &format!("Error creating: {}", e.message),
                "job-controller",
            );
            (false, Next::After(Duration::from_secs(5)))
        }
    }
}

/// When the Job reached Complete or Failed, if it did.
fn finished_at(job: &Value) -> Option<jiff::Timestamp> {
    job["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| (c["type"] == "Complete" || c["type"] == "Failed") && c["status"] == "True")
        .and_then(|c| c["lastTransitionTime"].as_str())
        .and_then(crate::clock::parse)
}

/// Deletes a finished Job once its `ttlSecondsAfterFinished` has passed.
fn expire(env: &Env, job: &Value, finished: jiff::Timestamp, now: jiff::Timestamp) -> Next {
    let Some(ttl) = job["spec"]["ttlSecondsAfterFinished"].as_u64() else {
        return Next::Done;
    };
    let age = now.duration_since(finished).unsigned_abs();
    let ttl = Duration::from_secs(ttl);
    if age < ttl {
        return Next::After(ttl - age);
    }
    let opts = DeleteOptions {
        propagation: Some(Propagation::Background),
        ..DeleteOptions::default()
    };
    let _ = ops::delete(
        &env.store,
        &crate::kinds::JOB,
        objects::namespace(job),
        objects::name(job),
        &opts,
    );
    Next::Done
}

/// How much longer to wait before replacing a failed Pod: 10 s × 2^(failures−1), capped.
fn backoff_remaining(
    pods: &[std::sync::Arc<Value>],
    failed: usize,
    now: jiff::Timestamp,
) -> Duration {
    if failed == 0 {
        return Duration::ZERO;
    }
    let delay = BACKOFF_BASE
        .saturating_mul(1 << (failed - 1).min(10))
        .min(BACKOFF_CAP);
    let last_failure = pods
        .iter()
        .filter_map(|p| {
            p["status"]["containerStatuses"][0]["state"]["terminated"]["finishedAt"].as_str()
        })
        .filter_map(crate::clock::parse)
        .max();
    let Some(last) = last_failure else {
        return Duration::ZERO;
    };
    let since = now.duration_since(last).unsigned_abs();
    delay.saturating_sub(since)
}
