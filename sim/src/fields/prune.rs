//! Removal of fields an applier stopped applying and nobody else owns.

use serde_json::Value;

use super::path::PathElement;
use super::set::FieldSet;
use super::walk::{ListShape, list_shape};

/// Removes the paths in `drop` from `obj`, except where `keep` (what every manager, the
/// applier's new configuration included, still owns) holds the path or anything inside it.
/// A map or list emptied by the removal goes too unless it is itself owned, so dropping the
/// last label also drops `labels`. An associative-list item goes only when nothing in it is
/// still owned; a kept item always keeps its key fields.
pub fn prune(obj: &mut Value, drop: &FieldSet, keep: &FieldSet, builtin: bool) {
    prune_at(obj, drop, Some(keep), builtin, &mut Vec::new(), &[]);
}

fn prune_at(
    value: &mut Value,
    drop: &FieldSet,
    keep: Option<&FieldSet>,
    builtin: bool,
    names: &mut Vec<String>,
    key_fields: &[String],
) {
    let kept = |pe: &PathElement| keep.is_some_and(|k| k.covers(std::slice::from_ref(pe)));
    match value {
        Value::Object(map) => {
            for pe in drop.members() {
                if let PathElement::Field(name) = pe
                    && !kept(pe)
                    && !key_fields.contains(name)
                {
                    map.remove(name);
                }
            }
            for (pe, below) in drop.children() {
                let PathElement::Field(name) = pe else {
                    continue;
                };
                let Some(child) = map.get_mut(name) else {
                    continue;
                };
                let was_empty = is_empty_container(child);
                names.push(name.clone());
                prune_at(
                    child,
                    below,
                    keep.and_then(|k| k.child(pe)),
                    builtin,
                    names,
                    &[],
                );
                names.pop();
                let owned_itself = keep.is_some_and(|k| k.has_member(pe));
                if !was_empty
                    && is_empty_container(child)
                    && !owned_itself
                    && !key_fields.contains(name)
                {
                    map.remove(name);
                }
            }
        }
        Value::Array(items) => {
            let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let ListShape::Items(elements) = list_shape(builtin, &name_refs, items) else {
                return; // An atomic list is pruned whole, from its parent.
            };
            let mut keep_item = Vec::with_capacity(items.len());
            for (item, pe) in items.iter_mut().zip(&elements) {
                let gone = drop.has_member(pe) && !kept(pe);
                if !gone && let Some(below) = drop.child(pe) {
                    let keys = match pe {
                        PathElement::Key(fields) => fields.iter().map(|(k, _)| k.clone()).collect(),
                        _ => Vec::new(),
                    };
                    prune_at(
                        item,
                        below,
                        keep.and_then(|k| k.child(pe)),
                        builtin,
                        names,
                        &keys,
                    );
                }
                keep_item.push(!gone);
            }
            let mut flags = keep_item.into_iter();
            items.retain(|_| flags.next().unwrap_or(true));
        }
        _ => {}
    }
}

fn is_empty_container(v: &Value) -> bool {
    match v {
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn set(v: Value) -> FieldSet {
        FieldSet::from_fields_v1(&v).unwrap()
    }

    #[test]
    fn dropping_the_last_label_drops_the_labels_map() {
        let mut obj = json!({"metadata": {"name": "x", "labels": {"team": "a"}}});
        prune(
            &mut obj,
            &set(json!({"f:metadata": {"f:labels": {"f:team": {}}}})),
            &FieldSet::new(),
            true,
        );
        assert_eq!(obj, json!({"metadata": {"name": "x"}}));
    }

    #[test]
    fn owned_fields_stay() {
        let mut obj = json!({"metadata": {"labels": {"team": "a", "tier": "b"}}});
        let drop = set(json!({"f:metadata": {"f:labels": {"f:team": {}, "f:tier": {}}}}));
        let keep = set(json!({"f:metadata": {"f:labels": {"f:tier": {}}}}));
        prune(&mut obj, &drop.difference(&keep), &keep, true);
        assert_eq!(obj, json!({"metadata": {"labels": {"tier": "b"}}}));
    }

    #[test]
    fn items_go_only_when_nothing_in_them_is_owned() {
        let mut obj = json!({"spec": {"containers": [
            {"name": "web", "image": "w"}, {"name": "side", "image": "s", "args": ["x"]}]}});
        let drop = set(json!({"f:spec": {"f:containers": {
            "k:{\"name\":\"web\"}": {".": {}, "f:name": {}, "f:image": {}},
            "k:{\"name\":\"side\"}": {".": {}, "f:name": {}, "f:args": {}}}}}));
        let keep =
            set(json!({"f:spec": {"f:containers": {"k:{\"name\":\"side\"}": {"f:image": {}}}}}));
        prune(&mut obj, &drop, &keep, true);
        assert_eq!(
            obj,
            json!({"spec": {"containers": [{"name": "side", "image": "s"}]}})
        );
    }

    #[test]
    fn set_items_are_removed_by_value() {
        let mut obj = json!({"metadata": {"finalizers": ["a", "b"]}});
        prune(
            &mut obj,
            &set(json!({"f:metadata": {"f:finalizers": {"v:\"a\"": {}}}})),
            &FieldSet::new(),
            true,
        );
        assert_eq!(obj, json!({"metadata": {"finalizers": ["b"]}}));
    }

    #[test]
    fn paths_missing_from_the_object_are_ignored() {
        let mut obj = json!({"spec": 3});
        prune(
            &mut obj,
            &set(json!({"f:spec": {"f:x": {"f:y": {}}}, "f:data": {}})),
            &FieldSet::new(),
            true,
        );
        assert_eq!(obj, json!({"spec": 3}));
    }
}
