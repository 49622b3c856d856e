//! The sync engine where fidelity audit 3 and the differential suite found it wrong: task
//! order (namespaces and CRDs before what needs them, prunes recorded before applies, PruneLast
//! a step of its own), the app's `Prune=` default and `Prune=confirm`, ApplyOutOfSyncOnly,
//! failure reasons given once, what kubectl's library adds to results and errors, the
//! auto-created namespace, and kinds the cluster does not serve yet.

use serde_json::{Value, json};

use super::tests::{
    cm, end_pause, exists, new_env, result_for, run_for, run_managed, run_with, running,
};
use super::{Outcome, Run};
use crate::argocd::options;
use crate::controllers::Env;
use crate::kinds::by_kind;
use crate::ops::{self, Actor};
use crate::store::Key;

/// Passes until the operation ends (wave delays cut short).
fn finish(env: &Env, run: &mut Run) -> Outcome {
    for _ in 0..30 {
        match run.pass(env) {
            Outcome::Paused { .. } => end_pause(run),
            Outcome::Running { .. } => {}
            done => return done,
        }
    }
    panic!("the operation never ended");
}

fn succeeded(outcome: Outcome) -> String {
    match outcome {
        Outcome::Succeeded { message } => message,
        other => panic!("expected Succeeded, got {other:?}"),
    }
}

fn failed(outcome: Outcome) -> String {
    match outcome {
        Outcome::Failed { message } => message,
        other => panic!("expected Failed, got {other:?}"),
    }
}

/// `kind | name | syncPhase | hookPhase | status | message`, one a result, in result order.
fn lines(run: &Run) -> Vec<String> {
    run.result_resources()
        .iter()
        .map(|r| {
            let text = |k: &str| r[k].as_str().unwrap_or("-").to_string();
            [
                text("kind"),
                text("name"),
                text("syncPhase"),
                text("hookPhase"),
                text("status"),
                text("message"),
            ]
            .join(" | ")
        })
        .collect()
}

/// A live object of the app's, as an earlier sync left it (tracked, no last-applied).
fn live(env: &Env, ns: &str, mut obj: Value) {
    let ty = by_kind(
        obj["apiVersion"].as_str().unwrap(),
        obj["kind"].as_str().unwrap(),
    )
    .unwrap();
    let id = format!(
        "app:{}/{}:{ns}/{}",
        ty.group,
        ty.kind,
        obj["metadata"]["name"].as_str().unwrap()
    );
    obj["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"] = json!(id);
    ops::create(&env.store, ty, ns, obj, &Actor::new("test")).unwrap();
}

/// A ConfigMap of `default` is gone, or going (foreground: no garbage collector runs here).
fn pruned(env: &Env, name: &str) -> bool {
    let key = Key::new(&crate::kinds::CONFIG_MAP, "default", name);
    env.store
        .get(&key)
        .is_none_or(|o| crate::objects::is_deleting(&o))
}

fn get(env: &Env, api_version: &str, kind: &str, ns: &str, name: &str) -> Value {
    let ty = by_kind(api_version, kind).unwrap();
    (*env.store.get(&Key::new(ty, ns, name)).unwrap()).clone()
}

/// Audit 3 L4: a Namespace in Git with a later wave than what is inside it is applied first,
/// in the wave of the first object that needs it (`adjustDeps`); a CRD likewise comes before
/// its custom resources, whose kind the cluster does not serve yet without voiding the sync.
#[test]
fn namespaces_and_crds_move_before_what_needs_them() {
    let env = new_env();
    let ns = json!({"apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": "dep-x", "annotations": {"argocd.argoproj.io/sync-wave": "5"}}});
    let mut inside = cm("inside", json!({}));
    inside["metadata"]["namespace"] = json!("dep-x");
    let mut run = run_for(&env, "default", &[ns, inside], false);
    assert_eq!(
        succeeded(finish(&env, &mut run)),
        "successfully synced (all tasks run)",
        "one step: {:?}",
        lines(&run)
    );
    assert_eq!(
        lines(&run),
        [
            "Namespace | dep-x | Sync | Running | Synced | namespace/dep-x created",
            "ConfigMap | inside | Sync | Running | Synced | configmap/inside created",
        ]
    );

    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com", "annotations": {"argocd.argoproj.io/sync-wave": "3"}},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets", "singular": "widget"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object"}}}]}});
    let widget =
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}});
    let run = run_for(&env, "default", &[widget, crd], false);
    let order: Vec<(&str, i64)> = run.tasks.iter().map(|t| (t.ty.kind, t.wave)).collect();
    assert_eq!(
        order,
        [("CustomResourceDefinition", 0), ("Widget", 0)],
        "the CRD takes the wave of its first custom resource"
    );
    assert!(
        run.tasks[1].skip_dry_run,
        "a kind this sync defines does not void it"
    );
}

