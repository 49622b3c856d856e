//! A sync resumed after the controller restarted: gitops-engine rebuilds its sync context on
//! every pass and gives each task the result the operation already recorded for it
//! (`syncResult.resources`: status, hook phase, message), so a task with a result is never run
//! again — a PreSync hook that ran stays run, and the operation carries on at the wave it had
//! reached rather than starting over.

use serde_json::Value;

use super::{Run, SyncTask, TaskState};

/// The statuses a result can carry, as the static strings tasks hold.
fn sync_status(s: &str) -> Option<&'static str> {
    [
        "Synced",
        "SyncFailed",
        "Pruned",
        "PruneSkipped",
        "OutOfSync",
        "Unknown",
    ]
    .into_iter()
    .find(|known| *known == s)
}

fn task_state(hook_phase: &str) -> Option<TaskState> {
    match hook_phase {
        "Running" => Some(TaskState::Running),
        "Succeeded" => Some(TaskState::Succeeded),
        "Failed" => Some(TaskState::Failed),
        "Error" | "Terminating" => Some(TaskState::Error),
        _ => None,
    }
}

/// Whether `result` is this task's (`resultKey`: kind, group, namespace, name and, for the
/// same object met in two phases as hooks, its phase).
fn is_result_of(task: &SyncTask, result: &Value) -> bool {
    let s = |k: &str| result[k].as_str().unwrap_or_default();
    s("kind") == task.ty.kind
        && s("group") == task.ty.group
        && s("namespace") == task.namespace
        && s("name") == task.name
        && s("syncPhase") == task.phase.as_str()
}

impl Run {
    /// Gives each task the result already recorded for it; the next results are numbered after
    /// them.
    pub fn resume_from(&mut self, results: &[Value]) {
        for (order, result) in results.iter().enumerate() {
            let order = order + 1;
            let status = result["status"].as_str().and_then(sync_status);
            let task = self
                .tasks
                .iter_mut()
                .chain(self.sync_fail.iter_mut())
                .find(|t| is_result_of(t, result));
            let (Some(task), Some(status)) = (task, status) else {
                // No task for it any more (the created namespace, once it exists): its result
                // stays as it was.
                self.kept_results.push((order, result.clone()));
                continue;
            };
            task.sync_status = Some(status);
            task.message = result["message"].as_str().unwrap_or_default().to_string();
            task.order = Some(order);
            task.state = result["hookPhase"]
                .as_str()
                .and_then(task_state)
                .unwrap_or(TaskState::Running);
            if matches!(status, "Pruned" | "PruneSkipped") {
                task.state = TaskState::Succeeded;
            }
            if status == "SyncFailed" {
                task.state = TaskState::Failed;
            }
        }
        self.results = self.results.max(results.len());
        // A result in the SyncFail phase means the sync had already failed.
        self.in_sync_fail = self.sync_fail.iter().any(|t| t.sync_status.is_some());
    }
}
