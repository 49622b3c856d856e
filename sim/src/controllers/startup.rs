//! What the lab's images print when their container starts, so `kubectl logs` on a running Pod
//! shows what it would on k3s. The lines are simulated: same shape as the real image's output
//! (nginx's entrypoint and master process notices), not captured from it
//! (docs/sim-behaviour.md §15.2, docs/sim-fidelity.md).

use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use serde_json::Value;

use crate::logs::Repeating;

/// The worker processes nginx starts: one per CPU of the node.
const NODE_CPUS: usize = 2;

/// The start-up output of a container running `image` with the image's own entrypoint and
/// command (no `command` or `args` in the Pod), or nothing for images that print nothing.
pub fn lines(image: &str, started: Timestamp) -> String {
    let (repo, tag) = split(image);
    if repo.rsplit('/').next() == Some("nginx") {
        nginx(tag, started)
    } else {
        String::new()
    }
}

/// Images whose command is a server of their own (Argo CD's components, redis, dex, the lab's
/// git daemon): the built-in shell cannot run it, so the container is taken to run it quietly,
/// as a long-running process, instead of failing. What the application controller prints is
/// written by the embedded controller itself.
pub fn runs_own_server(image: &str) -> bool {
    let repo = split(image).0;
    matches!(
        repo,
        "quay.io/argoproj/argocd"
            | "ghcr.io/dexidp/dex"
            | "public.ecr.aws/docker/library/redis"
            | "alpine/git"
    )
}

/// The address the kubelet's probes come from: the node's end of the Pod network (cni0).
const PROBE_SOURCE: &str = "10.42.0.1";
/// The size of nginx's default `index.html`.
const INDEX_BYTES: u32 = 615;

/// The access-log lines nginx writes for the kubelet's HTTP probes of `container` (readiness
/// and liveness probes of a path nginx serves out of the box), one per probe from the moment
/// the simulated Pod turns Ready. `kubelet_version` is the node's (`v1.35.2+k3s1`).
pub fn probe_lines(container: &Value, started: Timestamp, kubelet_version: &str) -> Vec<Repeating> {
    let image = container["image"].as_str().unwrap_or_default();
    if split(image).0.rsplit('/').next() != Some("nginx") {
        return Vec::new();
    }
    let minor: String = kubelet_version
        .trim_start_matches('v')
        .split('.')
        .take(2)
        .collect::<Vec<_>>()
        .join(".");
    let agent = format!("kube-probe/{minor}");
    ["readinessProbe", "livenessProbe"]
        .iter()
        .filter_map(|kind| {
            let probe = &container[*kind];
            let get = probe.get("httpGet")?;
            let path = get["path"].as_str().unwrap_or("/").to_string();
            let serves = matches!(path.as_str(), "/" | "/index.html");
            if !serves || !targets_port_80(container, &get["port"]) {
                return None;
            }
            let delay = probe["initialDelaySeconds"].as_u64().unwrap_or(0);
            let period = probe["periodSeconds"].as_u64().unwrap_or(10).max(1);
            let agent = agent.clone();
            Some(Repeating {
                first: started + Duration::from_secs(delay + period),
                every: Duration::from_secs(period),
                line: Arc::new(move |at: Timestamp| {
                    let when = at.strftime("%d/%b/%Y:%H:%M:%S +0000");
                    format!(
                        "{PROBE_SOURCE} - - [{when}] \"GET {path} HTTP/1.1\" 200 {INDEX_BYTES} \"-\" \"{agent}\" \"-\"\n"
                    )
                }),
            })
        })
        .collect()
}

