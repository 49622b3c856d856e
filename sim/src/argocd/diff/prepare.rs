//! The reshaping gitops-engine does to objects before and around its comparison, beyond the
//! ignore rules: what a round trip through the Go types drops, Secret `stringData`, the fields
//! a three-way diff leaves out, and the live fields it subtracts for custom resources.

use serde_json::{Map, Value};

use crate::argocd::apply::values_equal;

/// Fields whose Go type is a `map[string]...` with `omitempty`: an empty one disappears when
/// gitops-engine decodes and re-encodes a built-in object, so `labels: {}` equals no labels.
const MAP_FIELDS: &[&str] = &[
    "labels",
    "annotations",
    "data",
    "binaryData",
    "stringData",
    "nodeSelector",
    "matchLabels",
    "limits",
    "requests",
    "hard",
    "capacity",
    "allocatable",
    "parameters",
    "volumeAttributes",
    "overhead",
];

/// What gitops-engine's `remarshal` does to a built-in object: nulls, empty lists and empty
/// maps typed as maps vanish, while empty structs (`emptyDir: {}`, `resources: {}`) stay.
/// Custom resources keep their shape.
pub fn remarshal(obj: &mut Value, builtin: bool) {
    if !builtin {
        return;
    }
    let kind = obj
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    // A Service's (or ReplicationController's) selector is a plain map; elsewhere a struct.
    let map_selector = matches!(kind.as_str(), "Service" | "ReplicationController");
    drop_empty(obj, map_selector);
}

