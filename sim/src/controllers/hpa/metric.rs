//! What one HPA metric asks for: the replica count a Resource metric (CPU or memory, as a
//! utilisation of requests or an average value) proposes from the simulated usage of the
//! target's Pods, with the real controller's tolerance and error messages.

use serde_json::{Value, json};

use crate::amount;

/// The controller leaves the scale alone within 10% of the target.
const TOLERANCE: f64 = 0.1;
/// metrics-server has a sample once a Pod has run a whole scrape interval.
const SCRAPE_SECS: i64 = 15;

/// One metric's outcome: the proposed replicas, its status entry, and how the controller names
/// it in conditions and events (`cpu resource utilization (percentage of request)`).
pub struct Proposal {
    pub replicas: i64,
    pub status: Value,
    pub name: String,
}

/// Why a metric gave no proposal: (event and condition reason, message).
pub struct MetricError {
    pub reason: &'static str,
    pub message: String,
}

/// Running Pods that metrics-server has measured, at `now` (unix seconds).
pub fn measured(pods: &[std::sync::Arc<Value>], now: i64) -> Vec<&Value> {
    pods.iter()
        .map(|p| &**p)
        .filter(|p| p["status"]["phase"] == "Running" && !crate::objects::is_deleting(p))
        .filter(|p| {
            p["status"]["startTime"]
                .as_str()
                .and_then(crate::clock::parse)
                .is_some_and(|t| now - t.as_second() >= SCRAPE_SECS)
        })
        .collect()
}

pub fn propose(spec: &Value, pods: &[&Value], current: i64) -> Result<Proposal, MetricError> {
    if spec["type"] != "Resource" {
        let ty = spec["type"].as_str().unwrap_or_default();
        return Err(MetricError {
            reason: "FailedGetExternalMetric",
            message: format!(
                "the embedded cluster has no {ty} metrics (only Resource metrics of cpu and memory are simulated)"
            ),
        });
    }
    let resource = spec["resource"]["name"].as_str().unwrap_or_default();
    let target = &spec["resource"]["target"];
    let failed = |why: String| MetricError {
        reason: "FailedGetResourceMetric",
        message: why,
    };
    if pods.is_empty() {
        return Err(failed(format!(
            "failed to get {resource} utilization: unable to get metrics for resource {resource}: no metrics returned from resource metrics API"
        )));
    }
    let mut usage: i128 = 0;
    let mut requests: i128 = 0;
    for pod in pods {
        for c in pod["spec"]["containers"].as_array().into_iter().flatten() {
            let container = c["name"].as_str().unwrap_or_default();
            let (cpu_nanos, memory_ki) = crate::usage::container(pod, container);
            usage += match resource {
                "cpu" => i128::from(cpu_nanos) / 1_000_000,
                "memory" => i128::from(memory_ki) * 1024 * 1000,
                _ => {
                    return Err(failed(format!(
                        "failed to get {resource} utilization: unable to get metrics for resource {resource}: no metrics returned from resource metrics API"
                    )));
                }
            };
            if target["type"] == "Utilization" {
                let request = c["resources"]["requests"][resource]
                    .as_str()
                    .and_then(amount::milli);
                match request {
                    Some(r) => requests += r,
                    None => {
                        return Err(failed(format!(
                            "failed to get {resource} utilization: missing request for {resource} in container {container} of Pod {}",
                            crate::objects::name(pod)
                        )));
                    }
                }
            }
        }
    }
    let count = pods.len() as i128;
    let average = amount::format_milli(usage / count);
    if target["type"] == "Utilization" {
        let wanted = target["averageUtilization"].as_i64().unwrap_or(80).max(1);
        let utilization = if requests > 0 {
            (usage * 100 / requests) as i64
        } else {
            0
        };
        let ratio = utilization as f64 / wanted as f64;
        Ok(Proposal {
            replicas: scaled(ratio, current, pods.len()),
            status: json!({"type": "Resource", "resource": {"name": resource,
                "current": {"averageUtilization": utilization, "averageValue": average}}}),
            name: format!("{resource} resource utilization (percentage of request)"),
        })
    } else {
        let wanted = target["averageValue"]
            .as_str()
            .and_then(amount::milli)
            .unwrap_or(1)
            .max(1);
        let ratio = (usage / count) as f64 / wanted as f64;
        Ok(Proposal {
            replicas: scaled(ratio, current, pods.len()),
            status: json!({"type": "Resource", "resource": {"name": resource,
                "current": {"averageValue": average}}}),
            name: format!("{resource} resource"),
        })
    }
}

/// `ceil(ratio × measured Pods)`, or the current count within the tolerance.
fn scaled(ratio: f64, current: i64, measured: usize) -> i64 {
    if (ratio - 1.0).abs() <= TOLERANCE {
        return current;
    }
    (ratio * measured as f64).ceil() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(cpu: &str, request: Option<&str>) -> Value {
        let resources = request.map_or(json!({}), |r| json!({"requests": {"cpu": r}}));
        json!({"metadata": {"name": "web-1", "uid": "u", "annotations": {"capa-sim/cpu": cpu}},
               "spec": {"containers": [{"name": "web", "resources": resources}]},
               "status": {"phase": "Running", "startTime": "2026-01-01T00:00:00Z"}})
    }

    fn cpu_target(percent: i64) -> Value {
        json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": percent}}})
    }

    #[test]
    fn twice_the_target_doubles_the_pods() {
        let (a, b) = (pod("200m", Some("100m")), pod("200m", Some("100m")));
        let p = propose(&cpu_target(100), &[&a, &b], 2).ok().unwrap();
        assert_eq!(p.replicas, 4);
        assert_eq!(p.status["resource"]["current"]["averageUtilization"], 200);
        assert_eq!(p.status["resource"]["current"]["averageValue"], "200m");
    }

    #[test]
    fn within_ten_percent_nothing_changes() {
        let a = pod("105m", Some("100m"));
        assert_eq!(
            propose(&cpu_target(100), &[&a], 3).ok().unwrap().replicas,
            3
        );
    }

    #[test]
    fn a_container_without_a_cpu_request_cannot_be_measured() {
        let a = pod("105m", None);
        let e = propose(&cpu_target(50), &[&a], 1).err().unwrap();
        assert_eq!(e.reason, "FailedGetResourceMetric");
        assert_eq!(
            e.message,
            "failed to get cpu utilization: missing request for cpu in container web of Pod web-1"
        );
    }
}
