//! Binding a Pod to a node, as the scheduler's `pods/binding` does: `spec.nodeName` and the
//! `PodScheduled` condition are set by the server itself, so no field manager records them.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::kinds::ResourceType;
use crate::objects;
use crate::status::{ApiError, ApiResult};
use crate::store::{Change, Key, Store};

/// Assigns the Pod at `namespace/name` (of type `pod_ty`) to `node`.
pub fn bind(
    store: &Store,
    pod_ty: &'static ResourceType,
    namespace: &str,
    name: &str,
    node: &str,
) -> ApiResult<Arc<Value>> {
    let key = Key::new(pod_ty, namespace, name);
    let now = store.clock.now_rfc3339();
    let stored = store.write(&key, |old| {
        let old = old.ok_or_else(|| ApiError::not_found(pod_ty, name))?;
        if objects::is_deleting(old) {
            return Err(ApiError::conflict(
                pod_ty,
                name,
                format!("pod {name} is being deleted, cannot be assigned to a host"),
            ));
        }
        match old["spec"]["nodeName"].as_str() {
            Some(assigned) if !assigned.is_empty() => {
                return Err(ApiError::conflict(
                    pod_ty,
                    name,
                    format!("pod {name} is already assigned to node \"{assigned}\""),
                ));
            }
            _ => {}
        }
        let mut pod = old.clone();
        pod["spec"]["nodeName"] = json!(node);
        if !pod["status"]["conditions"].is_array() {
            pod["status"]["conditions"] = json!([]);
        }
        let scheduled = json!({"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": now});
        if let Some(list) = pod["status"]["conditions"].as_array_mut() {
            list.retain(|c| c["type"] != "PodScheduled");
            list.push(scheduled);
        }
        Ok(Change::Put(pod))
    })?;
    stored.ok_or_else(|| ApiError::not_found(pod_ty, name))
}
