//! JSON merge patches (RFC 7386), built and applied the way kubectl and Argo CD do for kinds
//! without strategic-merge metadata (custom resources): every list is replaced whole.

use serde_json::{Map, Value};

use super::gojson::values_equal;

/// The merge patch that turns `original` into `modified`: changed and added fields, `null` for
/// removed ones, lists replaced whole (evanphx/json-patch `CreateMergePatch`).
pub fn create(original: &Value, modified: &Value) -> Value {
    match (original, modified) {
        (Value::Object(o), Value::Object(m)) => Value::Object(diff_objects(o, m)),
        _ => modified.clone(),
    }
}

fn diff_objects(
    original: &Map<String, Value>,
    modified: &Map<String, Value>,
) -> Map<String, Value> {
    let mut patch = Map::new();
    for (key, new) in modified {
        match (original.get(key), new) {
            (None, _) => {
                patch.insert(key.clone(), new.clone());
            }
            (Some(Value::Object(o)), Value::Object(m)) => {
                let sub = diff_objects(o, m);
                if !sub.is_empty() {
                    patch.insert(key.clone(), Value::Object(sub));
                }
            }
            (Some(old), new) if !values_equal(old, new) => {
                patch.insert(key.clone(), new.clone());
            }
            _ => {}
        }
    }
    for key in original.keys() {
        if !modified.contains_key(key) {
            patch.insert(key.clone(), Value::Null);
        }
    }
    patch
}

/// kubectl's three-way JSON merge patch (`jsonmergepatch.CreateThreeWayJSONMergePatch`):
/// additions and changes from `current` to `modified`, plus deletions of what `original` had
/// and `modified` dropped. Fields only `current` has are left alone.
pub fn three_way(original: &Value, modified: &Value, current: &Value) -> Value {
    let add_and_change = keep_or_drop_nulls(&create(current, modified), false);
    let deletions = keep_or_drop_nulls(&create(original, modified), true);
    merge_into(deletions, &add_and_change)
}

/// Keeps only the `null`s of a patch (`keep_nulls`) or everything but them. An explicit empty
/// map is a value, not an empty sub-patch, so it counts as a change.
fn keep_or_drop_nulls(patch: &Value, keep_nulls: bool) -> Value {
    let Value::Object(fields) = patch else {
        return if keep_nulls {
            Value::Object(Map::new())
        } else {
            patch.clone()
        };
    };
    let mut out = Map::new();
    for (key, value) in fields {
        match value {
            Value::Null if keep_nulls => {
                out.insert(key.clone(), Value::Null);
            }
            Value::Null => {}
            Value::Object(sub) if sub.is_empty() => {
                if !keep_nulls {
                    out.insert(key.clone(), value.clone());
                }
            }
            Value::Object(_) => {
                if let Value::Object(sub) = keep_or_drop_nulls(value, keep_nulls)
                    && !sub.is_empty()
                {
                    out.insert(key.clone(), Value::Object(sub));
                }
            }
            _ => {
                if !keep_nulls {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
    }
    Value::Object(out)
}

/// Merges patch `over` into patch `base`, keeping `base`'s nulls (they are deletions to send).
fn merge_into(base: Value, over: &Value) -> Value {
    let (Value::Object(mut base), Value::Object(over)) = (base, over) else {
        return over.clone();
    };
    for (key, value) in over {
        let merged = match (base.remove(key), value) {
            (Some(old @ Value::Object(_)), Value::Object(_)) => merge_into(old, value),
            _ => value.clone(),
        };
        base.insert(key.clone(), merged);
    }
    Value::Object(base)
}

/// Applies a merge patch: `null` removes, maps merge recursively, anything else replaces.
pub fn apply(doc: &Value, patch: &Value) -> Value {
    let Value::Object(fields) = patch else {
        return patch.clone();
    };
    let mut out = match doc {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    for (key, value) in fields {
        match value {
            Value::Null => {
                out.shift_remove(key);
            }
            Value::Object(_) if out.get(key).is_some_and(Value::is_object) => {
                let merged = apply(&out[key.as_str()], value);
                out.insert(key.clone(), merged);
            }
            _ => {
                out.insert(key.clone(), without_nulls(value));
            }
        }
    }
    Value::Object(out)
}

/// A new value from a patch carries no `null` fields (evanphx/json-patch prunes them); nulls
/// that are list items stay, as there.
fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn three_way_deletes_only_what_the_last_config_had() {
        let original =
            json!({"spec": {"a": 1, "list": [1, 2]}, "metadata": {"labels": {"x": "1"}}});
        let modified = json!({"spec": {"list": [3]}, "metadata": {"labels": {}}});
        let current = json!({"spec": {"a": 1, "list": [1, 2], "server": true},
                             "metadata": {"labels": {"x": "1", "other": "y"}}});
        let patch = three_way(&original, &modified, &current);
        assert_eq!(
            patch,
            json!({"spec": {"a": null, "list": [3]}, "metadata": {"labels": {"x": null}}})
        );
        assert_eq!(
            apply(&current, &patch),
            json!({"spec": {"list": [3], "server": true}, "metadata": {"labels": {"other": "y"}}})
        );
    }

    #[test]
    fn applying_prunes_nulls_from_new_subtrees() {
        let out = apply(
            &json!({"a": 1}),
            &json!({"b": {"c": null, "d": [null, {"e": null}]}}),
        );
        assert_eq!(out, json!({"a": 1, "b": {"d": [null, {}]}}));
        assert_eq!(apply(&json!("x"), &json!({"a": 1})), json!({"a": 1}));
    }
}
