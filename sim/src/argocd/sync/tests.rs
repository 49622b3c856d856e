//! The sync engine pass by pass against an in-memory store (no controllers run, so a Job stays
//! Progressing and a hook stays Running until a test says otherwise).

use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::{Options, Outcome, RECHECK, Run, WAVE_DELAY, build, message};
use crate::argocd::compare;
use crate::argocd::sync::{BuildInput, NamespaceInput};
use crate::controllers::Env;
use crate::kinds::by_kind;
use crate::logs::LogBook;
use crate::ops::{self, Actor};
use crate::store::{Key, Store};

pub(super) const REVISION: &str = "3f2a9c1d00aa3f2a9c1d00aa3f2a9c1d00aa3f2a";

pub(super) fn new_env() -> Env {
    let store = Store::in_memory(1.0);
    crate::bootstrap::seed(&store);
    Env {
        store,
        logs: Arc::new(LogBook::default()),
        events: Arc::default(),
    }
}

pub(super) fn cm(name: &str, annotations: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "annotations": annotations}, "data": {"a": "b"}})
}

pub(super) fn job(name: &str, annotations: Value) -> Value {
    json!({"apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": name, "annotations": annotations},
        "spec": {"backoffLimit": 0, "template": {"spec": {"restartPolicy": "Never",
            "containers": [{"name": "c", "image": "busybox:1.36", "command": ["sh", "-c", "true"]}]}}}})
}

/// A run over `manifests` for an app whose destination is `dest`.
pub(super) fn run_for(env: &Env, dest: &str, manifests: &[Value], create_namespace: bool) -> Run {
    run_with(env, dest, manifests, |input, _| {
        if !create_namespace {
            input.namespace = None;
        }
    })
}

/// A run over `manifests` (with `CreateNamespace=true`) whose input and options `setup` may
/// change first.
pub(super) fn run_with(
    env: &Env,
    dest: &str,
    manifests: &[Value],
    setup: impl FnOnce(&mut BuildInput, &mut Options),
) -> Run {
    run_managed(env, dest, manifests, None, setup)
}

/// `run_with` for an app whose `managedNamespaceMetadata` is `metadata`.
pub(super) fn run_managed(
    env: &Env,
    dest: &str,
    manifests: &[Value],
    metadata: Option<&Value>,
    setup: impl FnOnce(&mut BuildInput, &mut Options),
) -> Run {
    let app_options = crate::argocd::options::SyncOptions::default();
    let scope = compare::Scope {
        app: "app",
        dest_namespace: dest,
        options: &app_options,
        namespace_metadata_changed: false,
    };
    let comparison = compare::compare(&env.store, &scope, Some(manifests), &[]);
    let ns_ty = &crate::kinds::NAMESPACE;
    let mut input = BuildInput {
        comparison: &comparison,
        revision: REVISION,
        started_at_unix: 1_760_000_000,
        dest_namespace: dest,
        namespace: Some(NamespaceInput {
            live: env.store.get(&Key::new(ns_ty, "", dest)),
            metadata,
        }),
        only: None,
        skip_hooks: false,
        prune_last: false,
        skip_dry_run_on_missing: false,
    };
    let mut options = Options::default();
    setup(&mut input, &mut options);
    let managed = input
        .namespace
        .as_ref()
        .is_some_and(|n| n.metadata.is_some());
    let built = build(&input);
    Run::new(REVISION.into(), Value::Null, built, options, managed)
}

/// Ends the wave delay the run is in, as if its 2 s had passed.
pub(super) fn end_pause(run: &mut Run) {
    let (_, message) = run.paused.take().expect("the run is pausing");
    run.paused = Some((Timestamp::UNIX_EPOCH, message));
}

pub(super) fn running(outcome: Outcome) -> String {
    match outcome {
        Outcome::Running { message, .. } => message,
        other => panic!("expected Running, got {other:?}"),
    }
}

pub(super) fn paused(outcome: Outcome) -> Duration {
    match outcome {
        Outcome::Paused { wait } => wait,
        other => panic!("expected Paused, got {other:?}"),
    }
}

pub(super) fn exists(env: &Env, api_version: &str, kind: &str, ns: &str, name: &str) -> bool {
    let ty = by_kind(api_version, kind).unwrap();
    env.store.get(&Key::new(ty, ns, name)).is_some()
}

pub(super) fn result_for<'a>(results: &'a [Value], kind: &str, name: &str) -> &'a Value {
    results
        .iter()
        .find(|r| r["kind"] == kind && r["name"] == name)
        .unwrap_or_else(|| panic!("{kind}/{name} in {results:?}"))
}