/// A kind the cluster does not serve voids the whole sync, unless `SkipDryRunOnMissingResource`
/// lets it through to be applied; then kubectl finds no mapping for it.
#[test]
fn skip_dry_run_on_missing_resource_lets_an_unserved_kind_be_applied() {
    let env = new_env();
    let widget =
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}});
    let mut run = run_for(&env, "default", std::slice::from_ref(&widget), false);
    assert_eq!(
        failed(run.pass(&env)),
        "one or more synchronization tasks are not valid: failed to discover server resources for group version example.com/v1: the server could not find the requested resource"
    );
    let mut run = run_with(
        &env,
        "default",
        std::slice::from_ref(&widget),
        |input, _| {
            input.skip_dry_run_on_missing = true;
        },
    );
    let message = failed(finish(&env, &mut run));
    assert!(
        message.starts_with("one or more objects failed to apply, reason: resource mapping not found for name: \"w\" namespace: \"default\" from \"/dev/shm/")
            && message.ends_with(": no matches for kind \"Widget\" in version \"example.com/v1\"\nensure CRDs are installed first"),
        "{message}"
    );
    let mut annotated = widget.clone();
    annotated["metadata"]["annotations"] =
        json!({options::SYNC_OPTIONS: options::SKIP_DRY_RUN_ON_MISSING_RESOURCE});
    let run = run_for(&env, "default", &[annotated], false);
    assert!(
        run.tasks[0].skip_dry_run,
        "the manifest's own option counts"
    );
}

/// Audit 3 M3, L9: the app's `Prune=false` holds for every live object without its own
/// option (kept, `ignored (no prune)`), and a step's prunes are recorded before its applies.
#[test]
fn the_apps_prune_false_keeps_objects_and_prunes_are_recorded_first() {
    let env = new_env();
    live(&env, "default", cm("two", json!({})));
    let mut run = run_with(&env, "default", &[cm("one", json!({}))], |_, options| {
        options.prune = true;
        options.default_prune = Some("false".into());
    });
    succeeded(finish(&env, &mut run));
    assert_eq!(
        lines(&run),
        [
            "ConfigMap | two | Sync | Succeeded | PruneSkipped | ignored (no prune)",
            "ConfigMap | one | Sync | Running | Synced | configmap/one created",
        ]
    );
    assert!(exists(&env, "v1", "ConfigMap", "default", "two"));
    // The object's own `Prune=true`... is no value `Prune=` knows: only `false` keeps it.
    let env = new_env();
    live(
        &env,
        "default",
        cm("two", json!({options::SYNC_OPTIONS: "Prune=true"})),
    );
    let mut run = run_with(&env, "default", &[cm("one", json!({}))], |_, options| {
        options.prune = true;
        options.default_prune = Some("false".into());
    });
    succeeded(finish(&env, &mut run));
    assert!(pruned(&env, "two"));
}

