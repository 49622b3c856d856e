//! Sync tasks: built from the comparison (resources, hooks, prunes; the auto-created
//! namespace apart), ordered by phase, wave, Helm's kind order and name (docs/sim-behaviour.md §4.1), and refreshed from
//! the live objects between passes.

use serde_json::{Value, json};

use super::hookops::{self, hook_phase};
use super::task::{SyncTask, TaskState};
use crate::argocd::compare::{Comparison, sync_wave};
use crate::argocd::health;
use crate::argocd::hooks::{self, HookType};
use crate::controllers::Env;
use crate::kinds::{ResourceType, by_kind};
use crate::objects;

impl SyncTask {
    /// Updates a running task from its live object (docs/sim-behaviour.md §4.2 step 2).
    pub fn refresh(&mut self, env: &Env) {
        if self.state != TaskState::Running {
            return;
        }
        // A running resource (hook or not) whose object is gone would be waited on for ever:
        // it fails, SyncFailed / Error, and the operation with it.
        let Some(live) = env.store.get(&self.key()) else {
            self.state = TaskState::Error;
            self.sync_status = Some("SyncFailed");
            self.message = format!(
                "Resource {}/{}/{} is missing, it might have been deleted",
                self.ty.group, self.ty.kind, self.name
            );
            return;
        };
        let health = health::resource_health(&live);
        if self.hook.is_some() {
            let (state, message) = hook_phase(health.as_ref());
            self.state = state;
            if state != TaskState::Running {
                self.message = if health.is_none() {
                    format!("{} created", self.name)
                } else {
                    message
                };
                hookops::release_finalizer(env, &self.key());
            } else if !message.is_empty() {
                self.message = message;
            }
            return;
        }
        self.state = match health.map(|h| h.status) {
            None | Some(health::HealthStatus::Healthy) => TaskState::Succeeded,
            Some(health::HealthStatus::Degraded) => TaskState::Failed,
            Some(_) => TaskState::Running,
        };
    }
}

/// What `build` needs to know about the operation.
pub struct BuildInput<'a> {
    pub comparison: &'a Comparison,
    pub revision: &'a str,
    pub started_at_unix: i64,
    pub dest_namespace: &'a str,
    pub create_namespace: bool,
    pub namespace_exists: bool,
    /// `operation.sync.resources` of a partial sync: only these, and no hooks.
    pub only: Option<Vec<(String, String, String)>>,
}

/// An operation's tasks, in order, with the SyncFail hooks and the namespace to create apart.
pub struct Built {
    pub tasks: Vec<SyncTask>,
    pub sync_fail: Vec<SyncTask>,
    /// `CreateNamespace=true` and the destination namespace is missing: a PreSync task applied
    /// before any step (gitops-engine's namespace creation task).
    pub namespace: Option<SyncTask>,
}

/// Builds the ordered tasks and, separately, the SyncFail hooks and the namespace to create.
pub fn build(input: &BuildInput) -> Built {
    let selected = |ty: &ResourceType, name: &str| {
        input.only.as_ref().is_none_or(|only| {
            only.iter()
                .any(|(g, k, n)| g == ty.group && k == ty.kind && n == name)
        })
    };
    let mut tasks = Vec::new();
    let mut sync_fail = Vec::new();
    for t in &input.comparison.targets {
        // `Skip` alone: a resource of the app that no phase applies.
        if t.skip || (!t.out_of_sync && input.only.is_some()) {
            continue;
        }
        if !selected(t.ty, &t.name) {
            continue;
        }
        // A live object with no target is always a prune task (`getSyncTasks`); whether it is
        // deleted or skipped is decided when it runs.
        let mut built = match &t.desired {
            Some(desired) => task(t.ty, desired.clone(), HookType::Sync, t.wave, None),
            None => {
                let mut p = task(
                    t.ty,
                    json!({"metadata": {"name": t.name, "namespace": t.namespace}}),
                    HookType::Sync,
                    t.wave,
                    None,
                );
                p.desired = None;
                p
            }
        };
        built.live = t.live.clone();
        tasks.push(built);
    }
    reverse_prune_waves(&mut tasks);
    if input.only.is_none() {
        for manifest in &input.comparison.hooks {
            for hook in hooks::phases(manifest) {
                let mut obj = manifest.clone();
                let name = hooks::hook_name(&obj, input.revision, hook, input.started_at_unix);
                let meta = objects::metadata_mut(&mut obj);
                meta.insert("name".into(), json!(name));
                meta.remove("generateName");
                let Some(ty) = by_kind(
                    obj["apiVersion"].as_str().unwrap_or_default(),
                    obj["kind"].as_str().unwrap_or_default(),
                ) else {
                    continue;
                };
                let t = task(ty, obj, hook, sync_wave(manifest), Some(hook));
                if hook == HookType::SyncFail {
                    sync_fail.push(t)
                } else {
                    tasks.push(t)
                }
            }
        }
    }
    let declares_namespace = input
        .comparison
        .targets
        .iter()
        .any(|t| t.ty.kind == "Namespace" && t.name == input.dest_namespace);
    let namespace = (input.create_namespace
        && !input.namespace_exists
        && !declares_namespace
        && !input.dest_namespace.is_empty())
    .then_some(&crate::kinds::NAMESPACE)
    .map(|ns_ty| {
        let obj = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": input.dest_namespace}});
        task(ns_ty, obj, HookType::PreSync, 0, None)
    });
    tasks.sort_by_key(order_key);
    sync_fail.sort_by_key(order_key);
    Built {
        tasks,
        sync_fail,
        namespace,
    }
}

