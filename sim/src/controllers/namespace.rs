//! The namespace controller: a new Namespace gets its `default` ServiceAccount and the
//! `kube-root-ca.crt` ConfigMap (as on k3s); a deleted one stays `Terminating` until everything
//! in it is gone, then its `kubernetes` finalizer is released and it disappears.

use std::time::Duration;

use serde_json::json;

use super::queue::{Controller, Next};
use super::{Env, MANAGER};
use crate::kinds::TYPES;
use crate::objects;
use crate::ops::{self, Actor, DeleteOptions, Part, Propagation};
use crate::store::{Event, EventType, Key};

pub struct Namespaces;

impl Controller for Namespaces {
    fn keys_for(&self, _env: &Env, event: &Event) -> Vec<Key> {
        let namespaces = &crate::kinds::NAMESPACE;
        if event.key.ty().kind == "Namespace" {
            return vec![event.key.clone()];
        }
        // Content leaving a terminating namespace may let it finish.
        if event.kind == EventType::Deleted && !event.key.namespace.is_empty() {
            return vec![Key::new(namespaces, "", &event.key.namespace)];
        }
        Vec::new()
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        let namespaces = &crate::kinds::NAMESPACE;
        env.store
            .list(namespaces, None)
            .0
            .iter()
            .map(|o| Key::new(namespaces, "", objects::name(o)))
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(ns) = env.store.get(key) else {
            return Next::Done;
        };
        let actor = Actor::new(MANAGER);
        if !objects::is_deleting(&ns) {
            let ca = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kube-root-ca.crt", "annotations": {"kubernetes.io/description": "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters."}}, "data": {"ca.crt": "-----BEGIN CERTIFICATE-----\n(embedded lab cluster: no real CA)\n-----END CERTIFICATE-----\n"}});
            let sa = json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default"}});
            for (t, body) in [
                (&crate::kinds::CONFIG_MAP, ca),
                (&crate::kinds::SERVICE_ACCOUNT, sa),
            ] {
                if env
                    .store
                    .get(&Key::new(t, &key.name, objects::name(&body)))
                    .is_none()
                {
                    let _ = ops::create(&env.store, t, &key.name, body, &actor);
                }
            }
            return Next::Done;
        }
        let mut remaining = 0;
        for t in TYPES.iter().filter(|t| t.namespaced) {
            for obj in env.store.list(t, Some(&key.name)).0 {
                remaining += 1;
                if !objects::is_deleting(&obj) {
                    let opts = DeleteOptions {
                        propagation: Some(Propagation::Background),
                        ..DeleteOptions::default()
                    };
                    let _ = ops::delete(&env.store, t, &key.name, objects::name(&obj), &opts);
                }
            }
        }
        if remaining > 0 {
            // Objects held by finalizers may take a while; look again even without an event.
            return Next::After(Duration::from_secs(2));
        }
        let patch = json!({"spec": {"finalizers": null}});
        let _ = ops::merge(&env.store, key, &patch, Part::Main, MANAGER);
        Next::Done
    }
}
