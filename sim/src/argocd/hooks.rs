//! Sync hooks (docs/sim-behaviour.md §1.6, §4.4, §4.5): which phases an object hooks into (Argo CD's annotation, or
//! Helm's mapped onto it), its delete policies, and the name a `generateName` hook gets.

use serde_json::Value;

use crate::objects;

pub const HOOK: &str = "argocd.argoproj.io/hook";
pub const DELETE_POLICY: &str = "argocd.argoproj.io/hook-delete-policy";
pub const FINALIZER: &str = "argocd.argoproj.io/hook-finalizer";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum HookType {
    PreSync,
    Sync,
    PostSync,
    SyncFail,
    Skip,
}

impl HookType {
    pub fn as_str(self) -> &'static str {
        match self {
            HookType::PreSync => "PreSync",
            HookType::Sync => "Sync",
            HookType::PostSync => "PostSync",
            HookType::SyncFail => "SyncFail",
            HookType::Skip => "Skip",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeletePolicy {
    HookSucceeded,
    HookFailed,
    BeforeHookCreation,
}

/// The comma-separated values of an annotation, trimmed, without empty ones or repeats.
fn csv<'a>(obj: &'a Value, key: &str) -> Vec<&'a str> {
    let mut values: Vec<&str> = Vec::new();
    for v in objects::annotation(obj, key).unwrap_or_default().split(',') {
        let v = v.trim();
        if !v.is_empty() && !values.contains(&v) {
            values.push(v);
        }
    }
    values
}

/// `hook.Types`: the valid types of Argo CD's annotation (exact spelling); only when it names
/// none, Helm's mapped ones (`pre-install`/`pre-upgrade` → PreSync, `post-install`/
/// `post-upgrade` → PostSync; any other Helm hook maps to nothing).
pub fn types(obj: &Value) -> Vec<HookType> {
    let argo: Vec<HookType> = csv(obj, HOOK)
        .into_iter()
        .filter_map(|t| match t {
            "PreSync" => Some(HookType::PreSync),
            "Sync" => Some(HookType::Sync),
            "PostSync" => Some(HookType::PostSync),
            "SyncFail" => Some(HookType::SyncFail),
            "Skip" => Some(HookType::Skip),
            _ => None,
        })
        .collect();
    if !argo.is_empty() {
        return argo;
    }
    csv(obj, "helm.sh/hook")
        .into_iter()
        .filter_map(|t| match t {
            "pre-install" | "pre-upgrade" => Some(HookType::PreSync),
            "post-install" | "post-upgrade" => Some(HookType::PostSync),
            _ => None,
        })
        .collect()
}

/// `hook.Skip`: `Skip` is the only type. Such an object is no hook: it stays a resource of the
/// app that is never applied.
pub fn skip(obj: &Value) -> bool {
    types(obj) == [HookType::Skip]
}

/// `hook.IsHook`: Argo CD's annotation is there at all (whatever it says) unless it is `Skip`
/// alone, or Helm's is (other than `crd-install`). A hook whose types are all misspelt is
/// still a hook: it belongs to no phase, so it is never applied nor listed.
pub fn is_hook(obj: &Value) -> bool {
    if objects::annotation(obj, HOOK).is_some() {
        return !skip(obj);
    }
    objects::annotation(obj, "helm.sh/hook").is_some_and(|v| v != "crd-install")
}

/// `syncPhases` of a hook: the phases its types name (`Skip` names none), each once.
pub fn phases(obj: &Value) -> Vec<HookType> {
    let mut phases: Vec<HookType> = types(obj)
        .into_iter()
        .filter(|t| *t != HookType::Skip)
        .collect();
    phases.sort();
    phases.dedup();
    phases
}

/// Delete policies: Argo CD's annotation (its own spelling) and Helm's (`hook-succeeded`, ...)
/// combined; none given means BeforeHookCreation.
pub fn delete_policies(obj: &Value) -> Vec<DeletePolicy> {
    let csv = |key| {
        objects::annotation(obj, key)
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
    };
    let argo = csv(DELETE_POLICY).filter_map(|p| match p {
        "HookSucceeded" => Some(DeletePolicy::HookSucceeded),
        "HookFailed" => Some(DeletePolicy::HookFailed),
        "BeforeHookCreation" => Some(DeletePolicy::BeforeHookCreation),
        _ => None,
    });
    let helm = csv("helm.sh/hook-delete-policy").filter_map(|p| match p {
        "hook-succeeded" => Some(DeletePolicy::HookSucceeded),
        "hook-failed" => Some(DeletePolicy::HookFailed),
        "before-hook-creation" => Some(DeletePolicy::BeforeHookCreation),
        _ => None,
    });
    let mut policies: Vec<DeletePolicy> = Vec::new();
    for p in argo.chain(helm) {
        if !policies.contains(&p) {
            policies.push(p);
        }
    }
    if policies.is_empty() {
        policies.push(DeletePolicy::BeforeHookCreation);
    }
    policies
}