/// Audit 3 L9: with `PruneLast=true` (the operation's, or the live object's own) the prunes
/// are a step of their own after the Sync phase's last wave, so what comes before is waited
/// for and succeeds first.
#[test]
fn prune_last_prunes_in_a_step_after_the_last_wave() {
    let env = new_env();
    live(&env, "default", cm("old", json!({})));
    let manifests = [
        cm("a", json!({"argocd.argoproj.io/sync-wave": "1"})),
        cm("b", json!({})),
    ];
    let mut run = run_with(&env, "default", &manifests, |input, options| {
        input.prune_last = true;
        options.prune = true;
    });
    let waves: Vec<(&str, i64)> = run
        .tasks
        .iter()
        .map(|t| (t.name.as_str(), t.wave))
        .collect();
    assert_eq!(waves, [("b", 0), ("a", 1), ("old", 2)]);
    succeeded(finish(&env, &mut run));
    assert_eq!(
        lines(&run),
        [
            "ConfigMap | b | Sync | Succeeded | Synced | configmap/b created",
            "ConfigMap | a | Sync | Succeeded | Synced | configmap/a created",
            "ConfigMap | old | Sync | Succeeded | Pruned | pruned",
        ]
    );
    // Without it the prune is in the first wave (prune waves reversed), before the applies.
    let env = new_env();
    live(
        &env,
        "default",
        cm("old", json!({options::SYNC_OPTIONS: options::PRUNE_LAST})),
    );
    let run = run_with(&env, "default", &manifests, |_, options| {
        options.prune = true
    });
    let waves: Vec<(&str, i64)> = run
        .tasks
        .iter()
        .map(|t| (t.name.as_str(), t.wave))
        .collect();
    assert_eq!(
        waves,
        [("b", 0), ("a", 1), ("old", 2)],
        "the live object's PruneLast=true"
    );
}

/// `Prune=confirm`: the step waits, pruning nothing, until the app approves the deletion.
#[test]
fn prune_confirm_waits_for_the_approval() {
    let env = new_env();
    live(
        &env,
        "default",
        cm("old", json!({options::SYNC_OPTIONS: "Prune=confirm"})),
    );
    let mut run = run_with(&env, "default", &[cm("one", json!({}))], |_, options| {
        options.prune = true;
    });
    assert_eq!(
        running(run.pass(&env)),
        "waiting for pruning confirmation of /ConfigMap/old"
    );
    assert!(exists(&env, "v1", "ConfigMap", "default", "old"));
    assert!(!exists(&env, "v1", "ConfigMap", "default", "one"));
    run.options.prune_confirmed = true;
    succeeded(finish(&env, &mut run));
    assert!(pruned(&env, "old"));
}

/// Differential `sync-options/out-of-sync-only`: with `ApplyOutOfSyncOnly=true` only what is
/// modified is applied; what is in sync gets no result at all.
#[test]
fn apply_out_of_sync_only_applies_only_what_differs() {
    let env = new_env();
    let mut first = run_for(
        &env,
        "default",
        &[cm("a", json!({})), cm("b", json!({}))],
        false,
    );
    succeeded(finish(&env, &mut first));
    let mut a = cm("a", json!({}));
    a["data"]["a"] = json!("changed");
    let manifests = [a, cm("b", json!({}))];
    let mut run = run_with(&env, "default", &manifests, |_, options| {
        options.apply_out_of_sync_only = true;
    });
    succeeded(finish(&env, &mut run));
    assert_eq!(
        lines(&run),
        ["ConfigMap | a | Sync | Running | Synced | configmap/a configured"]
    );
    let mut again = run_for(&env, "default", &manifests, false);
    succeeded(finish(&env, &mut again));
    assert_eq!(
        result_for(&again.result_resources(), "ConfigMap", "b")["message"],
        "configmap/b unchanged",
        "without the option everything is applied"
    );
}

/// Audit 3 L3, M6: objects that fail to apply for the same reason give it once.
#[test]
fn a_reason_shared_by_failed_objects_is_given_once() {
    let env = new_env();
    let mut run = run_for(
        &env,
        "absent",
        &[cm("one", json!({})), cm("two", json!({}))],
        false,
    );
    assert_eq!(
        failed(finish(&env, &mut run)),
        "one or more objects failed to apply, reason: namespaces \"absent\" not found"
    );
    assert_eq!(
        lines(&run),
        [
            "ConfigMap | one | Sync | Failed | SyncFailed | namespaces \"absent\" not found",
            "ConfigMap | two | Sync | Failed | SyncFailed | namespaces \"absent\" not found",
        ]
    );
}