fn drop_empty(value: &mut Value, map_selector: bool) {
    match value {
        Value::Object(map) => {
            map.retain(|key, v| match v {
                Value::Null => false,
                // The pod spec's containers are not omitempty; every other list here is.
                Value::Array(items) => !items.is_empty() || key == "containers",
                Value::Object(m) => {
                    !m.is_empty()
                        || !(MAP_FIELDS.contains(&key.as_str())
                            || (map_selector && key == "selector"))
                }
                _ => true,
            });
            for v in map.values_mut() {
                drop_empty(v, map_selector);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| drop_empty(v, map_selector)),
        _ => {}
    }
}

/// gitops-engine's `Normalize` before the ignore rules: `metadata.creationTimestamp` goes
/// (manifests often carry `null`), and a Secret's `stringData` moves into `data`, encoded.
pub fn normalize_known(obj: &mut Value) {
    if let Some(Value::Object(meta)) = obj.get_mut("metadata") {
        meta.shift_remove("creationTimestamp");
    }
    let core = obj
        .get("apiVersion")
        .and_then(Value::as_str)
        .is_some_and(|v| !v.contains('/'));
    match obj.get("kind").and_then(Value::as_str) {
        Some("Secret") if core => normalize_secret(obj),
        Some("Endpoints") if core => default_endpoint_protocols(obj),
        _ => {}
    }
}

/// Endpoints ports without a protocol count as TCP. (gitops-engine also sorts the subsets by a
/// hash of their content; that ordering is not reproduced.)
fn default_endpoint_protocols(obj: &mut Value) {
    let Some(subsets) = obj.get_mut("subsets").and_then(Value::as_array_mut) else {
        return;
    };
    for ports in subsets
        .iter_mut()
        .filter_map(|s| s.get_mut("ports")?.as_array_mut())
    {
        for port in ports.iter_mut().filter_map(Value::as_object_mut) {
            port.entry("protocol")
                .or_insert_with(|| Value::String("TCP".to_owned()));
        }
    }
}

fn normalize_secret(obj: &mut Value) {
    let Value::Object(secret) = obj else {
        return;
    };
    if let Some(Value::Object(string_data)) = secret.shift_remove("stringData") {
        let mut data = match secret.shift_remove("data") {
            Some(Value::Object(data)) => data,
            _ => Map::new(),
        };
        for (k, v) in string_data {
            let encoded = match v {
                Value::String(s) => Value::String(base64(s.as_bytes())),
                other => other,
            };
            data.insert(k, encoded);
        }
        secret.insert("data".to_owned(), Value::Object(data));
    }
    // Empty values come back as "" (argo-cd#943).
    if let Some(Value::Object(data)) = secret.get_mut("data") {
        for v in data.values_mut() {
            if v.is_null() {
                *v = Value::String(String::new());
            }
        }
    }
}

fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                let sextet = (n >> (18 - 6 * i)) & 63;
                out.push(char::from(TABLE[sextet as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// gitops-engine's `removeNamespaceAnnotation`, applied to the last-applied and desired sides
/// of a three-way diff: no namespace, no empty `annotations`.
pub fn without_namespace(obj: &Value) -> Value {
    let mut out = obj.clone();
    if let Some(Value::Object(meta)) = out.get_mut("metadata") {
        meta.shift_remove("namespace");
        let empty = match meta.get("annotations") {
            Some(Value::Null) => true,
            Some(Value::Object(a)) => a.is_empty(),
            _ => false,
        };
        if empty {
            meta.shift_remove("annotations");
        }
    }
    out
}

/// Keeps only the parts of `live` that `config` also has (gitops-engine `RemoveMapFields`):
/// the live view a custom resource's three-way diff is computed against.
pub fn remove_map_fields(
    config: &Map<String, Value>,
    live: &Map<String, Value>,
) -> Map<String, Value> {
    config
        .iter()
        .filter_map(|(k, c)| {
            let l = live.get(k)?;
            Some((
                k.clone(),
                if l.is_null() {
                    Value::Null
                } else {
                    remove_fields(c, l)
                },
            ))
        })
        .collect()
}

/// The same for lists, item by item; live items beyond the config's stay whole.
pub fn remove_list_fields(config: &[Value], live: &[Value]) -> Vec<Value> {
    live.iter()
        .enumerate()
        .map(|(i, l)| match config.get(i) {
            Some(c) if !l.is_null() => remove_fields(c, l),
            _ => l.clone(),
        })
        .collect()
}

fn remove_fields(config: &Value, live: &Value) -> Value {
    match (config, live) {
        (Value::Object(c), Value::Object(l)) => Value::Object(remove_map_fields(c, l)),
        (Value::Array(c), Value::Array(l)) => Value::Array(remove_list_fields(c, l)),
        _ => live.clone(),
    }
}

/// A StatefulSet's `volumeClaimTemplates` get server defaults that cannot be predicted, so
/// gitops-engine trims the live templates to the fields the last-applied ones have.
pub fn statefulset_workaround(orig: &Value, live: &Value) -> Value {
    let templates = |v: &Value| {
        v.pointer("/spec/volumeClaimTemplates")
            .and_then(Value::as_array)
            .cloned()
    };
    let (Some(orig_t), Some(live_t)) = (templates(orig), templates(live)) else {
        return live.clone();
    };
    let mut out = live.clone();
    if let Some(spec) = out.get_mut("spec").and_then(Value::as_object_mut) {
        spec.insert(
            "volumeClaimTemplates".to_owned(),
            Value::Array(remove_list_fields(&orig_t, &live_t)),
        );
    }
    out
}

/// Argo CD's `restoreNonIgnoredFields` after RespectIgnoreDifferences patched the target:
/// fields the ignore rules did not touch get the desired value back, and live-only fields
/// that were not ignored are dropped again (a replace-strategy parent can drag them in).
pub fn restore_non_ignored(
    patched: &mut Map<String, Value>,
    original: &Map<String, Value>,
    normalized: &Map<String, Value>,
    normalized_live: Option<&Map<String, Value>>,
) {
    for (key, original_value) in original {
        let in_normalized = normalized.get(key);
        if let (Some(Value::Object(p)), Value::Object(o), Some(Value::Object(n))) =
            (patched.get_mut(key), original_value, in_normalized)
        {
            let nl = normalized_live
                .and_then(|m| m.get(key))
                .and_then(Value::as_object);
            restore_non_ignored(p, o, n, nl);
            continue;
        }
        let untouched = in_normalized.is_some_and(|n| values_equal(n, original_value));
        let differs = patched
            .get(key)
            .is_none_or(|p| !values_equal(p, original_value));
        if untouched && differs {
            patched.insert(key.clone(), original_value.clone());
        }
    }
    patched.retain(|key, _| {
        original.contains_key(key) || !normalized_live.is_some_and(|nl| nl.contains_key(key))
    });
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn remarshal_drops_what_go_types_drop() {
        let mut obj = json!({"kind": "Deployment", "metadata": {"labels": {}, "annotations": null},
            "spec": {"selector": {"matchLabels": {}}, "template": {"spec": {
                "containers": [{"name": "a", "env": [], "resources": {}}],
                "volumes": [{"name": "v", "emptyDir": {}}]}}}});
        remarshal(&mut obj, true);
        assert_eq!(
            obj,
            json!({"kind": "Deployment", "metadata": {}, "spec": {"selector": {}, "template": {"spec": {
                "containers": [{"name": "a", "resources": {}}],
                "volumes": [{"name": "v", "emptyDir": {}}]}}}})
        );
        let mut svc = json!({"kind": "Service", "spec": {"selector": {}}});
        remarshal(&mut svc, true);
        assert_eq!(svc, json!({"kind": "Service", "spec": {}}));
    }

    #[test]
    fn secrets_fold_string_data_into_data() {
        let mut s = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"creationTimestamp": null},
            "data": {"a": "eA==", "n": null}, "stringData": {"b": "hello", "c": "hi!"}});
        normalize_known(&mut s);
        assert_eq!(
            s,
            json!({"apiVersion": "v1", "kind": "Secret", "metadata": {},
                   "data": {"a": "eA==", "n": "", "b": "aGVsbG8=", "c": "aGkh"}})
        );
    }

    #[test]
    fn live_is_trimmed_to_the_config_shape() {
        let config = json!({"spec": {"list": [{"a": 1}], "m": {"x": 1}}});
        let live = json!({"spec": {"list": [{"a": 1, "b": 2}, {"c": 3}], "m": {"x": 1, "y": 2}, "z": 1}, "status": {}});
        let trimmed = remove_map_fields(config.as_object().unwrap(), live.as_object().unwrap());
        assert_eq!(
            Value::Object(trimmed),
            json!({"spec": {"list": [{"a": 1}, {"c": 3}], "m": {"x": 1}}})
        );
    }
}
