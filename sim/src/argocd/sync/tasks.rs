//! Sync tasks: built from the comparison (resources, hooks, prunes; the auto-created
//! namespace apart), ordered by phase, wave, Helm's kind order and name (docs/sim-behaviour.md §4.1), and refreshed from
//! the live objects between passes.

use serde_json::{Value, json};

use super::hookops::{self, hook_phase};
use super::task::{SyncTask, TaskState};
use crate::argocd::compare::{Comparison, sync_wave};
use crate::argocd::health;
use crate::argocd::hooks::{self, HookType};
use crate::argocd::options;
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
    /// `CreateNamespace=true`: the destination namespace as it is, and the app's
    /// `managedNamespaceMetadata`.
    pub namespace: Option<NamespaceInput<'a>>,
    /// `operation.sync.resources` of a partial sync: only these.
    pub only: Option<Vec<SyncResource>>,
    /// No hooks run: a partial sync, or the `apply` sync strategy.
    pub skip_hooks: bool,
    /// `PruneLast=true` on the operation.
    pub prune_last: bool,
    /// `SkipDryRunOnMissingResource=true` on the operation.
    pub skip_dry_run_on_missing: bool,
}

/// The destination namespace `CreateNamespace=true` manages.
pub struct NamespaceInput<'a> {
    /// The live namespace, when it exists.
    pub live: Option<std::sync::Arc<Value>>,
    /// `syncPolicy.managedNamespaceMetadata`.
    pub metadata: Option<&'a Value>,
}

/// One entry of `operation.sync.resources` (`HasIdentity`: the namespace only when given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncResource {
    pub group: String,
    pub kind: String,
    pub name: String,
    pub namespace: String,
}

impl SyncResource {
    pub fn from_json(r: &Value) -> SyncResource {
        let text = |k: &str| r[k].as_str().unwrap_or_default().to_string();
        SyncResource {
            group: text("group"),
            kind: text("kind"),
            name: text("name"),
            namespace: text("namespace"),
        }
    }

    fn matches(&self, ty: &ResourceType, namespace: &str, name: &str) -> bool {
        self.name == name
            && self.kind == ty.kind
            && self.group == ty.group
            && (self.namespace.is_empty() || self.namespace == namespace)
    }
}

/// An operation's tasks, in order, with the SyncFail hooks apart.
pub struct Built {
    pub tasks: Vec<SyncTask>,
    pub sync_fail: Vec<SyncTask>,
    /// Which task creates the missing destination namespace (`CreateNamespace=true`): it is
    /// applied before anything else.
    pub namespace: Option<usize>,
}

/// Builds the ordered tasks (`getSyncTasks`): the resources of the comparison (a live object
/// without a manifest is a prune), the hooks, the managed namespace; prune waves reversed,
/// `PruneLast` prunes after the last wave, then sorted, namespaces and CRDs moved before what
/// needs them.
pub fn build(input: &BuildInput) -> Built {
    let mut tasks = Vec::new();
    for t in &input.comparison.targets {
        // `Skip` alone: a resource of the app that no phase applies. A live object whose
        // tracking id names another object is not the app's to sync.
        if t.skip || !t.self_referenced {
            continue;
        }
        if let Some(only) = &input.only
            && !only.iter().any(|r| r.matches(t.ty, &t.namespace, &t.name))
        {
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
        if t.desired.is_some() && t.live.is_some() {
            built.modified = Some(t.out_of_sync);
        }
        tasks.push(built);
    }
    if !input.skip_hooks {
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
                tasks.push(task(ty, obj, hook, sync_wave(manifest), Some(hook)));
            }
        }
    }
    let mut namespace = None;
    if let Some(ns) = managed_namespace(input) {
        let creates = ns.live.is_none();
        tasks.push(ns);
        if creates {
            namespace = Some(tasks.len() - 1);
        }
    }
    mark_skip_dry_run(&mut tasks, input);
    reverse_prune_waves(&mut tasks);
    prune_last(&mut tasks, input.prune_last);
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by_key(|i| order_key(&tasks[*i]));
    adjust_dependencies(&mut order, &mut tasks, input.dest_namespace);
    let mut slots: Vec<Option<SyncTask>> = tasks.into_iter().map(Some).collect();
    let mut built = Built {
        tasks: Vec::new(),
        sync_fail: Vec::new(),
        namespace: None,
    };
    for i in order {
        let Some(t) = slots[i].take() else { continue };
        if t.phase == HookType::SyncFail {
            built.sync_fail.push(t);
        } else {
            if namespace == Some(i) {
                built.namespace = Some(built.tasks.len());
            }
            built.tasks.push(t);
        }
    }
    built
}

