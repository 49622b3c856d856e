//! Strategic merge patch (`application/strategic-merge-patch+json`), as `kubectl patch` and
//! client-side `kubectl apply` send it.
//!
//! Maps merge recursively and `null` removes a field, as in a JSON merge patch; lists follow
//! the field's patch strategy from `schema` (replace, a set of scalars, or objects merged on a
//! key). The `$`-directives (`$patch`, `$retainKeys`, `$setElementOrder/…`,
//! `$deleteFromPrimitiveList/…`) steer that and never reach the result. Where the real API
//! server has a quirk that users can see (new list items land before the server's own, a map
//! deleted with `$patch: delete` is left as `{}`), we keep the quirk.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::schema::{PatchStrategy, patch_strategy, retains_keys};

const PATCH: &str = "$patch";
const RETAIN_KEYS: &str = "$retainKeys";
const SET_ORDER: &str = "$setElementOrder/";
const DELETE_FROM: &str = "$deleteFromPrimitiveList/";

/// Why a strategic-merge patch was refused; the messages follow the real API server's wording.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PatchError {
    #[error("strategic merge patch must be a JSON object")]
    NotAnObject,
    #[error("unknown directive {0:?} in strategic merge patch")]
    UnknownDirective(String),
    /// `mergepatch.ErrBadPatchType`: the directive and the map holding it, as Go's `%s` and
    /// `%v` print them.
    #[error("unknown patch type: {directive} in map: {map}")]
    UnknownPatchType { directive: String, map: String },
    #[error("invalid patch format: {0}")]
    BadDirective(String),
    #[error("map: {item} does not contain declared merge key: {key}")]
    MissingMergeKey { item: String, key: String },
    #[error("cannot merge list {field}: {reason}")]
    BadList { field: String, reason: &'static str },
}

type Result<T> = std::result::Result<T, PatchError>;
type Object = Map<String, Value>;
/// Field names from the object's root, the form `schema` answers for. List items share their
/// list's path, so an item's fields continue it.
type Path<'p> = [&'p str];

/// Applies a strategic-merge patch to `live`, returning the patched object.
pub fn apply_strategic_merge(live: &Value, patch: &Value) -> Result<Value> {
    let patch = patch.as_object().ok_or(PatchError::NotAnObject)?;
    // A stored object is always a map; anything else counts as empty so the patch wins.
    merge_map(live.as_object(), patch, &[]).map(Value::Object)
}

/// What a `$patch` key inside a map asks for.
#[derive(Clone, Copy, PartialEq)]
enum MapDirective {
    Merge,
    Replace,
    Delete,
}

fn map_directive(patch: &Object) -> Result<MapDirective> {
    match patch.get(PATCH) {
        None => Ok(MapDirective::Merge),
        Some(Value::String(s)) if s == "replace" => Ok(MapDirective::Replace),
        Some(Value::String(s)) if s == "delete" => Ok(MapDirective::Delete),
        Some(other) => Err(PatchError::UnknownPatchType {
            directive: crate::validation::gofmt::v(other),
            map: crate::validation::gofmt::v(&Value::Object(patch.clone())),
        }),
    }
}

/// Merges `patch` into a copy of `live`; `None` stands for a map the live object lacks.
fn merge_map<'p>(live: Option<&Object>, patch: &'p Object, path: &Path<'p>) -> Result<Object> {
    let live = match map_directive(patch)? {
        // The real server leaves an empty map behind rather than dropping the field.
        MapDirective::Delete => return Ok(Map::new()),
        MapDirective::Replace => None,
        MapDirective::Merge => live,
    };
    let mut out = live.cloned().unwrap_or_default();
    if let Some(keys) = patch.get(RETAIN_KEYS) {
        retain_keys(&mut out, keys, patch, path)?;
    }
    let ordered = apply_element_orders(&mut out, patch, path)?;
    for (key, value) in patch {
        if key.starts_with('$') {
            check_directive(key)?;
        } else if !ordered.contains(key.as_str()) {
            // `shift_remove` keeps the other fields in their order.
            match merge_field(out.get(key), value, &child_path(path, key))? {
                Some(merged) => out.insert(key.clone(), merged),
                None => out.shift_remove(key),
            };
        }
    }
    // Deletions go last so they also see what the same patch added or reordered.
    for (key, values) in patch {
        if let Some(field) = key.strip_prefix(DELETE_FROM) {
            delete_from_list(&mut out, field, values)?;
        }
    }
    Ok(out)
}

