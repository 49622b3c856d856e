//! Health of things that run to completion or keep running: Pod, Job, and CronJob (the last
//! from Argo CD's bundled Lua script).

use serde_json::Value;

use super::field::{condition, int, list, present, quoted, text};
use super::{Gvk, Health, HealthStatus};

pub(super) fn pod(obj: &Value, gvk: &Gvk) -> Result<Health, String> {
    gvk.require(&["v1"], "Pod")?;
    read_pod(obj).map_err(|e| format!("failed to convert unstructured Pod to typed: {e}"))
}

fn read_pod(p: &Value) -> Result<Health, String> {
    use HealthStatus::*;
    let restart = text(p, "/spec/restartPolicy")?;
    let message = text(p, "/status/message")?.to_owned();
    let statuses = list(p, "/status/containerStatuses")?;
    // Only for long-running pods: a hook pod waiting on an image must not fail the sync.
    if restart == "Always" {
        let mut waiting_errors = Vec::new();
        for s in statuses {
            if present(s, "/state/waiting") {
                let reason = text(s, "/state/waiting/reason")?;
                if reason.starts_with("Err")
                    || reason.ends_with("Error")
                    || reason.ends_with("BackOff")
                {
                    waiting_errors.push(text(s, "/state/waiting/message")?.to_owned());
                }
            }
        }
        if !waiting_errors.is_empty() {
            return Ok(Health::new(Degraded, waiting_errors.join(", ")));
        }
    }
    Ok(match text(p, "/status/phase")? {
        "Pending" => Health::new(Progressing, message),
        "Succeeded" => Health::new(Healthy, message),
        "Failed" => {
            if !message.is_empty() {
                return Ok(Health::new(Degraded, message));
            }
            let init = list(p, "/status/initContainerStatuses")?;
            for s in init.iter().chain(statuses) {
                let failure = fail_message(s)?;
                if !failure.is_empty() {
                    return Ok(Health::new(Degraded, failure));
                }
            }
            Health::new(Degraded, "")
        }
        "Running" => match restart {
            "Always" => {
                let ready = condition(p, "Ready")?
                    .map(|c| text(c, "/status"))
                    .transpose()?
                    == Some("True");
                if ready {
                    Health::new(Healthy, message)
                } else if statuses.iter().any(|s| present(s, "/lastState/terminated")) {
                    Health::new(Degraded, message)
                } else {
                    Health::new(Progressing, message)
                }
            }
            // Finite pods (usually hooks) are not Healthy while they run.
            "OnFailure" | "Never" => Health::new(Progressing, message),
            _ => Health::new(Unknown, message),
        },
        _ => Health::new(Unknown, message),
    })
}

fn fail_message(status: &Value) -> Result<String, String> {
    if !present(status, "/state/terminated") {
        return Ok(String::new());
    }
    let message = text(status, "/state/terminated/message")?;
    if !message.is_empty() {
        return Ok(message.to_owned());
    }
    if text(status, "/state/terminated/reason")? == "OOMKilled" {
        return Ok("OOMKilled".to_owned());
    }
    let code = int(status, "/state/terminated/exitCode")?;
    Ok(if code != 0 {
        format!(
            "container {} failed with exit code {code}",
            quoted(text(status, "/name")?)
        )
    } else {
        String::new()
    })
}

pub(super) fn job(obj: &Value, gvk: &Gvk) -> Result<Health, String> {
    gvk.require(&["v1"], "Job")?;
    read_job(obj).map_err(|e| format!("failed to convert unstructured Job to typed: {e}"))
}

fn read_job(j: &Value) -> Result<Health, String> {
    use HealthStatus::*;
    let (mut failed, mut complete, mut suspended) = (false, false, false);
    let (mut fail_message, mut message) = (String::new(), String::new());
    // Condition status is not read except for Suspended, as in gitops-engine.
    for c in list(j, "/status/conditions")? {
        match text(c, "/type")? {
            "Failed" => {
                failed = true;
                complete = true;
                fail_message = text(c, "/message")?.to_owned();
            }
            "Complete" => {
                complete = true;
                message = text(c, "/message")?.to_owned();
            }
            "Suspended" => {
                complete = true;
                message = text(c, "/message")?.to_owned();
                suspended |= text(c, "/status")? == "True";
            }
            _ => {}
        }
    }
    Ok(if !complete {
        Health::new(Progressing, message)
    } else if failed {
        Health::new(Degraded, fail_message)
    } else if suspended {
        Health::new(Suspended, fail_message)
    } else {
        Health::new(Healthy, message)
    })
}

