//! What the persistent-volume controllers of k3s do without a storage backend to talk to: a new
//! PersistentVolume with no claim becomes `Available`, and the protection controllers let a
//! deleted claim or volume go once nothing uses it (no Pod mounts the claim; no claim is bound
//! to the volume) by removing the finalizer admission gave it. Claims are not bound here:
//! with k3s's `local-path` class (WaitForFirstConsumer) a claim waits for its Pod, and the
//! embedded cluster provisions no volumes.

use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::{Env, MANAGER};
use crate::kinds::{PERSISTENT_VOLUME, PERSISTENT_VOLUME_CLAIM, POD};
use crate::objects;
use crate::ops::{self, Part};
use crate::ops::{CLAIM_PROTECTION, VOLUME_PROTECTION};
use crate::store::{Event, Key};

pub struct Volumes;

impl Controller for Volumes {
    fn keys_for(&self, env: &Env, event: &Event) -> Vec<Key> {
        match event.key.ty().kind {
            "PersistentVolumeClaim" | "PersistentVolume" => vec![event.key.clone()],
            // A Pod going away may free the claims it mounted.
            "Pod" => env
                .store
                .list(&PERSISTENT_VOLUME_CLAIM, Some(&event.key.namespace))
                .0
                .iter()
                .filter(|c| objects::is_deleting(c))
                .map(|c| {
                    Key::new(
                        &PERSISTENT_VOLUME_CLAIM,
                        objects::namespace(c),
                        objects::name(c),
                    )
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        [&PERSISTENT_VOLUME_CLAIM, &PERSISTENT_VOLUME]
            .into_iter()
            .flat_map(|ty| {
                env.store
                    .list(ty, None)
                    .0
                    .iter()
                    .map(|o| Key::new(ty, objects::namespace(o), objects::name(o)))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(obj) = env.store.get(key) else {
            return Next::Done;
        };
        let claim = key.ty().kind == "PersistentVolumeClaim";
        if objects::is_deleting(&obj) {
            let (finalizer, in_use) = if claim {
                (CLAIM_PROTECTION, mounted(env, &obj))
            } else {
                (VOLUME_PROTECTION, obj["status"]["phase"] == "Bound")
            };
            let finalizers = objects::finalizers(&obj);
            if !in_use && finalizers.iter().any(|f| f == finalizer) {
                let kept: Vec<&String> = finalizers.iter().filter(|f| *f != finalizer).collect();
                let patch = json!({"metadata": {"finalizers": kept}});
                let _ = ops::merge(&env.store, key, &patch, Part::Main, MANAGER);
            }
            return Next::Done;
        }
        let pending = obj["status"]["phase"]
            .as_str()
            .is_none_or(|p| p == "Pending");
        if !claim && pending && obj["spec"]["claimRef"].is_null() {
            let now = env.store.clock.now_rfc3339();
            let patch = json!({"status": {"phase": "Available", "lastPhaseTransitionTime": now}});
            let _ = ops::merge(&env.store, key, &patch, Part::Status, MANAGER);
        }
        Next::Done
    }
}

/// Whether a Pod that has not finished mounts the claim.
fn mounted(env: &Env, claim: &Value) -> bool {
    let name = objects::name(claim);
    env.store
        .list(&POD, Some(objects::namespace(claim)))
        .0
        .iter()
        .filter(|p| !matches!(p["status"]["phase"].as_str(), Some("Succeeded" | "Failed")))
        .any(|p| {
            p["spec"]["volumes"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|v| v["persistentVolumeClaim"]["claimName"] == name)
        })
}