/// `autoCreateNamespace` with `syncNamespace`: unless a (non-hook) manifest is that namespace,
/// a missing destination namespace is created, and one that exists is synced again only when
/// `managedNamespaceMetadata` is set — its labels, and its annotations plus
/// `ServerSideApply=true`, applied server-side. The object is Go's `corev1.Namespace` made
/// unstructured: `spec: {}` and `status: {}` included.
fn managed_namespace(input: &BuildInput) -> Option<SyncTask> {
    let ns = input.namespace.as_ref()?;
    let name = input.dest_namespace;
    let declared = input.comparison.targets.iter().any(|t| {
        t.desired.is_some() && t.ty.group.is_empty() && t.ty.kind == "Namespace" && t.name == name
    });
    if name.is_empty() || declared || (ns.live.is_some() && ns.metadata.is_none()) {
        return None;
    }
    let mut obj = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name},
        "spec": {}, "status": {}});
    if let Some(m) = ns.metadata {
        let meta = objects::metadata_mut(&mut obj);
        if let Some(labels) = m["labels"].as_object() {
            meta.insert("labels".into(), Value::Object(labels.clone()));
        }
        let mut annotations = m["annotations"].as_object().cloned().unwrap_or_default();
        annotations.insert(
            options::SYNC_OPTIONS.into(),
            json!(options::SERVER_SIDE_APPLY),
        );
        meta.insert("annotations".into(), Value::Object(annotations));
    }
    let mut t = task(&crate::kinds::NAMESPACE, obj, HookType::PreSync, 0, None);
    t.live = ns.live.clone();
    Some(t)
}

/// A task of a kind the cluster does not serve voids the sync, unless the operation or the
/// manifest says `SkipDryRunOnMissingResource=true` or a CRD of this sync defines the kind.
fn mark_skip_dry_run(tasks: &mut [SyncTask], input: &BuildInput) {
    let defined: Vec<String> = input
        .comparison
        .targets
        .iter()
        .filter_map(|t| t.desired.as_ref())
        .chain(&input.comparison.hooks)
        .filter_map(crd_defines)
        .collect();
    for t in tasks.iter_mut() {
        if crate::kinds::is_served(t.ty) {
            continue;
        }
        t.skip_dry_run = input.skip_dry_run_on_missing
            || options::has_sync(
                t.desired.as_ref(),
                options::SKIP_DRY_RUN_ON_MISSING_RESOURCE,
            )
            || defined.contains(&format!("{}/{}", t.ty.group, t.ty.kind));
    }
}

/// `group/Kind` of the resources a CRD manifest defines.
fn crd_defines(obj: &Value) -> Option<String> {
    let is_crd = obj["kind"] == "CustomResourceDefinition"
        && obj["apiVersion"]
            .as_str()
            .is_some_and(|v| v.starts_with("apiextensions.k8s.io/"));
    if !is_crd {
        return None;
    }
    let group = obj["spec"]["group"].as_str()?;
    let kind = obj["spec"]["names"]["kind"].as_str()?;
    Some(format!("{group}/{kind}"))
}

/// `PruneLast=true` (on the operation, or on the live object): the prune goes in a wave of its
/// own after the Sync phase's last (prunes' own reversed waves included).
fn prune_last(tasks: &mut [SyncTask], all: bool) {
    let last = tasks
        .iter()
        .filter(|t| t.phase == HookType::Sync)
        .map(|t| t.wave)
        .fold(0, i64::max)
        + 1;
    for t in tasks.iter_mut() {
        if t.desired.is_none() && (all || options::has_sync(t.live.as_deref(), options::PRUNE_LAST))
        {
            t.wave = last;
        }
    }
}

/// `syncTasks.adjustDeps`, for namespaces then CRDs: a task another one needs (a Namespace its
/// objects are in, a CRD defining their kind) that sorts after the first that needs it moves
/// just before it, taking its phase and wave. Every manifest without a namespace counts as in
/// the destination namespace (gitops-engine sets it on cluster-scoped ones too); prunes take
/// no part.
fn adjust_dependencies(order: &mut Vec<usize>, tasks: &mut [SyncTask], dest_namespace: &str) {
    let namespace_of = |t: &SyncTask| {
        if t.ty.namespaced && !t.namespace.is_empty() {
            t.namespace.clone()
        } else {
            dest_namespace.to_string()
        }
    };
    adjust(order, tasks, |t| {
        if t.ty.group.is_empty() && t.ty.kind == "Namespace" {
            Dep::Is(t.name.clone())
        } else {
            let ns = namespace_of(t);
            if ns.is_empty() {
                Dep::None
            } else {
                Dep::Needs(ns)
            }
        }
    });
    adjust(order, tasks, |t| {
        match t.desired.as_ref().and_then(crd_defines) {
            Some(defined) => Dep::Is(defined),
            None => Dep::Needs(format!("{}/{}", t.ty.group, t.ty.kind)),
        }
    });
}

enum Dep {
    /// The task is the dependency of this key.
    Is(String),
    /// The task needs the dependency of this key.
    Needs(String),
    None,
}

fn adjust(order: &mut Vec<usize>, tasks: &mut [SyncTask], dep: impl Fn(&SyncTask) -> Dep) {
    let mut first: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for pos in 0..order.len() {
        let i = order[pos];
        if tasks[i].desired.is_none() {
            continue;
        }
        match dep(&tasks[i]) {
            Dep::Is(key) => {
                if let Some(&at) = first.get(&key) {
                    let (phase, wave) = (tasks[order[at]].phase, tasks[order[at]].wave);
                    tasks[i].phase = phase;
                    tasks[i].wave = wave;
                    let moved = order.remove(pos);
                    order.insert(at, moved);
                    for v in first.values_mut() {
                        if *v >= at {
                            *v += 1;
                        }
                    }
                }
            }
            Dep::Needs(key) => {
                first.entry(key).or_insert(pos);
            }
            Dep::None => {}
        }
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
        order: None,
        modified: None,
        skip_dry_run: false,
        detached: false,
        refused: false,
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