/// `generateName + lower("<rev7>-<phase>-<startedAtUnix>")` for hooks without a name (docs/sim-behaviour.md §4.4).
pub fn hook_name(obj: &Value, revision: &str, phase: HookType, started_at_unix: i64) -> String {
    let name = objects::name(obj);
    if !name.is_empty() {
        return name.to_string();
    }
    let prefix = obj["metadata"]["generateName"].as_str().unwrap_or_default();
    let rev = if revision.len() > 7 {
        &revision[..7]
    } else {
        revision
    };
    format!(
        "{prefix}{}",
        format!("{rev}-{}-{started_at_unix}", phase.as_str()).to_lowercase()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn generate_name_hooks_are_named_by_revision_phase_and_start() {
        let job =
            json!({"metadata": {"generateName": "migrate-", "annotations": {HOOK: "PreSync"}}});
        assert_eq!(
            hook_name(&job, "3f2a9c1d00aa", HookType::PreSync, 1760000000),
            "migrate-3f2a9c1-presync-1760000000"
        );
        assert_eq!(phases(&job), [HookType::PreSync]);
        assert_eq!(delete_policies(&job), [DeletePolicy::BeforeHookCreation]);
        // gitops-engine 3.5 (and 3.6) cut the revision to 7 only from 8 characters on.
        assert_eq!(
            hook_name(&job, "9ab0cf3", HookType::PostSync, 1796285198),
            "migrate-9ab0cf3-postsync-1796285198"
        );
        assert_eq!(
            hook_name(&job, "9ab0cf3d", HookType::SyncFail, 1),
            "migrate-9ab0cf3-syncfail-1"
        );
        assert_eq!(
            hook_name(&job, "v1", HookType::Sync, 1),
            "migrate-v1-sync-1"
        );
    }

    #[test]
    fn helm_hooks_map_onto_argo_phases() {
        let obj = json!({"metadata": {"annotations": {"helm.sh/hook": "pre-install,pre-upgrade", "helm.sh/hook-delete-policy": "hook-succeeded"}}});
        assert_eq!(phases(&obj), [HookType::PreSync]);
        assert_eq!(delete_policies(&obj), [DeletePolicy::HookSucceeded]);
        let test = json!({"metadata": {"annotations": {"helm.sh/hook": "test"}}});
        assert!(
            is_hook(&test) && phases(&test).is_empty(),
            "a hook of no phase"
        );
        let crd = json!({"metadata": {"annotations": {"helm.sh/hook": "crd-install"}}});
        assert!(!is_hook(&crd));
    }

    #[test]
    fn misspelt_and_skip_hooks_are_read_as_gitops_engine_reads_them() {
        let hook = |v: &str| json!({"metadata": {"annotations": {HOOK: v}}});
        let typo = hook("Presync");
        assert!(
            is_hook(&typo) && phases(&typo).is_empty(),
            "a hook of no phase"
        );
        assert!(
            skip(&hook("Skip")) && !is_hook(&hook("Skip")),
            "Skip alone: no hook"
        );
        assert!(is_hook(&hook("PreSync,Skip")));
        assert_eq!(phases(&hook("PreSync,Skip")), [HookType::PreSync]);
        let fallback =
            json!({"metadata": {"annotations": {HOOK: "Presync", "helm.sh/hook": "post-install"}}});
        assert_eq!(
            phases(&fallback),
            [HookType::PostSync],
            "Helm's types count when Argo's name none"
        );
    }

    #[test]
    fn argo_and_helm_delete_policies_combine_each_in_its_own_spelling() {
        let both = json!({"metadata": {"annotations": {
            DELETE_POLICY: "HookSucceeded",
            "helm.sh/hook-delete-policy": "hook-failed"}}});
        assert_eq!(
            delete_policies(&both),
            [DeletePolicy::HookSucceeded, DeletePolicy::HookFailed]
        );
        // Helm's spelling under Argo CD's key is not a policy: the default applies.
        let mixed = json!({"metadata": {"annotations": {DELETE_POLICY: "hook-succeeded"}}});
        assert_eq!(delete_policies(&mixed), [DeletePolicy::BeforeHookCreation]);
    }
}
