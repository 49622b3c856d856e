//! A small kubelet: Pods start after a short delay, turn Ready after their readinessProbe's
//! `initialDelaySeconds + periodSeconds`, and Pods that run to completion (restartPolicy Never
//! or OnFailure, i.e. Jobs) run their command in the built-in shell, their output going to the
//! Pod log at the times the script's `sleep`s decide. Images are never pulled.

use std::collections::HashMap;
use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::replicaset::status_patch;
use super::{Env, MANAGER, events};
use crate::clock::rfc3339;
use crate::objects;
use crate::ops::{self, Part};
use crate::shell::{self, Step, Trace};
use crate::store::{Event, EventType, Key};

use super::node::NODE_IP;
pub use super::node::NODE_NAME;
/// Cluster time from Pod creation to its containers running (image already present).
const START_DELAY: Duration = Duration::from_secs(1);

#[derive(Default)]
pub struct Kubelet {
    runs: HashMap<String, Run>,
}

/// What the kubelet remembers of a Pod it runs.
struct Run {
    first_seen: Timestamp,
    announced: bool,
    /// For run-to-completion Pods: each container's script, and how many steps were logged.
    scripts: Vec<(String, Result<Trace, String>, usize)>,
}

impl Controller for Kubelet {
    fn keys_for(&self, env: &Env, event: &Event) -> Vec<Key> {
        if event.key.ty().kind != "Pod" {
            return Vec::new();
        }
        if event.kind == EventType::Deleted {
            env.logs.forget_pod(&event.key.namespace, &event.key.name);
            stopping(env, &event.object);
        }
        vec![event.key.clone()]
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        let pod = &crate::kinds::POD;
        env.store
            .list(pod, None)
            .0
            .iter()
            .map(|o| Key::new(pod, objects::namespace(o), objects::name(o)))
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(pod) = env.store.get(key) else {
            self.runs.retain(|_, r| {
                r.first_seen > env.store.clock.now() - jiff::SignedDuration::from_hours(1)
            });
            return Next::Done;
        };
        match pod["spec"]["nodeName"].as_str() {
            None | Some("") => {
                // The scheduler's part: every Pod goes to the one node, whoever created it.
                schedule(env, &pod);
                return Next::Done;
            }
            // Bound to a node that does not exist: no kubelet will ever run it.
            Some(node) if node != NODE_NAME => return Next::Done,
            Some(_) => {}
        }
        let phase = pod["status"]["phase"].as_str().unwrap_or("Pending");
        let uid = objects::uid(&pod).to_string();
        if objects::is_deleting(&pod) || matches!(phase, "Succeeded" | "Failed") {
            self.runs.remove(&uid);
            return Next::Done;
        }
        let now = env.store.clock.now();
        // A Pod this kubelet has not seen may still have run before (a restarted cluster): it
        // carries on from its recorded start rather than starting over.
        let first_seen = pod["status"]["startTime"]
            .as_str()
            .and_then(crate::clock::parse)
            .filter(|t| *t <= now)
            .unwrap_or(now);
        let resumed = first_seen < now;
        let run = self.runs.entry(uid).or_insert_with(|| {
            if resumed {
                open_logs(env, &pod, first_seen + START_DELAY);
            }
            Run {
                first_seen,
                announced: resumed,
                scripts: scripts(&pod),
            }
        });
        let elapsed = now.duration_since(run.first_seen).unsigned_abs();
        let started_at = run.first_seen + START_DELAY;
        if elapsed < START_DELAY {
            write_status(env, &pod, &pending_status(&pod, run.first_seen));
            return Next::After(START_DELAY - elapsed);
        }
        if !run.announced {
            run.announced = true;
            open_logs(env, &pod, started_at);
            announce(env, &pod);
        }
        let ran_for = elapsed - START_DELAY;
        if pod["spec"]["restartPolicy"] == "Always" {
            let ready_after = readiness_delay(&pod);
            let ready = ran_for >= ready_after;
            write_status(
                env,
                &pod,
                &running_status(&pod, run.first_seen, started_at, ready, &[]),
            );
            // A command's output goes on being logged; its end is not simulated (no restarts).
            let (_, output_due) = advance_scripts(env, &pod, run, started_at, ran_for);
            let ready_due = (!ready).then(|| ready_after - ran_for);
            return match (ready_due, output_due) {
                (Some(a), Some(b)) => Next::After(a.min(b)),
                (Some(d), None) | (None, Some(d)) => Next::After(d),
                (None, None) => Next::Done,
            };
        }
        run_to_completion(env, &pod, run, started_at, ran_for)
    }
}

