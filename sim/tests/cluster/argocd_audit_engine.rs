//! Fidelity audit 1, end to end: what the sync engine writes between steps and when, watched
//! through the API server as a learner's `kubectl get -w` would see it; the auto-created
//! namespace; manifests Argo CD refuses to render. Item numbers are the audit's.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::StreamExt;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use kube::runtime::watcher::{self, Event, watcher};
use serde_json::Value;

use crate::common::Lab;
use crate::common::{apply_app, cm, job, lab_with_repo, op_state};
use crate::common::{commit_and_push, comparison_error, src_repo, synced_healthy, wait_app, write};

/// Every change the API server streams for one kind: when it arrived, whether it was a
/// delete, and the object.
struct Recording {
    seen: Arc<Mutex<Vec<(Instant, bool, Value)>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Recording {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Recording {
    /// Starts watching (all namespaces) and returns once the watch is established.
    async fn start(lab: &Lab, group: &str, version: &str, kind: &str) -> Recording {
        let resource = ApiResource::from_gvk(&GroupVersionKind::gvk(group, version, kind));
        let api: Api<DynamicObject> = Api::all_with(lab.client().await, &resource);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        let (ready, is_ready) = tokio::sync::oneshot::channel();
        let task = tokio::spawn(async move {
            let mut ready = Some(ready);
            let mut stream = watcher(api, watcher::Config::default()).boxed();
            while let Some(event) = stream.next().await {
                let (deleted, obj) = match event {
                    Ok(Event::Apply(o)) => (false, o),
                    Ok(Event::Delete(o)) => (true, o),
                    Ok(Event::InitDone) => {
                        if let Some(r) = ready.take() {
                            let _ = r.send(());
                        }
                        continue;
                    }
                    _ => continue,
                };
                let obj = serde_json::to_value(&obj).unwrap();
                sink.lock().unwrap().push((Instant::now(), deleted, obj));
            }
        });
        tokio::time::timeout(Duration::from_secs(30), is_ready)
            .await
            .expect("the watch starts")
            .unwrap();
        Recording { seen, task }
    }

    fn events(&self) -> Vec<(Instant, bool, Value)> {
        self.seen.lock().unwrap().clone()
    }

    /// The first event about `name` that `check` accepts.
    fn first(&self, name: &str, check: impl Fn(bool, &Value) -> bool) -> Option<(Instant, Value)> {
        self.events()
            .into_iter()
            .find(|(_, deleted, o)| o["metadata"]["name"] == name && check(*deleted, o))
            .map(|(at, _, o)| (at, o))
    }
}

/// Cluster seconds between two real instants on this lab's clock.
fn cluster_secs(lab: &Lab, from: Instant, to: Instant) -> f64 {
    to.duration_since(from).as_secs_f64() * lab.speed
}

fn results_name(app: &Value, name: &str) -> bool {
    op_state(app)["syncResult"]["resources"]
        .as_array()
        .is_some_and(|r| r.iter().any(|r| r["name"] == name))
}

/// Audit items 3, 4 and 10: every message the operation carries is upstream's — the namespace
/// pass, then the hook, then the wave — and a step's result is written only after its 2 s
/// wave delay, together with what it waits for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn between_steps_the_operation_says_what_it_waits_for_audit_3_4_10() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "echo ok"),
    );
    write(
        &repo,
        "app/first.yaml",
        &cm("first", "argocd.argoproj.io/sync-wave: \"-1\"", "1"),
    );
    write(&repo, "app/second.yaml", &cm("second", "", "2"));
    commit_and_push(&repo, "waves").await;
    let apps = Recording::start(&lab, "argoproj.io", "v1alpha1", "Application").await;
    let configmaps = Recording::start(&lab, "", "v1", "ConfigMap").await;
    apply_app(&lab, "steps", "app", "", "").await;
    wait_app(&lab, "steps", "Succeeded", |a| {
        op_state(a)["phase"] == "Succeeded"
    })
    .await;
    let mut messages: Vec<String> = Vec::new();
    for (_, _, app) in apps.events() {
        if app["metadata"]["name"] != "steps" {
            continue;
        }
        if let Some(m) = op_state(&app)["message"].as_str()
            && messages.last().map(String::as_str) != Some(m)
        {
            messages.push(m.to_string());
        }
    }
    assert_eq!(
        messages,
        [
            "waiting for healthy state of /Namespace/steps",
            "waiting for completion of hook batch/Job/pre",
            "waiting for healthy state of /ConfigMap/first",
            "successfully synced (all tasks run)",
        ],
        "the messages the operation carried, in order"
    );
    let (created, _) = configmaps
        .first("first", |deleted, o| {
            !deleted && o["metadata"]["namespace"] == "steps"
        })
        .expect("first was created");
    let (listed, app) = apps
        .first("steps", |_, a| results_name(a, "first"))
        .expect("first appears in syncResult");
    assert_eq!(
        op_state(&app)["message"],
        "waiting for healthy state of /ConfigMap/first",
        "a step's results are written with what it waits for"
    );
    let gap = cluster_secs(&lab, created, listed);
    assert!(
        gap >= 1.8,
        "first is listed {gap:.2} s (cluster) after it was created: the 2 s wave delay comes first"
    );
}

