//! The resource quota controller: keeps each ResourceQuota's `status.hard` (its spec's) and
//! `status.used` (what the namespace holds now, `crate::ops::quota`), so `kubectl get quota`
//! and `describe quota` show `pods: 2/10`. Resources it does not account are listed as 0.

use serde_json::{Map, Value, json};

use super::queue::{Controller, Next};
use super::{Env, MANAGER};
use crate::amount;
use crate::kinds::RESOURCE_QUOTA;
use crate::objects;
use crate::ops::{self, Part, quota};
use crate::store::{Event, Key};

pub struct Quotas;

fn quota_keys(env: &Env, namespace: Option<&str>) -> Vec<Key> {
    env.store
        .list(&RESOURCE_QUOTA, namespace)
        .0
        .iter()
        .map(|q| Key::new(&RESOURCE_QUOTA, objects::namespace(q), objects::name(q)))
        .collect()
}

impl Controller for Quotas {
    fn keys_for(&self, env: &Env, event: &Event) -> Vec<Key> {
        if event.key.namespace.is_empty() {
            return Vec::new();
        }
        // Any change in a namespace may change what its quotas count.
        quota_keys(env, Some(&event.key.namespace))
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        quota_keys(env, None)
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(q) = env.store.get(key) else {
            return Next::Done;
        };
        let hard = q["spec"]["hard"].as_object().cloned().unwrap_or_default();
        let used: Map<String, Value> = hard
            .keys()
            .map(|resource| {
                let n = quota::used(&env.store, &key.namespace, resource).unwrap_or(0);
                (resource.clone(), json!(amount::format_milli(n)))
            })
            .collect();
        let status = json!({"hard": hard, "used": used});
        if q["status"] != status {
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
