//! The sync engine (gitops-engine's sync context, docs/sim-behaviour.md §4): tasks ordered by
//! phase, wave, kind and name; one step per pass — create the destination namespace in a pass of
//! its own, update running tasks from live health, wait for a multi-step sync's resources and
//! hooks, stop on failure (running SyncFail hooks), or apply the next (phase, wave) group. After
//! a step that is not the final wave the controller sleeps 2 s and only then writes the
//! operation's state, so a pass may end `Paused` with nothing to write. Messages are Argo CD's.

mod apply;
mod hookops;
mod kubectl;
mod message;
mod reconcile;
mod resume;
mod task;
mod tasks;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_audit3;

use std::time::Duration;

use jiff::Timestamp;
use serde_json::Value;

pub use apply::Options;
pub use task::{SyncTask, TaskState};
pub use tasks::{BuildInput, Built, NamespaceInput, SyncResource, build};

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
    /// The task creating the missing destination namespace (`CreateNamespace=true`), applied
    /// before any step.
    namespace: Option<usize>,
    /// `managedNamespaceMetadata` is set: the created namespace stays a task of the sync.
    namespace_managed: bool,
    in_sync_fail: bool,
    /// Inside a step's wave delay: until when, and the message written once it is over.
    paused: Option<(Timestamp, String)>,
    deleting: Vec<Key>,
    /// How many results have been recorded (their `order`).
    results: usize,
    /// Results of an operation resumed after a restart that no task stands for now, with their
    /// order (`resume`).
    kept_results: Vec<(usize, Value)>,
    pub options: Options,
    /// The app's `managedNamespaceMetadata`, which each pass records in the result.
    pub namespace_metadata: Option<Value>,
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

/// How a step's run ended (`runState`).
enum StepState {
    Successful,
    /// Waiting on deletions or on pruning confirmation.
    Pending,
    Failed,
}

impl Run {
    pub fn new(
        revision: String,
        source: Value,
        built: Built,
        options: Options,
        namespace_managed: bool,
    ) -> Run {
        Run {
            revision,
            source,
            tasks: built.tasks,
            sync_fail: built.sync_fail,
            namespace: built.namespace,
            namespace_managed,
            in_sync_fail: false,
            paused: None,
            deleting: Vec::new(),
            results: 0,
            kept_results: Vec::new(),
            options,
            namespace_metadata: None,
        }
    }

