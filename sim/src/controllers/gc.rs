//! The garbage collector: deletes objects whose owners are all gone (background cascade),
//! deletes the dependents of an owner being deleted in the foreground before releasing it, and
//! for orphaning deletes removes the owner reference from dependents first.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::broadcast;
use tokio::task::JoinHandle;

use super::{Env, MANAGER};
use crate::objects;
use crate::ops::{self, DeleteOptions, Part, Propagation};
use crate::store::{EventType, Key};

/// Coalesce bursts of deletions into one sweep: a few milliseconds, as the real collector
/// removes a deleted owner's dependents before `kubectl delete all` gets to list them.
const SWEEP_DELAY: Duration = Duration::from_millis(5);

pub fn run(env: Env) -> JoinHandle<()> {
    let mut events = env.store.subscribe();
    tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(e) if e.kind == EventType::Deleted || objects::is_deleting(&e.object) => {}
                Ok(_) => continue,
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return,
            }
            tokio::time::sleep(SWEEP_DELAY).await;
            while events.try_recv().is_ok() {}
            // Each sweep can free more (a Deployment's ReplicaSets, then their Pods).
            while sweep(&env) {}
        }
    })
}

/// One pass over every object; true when it changed something.
fn sweep(env: &Env) -> bool {
    let all = env.store.all();
    let by_uid: HashMap<&str, &Arc<Value>> =
        all.iter().map(|(_, o)| (objects::uid(o), o)).collect();
    let mut changed = false;
    let mut has_dependents: HashSet<String> = HashSet::new();
    for (key, obj) in &all {
        let Some(refs) = obj["metadata"]["ownerReferences"]
            .as_array()
            .filter(|r| !r.is_empty())
        else {
            continue;
        };
        let owners: Vec<Option<&&Arc<Value>>> = refs
            .iter()
            .map(|r| by_uid.get(r["uid"].as_str().unwrap_or_default()))
            .collect();
        for owner in owners.iter().flatten() {
            has_dependents.insert(objects::uid(owner).to_string());
        }
        if objects::is_deleting(obj) {
            continue;
        }
        let orphaned_by: Vec<&str> = owners
            .iter()
            .flatten()
            .filter(|o| {
                objects::is_deleting(o) && objects::finalizers(o).iter().any(|f| f == "orphan")
            })
            .map(|o| objects::uid(o))
            .collect();
        if !orphaned_by.is_empty() {
            let kept: Vec<&Value> = refs
                .iter()
                .filter(|r| !orphaned_by.contains(&r["uid"].as_str().unwrap_or_default()))
                .collect();
            let patch = json!({"metadata": {"ownerReferences": if kept.is_empty() { Value::Null } else { json!(kept) }}});
            changed |= ops::merge(&env.store, key, &patch, Part::Main, "k3s").is_ok();
            continue;
        }
        let all_gone = owners.iter().all(Option::is_none);
        let foreground_owner = owners.iter().flatten().any(|o| {
            objects::is_deleting(o)
                && objects::finalizers(o)
                    .iter()
                    .any(|f| f == "foregroundDeletion")
        });
        if all_gone || foreground_owner {
            let policy = if foreground_owner {
                Propagation::Foreground
            } else {
                Propagation::Background
            };
            let opts = DeleteOptions {
                propagation: Some(policy),
                ..DeleteOptions::default()
            };
            changed |= ops::delete(&env.store, key.ty(), &key.namespace, &key.name, &opts).is_ok();
        }
    }
    for (key, obj) in &all {
        changed |= release(env, key, obj, &has_dependents);
    }
    changed
}

/// Removes the `orphan` / `foregroundDeletion` finalizer once the GC's work for it is done.
fn release(env: &Env, key: &Key, obj: &Value, has_dependents: &HashSet<String>) -> bool {
    if !objects::is_deleting(obj) {
        return false;
    }
    let finalizers = objects::finalizers(obj);
    let waiting = has_dependents.contains(objects::uid(obj));
    let keep: Vec<&String> = finalizers
        .iter()
        .filter(|f| match f.as_str() {
            "orphan" | "foregroundDeletion" => waiting,
            _ => true,
        })
        .collect();
    if keep.len() == finalizers.len() {
        return false;
    }
    let patch = json!({"metadata": {"finalizers": keep}});
    ops::merge(&env.store, key, &patch, Part::Main, MANAGER).is_ok()
}
