//! Joining the two halves of a three-way patch (Go's `mergeMap` without parallel-list
//! merging), so the result is one patch the server accepts.

use serde_json::Value;

use super::{Object, PATCH, RETAIN_KEYS, SET_ORDER, child, order_like};
use crate::argocd::apply::gojson::values_equal;
use crate::schema::{PatchStrategy, patch_strategy};

/// Merges the changes half into the deletions half (Go's `mergeMap` without parallel-list
/// merging): the changes win, keyed list items merge, directives are carried over.
pub(super) fn merge_patches(mut base: Object, over: Object, path: &[&str]) -> Object {
    for (key, value) in over {
        if key == RETAIN_KEYS || key.starts_with(SET_ORDER) {
            // Both halves derive these from the new configuration, so they agree.
            base.entry(key).or_insert(value);
            continue;
        }
        let field_path = child(path, &key);
        let merged = match (base.remove(&key), value) {
            (Some(Value::Object(old)), Value::Object(new)) => {
                Value::Object(merge_patches(old, new, &field_path))
            }
            (Some(Value::Array(old)), Value::Array(new)) => match patch_strategy(&field_path) {
                PatchStrategy::MergeOnKey(k) => Value::Array(merge_keyed(old, new, k, &field_path)),
                PatchStrategy::MergePrimitives => {
                    let mut all = old;
                    for item in new {
                        if !all.iter().any(|v| values_equal(v, &item)) {
                            all.push(item);
                        }
                    }
                    Value::Array(all)
                }
                PatchStrategy::Replace => Value::Array(new),
            },
            (_, value) => value,
        };
        base.insert(key, merged);
    }
    // A merged list must follow its `$setElementOrder`, or the server refuses the patch;
    // delete directives go last.
    let orders: Vec<(String, Vec<Value>)> = base
        .iter()
        .filter_map(|(k, v)| {
            let field = k.strip_prefix(SET_ORDER)?;
            Some((field.to_owned(), v.as_array()?.clone()))
        })
        .collect();
    for (field, order) in orders {
        let key = match patch_strategy(&child(path, &field)) {
            PatchStrategy::MergeOnKey(k) => Some(k),
            _ => None,
        };
        if let Some(Value::Array(items)) = base.get_mut(&field) {
            let (mut keep, deletes): (Vec<Value>, Vec<Value>) =
                items.drain(..).partition(|item| item.get(PATCH).is_none());
            order_like(&mut keep, &order, key);
            keep.extend(deletes);
            *items = keep;
        }
    }
    base
}

fn merge_keyed(mut base: Vec<Value>, over: Vec<Value>, key: &str, path: &[&str]) -> Vec<Value> {
    for item in over {
        let found = item.get(key).and_then(|wanted| {
            base.iter()
                .position(|b| b.get(key).is_some_and(|k| values_equal(k, wanted)))
        });
        match (found, item) {
            (Some(at), Value::Object(new)) => {
                if let Value::Object(old) = std::mem::take(&mut base[at]) {
                    base[at] = Value::Object(merge_patches(old, new, path));
                } else {
                    base[at] = Value::Object(new);
                }
            }
            (_, item) => base.push(item),
        }
    }
    base
}