#[test]
fn a_non_final_step_is_written_after_its_pause_saying_what_it_waits_for() {
    let env = new_env();
    let manifests = [
        cm("first", json!({"argocd.argoproj.io/sync-wave": "-1"})),
        cm("second", json!({})),
    ];
    let mut run = run_for(&env, "default", &manifests, false);
    // Applied, then the 2 s pause: nothing is written during it.
    assert!(paused(run.pass(&env)) >= WAVE_DELAY - Duration::from_millis(100));
    assert!(exists(&env, "v1", "ConfigMap", "default", "first"));
    assert!(paused(run.pass(&env)) > Duration::ZERO, "still pausing");
    end_pause(&mut run);
    assert_eq!(
        running(run.pass(&env)),
        "waiting for healthy state of /ConfigMap/first"
    );
    match run.pass(&env) {
        Outcome::Succeeded { message } => {
            assert_eq!(message, "successfully synced (all tasks run)")
        }
        other => panic!("the final wave ends the operation: {other:?}"),
    }
}

#[test]
fn a_hook_step_waits_for_completion_of_the_hook() {
    let env = new_env();
    let manifests = [
        job("pre", json!({"argocd.argoproj.io/hook": "PreSync"})),
        cm("settings", json!({})),
    ];
    let mut run = run_for(&env, "default", &manifests, false);
    paused(run.pass(&env));
    end_pause(&mut run);
    assert_eq!(
        running(run.pass(&env)),
        "waiting for completion of hook batch/Job/pre"
    );
    assert_eq!(
        running(run.pass(&env)),
        "waiting for completion of hook batch/Job/pre",
        "the Job has no status yet: it is still running"
    );
}

#[test]
fn running_messages_name_the_first_hook_and_count_the_rest() {
    let env = new_env();
    let manifests = [
        cm("a", json!({"argocd.argoproj.io/hook": "PreSync"})),
        job("pre", json!({"argocd.argoproj.io/hook": "PreSync"})),
        job("zz", json!({"argocd.argoproj.io/hook": "PreSync"})),
        cm("settings", json!({})),
    ];
    let run = run_for(&env, "default", &manifests, false);
    let hooks: Vec<_> = run.tasks.iter().filter(|t| t.hook.is_some()).collect();
    assert_eq!(
        message::running_phase(&hooks, false),
        "waiting for completion of hook /ConfigMap/a and 2 more hooks"
    );
    let mixed: Vec<_> = run.tasks.iter().collect();
    assert_eq!(
        message::running_phase(&mixed, false),
        "waiting for completion of hook /ConfigMap/a and 3 more resources"
    );
    let plain: Vec<_> = run.tasks.iter().filter(|t| t.hook.is_none()).collect();
    assert_eq!(
        message::running_phase(&plain, false),
        "waiting for healthy state of /ConfigMap/settings"
    );
    assert_eq!(
        message::running_phase(&hooks[1..2], true),
        "waiting for deletion of hook batch/Job/pre"
    );
}

#[test]
fn the_auto_created_namespace_is_a_pass_of_its_own_and_keeps_its_running_result() {
    let env = new_env();
    let mut run = run_for(&env, "fresh", &[cm("settings", json!({}))], true);
    assert_eq!(
        running(run.pass(&env)),
        "waiting for healthy state of /Namespace/fresh"
    );
    assert!(exists(&env, "v1", "Namespace", "", "fresh"));
    assert!(!exists(&env, "v1", "ConfigMap", "fresh", "settings"));
    // No wave delay follows the namespace: the next pass applies the (only, final) step.
    match run.pass(&env) {
        Outcome::Succeeded { message } => {
            assert_eq!(message, "successfully synced (all tasks run)")
        }
        other => panic!("no pause after the namespace: {other:?}"),
    }
    let results = run.result_resources();
    assert_eq!(results[0]["kind"], "Namespace", "{results:?}");
    assert_eq!(
        results[0],
        json!({"group": "", "version": "v1", "kind": "Namespace", "namespace": "", "name": "fresh",
            "status": "Synced", "message": "namespace/fresh created", "hookPhase": "Running",
            "syncPhase": "PreSync"}),
        "the namespace task is dropped once the namespace exists, so its result stays Running"
    );
}

