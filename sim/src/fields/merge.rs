//! The structural merge at the heart of server-side apply: an applied configuration laid over
//! the live object.

use serde_json::{Map, Value};

use super::path::PathElement;
use super::typed::is_atomic_map;
use super::walk::{ListShape, is_identity, list_shape};

/// Merges `config` onto `live`: maps field by field, associative lists item by item (matched
/// on their keys), sets as unions; scalars, atomic lists and atomic maps take the config's
/// value. Nulls in the config are ignored, and identity fields are never merged.
pub fn merge(live: &Value, config: &Value, builtin: bool) -> Value {
    merge_at(live, config, builtin, &mut Vec::new())
}

fn merge_at<'a>(live: &Value, config: &'a Value, builtin: bool, names: &mut Vec<&'a str>) -> Value {
    match (live, config) {
        (Value::Object(l), Value::Object(c)) if !is_atomic_map(builtin, names) => {
            let mut out = l.clone();
            for (key, value) in c {
                if value.is_null() || is_identity(names, key) {
                    continue;
                }
                names.push(key);
                let merged = match l.get(key) {
                    Some(existing) => merge_at(existing, value, builtin, names),
                    None => without_nulls(value),
                };
                names.pop();
                out.insert(key.clone(), merged);
            }
            Value::Object(out)
        }
        (Value::Array(l), Value::Array(c)) => {
            let shapes = (list_shape(builtin, names, l), list_shape(builtin, names, c));
            match shapes {
                (ListShape::Items(lk), ListShape::Items(ck)) => {
                    Value::Array(merge_items(l, &lk, c, &ck, builtin, names))
                }
                _ => without_nulls(config),
            }
        }
        _ => without_nulls(config),
    }
}

/// Merges two keyed (or set) lists. Items the config names keep the config's order; items only
/// the live list has stay where they were relative to the items around them. For the usual
/// case (config adds items at its end) that is "live order kept, new items appended".
fn merge_items<'a>(
    live: &[Value],
    live_keys: &[PathElement],
    config: &'a [Value],
    config_keys: &[PathElement],
    builtin: bool,
    names: &mut Vec<&'a str>,
) -> Vec<Value> {
    let position_in_config = |pe: &PathElement| config_keys.iter().position(|k| k == pe);
    let live_item = |pe: &PathElement| live_keys.iter().position(|k| k == pe).map(|i| &live[i]);
    let mut out = Vec::with_capacity(live.len().max(config.len()));
    let mut next = 0; // Config items before this index are already in `out`.
    let mut emit_config_through = |end: usize, out: &mut Vec<Value>, names: &mut Vec<&'a str>| {
        while next <= end && next < config.len() {
            let item = match live_item(&config_keys[next]) {
                Some(existing) => merge_at(existing, &config[next], builtin, names),
                None => without_nulls(&config[next]),
            };
            out.push(item);
            next += 1;
        }
    };
    for (item, pe) in live.iter().zip(live_keys) {
        match position_in_config(pe) {
            None => out.push(item.clone()),
            Some(at) => emit_config_through(at, &mut out, names),
        }
    }
    emit_config_through(config.len(), &mut out, names);
    out
}

/// A copy of a value with null map values dropped: an applied null sets nothing.
fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maps_merge_recursively_and_scalars_take_the_config() {
        let live = json!({"metadata": {"name": "x", "uid": "1", "labels": {"a": "1", "b": "2"}}, "spec": {"replicas": 1}});
        let config = json!({"metadata": {"name": "y", "labels": {"b": "3"}}, "spec": {"replicas": 4, "paused": null}});
        let merged = merge(&live, &config, true);
        assert_eq!(
            merged,
            json!({"metadata": {"name": "x", "uid": "1", "labels": {"a": "1", "b": "3"}}, "spec": {"replicas": 4}})
        );
    }

    #[test]
    fn containers_merge_by_name_and_new_ones_are_appended() {
        let live = json!({"spec": {"containers": [
            {"name": "web", "image": "a", "imagePullPolicy": "Always"}, {"name": "side", "image": "s"}]}});
        let config = json!({"spec": {"containers": [{"name": "web", "image": "b"}, {"name": "new", "image": "n"}]}});
        let merged = merge(&live, &config, true);
        assert_eq!(
            merged["spec"]["containers"],
            json!([{"name": "web", "image": "b", "imagePullPolicy": "Always"},
                   {"name": "side", "image": "s"}, {"name": "new", "image": "n"}])
        );
    }

    #[test]
    fn config_order_wins_for_items_it_places_before_shared_ones() {
        let live = json!({"spec": {"containers": [{"name": "a"}, {"name": "b"}]}});
        let config = json!({"spec": {"containers": [{"name": "c"}, {"name": "a"}]}});
        let names: Vec<_> = merge(&live, &config, true)["spec"]["containers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].clone())
            .collect();
        assert_eq!(names, [json!("c"), json!("a"), json!("b")]);
    }

    #[test]
    fn sets_union_and_atomic_things_are_replaced() {
        let live = json!({"metadata": {"finalizers": ["a", "b"]},
                          "spec": {"selector": {"matchLabels": {"x": "1"}},
                                   "template": {"spec": {"containers": [{"name": "c", "args": ["1", "2"]}]}}}});
        let config = json!({"metadata": {"finalizers": ["c", "a"]},
                            "spec": {"selector": {"matchLabels": {"y": "2"}},
                                     "template": {"spec": {"containers": [{"name": "c", "args": ["3"]}]}}}});
        let merged = merge(&live, &config, true);
        assert_eq!(merged["metadata"]["finalizers"], json!(["c", "a", "b"]));
        assert_eq!(
            merged["spec"]["selector"],
            json!({"matchLabels": {"y": "2"}})
        );
        assert_eq!(
            merged["spec"]["template"]["spec"]["containers"][0]["args"],
            json!(["3"])
        );
    }

    #[test]
    fn mismatched_shapes_take_the_config() {
        assert_eq!(
            merge(&json!({"a": [1]}), &json!({"a": {"b": 1}}), true),
            json!({"a": {"b": 1}})
        );
        assert_eq!(merge(&json!(1), &json!({"b": null}), true), json!({}));
    }
}
