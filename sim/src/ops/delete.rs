//! DELETE as a real API server does it: preconditions, propagation policies turned into the
//! `foregroundDeletion` / `orphan` finalizers the garbage collector honours, objects with
//! finalizers left pending with a `deletionTimestamp`, and Namespaces always going through
//! `Terminating` while their content is removed.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::kinds::ResourceType;
use crate::objects;
use crate::status::{ApiError, ApiResult};
use crate::store::{Change, Key, Store};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Propagation {
    Background,
    Foreground,
    Orphan,
}

impl Propagation {
    pub fn parse(s: &str) -> Option<Propagation> {
        match s {
            "Background" => Some(Propagation::Background),
            "Foreground" => Some(Propagation::Foreground),
            "Orphan" => Some(Propagation::Orphan),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct DeleteOptions {
    pub propagation: Option<Propagation>,
    pub uid: Option<String>,
    pub resource_version: Option<String>,
    pub dry_run: bool,
}

/// What a delete did.
pub enum Deleted {
    /// Removed from the store (the last state).
    Gone(Arc<Value>),
    /// Marked for deletion; finalizers must run first.
    Pending(Arc<Value>),
}

pub fn delete(
    store: &Store,
    ty: &'static ResourceType,
    namespace: &str,
    name: &str,
    opts: &DeleteOptions,
) -> ApiResult<Deleted> {
    let key = Key::new(ty, namespace, name);
    let mut outcome_pending = false;
    let mut dry_copy = None;
    let stored = store.write::<ApiError>(&key, |old| {
        let old = old.ok_or_else(|| ApiError::not_found(ty, name))?;
        check_preconditions(ty, name, old, opts)?;
        let Some(marked) = mark_for_deletion(store, ty, old, opts) else {
            if opts.dry_run {
                dry_copy = Some(old.clone());
                return Ok(Change::Keep);
            }
            return Ok(Change::Delete);
        };
        outcome_pending = true;
        if opts.dry_run {
            dry_copy = Some(marked);
            return Ok(Change::Keep);
        }
        Ok(Change::Put(marked))
    })?;
    let obj = match dry_copy {
        Some(v) => Arc::new(v),
        None => stored.ok_or_else(|| ApiError::not_found(ty, name))?,
    };
    Ok(if outcome_pending {
        Deleted::Pending(obj)
    } else {
        Deleted::Gone(obj)
    })
}

fn check_preconditions(
    ty: &ResourceType,
    name: &str,
    old: &Value,
    opts: &DeleteOptions,
) -> ApiResult<()> {
    if let Some(uid) = &opts.uid
        && uid != objects::uid(old)
    {
        return Err(ApiError::precondition_failed(
            ty,
            name,
            &format!(
                "the UID in the precondition ({uid}) does not match the UID in record ({}). The object might have been deleted and then recreated",
                objects::uid(old)
            ),
        ));
    }
    let stored_rv = old["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or_default();
    if let Some(rv) = &opts.resource_version
        && rv != stored_rv
    {
        return Err(ApiError::precondition_failed(
            ty,
            name,
            &format!(
                "the ResourceVersion in the precondition ({rv}) does not match the ResourceVersion in record ({stored_rv}). The object might have been modified"
            ),
        ));
    }
    Ok(())
}

/// The object with its deletion pending, or `None` when it can go at once.
fn mark_for_deletion(
    store: &Store,
    ty: &ResourceType,
    old: &Value,
    opts: &DeleteOptions,
) -> Option<Value> {
    let mut obj = old.clone();
    if objects::is_deleting(old) {
        // Already on its way out; a second delete changes nothing.
        return Some(obj);
    }
    let mut finalizers = objects::finalizers(old);
    let policy = opts.propagation.unwrap_or(match (ty.group, ty.kind) {
        // batch/v1 Jobs still default to orphaning their Pods when no policy is given.
        ("batch", "Job") => Propagation::Orphan,
        _ => Propagation::Background,
    });
    let extra = match policy {
        Propagation::Foreground => Some("foregroundDeletion"),
        Propagation::Orphan => Some("orphan"),
        Propagation::Background => None,
    };
    if let Some(f) = extra
        && !finalizers.iter().any(|x| x == f)
    {
        finalizers.push(f.to_string());
    }
    if ty.kind == "Namespace" {
        obj["status"]["phase"] = json!("Terminating");
    } else if (ty.group, ty.kind) == ("apiextensions.k8s.io", "CustomResourceDefinition") {
        // The CRD registry's Delete: its custom resources go first (`controllers::crd`).
        let cleanup = crate::controllers::crd::CLEANUP_FINALIZER;
        if !finalizers.iter().any(|f| f == cleanup) {
            finalizers.push(cleanup.to_string());
        }
        let mut conds = obj["status"]["conditions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let now = store.clock.now_rfc3339();
        crate::controllers::crd::set_condition_at(
            &mut conds,
            crate::controllers::crd::marked_for_deletion(),
            &now,
        );
        obj["status"]["conditions"] = json!(conds);
    } else if finalizers.is_empty() {
        return None;
    }
    let meta = objects::metadata_mut(&mut obj);
    if !finalizers.is_empty() {
        meta.insert("finalizers".into(), json!(finalizers));
    }
    meta.insert("deletionTimestamp".into(), json!(store.clock.now_rfc3339()));
    // The Namespace registry's own delete sets no grace period; every other kind's is 0.
    if ty.kind != "Namespace" {
        meta.insert("deletionGracePeriodSeconds".into(), json!(0));
    }
    Some(obj)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_precondition_that_does_not_hold_is_a_conflict_on_the_kind() {
        let store = Store::in_memory(1.0);
        let ty = &crate::kinds::CONFIG_MAP;
        store
            .write::<()>(&Key::new(ty, "lab", "c"), |_| {
                Ok(Change::Put(json!({"apiVersion": "v1", "kind": "ConfigMap",
                    "metadata": {"name": "c", "namespace": "lab", "uid": "u-1"}})))
            })
            .unwrap();
        let opts = DeleteOptions {
            uid: Some("u-2".into()),
            ..DeleteOptions::default()
        };
        let Err(e) = delete(&store, ty, "lab", "c", &opts) else {
            panic!("deleted despite the precondition");
        };
        assert_eq!((e.code, e.reason), (409, "Conflict"));
        assert_eq!(
            e.message,
            "Operation cannot be fulfilled on ConfigMap \"c\": the UID in the precondition (u-2) does not match the UID in record (u-1). The object might have been deleted and then recreated"
        );
        assert_eq!(e.details, Some(json!({"name": "c", "kind": "ConfigMap"})));
        let opts = DeleteOptions {
            resource_version: Some("0".into()),
            ..DeleteOptions::default()
        };
        let Err(e) = delete(&store, ty, "lab", "c", &opts) else {
            panic!("deleted despite the precondition");
        };
        assert!(
            e.message.ends_with("the ResourceVersion in the precondition (0) does not match the ResourceVersion in record (1). The object might have been modified"),
            "{}",
            e.message
        );
    }
}
