//! The Deployment controller: one ReplicaSet per pod template (named by `pod-template-hash`),
//! rolling updates within maxSurge / maxUnavailable (or Recreate), old ReplicaSets pruned to
//! `revisionHistoryLimit`, and the status and conditions `kubectl rollout status` and Argo CD's
//! health check read, with the real controller's reasons and messages.

use std::sync::Arc;

use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::replicaset::{drop_zero_counts, status_patch};
use super::{Condition, Env, MANAGER, events, owned, owner_key, set_condition};
use crate::objects;
use crate::ops::{self, Actor, DeleteOptions, Part};
use crate::store::{Event, Key};

mod revision;
mod status;
use status::{Report, write_status};

use revision::{REVISION, revision};

pub struct Deployments;

const HASH_LABEL: &str = "pod-template-hash";

impl Controller for Deployments {
    fn keys_for(&self, _env: &Env, event: &Event) -> Vec<Key> {
        match event.key.ty().kind {
            "Deployment" => vec![event.key.clone()],
            "ReplicaSet" => owner_key(&event.object, &crate::kinds::DEPLOYMENT)
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        let d = &crate::kinds::DEPLOYMENT;
        env.store
            .list(d, None)
            .0
            .iter()
            .map(|o| Key::new(d, objects::namespace(o), objects::name(o)))
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(d) = env.store.get(key) else {
            return Next::Done;
        };
        if objects::is_deleting(&d) {
            return Next::Done;
        }
        let rs_ty = &crate::kinds::REPLICA_SET;
        let desired = d["spec"]["replicas"].as_i64().unwrap_or(1).max(0);
        let hash = template_hash(&d["spec"]["template"]);
        let mut sets = owned(env, rs_ty, &key.namespace, objects::uid(&d));
        sets.sort_by_key(|rs| revision(rs));
        let (mut new_rs, old_sets): (Vec<_>, Vec<_>) = sets
            .into_iter()
            .partition(|rs| rs["metadata"]["labels"][HASH_LABEL] == hash.as_str());
        let max_revision = old_sets.iter().map(|rs| revision(rs)).max().unwrap_or(0);
        let now = env.store.clock.now_rfc3339();
        let mut progress = None;
        let paused = d["spec"]["paused"] == true;
        // Pausing and resuming are recorded in Progressing before anything else is done.
        let d = match paused_condition(env, &d, &now) {
            Some(updated) => updated,
            None => d,
        };
        let new_rs = match new_rs.pop() {
            // The current template's ReplicaSet always has the highest revision (a rollback
            // reuses an old one, which takes the next number), and the Deployment's
            // annotations (`SetNewReplicaSetAnnotations`).
            Some(rs) => sync_annotations(env, &d, rs, max_revision + 1),
            // A paused Deployment makes no new ReplicaSet: its template waits for a resume.
            None if paused => return hold_paused(env, &d, &old_sets, desired, &now),
            None => {
                let initial = if old_sets.iter().all(|rs| replicas(rs) == 0) {
                    desired
                } else {
                    0
                };
                let body = new_replica_set(&d, &hash, max_revision + 1, initial);
                match create_replica_set(env, &d, &key.namespace, body, initial) {
                    Ok((rs, created)) => {
                        progress = Some(created);
                        rs
                    }
                    Err(next) => return next,
                }
            }
        };
        let (max_surge, max_unavailable) = limits(&d, desired);
        let changed = if paused {
            // `sync`: a paused Deployment is only scaled, never rolled.
            let sets = owned(env, rs_ty, &key.namespace, objects::uid(&d));
            active_or_latest(&sets).is_some_and(|rs| scale(env, &d, &rs, desired))
        } else if d["spec"]["strategy"]["type"] == "Recreate" {
            recreate(env, &d, &new_rs, &old_sets, desired)
        } else {
            roll(
                env,
                &d,
                &new_rs,
                &old_sets,
                desired,
                (max_surge, max_unavailable),
            )
        };
        prune_history(env, &d, &old_sets);
        if changed && progress.is_none() {
            progress = Some((
                "ReplicaSetUpdated",
                format!("ReplicaSet \"{}\" is progressing.", objects::name(&new_rs)),
            ));
        }
        // Read back what the scaling above produced before reporting.
        let sets = owned(env, rs_ty, &key.namespace, objects::uid(&d));
        let report = Report {
            new_rs: &new_rs,
            paused,
            desired,
            max_unavailable,
            progress,
            now: &now,
        };
        write_status(env, &d, &sets, report);
        Next::Done
    }
}

/// Brings the current template's ReplicaSet up to date: the next revision (a rollback reuses
/// an old one, which takes the next number) and the Deployment's annotations
/// (`SetNewReplicaSetAnnotations`). Returns it as stored.
fn sync_annotations(env: &Env, d: &Value, rs: Arc<Value>, next_revision: i64) -> Arc<Value> {
    let mut annotations = copied_annotations(d, &rs);
    if let Some(bumped) = revision::bumped_annotations(&rs, next_revision)
        && let (Some(a), Some(b)) = (annotations.as_object_mut(), bumped.as_object())
    {
        a.extend(b.clone());
    }
    if annotations
        .as_object()
        .is_none_or(serde_json::Map::is_empty)
    {
        return rs;
    }
    let patch = json!({"metadata": {"annotations": annotations}});
    let rs_key = Key::new(
        &crate::kinds::REPLICA_SET,
        objects::namespace(d),
        objects::name(&rs),
    );
    ops::merge(&env.store, &rs_key, &patch, Part::Main, MANAGER).unwrap_or(rs)
}

/// A paused Deployment whose template has no ReplicaSet yet makes none: its active ReplicaSet
/// is only scaled, and the status synced (`sync`).
fn hold_paused(env: &Env, d: &Value, old_sets: &[Arc<Value>], desired: i64, now: &str) -> Next {
    let rs_ty = &crate::kinds::REPLICA_SET;
    let (namespace, uid) = (objects::namespace(d), objects::uid(d));
    if let Some(rs) = active_or_latest(&owned(env, rs_ty, namespace, uid)) {
        scale(env, d, &rs, desired);
    }
    prune_history(env, d, old_sets);
    let sets = owned(env, rs_ty, namespace, uid);
    let (_, max_unavailable) = limits(d, desired);
    let report = Report {
        new_rs: &Value::Null,
        paused: true,
        desired,
        max_unavailable,
        progress: None,
        now,
    };
    write_status(env, d, &sets, report);
    Next::Done
}

/// A Progressing condition's reason and message.
type Progress = (&'static str, String);

/// Creates the new ReplicaSet with `initial` replicas; on failure records the event and says
/// when to retry.
fn create_replica_set(
    env: &Env,
    d: &Value,
    namespace: &str,
    body: Value,
    initial: i64,
) -> Result<(Arc<Value>, Progress), Next> {
    let rs_ty = &crate::kinds::REPLICA_SET;
    match ops::create(&env.store, rs_ty, namespace, body, &Actor::new(MANAGER)) {
        Ok(rs) => {
            scaled_event(env, d, &rs, 0, initial);
            let progress = (
                "NewReplicaSetCreated",
                format!("Created new replica set \"{}\"", objects::name(&rs)),
            );
            Ok((rs, progress))
        }
        Err(e) => {
            events::record(
                env,
                d,
                true,
                "FailedCreate",
                &e.message,
                "deployment-controller",
            );
            Err(Next::After(std::time::Duration::from_secs(5)))
        }
    }
}

/// The Recreate strategy: old ReplicaSets to zero, then, once their pods are gone, the new
/// one to `desired`. Whether anything was scaled.
fn recreate(env: &Env, d: &Value, new_rs: &Value, old_sets: &[Arc<Value>], desired: i64) -> bool {
    let mut changed = false;
    for rs in old_sets.iter().filter(|rs| replicas(rs) > 0) {
        changed |= scale(env, d, rs, 0);
    }
    if old_sets
        .iter()
        .all(|rs| replicas(rs) == 0 && rs["status"]["replicas"].as_i64().unwrap_or(0) == 0)
    {
        changed |= scale(env, d, new_rs, desired);
    }
    changed
}

/// The RollingUpdate strategy within maxSurge and maxUnavailable (as [`limits`] returns
/// them). Whether anything was scaled.
fn roll(
    env: &Env,
    d: &Value,
    new_rs: &Value,
    old_sets: &[Arc<Value>],
    desired: i64,
    (max_surge, max_unavailable): (i64, i64),
) -> bool {
    if old_sets.iter().all(|rs| replicas(rs) == 0) {
        return scale(env, d, new_rs, desired);
    }
    let mut changed = false;
    let total: i64 = old_sets
        .iter()
        .map(|rs| replicas(rs))
        .chain([replicas(new_rs)])
        .sum();
    let room = (desired + max_surge - total).min(desired - replicas(new_rs));
    if room > 0 {
        changed |= scale(env, d, new_rs, replicas(new_rs) + room);
    }
    let available_now: i64 = old_sets
        .iter()
        .map(|rs| available(rs))
        .chain([available(new_rs)])
        .sum();
    let mut spare = (available_now - (desired - max_unavailable)).max(0);
    for rs in old_sets {
        let unavailable_here = replicas(rs) - available(rs);
        let remove = replicas(rs).min(spare + unavailable_here.max(0));
        if remove > 0 {
            changed |= scale(env, d, rs, replicas(rs) - remove);
            spare -= (remove - unavailable_here.max(0)).max(0);
        }
    }
    changed
}

/// Annotations the Deployment controller never copies to a ReplicaSet (`skipCopyAnnotation`).
const NOT_COPIED: &[&str] = &[
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION,
    revision::REVISION_HISTORY,
    "deployment.kubernetes.io/desired-replicas",
    "deployment.kubernetes.io/max-replicas",
    "deprecated.deployment.rollback.to",
];

/// The Deployment's annotations the ReplicaSet lacks or has with another value
/// (`copyDeploymentAnnotationsToReplicaSet`: `kubernetes.io/change-cause`, Argo CD's tracking
/// id, anything a user set; one removed from the Deployment stays on the ReplicaSet).
fn copied_annotations(d: &Value, rs: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for (k, v) in d["metadata"]["annotations"]
        .as_object()
        .into_iter()
        .flatten()
    {
        if !NOT_COPIED.contains(&k.as_str()) && rs["metadata"]["annotations"][k] != *v {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

/// `checkPausedConditions`: Progressing turns Unknown with `DeploymentPaused` when paused and
/// `DeploymentResumed` when resumed (unless the deadline was already reported exceeded), so a
/// resumed rollout is never timed out for the pause. The Deployment as updated, if it was.
fn paused_condition(env: &Env, d: &Value, now: &str) -> Option<Arc<Value>> {
    let paused = d["spec"]["paused"] == true;
    let conditions = d["status"]["conditions"].as_array();
    let progressing = conditions
        .into_iter()
        .flatten()
        .find(|c| c["type"] == "Progressing");
    let reason = progressing.map(|c| c["reason"].as_str().unwrap_or_default());
    if reason == Some("ProgressDeadlineExceeded") {
        return None;
    }
    let was_paused = reason == Some("DeploymentPaused");
    let (reason, message) = match (paused, was_paused) {
        (true, false) => ("DeploymentPaused", "Deployment is paused"),
        (false, true) => ("DeploymentResumed", "Deployment is resumed"),
        _ => return None,
    };
    let transition = match progressing {
        Some(c) if c["status"] == "Unknown" => c["lastTransitionTime"].clone(),
        _ => json!(now),
    };
    let mut list: Vec<Value> = conditions
        .into_iter()
        .flatten()
        .filter(|c| c["type"] != "Progressing")
        .cloned()
        .collect();
    list.push(
        json!({"type": "Progressing", "status": "Unknown", "lastUpdateTime": now,
        "lastTransitionTime": transition, "reason": reason, "message": message}),
    );
    let key = Key::new(
        &crate::kinds::DEPLOYMENT,
        objects::namespace(d),
        objects::name(d),
    );
    let patch = json!({"status": {"conditions": list}});
    ops::merge(&env.store, &key, &patch, Part::Status, MANAGER).ok()
}

/// `FindActiveOrLatest`: the one ReplicaSet with replicas, or the newest when none has any;
/// `None` when several have (a paused rollout half done is left as it is).
fn active_or_latest(sets: &[Arc<Value>]) -> Option<Arc<Value>> {
    let active: Vec<&Arc<Value>> = sets.iter().filter(|rs| replicas(rs) > 0).collect();
    match active.as_slice() {
        [] => sets
            .iter()
            .max_by_key(|rs| {
                rs["metadata"]["creationTimestamp"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .cloned(),
        [one] => Some(Arc::clone(one)),
        _ => None,
    }
}

fn new_replica_set(d: &Value, hash: &str, revision: i64, replicas: i64) -> Value {
    let mut template = d["spec"]["template"].clone();
    template["metadata"]["labels"][HASH_LABEL] = json!(hash);
    let mut selector = d["spec"]["selector"].clone();
    selector["matchLabels"][HASH_LABEL] = json!(hash);
    let desired = d["spec"]["replicas"].as_i64().unwrap_or(1);
    let (surge, _) = limits(d, desired);
    let mut annotations = copied_annotations(d, &Value::Null);
    annotations[REVISION] = json!(revision.to_string());
    annotations["deployment.kubernetes.io/desired-replicas"] = json!(desired.to_string());
    annotations["deployment.kubernetes.io/max-replicas"] = json!((desired + surge).to_string());
    json!({
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": {
            "name": format!("{}-{hash}", objects::name(d)),
            "labels": template["metadata"]["labels"],
            "annotations": annotations,
            "ownerReferences": [objects::owner_reference(d, true)],
        },
        "spec": {"replicas": replicas, "selector": selector, "template": template},
    })
}

/// Scales a ReplicaSet and records the Deployment's `ScalingReplicaSet` event.
fn scale(env: &Env, d: &Value, rs: &Value, to: i64) -> bool {
    let from = replicas(rs);
    if from == to {
        return false;
    }
    // `scaleReplicaSet` rewrites the replica annotations with the Deployment's numbers too.
    let desired = d["spec"]["replicas"].as_i64().unwrap_or(1);
    let (surge, _) = limits(d, desired);
    let patch = json!({"spec": {"replicas": to}, "metadata": {"annotations": {
        "deployment.kubernetes.io/desired-replicas": desired.to_string(),
        "deployment.kubernetes.io/max-replicas": (desired + surge).to_string(),
    }}});
    let key = Key::new(
        &crate::kinds::REPLICA_SET,
        objects::namespace(rs),
        objects::name(rs),
    );
    let ok = ops::merge(&env.store, &key, &patch, Part::Main, MANAGER).is_ok();
    if ok {
        scaled_event(env, d, rs, from, to);
    }
    ok
}

fn scaled_event(env: &Env, d: &Value, rs: &Value, from: i64, to: i64) {
    if from == to {
        return;
    }
    let direction = if to > from { "up" } else { "down" };
    let message = format!(
        "Scaled {direction} replica set {} from {from} to {to}",
        objects::name(rs)
    );
    events::record(
        env,
        d,
        false,
        "ScalingReplicaSet",
        &message,
        "deployment-controller",
    );
}

/// Deletes old, empty ReplicaSets beyond `revisionHistoryLimit`, oldest first.
fn prune_history(env: &Env, d: &Value, old_sets: &[Arc<Value>]) {
    let limit = d["spec"]["revisionHistoryLimit"].as_u64().unwrap_or(10) as usize;
    let empty: Vec<&Arc<Value>> = old_sets
        .iter()
        .filter(|rs| replicas(rs) == 0 && rs["status"]["replicas"].as_i64().unwrap_or(0) == 0)
        .collect();
    for rs in empty.iter().take(empty.len().saturating_sub(limit)) {
        let _ = ops::delete(
            &env.store,
            &crate::kinds::REPLICA_SET,
            objects::namespace(rs),
            objects::name(rs),
            &DeleteOptions::default(),
        );
    }
}

fn replicas(rs: &Value) -> i64 {
    rs["spec"]["replicas"].as_i64().unwrap_or(0)
}

fn available(rs: &Value) -> i64 {
    rs["status"]["availableReplicas"].as_i64().unwrap_or(0)
}

/// (maxSurge, maxUnavailable) resolved against the desired count; surge rounds up,
/// unavailability down, and both zero would deadlock so unavailability becomes 1.
fn limits(d: &Value, desired: i64) -> (i64, i64) {
    let ru = &d["spec"]["strategy"]["rollingUpdate"];
    let resolve = |v: &Value, round_up: bool| -> i64 {
        match v {
            Value::Number(n) => n.as_i64().unwrap_or(0),
            Value::String(s) => {
                let pct: f64 = s.trim_end_matches('%').parse().unwrap_or(25.0);
                let exact = pct * desired as f64 / 100.0;
                (if round_up {
                    exact.ceil()
                } else {
                    exact.floor()
                }) as i64
            }
            _ => {
                let exact = desired as f64 * 0.25;
                (if round_up {
                    exact.ceil()
                } else {
                    exact.floor()
                }) as i64
            }
        }
    };
    let surge = resolve(&ru["maxSurge"], true);
    let unavailable = resolve(&ru["maxUnavailable"], false);
    if surge == 0 && unavailable == 0 {
        (0, 1)
    } else {
        (surge, unavailable)
    }
}

/// The pod-template-hash: FNV-1a over the template with keys sorted (so the same template
/// always hashes the same, however it was written), encoded in the alphabet Kubernetes uses.
pub fn template_hash(template: &Value) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            hash ^= u32::from(*b);
            hash = hash.wrapping_mul(0x0100_0193);
        }
    };
    canonical(template, &mut feed);
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    hash.to_string()
        .bytes()
        .map(|b| ALPHABET[b as usize % ALPHABET.len()] as char)
        .collect()
}

fn canonical(v: &Value, feed: &mut impl FnMut(&[u8])) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            feed(b"{");
            for k in keys {
                feed(k.as_bytes());
                feed(b":");
                canonical(&m[k], feed);
                feed(b",");
            }
            feed(b"}");
        }
        Value::Array(a) => {
            feed(b"[");
            for x in a {
                canonical(x, feed);
                feed(b",");
            }
            feed(b"]");
        }
        other => feed(other.to_string().as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_hash_ignores_key_order() {
        let a = json!({"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}});
        let b = json!({"spec": {"containers": [{"image": "nginx", "name": "web"}]}, "metadata": {"labels": {"app": "web"}}});
        assert_eq!(template_hash(&a), template_hash(&b));
        let c = json!({"spec": {"containers": [{"image": "nginx:2", "name": "web"}]}, "metadata": {"labels": {"app": "web"}}});
        assert_ne!(template_hash(&a), template_hash(&c));
        assert!(
            template_hash(&a)
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric())
        );
    }

    #[test]
    fn surge_rounds_up_and_unavailability_down() {
        let d = json!({"spec": {"strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}}});
        assert_eq!(limits(&d, 2), (1, 0));
        assert_eq!(limits(&d, 4), (1, 1));
        let zero =
            json!({"spec": {"strategy": {"rollingUpdate": {"maxSurge": 0, "maxUnavailable": 0}}}});
        assert_eq!(limits(&zero, 3), (0, 1));
    }
}
