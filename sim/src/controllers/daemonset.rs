//! The DaemonSet controller on a one-node cluster (docs/sim-behaviour.md §15.11): one Pod on
//! the node when its labels satisfy the template's `nodeSelector`, pinned there by node
//! affinity and tolerating the node conditions' taints; a changed template replaces the Pod
//! (RollingUpdate, one at a time) or waits for someone to delete it (OnDelete); the status
//! counts `kubectl rollout status` and `kubectl get ds` read.

use serde_json::{Value, json};

use super::deployment::template_hash;
use super::node::NODE_NAME;
use super::queue::{Controller, Next};
use super::replicaset::{drop_zero_counts, status_patch};
use super::{Env, MANAGER, events, owned, owner_key};
use crate::objects;
use crate::ops::{self, Actor, Part};
use crate::store::{Event, Key};

pub struct DaemonSets;

const HASH_LABEL: &str = "controller-revision-hash";
const GENERATION_LABEL: &str = "pod-template-generation";
const COMPONENT: &str = "daemonset-controller";

/// The taints a DaemonSet's Pods tolerate, as the controller adds them.
fn tolerations() -> Value {
    let t = |key: &str, effect: &str| json!({"key": key, "operator": "Exists", "effect": effect});
    json!([
        t("node.kubernetes.io/not-ready", "NoExecute"),
        t("node.kubernetes.io/unreachable", "NoExecute"),
        t("node.kubernetes.io/disk-pressure", "NoSchedule"),
        t("node.kubernetes.io/memory-pressure", "NoSchedule"),
        t("node.kubernetes.io/pid-pressure", "NoSchedule"),
        t("node.kubernetes.io/unschedulable", "NoSchedule"),
    ])
}

impl Controller for DaemonSets {
    fn keys_for(&self, _env: &Env, event: &Event) -> Vec<Key> {
        match event.key.ty().kind {
            "DaemonSet" => vec![event.key.clone()],
            "Pod" => owner_key(&event.object, &crate::kinds::DAEMON_SET)
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        let ds = &crate::kinds::DAEMON_SET;
        env.store
            .list(ds, None)
            .0
            .iter()
            .map(|o| Key::new(ds, objects::namespace(o), objects::name(o)))
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(ds) = env.store.get(key).filter(|d| !objects::is_deleting(d)) else {
            return Next::Done;
        };
        let pod_ty = &crate::kinds::POD;
        let hash = template_hash(&ds["spec"]["template"]);
        super::revisions::record(env, &ds, &format!("{}-{hash}", key.name));
        let pods = owned(env, pod_ty, &key.namespace, objects::uid(&ds));
        let wanted = usize::from(fits_node(env, &ds));
        let current = |p: &Value| p["metadata"]["labels"][HASH_LABEL] == hash.as_str();
        let on_delete = ds["spec"]["updateStrategy"]["type"] == "OnDelete";
        let mut next = Next::Done;
        let created = (pods.is_empty() && wanted == 1).then(|| {
            ops::create(
                &env.store,
                pod_ty,
                &key.namespace,
                pod(&ds, &hash),
                &Actor::new(MANAGER),
            )
        });
        match created {
            Some(Ok(p)) => {
                let message = format!("Created pod: {}", objects::name(&p));
                events::record(env, &ds, false, "SuccessfulCreate", &message, COMPONENT);
            }
            Some(Err(e)) => {
                let message = format!("Error creating: {}", e.message);
                events::record(env, &ds, true, "FailedCreate", &message, COMPONENT);
                next = Next::After(std::time::Duration::from_secs(5));
            }
            None => {}
        }
        for stale in pods
            .iter()
            .filter(|p| wanted == 0 || (!on_delete && !current(p)))
        {
            let name = objects::name(stale);
            super::delete_owned_pod(env, &ds, &key.namespace, name, COMPONENT);
        }
        let pods = owned(env, pod_ty, &key.namespace, objects::uid(&ds));
        let ready = pods.iter().filter(|p| is_ready(p)).count();
        let updated = pods.iter().filter(|p| current(p)).count();
        let mut status = json!({
            "currentNumberScheduled": pods.len().min(wanted),
            "desiredNumberScheduled": wanted,
            "numberMisscheduled": pods.len().saturating_sub(wanted),
            "numberReady": ready,
            "numberAvailable": ready,
            "numberUnavailable": wanted.saturating_sub(ready),
            "updatedNumberScheduled": updated,
            "observedGeneration": ds["metadata"]["generation"],
        });
        drop_zero_counts(
            &mut status,
            &[
                "numberAvailable",
                "numberUnavailable",
                "updatedNumberScheduled",
            ],
        );
        if ds["status"] != status {
            let patch = json!({"status": status_patch(&ds["status"], &status)});
            let _ = ops::merge(&env.store, key, &patch, Part::Status, MANAGER);
        }
        next
    }
}

/// Whether the node's labels satisfy the template's `nodeSelector`.
fn fits_node(env: &Env, ds: &Value) -> bool {
    let Some(node) = env.store.get(&Key::new(&crate::kinds::NODE, "", NODE_NAME)) else {
        return false;
    };
    ds["spec"]["template"]["spec"]["nodeSelector"]
        .as_object()
        .into_iter()
        .flatten()
        .all(|(k, v)| node["metadata"]["labels"][k] == *v)
}

fn is_ready(pod: &Value) -> bool {
    pod["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Ready" && c["status"] == "True")
}

/// The Pod for the node: the template, the revision labels, pinned to the node by affinity.
fn pod(ds: &Value, hash: &str) -> Value {
    let mut pod = super::pod_from_template(ds);
    let generation = ds["metadata"]["generation"]
        .as_i64()
        .unwrap_or(1)
        .to_string();
    let labels = &mut pod["metadata"]["labels"];
    if !labels.is_object() {
        *labels = json!({});
    }
    labels[HASH_LABEL] = json!(hash);
    labels[GENERATION_LABEL] = json!(generation);
    pod["spec"]["affinity"] = json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [NODE_NAME]}]}]}}});
    let mut all = pod["spec"]["tolerations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for t in tolerations().as_array().into_iter().flatten() {
        if !all.iter().any(|x| x["key"] == t["key"]) {
            all.push(t.clone());
        }
    }
    pod["spec"]["tolerations"] = json!(all);
    pod
}
