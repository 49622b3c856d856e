//! The Deployment controller: one ReplicaSet per pod template (named by `pod-template-hash`),
//! rolling updates within maxSurge / maxUnavailable (or Recreate), old ReplicaSets pruned to
//! `revisionHistoryLimit`, and the status and conditions `kubectl rollout status` and Argo CD's
//! health check read, with the real controller's reasons and messages.

use std::sync::Arc;

use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::replicaset::{drop_zero_counts, status_patch};
use super::{Env, MANAGER, events, owned, owner_key, set_condition, ty};
use crate::sim::objects;
use crate::sim::ops::{self, Actor, DeleteOptions, Part};
use crate::sim::patch::PatchKind;
use crate::sim::store::{Event, Key};

pub struct Deployments;

const REVISION: &str = "deployment.kubernetes.io/revision";
const HASH_LABEL: &str = "pod-template-hash";

impl Controller for Deployments {
    fn keys_for(&self, _env: &Env, event: &Event) -> Vec<Key> {
        match event.key.ty().kind {
            "Deployment" => vec![event.key.clone()],
            "ReplicaSet" => owner_key(&event.object, "apps/v1", "Deployment")
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        let d = ty("apps/v1", "Deployment");
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
        let rs_ty = ty("apps/v1", "ReplicaSet");
        let actor = Actor::new(MANAGER);
        let desired = d["spec"]["replicas"].as_i64().unwrap_or(1).max(0);
        let hash = template_hash(&d["spec"]["template"]);
        let mut sets = owned(env, rs_ty, &key.namespace, objects::uid(&d));
        sets.sort_by_key(|rs| revision(rs));
        let max_revision = sets.iter().map(|rs| revision(rs)).max().unwrap_or(0);
        let (mut new_rs, old_sets): (Vec<_>, Vec<_>) = sets
            .into_iter()
            .partition(|rs| rs["metadata"]["labels"][HASH_LABEL] == hash.as_str());
        let now = env.store.clock.now_rfc3339();
        let mut progress = None;
        let new_rs = match new_rs.pop() {
            Some(rs) => rs,
            None => {
                let initial = if old_sets.iter().all(|rs| replicas(rs) == 0) {
                    desired
                } else {
                    0
                };
                let body = new_replica_set(&d, &hash, max_revision + 1, initial);
                match ops::create(&env.store, rs_ty, &key.namespace, body, &actor) {
                    Ok(rs) => {
                        scaled_event(env, &d, &rs, 0, initial);
                        progress = Some((
                            "NewReplicaSetCreated",
                            format!("Created new replica set \"{}\"", objects::name(&rs)),
                        ));
                        rs
                    }
                    Err(e) => {
                        events::record(
                            env,
                            &d,
                            true,
                            "FailedCreate",
                            &e.message,
                            "deployment-controller",
                        );
                        return Next::After(std::time::Duration::from_secs(5));
                    }
                }
            }
        };
        let (max_surge, max_unavailable) = limits(&d, desired);
        let recreate = d["spec"]["strategy"]["type"] == "Recreate";
        let mut changed = false;
        if recreate {
            for rs in old_sets.iter().filter(|rs| replicas(rs) > 0) {
                changed |= scale(env, &d, rs, 0);
            }
            if old_sets
                .iter()
                .all(|rs| replicas(rs) == 0 && rs["status"]["replicas"].as_i64().unwrap_or(0) == 0)
            {
                changed |= scale(env, &d, &new_rs, desired);
            }
        } else if old_sets.iter().all(|rs| replicas(rs) == 0) {
            changed |= scale(env, &d, &new_rs, desired);
        } else {
            let total: i64 = old_sets
                .iter()
                .chain([&new_rs])
                .map(|rs| replicas(rs))
                .sum();
            let room = (desired + max_surge - total).min(desired - replicas(&new_rs));
            if room > 0 {
                changed |= scale(env, &d, &new_rs, replicas(&new_rs) + room);
            }
            let available_now: i64 = old_sets
                .iter()
                .chain([&new_rs])
                .map(|rs| available(rs))
                .sum();
            let mut spare = (available_now - (desired - max_unavailable)).max(0);
            for rs in &old_sets {
                let unavailable_here = replicas(rs) - available(rs);
                let remove = replicas(rs).min(spare + unavailable_here.max(0));
                if remove > 0 {
                    changed |= scale(env, &d, rs, replicas(rs) - remove);
                    spare -= (remove - unavailable_here.max(0)).max(0);
                }
            }
        }
        prune_history(env, &d, &old_sets);
        if changed && progress.is_none() {
            progress = Some((
                "ReplicaSetUpdated",
                format!("ReplicaSet \"{}\" is progressing.", objects::name(&new_rs)),
            ));
        }
        // Read back what the scaling above produced before reporting.
        let sets = owned(env, rs_ty, &key.namespace, objects::uid(&d));
        write_status(
            env,
            &d,
            &sets,
            &new_rs,
            desired,
            max_unavailable,
            progress,
            &now,
        );
        Next::Done
    }
}

#[allow(clippy::too_many_arguments)]
fn write_status(
    env: &Env,
    d: &Value,
    sets: &[Arc<Value>],
    new_rs: &Value,
    desired: i64,
    max_unavailable: i64,
    progress: Option<(&str, String)>,
    now: &str,
) {
    let sum = |f: &dyn Fn(&Value) -> i64| sets.iter().map(|rs| f(rs)).sum::<i64>();
    let status_replicas = sum(&|rs| rs["status"]["replicas"].as_i64().unwrap_or(0));
    let spec_total = sum(&replicas);
    let ready = sum(&|rs| rs["status"]["readyReplicas"].as_i64().unwrap_or(0));
    let avail = sum(&available);
    let new_name = objects::name(new_rs);
    let updated = sets
        .iter()
        .find(|rs| objects::name(rs) == new_name)
        .map_or(0, |rs| rs["status"]["replicas"].as_i64().unwrap_or(0));
    let mut status = d["status"].clone();
    if !status.is_object() {
        status = json!({});
    }
    for (k, v) in [
        (
            "observedGeneration",
            d["metadata"]["generation"].as_i64().unwrap_or(1),
        ),
        ("replicas", status_replicas),
        ("updatedReplicas", updated),
        ("readyReplicas", ready),
        ("availableReplicas", avail),
        ("unavailableReplicas", (spec_total - avail).max(0)),
    ] {
        status[k] = json!(v);
    }
    drop_zero_counts(
        &mut status,
        &[
            "replicas",
            "updatedReplicas",
            "readyReplicas",
            "availableReplicas",
            "unavailableReplicas",
        ],
    );
    let minimum = avail >= desired - max_unavailable;
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
    set_condition(
        &mut status,
        "Available",
        minimum,
        reason,
        message,
        now,
        true,
    );
    let complete = updated == desired && avail == desired && status_replicas == desired;
    let progressing = if complete {
        Some((
            "NewReplicaSetAvailable",
            format!("ReplicaSet \"{new_name}\" has successfully progressed."),
        ))
    } else if progress.is_none()
        && status["conditions"]
            .as_array()
            .is_some_and(|c| !c.iter().any(|c| c["type"] == "Progressing"))
    {
        Some((
            "FoundNewReplicaSet",
            format!("Found new replica set \"{new_name}\""),
        ))
    } else {
        progress
    };
    if let Some((reason, message)) = progressing {
        set_condition(
            &mut status,
            "Progressing",
            true,
            reason,
            &message,
            now,
            true,
        );
    }
    // Keep Available before Progressing, as `kubectl get -o yaml` shows them on a real cluster.
    if let Some(list) = status["conditions"].as_array_mut() {
        list.sort_by_key(|c| c["type"] != "Available");
    }
    let key = (objects::namespace(d), objects::name(d));
    let actor = Actor::new(MANAGER);
    if d["status"] != status {
        let patch = json!({"status": status_patch(&d["status"], &status)});
        let _ = ops::patch(
            &env.store,
            ty("apps/v1", "Deployment"),
            key.0,
            key.1,
            PatchKind::Merge,
            &patch,
            Part::Status,
            false,
            &actor,
        );
    }
    let rev = new_rs["metadata"]["annotations"][REVISION].clone();
    if d["metadata"]["annotations"][REVISION] != rev {
        let patch = json!({"metadata": {"annotations": {REVISION: rev}}});
        let _ = ops::patch(
            &env.store,
            ty("apps/v1", "Deployment"),
            key.0,
            key.1,
            PatchKind::Merge,
            &patch,
            Part::Main,
            false,
            &actor,
        );
    }
}

fn new_replica_set(d: &Value, hash: &str, revision: i64, replicas: i64) -> Value {
    let mut template = d["spec"]["template"].clone();
    template["metadata"]["labels"][HASH_LABEL] = json!(hash);
    let mut selector = d["spec"]["selector"].clone();
    selector["matchLabels"][HASH_LABEL] = json!(hash);
    let desired = d["spec"]["replicas"].as_i64().unwrap_or(1);
    let (surge, _) = limits(d, desired);
    json!({
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": {
            "name": format!("{}-{hash}", objects::name(d)),
            "labels": template["metadata"]["labels"],
            "annotations": {
                REVISION: revision.to_string(),
                "deployment.kubernetes.io/desired-replicas": desired.to_string(),
                "deployment.kubernetes.io/max-replicas": (desired + surge).to_string(),
            },
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
    let patch = json!({"spec": {"replicas": to}});
    let ok = ops::patch(
        &env.store,
        ty("apps/v1", "ReplicaSet"),
        objects::namespace(rs),
        objects::name(rs),
        PatchKind::Merge,
        &patch,
        Part::Main,
        false,
        &Actor::new(MANAGER),
    )
    .is_ok();
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
            ty("apps/v1", "ReplicaSet"),
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

fn revision(rs: &Value) -> i64 {
    rs["metadata"]["annotations"][REVISION]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
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
