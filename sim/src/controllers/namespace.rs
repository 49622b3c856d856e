//! The namespace controller: a new Namespace gets its `default` ServiceAccount and the
//! `kube-root-ca.crt` ConfigMap (as on k3s); a deleted one stays `Terminating` until everything
//! in it is gone, then its `kubernetes` finalizer is released and it disappears.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::{Env, MANAGER};
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
        let mut by_resource: BTreeMap<String, usize> = BTreeMap::new();
        let mut by_finalizer: BTreeMap<String, usize> = BTreeMap::new();
        let served = env.store.kinds.all();
        for t in served
            .into_iter()
            .filter(|t| t.namespaced && t.view_of.is_none())
        {
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
            // What the deletes left behind: objects held by their finalizers.
            for obj in env.store.list(t, Some(&key.name)).0 {
                *by_resource
                    .entry(format!("{}.{}", t.plural, t.group))
                    .or_default() += 1;
                for f in objects::finalizers(&obj) {
                    *by_finalizer.entry(f).or_default() += 1;
                }
            }
        }
        write_conditions(env, key, &ns, &by_resource, &by_finalizer);
        if remaining > 0 {
            // Objects held by finalizers may take a while; look again even without an event.
            return Next::After(Duration::from_secs(2));
        }
        let patch = json!({"spec": {"finalizers": null}});
        let _ = ops::merge(&env.store, key, &patch, Part::Main, MANAGER);
        Next::Done
    }
}

/// One condition type: its True reason and message when something is wrong, and its False
/// reason and message.
type Wanted<'a> = (&'a str, Option<(&'a str, String)>, &'a str, &'a str);

/// The deletion conditions the namespace controller keeps on a terminating Namespace
/// (`namespaceConditionUpdater`): each of the five types, True with what is left (resources and
/// finalizers, sorted) or False with its "all done" words; a transition time moves only when
/// the status flips.
fn write_conditions(
    env: &Env,
    key: &Key,
    ns: &Value,
    by_resource: &BTreeMap<String, usize>,
    by_finalizer: &BTreeMap<String, usize>,
) {
    let join = |m: &BTreeMap<String, usize>, what: &str| {
        let mut parts: Vec<String> = m
            .iter()
            .map(|(k, n)| format!("{k}{what}{n} resource instances"))
            .collect();
        parts.sort();
        parts.join(", ")
    };
    let remaining = (!by_resource.is_empty()).then(|| {
        (
            "SomeResourcesRemain",
            format!(
                "Some resources are remaining: {}",
                join(by_resource, " has ")
            ),
        )
    });
    let finalizers = (!by_finalizer.is_empty()).then(|| {
        (
            "SomeFinalizersRemain",
            format!(
                "Some content in the namespace has finalizers remaining: {}",
                join(by_finalizer, " in ")
            ),
        )
    });
    let wanted: [Wanted; 5] = [
        (
            "NamespaceDeletionDiscoveryFailure",
            None,
            "ResourcesDiscovered",
            "All resources successfully discovered",
        ),
        (
            "NamespaceDeletionGroupVersionParsingFailure",
            None,
            "ParsedGroupVersions",
            "All legacy kube types successfully parsed",
        ),
        (
            "NamespaceDeletionContentFailure",
            None,
            "ContentDeleted",
            "All content successfully deleted, may be waiting on finalization",
        ),
        (
            "NamespaceContentRemaining",
            remaining,
            "ContentRemoved",
            "All content successfully removed",
        ),
        (
            "NamespaceFinalizersRemaining",
            finalizers,
            "ContentHasNoFinalizers",
            "All content-preserving finalizers finished",
        ),
    ];
    let now = env.store.clock.now_rfc3339();
    let mut list: Vec<Value> = ns["status"]["conditions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for (kind, failing, ok_reason, ok_message) in wanted {
        let (status, reason, message) = match failing {
            Some((reason, message)) => ("True", reason, message),
            None => ("False", ok_reason, ok_message.to_string()),
        };
        match list.iter_mut().find(|c| c["type"] == kind) {
            Some(old) => {
                if old["status"] != status {
                    old["lastTransitionTime"] = json!(now);
                }
                old["status"] = json!(status);
                old["reason"] = json!(reason);
                old["message"] = json!(message);
            }
            None => list.push(json!({"type": kind, "status": status,
                "lastTransitionTime": now, "reason": reason, "message": message})),
        }
    }
    if ns["status"]["conditions"] != Value::Array(list.clone()) {
        let patch = json!({"status": {"conditions": list}});
        let _ = ops::merge(&env.store, key, &patch, Part::Status, MANAGER);
    }
}
