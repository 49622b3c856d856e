//! Comparing an Application's rendered manifests with the live cluster, as Argo CD's
//! `CompareAppState` does: per-resource sync status (with `ignoreDifferences`), live hooks,
//! resources that require pruning, the app's sync status and aggregate health (docs/sim-behaviour.md §8.1), and
//! `summary.images` from the Pods in the app's resource tree (docs/sim-behaviour.md §3).

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Value, json};

use super::diff::{self, IgnoreRule};
use super::health::{self, HealthStatus};

use super::bootstrap::NAMESPACE;
use super::hooks;
use super::options::{self, SyncOptions};
use crate::kinds::ResourceType;
use crate::store::{Key, Store};
use crate::{defaults, objects};

/// What a wake-up asks of an app, lowest first (Argo CD's CompareWith levels, with `Nothing`
/// for "look at the operation only": an update of the Application itself asks no refresh).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// No refresh unless the app's own state calls for one; the operation is stepped.
    Nothing,
    /// A managed resource changed: compare with the cached manifests (`CompareWithRecent`).
    Recent,
    /// Re-resolve the target revision, from refs listed up to 3 min ago (`CompareWithLatest`).
    Latest,
    /// Re-resolve listing the refs now (`CompareWithLatestForceResolve`).
    ForceResolve,
}

pub const TRACKING: &str = "argocd.argoproj.io/tracking-id";

/// One resource the app manages (desired, live or both).
pub struct Target {
    pub ty: &'static ResourceType,
    pub namespace: String,
    pub name: String,
    pub desired: Option<Value>,
    pub live: Option<Arc<Value>>,
    pub wave: i64,
    pub out_of_sync: bool,
    /// `hook.Skip`: listed with no sync status, never applied, no part of health or sync.
    pub skip: bool,
    /// `isSelfReferencedObj`: false for a live object without a manifest whose tracking id
    /// names another object (an annotation copied onto it): it is listed without a status,
    /// never pruned, and no part of the app's sync status.
    pub self_referenced: bool,
}

/// The app a comparison is for.
pub struct Scope<'a> {
    pub app: &'a str,
    pub dest_namespace: &'a str,
    /// The app's `syncOptions` (its `Delete=` and `Prune=` hold for every resource without
    /// its own).
    pub options: &'a SyncOptions,
    /// `HasChangedManagedNamespaceMetadata`: the app is OutOfSync until a sync applies it.
    pub namespace_metadata_changed: bool,
}

pub struct Comparison {
    /// The target state could not be loaded (a ComparisonError): every tracked live object is
    /// still listed, with status `Unknown`, and health is still computed from them.
    pub failed_to_load: bool,
    pub targets: Vec<Target>,
    /// Desired hook manifests (not compared; run by syncs).
    pub hooks: Vec<Value>,
    /// Resources that could not be compared (a bad ignoreDifferences rule, an unreadable
    /// last-applied annotation): shown as a ComparisonError.
    pub diff_errors: Vec<String>,
    /// What else `CompareAppState` finds (type, message): a namespaced resource without a
    /// namespace (`InvalidSpecError`), a resource given more than once
    /// (`RepeatedResourceWarning`), a live object another app tracks (`SharedResourceWarning`).
    pub conditions: Vec<Condition>,
    pub synced: bool,
    pub health: HealthStatus,
    pub resources: Vec<Value>,
    pub images: Vec<String>,
}

/// Where a manifest lands: its namespace, or the destination's for namespaced kinds.
pub fn place(ty: &ResourceType, obj: &mut Value, dest_ns: &str) {
    if ty.namespaced {
        if objects::namespace(obj).is_empty() {
            objects::metadata_mut(obj).insert("namespace".into(), json!(dest_ns));
        }
    } else {
        objects::metadata_mut(obj).remove("namespace");
    }
}

/// `syncwaves.Wave`: Argo CD's annotation as Go's `Atoi` reads it (no trimming), else Helm's
/// hook weight the same way, else 0.
pub fn sync_wave(obj: &Value) -> i64 {
    let atoi = |key| objects::annotation(obj, key).and_then(|w| w.parse::<i64>().ok());
    atoi("argocd.argoproj.io/sync-wave")
        .or_else(|| atoi("helm.sh/hook-weight"))
        .unwrap_or(0)
}

