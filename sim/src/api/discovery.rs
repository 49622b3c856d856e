//! `/version` and legacy API discovery (`/api`, `/apis`, `/api/v1`, `/apis/{g}/{v}`), built
//! from the kinds table. kubectl asks for aggregated discovery first and falls back to these.

use serde_json::{Value, json};

use crate::kinds::{TYPES, group_versions};

/// What `/version` reports: Kubernetes at the kubectl's minor version, as k3s names it.
/// The version a k3s server reports for a Kubernetes release: `v1.35.2` → `v1.35.2+k3s1`.
pub fn k3s_version(git_version: &str) -> String {
    format!("v{}+k3s1", git_version.trim_start_matches('v'))
}

pub fn version(git_version: &str) -> Value {
    let trimmed = git_version.trim_start_matches('v');
    let mut parts = trimmed.split(['.', '+', '-']);
    let major = parts.next().unwrap_or("1");
    let minor = parts.next().unwrap_or("35");
    json!({
        "major": major,
        "minor": minor,
        "emulationMajor": major,
        "emulationMinor": minor,
        "gitVersion": k3s_version(git_version),
        "gitCommit": "capa-tui-embedded-lab-cluster",
        "gitTreeState": "clean",
        "buildDate": "2026-01-01T00:00:00Z",
        "goVersion": "go1.25.7",
        "compiler": "gc",
        "platform": "linux/amd64",
    })
}

pub fn core_versions(server_address: &str) -> Value {
    json!({
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}],
    })
}

fn group_entry(group: &str) -> Value {
    let versions: Vec<Value> = group_versions()
        .into_iter()
        .filter(|(g, _)| *g == group)
        .map(|(g, v)| json!({"groupVersion": format!("{g}/{v}"), "version": v}))
        .collect();
    json!({"name": group, "versions": versions, "preferredVersion": versions.first().cloned().unwrap_or(Value::Null)})
}

pub fn groups() -> Value {
    let mut names: Vec<&str> = Vec::new();
    for (g, _) in group_versions() {
        if !g.is_empty() && !names.contains(&g) {
            names.push(g);
        }
    }
    json!({
        "kind": "APIGroupList",
        "apiVersion": "v1",
        "groups": names.into_iter().map(group_entry).collect::<Vec<_>>(),
    })
}

/// `/apis/{group}`, or `None` when the group is not served.
pub fn group(group: &str) -> Option<Value> {
    group_versions().iter().any(|(g, _)| *g == group).then(|| {
        let mut g = group_entry(group);
        g["kind"] = json!("APIGroup");
        g["apiVersion"] = json!("v1");
        g
    })
}

const VERBS: &[&str] = &[
    "create", "delete", "get", "list", "patch", "update", "watch",
];

/// `/api/v1` or `/apis/{g}/{v}`, with subresources, or `None` when not served.
pub fn resource_list(group: &str, version: &str) -> Option<Value> {
    let mut resources = Vec::new();
    for t in TYPES
        .iter()
        .filter(|t| t.group == group && t.version == version)
    {
        let mut r = json!({
            "name": t.plural,
            "singularName": t.singular,
            "namespaced": t.namespaced,
            "kind": t.kind,
            "verbs": if t.computed { &["get", "list"][..] } else { VERBS },
        });
        if !t.short_names.is_empty() {
            r["shortNames"] = json!(t.short_names);
        }
        if !t.categories.is_empty() {
            r["categories"] = json!(t.categories);
        }
        resources.push(r);
        let sub = |name: &str, kind: &str, verbs: &[&str]| json!({"name": format!("{}/{name}", t.plural), "singularName": "", "namespaced": t.namespaced, "kind": kind, "verbs": verbs});
        if t.status_subresource {
            resources.push(sub("status", t.kind, &["get", "patch", "update"]));
        }
        if t.scale_subresource {
            let mut s = sub("scale", "Scale", &["get", "patch", "update"]);
            s["group"] = json!("autoscaling");
            s["version"] = json!("v1");
            resources.push(s);
        }
        if t.log_subresource {
            resources.push(sub("log", "Pod", &["get"]));
        }
    }
    if resources.is_empty() {
        return None;
    }
    let group_version = if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    };
    Some(
        json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version, "resources": resources}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_reports_the_kubectl_minor() {
        let v = version("v1.35.2");
        assert_eq!(
            (v["major"].as_str(), v["minor"].as_str()),
            (Some("1"), Some("35"))
        );
        assert_eq!(v["gitVersion"], "v1.35.2+k3s1");
    }

    #[test]
    fn deployments_list_their_scale_subresource_as_autoscaling_v1() {
        let list = resource_list("apps", "v1").unwrap();
        let scale = list["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == "deployments/scale")
            .unwrap();
        assert_eq!(
            (scale["group"].as_str(), scale["kind"].as_str()),
            (Some("autoscaling"), Some("Scale"))
        );
        assert!(resource_list("nope", "v1").is_none());
    }

    #[test]
    fn applications_are_discoverable_by_short_name() {
        let list = resource_list("argoproj.io", "v1alpha1").unwrap();
        let app = &list["resources"][0];
        assert_eq!(app["shortNames"], json!(["app", "apps"]));
        assert!(
            !list["resources"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["name"] == "applications/status")
        );
    }
}
