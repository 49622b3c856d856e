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

/// The Scale of a stored object of `ty`: a custom resource's from the paths its CRD names.
pub fn scale_for(ty: &ResourceType, obj: &Value) -> Value {
    let Some(paths) = ty.custom.and_then(|c| c.scale.as_ref()) else {
        return scale_of(obj);
    };
    let mut scale = scale_of(obj);
    let at = |path: &str| dotted(obj, path).and_then(Value::as_i64).unwrap_or(0);
    scale["spec"] = json!({"replicas": at(&paths.spec_replicas)});
    let mut status = json!({"replicas": at(&paths.status_replicas)});
    if let Some(selector) = paths
        .label_selector
        .as_deref()
        .and_then(|p| dotted(obj, p))
        .and_then(Value::as_str)
    {
        status["selector"] = json!(selector);
    }
    scale["status"] = status;
    scale
}

/// The value at a CRD's `.a.b` path.
fn dotted<'a>(obj: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .filter(|k| !k.is_empty())
        .try_fold(obj, |v, k| v.get(k))
}

/// Sets the value at a CRD's `.a.b` path, making the objects on the way.
fn set_dotted(obj: &mut Value, path: &str, value: Value) {
    let keys: Vec<&str> = path.split('.').filter(|k| !k.is_empty()).collect();
    let Some((last, parents)) = keys.split_last() else {
        return;
    };
    let mut at = obj;
    for k in parents {
        if !at[*k].is_object() {
            at[*k] = json!({});
        }
        at = &mut at[*k];
    }
    at[*last] = value;
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
        let current = scale_for(ty, old);
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
        match ty.custom.and_then(|c| c.scale.as_ref()) {
            Some(paths) => set_dotted(&mut parent, &paths.spec_replicas, json!(replicas)),
            None => parent["spec"]["replicas"] = json!(replicas),
        }
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
        create_only: false,
        view_of: None,
        custom: None,
    };
    &SCALE
}
