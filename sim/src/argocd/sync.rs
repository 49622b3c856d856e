//! The sync engine (gitops-engine's sync context, docs/sim-behaviour.md §4): tasks ordered by
//! phase, wave, kind and name; one step per pass — create the destination namespace in a pass of
//! its own, update running tasks from live health, wait for a multi-step sync's resources and
//! hooks, stop on failure (running SyncFail hooks), or apply the next (phase, wave) group. After
//! a step that is not the final wave the controller sleeps 2 s and only then writes the
//! operation's state, so a pass may end `Paused` with nothing to write. Messages are Argo CD's.

mod apply;
mod hookops;
mod message;
mod task;
mod tasks;
#[cfg(test)]
mod tests;

use std::time::Duration;

use jiff::Timestamp;
use serde_json::Value;

pub use apply::Options;
pub use task::{SyncTask, TaskState};
pub use tasks::{BuildInput, Built, build};

use super::hooks::DeletePolicy;
use crate::controllers::Env;
use crate::store::Key;

/// `ARGOCD_SYNC_WAVE_DELAY`'s default: the pause after each step that is not the final wave.
pub const WAVE_DELAY: Duration = Duration::from_secs(2);
/// How often a waiting operation looks again (resource events also wake it).
const RECHECK: Duration = Duration::from_secs(1);

/// One attempt at an operation, kept between passes.
pub struct Run {
    pub revision: String,
    /// The source this attempt renders (`syncResult.source`).
    pub source: Value,
    pub tasks: Vec<SyncTask>,
    pub sync_fail: Vec<SyncTask>,
    /// The destination namespace `CreateNamespace=true` creates before any step.
    namespace: Option<SyncTask>,
    in_sync_fail: bool,
    /// Inside a step's wave delay: until when, and the message written once it is over.
    paused: Option<(Timestamp, String)>,
    deleting: Vec<Key>,
    pub options: Options,
}

#[derive(Debug)]
pub enum Outcome {
    /// Inside a wave delay: the real controller is asleep, so nothing is written yet.
    Paused {
        wait: Duration,
    },
    Running {
        message: String,
        wait: Duration,
    },
    Succeeded {
        message: String,
    },
    Failed {
        message: String,
    },
}

impl Run {
    pub fn new(revision: String, source: Value, built: Built, options: Options) -> Run {
        Run {
            revision,
            source,
            tasks: built.tasks,
            sync_fail: built.sync_fail,
            namespace: built.namespace,
            in_sync_fail: false,
            paused: None,
            deleting: Vec::new(),
            options,
        }
    }

    /// `syncResult.resources`: every task that has been applied (or failed to), in the order
    /// they were, the auto-created namespace first.
    pub fn result_resources(&self) -> Vec<Value> {
        self.namespace
            .iter()
            .chain(&self.tasks)
            .chain(&self.sync_fail)
            .filter(|t| t.sync_status.is_some())
            .map(SyncTask::result_json)
            .collect()
    }

    /// Advances the operation by one step.
    pub fn pass(&mut self, env: &Env) -> Outcome {
        let now = env.store.clock.now();
        if let Some((until, message)) = self.paused.take() {
            if now < until {
                self.paused = Some((until, message));
                return Outcome::Paused {
                    wait: until.duration_since(now).unsigned_abs(),
                };
            }
            return Outcome::Running {
                message,
                wait: RECHECK,
            };
        }
        if let Some(outcome) = self.refuse_unserved() {
            return outcome;
        }
        if let Some(outcome) = self.create_namespace(env) {
            return outcome;
        }
        let multi_step = self.multi_step();
        for task in self.active_tasks_mut() {
            task.refresh(env);
        }
        self.deleting.retain(|k| env.store.get(k).is_some());
        if !self.deleting.is_empty() {
            return Outcome::Running {
                message: self.deletion_message(),
                wait: RECHECK,
            };
        }
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
        self.run_step(env, &step)
    }

    /// Applies one (phase, wave) group: BeforeHookCreation deletions first (the step is
    /// retried once they are gone), then the objects.
    fn run_step(&mut self, env: &Env, step: &[usize]) -> Outcome {
        let group = (self.tasks[step[0]].phase, self.tasks[step[0]].wave);
        let final_wave = self
            .tasks
            .iter()
            .filter(|t| t.state == TaskState::Pending)
            .all(|t| (t.phase, t.wave) == group);
        self.delete_before_creation(env, step);
        if !self.deleting.is_empty() {
            let message = self.deletion_message();
            return self.after_step(env, message, final_wave);
        }
        let apply_errors = self.apply_step(env, step);
        if !apply_errors.is_empty() {
            return self.finish_failed(
                env,
                &format!(
                    "one or more objects failed to apply, reason: {}",
                    apply_errors.join(",")
                ),
            );
        }
        let step_has_hooks = step.iter().any(|i| self.tasks[*i].hook.is_some());
        if final_wave && !step_has_hooks {
            self.delete_hooks(env, DeletePolicy::HookSucceeded);
            return Outcome::Succeeded {
                message: "successfully synced (all tasks run)".into(),
            };
        }
        let applied: Vec<&SyncTask> = step.iter().map(|i| &self.tasks[*i]).collect();
        let message = message::running_phase(&applied, false);
        self.after_step(env, message, final_wave)
    }

    /// After a step that did not fail, the controller sleeps the wave delay (not after the
    /// final wave) and writes the state only when it wakes.
    fn after_step(&mut self, env: &Env, message: String, final_wave: bool) -> Outcome {
        if final_wave {
            return Outcome::Running {
                message,
                wait: RECHECK,
            };
        }
        self.paused = Some((env.store.clock.now() + WAVE_DELAY, message));
        Outcome::Paused { wait: WAVE_DELAY }
    }

