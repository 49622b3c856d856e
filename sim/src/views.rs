//! Types served in more than one version but stored once, as the real API server stores them:
//! `autoscaling/v1` HPAs are the `autoscaling/v2` objects, `events.k8s.io/v1` Events are the
//! core ones. Every read of a view converts the stored object, every write converts back, so a
//! `kubectl autoscale` (v2) and a v1 manifest name the same object.

mod events;
mod hpa;

use serde_json::Value;

use crate::kinds::ResourceType;

/// The stored object as `ty` shows it (the object itself when `ty` is not a view).
pub fn to_view(ty: &ResourceType, stored: &Value) -> Value {
    match (ty.view_of.is_some(), ty.group, ty.kind) {
        (true, "autoscaling", _) => hpa::v2_to_v1(stored),
        (true, "events.k8s.io", _) => events::core_to_v1(stored),
        _ => stored.clone(),
    }
}

/// An object written as `ty`, in the shape the store keeps (the object itself when `ty` is not
/// a view). Partial objects (an apply configuration) convert field by field.
pub fn to_storage(ty: &ResourceType, view: Value) -> Value {
    match (ty.view_of.is_some(), ty.group, ty.kind) {
        (true, "autoscaling", _) => hpa::v1_to_v2(view),
        (true, "events.k8s.io", _) => events::v1_to_core(view),
        _ => view,
    }
}

/// Moves `from` of `src` to `to` of `dst` when present (null included: Go writes a zero time
/// as null, and the other version shows the same null).
fn carry(
    src: &serde_json::Map<String, Value>,
    from: &str,
    dst: &mut serde_json::Map<String, Value>,
    to: &str,
) {
    if let Some(v) = src.get(from) {
        dst.insert(to.to_string(), v.clone());
    }
}
