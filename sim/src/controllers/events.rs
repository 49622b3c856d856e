//! Kubernetes Events, recorded as the real controllers word them (`ScalingReplicaSet`,
//! `SuccessfulCreate`, `Completed`, ...), so `kubectl describe` and `kubectl get events` read
//! as they would on k3s.

use serde_json::{Value, json};

use super::{Env, MANAGER};
use crate::kinds::by_kind;
use crate::objects;
use crate::ops::{self, Actor};

/// Records a `Normal` or `Warning` event about `involved`, from `component`.
pub fn record(
    env: &Env,
    involved: &Value,
    warning: bool,
    reason: &str,
    message: &str,
    component: &str,
) {
    let Some(ty) = by_kind("v1", "Event") else {
        return;
    };
    let ns = objects::namespace(involved);
    let ns = if ns.is_empty() { "default" } else { ns };
    let now = env.store.clock.now_rfc3339();
    let name = format!("{}.{:x}", objects::name(involved), rand::random::<u64>());
    let event = json!({
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {"name": name, "namespace": ns},
        "involvedObject": {
            "apiVersion": involved["apiVersion"],
            "kind": involved["kind"],
            "name": involved["metadata"]["name"],
            "namespace": involved["metadata"]["namespace"],
            "uid": involved["metadata"]["uid"],
            "resourceVersion": involved["metadata"]["resourceVersion"],
        },
        "reason": reason,
        "message": message,
        "type": if warning { "Warning" } else { "Normal" },
        "source": {"component": component},
        "reportingComponent": component,
        "reportingInstance": "",
        "firstTimestamp": now,
        "lastTimestamp": now,
        "count": 1,
    });
    if let Err(e) = ops::create(&env.store, ty, ns, event, &Actor::new(MANAGER)) {
        tracing::debug!("event not recorded: {}", e.message);
    }
}
