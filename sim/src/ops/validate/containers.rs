//! `ValidatePodSpec`'s containers, as far as a learner's typo reaches (`validateContainers` and
//! `validateContainerCommon` in 1.35): a container's name (a DNS-1123 label, unique), its
//! image, ports, env names, pull policy and resource requests against limits, in the order the
//! Go code checks them, for Pods and every workload's pod template.

use serde_json::Value;

use crate::amount;
use crate::objects;
use crate::status::{BadValue, FieldError};

/// The containers and init containers of `spec`, a pod spec at `path` (`spec` of a Pod,
/// `spec.template.spec` of a workload).
pub fn pod_spec(spec: &Value, path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let containers = spec["containers"].as_array().filter(|c| !c.is_empty());
    match containers {
        None => errors.push(FieldError::required(&format!("{path}.containers"), "")),
        Some(list) => errors.extend(list_errors(list, &format!("{path}.containers"))),
    }
    if let Some(init) = spec["initContainers"].as_array() {
        errors.extend(list_errors(init, &format!("{path}.initContainers")));
    }
    errors
}

fn list_errors(list: &[Value], path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let mut names = Vec::new();
    for (i, c) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        errors.extend(common(c, &at));
        let name = c["name"].as_str().unwrap_or_default();
        if names.contains(&name) {
            errors.push(FieldError::duplicate(
                &format!("{at}.name"),
                BadValue::text(name),
            ));
        } else {
            names.push(name);
        }
    }
    errors
}

/// `validateContainerCommon`.
fn common(c: &Value, at: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let name = c["name"].as_str().unwrap_or_default();
    if name.is_empty() {
        errors.push(FieldError::required(&format!("{at}.name"), ""));
    } else if let Some(why) = objects::label_problem(name) {
        errors.push(FieldError::invalid(
            &format!("{at}.name"),
            BadValue::text(name),
            why,
        ));
    }
    if c["image"].as_str().unwrap_or_default().is_empty() {
        errors.push(FieldError::required(&format!("{at}.image"), ""));
    }
    errors.extend(ports(c, at));
    for (i, env) in c["env"].as_array().into_iter().flatten().enumerate() {
        if env["name"].as_str().unwrap_or_default().is_empty() {
            errors.push(FieldError::required(&format!("{at}.env[{i}].name"), ""));
        }
    }
    match c["imagePullPolicy"].as_str().unwrap_or_default() {
        // Defaulting always fills it in.
        "" | "Always" | "IfNotPresent" | "Never" => {}
        other => errors.push(FieldError::not_supported(
            &format!("{at}.imagePullPolicy"),
            BadValue::text(other),
            &["Always", "IfNotPresent", "Never"],
        )),
    }
    errors.extend(resources(&c["resources"], &format!("{at}.resources")));
    errors
}

/// `validateContainerPorts`.
fn ports(c: &Value, at: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let mut names = Vec::new();
    for (i, port) in c["ports"].as_array().into_iter().flatten().enumerate() {
        let at = format!("{at}.ports[{i}]");
        let name = port["name"].as_str().unwrap_or_default();
        if !name.is_empty() {
            let problems = crate::labels::port_name_problems(name);
            if !problems.is_empty() {
                for why in problems {
                    errors.push(FieldError::invalid(
                        &format!("{at}.name"),
                        BadValue::text(name),
                        &why,
                    ));
                }
            } else if names.contains(&name) {
                errors.push(FieldError::duplicate(
                    &format!("{at}.name"),
                    BadValue::text(name),
                ));
            } else {
                names.push(name);
            }
        }
        let number = port["containerPort"].as_i64().unwrap_or(0);
        if number == 0 {
            errors.push(FieldError::required(&format!("{at}.containerPort"), ""));
        } else if !(1..=65535).contains(&number) {
            errors.push(FieldError::invalid(
                &format!("{at}.containerPort"),
                BadValue::Raw(number.to_string()),
                "must be between 1 and 65535, inclusive",
            ));
        }
        let host = port["hostPort"].as_i64().unwrap_or(0);
        if host != 0 && !(1..=65535).contains(&host) {
            errors.push(FieldError::invalid(
                &format!("{at}.hostPort"),
                BadValue::Raw(host.to_string()),
                "must be between 1 and 65535, inclusive",
            ));
        }
        match port["protocol"].as_str().unwrap_or_default() {
            "" | "TCP" | "UDP" | "SCTP" => {}
            other => errors.push(FieldError::not_supported(
                &format!("{at}.protocol"),
                BadValue::text(other),
                &["SCTP", "TCP", "UDP"],
            )),
        }
    }
    errors
}