/// Compares `manifests` with the live objects. `None` is a target state that could not be
/// loaded: as `CompareAppState` does on a best-effort basis, the comparison goes on against an
/// empty target, so the tracked live objects all require pruning and none has a known status.
pub fn compare(
    store: &Store,
    scope: &Scope,
    manifests: Option<&[Value]>,
    rules: &[IgnoreRule],
) -> Comparison {
    let (app_name, dest_ns) = (scope.app, scope.dest_namespace);
    let failed_to_load = manifests.is_none();
    let (manifests, mut conditions) = dedup(store, manifests.unwrap_or_default(), dest_ns);
    let mut targets = Vec::new();
    let mut hook_manifests = Vec::new();
    let mut diff_errors = Vec::new();
    let mut seen: HashSet<Key> = HashSet::new();
    for (ty, desired) in manifests {
        // Hooks (misspelt ones too, which no phase runs) are not compared; `Skip` alone is
        // no hook but a resource that is never applied.
        if hooks::is_hook(&desired) {
            hook_manifests.push(desired);
            continue;
        }
        let skip = hooks::skip(&desired);
        let (ns, name) = (
            objects::namespace(&desired).to_string(),
            objects::name(&desired).to_string(),
        );
        let key = Key::new(ty, &ns, &name);
        let live = crate::kinds::is_served(ty)
            .then(|| store.get(&key))
            .flatten();
        conditions.extend(shared(ty, &name, live.as_deref(), app_name));
        let applicable = diff::rules_for(rules, &desired);
        // Compare as Argo CD does, with the API server's defaulting filled in (gitops-engine
        // normalises the same way), so server defaults never count as drift.
        let result = diff::diff_with_defaults(
            &desired,
            live.as_deref(),
            &applicable,
            ty.builtin,
            &|o: &mut Value| defaults::apply(ty, o),
        );
        if let Some(e) = &result.error {
            diff_errors.push(format!("{}/{}: {e}", ty.kind, objects::name(&desired)));
        }
        seen.insert(key);
        targets.push(Target {
            ty,
            wave: sync_wave(&desired),
            out_of_sync: result.modified && !skip,
            skip,
            desired: Some(desired),
            live,
            namespace: ns,
            name,
            self_referenced: true,
        });
    }
    let live_hooks = add_untracked_live(store, app_name, &seen, &mut targets);
    conditions.extend(targets.iter().filter_map(missing_namespace));
    // An extra live object marked `compare-options: IgnoreExtraneous` is still OutOfSync itself
    // but does not make the app so.
    let synced = !failed_to_load
        && !scope.namespace_metadata_changed
        && targets.iter().all(|t| {
            !t.out_of_sync
                || (t.desired.is_none()
                    && options::has(
                        t.live.as_deref(),
                        options::COMPARE_OPTIONS,
                        "IgnoreExtraneous",
                    ))
        });
    let health = health::app_health(
        targets
            .iter()
            .filter(|t| !t.skip && (t.desired.is_some() || t.live.is_some()))
            .map(|t| t.live.as_deref()),
    );
    let mut resources = resource_list(&targets, &live_hooks, scope.options);
    if failed_to_load {
        // "we can't say anything about the status if we were unable to get the target objects"
        for r in &mut resources {
            r["status"] = json!("Unknown");
        }
    }
    let images = images(store, &targets, &live_hooks);
    Comparison {
        failed_to_load,
        targets,
        hooks: hook_manifests,
        diff_errors,
        conditions,
        synced,
        health,
        resources,
        images,
    }
}

