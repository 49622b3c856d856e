//! ignoreDifferences `managedFieldsManagers`: a field that differs between live and desired
//! and that one of the trusted managers owns (per the live object's `metadata.managedFields`)
//! is removed from both, so the manager's value wins the comparison (Argo CD's
//! `managedfields.Normalize`). Fields that only one side has are not touched.

use serde_json::{Map, Value};

use crate::argocd::apply::values_equal;
use crate::schema::{ListKind, list_kind};

type Object = Map<String, Value>;

/// Returns (live, desired) with the trusted managers' differing fields removed from both.
pub fn normalize(
    live: &Value,
    desired: &Value,
    managers: &[String],
    builtin: bool,
) -> (Value, Value) {
    let (mut live_out, mut desired_out) = (live.clone(), desired.clone());
    let entries = live
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for entry in entries {
        let trusted = entry
            .get("manager")
            .and_then(Value::as_str)
            .is_some_and(|m| managers.iter().any(|t| t == m));
        if let (true, Some(Value::Object(fields))) = (trusted, entry.get("fieldsV1")) {
            strip(
                &mut live_out,
                &mut desired_out,
                fields,
                &mut Vec::new(),
                builtin,
            );
        }
    }
    (live_out, desired_out)
}

/// Whether a FieldsV1 node marks its own path as owned: a leaf `{}` or a node with `"."`.
fn owns_itself(node: &Object) -> bool {
    node.is_empty() || node.contains_key(".")
}

fn strip(
    live: &mut Value,
    desired: &mut Value,
    fields: &Object,
    path: &mut Vec<String>,
    builtin: bool,
) {
    let (Value::Object(l), Value::Object(d)) = (live, desired) else {
        return;
    };
    let keys: Vec<String> = l.keys().filter(|k| d.contains_key(*k)).cloned().collect();
    for key in keys {
        let Some(Value::Object(node)) = fields.get(&format!("f:{key}")) else {
            continue;
        };
        let (Some(lv), Some(dv)) = (l.get_mut(&key), d.get_mut(&key)) else {
            continue;
        };
        if values_equal(lv, dv) {
            continue;
        }
        path.push(key.clone());
        let leaf = match (&mut *lv, &mut *dv) {
            (Value::Object(_), Value::Object(_)) => {
                strip(lv, dv, node, path, builtin);
                false
            }
            (Value::Array(litems), Value::Array(ditems)) => {
                let names: Vec<&str> = path.iter().map(String::as_str).collect();
                match list_kind(builtin, &names) {
                    ListKind::Map(keys) => {
                        strip_keyed_items(litems, ditems, keys, node, path, builtin);
                        false
                    }
                    // Set members are there or not; none is "modified".
                    ListKind::Set => false,
                    ListKind::Atomic => true,
                }
            }
            _ => true,
        };
        path.pop();
        if leaf && owns_itself(node) {
            l.shift_remove(&key);
            d.shift_remove(&key);
        }
    }
}

/// Pairs up items of an associative list by their key fields and strips inside each pair,
/// following the `k:{...}` node that owns the item.
fn strip_keyed_items(
    live: &mut [Value],
    desired: &mut [Value],
    keys: &[&str],
    node: &Object,
    path: &mut Vec<String>,
    builtin: bool,
) {
    for item in live.iter_mut() {
        let Some(identity) = item_key(item, keys) else {
            continue;
        };
        let Some(other) = desired
            .iter_mut()
            .find(|d| item_key(d, keys).is_some_and(|k| same_key(&k, &identity)))
        else {
            continue;
        };
        let owner = node.iter().find_map(|(k, v)| {
            let json = k.strip_prefix("k:")?;
            let recorded: Object = serde_json::from_str(json).ok()?;
            let matches = recorded.len() == identity.len()
                && recorded
                    .iter()
                    .all(|(f, v)| identity.get(f).is_some_and(|w| values_equal(v, w)));
            matches.then_some(v)?.as_object()
        });
        if let Some(owner) = owner {
            strip(item, other, owner, path, builtin);
        }
    }
}

/// The key fields an item has (structured-merge-diff leaves out absent ones).
fn item_key(item: &Value, keys: &[&str]) -> Option<Object> {
    let obj = item.as_object()?;
    let key: Object = keys
        .iter()
        .filter_map(|k| obj.get(*k).map(|v| ((*k).to_owned(), v.clone())))
        .collect();
    (!key.is_empty()).then_some(key)
}

fn same_key(a: &Object, b: &Object) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|(k, v)| b.get(k).is_some_and(|w| values_equal(v, w)))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn live() -> Value {
        json!({"metadata": {"name": "web", "managedFields": [
            {"manager": "argocd-controller", "operation": "Update",
             "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {
                 "k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}},
            {"manager": "kubectl", "operation": "Update", "subresource": "scale",
             "fieldsV1": {"f:spec": {"f:replicas": {}}}},
            {"manager": "hpa", "operation": "Update",
             "fieldsV1": {"f:metadata": {"f:labels": {"f:scaled": {}}}}}]},
            "spec": {"replicas": 4, "template": {"spec": {"containers": [
                {"name": "web", "image": "nginx:1.28", "imagePullPolicy": "IfNotPresent"}]}}}})
    }

    fn desired() -> Value {
        json!({"metadata": {"name": "web", "labels": {"scaled": "no"}},
            "spec": {"replicas": 2, "template": {"spec": {"containers": [
                {"name": "web", "image": "nginx:1.27"}]}}}})
    }

    #[test]
    fn only_differing_fields_of_trusted_managers_go() {
        let (l, d) = normalize(&live(), &desired(), &["kubectl".to_owned()], true);
        assert!(l["spec"].get("replicas").is_none());
        assert!(d["spec"].get("replicas").is_none());
        assert_eq!(d["spec"]["template"], desired()["spec"]["template"]);
        // A field only desired has is never owned-and-modified.
        let (_, d) = normalize(&live(), &desired(), &["hpa".to_owned()], true);
        assert_eq!(d["metadata"]["labels"], json!({"scaled": "no"}));
    }

    #[test]
    fn keyed_list_items_are_followed() {
        let (l, d) = normalize(&live(), &desired(), &["argocd-controller".to_owned()], true);
        let lc = &l["spec"]["template"]["spec"]["containers"][0];
        let dc = &d["spec"]["template"]["spec"]["containers"][0];
        assert!(lc.get("image").is_none() && dc.get("image").is_none());
        assert_eq!(lc["imagePullPolicy"], "IfNotPresent");
        assert_eq!(l["spec"]["replicas"], 4);
        let (l2, d2) = normalize(&live(), &desired(), &[], true);
        assert_eq!((l2, d2), (live(), desired()));
    }
}
