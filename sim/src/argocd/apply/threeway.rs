//! kubectl's three-way strategic merge patch (apimachinery `CreateThreeWayMergePatch`): the
//! changes from the live object to the new configuration, without deletions, plus the deletions
//! from the last-applied configuration to the new one. Lists merge as the field's patch
//! strategy says (`schema::patch_strategy`), so server-added list items and fields survive.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::ApplyError;
use super::gojson::{go_text, values_equal};
use crate::schema::{PatchStrategy, patch_strategy, retains_keys};

mod combine;

use combine::merge_patches;

type Object = Map<String, Value>;

const PATCH: &str = "$patch";
const RETAIN_KEYS: &str = "$retainKeys";
const SET_ORDER: &str = "$setElementOrder/";
const DELETE_FROM: &str = "$deleteFromPrimitiveList/";

/// Which half of the patch a diff computes.
#[derive(Clone, Copy)]
struct Options {
    /// Leave out additions and changes (the deletions half).
    ignore_changes: bool,
    /// Leave out deletions (the changes half).
    ignore_deletions: bool,
    /// This map's field has the `retainKeys` strategy: list the fields to keep.
    retain_keys: bool,
}

/// The three-way strategic merge patch from `original` (last applied), `modified` (new
/// configuration) and `current` (live). Non-object documents count as empty, as in kubectl.
pub fn three_way<'v>(
    original: &'v Value,
    modified: &'v Value,
    current: &'v Value,
) -> Result<Value, ApplyError> {
    let empty = Object::new();
    let as_map = |v: &'v Value| v.as_object().unwrap_or(&empty);
    let changes = Options {
        ignore_changes: false,
        ignore_deletions: true,
        retain_keys: false,
    };
    let delta = diff_maps(as_map(current), as_map(modified), &[], changes)?;
    let removals = Options {
        ignore_changes: true,
        ignore_deletions: false,
        retain_keys: false,
    };
    let deletions = diff_maps(as_map(original), as_map(modified), &[], removals)?;
    Ok(Value::Object(merge_patches(deletions, delta, &[])))
}

fn child<'p>(path: &[&'p str], field: &'p str) -> Vec<&'p str> {
    let mut path = path.to_vec();
    path.push(field);
    path
}

/// The recursive patch turning `original` into `modified`, restricted by `opts`.
fn diff_maps<'p>(
    original: &Object,
    modified: &'p Object,
    path: &[&'p str],
    opts: Options,
) -> Result<Object, ApplyError> {
    let mut patch = Object::new();
    let mut retained: Vec<Value> = Vec::new();
    for (key, new) in modified {
        if opts.retain_keys && !new.is_null() {
            retained.push(Value::String(key.clone()));
        }
        let Some(old) = original.get(key) else {
            if !opts.ignore_changes {
                patch.insert(key.clone(), new.clone());
            }
            continue;
        };
        if key == PATCH {
            // A directive in a configuration is passed on only when it changed.
            if !opts.ignore_changes && old != new {
                patch.insert(key.clone(), new.clone());
            }
            continue;
        }
        let path = child(path, key);
        match (old, new) {
            (Value::Object(old), Value::Object(new)) => {
                let sub = Options {
                    retain_keys: retains_keys(&path),
                    ..opts
                };
                let sub_patch = diff_maps(old, new, &path, sub)?;
                if !sub_patch.is_empty() {
                    patch.insert(key.clone(), Value::Object(sub_patch));
                }
            }
            (Value::Array(old), Value::Array(new)) => {
                diff_list_field(key, old, new, &path, opts, &mut patch)?;
            }
            _ => {
                if !opts.ignore_changes && !values_equal(old, new) {
                    patch.insert(key.clone(), new.clone());
                }
            }
        }
    }
    if !opts.ignore_deletions {
        for key in original.keys() {
            if !modified.contains_key(key) {
                patch.insert(key.clone(), Value::Null);
            }
        }
    }
    // `$retainKeys` goes along when something changes or the original has fields to clear.
    let has_extra = original
        .iter()
        .any(|(k, v)| !v.is_null() && !modified.contains_key(k));
    if !retained.is_empty() && (!patch.is_empty() || has_extra) {
        sort_by_go_text(&mut retained);
        patch.insert(RETAIN_KEYS.to_owned(), Value::Array(retained));
    }
    Ok(patch)
}

