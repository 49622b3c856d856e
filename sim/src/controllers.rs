//! The workload controllers of the embedded cluster (what k3s runs): Deployments, ReplicaSets,
//! Pods (a small kubelet), Jobs, the garbage collector, the namespace controller and the volume
//! protection controllers. Each watches the store's change stream, keeps a de-duplicated queue
//! of keys, and writes through `ops` as field manager `k3s`, exactly as k3s's built-in
//! controllers appear in managedFields.

pub mod crd;
mod daemonset;
mod deployment;
mod disruption;
pub mod endpoints;
mod events;
mod gc;
mod hpa;
mod job;
mod kubelet;
mod namespace;
pub mod node;
mod queue;
mod quota;
mod replicaset;
mod revisions;
mod startup;
mod statefulset;
mod volume;

use std::sync::Arc;

use tokio::task::JoinHandle;

pub use events::Correlator as EventCorrelator;
pub use events::audit as record_event;

use super::logs::LogBook;
use super::store::Store;

/// The field manager k3s's controllers write as.
pub const MANAGER: &str = "k3s";

/// What every controller can reach.
#[derive(Clone)]
pub struct Env {
    pub store: Arc<Store>,
    pub logs: Arc<LogBook>,
    /// The event recorders' memory (repeats counted, similar Events combined).
    pub events: Arc<events::Correlator>,
}

/// Starts every controller; they stop when the returned handles are aborted.
/// `kubelet_version` is the version the node reports (that of `/version`).
pub fn spawn_all(env: Env, kubelet_version: &str) -> Vec<JoinHandle<()>> {
    vec![
        queue::run(env.clone(), node::Heartbeat::new(kubelet_version)),
        queue::run(env.clone(), endpoints::Endpoints),
        queue::run(env.clone(), deployment::Deployments),
        queue::run(env.clone(), replicaset::ReplicaSets::REPLICA_SETS),
        queue::run(
            env.clone(),
            replicaset::ReplicaSets::REPLICATION_CONTROLLERS,
        ),
        queue::run(env.clone(), daemonset::DaemonSets),
        queue::run(env.clone(), statefulset::StatefulSets),
        queue::run(env.clone(), kubelet::Kubelet::default()),
        queue::run(env.clone(), job::Jobs),
        queue::run(env.clone(), namespace::Namespaces),
        queue::run(env.clone(), hpa::Autoscalers::default()),
        queue::run(env.clone(), quota::Quotas),
        queue::run(env.clone(), disruption::Disruption),
        queue::run(env.clone(), volume::Volumes),
        queue::run(env.clone(), crd::Definitions),
        gc::run(env),
    ]
}

use serde_json::Value;

use super::kinds::ResourceType;
use super::objects;

/// Objects of `ty` in `namespace` whose controlling owner has this uid (and are not deleting).
fn owned(
    env: &Env,
    ty: &'static ResourceType,
    namespace: &str,
    owner_uid: &str,
) -> Vec<Arc<Value>> {
    env.store
        .list(ty, Some(namespace))
        .0
        .into_iter()
        .filter(|o| !objects::is_deleting(o))
        .filter(|o| objects::controller_of(o).is_some_and(|r| r["uid"] == owner_uid))
        .collect()
}

/// The key of the object's controlling owner, if it is of type `owner`.
fn owner_key(obj: &Value, owner: &'static ResourceType) -> Option<super::store::Key> {
    let r = objects::controller_of(obj)?;
    (r["kind"] == owner.kind).then(|| {
        super::store::Key::new(
            owner,
            objects::namespace(obj),
            r["name"].as_str().unwrap_or_default(),
        )
    })
}

/// `metadata.creationTimestamp` as a timestamp (epoch when absent).
fn created(obj: &Value) -> jiff::Timestamp {
    obj["metadata"]["creationTimestamp"]
        .as_str()
        .and_then(super::clock::parse)
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
}

/// Deletes a Pod a controller owns and records `SuccessfulDelete` on the owner, as the
/// ReplicaSet and DaemonSet controllers do.
fn delete_owned_pod(env: &Env, owner: &Value, namespace: &str, name: &str, component: &str) {
    if crate::ops::delete(
        &env.store,
        &crate::kinds::POD,
        namespace,
        name,
        &crate::ops::DeleteOptions::default(),
    )
    .is_ok()
    {
        events::record(
            env,
            owner,
            false,
            "SuccessfulDelete",
            &format!("Deleted pod: {name}"),
            component,
        );
    }
}

/// One entry of a `status.conditions` list, as a controller words it.
struct Condition<'a> {
    /// The condition's `type`.
    kind: &'a str,
    status: bool,
    reason: &'a str,
    message: &'a str,
}

/// Sets a condition in a `status.conditions` list the way controllers do: the transition time
/// moves only when the status flips; reason and message are refreshed.
fn set_condition(status: &mut Value, condition: &Condition, now: &str, with_update_time: bool) {
    let &Condition {
        kind: cond_type,
        status: cond_status,
        reason,
        message,
    } = condition;
    let status_word = if cond_status { "True" } else { "False" };
    if !status["conditions"].is_array() {
        status["conditions"] = Value::Array(Vec::new());
    }
    let Some(list) = status["conditions"].as_array_mut() else {
        return;
    };
    let existing = list.iter_mut().find(|c| c["type"] == cond_type);
    let mut cond = serde_json::json!({"type": cond_type, "status": status_word, "reason": reason, "message": message, "lastTransitionTime": now});
    if with_update_time {
        cond["lastUpdateTime"] = now.into();
    }
    match existing {
        Some(old) => {
            if old["status"] == status_word {
                cond["lastTransitionTime"] = old["lastTransitionTime"].clone();
                if with_update_time && old["reason"] == reason && old["message"] == message {
                    cond["lastUpdateTime"] = old["lastUpdateTime"].clone();
                }
            }
            *old = cond;
        }
        None => list.push(cond),
    }
}

/// A Pod for `owner` (a ReplicaSet or Job) from its `spec.template`, named after it; the
/// scheduler binds it to the node afterwards.
fn pod_from_template(owner: &Value) -> Value {
    let template = &owner["spec"]["template"];
    let spec = template["spec"].clone();
    let mut meta = serde_json::json!({
        "generateName": format!("{}-", objects::name(owner)),
        "ownerReferences": [objects::owner_reference(owner, true)],
    });
    for field in ["labels", "annotations"] {
        if template["metadata"][field].is_object() {
            meta[field] = template["metadata"][field].clone();
        }
    }
    serde_json::json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec})
}
