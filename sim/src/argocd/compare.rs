//! Comparing an Application's rendered manifests with the live cluster, as Argo CD's
//! `CompareAppState` does: per-resource sync status (with `ignoreDifferences`), live hooks,
//! resources that require pruning, the app's sync status and aggregate health (docs/sim-behaviour.md §8.1), and
//! `summary.images` from the Pods in the app's resource tree (docs/sim-behaviour.md §3).

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Value, json};

use super::diff::{self, IgnoreRule};
use super::health::{self, HealthStatus};

use super::hooks;
use super::options;
use crate::kinds::{ResourceType, by_kind};
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
    app_name: &str,
    dest_ns: &str,
    manifests: Option<&[Value]>,
    rules: &[IgnoreRule],
) -> Comparison {
    let failed_to_load = manifests.is_none();
    let manifests = manifests.unwrap_or_default();
    let mut targets = Vec::new();
    let mut hook_manifests = Vec::new();
    let mut diff_errors = Vec::new();
    let mut seen: HashSet<Key> = HashSet::new();
    for manifest in manifests {
        let api_version = manifest["apiVersion"].as_str().unwrap_or_default();
        let kind = manifest["kind"].as_str().unwrap_or_default();
        // A kind the cluster does not serve is still a resource of the app: listed, OutOfSync
        // (it cannot exist live), and its sync fails saying so.
        let ty =
            by_kind(api_version, kind).unwrap_or_else(|| crate::kinds::unserved(api_version, kind));
        let mut desired = manifest.clone();
        place(ty, &mut desired, dest_ns);
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
        });
    }
    let live_hooks = add_untracked_live(store, app_name, &seen, &mut targets);
    // An extra live object marked `compare-options: IgnoreExtraneous` is still OutOfSync itself
    // but does not make the app so.
    let synced = !failed_to_load
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
    let mut resources = resource_list(&targets, &live_hooks);
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
        synced,
        health,
        resources,
        images,
    }
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
    let prefix = format!("{app_name}:");
    for (key, obj) in store.all() {
        let Some(tracking) = objects::annotation(&obj, TRACKING) else {
            continue;
        };
        if !tracking.starts_with(&prefix)
            || seen.contains(&key)
            || obj["metadata"]["ownerReferences"].is_array()
        {
            continue;
        }
        if hooks::is_hook(&obj) {
            live_hooks.push((key, obj));
            continue;
        }
        targets.push(Target {
            ty: key.ty(),
            namespace: key.namespace.clone(),
            name: key.name.clone(),
            desired: None,
            wave: sync_wave(&obj),
            live: Some(obj),
            out_of_sync: true,
            skip: false,
        });
    }
    live_hooks
}

/// `status.resources`: every target and live hook, sorted by group, kind, namespace and name.
fn resource_list(targets: &[Target], live_hooks: &[(Key, Arc<Value>)]) -> Vec<Value> {
    let mut resources: Vec<(String, Value)> = targets
        .iter()
        .map(|t| (sort_key(t.ty, &t.namespace, &t.name), resource_status(t)))
        .collect();
    for (key, obj) in live_hooks {
        let mut r = base_status(key.ty(), &key.namespace, &key.name);
        r["hook"] = json!(true);
        let wave = sync_wave(obj);
        if wave != 0 {
            r["syncWave"] = json!(wave);
        }
        resources.push((sort_key(key.ty(), &key.namespace, &key.name), r));
    }
    resources.sort_by(|a, b| a.0.cmp(&b.0));
    resources.into_iter().map(|(_, r)| r).collect()
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
    if !t.skip {
        r["status"] = json!(if t.out_of_sync { "OutOfSync" } else { "Synced" });
    }
    if t.desired.is_none() {
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
mod tests {
    use super::*;

    fn annotated(annotations: Value) -> Value {
        json!({"metadata": {"annotations": annotations}})
    }

    #[test]
    fn a_wave_is_read_as_go_reads_it_untrimmed_falling_back_to_the_helm_weight() {
        let wave = |a: Value| sync_wave(&annotated(a));
        assert_eq!(wave(json!({"argocd.argoproj.io/sync-wave": "-1"})), -1);
        assert_eq!(wave(json!({"argocd.argoproj.io/sync-wave": "+2"})), 2);
        assert_eq!(
            wave(json!({"argocd.argoproj.io/sync-wave": " 3", "helm.sh/hook-weight": "7"})),
            7,
            "Atoi refuses the space, so Helm's weight counts"
        );
        assert_eq!(wave(json!({"argocd.argoproj.io/sync-wave": " 3"})), 0);
        assert_eq!(wave(json!({"helm.sh/hook-weight": "-5"})), -5);
        assert_eq!(wave(json!({})), 0);
    }
}