/// A refused patch names kubectl's manifest file (`error when patching "/dev/shm/<n>"`), which
/// gitops-engine does not cut as it cuts a refused create's.
#[test]
fn a_refused_patch_names_the_manifest_file() {
    let env = new_env();
    let job = |script: &str| {
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "smoke"},
            "spec": {"backoffLimit": 0, "template": {"spec": {"restartPolicy": "Never",
                "containers": [{"name": "c", "image": "busybox:1.36", "command": ["sh", "-c", script]}]}}}})
    };
    let mut first = run_for(&env, "default", &[job("echo ok")], false);
    succeeded(finish(&env, &mut first));
    let mut run = run_for(&env, "default", &[job("echo changed")], false);
    let message = failed(finish(&env, &mut run));
    let reason = message
        .strip_prefix(
            "one or more objects failed to apply, reason: error when patching \"/dev/shm/",
        )
        .unwrap_or_else(|| panic!("{message}"));
    let (digits, rest) = reason.split_once('"').unwrap();
    assert!(digits.parse::<u32>().is_ok(), "{digits}");
    assert!(
        rest.starts_with(": Job.batch \"smoke\" is invalid: spec.template: Invalid value: ")
            && rest.ends_with("field is immutable"),
        "{rest}"
    );
}

/// Differential `heal-retry/adopt`: an object created without the last-applied annotation is
/// adopted with kubectl's warning after the result.
#[test]
fn adopting_an_object_carries_kubectls_warning() {
    let env = new_env();
    let ty = &crate::kinds::CONFIG_MAP;
    ops::create(
        &env.store,
        ty,
        "default",
        cm("adopt", json!({})),
        &Actor::new("kubectl-create"),
    )
    .unwrap();
    let mut desired = cm("adopt", json!({}));
    desired["data"]["a"] = json!("1");
    let mut run = run_for(&env, "default", &[desired], false);
    succeeded(finish(&env, &mut run));
    assert_eq!(
        lines(&run),
        [
            "ConfigMap | adopt | Sync | Running | Synced | configmap/adopt configured. Warning: resource configmaps/adopt is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by  apply.  apply should only be used on resources created declaratively by either  create --save-config or  apply. The missing annotation will be patched automatically."
        ]
    );
}

/// Differential `sync-options/validate`: kubectl sends no `fieldValidation`, so the API server
/// drops an unknown field (kept in the last-applied annotation), and a later apply of the
/// same manifest still has something to send: `configured`, never `unchanged`.
#[test]
fn an_unknown_field_is_dropped_by_the_server() {
    let env = new_env();
    let mut bad = cm("bad", json!({}));
    bad["dataa"] = json!({"c": "d"});
    let mut run = run_for(&env, "default", std::slice::from_ref(&bad), false);
    succeeded(finish(&env, &mut run));
    assert_eq!(
        lines(&run),
        ["ConfigMap | bad | Sync | Running | Synced | configmap/bad created"]
    );
    let stored = get(&env, "v1", "ConfigMap", "default", "bad");
    assert!(stored.get("dataa").is_none(), "{stored}");
    let last =
        stored["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"]
            .as_str()
            .unwrap();
    assert!(last.contains("\"dataa\":{\"c\":\"d\"}"), "{last}");
    let mut again = run_for(&env, "default", &[bad], false);
    assert!(
        again.tasks[0].modified == Some(true),
        "the manifest still differs"
    );
    succeeded(finish(&env, &mut again));
    assert_eq!(
        lines(&again),
        ["ConfigMap | bad | Sync | Running | Synced | configmap/bad configured"]
    );
}

/// Differential `sync-options/create-ns`: the created namespace is Go's `corev1.Namespace`
/// made unstructured, so its last-applied annotation has `spec: {}` and `status: {}`.
#[test]
fn the_created_namespace_is_a_go_namespace() {
    let env = new_env();
    let mut run = run_for(&env, "fresh", &[cm("one", json!({}))], true);
    succeeded(finish(&env, &mut run));
    let ns = get(&env, "v1", "Namespace", "", "fresh");
    assert_eq!(
        ns["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"],
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"annotations\":{},\"name\":\"fresh\"},\"spec\":{},\"status\":{}}\n"
    );
}