/// Merges one field; `None` means the field is to be removed.
fn merge_field<'p>(
    live: Option<&Value>,
    patch: &'p Value,
    path: &Path<'p>,
) -> Result<Option<Value>> {
    Ok(match patch {
        Value::Null => None,
        Value::Object(fields) => {
            let live = live.and_then(Value::as_object);
            // `$patch: delete` empties a live map; with no live map there is nothing to keep.
            if live.is_none() && map_directive(fields)? == MapDirective::Delete {
                None
            } else {
                Some(Value::Object(merge_map(live, fields, path)?))
            }
        }
        Value::Array(items) => Some(Value::Array(match live.and_then(Value::as_array) {
            Some(live) => merge_list(live, items, path)?,
            None => fresh_list(items, path)?,
        })),
        scalar => Some(scalar.clone()),
    })
}

/// Known directives pass; any other `$` key is refused rather than stored as a field.
fn check_directive(key: &str) -> Result<()> {
    let names_field = |prefix: &str| key.strip_prefix(prefix).is_some_and(|f| !f.is_empty());
    if key == PATCH || key == RETAIN_KEYS || names_field(SET_ORDER) || names_field(DELETE_FROM) {
        Ok(())
    } else {
        Err(PatchError::UnknownDirective(key.to_owned()))
    }
}

/// `$retainKeys` clears the live fields it does not list: how kubectl switches a union such as
/// a volume's source or a Deployment's strategy from one member to another.
fn retain_keys(out: &mut Object, keys: &Value, patch: &Object, path: &Path) -> Result<()> {
    let at = dotted(path);
    if !retains_keys(path) {
        return Err(PatchError::BadDirective(format!(
            "$retainKeys is not allowed in {at}"
        )));
    }
    let keep: HashSet<&str> = keys
        .as_array()
        .and_then(|names| names.iter().map(Value::as_str).collect())
        .ok_or_else(|| {
            PatchError::BadDirective(format!("$retainKeys in {at} must list field names"))
        })?;
    // Like the real server, refuse a patch that sets a field it also asks to clear.
    if patch
        .iter()
        .any(|(k, v)| !k.starts_with('$') && !v.is_null() && !keep.contains(k.as_str()))
    {
        return Err(PatchError::BadDirective(format!(
            "patch content doesn't match retainKeys list in {at}"
        )));
    }
    out.retain(|k, _| keep.contains(k.as_str()));
    Ok(())
}

/// Handles each `$setElementOrder/<field>`: merges that field's patch list, if any, then puts
/// the list in the given order. Returns the fields done, which the plain merge then skips.
fn apply_element_orders<'p>(
    out: &mut Object,
    patch: &'p Object,
    path: &Path<'p>,
) -> Result<HashSet<&'p str>> {
    let mut done = HashSet::new();
    for (directive, order) in patch {
        let Some(field) = directive.strip_prefix(SET_ORDER) else {
            continue;
        };
        let path = child_path(path, field);
        let bad =
            |what| PatchError::BadDirective(format!("{what} {} must be a list", dotted(&path)));
        let order: Vec<&Value> = order
            .as_array()
            .ok_or_else(|| bad("$setElementOrder for"))?
            .iter()
            .collect();
        let items = match patch.get(field) {
            None => None,
            Some(Value::Array(items)) => Some(items),
            Some(_) => return Err(bad("the patch of")),
        };
        let key = merge_key(&path);
        check_order(&order, items.map_or(&[], Vec::as_slice), key, &path)?;
        // A live value that is not a list is overwritten, as in `merge_field`.
        let live = out.get(field).and_then(Value::as_array);
        let merged = match (live, items) {
            (Some(live), Some(items)) => merge_list(live, items, &path)?,
            (None, Some(items)) => fresh_list(items, &path)?,
            (Some(live), None) => live.clone(),
            (None, None) => continue,
        };
        let arranged = arrange(merged, &order, live.map_or(&[], Vec::as_slice), key);
        out.insert(field.to_owned(), Value::Array(arranged));
        done.insert(field);
    }
    Ok(done)
}

