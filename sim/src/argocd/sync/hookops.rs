//! What the engine does to live hook objects (docs/sim-behaviour.md §4.4, §4.5, §5.3): reads a
//! hook's phase from its health, takes the hook finalizer off, deletes hooks, and terminates
//! running hooks as gitops-engine's `terminateHooksPreemptively` does.

use serde_json::{Value, json};

use super::task::{MANAGER, SyncTask, TaskState};
use crate::argocd::health::{self, Health, HealthStatus};
use crate::argocd::hooks::{self, DeletePolicy};
use crate::controllers::Env;
use crate::objects;
use crate::ops::{self, DeleteOptions, Part, Propagation};
use crate::store::Key;

/// A hook's phase from its health (gitops-engine `getOperationPhase`).
pub fn hook_phase(health: Option<&Health>) -> (TaskState, String) {
    match health {
        None => (TaskState::Succeeded, String::new()),
        Some(h) => match h.status {
            HealthStatus::Healthy => (TaskState::Succeeded, h.message.clone()),
            HealthStatus::Degraded | HealthStatus::Unknown => {
                (TaskState::Failed, h.message.clone())
            }
            _ => (TaskState::Running, h.message.clone()),
        },
    }
}

pub fn release_finalizer(env: &Env, key: &Key) {
    let Some(obj) = env.store.get(key) else {
        return;
    };
    let finalizers = objects::finalizers(&obj);
    if !finalizers.iter().any(|f| f == hooks::FINALIZER) {
        return;
    }
    let kept: Vec<&String> = finalizers
        .iter()
        .filter(|f| *f != hooks::FINALIZER)
        .collect();
    let patch = json!({"metadata": {"finalizers": if kept.is_empty() { Value::Null } else { json!(kept) }}});
    let _ = ops::merge(&env.store, key, &patch, Part::Main, MANAGER);
}

pub fn delete_hook(env: &Env, key: &Key) {
    release_finalizer(env, key);
    let opts = DeleteOptions {
        propagation: Some(Propagation::Background),
        ..DeleteOptions::default()
    };
    let _ = ops::delete(&env.store, key.ty(), &key.namespace, &key.name, &opts);
}

/// Terminates one hook task: completed hooks only lose their finalizer; a running one is looked
/// at once more, loses its finalizer, is deleted while still running (or when it finished and
/// carries `HookFailed`), and keeps the result it reached or becomes Failed, `Terminated`. A
/// running hook whose object is gone is recorded Succeeded, `Terminated`, as upstream does.
pub fn terminate(env: &Env, task: &mut SyncTask) {
    if task.hook.is_none() {
        return;
    }
    let key = task.key();
    match task.state {
        TaskState::Pending => {}
        TaskState::Succeeded | TaskState::Failed | TaskState::Error => release_finalizer(env, &key),
        TaskState::Running => {
            let Some(live) = env.store.get(&key) else {
                task.state = TaskState::Succeeded;
                task.message = "Terminated".into();
                return;
            };
            let health = health::resource_health(&live);
            let (phase, message) = hook_phase(health.as_ref());
            release_finalizer(env, &key);
            if phase == TaskState::Running || task.policies.contains(&DeletePolicy::HookFailed) {
                delete_hook(env, &key);
            }
            if phase == TaskState::Running {
                task.state = TaskState::Failed;
                task.message = "Terminated".into();
            } else {
                task.state = phase;
                if health.is_none() {
                    task.message = format!("{} created", task.name);
                } else if !message.is_empty() {
                    task.message = message;
                }
            }
        }
    }
}