fn task(
    ty: &'static ResourceType,
    desired: Value,
    phase: HookType,
    wave: i64,
    hook: Option<HookType>,
) -> SyncTask {
    SyncTask {
        ty,
        namespace: if ty.namespaced {
            objects::namespace(&desired).to_string()
        } else {
            String::new()
        },
        name: objects::name(&desired).to_string(),
        policies: if hook.is_some() {
            hooks::delete_policies(&desired)
        } else {
            Vec::new()
        },
        desired: Some(desired),
        live: None,
        phase,
        wave,
        hook,
        state: TaskState::Pending,
        sync_status: None,
        message: String::new(),
    }
}

/// Prunes undo creation: their waves are swapped symmetrically (the first prune wave with the
/// last, and so on), so what was created last is deleted first.
fn reverse_prune_waves(tasks: &mut [SyncTask]) {
    let mut waves: Vec<i64> = tasks
        .iter()
        .filter(|t| t.desired.is_none())
        .map(|t| t.wave)
        .collect();
    waves.sort_unstable();
    waves.dedup();
    for t in tasks.iter_mut().filter(|t| t.desired.is_none()) {
        if let Some(i) = waves.iter().position(|w| *w == t.wave) {
            t.wave = waves[waves.len() - 1 - i];
        }
    }
}

fn order_key(t: &SyncTask) -> (i32, i64, usize, String) {
    let phase = match t.phase {
        HookType::PreSync => -1,
        HookType::Sync | HookType::Skip => 0,
        HookType::PostSync => 1,
        HookType::SyncFail => 2,
    };
    (phase, t.wave, kind_order(t.ty.kind), t.name.clone())
}

/// Helm's install order, which Argo CD uses within a wave; unknown kinds go last.
fn kind_order(kind: &str) -> usize {
    const ORDER: &[&str] = &[
        "Namespace",
        "NetworkPolicy",
        "ResourceQuota",
        "LimitRange",
        "PodSecurityPolicy",
        "PodDisruptionBudget",
        "ServiceAccount",
        "Secret",
        "SecretList",
        "ConfigMap",
        "StorageClass",
        "PersistentVolume",
        "PersistentVolumeClaim",
        "CustomResourceDefinition",
        "ClusterRole",
        "ClusterRoleList",
        "ClusterRoleBinding",
        "ClusterRoleBindingList",
        "Role",
        "RoleList",
        "RoleBinding",
        "RoleBindingList",
        "Service",
        "DaemonSet",
        "Pod",
        "ReplicationController",
        "ReplicaSet",
        "Deployment",
        "HorizontalPodAutoscaler",
        "StatefulSet",
        "Job",
        "CronJob",
        "IngressClass",
        "Ingress",
        "APIService",
    ];
    ORDER.iter().position(|k| *k == kind).unwrap_or(ORDER.len())
}
