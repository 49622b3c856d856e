//! Reads an object as the field manager sees it: its nodes (fields, list items) with paths, and
//! from that the set of fields an object sets (`FieldSet::from_object`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::path::{Path, PathElement};
use super::set::FieldSet;
use super::typed::is_atomic_map;
use crate::schema::{ListKind, list_kind};

/// What sits at one path of an object.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Node<'a> {
    /// A value owned as a whole: scalar, atomic list or map, set item.
    Leaf(&'a Value),
    /// A non-empty granular map or list, whose insides are owned one by one.
    Container,
    /// An associative-list item (owned itself, and its fields one by one).
    Item,
    /// An empty granular map (owned as a leaf, as the real server does).
    EmptyMap,
    /// An empty granular list (compared as a leaf, but never owned by an apply).
    EmptyList,
}

/// How a list's items are told apart.
pub enum ListShape {
    /// Replaced and owned as a whole.
    Atomic,
    /// Items are named by their path elements (`k:` or `v:`), one per item in list order.
    Items(Vec<PathElement>),
}

/// Fields that identify the object or belong to the server: never owned, never merged.
pub fn is_identity(parent: &[&str], key: &str) -> bool {
    match parent {
        [] => matches!(key, "apiVersion" | "kind"),
        ["metadata"] => matches!(
            key,
            "name"
                | "namespace"
                | "uid"
                | "resourceVersion"
                | "generation"
                | "creationTimestamp"
                | "deletionTimestamp"
                | "selfLink"
                | "managedFields"
        ),
        _ => false,
    }
}

/// How the list at `names` is merged. A granular list whose items cannot all be named uniquely
/// (a key field missing, a duplicate) falls back to atomic, where the real server would refuse
/// the apply or track duplicates specially.
pub fn list_shape(builtin: bool, names: &[&str], items: &[Value]) -> ListShape {
    let elements: Option<Vec<PathElement>> = match list_kind(builtin, names) {
        ListKind::Atomic => None,
        ListKind::Set => items
            .iter()
            .map(|item| match item {
                Value::Array(_) | Value::Object(_) | Value::Null => None,
                scalar => Some(PathElement::Value(scalar.clone())),
            })
            .collect(),
        ListKind::Map(keys) => items.iter().map(|item| item_key(item, keys)).collect(),
    };
    match elements {
        Some(elements) if unique(&elements) => ListShape::Items(elements),
        _ => ListShape::Atomic,
    }
}

fn unique(elements: &[PathElement]) -> bool {
    let mut seen = BTreeSet::new();
    elements.iter().all(|pe| seen.insert(pe))
}

/// The `k:` element naming an associative-list item, or None when a key field is missing.
fn item_key(item: &Value, keys: &[&str]) -> Option<PathElement> {
    let Value::Object(map) = item else {
        return None;
    };
    let mut fields = Vec::with_capacity(keys.len());
    for &key in keys {
        let value = match map.get(key) {
            Some(Value::Null) | None if key == "protocol" => Value::from("TCP"), // Its declared default.
            Some(Value::Null | Value::Array(_) | Value::Object(_)) | None => return None,
            Some(scalar) => scalar.clone(),
        };
        fields.push((key.to_string(), value));
    }
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    Some(PathElement::Key(fields))
}

/// Every node of an object by path. Null values are absent; identity fields are skipped.
pub fn nodes(obj: &Value, builtin: bool) -> BTreeMap<Path, Node<'_>> {
    let mut out = BTreeMap::new();
    if let Value::Object(map) = obj {
        walk_map(map, builtin, &mut Vec::new(), &mut Vec::new(), &mut out);
    }
    out
}

fn walk_map<'a>(
    map: &'a Map<String, Value>,
    builtin: bool,
    names: &mut Vec<&'a str>,
    path: &mut Path,
    out: &mut BTreeMap<Path, Node<'a>>,
) {
    for (key, value) in map {
        if value.is_null() || is_identity(names, key) {
            continue;
        }
        names.push(key);
        path.push(PathElement::Field(key.clone()));
        walk_value(value, builtin, names, path, out);
        path.pop();
        names.pop();
    }
}