/// Differential `sync-options/ns-metadata`: with `managedNamespaceMetadata` the namespace gets
/// its labels and annotations server-side (plus `ServerSideApply=true`, no last-applied), and
/// its task stays: Succeeded once it exists. An existing namespace is synced again each time.
#[test]
fn managed_namespace_metadata_is_applied_server_side() {
    let env = new_env();
    let metadata = json!({"labels": {"team": "web"}, "annotations": {"owner": "me"}});
    let mut run = run_managed(
        &env,
        "meta",
        &[cm("one", json!({}))],
        Some(&metadata),
        |_, _| {},
    );
    assert_eq!(
        running(run.pass(&env)),
        "waiting for healthy state of /Namespace/meta"
    );
    let ns = get(&env, "v1", "Namespace", "", "meta");
    assert_eq!(ns["metadata"]["labels"]["team"], "web");
    assert_eq!(
        ns["metadata"]["annotations"],
        json!({"owner": "me", "argocd.argoproj.io/sync-options": "ServerSideApply=true"})
    );
    succeeded(finish(&env, &mut run));
    assert_eq!(
        lines(&run),
        [
            "Namespace | meta | PreSync | Succeeded | Synced | namespace/meta serverside-applied",
            "ConfigMap | one | Sync | Running | Synced | configmap/one created",
        ]
    );
    // The namespace exists: a task like any other, applied in its own step.
    let metadata = json!({"labels": {"team": "api"}});
    let mut run = run_managed(
        &env,
        "meta",
        &[cm("one", json!({}))],
        Some(&metadata),
        |_, _| {},
    );
    succeeded(finish(&env, &mut run));
    assert_eq!(
        get(&env, "v1", "Namespace", "", "meta")["metadata"]["labels"]["team"],
        "api"
    );
    assert_eq!(
        lines(&run)[0],
        "Namespace | meta | PreSync | Succeeded | Synced | namespace/meta serverside-applied"
    );
    // Without metadata an existing namespace is left alone.
    let run = run_for(&env, "meta", &[cm("one", json!({}))], true);
    assert!(run.tasks.iter().all(|t| t.ty.kind != "Namespace"));
}

/// An object that fails to apply starts the SyncFail hooks; the operation fails once they
/// have run, as one whose tasks completed unsuccessfully.
#[test]
fn a_failed_apply_runs_the_sync_fail_hooks() {
    let env = new_env();
    let hook = super::tests::job("on-fail", json!({"argocd.argoproj.io/hook": "SyncFail"}));
    let mut elsewhere = cm("one", json!({}));
    elsewhere["metadata"]["namespace"] = json!("absent");
    let mut run = run_for(&env, "default", &[elsewhere, hook], false);
    assert_eq!(
        running(run.pass(&env)),
        "waiting for completion of hook batch/Job/on-fail"
    );
    let key = Key::new(&crate::kinds::JOB, "default", "on-fail");
    let done =
        json!({"status": {"succeeded": 1, "conditions": [{"type": "Complete", "status": "True"}]}});
    ops::merge(&env.store, &key, &done, ops::Part::Status, "test").unwrap();
    assert_eq!(
        failed(finish(&env, &mut run)),
        "one or more synchronization tasks completed unsuccessfully, reason: namespaces \"absent\" not found"
    );
}

/// An unserved kind is named as discovery names it: a group-version the cluster does not
/// serve at all, or one it serves without that kind (a NotFound after the kind; the real lab's
/// answer for the first, gitops-engine's `ServerResourceForGroupVersionKind` for both).
#[test]
fn an_unserved_kind_is_named_as_discovery_names_it() {
    assert_eq!(
        super::discovery_error(crate::kinds::unserved("nothing.example.com/v1", "Gadget")),
        "failed to discover server resources for group version nothing.example.com/v1: the server could not find the requested resource"
    );
    assert_eq!(
        super::discovery_error(crate::kinds::unserved("apps/v1", "Widget")),
        "Widget.apps \"\" not found"
    );
    assert_eq!(
        super::discovery_error(crate::kinds::unserved("v1", "Gizmo")),
        "Gizmo \"\" not found"
    );
}
