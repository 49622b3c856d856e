//! The message a waiting operation carries, worded as gitops-engine's `setRunningPhase` words
//! it (docs/sim-behaviour.md §4.2): the first hook (or, without hooks, the first resource) and
//! how many more tasks the step or wait holds.

use super::SyncTask;
use crate::store::Key;

/// `waiting for completion of hook batch/Job/pre and 2 more resources`,
/// `waiting for healthy state of /ConfigMap/settings`, `waiting for deletion of hook ...`.
/// An empty list gives an empty message, as upstream.
pub fn running_phase(tasks: &[&SyncTask], pending_deletion: bool) -> String {
    let hooks: Vec<&&SyncTask> = tasks.iter().filter(|t| t.hook.is_some()).collect();
    let Some(first) = hooks.first().copied().or(tasks.first()) else {
        return String::new();
    };
    let all_hooks = hooks.len() == tasks.len();
    let reason = match (pending_deletion, hooks.is_empty()) {
        (true, true) => "deletion of",
        (true, false) => "deletion of hook",
        (false, true) => "healthy state of",
        (false, false) => "completion of hook",
    };
    let mut message = format!("waiting for {reason} {}", first.describe());
    let more = tasks.len() - 1;
    if more > 0 {
        let kind = if all_hooks { "hooks" } else { "resources" };
        message.push_str(&format!(" and {more} more {kind}"));
    }
    message
}

/// `batch/Job/name`, `/ConfigMap/name`: how the engine names a resource in messages.
pub fn describe(key: &Key) -> String {
    let ty = key.ty();
    format!("{}/{}/{}", ty.group, ty.kind, key.name)
}