/// The items a patch list merges must appear in `$setElementOrder` in the same relative order.
fn check_order(order: &[&Value], items: &[Value], key: Option<&str>, path: &Path) -> Result<()> {
    if let Some(key) = key {
        order
            .iter()
            .try_for_each(|o| require_key(o, key).map(drop))?;
    }
    // The real server skips the check when either list is empty.
    if order.is_empty() {
        return Ok(());
    }
    let mut rest = order.iter();
    for item in items
        .iter()
        .filter(|i| !i.as_object().is_some_and(|o| o.contains_key(PATCH)))
    {
        if !rest.any(|o| same_item(o, item, key)) {
            let field = dotted(path);
            return Err(PatchError::BadDirective(format!(
                "the order in patch list {field} doesn't match $setElementOrder/{}",
                path.last().unwrap_or(&"")
            )));
        }
    }
    Ok(())
}

fn merge_list<'p>(live: &[Value], patch: &'p [Value], path: &Path<'p>) -> Result<Vec<Value>> {
    match patch_strategy(path) {
        PatchStrategy::Replace => fresh_list(patch, path),
        PatchStrategy::MergePrimitives => merge_primitives(live, patch, path),
        PatchStrategy::MergeOnKey(key) => merge_on_key(live, patch, key, path),
    }
}

/// A list the live object lacks, or one that replaces the live list: the patch's items,
/// cleaned of directives and nulls.
fn fresh_list<'p>(
    items: impl IntoIterator<Item = &'p Value>,
    path: &Path<'p>,
) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    for item in items {
        match item {
            Value::Object(fields) => {
                // An item carrying `$patch` only instructs; with no live list it has no target.
                if map_directive(fields)? == MapDirective::Merge {
                    out.push(Value::Object(merge_map(None, fields, path)?));
                }
            }
            Value::Array(inner) => out.push(Value::Array(fresh_list(inner, path)?)),
            scalar => out.push(scalar.clone()),
        }
    }
    Ok(out)
}

/// A set of scalars such as `finalizers`: the union without duplicates.
fn merge_primitives(live: &[Value], patch: &[Value], path: &Path) -> Result<Vec<Value>> {
    if patch.iter().any(|v| v.is_object() || v.is_array()) {
        let reason = "it holds scalars but the patch has objects or lists in it";
        return Err(PatchError::BadList {
            field: dotted(path),
            reason,
        });
    }
    let mut merged: Vec<Value> = Vec::with_capacity(live.len() + patch.len());
    for item in live.iter().chain(patch) {
        if !merged.iter().any(|m| same_item(m, item, None)) {
            merged.push(item.clone());
        }
    }
    Ok(arrange(
        merged,
        &patch.iter().collect::<Vec<_>>(),
        live,
        None,
    ))
}

