//! The sync engine (gitops-engine's sync context, docs/sim-behaviour.md §4): tasks ordered by phase, wave, kind and
//! name; one step per pass — update running tasks from live health, wait for a multi-step sync's
//! resources and hooks, stop on failure (running SyncFail hooks), or apply the next
//! (phase, wave) group and pause 2 s before the next. Messages are Argo CD's own.

mod apply;
mod tasks;

use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Value, json};

pub use apply::Options;
pub use tasks::{BuildInput, SyncTask, TaskState, build};

use super::health::HealthStatus;
use super::hooks::{self, DeletePolicy};
use crate::controllers::Env;
use crate::objects;
use crate::ops::{self, DeleteOptions, Part, Propagation};
use crate::store::Key;

/// `ARGOCD_SYNC_WAVE_DELAY`'s default: the pause after each applied step that is not the last.
pub const WAVE_DELAY: Duration = Duration::from_secs(2);
/// How often a waiting operation looks again (resource events also wake it).
const RECHECK: Duration = Duration::from_secs(1);

/// One attempt at an operation, kept between passes.
pub struct Run {
    pub revision: String,
    pub tasks: Vec<SyncTask>,
    pub sync_fail: Vec<SyncTask>,
    in_sync_fail: bool,
    next_pass: Option<Timestamp>,
    deleting: Vec<Key>,
    pub options: Options,
}

pub enum Outcome {
    Running { message: String, wait: Duration },
    Succeeded { message: String },
    Failed { message: String },
}

impl Run {
    pub fn new(
        revision: String,
        tasks: Vec<SyncTask>,
        sync_fail: Vec<SyncTask>,
        options: Options,
    ) -> Run {
        Run {
            revision,
            tasks,
            sync_fail,
            in_sync_fail: false,
            next_pass: None,
            deleting: Vec::new(),
            options,
        }
    }

    /// `syncResult.resources`: every task that has been applied (or failed to).
    pub fn result_resources(&self) -> Vec<Value> {
        self.tasks
            .iter()
            .chain(&self.sync_fail)
            .filter(|t| t.sync_status.is_some())
            .map(SyncTask::result_json)
            .collect()
    }

    /// Advances the operation by one step.
    pub fn pass(&mut self, env: &Env) -> Outcome {
        let now = env.store.clock.now();
        if let Some(at) = self.next_pass
            && now < at
        {
            return Outcome::Running {
                message: "one or more tasks are running".into(),
                wait: at.duration_since(now).unsigned_abs(),
            };
        }
        self.next_pass = None;
        let multi_step = self.multi_step();
        for task in self.active_tasks_mut() {
            task.refresh(env);
        }
        if let Some(waiting) = self.deleting.iter().find(|k| env.store.get(k).is_some()) {
            return Outcome::Running {
                message: format!("waiting for deletion of hook {}", describe(waiting)),
                wait: RECHECK,
            };
        }
        self.deleting.clear();
        if let Some(message) = self.waiting_for_running(multi_step) {
            return Outcome::Running {
                message,
                wait: RECHECK,
            };
        }
        if self.in_sync_fail {
            return self.finish_failed(
                env,
                "one or more synchronization tasks completed unsuccessfully",
            );
        }
        if let Some(outcome) = self.after_failure(env) {
            return outcome;
        }
        let Some(step) = self.next_step() else {
            self.delete_hooks(env, DeletePolicy::HookSucceeded);
            return Outcome::Succeeded {
                message: "successfully synced (no more tasks)".into(),
            };
        };
        self.delete_before_creation(env, &step);
        if let Some(first) = self.deleting.first() {
            return Outcome::Running {
                message: format!("waiting for deletion of hook {}", describe(first)),
                wait: RECHECK,
            };
        }
        let apply_errors = self.apply_step(env, &step);
        if !apply_errors.is_empty() {
            return self.finish_failed(
                env,
                &format!(
                    "one or more objects failed to apply, reason: {}",
                    apply_errors.join(",")
                ),
            );
        }
        let final_step = self.next_step().is_none();
        let step_has_hooks = step.iter().any(|i| self.tasks[*i].hook.is_some());
        if final_step && !step_has_hooks {
            self.delete_hooks(env, DeletePolicy::HookSucceeded);
            return Outcome::Succeeded {
                message: "successfully synced (all tasks run)".into(),
            };
        }
        if !final_step {
            self.next_pass = Some(now + WAVE_DELAY);
        }
        Outcome::Running {
            message: "one or more tasks are running".into(),
            wait: if final_step { RECHECK } else { WAVE_DELAY },
        }
    }

    /// What the operation waits for while tasks still run, if it must wait for them: a
    /// multi-step sync, a running hook, or the SyncFail phase.
    fn waiting_for_running(&self, multi_step: bool) -> Option<String> {
        let running: Vec<&SyncTask> = self
            .active_tasks()
            .filter(|t| t.state == TaskState::Running)
            .collect();
        let first = running.first()?;
        if !(multi_step || running.iter().any(|t| t.hook.is_some()) || self.in_sync_fail) {
            return None;
        }
        let hooks_running = running.iter().filter(|t| t.hook.is_some()).count();
        let message = if first.hook.is_some() {
            let more = match running.len() - 1 {
                0 => String::new(),
                n if hooks_running == running.len() => format!(" and {n} more hooks"),
                n => format!(" and {n} more resources"),
            };
            format!("waiting for completion of hook {}{more}", first.describe())
        } else {
            let more = match running.len() - 1 {
                0 => String::new(),
                n => format!(" and {n} more resources"),
            };
            format!("waiting for healthy state of {}{more}", first.describe())
        };
        Some(message)
    }