    /// `getSyncTasks`: a task whose kind the cluster does not serve makes the whole sync
    /// invalid before anything is applied. Its result says so as `AugmentSyncMsg` rewrites it;
    /// the operation names the API's own error.
    fn refuse_unserved(&mut self) -> Option<Outcome> {
        let mut any = false;
        for task in self.tasks.iter_mut().chain(self.sync_fail.iter_mut()) {
            if crate::kinds::is_served(task.ty) || task.sync_status.is_some() {
                continue;
            }
            any = true;
            task.sync_status = Some("SyncFailed");
            task.state = TaskState::Failed;
            task.message = format!(
                "The Kubernetes API could not find {}/{} for requested resource {}/{}. Make sure the {:?} CRD is installed on the destination cluster.",
                task.ty.group, task.ty.kind, task.namespace, task.name, task.ty.kind
            );
        }
        any.then(|| Outcome::Failed {
            message: "one or more synchronization tasks are not valid: the server could not find the requested resource".into(),
        })
    }

    /// `CreateNamespace=true` with a missing namespace: created before the first step, in a
    /// pass that waits on it when the sync spans more than its (PreSync, 0) group. Its result
    /// is never updated again: upstream drops the task once the namespace exists.
    fn create_namespace(&mut self, env: &Env) -> Option<Outcome> {
        let ns = self
            .namespace
            .as_mut()
            .filter(|t| t.state == TaskState::Pending)?;
        ns.apply(env, &self.options);
        if ns.sync_status == Some("SyncFailed") {
            return Some(Outcome::Failed {
                message: format!("the namespace failed to apply, reason: {}", ns.message),
            });
        }
        let group = (ns.phase, ns.wave);
        let multi_step = self
            .tasks
            .iter()
            .chain(&self.sync_fail)
            .any(|t| (t.phase, t.wave) != group);
        multi_step.then(|| Outcome::Running {
            message: message::running_phase(&[&*ns], false),
            wait: RECHECK,
        })
    }

    /// What the operation waits for while tasks still run: in a multi-step sync every running
    /// task, otherwise only running hooks.
    fn waiting_for_running(&self, multi_step: bool) -> Option<String> {
        let running: Vec<&SyncTask> = self
            .active_tasks()
            .filter(|t| t.state == TaskState::Running && (multi_step || t.hook.is_some()))
            .collect();
        (!running.is_empty()).then(|| message::running_phase(&running, false))
    }

    fn deletion_message(&self) -> String {
        let deleting: Vec<&SyncTask> = self
            .tasks
            .iter()
            .filter(|t| t.hook.is_some() && self.deleting.contains(&t.key()))
            .collect();
        message::running_phase(&deleting, true)
    }

    /// After a failed task: start the SyncFail hooks if there are any, else fail the
    /// operation. `None` while no task has failed.
    fn after_failure(&mut self, env: &Env) -> Option<Outcome> {
        let any_failed = self.tasks.iter().any(|t| {
            matches!(t.state, TaskState::Failed | TaskState::Error)
                || t.sync_status == Some("SyncFailed")
        });
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
        let started: Vec<&SyncTask> = self.sync_fail.iter().collect();
        Some(Outcome::Running {
            message: message::running_phase(&started, false),
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
                hookops::delete_hook(env, &key);
                self.deleting.push(key);
            }
        }
    }

    /// Applies the step's tasks; returns the messages of those that failed to apply.
    fn apply_step(&mut self, env: &Env, step: &[usize]) -> Vec<String> {
        let mut apply_errors = Vec::new();
        // `runTasks`: the step's prunes first, then what it creates or applies.
        let (prunes, applies): (Vec<usize>, Vec<usize>) =
            step.iter().partition(|i| self.tasks[**i].desired.is_none());
        for i in prunes.iter().chain(&applies) {
            let task = &mut self.tasks[*i];
            task.apply(env, &self.options);
            if task.sync_status == Some("SyncFailed") {
                apply_errors.push(task.message.clone());
            }
        }
        apply_errors
    }

    /// Terminating (docs/sim-behaviour.md §5.3): every hook is terminated as
    /// `terminateHooksPreemptively` does; the caller then ends the operation
    /// `Failed` / `Operation terminated`. True when nothing went wrong.
    pub fn terminate(&mut self, env: &Env) -> bool {
        self.paused = None;
        for task in self.tasks.iter_mut().chain(self.sync_fail.iter_mut()) {
            hookops::terminate(env, task);
        }
        true
    }

    /// Fails the operation; a task that did not sync (`SyncFailed`) is named as the reason, as
    /// `executeSyncFailPhase` words it.
    fn finish_failed(&mut self, env: &Env, message: &str) -> Outcome {
        self.delete_hooks(env, DeletePolicy::HookFailed);
        let reasons: Vec<&str> = self
            .tasks
            .iter()
            .filter(|t| t.sync_status == Some("SyncFailed"))
            .map(|t| t.message.as_str())
            .collect();
        let message = if reasons.is_empty() || message.contains(", reason: ") {
            message.to_string()
        } else {
            format!("{message}, reason: {}", reasons.join(","))
        };
        Outcome::Failed { message }
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

    /// gitops-engine's `multiStep`: the first and last task (SyncFail hooks sort last) differ
    /// in phase or wave.
    fn multi_step(&self) -> bool {
        let first = self.tasks.first().or(self.sync_fail.first());
        let last = self.sync_fail.last().or(self.tasks.last());
        match (first, last) {
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
                hookops::delete_hook(env, &task.key());
            }
        }
    }
}