/// `validateResourceRequirements`: no quantity below zero, and a request of cpu or memory no
/// more than its limit (Go walks the maps in random order; here in key order).
fn resources(r: &Value, at: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let mut nonnegative = |map: &str| {
        for (name, q) in r[map].as_object().into_iter().flatten() {
            let text = quantity_text(q);
            if amount::milli(&text).is_some_and(|m| m < 0) {
                errors.push(FieldError::invalid(
                    &format!("{at}.{map}[{name}]"),
                    BadValue::text(&amount::canonical(&text)),
                    "must be greater than or equal to 0",
                ));
            }
        }
    };
    nonnegative("limits");
    nonnegative("requests");
    for (name, request) in r["requests"].as_object().into_iter().flatten() {
        let Some(limit) = r["limits"].get(name) else {
            continue;
        };
        let (request, limit) = (quantity_text(request), quantity_text(limit));
        if let (Some(rq), Some(lm)) = (amount::milli(&request), amount::milli(&limit))
            && rq > lm
        {
            errors.push(FieldError::invalid(
                &format!("{at}.requests"),
                BadValue::text(&amount::canonical(&request)),
                &format!(
                    "must be less than or equal to {name} limit of {}",
                    amount::canonical(&limit)
                ),
            ));
        }
    }
    errors
}

fn quantity_text(q: &Value) -> String {
    match q {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The warnings the pod strategy adds for a Pod or a workload's template
/// (`warningsForPodSpecAndMeta`): memory and ephemeral storage in fractions of a byte.
pub fn warnings(spec: &Value, path: &str) -> Vec<String> {
    let mut out = Vec::new();
    for list in ["initContainers", "containers"] {
        for (i, c) in spec[list].as_array().into_iter().flatten().enumerate() {
            for resource in ["memory", "ephemeral-storage"] {
                for map in ["limits", "requests"] {
                    let Some(q) = c["resources"][map].get(resource) else {
                        continue;
                    };
                    let text = quantity_text(q);
                    if amount::milli(&text).is_some_and(|m| m % 1000 != 0) {
                        out.push(format!(
                            "{path}.{list}[{i}].resources.{map}[{resource}]: fractional byte value \"{}\" is invalid, must be an integer",
                            amount::canonical(&text)
                        ));
                    }
                }
            }
        }
    }
    // Go checks limits then requests of memory, then of ephemeral storage.
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn shown(errors: &[FieldError]) -> Vec<String> {
        errors.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_bad_container_name_and_a_missing_image_are_both_reported() {
        let spec = json!({"containers": [{"name": "Bad_Name"}]});
        assert_eq!(
            shown(&pod_spec(&spec, "spec")),
            [
                "spec.containers[0].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.containers[0].image: Required value",
            ]
        );
        let twice =
            json!({"containers": [{"name": "a", "image": "x"}, {"name": "a", "image": "y"}]});
        assert_eq!(
            shown(&pod_spec(&twice, "spec.template.spec")),
            ["spec.template.spec.containers[1].name: Duplicate value: \"a\""]
        );
        assert_eq!(
            shown(&pod_spec(&json!({}), "spec")),
            ["spec.containers: Required value"]
        );
    }

    #[test]
    fn a_request_above_its_limit_is_refused_in_canonical_quantities() {
        let spec = json!({"containers": [{"name": "c", "image": "x",
            "resources": {"limits": {"cpu": "0.1"}, "requests": {"cpu": "200m"}}}]});
        assert_eq!(
            shown(&pod_spec(&spec, "spec.template.spec")),
            [
                "spec.template.spec.containers[0].resources.requests: Invalid value: \"200m\": must be less than or equal to cpu limit of 100m"
            ]
        );
    }

    #[test]
    fn ports_need_a_number_in_range_and_a_known_protocol() {
        let spec = json!({"containers": [{"name": "c", "image": "x",
            "ports": [{"containerPort": 0}, {"containerPort": 70000, "protocol": "HTTP"}]}]});
        assert_eq!(
            shown(&pod_spec(&spec, "spec")),
            [
                "spec.containers[0].ports[0].containerPort: Required value",
                "spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
                "spec.containers[0].ports[1].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
            ]
        );
    }

    #[test]
    fn fractional_bytes_are_a_warning_not_an_error() {
        let spec = json!({"containers": [{"name": "c", "image": "x",
            "resources": {"limits": {"memory": "128Mi"}, "requests": {"memory": "0.5"}}}]});
        assert!(pod_spec(&spec, "spec").is_empty());
        assert_eq!(
            warnings(&spec, "spec.template.spec"),
            [
                "spec.template.spec.containers[0].resources.requests[memory]: fractional byte value \"500m\" is invalid, must be an integer"
            ]
        );
    }
}
