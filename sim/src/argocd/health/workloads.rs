//! Health of the `apps` workloads: Deployment, ReplicaSet, StatefulSet and DaemonSet, with
//! gitops-engine's messages (borrowed from `kubectl rollout status`).

use serde_json::Value;

use super::field::{condition, flag, int, opt_int, present, quoted, text};
use super::{Gvk, Health, HealthStatus};

fn converted(kind: &str) -> impl Fn(String) -> String + '_ {
    move |e| format!("failed to convert unstructured {kind} to typed: {e}")
}

pub(super) fn deployment(obj: &Value, gvk: &Gvk) -> Result<Health, String> {
    gvk.require(&["v1"], "Deployment")?;
    read_deployment(obj).map_err(converted("Deployment"))
}

fn read_deployment(d: &Value) -> Result<Health, String> {
    use HealthStatus::*;
    if flag(d, "/spec/paused")? {
        return Ok(Health::new(Suspended, "Deployment is paused"));
    }
    if int(d, "/metadata/generation")? > int(d, "/status/observedGeneration")? {
        return Ok(Health::new(
            Progressing,
            "Waiting for rollout to finish: observed deployment generation less than desired generation",
        ));
    }
    let progressing = condition(d, "Progressing")?;
    let reason = progressing.map(|c| text(c, "/reason")).transpose()?;
    let wanted = opt_int(d, "/spec/replicas")?;
    let updated = int(d, "/status/updatedReplicas")?;
    let total = int(d, "/status/replicas")?;
    let available = int(d, "/status/availableReplicas")?;
    Ok(if reason == Some("ProgressDeadlineExceeded") {
        let name = text(d, "/metadata/name")?;
        Health::new(
            Degraded,
            format!("Deployment {} exceeded its progress deadline", quoted(name)),
        )
    } else if let Some(wanted) = wanted.filter(|w| updated < *w) {
        Health::new(
            Progressing,
            format!(
                "Waiting for rollout to finish: {updated} out of {wanted} new replicas have been updated..."
            ),
        )
    } else if total > updated {
        Health::new(
            Progressing,
            format!(
                "Waiting for rollout to finish: {} old replicas are pending termination...",
                total - updated
            ),
        )
    } else if available < updated {
        Health::new(
            Progressing,
            format!(
                "Waiting for rollout to finish: {available} of {updated} updated replicas are available..."
            ),
        )
    } else {
        Health::new(Healthy, "")
    })
}

pub(super) fn replicaset(obj: &Value, gvk: &Gvk) -> Result<Health, String> {
    gvk.require(&["v1"], "ReplicaSet")?;
    read_replicaset(obj).map_err(converted("ReplicaSet"))
}

fn read_replicaset(rs: &Value) -> Result<Health, String> {
    use HealthStatus::*;
    if int(rs, "/metadata/generation")? > int(rs, "/status/observedGeneration")? {
        return Ok(Health::new(
            Progressing,
            "Waiting for rollout to finish: observed replica set generation less than desired generation",
        ));
    }
    if let Some(failure) = condition(rs, "ReplicaFailure")?
        && text(failure, "/status")? == "True"
    {
        return Ok(Health::new(Degraded, text(failure, "/message")?));
    }
    let available = int(rs, "/status/availableReplicas")?;
    Ok(match opt_int(rs, "/spec/replicas")? {
        Some(wanted) if available < wanted => Health::new(
            Progressing,
            format!(
                "Waiting for rollout to finish: {available} out of {wanted} new replicas are available..."
            ),
        ),
        _ => Health::new(Healthy, ""),
    })
}

pub(super) fn statefulset(obj: &Value, gvk: &Gvk) -> Result<Health, String> {
    gvk.require(&["v1"], "StatefulSet")?;
    read_statefulset(obj).map_err(converted("StatefulSet"))
}

