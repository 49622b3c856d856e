//! What the real API server makes of a JSON object by decoding it into its Go struct and
//! encoding the struct back (`sim/proto/go-json.py` lists how Go writes each field): a zero or
//! empty field tagged `omitempty` disappears (an emptied `labels: {}`, `env: []`, `data: {}`), a
//! field without the tag is written even when zero (`null` for an absent list or map), a
//! struct that is not a pointer is always written (`resources: {}`, a zero time as `null`), and
//! a `null` reads as the zero value. Keys the Go type has no field for are left alone (field
//! validation has already dealt with them).

use std::collections::HashMap;
use std::sync::LazyLock;

use prost_reflect::{FieldDescriptor, Kind, MessageDescriptor};
use serde_json::{Map, Value};

use super::pool::{META, message, message_for};
use super::shape::{is_inline, json_name};
use super::special::{Special, special};

/// How Go writes one field (`sim/proto/go-json.txt`); a field not listed is a scalar, list or
/// map tagged `omitempty`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Left out when zero or empty.
    OmitEmpty,
    /// A pointer: left out when nil, written when set, even to zero.
    Pointer,
    /// A struct that is not a pointer: always written.
    Struct,
    /// A scalar, list or map without `omitempty`: always written.
    Always,
    /// Tagged `omitzero`: left out when zero.
    OmitZero,
}

static CLASSES: LazyLock<HashMap<&'static str, Class>> = LazyLock::new(|| {
    include_str!("../../proto/go-json.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (class, field) = l.trim().split_once(' ')?;
            let class = match class {
                "pointer" => Class::Pointer,
                "struct" => Class::Struct,
                "always" => Class::Always,
                "omitzero" => Class::OmitZero,
                _ => return None,
            };
            Some((field, class))
        })
        .collect()
});

fn class(field: &FieldDescriptor) -> Class {
    CLASSES
        .get(field.full_name())
        .copied()
        .unwrap_or(Class::OmitEmpty)
}