/// `resource_customizations/batch/CronJob/health.lua`.
pub(super) fn cronjob(obj: &Value, _gvk: &Gvk) -> Result<Health, String> {
    use HealthStatus::*;
    let Some(spec) = obj.get("spec").filter(|s| !s.is_null()) else {
        return Err("attempt to index a nil value (field 'spec')".to_owned());
    };
    if spec.get("suspend") == Some(&Value::Bool(true)) {
        // Healthy, not Suspended, until argo-cd#24428 is resolved upstream.
        return Ok(Health::new(Healthy, "CronJob is Suspended"));
    }
    let Some(status) = obj.get("status").filter(|s| !s.is_null()) else {
        return Ok(Health::new(Progressing, "Waiting for CronJob"));
    };
    let field = |k: &str| status.get(k).filter(|v| !v.is_null());
    let Some(scheduled) = field("lastScheduleTime") else {
        return Ok(Health::new(Healthy, "CronJob has not been scheduled yet"));
    };
    let Some(succeeded) = field("lastSuccessfulTime") else {
        return Ok(Health::new(
            Healthy,
            "The CronJob never completed successfully. It may not be healthy",
        ));
    };
    if field("active")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
    {
        return Ok(Health::new(
            Healthy,
            "The job is running. Its last execution may not have been successful",
        ));
    }
    // Lua compares the RFC 3339 timestamps as strings.
    let (Some(succeeded), Some(scheduled)) = (succeeded.as_str(), scheduled.as_str()) else {
        return Err("attempt to compare two non-string values".to_owned());
    };
    Ok(if succeeded < scheduled {
        Health::new(
            Degraded,
            "CronJob has not completed its last execution successfully",
        )
    } else {
        Health::new(
            Healthy,
            "CronJob has completed its last execution successfully",
        )
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::{HealthStatus, resource_health};

    fn health(obj: Value) -> (HealthStatus, String) {
        let h = resource_health(&obj).expect("a checked kind");
        (h.status, h.message)
    }

    fn job(conditions: Value) -> Value {
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "migrate-x"},
            "status": {"conditions": conditions}})
    }

    #[test]
    fn jobs_complete_fail_or_run() {
        use HealthStatus::*;
        assert_eq!(
            health(job(json!([{"type": "Complete", "status": "True"}]))),
            (Healthy, String::new())
        );
        let failed = job(json!([
            {"type": "FailureTarget", "status": "True", "message": "Job has reached the specified backoff limit"},
            {"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded",
             "message": "Job has reached the specified backoff limit"}]));
        assert_eq!(
            health(failed),
            (
                Degraded,
                "Job has reached the specified backoff limit".into()
            )
        );
        assert_eq!(health(job(json!(null))), (Progressing, String::new()));
        assert_eq!(
            health(job(
                json!([{"type": "Suspended", "status": "True", "message": "Job suspended"}])
            )),
            (Suspended, String::new())
        );
        // A resumed Job keeps Suspended=False, which gitops-engine counts as finished.
        assert_eq!(
            health(job(
                json!([{"type": "Suspended", "status": "False", "message": "Job resumed"}])
            )),
            (Healthy, "Job resumed".into())
        );
    }

    fn pod(restart: &str, status: Value) -> Value {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"restartPolicy": restart}, "status": status})
    }

    #[test]
    fn pod_phases() {
        use HealthStatus::*;
        assert_eq!(
            health(pod("Always", json!({"phase": "Pending"}))),
            (Progressing, String::new())
        );
        assert_eq!(
            health(pod("Never", json!({"phase": "Succeeded"}))),
            (Healthy, String::new())
        );
        let ready =
            json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]});
        assert_eq!(health(pod("Always", ready)), (Healthy, String::new()));
        assert_eq!(
            health(pod("Always", json!({"phase": "Running"}))).0,
            Progressing
        );
        let restarted = json!({"phase": "Running", "containerStatuses": [
            {"name": "web", "lastState": {"terminated": {"exitCode": 1}}, "state": {"running": {}}}]});
        assert_eq!(health(pod("Always", restarted)).0, Degraded);
        assert_eq!(
            health(pod("Never", json!({"phase": "Running"}))).0,
            Progressing
        );
        assert_eq!(health(pod("", json!({"phase": "Running"}))).0, Unknown);
        let failed = json!({"phase": "Failed", "containerStatuses": [
            {"name": "migrate", "state": {"terminated": {"exitCode": 1, "reason": "Error"}}}]});
        assert_eq!(
            health(pod("Never", failed)),
            (
                Degraded,
                "container \"migrate\" failed with exit code 1".into()
            )
        );
        let evicted =
            json!({"phase": "Failed", "message": "The node was low on resource: memory."});
        assert_eq!(
            health(pod("Always", evicted)).1,
            "The node was low on resource: memory."
        );
        let crash = json!({"phase": "Running", "containerStatuses": [
            {"name": "web", "state": {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 5m0s"}}},
            {"name": "side", "state": {"waiting": {"reason": "ErrImagePull", "message": "pull failed"}}}]});
        assert_eq!(
            health(pod("Always", crash.clone())),
            (Degraded, "back-off 5m0s, pull failed".into())
        );
        // A hook pod waiting on its image is not failed yet.
        assert_eq!(health(pod("Never", crash)).0, Progressing);
        assert_eq!(health(pod("Always", json!({"phase": "Weird"}))).0, Unknown);
    }

    #[test]
    fn cronjobs_follow_the_lua_script() {
        use HealthStatus::*;
        let cj = |spec: Value, status: Value| {
            json!({"apiVersion": "batch/v1", "kind": "CronJob",
            "spec": spec, "status": status})
        };
        assert_eq!(
            health(cj(json!({"suspend": true}), json!({}))),
            (Healthy, "CronJob is Suspended".into())
        );
        assert_eq!(
            health(cj(json!({}), json!(null))),
            (Progressing, "Waiting for CronJob".into())
        );
        assert_eq!(
            health(cj(json!({}), json!({}))).1,
            "CronJob has not been scheduled yet"
        );
        let failed = json!({"lastScheduleTime": "2026-01-02T00:00:00Z", "lastSuccessfulTime": "2026-01-01T00:00:00Z"});
        assert_eq!(health(cj(json!({}), failed)).0, Degraded);
    }
}