#[test]
fn terminating_fails_running_hooks_with_terminated() {
    let env = new_env();
    let manifests = [
        job("pre", json!({"argocd.argoproj.io/hook": "PreSync"})),
        job("gone", json!({"argocd.argoproj.io/hook": "PreSync"})),
        cm("settings", json!({})),
    ];
    let mut run = run_for(&env, "default", &manifests, false);
    paused(run.pass(&env));
    end_pause(&mut run);
    running(run.pass(&env));
    // One hook's object vanished before the terminate: real records it as Succeeded.
    let job_ty = &crate::kinds::JOB;
    super::hookops::delete_hook(&env, &Key::new(job_ty, "default", "gone"));
    assert!(!exists(&env, "batch/v1", "Job", "default", "gone"));
    assert!(run.terminate(&env), "termination had no errors");
    let results = run.result_resources();
    let pre = result_for(&results, "Job", "pre");
    assert_eq!(
        (pre["hookPhase"].as_str(), pre["message"].as_str()),
        (Some("Failed"), Some("Terminated"))
    );
    let gone = result_for(&results, "Job", "gone");
    assert_eq!(
        (gone["hookPhase"].as_str(), gone["message"].as_str()),
        (Some("Succeeded"), Some("Terminated"))
    );
    assert!(
        !exists(&env, "batch/v1", "Job", "default", "pre"),
        "running hooks are deleted"
    );
}

#[test]
fn a_before_hook_creation_delete_pass_pauses_unless_it_is_the_final_wave() {
    let env = new_env();
    let actor = Actor::new("test");
    let job_ty = &crate::kinds::JOB;
    let old = job("pre", json!({"argocd.argoproj.io/hook": "PreSync"}));
    ops::create(&env.store, job_ty, "default", old.clone(), &actor).unwrap();
    let mut run = run_for(
        &env,
        "default",
        &[old.clone(), cm("settings", json!({}))],
        false,
    );
    assert!(paused(run.pass(&env)) >= WAVE_DELAY - Duration::from_millis(100));
    assert!(
        !exists(&env, "batch/v1", "Job", "default", "pre"),
        "deleted first"
    );
    end_pause(&mut run);
    assert_eq!(
        running(run.pass(&env)),
        "waiting for deletion of hook batch/Job/pre"
    );
    paused(run.pass(&env));
    assert!(
        exists(&env, "batch/v1", "Job", "default", "pre"),
        "created anew"
    );

    // A hook alone is the final wave: no pause after its delete pass.
    let env = new_env();
    ops::create(&env.store, job_ty, "default", old.clone(), &actor).unwrap();
    let mut run = run_for(&env, "default", &[old], false);
    match run.pass(&env) {
        Outcome::Running { message, wait } => {
            assert_eq!(message, "waiting for deletion of hook batch/Job/pre");
            assert_eq!(wait, RECHECK);
        }
        other => panic!("{other:?}"),
    }
}

/// A sync resumed after a restart (docs/sim-behaviour.md §4): the tasks that have a result
/// are not run again, so a PreSync hook that already ran never runs after a later wave, and
/// the operation carries on at the wave it had reached with its results in their order.
#[test]
fn a_resumed_sync_never_runs_a_recorded_task_again() {
    let env = new_env();
    let manifests = [
        job("migrate", json!({"argocd.argoproj.io/hook": "PreSync"})),
        cm("settings", json!({"argocd.argoproj.io/sync-wave": "-1"})),
        cm("app", json!({})),
    ];
    // Before the restart: the hook ran and succeeded, settings (wave -1) was applied.
    let mut first = run_for(&env, "default", &manifests, false);
    paused(first.pass(&env));
    let key = Key::new(&crate::kinds::JOB, "default", "migrate");
    let done =
        json!({"status": {"succeeded": 1, "conditions": [{"type": "Complete", "status": "True"}]}});
    ops::merge(&env.store, &key, &done, ops::Part::Status, "test").unwrap();
    end_pause(&mut first);
    running(first.pass(&env));
    paused(first.pass(&env));
    assert!(exists(&env, "v1", "ConfigMap", "default", "settings"));
    let recorded = first.result_resources();
    assert_eq!(recorded.len(), 2, "{recorded:?}");

    // After it: a new run over the same manifests, given what the operation recorded.
    let mut resumed = run_for(&env, "default", &manifests, false);
    resumed.resume_from(&recorded);
    let step = resumed.next_step().expect("a step is left");
    let names: Vec<&str> = step
        .iter()
        .map(|i| resumed.tasks[*i].name.as_str())
        .collect();
    assert_eq!(names, ["app"], "only the wave not reached runs");
    let created = env
        .store
        .get(&Key::new(
            by_kind("batch/v1", "Job").unwrap(),
            "default",
            "migrate",
        ))
        .unwrap()["metadata"]["uid"]
        .clone();
    resumed.pass(&env);
    let again = env
        .store
        .get(&Key::new(
            by_kind("batch/v1", "Job").unwrap(),
            "default",
            "migrate",
        ))
        .unwrap()["metadata"]["uid"]
        .clone();
    assert_eq!(created, again, "the hook Job is not made again");
    let results = resumed.result_resources();
    let order: Vec<&str> = results
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["migrate", "settings", "app"]);
    assert_eq!(
        result_for(&results, "Job", "migrate")["hookPhase"],
        "Succeeded"
    );
}