/// A list of objects merged item by item on `key` (containers by `name`, ports by `port`).
fn merge_on_key<'p>(
    live: &[Value],
    patch: &'p [Value],
    key: &str,
    path: &Path<'p>,
) -> Result<Vec<Value>> {
    let mut merged = live.to_vec();
    let mut plain: Vec<&'p Value> = Vec::with_capacity(patch.len());
    let mut replace = false;
    for item in patch {
        let fields = item.as_object().ok_or_else(|| PatchError::BadList {
            field: dotted(path),
            reason: "its items must be objects",
        })?;
        match map_directive(fields)? {
            MapDirective::Merge => {
                require_key(item, key)?;
                plain.push(item);
            }
            MapDirective::Delete => {
                require_key(item, key)?;
                merged.retain(|m| !same_item(m, item, Some(key)));
            }
            // `{"$patch": "replace"}` as an item: the rest of the patch list is the new list.
            MapDirective::Replace => replace = true,
        }
    }
    if replace {
        return fresh_list(plain, path);
    }
    for &item in &plain {
        // Always an object: the loop above checked.
        let Value::Object(fields) = item else {
            continue;
        };
        match merged.iter().position(|m| same_item(m, item, Some(key))) {
            Some(i) => merged[i] = Value::Object(merge_map(merged[i].as_object(), fields, path)?),
            None => merged.push(Value::Object(merge_map(None, fields, path)?)),
        }
    }
    Ok(arrange(merged, &plain, live, Some(key)))
}

/// `$deleteFromPrimitiveList/<field>`: drops those values from the live list. A missing list
/// stays missing.
fn delete_from_list(out: &mut Object, field: &str, values: &Value) -> Result<()> {
    let values = values
        .as_array()
        .ok_or_else(|| PatchError::BadDirective(format!("{DELETE_FROM}{field} must be a list")))?;
    if let Some(Value::Array(items)) = out.get_mut(field) {
        items.retain(|item| !values.iter().any(|v| same_item(v, item, None)));
    }
    Ok(())
}

/// The final order of a merged list, as the real server computes it. Items that `order` names
/// (the `$setElementOrder` list, else the patch list) follow it. The others, which only the
/// server had, keep their live order and go just before the first named item they preceded in
/// the live list. A named item new to the list has no live position, so it goes before any
/// server-only item still waiting: that is why the server puts items added without
/// `$setElementOrder` at the front.
fn arrange(merged: Vec<Value>, order: &[&Value], live: &[Value], key: Option<&str>) -> Vec<Value> {
    let rank = |list: &[&Value], item: &Value| list.iter().position(|o| same_item(o, item, key));
    let live_refs: Vec<&Value> = live.iter().collect();
    let (mut named, mut server_only): (Vec<_>, Vec<_>) =
        merged.into_iter().partition(|i| rank(order, i).is_some());
    named.sort_by_key(|i| rank(order, i));
    server_only.sort_by_key(|i| rank(&live_refs, i).unwrap_or(usize::MAX));
    let mut out = Vec::with_capacity(named.len() + server_only.len());
    let mut server_only = server_only.into_iter().peekable();
    for item in named {
        let at = rank(&live_refs, &item);
        let before = |s: &Value| matches!((rank(&live_refs, s), at), (Some(s), Some(n)) if s < n);
        while let Some(earlier) = server_only.next_if(|s| before(s)) {
            out.push(earlier);
        }
        out.push(item);
    }
    out.extend(server_only);
    out
}

fn merge_key(path: &Path) -> Option<&'static str> {
    match patch_strategy(path) {
        PatchStrategy::MergeOnKey(key) => Some(key),
        _ => None,
    }
}

fn require_key<'v>(item: &'v Value, key: &str) -> Result<&'v Value> {
    item.as_object()
        .and_then(|o| o.get(key))
        .ok_or_else(|| PatchError::MissingMergeKey {
            item: item.to_string(),
            key: key.to_owned(),
        })
}

/// Whether two list items are the same item: equal merge-key values, or equal values in a list
/// of scalars. Numbers compare as the Go server sees them, all float64, so `80` is `80.0`.
fn same_item(a: &Value, b: &Value, key: Option<&str>) -> bool {
    let (a, b) = match key {
        Some(key) => match (a.get(key), b.get(key)) {
            (Some(a), Some(b)) => (a, b),
            _ => return false,
        },
        None => (a, b),
    };
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn child_path<'p>(path: &Path<'p>, field: &'p str) -> Vec<&'p str> {
    let mut child = path.to_vec();
    child.push(field);
    child
}

fn dotted(path: &Path) -> String {
    if path.is_empty() {
        "the object".to_owned()
    } else {
        path.join(".")
    }
}

#[cfg(test)]
mod tests;