/// Adds to `patch` what a list field needs: the whole list for an atomic list; for a merging
/// list the changed items, `$deleteFromPrimitiveList` and `$setElementOrder` as kubectl sends.
fn diff_list_field(
    key: &str,
    old: &[Value],
    new: &[Value],
    path: &[&str],
    opts: Options,
    patch: &mut Object,
) -> Result<(), ApplyError> {
    let merge_key = match patch_strategy(path) {
        PatchStrategy::Replace => {
            if !opts.ignore_changes && !list_equal(old, new) {
                patch.insert(key.to_owned(), Value::Array(new.to_vec()));
            }
            return Ok(());
        }
        PatchStrategy::MergePrimitives => None,
        PatchStrategy::MergeOnKey(k) => Some(k),
    };
    if old.is_empty() {
        if !new.is_empty() && !opts.ignore_changes {
            patch.insert(key.to_owned(), Value::Array(new.to_vec()));
        }
        return Ok(());
    }
    let (items, deletions, order) = match element_kind(old, new, path)? {
        Kind::Map => {
            let merge_key = merge_key.ok_or_else(|| ApplyError::MissingMergeKey {
                field: path.join("."),
                key: String::new(),
            })?;
            let sub = Options {
                retain_keys: retains_keys(path),
                ..opts
            };
            diff_lists_of_maps(old, new, path, merge_key, sub)?
        }
        Kind::Scalar => diff_lists_of_scalars(old, new, opts),
    };
    if !items.is_empty() {
        patch.insert(key.to_owned(), Value::Array(items));
    }
    if !deletions.is_empty() {
        patch.insert(format!("{DELETE_FROM}{key}"), Value::Array(deletions));
    }
    if !order.is_empty() {
        patch.insert(format!("{SET_ORDER}{key}"), Value::Array(order));
    }
    Ok(())
}

fn list_equal(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| values_equal(x, y))
}

enum Kind {
    Map,
    Scalar,
}

/// All items of both lists must share one kind; lists of lists are refused, as in Go.
fn element_kind(old: &[Value], new: &[Value], path: &[&str]) -> Result<Kind, ApplyError> {
    let bad = |reason: &'static str| ApplyError::BadList {
        field: path.join("."),
        reason,
    };
    let mut kind: Option<u8> = None;
    for item in old.iter().chain(new) {
        let k = match item {
            Value::Array(_) => return Err(bad("lists of lists cannot be merged")),
            Value::Object(_) => 0,
            Value::String(_) => 1,
            Value::Number(_) => 2,
            Value::Bool(_) => 3,
            Value::Null => 4,
        };
        match kind {
            None => kind = Some(k),
            Some(prev) if prev != k => return Err(bad("list element types are not identical")),
            Some(_) => {}
        }
    }
    Ok(if kind == Some(0) {
        Kind::Map
    } else {
        Kind::Scalar
    })
}

type ListDiff = (Vec<Value>, Vec<Value>, Vec<Value>);