fn read_statefulset(sts: &Value) -> Result<Health, String> {
    use HealthStatus::*;
    let observed = int(sts, "/status/observedGeneration")?;
    if observed == 0 || int(sts, "/metadata/generation")? > observed {
        return Ok(Health::new(
            Progressing,
            "Waiting for statefulset spec update to be observed...",
        ));
    }
    let wanted = opt_int(sts, "/spec/replicas")?;
    let ready = int(sts, "/status/readyReplicas")?;
    if let Some(wanted) = wanted.filter(|w| ready < *w) {
        return Ok(Health::new(
            Progressing,
            format!("Waiting for {} pods to be ready...", wanted - ready),
        ));
    }
    let strategy = text(sts, "/spec/updateStrategy/type")?;
    let updated = int(sts, "/status/updatedReplicas")?;
    // The server defaults rollingUpdate to {partition: 0}, so live objects land here.
    if strategy == "RollingUpdate" && present(sts, "/spec/updateStrategy/rollingUpdate") {
        let partition = opt_int(sts, "/spec/updateStrategy/rollingUpdate/partition")?;
        if let (Some(wanted), Some(partition)) = (wanted, partition)
            && updated < wanted - partition
        {
            return Ok(Health::new(
                Progressing,
                format!(
                    "Waiting for partitioned roll out to finish: {updated} out of {} new pods have been updated...",
                    wanted - partition
                ),
            ));
        }
        return Ok(Health::new(
            Healthy,
            format!("partitioned roll out complete: {updated} new pods have been updated..."),
        ));
    }
    if strategy == "OnDelete" {
        return Ok(Health::new(
            Healthy,
            format!("statefulset has {ready} ready pods"),
        ));
    }
    let update_revision = text(sts, "/status/updateRevision")?;
    let current_revision = text(sts, "/status/currentRevision")?;
    if update_revision != current_revision {
        return Ok(Health::new(
            Progressing,
            format!(
                "waiting for statefulset rolling update to complete {updated} pods at revision {update_revision}..."
            ),
        ));
    }
    Ok(Health::new(
        Healthy,
        format!(
            "statefulset rolling update complete {} pods at revision {current_revision}...",
            int(sts, "/status/currentReplicas")?
        ),
    ))
}

pub(super) fn daemonset(obj: &Value, gvk: &Gvk) -> Result<Health, String> {
    gvk.require(&["v1"], "DaemonSet")?;
    read_daemonset(obj).map_err(converted("DaemonSet"))
}