fn walk_value<'a>(
    value: &'a Value,
    builtin: bool,
    names: &mut Vec<&'a str>,
    path: &mut Path,
    out: &mut BTreeMap<Path, Node<'a>>,
) {
    match value {
        Value::Object(_) if is_atomic_map(builtin, names) => {
            out.insert(path.clone(), Node::Leaf(value));
        }
        // `metadata` itself is never a field of its own (the real server strips it).
        Value::Object(map) if names.as_slice() == ["metadata"] => {
            walk_map(map, builtin, names, path, out);
        }
        Value::Object(map) if map.values().all(Value::is_null) => {
            out.insert(path.clone(), Node::EmptyMap);
        }
        Value::Object(map) => {
            out.insert(path.clone(), Node::Container);
            walk_map(map, builtin, names, path, out);
        }
        Value::Array(items) => match list_shape(builtin, names, items) {
            ListShape::Atomic => {
                out.insert(path.clone(), Node::Leaf(value));
            }
            ListShape::Items(_) if items.is_empty() => {
                out.insert(path.clone(), Node::EmptyList);
            }
            ListShape::Items(elements) => {
                out.insert(path.clone(), Node::Container);
                for (pe, item) in elements.into_iter().zip(items) {
                    path.push(pe);
                    match item {
                        Value::Object(fields) => {
                            out.insert(path.clone(), Node::Item);
                            walk_map(fields, builtin, names, path, out);
                        }
                        scalar => {
                            out.insert(path.clone(), Node::Leaf(scalar));
                        }
                    }
                    path.pop();
                }
            }
        },
        _ => {
            out.insert(path.clone(), Node::Leaf(value));
        }
    }
}

/// The field names along a path (list elements skipped), as `list_kind` wants them.
pub fn names_of(path: &[PathElement]) -> Vec<&str> {
    path.iter()
        .filter_map(|pe| match pe {
            PathElement::Field(name) => Some(name.as_str()),
            _ => None,
        })
        .collect()
}

impl FieldSet {
    /// Every field an object sets, as an apply of it would own: leaves (scalars, atomic lists
    /// and maps, empty maps, set items) and associative-list items (their key fields are leaves
    /// inside them). Identity fields (`apiVersion`, `kind`, `metadata.name`, ...) and null
    /// values are not fields.
    pub fn from_object(obj: &Value, builtin: bool) -> FieldSet {
        let mut set = FieldSet::new();
        for (path, node) in nodes(obj, builtin) {
            if matches!(node, Node::Leaf(_) | Node::Item | Node::EmptyMap) {
                set.insert(&path);
            }
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment() -> Value {
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default", "uid": "u1", "resourceVersion": "7",
                          "labels": {"app": "web"}, "managedFields": [{"manager": "x"}]},
            "spec": {
                "replicas": 2, "paused": null,
                "selector": {"matchLabels": {"app": "web"}},
                "template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.27",
                    "ports": [{"containerPort": 80}], "resources": {}, "args": ["-v"]}]}}
            }
        })
    }

    #[test]
    fn from_object_owns_leaves_items_and_key_fields_but_not_identity() {
        let set = FieldSet::from_object(&deployment(), true);
        let expected = json!({
            "f:metadata": {"f:labels": {"f:app": {}}},
            "f:spec": {
                "f:replicas": {}, "f:selector": {},
                "f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {
                    ".": {}, "f:args": {}, "f:image": {}, "f:name": {},
                    "f:ports": {"k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}},
                    "f:resources": {}
                }}}}
            }
        });
        assert_eq!(set.to_fields_v1(), expected);
    }

    #[test]
    fn custom_resources_have_no_atomic_selectors_and_sets_use_values() {
        let obj = json!({"metadata": {"finalizers": ["a", "b"]}, "spec": {"selector": {"x": "y"}, "items": [1, 2]}});
        let set = FieldSet::from_object(&obj, false);
        assert_eq!(
            set.to_fields_v1(),
            json!({"f:metadata": {"f:finalizers": {"v:\"a\"": {}, "v:\"b\"": {}}},
                   "f:spec": {"f:items": {}, "f:selector": {"f:x": {}}}})
        );
    }

    #[test]
    fn unkeyable_or_duplicate_items_make_the_list_atomic() {
        let missing = [json!({"image": "x"})];
        assert!(matches!(
            list_shape(true, &["spec", "containers"], &missing),
            ListShape::Atomic
        ));
        let dup = [json!({"name": "a"}), json!({"name": "a"})];
        assert!(matches!(
            list_shape(true, &["spec", "containers"], &dup),
            ListShape::Atomic
        ));
        let dup_set = [json!("a"), json!("a")];
        assert!(matches!(
            list_shape(true, &["metadata", "finalizers"], &dup_set),
            ListShape::Atomic
        ));
    }

    #[test]
    fn non_objects_have_no_fields() {
        assert!(FieldSet::from_object(&json!([1, 2]), true).is_empty());
        assert!(FieldSet::from_object(&json!("x"), true).is_empty());
        assert!(FieldSet::from_object(&json!({"metadata": {"name": "x"}}), true).is_empty());
    }
}
