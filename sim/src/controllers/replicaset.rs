//! The ReplicaSet controller: keeps `spec.replicas` Pods from the template, owned by the
//! ReplicaSet, and reports how many exist, are ready and are available. The same loop keeps
//! the ReplicationControllers of core/v1 (their selector is a plain label map).

use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::{Env, MANAGER, events, owned, owner_key};
use crate::kinds::ResourceType;
use crate::objects;
use crate::ops::{self, Actor, Part};
use crate::store::{Event, Key};

/// One replica-keeping controller: the kind it keeps and the component its Events name.
pub struct ReplicaSets {
    ty: &'static ResourceType,
    component: &'static str,
}

impl ReplicaSets {
    pub const REPLICA_SETS: ReplicaSets = ReplicaSets {
        ty: &crate::kinds::REPLICA_SET,
        component: "replicaset-controller",
    };
    pub const REPLICATION_CONTROLLERS: ReplicaSets = ReplicaSets {
        ty: &crate::kinds::REPLICATION_CONTROLLER,
        component: "replication-controller",
    };
}

impl Controller for ReplicaSets {
    fn keys_for(&self, _env: &Env, event: &Event) -> Vec<Key> {
        match event.key.ty().kind {
            k if k == self.ty.kind => vec![event.key.clone()],
            "Pod" => owner_key(&event.object, self.ty).into_iter().collect(),
            _ => Vec::new(),
        }
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        let rs = self.ty;
        env.store
            .list(rs, None)
            .0
            .iter()
            .map(|o| Key::new(rs, objects::namespace(o), objects::name(o)))
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(rs) = env.store.get(key) else {
            return Next::Done;
        };
        if objects::is_deleting(&rs) {
            return Next::Done;
        }
        let pod_ty = &crate::kinds::POD;
        let mut pods = owned(env, pod_ty, &key.namespace, objects::uid(&rs));
        let desired = rs["spec"]["replicas"].as_u64().unwrap_or(1) as usize;
        let actor = Actor::new(MANAGER);
        while pods.len() < desired {
            match ops::create(
                &env.store,
                pod_ty,
                &key.namespace,
                super::pod_from_template(&rs),
                &actor,
            ) {
                Ok(pod) => {
                    events::record(
                        env,
                        &rs,
                        false,
                        "SuccessfulCreate",
                        &format!("Created pod: {}", objects::name(&pod)),
                        self.component,
                    );
                    pods.push(pod);
                }
                Err(e) => {
                    events::record(
                        env,
                        &rs,
                        true,
                        "FailedCreate",
                        &format!("Error creating: {}", e.message),
                        self.component,
                    );
                    return Next::After(std::time::Duration::from_secs(5));
                }
            }
        }
        if pods.len() > desired {
            // Remove the least useful first: not ready before ready, newest before oldest.
            pods.sort_by_key(|p| (is_ready(p), std::cmp::Reverse(super::created(p))));
            for pod in pods.drain(..pods.len() - desired) {
                let name = objects::name(&pod);
                super::delete_owned_pod(env, &rs, &key.namespace, name, self.component);
            }
        }
        let ready = pods.iter().filter(|p| is_ready(p)).count();
        let mut status = json!({"replicas": pods.len(), "fullyLabeledReplicas": pods.len(), "readyReplicas": ready, "availableReplicas": ready, "observedGeneration": rs["metadata"]["generation"]});
        drop_zero_counts(
            &mut status,
            &["fullyLabeledReplicas", "readyReplicas", "availableReplicas"],
        );
        // Kubernetes 1.35 counts a ReplicaSet's pods on their way out (a pointer: 0 is shown);
        // the ReplicationController's loop does not.
        if self.ty.kind == "ReplicaSet" {
            status["terminatingReplicas"] = json!(terminating(env, &key.namespace, &rs));
        }
        if rs["status"] != status {
            let patch = json!({"status": status_patch(&rs["status"], &status)});
            let _ = ops::merge(&env.store, key, &patch, Part::Status, MANAGER);
        }
        Next::Done
    }
}

/// The ReplicaSet's pods that are being deleted (`FilterTerminatingPods`).
fn terminating(env: &Env, namespace: &str, rs: &Value) -> usize {
    let uid = objects::uid(rs);
    env.store
        .list(&crate::kinds::POD, Some(namespace))
        .0
        .iter()
        .filter(|p| objects::is_deleting(p))
        .filter(|p| objects::controller_of(p).is_some_and(|r| r["uid"] == uid))
        .count()
}

/// A merge patch turning `old` status into `new` (counts that dropped to zero are removed).
pub fn status_patch(old: &Value, new: &Value) -> Value {
    let mut patch = new.clone();
    if let (Some(o), Some(p)) = (old.as_object(), patch.as_object_mut()) {
        for k in o.keys() {
            if !p.contains_key(k) {
                p.insert(k.clone(), Value::Null);
            }
        }
    }
    patch
}

/// Counts of zero are left out of status, as the real API types' `omitempty` does.
pub fn drop_zero_counts(status: &mut Value, keys: &[&str]) {
    if let Some(o) = status.as_object_mut() {
        for k in keys {
            if o.get(*k).and_then(Value::as_u64) == Some(0) {
                o.remove(*k);
            }
        }
    }
}

pub fn is_ready(pod: &Value) -> bool {
    pod["status"]["conditions"].as_array().is_some_and(|c| {
        c.iter()
            .any(|c| c["type"] == "Ready" && c["status"] == "True")
    })
}