    /// `syncResult.resources`: every task that has a result, in the order the results came
    /// about (`ResourceSyncResult.Order`).
    pub fn result_resources(&self) -> Vec<Value> {
        let done: Vec<&SyncTask> = self
            .tasks
            .iter()
            .chain(&self.sync_fail)
            .filter(|t| t.sync_status.is_some())
            .collect();
        let mut all: Vec<(usize, Value)> = done
            .into_iter()
            .map(|t| (t.order.unwrap_or(usize::MAX), t.result_json()))
            .chain(self.kept_results.iter().cloned())
            .collect();
        all.sort_by_key(|(order, _)| *order);
        all.into_iter().map(|(_, r)| r).collect()
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
            return self.sync_fail_done(
                env,
                "one or more synchronization tasks completed unsuccessfully",
            );
        }
        if let Some(outcome) = self.after_failure(
            env,
            "one or more synchronization tasks completed unsuccessfully",
        ) {
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

    /// Runs one (phase, wave) group as `runTasks` does: its prunes (none until confirmed when
    /// one needs confirmation), then BeforeHookCreation deletions (the step is run again once
    /// they are gone), then the objects; then the wave delay unless it failed.
    fn run_step(&mut self, env: &Env, step: &[usize]) -> Outcome {
        let group = (self.tasks[step[0]].phase, self.tasks[step[0]].wave);
        let final_wave = self
            .tasks
            .iter()
            .filter(|t| self.eligible(t))
            .all(|t| (t.phase, t.wave) == group);
        let (prunes, applies): (Vec<usize>, Vec<usize>) =
            step.iter().partition(|i| self.tasks[**i].desired.is_none());
        let state = if prunes
            .iter()
            .any(|i| self.tasks[*i].needs_prune_confirmation(&self.options))
        {
            StepState::Pending
        } else {
            self.run_tasks(env, &prunes, &applies)
        };
        match state {
            StepState::Failed => {
                let failed: Vec<&str> = step
                    .iter()
                    .filter(|i| self.tasks[**i].sync_status == Some("SyncFailed"))
                    .map(|i| self.tasks[*i].message.as_str())
                    .collect();
                let message = with_reasons("one or more objects failed to apply", &failed);
                if self.sync_fail.is_empty() {
                    self.delete_hooks(env, DeletePolicy::HookFailed);
                    return Outcome::Failed { message };
                }
                self.start_sync_fail(env)
            }
            StepState::Pending => {
                let message = self.pending_message(step);
                self.after_step(env, message, final_wave)
            }
            StepState::Successful => {
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
        }
    }

    /// The step's prunes, then its hooks' BeforeHookCreation deletions, then its applies.
    fn run_tasks(&mut self, env: &Env, prunes: &[usize], applies: &[usize]) -> StepState {
        let mut failed = false;
        for i in prunes {
            let task = &mut self.tasks[*i];
            task.apply(env, &self.options);
            task.record(&mut self.results);
            failed |= task.sync_status == Some("SyncFailed");
        }
        if failed {
            return StepState::Failed;
        }
        self.delete_before_creation(env, applies);
        if !self.deleting.is_empty() {
            return StepState::Pending;
        }
        for i in applies {
            let task = &mut self.tasks[*i];
            task.apply(env, &self.options);
            task.record(&mut self.results);
            failed |= task.sync_status == Some("SyncFailed");
        }
        if failed {
            StepState::Failed
        } else {
            StepState::Successful
        }
    }

    /// What a pending step waits for (`setRunningPhase(..., true)`): pruning confirmation of
    /// the prunes that need it, else the deletion of the hooks BeforeHookCreation removes.
    fn pending_message(&self, step: &[usize]) -> String {
        let unconfirmed: Vec<&SyncTask> = step
            .iter()
            .map(|i| &self.tasks[*i])
            .filter(|t| t.needs_prune_confirmation(&self.options))
            .collect();
        if let Some(first) = unconfirmed.first() {
            let mut message = format!("waiting for pruning confirmation of {}", first.describe());
            if unconfirmed.len() > 1 {
                message.push_str(&format!(" and {} more resources", unconfirmed.len() - 1));
            }
            return message;
        }
        self.deletion_message()
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
    /// invalid before anything is applied, unless the sync may create the kind (a CRD of its
    /// own, `SkipDryRunOnMissingResource=true`). Its result says so as `AugmentSyncMsg`
    /// rewrites it; the operation names the API's own error.
    fn refuse_unserved(&mut self) -> Option<Outcome> {
        let mut why: Vec<String> = Vec::new();
        for task in self.tasks.iter_mut().chain(self.sync_fail.iter_mut()) {
            if crate::kinds::is_served(task.ty) || task.skip_dry_run || task.sync_status.is_some() {
                continue;
            }
            why.push(discovery_error(task.ty));
            task.sync_status = Some("SyncFailed");
            task.state = TaskState::Failed;
            task.refused = true;
            task.message = format!(
                "The Kubernetes API could not find {}/{} for requested resource {}/{}. Make sure the {:?} CRD is installed on the destination cluster.",
                task.ty.group, task.ty.kind, task.namespace, task.name, task.ty.kind
            );
            task.record(&mut self.results);
        }
        // The operation names the discovery errors themselves, distinct and sorted.
        why.sort();
        why.dedup();
        (!why.is_empty()).then(|| Outcome::Failed {
            message: format!(
                "one or more synchronization tasks are not valid: {}",
                why.join("; ")
            ),
        })
    }

    /// `CreateNamespace=true` with a missing namespace: created before the first step, in a
    /// pass that waits on it when the sync spans more than its (PreSync, 0) group. Without
    /// `managedNamespaceMetadata` upstream drops the task once the namespace exists, so its
    /// `Running` result is never updated again; with it, the task stays and turns Succeeded.
    fn create_namespace(&mut self, env: &Env) -> Option<Outcome> {
        let index = self.namespace?;
        if self.tasks[index].state != TaskState::Pending {
            return None;
        }
        let multi_step = self.multi_step();
        let managed = self.namespace_managed;
        let ns = &mut self.tasks[index];
        ns.apply(env, &self.options);
        ns.record(&mut self.results);
        if ns.sync_status == Some("SyncFailed") {
            return Some(Outcome::Failed {
                message: with_reasons("the namespace failed to apply", &[ns.message.as_str()]),
            });
        }
        let message = message::running_phase(&[&*ns], false);
        ns.detached = !managed;
        multi_step.then_some(Outcome::Running {
            message,
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
    fn after_failure(&mut self, env: &Env, message: &str) -> Option<Outcome> {
        let any_failed = self.tasks.iter().filter(|t| !t.detached).any(|t| {
            matches!(t.state, TaskState::Failed | TaskState::Error)
                || t.sync_status == Some("SyncFailed")
        });
        if !any_failed {
            return None;
        }
        if self.sync_fail.is_empty() {
            return Some(self.finish_failed(env, message));
        }
        Some(self.start_sync_fail(env))
    }

    /// Starts the SyncFail hooks; the operation fails once they have completed.
    fn start_sync_fail(&mut self, env: &Env) -> Outcome {
        self.in_sync_fail = true;
        let mut run_tasks = std::mem::take(&mut self.sync_fail);
        for task in &mut run_tasks {
            task.apply(env, &self.options);
            task.record(&mut self.results);
        }
        self.sync_fail = run_tasks;
        let started: Vec<&SyncTask> = self.sync_fail.iter().collect();
        Outcome::Running {
            message: message::running_phase(&started, false),
            wait: RECHECK,
        }
    }

    /// The SyncFail hooks have completed: the operation fails, also naming the hooks that
    /// failed to apply.
    fn sync_fail_done(&mut self, env: &Env, message: &str) -> Outcome {
        let Outcome::Failed { message } = self.finish_failed(env, message) else {
            unreachable!("finish_failed fails")
        };
        let hooks_failed: Vec<&str> = self
            .sync_fail
            .iter()
            .filter(|t| t.sync_status == Some("SyncFailed"))
            .map(|t| t.message.as_str())
            .collect();
        if hooks_failed.is_empty() {
            return Outcome::Failed { message };
        }
        Outcome::Failed {
            message: format!(
                "{message}\n{}",
                with_reasons("one or more SyncFail hooks failed", &hooks_failed)
            ),
        }
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

    /// Fails the operation; the tasks that did not sync (`SyncFailed`) are named as the reason,
    /// each message once, as `executeSyncFailPhase` words it.
    fn finish_failed(&mut self, env: &Env, message: &str) -> Outcome {
        self.delete_hooks(env, DeletePolicy::HookFailed);
        let reasons: Vec<&str> = self
            .tasks
            .iter()
            .filter(|t| !t.detached && t.sync_status == Some("SyncFailed"))
            .map(|t| t.message.as_str())
            .collect();
        Outcome::Failed {
            message: with_reasons(message, &reasons),
        }
    }

    /// Tasks whose state the engine still follows (the SyncFail hooks once started).
    fn active_tasks(&self) -> impl Iterator<Item = &SyncTask> {
        let sync_fail = self.in_sync_fail;
        self.tasks
            .iter()
            .filter(|t| !t.detached)
            .chain(self.sync_fail.iter().filter(move |_| sync_fail))
    }

    fn active_tasks_mut(&mut self) -> impl Iterator<Item = &mut SyncTask> {
        let sync_fail = self.in_sync_fail;
        self.tasks
            .iter_mut()
            .filter(|t| !t.detached)
            .chain(self.sync_fail.iter_mut().filter(move |_| sync_fail))
    }

    /// gitops-engine's `multiStep`: the first and last task (SyncFail hooks sort last) differ
    /// in phase or wave.
    fn multi_step(&self) -> bool {
        let mut tasks = self.tasks.iter().filter(|t| !t.detached);
        let first = tasks.next().or(self.sync_fail.first());
        let last = self
            .sync_fail
            .last()
            .or(self.tasks.iter().rev().find(|t| !t.detached));
        match (first, last) {
            (Some(a), Some(b)) => (a.phase, a.wave) != (b.phase, b.wave),
            _ => false,
        }
    }

    /// A task the next step may run: pending, and not left alone by `ApplyOutOfSyncOnly`.
    fn eligible(&self, t: &SyncTask) -> bool {
        t.state == TaskState::Pending
            && !t.detached
            && !(self.options.apply_out_of_sync_only && t.in_sync())
    }

    /// Indexes of the next (phase, wave) group with tasks to run.
    fn next_step(&self) -> Option<Vec<usize>> {
        let first = self.tasks.iter().find(|t| self.eligible(t))?;
        let group = (first.phase, first.wave);
        Some(
            self.tasks
                .iter()
                .enumerate()
                .filter(|(_, t)| self.eligible(t) && (t.phase, t.wave) == group)
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

/// `message, reason: a,b`: each failing task's message once (upstream collects them in a map),
/// or the message alone when there are none.
fn with_reasons(message: &str, reasons: &[&str]) -> String {
    let mut unique: Vec<&str> = Vec::new();
    for r in reasons {
        if !unique.contains(r) {
            unique.push(r);
        }
    }
    if unique.is_empty() {
        message.to_string()
    } else {
        format!("{message}, reason: {}", unique.join(","))
    }
}

/// What `ServerResourceForGroupVersionKind` says of a kind the cluster does not serve: its
/// group-version unknown to discovery, or known without the kind (a NotFound named after the
/// kind, with no name).
fn discovery_error(ty: &crate::kinds::ResourceType) -> String {
    let group_version = ty.api_version();
    let served = crate::kinds::TYPES
        .iter()
        .any(|t| t.group == ty.group && t.version == ty.version);
    if !served {
        return format!(
            "failed to discover server resources for group version {group_version}: the server could not find the requested resource"
        );
    }
    if ty.group.is_empty() {
        format!("{} \"\" not found", ty.kind)
    } else {
        format!("{}.{} \"\" not found", ty.kind, ty.group)
    }
}
