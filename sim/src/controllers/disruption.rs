//! The disruption controller: each PodDisruptionBudget's status (`expectedPods`,
//! `currentHealthy`, `desiredHealthy`, `disruptionsAllowed` and the `DisruptionAllowed`
//! condition) from the Pods its selector picks and the scale of their controllers, so that
//! `kubectl describe pdb` and evictions see what a real cluster's controller-manager writes.

use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::{Env, MANAGER};
use crate::kinds::{
    DEPLOYMENT, POD, POD_DISRUPTION_BUDGET, REPLICA_SET, REPLICATION_CONTROLLER, STATEFUL_SET,
};
use crate::labels::LabelSelector;
use crate::objects;
use crate::ops::{self, Part};
use crate::store::{Event, Key};

pub struct Disruption;

fn budget_keys(env: &Env, namespace: Option<&str>) -> Vec<Key> {
    env.store
        .list(&POD_DISRUPTION_BUDGET, namespace)
        .0
        .iter()
        .map(|b| {
            Key::new(
                &POD_DISRUPTION_BUDGET,
                objects::namespace(b),
                objects::name(b),
            )
        })
        .collect()
}

impl Controller for Disruption {
    fn keys_for(&self, env: &Env, event: &Event) -> Vec<Key> {
        match event.key.ty().kind {
            "PodDisruptionBudget" => vec![event.key.clone()],
            "Pod" | "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController" => {
                budget_keys(env, Some(&event.key.namespace))
            }
            _ => Vec::new(),
        }
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        budget_keys(env, None)
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(pdb) = env.store.get(key).filter(|b| !objects::is_deleting(b)) else {
            return Next::Done;
        };
        let status = status(env, &pdb);
        if pdb["status"] != status {
            let _ = ops::merge(
                &env.store,
                key,
                &json!({"status": status}),
                Part::Status,
                MANAGER,
            );
        }
        Next::Done
    }
}

/// The Pods the budget covers (policy/v1: an empty selector picks every Pod of the namespace).
fn pods(env: &Env, pdb: &Value) -> Vec<std::sync::Arc<Value>> {
    let Ok(selector) = LabelSelector::from_object(&pdb["spec"]["selector"]) else {
        return Vec::new();
    };
    env.store
        .list(&POD, Some(objects::namespace(pdb)))
        .0
        .into_iter()
        .filter(|p| selector.matches(p))
        .collect()
}

fn status(env: &Env, pdb: &Value) -> Value {
    let pods = pods(env, pdb);
    let spec = &pdb["spec"];
    let healthy = pods
        .iter()
        .filter(|p| !objects::is_deleting(p) && is_ready(p))
        .count() as i64;
    let counts = match (&spec["minAvailable"], &spec["maxUnavailable"]) {
        (Value::Number(n), _) => Ok((pods.len() as i64, n.as_i64().unwrap_or(0))),
        (Value::String(pct), _) => expected_scale(env, &pods)
            .map(|expected| (expected, scaled(pct, expected).unwrap_or(expected))),
        (_, unavailable) if !unavailable.is_null() => expected_scale(env, &pods).map(|expected| {
            let down = match unavailable {
                Value::String(pct) => scaled(pct, expected).unwrap_or(0),
                v => v.as_i64().unwrap_or(0),
            };
            (expected, (expected - down).max(0))
        }),
        _ => Ok((pods.len() as i64, 1)),
    };
    let old = &pdb["status"];
    let (expected, desired, allowed, condition) = match counts {
        Ok((expected, desired)) => {
            let allowed = (healthy - desired).max(0);
            let (state, reason) = if allowed > 0 {
                ("True", "SufficientPods")
            } else {
                ("False", "InsufficientPods")
            };
            (expected, desired, allowed, (state, reason, String::new()))
        }
        // As the real controller's fail-safe: no disruption allowed, the counts left as they were.
        Err(why) => (
            old["expectedPods"].as_i64().unwrap_or(0),
            old["desiredHealthy"].as_i64().unwrap_or(0),
            0,
            ("False", "SyncFailed", why),
        ),
    };
    let previous = old["conditions"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["type"] == "DisruptionAllowed"));
    let since = previous
        .filter(|p| p["status"] == condition.0)
        .map(|p| p["lastTransitionTime"].clone())
        .unwrap_or_else(|| json!(env.store.clock.now_rfc3339()));
    let generation = &pdb["metadata"]["generation"];
    // A metav1.Condition always carries its message, empty or not.
    let cond = json!({"type": "DisruptionAllowed", "status": condition.0,
        "observedGeneration": generation, "lastTransitionTime": since, "reason": condition.1, "message": condition.2});
    json!({
        "observedGeneration": generation,
        "disruptionsAllowed": allowed,
        "currentHealthy": healthy,
        "desiredHealthy": desired,
        "expectedPods": expected,
        "conditions": [cond],
    })
}

/// `50%` of `total`, rounded up as the controller rounds.
fn scaled(pct: &str, total: i64) -> Option<i64> {
    let p: i64 = pct.strip_suffix('%')?.parse().ok()?;
    Some((p * total + 99) / 100)
}

/// The replicas the Pods' controllers ask for, each controller counted once; a Pod with no
/// controller that has a scale fails the sync, in the controller's words.
fn expected_scale(env: &Env, pods: &[std::sync::Arc<Value>]) -> Result<i64, String> {
    let mut seen: Vec<String> = Vec::new();
    let mut total = 0;
    for pod in pods {
        let namespace = objects::namespace(pod);
        let owner = objects::controller_of(pod)
            .and_then(|r| Some((r["kind"].as_str()?, r["name"].as_str()?)));
        let found = match owner {
            Some(("ReplicaSet", name)) => env
                .store
                .get(&Key::new(&REPLICA_SET, namespace, name))
                .map(|rs| {
                    let deployment = objects::controller_of(&rs)
                        .filter(|r| r["kind"] == "Deployment")
                        .and_then(|r| r["name"].as_str().map(String::from))
                        .and_then(|d| env.store.get(&Key::new(&DEPLOYMENT, namespace, &d)));
                    deployment.unwrap_or(rs)
                }),
            Some(("StatefulSet", name)) => env.store.get(&Key::new(&STATEFUL_SET, namespace, name)),
            Some(("ReplicationController", name)) => {
                env.store
                    .get(&Key::new(&REPLICATION_CONTROLLER, namespace, name))
            }
            _ => None,
        };
        let Some(controller) = found else {
            return Err(format!(
                "found no controllers for pod {:?}",
                objects::name(pod)
            ));
        };
        let uid = objects::uid(&controller).to_string();
        if !seen.contains(&uid) {
            total += controller["spec"]["replicas"].as_i64().unwrap_or(1);
            seen.push(uid);
        }
    }
    Ok(total)
}

fn is_ready(pod: &Value) -> bool {
    pod["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Ready" && c["status"] == "True")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_round_up() {
        assert_eq!(scaled("50%", 3), Some(2));
        assert_eq!(scaled("10%", 10), Some(1));
        assert_eq!(scaled("x", 10), None);
    }
}
