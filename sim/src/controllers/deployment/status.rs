//! A Deployment's status as its controller writes it: replica counts summed over its
//! ReplicaSets, and the Available and Progressing conditions with the real reasons and messages.

use super::*;

/// What the status reports besides the ReplicaSets read back.
pub(super) struct Report<'a> {
    /// The current template's ReplicaSet (`null` while a paused Deployment has none).
    pub(super) new_rs: &'a Value,
    /// `spec.paused`: the status is synced, the rollout's progress not judged.
    pub(super) paused: bool,
    pub(super) desired: i64,
    pub(super) max_unavailable: i64,
    /// A Progressing condition this reconcile earned, if any.
    pub(super) progress: Option<Progress>,
    pub(super) now: &'a str,
}

/// Replica counts summed over a Deployment's ReplicaSets.
struct Counts {
    /// `status.replicas`: pods that exist.
    existing: i64,
    /// `spec.replicas`: pods wanted.
    wanted: i64,
    ready: i64,
    available: i64,
    /// The new ReplicaSet's pods.
    updated: i64,
}

impl Counts {
    fn of(sets: &[Arc<Value>], new_rs: &Value) -> Counts {
        let sum = |f: &dyn Fn(&Value) -> i64| sets.iter().map(|rs| f(rs)).sum::<i64>();
        let new_name = objects::name(new_rs);
        Counts {
            existing: sum(&|rs| rs["status"]["replicas"].as_i64().unwrap_or(0)),
            wanted: sum(&replicas),
            ready: sum(&|rs| rs["status"]["readyReplicas"].as_i64().unwrap_or(0)),
            available: sum(&available),
            updated: sets
                .iter()
                .find(|rs| objects::name(rs) == new_name)
                .map_or(0, |rs| rs["status"]["replicas"].as_i64().unwrap_or(0)),
        }
    }
}

/// Writes the Deployment's status (counts, Available and Progressing) and the new
/// ReplicaSet's revision, each only if it changed. Both go through `/status`, as the real
/// controller's `UpdateStatus` sends them: one managedFields entry, subresource `status`.
pub(super) fn write_status(env: &Env, d: &Value, sets: &[Arc<Value>], report: Report<'_>) {
    let counts = Counts::of(sets, report.new_rs);
    let mut status = d["status"].clone();
    if !status.is_object() {
        status = json!({});
    }
    set_counts(&mut status, d, &counts);
    set_terminating(&mut status, sets);
    set_conditions(&mut status, &counts, &report);
    let key = Key::new(
        &crate::kinds::DEPLOYMENT,
        objects::namespace(d),
        objects::name(d),
    );
    let mut patch = json!({});
    if d["status"] != status {
        patch["status"] = status_patch(&d["status"], &status);
    }
    let rev = report.new_rs["metadata"]["annotations"][REVISION].clone();
    if rev.is_string() && d["metadata"]["annotations"][REVISION] != rev {
        patch["metadata"] = json!({"annotations": {REVISION: rev}});
    }
    if patch.as_object().is_some_and(|p| !p.is_empty()) {
        let _ = ops::merge(&env.store, &key, &patch, Part::Status, MANAGER);
    }
}

/// `status.terminatingReplicas` (Kubernetes 1.35, `DeploymentReplicaSetTerminatingReplicas`):
/// the ReplicaSets' terminating pods summed — ReplicaSets never synced count for nothing, and
/// one synced without the count leaves the sum unknown (left out).
fn set_terminating(status: &mut Value, sets: &[Arc<Value>]) {
    let mut sum = Some(0);
    for rs in sets {
        let (synced, count) = (
            rs["status"]["observedGeneration"].as_i64().unwrap_or(0) != 0,
            rs["status"]["terminatingReplicas"].as_i64(),
        );
        match (synced, count) {
            (false, None) => {}
            (true, None) => sum = None,
            (_, Some(n)) => sum = sum.map(|s| s + n),
        }
    }
    match sum {
        Some(n) => status["terminatingReplicas"] = json!(n),
        None => {
            if let Some(o) = status.as_object_mut() {
                o.remove("terminatingReplicas");
            }
        }
    }
}

/// The replica counts and observedGeneration, zero counts left out as the real controller does.
fn set_counts(status: &mut Value, d: &Value, counts: &Counts) {
    for (k, v) in [
        (
            "observedGeneration",
            d["metadata"]["generation"].as_i64().unwrap_or(1),
        ),
        ("replicas", counts.existing),
        ("updatedReplicas", counts.updated),
        ("readyReplicas", counts.ready),
        ("availableReplicas", counts.available),
        (
            "unavailableReplicas",
            (counts.wanted - counts.available).max(0),
        ),
    ] {
        status[k] = json!(v);
    }
    drop_zero_counts(
        status,
        &[
            "replicas",
            "updatedReplicas",
            "readyReplicas",
            "availableReplicas",
            "unavailableReplicas",
        ],
    );
}

/// The Available and Progressing conditions, with the real controller's reasons and messages.
fn set_conditions(status: &mut Value, counts: &Counts, report: &Report<'_>) {
    let (desired, now) = (report.desired, report.now);
    let new_name = objects::name(report.new_rs);
    let minimum = counts.available >= desired - report.max_unavailable;
    let (reason, message) = if minimum {
        (
            "MinimumReplicasAvailable",
            "Deployment has minimum availability.",
        )
    } else {
        (
            "MinimumReplicasUnavailable",
            "Deployment does not have minimum availability.",
        )
    };
    let available = Condition {
        kind: "Available",
        status: minimum,
        reason,
        message,
    };
    set_condition(status, &available, now, true);
    if report.paused {
        // `sync` of a paused Deployment: Progressing stays as the pause left it.
        return;
    }
    let complete =
        counts.updated == desired && counts.available == desired && counts.existing == desired;
    let progressing = if complete {
        Some((
            "NewReplicaSetAvailable",
            format!("ReplicaSet \"{new_name}\" has successfully progressed."),
        ))
    } else if report.progress.is_none()
        && status["conditions"]
            .as_array()
            .is_some_and(|c| !c.iter().any(|c| c["type"] == "Progressing"))
    {
        Some((
            "FoundNewReplicaSet",
            format!("Found new replica set \"{new_name}\""),
        ))
    } else {
        report.progress.clone()
    };
    if let Some((reason, message)) = progressing {
        let condition = Condition {
            kind: "Progressing",
            status: true,
            reason,
            message: &message,
        };
        set_condition(status, &condition, now, true);
    }
    // Keep Available before Progressing, as `kubectl get -o yaml` shows them on a real cluster.
    if let Some(list) = status["conditions"].as_array_mut() {
        list.sort_by_key(|c| c["type"] != "Available");
    }
}
