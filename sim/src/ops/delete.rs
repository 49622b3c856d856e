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
    let stored = store.write(&key, |old| {
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
                "UID in precondition: {uid}, UID in object meta: {}",
                objects::uid(old)
            ),
        ));
    }
    if let Some(rv) = &opts.resource_version
        && Some(rv.as_str()) != old["metadata"]["resourceVersion"].as_str()
    {
        return Err(ApiError::stale(ty, name));
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
    } else if finalizers.is_empty() {
        return None;
    }
    let meta = objects::metadata_mut(&mut obj);
    if !finalizers.is_empty() {
        meta.insert("finalizers".into(), json!(finalizers));
    }
    meta.insert("deletionTimestamp".into(), json!(store.clock.now_rfc3339()));
    meta.insert("deletionGracePeriodSeconds".into(), json!(0));
    Some(obj)
}