/// Items matched on the merge key recurse; added items go whole; removed ones become
/// `{key: v, $patch: delete}` after the others. Returns (items, [], setElementOrder).
fn diff_lists_of_maps(
    old: &[Value],
    new: &[Value],
    path: &[&str],
    merge_key: &str,
    opts: Options,
) -> Result<ListDiff, ApplyError> {
    let key_of = |item: &Value| -> Result<Value, ApplyError> {
        item.get(merge_key)
            .cloned()
            .ok_or_else(|| ApplyError::MissingMergeKey {
                field: path.join("."),
                key: merge_key.to_owned(),
            })
    };
    let keyed = |list: &[Value]| -> Result<Vec<(String, Value, Object)>, ApplyError> {
        let mut out = Vec::with_capacity(list.len());
        for item in list {
            let key = key_of(item)?;
            let map = item.as_object().cloned().unwrap_or_default();
            out.push((go_text(&key), key, map));
        }
        sort_like_go(&mut out, |item| item.0.clone());
        Ok(out)
    };
    let (old_sorted, new_sorted) = (keyed(old)?, keyed(new)?);
    let mut items = Vec::new();
    let mut deletions = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < old_sorted.len() || j < new_sorted.len() {
        let order = match (old_sorted.get(i), new_sorted.get(j)) {
            (Some(o), Some(n)) => o.0.cmp(&n.0),
            (None, _) => Ordering::Greater,
            (_, None) => Ordering::Less,
        };
        match order {
            Ordering::Equal => {
                let (o, n) = (&old_sorted[i].2, &new_sorted[j]);
                let mut sub = diff_maps(o, &n.2, path, opts)?;
                if !sub.is_empty() {
                    sub.insert(merge_key.to_owned(), n.1.clone());
                    items.push(Value::Object(sub));
                }
                i += 1;
                j += 1;
            }
            Ordering::Greater => {
                if !opts.ignore_changes {
                    items.push(Value::Object(new_sorted[j].2.clone()));
                }
                j += 1;
            }
            Ordering::Less => {
                if !opts.ignore_deletions {
                    let mut directive = Object::new();
                    directive.insert(merge_key.to_owned(), old_sorted[i].1.clone());
                    directive.insert(PATCH.to_owned(), Value::String("delete".to_owned()));
                    deletions.push(Value::Object(directive));
                }
                i += 1;
            }
        }
    }
    order_like(&mut items, new, Some(merge_key));
    let order_same = old.len() == new.len()
        && old
            .iter()
            .zip(new)
            .all(|(a, b)| match (a.get(merge_key), b.get(merge_key)) {
                (Some(x), Some(y)) => values_equal(x, y),
                _ => false,
            });
    items.extend(deletions);
    let wants_order = (!opts.ignore_changes && (!items.is_empty() || !order_same))
        || (!opts.ignore_deletions && !items.is_empty());
    let order = if wants_order {
        let mut order = Vec::with_capacity(new.len());
        for item in new {
            let mut only_key = Object::new();
            only_key.insert(merge_key.to_owned(), key_of(item)?);
            order.push(Value::Object(only_key));
        }
        order
    } else {
        Vec::new()
    };
    Ok((items, Vec::new(), order))
}

/// Lists of scalars under a merge strategy (finalizers): added values, a parallel deletion
/// list, and the new order.
fn diff_lists_of_scalars(old: &[Value], new: &[Value], opts: Options) -> ListDiff {
    let mut old_sorted = old.to_vec();
    sort_by_go_text(&mut old_sorted);
    let mut new_sorted = new.to_vec();
    sort_by_go_text(&mut new_sorted);
    let mut added = Vec::new();
    let mut deleted: Vec<Value> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < old_sorted.len() || j < new_sorted.len() {
        let order = match (old_sorted.get(i), new_sorted.get(j)) {
            (Some(o), Some(n)) => go_text(o).cmp(&go_text(n)),
            (None, _) => Ordering::Greater,
            (_, None) => Ordering::Less,
        };
        match order {
            Ordering::Equal => {
                i += 1;
                j += 1;
            }
            Ordering::Greater => {
                if !opts.ignore_changes {
                    added.push(new_sorted[j].clone());
                }
                j += 1;
            }
            Ordering::Less => {
                if !opts.ignore_deletions
                    && !deleted.iter().any(|d| values_equal(d, &old_sorted[i]))
                {
                    deleted.push(old_sorted[i].clone());
                }
                i += 1;
            }
        }
    }
    order_like(&mut added, new, None);
    // Go compares the new list with the old one after sorting the old one in place, so an
    // unsorted but unchanged list still sends its order.
    let order = if (!opts.ignore_deletions && !deleted.is_empty())
        || (!opts.ignore_changes && !list_equal(&old_sorted, new))
    {
        new.to_vec()
    } else {
        Vec::new()
    };
    (added, deleted, order)
}

fn sort_by_go_text(items: &mut [Value]) {
    sort_like_go(items, go_text);
}

