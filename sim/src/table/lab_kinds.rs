//! The Table printers of the lab's own kinds (Pod, Event, Service, Job), as Kubernetes 1.35's
//! printers fill their rows: the columns `kubectl get` shows for them.

use super::*;

/// Folds a container status's last termination into the latest restart seen so far.
fn latest(acc: Option<Timestamp>, status: &Value) -> Option<Timestamp> {
    acc.max(time(status, "/lastState/terminated/finishedAt"))
}

/// A terminated state's reason, or a made-up one from its signal or exit code.
fn terminated_reason(t: &Value, prefix: &str) -> String {
    match (text(t, "/reason"), int(t, "/signal")) {
        ("", 0) => format!("{prefix}ExitCode:{}", int(t, "/exitCode")),
        ("", signal) => format!("{prefix}Signal:{signal}"),
        (reason, _) => format!("{prefix}{reason}"),
    }
}

/// The pod printer: readiness, the status kubectl users know (`ContainerCreating`, `Completed`,
/// `Init:0/1`, `CrashLoopBackOff`, ...), and restarts with how long ago the last one was.
pub(super) fn pod_cells(name: &str, age: String, pod: &Value, now: Timestamp) -> Vec<Value> {
    let inits = list(pod, "/spec/initContainers");
    let sidecars = inits
        .iter()
        .filter(|c| sidecar(inits, text(c, "/name")))
        .count();
    let total = list(pod, "/spec/containers").len() + sidecars;
    let phase = text(pod, "/status/phase");
    let conds = list(pod, "/status/conditions");
    let mut reason = text_or(pod, "/status/reason", phase).to_owned();
    let gated =
        |c: &Value| text(c, "/type") == "PodScheduled" && text(c, "/reason") == "SchedulingGated";
    if conds.iter().any(gated) {
        reason = "SchedulingGated".into();
    }
    let (mut ready, mut restarts, mut sidecar_restarts) = (0, 0, 0);
    let (mut last_restart, mut last_sidecar_restart) = (None, None);
    let mut initializing = false;
    let init_statuses = list(pod, "/status/initContainerStatuses");
    for (i, st) in init_statuses.iter().enumerate() {
        let is_sidecar = sidecar(inits, text(st, "/name"));
        restarts += int(st, "/restartCount");
        last_restart = latest(last_restart, st);
        if is_sidecar {
            sidecar_restarts += int(st, "/restartCount");
            last_sidecar_restart = latest(last_sidecar_restart, st);
        }
        let terminated = st.pointer("/state/terminated").filter(|t| t.is_object());
        let waiting = text(st, "/state/waiting/reason");
        if terminated.is_some_and(|t| int(t, "/exitCode") == 0) {
            continue;
        } else if is_sidecar && is_true(st, "started") {
            ready += usize::from(is_true(st, "ready"));
            continue;
        } else if let Some(t) = terminated {
            reason = terminated_reason(t, "Init:");
        } else if !waiting.is_empty() && waiting != "PodInitializing" {
            reason = format!("Init:{waiting}");
        } else {
            reason = format!("Init:{i}/{}", inits.len());
        }
        initializing = true;
        break;
    }
    if !initializing || condition_true(conds, "Initialized") {
        // From here on only the sidecars' restarts still count among the init containers'.
        (restarts, last_restart) = (sidecar_restarts, last_sidecar_restart);
        let mut running = false;
        for st in list(pod, "/status/containerStatuses").iter().rev() {
            restarts += int(st, "/restartCount");
            last_restart = latest(last_restart, st);
            let waiting = text(st, "/state/waiting/reason");
            if !waiting.is_empty() {
                reason = waiting.to_owned();
            } else if let Some(t) = st.pointer("/state/terminated").filter(|t| t.is_object()) {
                reason = terminated_reason(t, "");
            } else if is_true(st, "ready") && present(st, "/state/running") {
                running = true;
                ready += 1;
            }
        }
        let pod_ready = condition_true(conds, "Ready");
        if reason == "Completed" && running {
            reason = (if pod_ready { "Running" } else { "NotReady" }).into();
        }
    }
    if present(pod, "/metadata/deletionTimestamp") {
        if text(pod, "/status/reason") == "NodeLost" {
            reason = "Unknown".into();
        } else if phase != "Succeeded" && phase != "Failed" {
            reason = "Terminating".into();
        }
    }
    let restarts = match last_restart {
        Some(t) if restarts != 0 => format!("{restarts} ({} ago)", between(t, now)),
        _ => restarts.to_string(),
    };
    let ip = text_or(pod, "/status/podIP", "<none>");
    let ip = text_or(pod, "/status/podIPs/0/ip", ip);
    let node = text_or(pod, "/spec/nodeName", "<none>");
    let nominated = text_or(pod, "/status/nominatedNodeName", "<none>");
    let gates = list(pod, "/spec/readinessGates");
    let met = |g: &&Value| condition_true(conds, text(g, "/conditionType"));
    let gates = match gates.len() {
        0 => "<none>".to_owned(),
        n => format!("{}/{n}", gates.iter().filter(met).count()),
    };
    let ready = format!("{ready}/{total}");
    cells![
        name, ready, reason, restarts, age, ip, node, nominated, gates
    ]
}

