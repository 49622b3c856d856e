//! The `/scale` subresource: an `autoscaling/v1 Scale` view of a Deployment or ReplicaSet.
//! Writes through it change `spec.replicas` and are recorded in managedFields with
//! `subresource: scale` against the parent's apiVersion, so `kubectl scale` shows up exactly as
//! on a real cluster (manager `kubectl`, operation `Update`).

use std::sync::Arc;

use serde_json::{Value, json};

use super::{Actor, Part, Target, commit, update_with};
use crate::kinds::ResourceType;
use crate::patch::{self, PatchKind};
use crate::status::{ApiError, ApiResult};
use crate::store::{Key, Store};

/// The Scale object for a stored Deployment or ReplicaSet.
pub fn scale_of(obj: &Value) -> Value {
    let meta = &obj["metadata"];
    // A ReplicationController's selector is the label map itself.
    let selector = obj["spec"]["selector"]["matchLabels"]
        .as_object()
        .or_else(|| {
            (obj["kind"] == "ReplicationController")
                .then(|| obj["spec"]["selector"].as_object())
                .flatten()
        })
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default();
    json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": meta["name"],
            "namespace": meta["namespace"],
            "uid": meta["uid"],
            "resourceVersion": meta["resourceVersion"],
            "creationTimestamp": meta["creationTimestamp"],
        },
        "spec": {"replicas": obj["spec"]["replicas"].as_i64().unwrap_or(0)},
        "status": {"replicas": obj["status"]["replicas"].as_i64().unwrap_or(0), "selector": selector},
    })
}

/// How the client changes the Scale: PUT of a whole Scale, or a patch of one.
pub enum ScaleWrite<'a> {
    Replace(&'a Value),
    Patch(PatchKind, &'a Value),
}

/// Applies a write to the Scale view and stores the parent with the new `spec.replicas`.
pub fn write_scale(
    store: &Store,
    ty: &'static ResourceType,
    namespace: &str,
    name: &str,
    write: ScaleWrite,
    actor: &Actor,
) -> ApiResult<Arc<Value>> {
    let key = Key::new(ty, namespace, name);
    commit(store, &key, actor, |old| {
        let old = old.ok_or_else(|| ApiError::not_found(ty, name))?;
        let current = scale_of(old);
        let wanted = match write {
            ScaleWrite::Replace(body) => {
                if let Some(rv) = body["metadata"]["resourceVersion"].as_str()
                    && Some(rv) != old["metadata"]["resourceVersion"].as_str()
                {
                    return Err(ApiError::stale(ty, name));
                }
                body.clone()
            }
            ScaleWrite::Patch(PatchKind::Apply, _) => {
                return Err(ApiError::bad_request(
                    "server-side apply of a Scale is not supported by the embedded cluster; use kubectl scale",
                ));
            }
            ScaleWrite::Patch(kind, body) => {
                patch::apply_patch(kind, scale_type(), &current, body)?
            }
        };
        let replicas = wanted["spec"]["replicas"]
            .as_i64()
            .filter(|r| *r >= 0)
            .ok_or_else(|| {
                ApiError::bad_request("Scale.spec.replicas must be a number of at least 0")
            })?;
        let mut parent = old.clone();
        parent["spec"]["replicas"] = json!(replicas);
        let target = Target {
            ty,
            namespace,
            name,
            part: Part::Scale,
        };
        update_with(store, &target, old, parent, actor)
    })
}

/// Patches to a Scale are plain objects; strategic merge treats it as a built-in kind.
fn scale_type() -> &'static ResourceType {
    static SCALE: ResourceType = ResourceType {
        group: "autoscaling",
        version: "v1",
        kind: "Scale",
        plural: "scale",
        singular: "scale",
        namespaced: true,
        short_names: &[],
        categories: &[],
        status_subresource: false,
        scale_subresource: false,
        log_subresource: false,
        builtin: true,
        computed: false,
        view_of: None,
    };
    &SCALE
}