    /// After a failed task: start the SyncFail hooks if there are any, else fail the
    /// operation. `None` while no task has failed.
    fn after_failure(&mut self, env: &Env) -> Option<Outcome> {
        let any_failed = self
            .tasks
            .iter()
            .any(|t| t.state == TaskState::Failed || t.sync_status == Some("SyncFailed"));
        if !any_failed {
            return None;
        }
        if self.sync_fail.is_empty() {
            return Some(self.finish_failed(
                env,
                "one or more synchronization tasks completed unsuccessfully",
            ));
        }
        self.in_sync_fail = true;
        let mut run_tasks = std::mem::take(&mut self.sync_fail);
        for task in &mut run_tasks {
            task.apply(env, &self.options);
        }
        self.sync_fail = run_tasks;
        Some(Outcome::Running {
            message: "one or more tasks are running".into(),
            wait: RECHECK,
        })
    }

    /// BeforeHookCreation: a hook's old object of the same name goes first.
    fn delete_before_creation(&mut self, env: &Env, step: &[usize]) {
        for i in step {
            let task = &self.tasks[*i];
            if task.hook.is_some()
                && task.policies.contains(&DeletePolicy::BeforeHookCreation)
                && env.store.get(&task.key()).is_some()
            {
                let key = task.key();
                delete_hook(env, &key);
                self.deleting.push(key);
            }
        }
    }

    /// Applies the step's tasks; returns the messages of those that failed to apply.
    fn apply_step(&mut self, env: &Env, step: &[usize]) -> Vec<String> {
        let mut apply_errors = Vec::new();
        for i in step {
            let task = &mut self.tasks[*i];
            task.apply(env, &self.options);
            if task.sync_status == Some("SyncFailed") {
                apply_errors.push(task.message.clone());
            }
        }
        apply_errors
    }

    /// Terminating (docs/sim-behaviour.md §5.3): hooks lose their finalizer, running hooks are deleted and marked
    /// Failed/Terminated.
    pub fn terminate(&mut self, env: &Env) {
        for task in self.tasks.iter_mut().chain(self.sync_fail.iter_mut()) {
            if task.hook.is_none() {
                continue;
            }
            release_finalizer(env, &task.key());
            if task.state == TaskState::Running {
                delete_hook(env, &task.key());
                task.state = TaskState::Failed;
                task.message = "Terminated".into();
            }
        }
    }

    fn finish_failed(&mut self, env: &Env, message: &str) -> Outcome {
        self.delete_hooks(env, DeletePolicy::HookFailed);
        Outcome::Failed {
            message: message.to_string(),
        }
    }

    fn active_tasks(&self) -> impl Iterator<Item = &SyncTask> {
        let sync_fail = self.in_sync_fail;
        self.tasks
            .iter()
            .chain(self.sync_fail.iter().filter(move |_| sync_fail))
    }

    fn active_tasks_mut(&mut self) -> impl Iterator<Item = &mut SyncTask> {
        let sync_fail = self.in_sync_fail;
        self.tasks
            .iter_mut()
            .chain(self.sync_fail.iter_mut().filter(move |_| sync_fail))
    }

    /// The first and last task differ in phase or wave (gitops-engine's `multiStep`).
    fn multi_step(&self) -> bool {
        match (self.tasks.first(), self.tasks.last()) {
            (Some(a), Some(b)) => (a.phase, a.wave) != (b.phase, b.wave),
            _ => false,
        }
    }

    /// Indexes of the next (phase, wave) group with pending tasks.
    fn next_step(&self) -> Option<Vec<usize>> {
        let first = self.tasks.iter().find(|t| t.state == TaskState::Pending)?;
        let group = (first.phase, first.wave);
        Some(
            self.tasks
                .iter()
                .enumerate()
                .filter(|(_, t)| t.state == TaskState::Pending && (t.phase, t.wave) == group)
                .map(|(i, _)| i)
                .collect(),
        )
    }

    /// Deletes completed hooks carrying this policy (at the operation's success or failure).
    fn delete_hooks(&self, env: &Env, policy: DeletePolicy) {
        for task in self.tasks.iter().chain(&self.sync_fail) {
            if task.hook.is_some() && task.sync_status.is_some() && task.policies.contains(&policy)
            {
                delete_hook(env, &task.key());
            }
        }
    }
}

/// `batch/Job/name`, `/ConfigMap/name`: how the engine names a resource in messages.
pub fn describe(key: &Key) -> String {
    let ty = key.ty();
    format!("{}/{}/{}", ty.group, ty.kind, key.name)
}

fn release_finalizer(env: &Env, key: &Key) {
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
    let _ = ops::merge(&env.store, key, &patch, Part::Main, apply::MANAGER);
}

fn delete_hook(env: &Env, key: &Key) {
    release_finalizer(env, key);
    let opts = DeleteOptions {
        propagation: Some(Propagation::Background),
        ..DeleteOptions::default()
    };
    let _ = ops::delete(&env.store, key.ty(), &key.namespace, &key.name, &opts);
}

/// A hook's phase from its health (gitops-engine `getOperationPhase`).
pub fn hook_phase(health: Option<&super::health::Health>) -> (TaskState, String) {
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