/// Whether a probe's `port` (a number, or the name of a container port) is nginx's 80.
fn targets_port_80(container: &Value, port: &Value) -> bool {
    match port {
        Value::Number(n) => n.as_u64() == Some(80),
        Value::String(name) => container["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["name"] == name.as_str() && p["containerPort"] == 80),
        _ => false,
    }
}

/// `docker.io/library/nginx:1.27-alpine` → (`docker.io/library/nginx`, `1.27-alpine`).
fn split(image: &str) -> (&str, &str) {
    let image = image.split('@').next().unwrap_or(image);
    match image.rsplit_once(':') {
        Some((repo, tag)) if !tag.contains('/') => (repo, tag),
        _ => (image, "latest"),
    }
}

/// The nginx release a tag points at: `1.27-alpine` → `1.27.5`, an exact tag as it is.
fn nginx_version(tag: &str) -> String {
    let version = tag.split('-').next().unwrap_or(tag);
    let last_patch = |minor: &str| match minor {
        "1.25" => "5",
        "1.26" => "3",
        "1.27" => "5",
        "1.28" => "0",
        "1.29" => "1",
        _ => "0",
    };
    match version.matches('.').count() {
        1 => format!("{version}.{}", last_patch(version)),
        2 => version.to_string(),
        _ => "1.29.1".to_string(),
    }
}

/// The official image's `docker-entrypoint.sh` lines, then the master process's notices with
/// the time in nginx's own format.
fn nginx(tag: &str, started: Timestamp) -> String {
    let alpine = tag.contains("alpine");
    let when = started.strftime("%Y/%m/%d %H:%M:%S").to_string();
    let mut out = String::new();
    for line in [
        "/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration",
        "/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/",
        "/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh",
        "10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf",
        "10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf",
        "/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh",
        "/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh",
        "/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh",
        "/docker-entrypoint.sh: Configuration complete; ready for start up",
    ] {
        out.push_str(line);
        out.push('\n');
    }
    let compiler = if alpine {
        "gcc 14.2.0 (Alpine 14.2.0) "
    } else {
        "gcc 12.2.0 (Debian 12.2.0-14+deb12u1) "
    };
    let notices = [
        "using the \"epoll\" event method".to_string(),
        format!("nginx/{}", nginx_version(tag)),
        format!("built by {compiler}"),
        "OS: Linux 6.8.0-85-generic".to_string(),
        "getrlimit(RLIMIT_NOFILE): 1048576:1048576".to_string(),
        "start worker processes".to_string(),
    ];
    for notice in notices {
        out.push_str(&format!("{when} [notice] 1#1: {notice}\n"));
    }
    for worker in 0..NODE_CPUS {
        out.push_str(&format!(
            "{when} [notice] 1#1: start worker process {}\n",
            29 + worker
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nginx_prints_its_entrypoint_then_its_version_and_workers() {
        let t: Timestamp = "2026-07-01T12:00:01Z".parse().unwrap();
        let out = lines("nginx:1.28-alpine", t);
        assert!(out.starts_with("/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty"));
        assert!(
            out.contains("2026/07/01 12:00:01 [notice] 1#1: nginx/1.28.0\n"),
            "{out}"
        );
        assert!(out.contains("(Alpine "), "{out}");
        assert_eq!(out.matches("start worker process ").count(), 2);
        assert!(lines("docker.io/library/nginx:1.27.3", t).contains("nginx/1.27.3"));
        assert_eq!(lines("busybox:1.36", t), "");
    }

    #[test]
    fn nginx_logs_each_probe_of_a_page_it_serves() {
        let t: Timestamp = "2026-07-01T12:00:01Z".parse().unwrap();
        let c = serde_json::json!({"image": "nginx:1.27-alpine", "ports": [{"name": "http", "containerPort": 80}],
            "readinessProbe": {"httpGet": {"path": "/", "port": "http"}, "initialDelaySeconds": 2, "periodSeconds": 5},
            "livenessProbe": {"httpGet": {"path": "/healthz", "port": 80}}});
        let rules = probe_lines(&c, t, "v1.35.2+k3s1");
        assert_eq!(
            rules.len(),
            1,
            "nginx has no /healthz: only the readiness probe is served"
        );
        let r = &rules[0];
        assert_eq!(r.first, t + Duration::from_secs(7));
        assert_eq!(
            (r.line)(r.first),
            "10.42.0.1 - - [01/Jul/2026:12:00:08 +0000] \"GET / HTTP/1.1\" 200 615 \"-\" \"kube-probe/1.35\" \"-\"\n"
        );
    }
}