fn read_daemonset(ds: &Value) -> Result<Health, String> {
    use HealthStatus::*;
    if int(ds, "/metadata/generation")? > int(ds, "/status/observedGeneration")? {
        return Ok(Health::new(
            Progressing,
            "Waiting for rollout to finish: observed daemon set generation less than desired generation",
        ));
    }
    let updated = int(ds, "/status/updatedNumberScheduled")?;
    let desired = int(ds, "/status/desiredNumberScheduled")?;
    let available = int(ds, "/status/numberAvailable")?;
    let name = quoted(text(ds, "/metadata/name")?);
    Ok(if text(ds, "/spec/updateStrategy/type")? == "OnDelete" {
        Health::new(
            Healthy,
            format!("daemon set {updated} out of {desired} new pods have been updated"),
        )
    } else if updated < desired {
        Health::new(
            Progressing,
            format!(
                "Waiting for daemon set {name} rollout to finish: {updated} out of {desired} new pods have been updated..."
            ),
        )
    } else if available < desired {
        Health::new(
            Progressing,
            format!(
                "Waiting for daemon set {name} rollout to finish: {available} of {desired} updated pods are available..."
            ),
        )
    } else {
        Health::new(Healthy, "")
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::{Health, HealthStatus, resource_health};

    fn health(obj: Value) -> (HealthStatus, String) {
        let Health { status, message } = resource_health(&obj).expect("a checked kind");
        (status, message)
    }

    fn deploy(generation: i64, status: Value) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "src-helm-web", "generation": generation},
            "spec": {"replicas": 2}, "status": status})
    }

    #[test]
    fn deployment_branches_in_gitops_engine_order() {
        use HealthStatus::*;
        let mut paused = deploy(1, json!({"observedGeneration": 1}));
        paused["spec"]["paused"] = json!(true);
        assert_eq!(health(paused), (Suspended, "Deployment is paused".into()));
        assert_eq!(
            health(deploy(2, json!({"observedGeneration": 1}))),
            (Progressing, "Waiting for rollout to finish: observed deployment generation less than desired generation".into())
        );
        let stuck = deploy(
            1,
            json!({"observedGeneration": 1, "updatedReplicas": 1,
            "conditions": [{"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"}]}),
        );
        assert_eq!(
            health(stuck),
            (
                Degraded,
                "Deployment \"src-helm-web\" exceeded its progress deadline".into()
            )
        );
        assert_eq!(
            health(deploy(
                1,
                json!({"observedGeneration": 1, "updatedReplicas": 1, "replicas": 2})
            )),
            (
                Progressing,
                "Waiting for rollout to finish: 1 out of 2 new replicas have been updated..."
                    .into()
            )
        );
        assert_eq!(
            health(deploy(
                1,
                json!({"observedGeneration": 1, "updatedReplicas": 2, "replicas": 3})
            )),
            (
                Progressing,
                "Waiting for rollout to finish: 1 old replicas are pending termination...".into()
            )
        );
        assert_eq!(
            health(deploy(
                1,
                json!({"observedGeneration": 1, "updatedReplicas": 2, "replicas": 2, "availableReplicas": 1})
            )),
            (
                Progressing,
                "Waiting for rollout to finish: 1 of 2 updated replicas are available...".into()
            )
        );
        assert_eq!(
            health(deploy(
                1,
                json!({"observedGeneration": 1, "updatedReplicas": 2, "replicas": 2, "availableReplicas": 2})
            )),
            (Healthy, String::new())
        );
        // A brand-new Deployment before the controller saw it.
        assert_eq!(health(deploy(1, json!({}))).0, Progressing);
    }

    #[test]
    fn unreadable_objects_are_unknown() {
        let mut old = deploy(1, json!({}));
        old["apiVersion"] = json!("apps/v1beta2");
        assert_eq!(
            health(old),
            (
                HealthStatus::Unknown,
                "unsupported Deployment GVK: apps/v1beta2, Kind=Deployment".into()
            )
        );
        let bad = deploy(1, json!({"observedGeneration": "one"}));
        let (status, message) = health(bad);
        assert_eq!(status, HealthStatus::Unknown);
        assert!(
            message.starts_with("failed to convert unstructured Deployment to typed"),
            "{message}"
        );
    }

    #[test]
    fn replicasets_statefulsets_and_daemonsets() {
        use HealthStatus::*;
        let rs = json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"generation": 1},
            "spec": {"replicas": 3}, "status": {"observedGeneration": 1, "availableReplicas": 1}});
        assert_eq!(
            health(rs),
            (
                Progressing,
                "Waiting for rollout to finish: 1 out of 3 new replicas are available...".into()
            )
        );
        let failing = json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "status": {"conditions": [
            {"type": "ReplicaFailure", "status": "True", "message": "pods \"x\" is forbidden: quota"}]}});
        assert_eq!(
            health(failing),
            (Degraded, "pods \"x\" is forbidden: quota".into())
        );

        let sts = |status: Value| {
            json!({"apiVersion": "apps/v1", "kind": "StatefulSet",
            "metadata": {"generation": 1}, "spec": {"replicas": 2,
                "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}}},
            "status": status})
        };
        assert_eq!(
            health(sts(json!({}))),
            (
                Progressing,
                "Waiting for statefulset spec update to be observed...".into()
            )
        );
        assert_eq!(
            health(sts(json!({"observedGeneration": 1, "readyReplicas": 1}))),
            (Progressing, "Waiting for 1 pods to be ready...".into())
        );
        assert_eq!(
            health(sts(json!({"observedGeneration": 1, "readyReplicas": 2, "updatedReplicas": 1}))),
            (Progressing, "Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...".into())
        );
        assert_eq!(
            health(sts(
                json!({"observedGeneration": 1, "readyReplicas": 2, "updatedReplicas": 2})
            )),
            (
                Healthy,
                "partitioned roll out complete: 2 new pods have been updated...".into()
            )
        );
        let mut plain = sts(
            json!({"observedGeneration": 1, "readyReplicas": 2, "currentReplicas": 2,
            "updateRevision": "web-2", "currentRevision": "web-1"}),
        );
        plain["spec"]["updateStrategy"] = json!({"type": "RollingUpdate"});
        assert_eq!(
            health(plain.clone()),
            (
                Progressing,
                "waiting for statefulset rolling update to complete 0 pods at revision web-2..."
                    .into()
            )
        );
        plain["status"]["currentRevision"] = json!("web-2");
        assert_eq!(
            health(plain),
            (
                Healthy,
                "statefulset rolling update complete 2 pods at revision web-2...".into()
            )
        );

        let ds = json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent"},
            "status": {"desiredNumberScheduled": 3, "updatedNumberScheduled": 3, "numberAvailable": 2}});
        assert_eq!(
            health(ds),
            (Progressing, "Waiting for daemon set \"agent\" rollout to finish: 2 of 3 updated pods are available...".into())
        );
    }
}