/// A built-in object as the real server would store and serve it. An object of a kind with no
/// Go type here (a custom resource) has only its `metadata` normalised: ObjectMeta is typed
/// even for custom resources.
pub fn normalize(object: &mut Value) {
    let api_version = object["apiVersion"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let kind = object["kind"].as_str().unwrap_or_default().to_string();
    let Some(obj) = object.as_object_mut() else {
        return;
    };
    match message_for(&api_version, &kind) {
        Some(desc) => message_fields(&desc, obj),
        None => {
            if let (Some(meta), Some(desc)) = (
                obj.get_mut("metadata").and_then(Value::as_object_mut),
                message(&format!("{META}.ObjectMeta")),
            ) {
                message_fields(&desc, meta);
            }
        }
    }
}

fn message_fields(desc: &MessageDescriptor, obj: &mut Map<String, Value>) {
    for field in desc.fields() {
        if is_inline(&field) {
            if let Kind::Message(inner) = field.kind() {
                message_fields(&inner, obj);
            }
            continue;
        }
        let name = json_name(&field);
        let class = class(&field);
        let keep = match obj.get_mut(&name) {
            None => {
                if let Some(v) = absent(&field, class) {
                    obj.insert(name, v);
                }
                continue;
            }
            Some(v) => present(&field, class, v),
        };
        if !keep {
            obj.remove(&name);
        }
    }
}

/// What Go writes for a field the JSON left out (its zero value), if anything.
fn absent(field: &FieldDescriptor, class: Class) -> Option<Value> {
    match class {
        Class::OmitEmpty | Class::Pointer | Class::OmitZero => None,
        Class::Always if field.is_list() || field.is_map() => Some(Value::Null),
        Class::Always | Class::Struct => zero(&field.kind()),
    }
}

/// The zero value of a non-pointer field, as Go writes it.
fn zero(kind: &Kind) -> Option<Value> {
    Some(match kind {
        Kind::Message(desc) => match special(desc) {
            Some(Special::Time | Special::MicroTime) => Value::Null,
            // The zero Quantity, IntOrString or Duration is never met unset in practice;
            // leave them out rather than guess.
            Some(_) => return None,
            None => {
                let mut inner = Map::new();
                message_fields(desc, &mut inner);
                Value::Object(inner)
            }
        },
        Kind::Bool => Value::Bool(false),
        Kind::String | Kind::Bytes => Value::String(String::new()),
        Kind::Double | Kind::Float => Value::from(0),
        _ => Value::from(0),
    })
}

/// Normalises a field the JSON has; `false` when Go would leave it out.
fn present(field: &FieldDescriptor, class: Class, v: &mut Value) -> bool {
    if field.is_map() {
        let Value::Object(entries) = v else {
            return !(v.is_null() && class != Class::Always);
        };
        if entries.is_empty() {
            return class == Class::Always;
        }
        if let Kind::Message(entry) = field.kind()
            && let Kind::Message(desc) = entry.map_entry_value_field().kind()
            && special(&desc).is_none()
        {
            for item in entries.values_mut() {
                nested(&desc, item);
            }
        }
        return true;
    }
    if field.is_list() {
        let Value::Array(items) = v else {
            return !(v.is_null() && class != Class::Always);
        };
        if items.is_empty() {
            return class == Class::Always;
        }
        if let Kind::Message(desc) = field.kind()
            && special(&desc).is_none()
        {
            for item in items.iter_mut() {
                nested(&desc, item);
            }
        }
        return true;
    }
    match field.kind() {
        Kind::Message(desc) => match special(&desc) {
            Some(Special::Time | Special::MicroTime) => {
                !(v.is_null() && matches!(class, Class::Pointer | Class::OmitZero))
            }
            Some(_) => !v.is_null() || class == Class::Struct,
            None => {
                if v.is_null() {
                    if class != Class::Struct {
                        return false;
                    }
                    *v = Value::Object(Map::new());
                }
                nested(&desc, v);
                true
            }
        },
        kind => {
            if v.is_null() {
                match class {
                    Class::Always => {
                        if let Some(z) = zero(&kind) {
                            *v = z;
                        }
                        return true;
                    }
                    _ => return false,
                }
            }
            !is_zero(v) || matches!(class, Class::Pointer | Class::Always)
        }
    }
}

fn nested(desc: &MessageDescriptor, v: &mut Value) {
    if let Value::Object(obj) = v {
        message_fields(desc, obj);
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn normalized(mut v: Value) -> Value {
        normalize(&mut v);
        v
    }

    #[test]
    fn every_listed_field_exists_so_a_typo_cannot_hide() {
        for name in CLASSES.keys() {
            let (msg, f) = name.rsplit_once('.').unwrap();
            assert!(
                message(msg).and_then(|m| m.get_field_by_name(f)).is_some(),
                "{name} is not a field of the vendored protos"
            );
        }
    }

    #[test]
    fn empty_maps_and_lists_tagged_omitempty_disappear() {
        let cm = normalized(json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "e", "labels": {}, "annotations": {}, "finalizers": []},
            "data": {}, "binaryData": {}
        }));
        assert_eq!(
            cm,
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "e"}})
        );
        let pod = normalized(json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"nodeSelector": {}, "hostNetwork": false, "containers": [
                {"name": "c", "image": "nginx", "env": [], "ports": [], "args": []}
            ]}
        }));
        assert_eq!(
            pod["spec"],
            json!({"containers": [{"name": "c", "image": "nginx", "resources": {}}]})
        );
        assert_eq!(pod["status"], json!({}));
    }

    #[test]
    fn fields_without_omitempty_are_written_zero_and_pointers_keep_zero() {
        let node = normalized(json!({
            "apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"},
            "status": {"nodeInfo": {"kubeletVersion": "v1.35.4"}}
        }));
        let info = &node["status"]["nodeInfo"];
        assert_eq!(info["machineID"], "");
        assert_eq!(info["architecture"], "");
        assert_eq!(info["kubeletVersion"], "v1.35.4");
        assert!(info.get("swap").is_none());
        let deploy = normalized(json!({
            "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
            "spec": {"replicas": 0, "minReadySeconds": 0, "paused": false,
                     "template": {"spec": {"containers": null}}},
            "status": {"replicas": 0, "availableReplicas": 0}
        }));
        assert_eq!(deploy["spec"]["replicas"], 0);
        assert!(deploy["spec"].get("minReadySeconds").is_none());
        assert!(deploy["spec"].get("paused").is_none());
        assert_eq!(deploy["spec"]["template"]["metadata"], json!({}));
        assert!(deploy["spec"]["template"]["spec"]["containers"].is_null());
        assert!(
            deploy["spec"]["template"]["spec"]
                .as_object()
                .unwrap()
                .contains_key("containers")
        );
        assert!(deploy["status"].get("availableReplicas").is_none());
        let cond = normalized(json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "status": {"conditions": [{"type": "Ready", "status": "True"}]}
        }));
        assert!(
            cond["status"]["conditions"][0]
                .as_object()
                .unwrap()
                .get("lastProbeTime")
                .is_some_and(Value::is_null)
        );
    }

    #[test]
    fn a_custom_resource_has_only_its_metadata_normalised() {
        let cr = normalized(json!({
            "apiVersion": "argoproj.io/v1alpha1", "kind": "AppProject",
            "metadata": {"name": "p", "labels": {}},
            "spec": {"sourceRepos": [], "destinations": []}
        }));
        assert_eq!(cr["metadata"], json!({"name": "p"}));
        assert_eq!(cr["spec"], json!({"sourceRepos": [], "destinations": []}));
    }

    #[test]
    fn unknown_keys_are_left_alone() {
        let cm = normalized(json!({
            "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "e"}, "extra": {}
        }));
        assert_eq!(cm["extra"], json!({}));
    }
}