/// Sorts by text as Go's `sort.Sort` does with apimachinery's comparator, which also calls
/// equal texts "less": its insertion sort (lists up to 12 items) leaves items with equal keys
/// in reverse order. That is why a port listed for both TCP and UDP under one containerPort
/// matches the wrong live item, a long-standing kubectl apply bug kept here on purpose.
fn sort_like_go<T>(items: &mut [T], text: impl Fn(&T) -> String) {
    items.sort_by_cached_key(|item| text(item));
    let mut start = 0;
    while start < items.len() {
        let key = text(&items[start]);
        let end = start + items[start..].iter().take_while(|i| text(i) == key).count();
        items[start..end].reverse();
        start = end;
    }
}

/// Stable-sorts `items` by where their key (or value) stands in `reference`.
fn order_like(items: &mut [Value], reference: &[Value], merge_key: Option<&str>) {
    let identity = |v: &Value| -> Option<Value> {
        match merge_key {
            Some(k) => v.get(k).cloned(),
            None => Some(v.clone()),
        }
    };
    let position = |v: &Value| -> usize {
        let id = identity(v);
        reference
            .iter()
            .position(|r| match (&id, identity(r)) {
                (Some(a), Some(b)) => values_equal(a, &b),
                _ => false,
            })
            .unwrap_or(usize::MAX)
    };
    items.sort_by_cached_key(position);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_dropped_label_is_deleted_and_a_changed_container_merges_on_its_name() {
        let original = json!({"metadata": {"labels": {"app": "web", "tier": "front"}},
            "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "a"}]}}}});
        let modified = json!({"metadata": {"labels": {"app": "web"}},
            "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "b"}]}}}});
        let current = json!({"metadata": {"labels": {"app": "web", "tier": "front", "x": "y"}},
            "spec": {"template": {"spec": {"containers": [
                {"name": "web", "image": "a", "imagePullPolicy": "IfNotPresent"}]}}}});
        let patch = three_way(&original, &modified, &current).expect("patch");
        assert_eq!(
            patch,
            json!({"metadata": {"labels": {"tier": null}},
                "spec": {"template": {"spec": {
                    "containers": [{"image": "b", "name": "web"}],
                    "$setElementOrder/containers": [{"name": "web"}]}}}})
        );
    }

    #[test]
    fn removed_items_get_delete_directives_and_finalizers_a_parallel_list() {
        let original = json!({"metadata": {"finalizers": ["a", "b"]},
            "spec": {"containers": [{"name": "x"}, {"name": "y"}]}});
        let modified = json!({"metadata": {"finalizers": ["a"]},
            "spec": {"containers": [{"name": "x"}]}});
        let patch = three_way(&original, &modified, &original).expect("patch");
        assert_eq!(
            patch["metadata"]["$deleteFromPrimitiveList/finalizers"],
            json!(["b"])
        );
        assert_eq!(
            patch["metadata"]["$setElementOrder/finalizers"],
            json!(["a"])
        );
        assert_eq!(
            patch["spec"]["containers"],
            json!([{"name": "y", "$patch": "delete"}])
        );
        assert_eq!(
            patch["spec"]["$setElementOrder/containers"],
            json!([{"name": "x"}])
        );
    }

    #[test]
    fn retain_keys_rides_along_when_the_live_strategy_has_extra_fields() {
        let config = json!({"spec": {"strategy": {"type": "RollingUpdate"}}});
        let live = json!({"spec": {"strategy": {"type": "RollingUpdate",
            "rollingUpdate": {"maxSurge": "25%"}}}});
        let patch = three_way(&config, &config, &live).expect("patch");
        assert_eq!(
            patch,
            json!({"spec": {"strategy": {"$retainKeys": ["type"]}}})
        );
    }

    #[test]
    fn missing_merge_keys_and_mixed_lists_are_refused() {
        let live = json!({"spec": {"containers": [{"name": "a"}]}});
        let bad = json!({"spec": {"containers": [{"image": "x"}]}});
        assert!(three_way(&live, &bad, &live).is_err());
        let mixed = json!({"spec": {"containers": ["a"]}});
        assert!(three_way(&live, &mixed, &live).is_err());
    }
}