/// A container that exited: name, exit code, message, and how long it ran.
type Exited = (String, i32, Option<String>, Duration);

/// Runs each container's script until it exits; the Pod ends when all have.
fn run_to_completion(
    env: &Env,
    pod: &Value,
    run: &mut Run,
    started_at: Timestamp,
    ran_for: Duration,
) -> Next {
    let (finished, next_wake) = advance_scripts(env, pod, run, started_at, ran_for);
    let all_done = finished.len() == run.scripts.len();
    if !all_done {
        let status = running_status(pod, run.first_seen, started_at, true, &[]);
        write_status(env, pod, &status);
        return Next::After(next_wake.unwrap_or(Duration::from_millis(100)));
    }
    let status = running_status(pod, run.first_seen, started_at, false, &finished);
    write_status(env, pod, &status);
    Next::Done
}

/// Advances each container's script to `ran_for`, logging what it printed at the time it
/// printed it. Returns the containers whose script has ended, and when to look again.
fn advance_scripts(
    env: &Env,
    pod: &Value,
    run: &mut Run,
    started_at: Timestamp,
    ran_for: Duration,
) -> (Vec<Exited>, Option<Duration>) {
    let (ns, name) = (objects::namespace(pod), objects::name(pod));
    let mut next_wake: Option<Duration> = None;
    let mut finished: Vec<Exited> = Vec::new();
    for (container, script, logged) in &mut run.scripts {
        match script {
            Err(message) => {
                if *logged == 0 {
                    env.logs
                        .append(ns, name, container, started_at, &format!("{message}\n"));
                    env.logs.finish(ns, name, container);
                    *logged = 1;
                }
                finished.push((
                    container.clone(),
                    127,
                    Some(message.clone()),
                    Duration::ZERO,
                ));
            }
            Ok(trace) => {
                let mut at = Duration::ZERO;
                for (i, step) in trace.steps.iter().enumerate() {
                    if at > ran_for {
                        next_wake = Some(next_wake.map_or(at - ran_for, |w| w.min(at - ran_for)));
                        break;
                    }
                    match step {
                        Step::Output(text) if i >= *logged => {
                            let printed = started_at + at;
                            env.logs.append(ns, name, container, printed, text);
                            *logged = i + 1;
                        }
                        Step::Sleep(d) => {
                            at += *d;
                            *logged = (*logged).max(i + 1);
                        }
                        _ => {}
                    }
                }
                if at <= ran_for && *logged >= trace.steps.len() {
                    if !env
                        .logs
                        .view(ns, name, container, env.store.clock.now())
                        .is_some_and(|v| v.finished)
                    {
                        env.logs.finish(ns, name, container);
                    }
                    finished.push((container.clone(), trace.exit_code, None, at));
                } else if next_wake.is_none() {
                    next_wake = Some(at.saturating_sub(ran_for).max(Duration::from_millis(10)));
                }
            }
        }
    }
    (finished, next_wake)
}