/// The row condition the server marks finished pods with.
pub(super) fn pod_completion(pod: &Value) -> Option<Value> {
    let (reason, message) = match text(pod, "/status/phase") {
        "Succeeded" => ("Succeeded", "The pod has completed successfully."),
        "Failed" => ("Failed", "The pod failed."),
        _ => return None,
    };
    Some(json!([{"type": "Completed", "status": "True", "reason": reason, "message": message}]))
}

pub(super) fn event_cells(ev: &Value, now: Timestamp) -> Vec<Value> {
    // Events written through events.k8s.io carry eventTime and series instead.
    let first = match time(ev, "/firstTimestamp") {
        Some(t) => between(t, now),
        None => since(time(ev, "/eventTime"), now),
    };
    let mut last = time(ev, "/lastTimestamp").map_or_else(|| first.clone(), |t| between(t, now));
    let mut count = int(ev, "/count");
    if let Some(series) = ev.get("series").filter(|s| s.is_object()) {
        last = since(time(series, "/lastObservedTime"), now);
        count = int(series, "/count");
    } else if count == 0 {
        count = 1;
    }
    let kind = text(ev, "/involvedObject/kind").to_lowercase();
    let object = match text(ev, "/involvedObject/name") {
        "" => kind,
        name => format!("{kind}/{name}"),
    };
    let component = text_or(ev, "/source/component", text(ev, "/reportingComponent"));
    let source = match text_or(ev, "/source/host", text(ev, "/reportingInstance")) {
        "" => component.to_owned(),
        host => format!("{component}, {host}"),
    };
    let (ty, reason, name) = (
        text(ev, "/type"),
        text(ev, "/reason"),
        text(ev, "/metadata/name"),
    );
    let (sub, message) = (
        text(ev, "/involvedObject/fieldPath"),
        text(ev, "/message").trim(),
    );
    cells![
        last, ty, reason, object, sub, source, message, first, count, name
    ]
}

pub(super) fn service_cells(name: &str, age: String, svc: &Value) -> Vec<Value> {
    let ty = text_or(svc, "/spec/type", "ClusterIP");
    let cluster_ip = text_or(svc, "/spec/clusterIP", "<none>");
    let cluster_ip = text_or(svc, "/spec/clusterIPs/0", cluster_ip);
    let external = strs(svc, "/spec/externalIPs");
    let external_ip = match ty {
        "ClusterIP" | "NodePort" => join_or(&external, "<none>"),
        "LoadBalancer" => {
            let ingress = list(svc, "/status/loadBalancer/ingress").iter();
            let mut lb: Vec<&str> = ingress
                .map(|i| text_or(i, "/ip", text(i, "/hostname")))
                .collect();
            lb.retain(|s| !s.is_empty());
            lb.sort_unstable();
            lb.dedup();
            lb.extend(&external);
            join_or(&lb, "<pending>")
        }
        "ExternalName" => text(svc, "/spec/externalName").to_owned(),
        _ => "<unknown>".to_owned(),
    };
    let port = |p: &Value| {
        let (port, proto) = (int(p, "/port"), text_or(p, "/protocol", "TCP"));
        match int(p, "/nodePort") {
            0 => format!("{port}/{proto}"),
            node => format!("{port}:{node}/{proto}"),
        }
    };
    let ports: Vec<String> = list(svc, "/spec/ports").iter().map(port).collect();
    let ports = join_or(&ports, "<none>");
    // labels.FormatLabels: sorted k=v pairs.
    let pair = |(k, v): (&String, &Value)| format!("{k}={}", v.as_str().unwrap_or(""));
    let mut selector: Vec<String> = entries(svc, "/spec/selector").map(pair).collect();
    selector.sort();
    let selector = join_or(&selector, "<none>");
    cells![name, ty, cluster_ip, external_ip, ports, age, selector]
}

pub(super) fn job_cells(name: &str, age: String, job: &Value, now: Timestamp) -> Vec<Value> {
    let succeeded = int(job, "/status/succeeded");
    let completions = match job.pointer("/spec/completions").and_then(Value::as_i64) {
        Some(c) => format!("{succeeded}/{c}"),
        None => match int(job, "/spec/parallelism") {
            p if p > 1 => format!("{succeeded}/1 of {p}"),
            _ => format!("{succeeded}/1"),
        },
    };
    let start = time(job, "/status/startTime");
    let duration = match (start, time(job, "/status/completionTime")) {
        (None, _) => String::new(),
        (Some(start), None) => between(start, now),
        (Some(start), Some(end)) => between(start, end),
    };
    let conds = list(job, "/status/conditions");
    let status = match () {
        () if condition_true(conds, "Complete") => "Complete",
        () if condition_true(conds, "Failed") => "Failed",
        () if present(job, "/metadata/deletionTimestamp") => "Terminating",
        () if condition_true(conds, "Suspended") => "Suspended",
        () if condition_true(conds, "FailureTarget") => "FailureTarget",
        () => "Running",
    };
    let (names, images) = containers(job);
    let sel = format_label_selector(job.pointer("/spec/selector"));
    cells![name, status, completions, duration, age, names, images, sel]
}