/// An app condition: its type and message.
pub type Condition = (&'static str, String);

/// `SharedResourceWarning`: the live object of a manifest is tracked to another app.
fn shared(
    ty: &ResourceType,
    name: &str,
    live: Option<&Value>,
    app_name: &str,
) -> Option<Condition> {
    let other = live.and_then(tracked_by).filter(|a| *a != app_name)?;
    Some((
        "SharedResourceWarning",
        format!(
            "{}/{name} is part of applications {NAMESPACE}/{app_name} and {}",
            ty.kind,
            other.replace('_', "/")
        ),
    ))
}

/// `InvalidSpecError`: a resource of a namespaced kind has no namespace (no destination
/// namespace to fall back on). `gvk.String()` writes the core group as empty.
fn missing_namespace(t: &Target) -> Option<Condition> {
    (t.ty.namespaced && crate::kinds::is_served(t.ty) && t.namespace.is_empty()).then(|| {
        (
            "InvalidSpecError",
            format!(
                "Namespace for {} {}/{}, Kind={} is missing.",
                t.name, t.ty.group, t.ty.version, t.ty.kind
            ),
        )
    })
}

/// `NormalizeTargetObjects`: every manifest placed (its namespace, or the destination's for
/// namespaced kinds), and one object per key kept — the last given — with a
/// `RepeatedResourceWarning` saying how often it appeared. A manifest with only a
/// `generateName` is keyed by it and its position, so it is never a repeat.
fn dedup(
    store: &Store,
    manifests: &[Value],
    dest_ns: &str,
) -> (Vec<(&'static ResourceType, Value)>, Vec<Condition>) {
    let mut keyed: Vec<(String, usize, &'static ResourceType, Value)> = Vec::new();
    for (i, manifest) in manifests.iter().enumerate() {
        let api_version = manifest["apiVersion"].as_str().unwrap_or_default();
        let kind = manifest["kind"].as_str().unwrap_or_default();
        // A kind the cluster does not serve is still a resource of the app: listed, OutOfSync
        // (it cannot exist live), and its sync fails saying so.
        let ty = store
            .kinds
            .by_kind(api_version, kind)
            .unwrap_or_else(|| crate::kinds::unserved(api_version, kind));
        let mut desired = manifest.clone();
        place(ty, &mut desired, dest_ns);
        let mut name = objects::name(&desired).to_string();
        let generate = desired["metadata"]["generateName"]
            .as_str()
            .unwrap_or_default();
        if name.is_empty() && !generate.is_empty() {
            name = format!("{generate}{i}");
        }
        let key = format!(
            "{}/{}/{}/{name}",
            ty.group,
            ty.kind,
            objects::namespace(&desired)
        );
        keyed.push((key, i, ty, desired));
    }
    let mut conditions = Vec::new();
    let mut kept: Vec<(&'static ResourceType, Value)> = Vec::new();
    let mut done: HashSet<String> = HashSet::new();
    for (key, _, _, _) in &keyed {
        if !done.insert(key.clone()) {
            continue;
        }
        let copies: Vec<&(String, usize, &'static ResourceType, Value)> =
            keyed.iter().filter(|(k, ..)| k == key).collect();
        if copies.len() > 1 {
            conditions.push((
                "RepeatedResourceWarning",
                format!(
                    "Resource {key} appeared {} times among application resources.",
                    copies.len()
                ),
            ));
        }
        let (_, _, ty, last) = copies[copies.len() - 1];
        kept.push((ty, last.clone()));
    }
    (kept, conditions)
}

/// The app a live object's tracking id names (`GetAppName`), when the id is well formed
/// (`<app>:<group>/<kind>:<namespace>/<name>`).
pub fn tracked_by(obj: &Value) -> Option<&str> {
    tracking(obj).map(|t| t.app)
}

/// A tracking id's parts (`ParseAppInstanceValue`).
struct Tracking<'a> {
    app: &'a str,
    group: &'a str,
    kind: &'a str,
    namespace: &'a str,
    name: &'a str,
}

fn tracking(obj: &Value) -> Option<Tracking<'_>> {
    let value = objects::annotation(obj, TRACKING)?;
    let mut parts = value.splitn(3, ':');
    let (app, gk, nn) = (parts.next()?, parts.next()?, parts.next()?);
    let gk: Vec<&str> = gk.split('/').collect();
    let nn: Vec<&str> = nn.split('/').collect();
    let ([group, kind], [namespace, name]) = (gk.as_slice(), nn.as_slice()) else {
        return None;
    };
    Some(Tracking {
        app,
        group,
        kind,
        namespace,
        name,
    })
}

/// `isSelfReferencedObj` for a live object without a manifest: its tracking id names it
/// (a cluster-scoped object matches whatever namespace the id carries).
fn self_referenced(key: &Key, obj: &Value) -> bool {
    let Some(t) = tracking(obj) else {
        return true;
    };
    let ty = key.ty();
    (key.namespace == t.namespace || key.namespace.is_empty())
        && key.name == t.name
        && ty.group == t.group
        && ty.kind == t.kind
}

/// Live objects tracked to this app but no longer desired: they require pruning (added to
/// `targets`); live hooks are listed as hooks (returned).
fn add_untracked_live(
    store: &Store,
    app_name: &str,
    seen: &HashSet<Key>,
    targets: &mut Vec<Target>,
) -> Vec<(Key, Arc<Value>)> {
    let mut live_hooks = Vec::new();
    for (key, obj) in store.all() {
        if tracked_by(&obj) != Some(app_name)
            || seen.contains(&key)
            || obj["metadata"]["ownerReferences"].is_array()
        {
            continue;
        }
        if hooks::is_hook(&obj) {
            live_hooks.push((key, obj));
            continue;
        }
        let own = self_referenced(&key, &obj);
        targets.push(Target {
            ty: key.ty(),
            namespace: key.namespace.clone(),
            name: key.name.clone(),
            desired: None,
            wave: sync_wave(&obj),
            live: Some(obj),
            out_of_sync: own,
            skip: false,
            self_referenced: own,
        });
    }
    live_hooks
}

/// `status.resources`: every target and live hook, sorted by group, kind, namespace and name.
/// A live object without a manifest requires pruning when its tracking id is its own (a
/// `generateName` hook's names no object: it never does).
fn resource_list(
    targets: &[Target],
    live_hooks: &[(Key, Arc<Value>)],
    app_options: &SyncOptions,
) -> Vec<Value> {
    let mut resources: Vec<(String, Value)> = targets
        .iter()
        .map(|t| {
            let mut r = resource_status(t);
            if needs_deletion_confirmation(t.desired.as_ref(), app_options)
                || needs_deletion_confirmation(t.live.as_deref(), app_options)
            {
                r["requiresDeletionConfirmation"] = json!(true);
            }
            (sort_key(t.ty, &t.namespace, &t.name), r)
        })
        .collect();
    for (key, obj) in live_hooks {
        let mut r = base_status(key.ty(), &key.namespace, &key.name);
        r["hook"] = json!(true);
        if self_referenced(key, obj) {
            r["requiresPruning"] = json!(true);
        }
        if needs_deletion_confirmation(Some(obj), app_options) {
            r["requiresDeletionConfirmation"] = json!(true);
        }
        let wave = sync_wave(obj);
        if wave != 0 {
            r["syncWave"] = json!(wave);
        }
        resources.push((sort_key(key.ty(), &key.namespace, &key.name), r));
    }
    resources.sort_by(|a, b| a.0.cmp(&b.0));
    resources.into_iter().map(|(_, r)| r).collect()
}

/// `isObjRequiresDeletionConfirmation`: `Delete=confirm` or `Prune=confirm`, the object's own
/// or else the app's.
fn needs_deletion_confirmation(obj: Option<&Value>, app_options: &SyncOptions) -> bool {
    let Some(obj) = obj else { return false };
    [options::DELETE, options::PRUNE].iter().any(|key| {
        options::resource_value(Some(obj), app_options.value(key), key) == Some(options::CONFIRM)
    })
}

fn sort_key(ty: &ResourceType, ns: &str, name: &str) -> String {
    format!("{}/{}/{}/{}", ty.group, ty.kind, ns, name)
}

fn base_status(ty: &ResourceType, ns: &str, name: &str) -> Value {
    let mut r = json!({"version": ty.version, "kind": ty.kind, "name": name});
    if !ty.group.is_empty() {
        r["group"] = json!(ty.group);
    }
    if !ns.is_empty() {
        r["namespace"] = json!(ns);
    }
    r
}

fn resource_status(t: &Target) -> Value {
    let mut r = base_status(t.ty, &t.namespace, &t.name);
    if !t.skip && t.self_referenced {
        r["status"] = json!(if t.out_of_sync { "OutOfSync" } else { "Synced" });
    }
    if t.desired.is_none() && t.self_referenced {
        r["requiresPruning"] = json!(true);
    }
    if t.wave != 0 {
        r["syncWave"] = json!(t.wave);
    }
    r
}

/// Images of the Pods under the app's resources and live hooks (Deployment → ReplicaSet → Pod,
/// Job → Pod): the resource tree's, sorted and de-duplicated, as `status.summary.images`.
fn images(store: &Store, targets: &[Target], live_hooks: &[(Key, Arc<Value>)]) -> Vec<String> {
    let mut owners: HashSet<String> = targets
        .iter()
        .filter_map(|t| t.live.as_deref())
        .chain(live_hooks.iter().map(|(_, o)| o.as_ref()))
        .map(|o| objects::uid(o).to_string())
        .collect();
    let rs_ty = &crate::kinds::REPLICA_SET;
    let pod_ty = &crate::kinds::POD;
    let namespaces: HashSet<&str> = targets
        .iter()
        .map(|t| t.namespace.as_str())
        .chain(live_hooks.iter().map(|(k, _)| k.namespace.as_str()))
        .collect();
    for ns in &namespaces {
        for rs in store.list(rs_ty, Some(ns)).0 {
            if objects::controller_of(&rs)
                .is_some_and(|r| owners.contains(r["uid"].as_str().unwrap_or_default()))
            {
                owners.insert(objects::uid(&rs).to_string());
            }
        }
    }
    let mut images: Vec<String> = Vec::new();
    for ns in &namespaces {
        for pod in store.list(pod_ty, Some(ns)).0 {
            let owned = objects::controller_of(&pod)
                .is_some_and(|r| owners.contains(r["uid"].as_str().unwrap_or_default()));
            let tracked = owners.contains(objects::uid(&pod));
            if !(owned || tracked) {
                continue;
            }
            for list in ["containers", "initContainers"] {
                for c in pod["spec"][list].as_array().into_iter().flatten() {
                    if let Some(image) = c["image"].as_str() {
                        images.push(image.to_string());
                    }
                }
            }
        }
    }
    images.sort();
    images.dedup();
    images
}

#[cfg(test)]
mod tests;