/// Each container's command run in the built-in shell. A long-running Pod's containers
/// without a command run their image's own process instead (see [`super::startup`]).
fn scripts(pod: &Value) -> Vec<(String, Result<Trace, String>, usize)> {
    let always = pod["spec"]["restartPolicy"] == "Always";
    pod["spec"]["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| !always || has_command(c))
        .map(|c| {
            let argv: Vec<String> = ["command", "args"]
                .iter()
                .flat_map(|f| c[*f].as_array().cloned().unwrap_or_default())
                .filter_map(|v| v.as_str().map(String::from))
                .collect();
            let name = c["name"].as_str().unwrap_or_default().to_string();
            (name, shell::run(&argv).map_err(|e| e.to_string()), 0)
        })
        .collect()
}

/// The node's kubelet version (`v1.35.2+k3s1`), as its probes' User-Agent names it.
fn kubelet_version(env: &Env) -> String {
    env.store
        .get(&Key::new(&crate::kinds::NODE, "", NODE_NAME))
        .and_then(|n| {
            n["status"]["nodeInfo"]["kubeletVersion"]
                .as_str()
                .map(String::from)
        })
        .unwrap_or_default()
}

/// Whether the container's command is run in the built-in shell (not a known server image's).
fn has_command(container: &Value) -> bool {
    let image = container["image"].as_str().unwrap_or_default();
    ["command", "args"]
        .iter()
        .any(|f| container[*f].as_array().is_some_and(|a| !a.is_empty()))
        && !super::startup::runs_own_server(image)
}

/// initialDelaySeconds + periodSeconds of the slowest readinessProbe (0 when there is none).
fn readiness_delay(pod: &Value) -> Duration {
    pod["spec"]["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["readinessProbe"].is_object())
        .map(|c| {
            let p = &c["readinessProbe"];
            p["initialDelaySeconds"].as_u64().unwrap_or(0)
                + p["periodSeconds"].as_u64().unwrap_or(10)
        })
        .max()
        .map_or(Duration::ZERO, Duration::from_secs)
}

/// Binds an unscheduled Pod to the node, as the default scheduler does, and says so.
fn schedule(env: &Env, pod: &Value) {
    let (ns, name) = (objects::namespace(pod), objects::name(pod));
    if objects::is_deleting(pod) {
        return;
    }
    match ops::bind(&env.store, &crate::kinds::POD, ns, name, NODE_NAME) {
        Ok(bound) => events::record_scheduled(
            env,
            &bound,
            &format!("Successfully assigned {ns}/{name} to {NODE_NAME}"),
        ),
        Err(e) => tracing::debug!("pod {ns}/{name} not bound: {}", e.message),
    }
}

/// The containers start: their logs open, with the image's start-up output for a
/// long-running container without a command. (A restarted cluster, whose logs lived in memory,
/// opens them again for the Pods it resumes.)
fn open_logs(env: &Env, pod: &Value, started_at: Timestamp) {
    let (ns, name) = (objects::namespace(pod), objects::name(pod));
    let always = pod["spec"]["restartPolicy"] == "Always";
    for c in container_list(pod) {
        let cname = c["name"].as_str().unwrap_or_default();
        env.logs.start(ns, name, cname);
        if always && !has_command(c) {
            let image = c["image"].as_str().unwrap_or_default();
            let out = super::startup::lines(image, started_at);
            if !out.is_empty() {
                env.logs.append(ns, name, cname, started_at, &out);
            }
            for rule in super::startup::probe_lines(c, started_at, &kubelet_version(env)) {
                env.logs.repeat(ns, name, cname, rule);
            }
        }
    }
}

/// The kubelet's Events for each container it starts (about the container's field path).
fn announce(env: &Env, pod: &Value) {
    for c in pod["spec"]["containers"].as_array().into_iter().flatten() {
        let (cname, image) = (
            c["name"].as_str().unwrap_or_default(),
            c["image"].as_str().unwrap_or_default(),
        );
        let pulled = format!("Container image \"{image}\" already present on machine");
        events::record_container(env, pod, cname, "Pulled", &pulled);
        let created = format!("Created container: {cname}");
        events::record_container(env, pod, cname, "Created", &created);
        let started = format!("Started container {cname}");
        events::record_container(env, pod, cname, "Started", &started);
    }
}

fn pod_ip(pod: &Value) -> String {
    let n = objects::uid(pod)
        .bytes()
        .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    format!("10.42.0.{}", 2 + n % 250)
}

fn condition(kind: &str, ok: bool, at: &str, reason: Option<&str>) -> Value {
    let mut c = json!({"type": kind, "status": if ok { "True" } else { "False" }, "lastProbeTime": null, "lastTransitionTime": at});
    if let Some(r) = reason {
        c["reason"] = json!(r);
    }
    c
}

fn pending_status(pod: &Value, first_seen: Timestamp) -> Value {
    let at = rfc3339(first_seen);
    let waiting: Vec<Value> = container_list(pod)
        .map(|c| json!({"name": c["name"], "image": c["image"], "imageID": "", "ready": false, "restartCount": 0, "started": false, "state": {"waiting": {"reason": "ContainerCreating"}}, "lastState": {}}))
        .collect();
    json!({
        "phase": "Pending",
        "conditions": [
            condition("PodReadyToStartContainers", false, &at, None),
            condition("Initialized", true, &at, None),
            condition("Ready", false, &at, Some("ContainersNotReady")),
            condition("ContainersReady", false, &at, Some("ContainersNotReady")),
            condition("PodScheduled", true, &at, None),
        ],
        "hostIP": NODE_IP,
        "hostIPs": [{"ip": NODE_IP}],
        "startTime": at,
        "containerStatuses": waiting,
        "qosClass": "BestEffort",
    })
}

/// Status of a Pod whose containers run (`ready`), or have all exited (`finished` non-empty).
fn running_status(
    pod: &Value,
    first_seen: Timestamp,
    started_at: Timestamp,
    ready: bool,
    finished: &[(String, i32, Option<String>, Duration)],
) -> Value {
    let created = rfc3339(first_seen);
    let started = rfc3339(started_at);
    let done = !finished.is_empty();
    let succeeded = done && finished.iter().all(|f| f.1 == 0);
    let end = finished
        .iter()
        .map(|f| f.3)
        .max()
        .map(|d| rfc3339(started_at + d));
    let statuses: Vec<Value> = container_list(pod)
        .map(|c| {
            let cname = c["name"].as_str().unwrap_or_default();
            let id = format!("containerd://{:064x}", objects::uid(pod).len() as u128 * 0x9e37_79b9 + cname.len() as u128);
            let state = match finished.iter().find(|f| f.0 == cname) {
                Some((_, code, message, ran)) => {
                    let mut t = json!({"exitCode": code, "reason": if *code == 0 { "Completed" } else { "Error" }, "startedAt": started, "finishedAt": rfc3339(started_at + *ran), "containerID": id});
                    if let Some(m) = message {
                        t["message"] = json!(m);
                    }
                    json!({"terminated": t})
                }
                None => json!({"running": {"startedAt": started}}),
            };
            json!({"name": cname, "image": c["image"], "imageID": format!("docker.io/library/{}", c["image"].as_str().unwrap_or_default()), "containerID": id, "ready": ready && !done, "restartCount": 0, "started": !done, "state": state, "lastState": {}})
        })
        .collect();
    let ready_at = if done {
        end.clone().unwrap_or_else(|| started.clone())
    } else {
        started.clone()
    };
    let reason = if done {
        Some(if succeeded {
            "PodCompleted"
        } else {
            "PodFailed"
        })
    } else if ready {
        None
    } else {
        Some("ContainersNotReady")
    };
    let phase = match (done, succeeded) {
        (false, _) => "Running",
        (true, true) => "Succeeded",
        (true, false) => "Failed",
    };
    let ip = pod_ip(pod);
    json!({
        "phase": phase,
        "conditions": [
            condition("PodReadyToStartContainers", !done, &started, None),
            condition("Initialized", true, &created, if done { Some("PodCompleted") } else { None }),
            condition("Ready", ready && !done, &ready_at, reason),
            condition("ContainersReady", ready && !done, &ready_at, reason),
            condition("PodScheduled", true, &created, None),
        ],
        "hostIP": NODE_IP,
        "hostIPs": [{"ip": NODE_IP}],
        "podIP": ip,
        "podIPs": [{"ip": ip}],
        "startTime": created,
        "containerStatuses": statuses,
        "qosClass": "BestEffort",
    })
}

fn container_list(pod: &Value) -> impl Iterator<Item = &Value> {
    pod["spec"]["containers"].as_array().into_iter().flatten()
}

fn write_status(env: &Env, pod: &Value, status: &Value) {
    if pod["status"] == *status {
        return;
    }
    let patch = json!({"status": status_patch(&pod["status"], status)});
    let key = Key::new(
        &crate::kinds::POD,
        objects::namespace(pod),
        objects::name(pod),
    );
    let _ = ops::merge(&env.store, &key, &patch, Part::Status, MANAGER);
}

/// The kubelet stops a deleted Pod's started containers: `Killing`, `Stopping container <name>`.
fn stopping(env: &Env, pod: &Value) {
    let started = pod["status"]["containerStatuses"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["state"]["running"].is_object())
        .filter_map(|c| c["name"].as_str());
    for name in started {
        events::record(
            env,
            pod,
            false,
            "Killing",
            &format!("Stopping container {name}"),
            "kubelet",
        );
    }
}