/// Audit item 4: the auto-created namespace is created in a pass of its own — no wave delay
/// follows it — and its result stays as upstream leaves it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_auto_created_namespace_adds_no_wave_delay_audit_4() {
    // Slower than real time, so that whole-second creation timestamps tell 2 s apart even on
    // a loaded machine.
    let lab = Lab::start_with(capa_sim::Config {
        speed: 0.5,
        ..Default::default()
    })
    .await;
    let repo = src_repo(&lab).await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "cm").await;
    apply_app(&lab, "nsfirst", "app", "", "").await;
    let app = wait_app(&lab, "nsfirst", "Synced", synced_healthy).await;
    let namespace = op_state(&app)["syncResult"]["resources"][0].clone();
    assert_eq!(
        namespace,
        serde_json::json!({"group": "", "version": "v1", "kind": "Namespace", "namespace": "",
            "name": "nsfirst", "status": "Synced", "message": "namespace/nsfirst created",
            "hookPhase": "Running", "syncPhase": "PreSync"}),
        "the namespace task is dropped once the namespace exists, so its result stays Running"
    );
    let created = |v: Value| {
        v["metadata"]["creationTimestamp"]
            .as_str()
            .unwrap()
            .parse::<jiff::Timestamp>()
            .unwrap()
    };
    let ns = created(lab.kubectl_json(&["get", "ns", "nsfirst"]).await);
    let settings = created(
        lab.kubectl_json(&["-n", "nsfirst", "get", "cm", "settings"])
            .await,
    );
    let gap = settings.duration_since(ns).as_secs();
    assert!(
        gap <= 1,
        "settings came {gap} s after its namespace: no wave delay after the namespace pass"
    );
}

/// Audit item 10: a BeforeHookCreation delete pass is followed by the wave delay before the
/// hook is created again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_before_hook_creation_delete_is_followed_by_the_wave_delay_audit_10() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/pre.yaml",
        &job("pre", "argocd.argoproj.io/hook: PreSync", "echo ok"),
    );
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "hooked").await;
    apply_app(&lab, "again", "app", "", "").await;
    wait_app(&lab, "again", "Synced", synced_healthy).await;
    let jobs = Recording::start(&lab, "batch", "v1", "Job").await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "2"));
    let sha = commit_and_push(&repo, "change").await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "annotate",
        "app",
        "again",
        "argocd.argoproj.io/refresh=normal",
        "--overwrite",
    ])
    .await;
    wait_app(&lab, "again", "synced to the change", |a| {
        synced_healthy(a) && op_state(a)["syncResult"]["revision"] == sha.as_str()
    })
    .await;
    let in_ns = |o: &Value| o["metadata"]["namespace"] == "again";
    let (deleted_at, _) = jobs
        .first("pre", |deleted, o| deleted && in_ns(o))
        .expect("the old hook was deleted");
    let recreated = jobs
        .events()
        .into_iter()
        .find(|(at, deleted, o)| {
            *at > deleted_at && !*deleted && o["metadata"]["name"] == "pre" && in_ns(o)
        })
        .map(|(at, _, _)| at)
        .expect("the hook was created again");
    let gap = cluster_secs(&lab, deleted_at, recreated);
    assert!(
        gap >= 1.8,
        "the hook came back {gap:.2} s (cluster) after its delete: the wave delay comes between"
    );
}

/// Audit item 2: an unquoted `sync-wave: -1` is a number, not a string: the repo server
/// refuses to render, the app shows a ComparisonError and Unknown, and nothing is synced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unquoted_sync_wave_fails_manifest_generation_audit_2() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  annotations:\n    argocd.argoproj.io/sync-wave: -1\ndata: {mode: blue}\n",
    );
    commit_and_push(&repo, "unquoted wave").await;
    apply_app(&lab, "unquoted", "app", "", "").await;
    let (app, condition) = comparison_error(&lab, "unquoted").await;
    assert_eq!(
        condition["message"],
        "Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = failed to set app instance tracking info on manifest: failed to get annotations for /v1, Kind=ConfigMap /settings: .metadata.annotations accessor error: contains non-string value in the map under key \"argocd.argoproj.io/sync-wave\": -1 is of the type int64, expected string"
    );
    assert_eq!(app["status"]["sync"]["status"], "Unknown");
    tokio::time::sleep(lab.handle_real(Duration::from_secs(10))).await;
    let app = lab
        .kubectl_json(&["-n", "argocd", "get", "app", "unquoted"])
        .await;
    assert!(
        app["status"]["operationState"].is_null(),
        "no sync was started: {}",
        app["status"]["operationState"]
    );
    assert!(
        lab.kubectl_fails(&["-n", "unquoted", "get", "cm", "settings"])
            .await
            .contains("not found")
    );
}
