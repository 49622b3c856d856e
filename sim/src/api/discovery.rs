//! `/version` and legacy API discovery (`/api`, `/apis`, `/api/v1`, `/apis/{g}/{v}`), built
//! from the kinds table. kubectl asks for aggregated discovery first and falls back to these.

use serde_json::{Value, json};

use crate::kinds::{Catalog, ResourceType};

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
    // A 1.35 server stays compatible with the previous minor release.
    let min_minor = minor
        .parse::<u32>()
        .map_or_else(|_| minor.to_string(), |m| m.saturating_sub(1).to_string());
    json!({
        "major": major,
        "minor": minor,
        "emulationMajor": major,
        "emulationMinor": minor,
        "minCompatibilityMajor": major,
        "minCompatibilityMinor": min_minor,
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

fn group_entry(kinds: &Catalog, group: &str) -> Value {
    let versions: Vec<Value> = kinds
        .group_versions()
        .into_iter()
        .filter(|(g, _)| *g == group)
        .map(|(g, v)| json!({"groupVersion": format!("{g}/{v}"), "version": v}))
        .collect();
    json!({"name": group, "versions": versions, "preferredVersion": versions.first().cloned().unwrap_or(Value::Null)})
}

pub fn groups(kinds: &Catalog) -> Value {
    let mut names: Vec<&str> = Vec::new();
    for (g, _) in kinds.group_versions() {
        if !g.is_empty() && !names.contains(&g) {
            names.push(g);
        }
    }
    json!({
        "kind": "APIGroupList",
        "apiVersion": "v1",
        "groups": names.into_iter().map(|g| group_entry(kinds, g)).collect::<Vec<_>>(),
    })
}

/// `/apis/{group}`, or `None` when the group is not served.
pub fn group(kinds: &Catalog, group: &str) -> Option<Value> {
    kinds
        .group_versions()
        .iter()
        .any(|(g, _)| *g == group)
        .then(|| {
            let mut g = json!({"kind": "APIGroup", "apiVersion": "v1"});
            if let (Some(out), Value::Object(entry)) =
                (g.as_object_mut(), group_entry(kinds, group))
            {
                out.extend(entry);
            }
            g
        })
}

/// `discovery.StorageVersionHash`: the first 8 bytes of the SHA-256 of the storage version's
/// `group/version/Kind`, in base64; what lets a client tell that a resource's storage changed.
pub fn storage_version_hash(t: &'static ResourceType) -> String {
    use base64::Engine;
    let stored = t.storage();
    let gvk = format!("{}/{}/{}", stored.group, stored.version, stored.kind);
    let digest = ring::digest::digest(&ring::digest::SHA256, gvk.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(&digest.as_ref()[..8])
}

/// What a built-in kind's collection and objects answer to (Namespaces: no deletecollection).
const VERBS: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];
/// The same for a custom resource, in the order the CRD handler lists them.
const CR_VERBS: &[&str] = &[
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "create",
    "update",
    "watch",
];

/// While its CRD is being deleted, a custom resource can only be read and deleted.
const TERMINATING_VERBS: &[&str] = &["delete", "deletecollection", "get", "list", "watch"];

/// The verbs discovery lists for a type.
pub fn verbs(kinds: &Catalog, t: &ResourceType) -> Vec<&'static str> {
    if kinds.terminating(t) {
        TERMINATING_VERBS.to_vec()
    } else if t.computed {
        vec!["get", "list"]
    } else if t.create_only {
        vec!["create"]
    } else if !t.builtin {
        CR_VERBS.to_vec()
    } else if t.group.is_empty() && t.kind == "Namespace" {
        VERBS
            .iter()
            .copied()
            .filter(|v| *v != "deletecollection")
            .collect()
    } else {
        VERBS.to_vec()
    }
}

/// `/api/v1` or `/apis/{g}/{v}`, with subresources, or `None` when not served.
pub fn resource_list(kinds: &Catalog, group: &str, version: &str) -> Option<Value> {
    let mut resources = Vec::new();
    for t in kinds
        .all()
        .into_iter()
        .filter(|t| t.group == group && t.version == version)
    {
        let mut r = json!({
            "name": t.plural,
            "singularName": t.singular,
            "namespaced": t.namespaced,
            "kind": t.kind,
            "verbs": verbs(kinds, t),
        });
        if !t.short_names.is_empty() {
            r["shortNames"] = json!(t.short_names);
        }
        if !t.categories.is_empty() {
            r["categories"] = json!(t.categories);
        }
        if !(t.computed || t.create_only) {
            r["storageVersionHash"] = json!(storage_version_hash(t));
        }
        resources.push(r);
        let sub = |name: &str, kind: &str, verbs: &[&str]| json!({"name": format!("{}/{name}", t.plural), "singularName": "", "namespaced": t.namespaced, "kind": kind, "verbs": verbs});
        if t.status_subresource {
            resources.push(sub("status", t.kind, &["get", "patch", "update"]));
        }
        if t.scale_subresource {
            resources.push(
                json!({"name": format!("{}/scale", t.plural), "singularName": "",
                "namespaced": t.namespaced, "group": "autoscaling", "version": "v1",
                "kind": "Scale", "verbs": ["get", "patch", "update"]}),
            );
        }
        if t.log_subresource {
            resources.push(sub("log", "Pod", &["get"]));
        }
        // The subresources of one kind each, in another group's kind where the server says so.
        let other = |name: &str, group: &str, kind: &str| {
            let mut s = sub(name, kind, &["create"]);
            s["group"] = json!(group);
            s["version"] = json!("v1");
            s
        };
        match (t.group, t.kind) {
            ("", "Pod") => {
                resources.push(sub("binding", "Binding", &["create"]));
                resources.push(other("eviction", "policy", "Eviction"));
            }
            ("", "ServiceAccount") => {
                resources.push(other("token", "authentication.k8s.io", "TokenRequest"));
            }
            ("certificates.k8s.io", "CertificateSigningRequest") => {
                resources.push(sub("approval", t.kind, &["get", "patch", "update"]));
            }
            _ => {}
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
        assert_eq!(
            (
                v["minCompatibilityMajor"].as_str(),
                v["minCompatibilityMinor"].as_str()
            ),
            (Some("1"), Some("34"))
        );
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(
            keys[4..7],
            [
                "minCompatibilityMajor",
                "minCompatibilityMinor",
                "gitVersion"
            ]
        );
    }

    #[test]
    fn an_api_group_is_written_with_its_type_fields_first() {
        let g = serde_json::to_string(&group(&Catalog::default(), "apps").unwrap()).unwrap();
        assert_eq!(
            g,
            r#"{"kind":"APIGroup","apiVersion":"v1","name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}"#
        );
    }

    #[test]
    fn deployments_list_their_scale_subresource_as_autoscaling_v1() {
        let list = resource_list(&Catalog::default(), "apps", "v1").unwrap();
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
        assert!(resource_list(&Catalog::default(), "nope", "v1").is_none());
    }

    #[test]
    fn verbs_are_listed_as_the_real_server_lists_them() {
        let verbs_of = |group: &str, version: &str, name: &str| {
            let list = resource_list(&Catalog::default(), group, version).unwrap();
            list["resources"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["name"] == name)
                .unwrap()["verbs"]
                .clone()
        };
        assert_eq!(
            verbs_of("", "v1", "configmaps"),
            json!([
                "create",
                "delete",
                "deletecollection",
                "get",
                "list",
                "patch",
                "update",
                "watch"
            ])
        );
        assert_eq!(
            verbs_of("", "v1", "namespaces"),
            json!([
                "create", "delete", "get", "list", "patch", "update", "watch"
            ])
        );
        assert_eq!(
            verbs_of("argoproj.io", "v1alpha1", "applications"),
            json!([
                "delete",
                "deletecollection",
                "get",
                "list",
                "patch",
                "create",
                "update",
                "watch"
            ])
        );
        assert_eq!(
            verbs_of("authorization.k8s.io", "v1", "selfsubjectaccessreviews"),
            json!(["create"])
        );
        assert_eq!(
            verbs_of("authentication.k8s.io", "v1", "selfsubjectreviews"),
            json!(["create"])
        );
    }

    #[test]
    fn applications_are_discoverable_by_short_name() {
        let list = resource_list(&Catalog::default(), "argoproj.io", "v1alpha1").unwrap();
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
