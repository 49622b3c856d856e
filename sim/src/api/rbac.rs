//! RBAC authorization as the API server's RBAC authorizer decides it, for the users a request
//! names rather than sends: an impersonated user (`kubectl auth can-i --as=...`) and the
//! subject of a `SubjectAccessReview`. The cluster's own token user stays all-powerful (k3s's
//! admin is in `system:masters`), so ordinary requests are never checked here.

use serde_json::Value;

use crate::kinds::{CLUSTER_ROLE, CLUSTER_ROLE_BINDING, ROLE, ROLE_BINDING};
use crate::store::{Key, Store};

/// Who is asking, as authentication (or impersonation) decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub name: String,
    pub groups: Vec<String>,
}

impl User {
    /// The user the impersonation filter makes of `Impersonate-User` and `Impersonate-Group`:
    /// a service account's name brings its groups, and everyone but the anonymous user is
    /// `system:authenticated`.
    pub fn impersonated(name: &str, groups: &[String]) -> User {
        let mut all: Vec<String> = groups.to_vec();
        if let Some(namespace) = service_account_namespace(name)
            && groups.is_empty()
        {
            all.push("system:serviceaccounts".into());
            all.push(format!("system:serviceaccounts:{namespace}"));
        }
        if name != "system:anonymous" && !all.iter().any(|g| g == "system:authenticated") {
            all.push("system:authenticated".into());
        }
        User {
            name: name.to_string(),
            groups: all,
        }
    }
}

/// `system:serviceaccount:{ns}:{name}` → `ns`.
fn service_account_namespace(user: &str) -> Option<&str> {
    let rest = user.strip_prefix("system:serviceaccount:")?;
    let (namespace, name) = rest.split_once(':')?;
    (!namespace.is_empty() && !name.is_empty()).then_some(namespace)
}

/// What is asked: a resource request or a non-resource URL.
#[derive(Debug, Default)]
pub struct Attributes<'a> {
    pub verb: &'a str,
    pub namespace: &'a str,
    pub group: &'a str,
    pub resource: &'a str,
    pub subresource: &'a str,
    pub name: &'a str,
    /// Set for a non-resource request (`/healthz`).
    pub path: Option<&'a str>,
}

/// `Some(reason)` when a binding allows it, as the RBAC authorizer words it; `None` when no
/// rule does (RBAC then gives no opinion and the request is denied).
pub fn allowed(store: &Store, user: &User, at: &Attributes) -> Option<String> {
    if user.groups.iter().any(|g| g == "system:masters") {
        return Some(String::new());
    }
    let (cluster_bindings, _) = store.list(&CLUSTER_ROLE_BINDING, None);
    for binding in &cluster_bindings {
        if let Some(why) = binding_allows(store, binding, "", user, at) {
            return Some(why);
        }
    }
    if at.namespace.is_empty() || at.path.is_some() {
        return None;
    }
    let (bindings, _) = store.list(&ROLE_BINDING, Some(at.namespace));
    bindings
        .iter()
        .find_map(|b| binding_allows(store, b, at.namespace, user, at))
}

fn binding_allows(
    store: &Store,
    binding: &Value,
    namespace: &str,
    user: &User,
    at: &Attributes,
) -> Option<String> {
    let subject = binding["subjects"]
        .as_array()?
        .iter()
        .find(|s| applies_to(s, namespace, user))?;
    let role_ref = &binding["roleRef"];
    let role_name = role_ref["name"].as_str().unwrap_or_default();
    let role_kind = role_ref["kind"].as_str().unwrap_or_default();
    let rules = match role_kind {
        "ClusterRole" => cluster_role_rules(store, role_name),
        "Role" if !namespace.is_empty() => store
            .get(&Key::new(&ROLE, namespace, role_name))
            .map(|r| rules_of(&r))
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    if !rules.iter().any(|r| rule_allows(r, at)) {
        return None;
    }
    let binding_name = binding["metadata"]["name"].as_str().unwrap_or_default();
    let (binding_kind, role) = if namespace.is_empty() {
        ("ClusterRoleBinding", format!("{role_kind} {role_name:?}"))
    } else {
        ("RoleBinding", format!("{role_kind} {role_name:?}"))
    };
    let bound = if namespace.is_empty() {
        format!("{binding_name:?}")
    } else {
        format!("\"{binding_name}/{namespace}\"")
    };
    Some(format!(
        "RBAC: allowed by {binding_kind} {bound} of {role} to {}",
        describe_subject(subject)
    ))
}

/// `ServiceAccount "default/lab"`, as `describeSubject` writes a subject.
fn describe_subject(s: &Value) -> String {
    let kind = s["kind"].as_str().unwrap_or_default();
    let name = s["name"].as_str().unwrap_or_default();
    match s["namespace"].as_str().filter(|n| !n.is_empty()) {
        Some(ns) => format!("{kind} \"{name}/{ns}\""),
        None => format!("{kind} {name:?}"),
    }
}

/// `appliesToUser`: a subject names the user, one of its groups, or its service account (whose
/// namespace defaults to the binding's).
fn applies_to(subject: &Value, binding_namespace: &str, user: &User) -> bool {
    let name = subject["name"].as_str().unwrap_or_default();
    match subject["kind"].as_str().unwrap_or_default() {
        "User" => user.name == name,
        "Group" => user.groups.iter().any(|g| g == name),
        "ServiceAccount" => {
            let namespace = subject["namespace"]
                .as_str()
                .filter(|n| !n.is_empty())
                .unwrap_or(binding_namespace);
            !namespace.is_empty()
                && user.name == format!("system:serviceaccount:{namespace}:{name}")
        }
        _ => false,
    }
}

/// A ClusterRole's rules; an aggregated one's are those of the roles its selectors pick (what
/// the aggregation controller would have copied into it).
fn cluster_role_rules(store: &Store, name: &str) -> Vec<Value> {
    let Some(role) = store.get(&Key::new(&CLUSTER_ROLE, "", name)) else {
        return Vec::new();
    };
    let mut rules = rules_of(&role);
    let selectors = role["aggregationRule"]["clusterRoleSelectors"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if selectors.is_empty() {
        return rules;
    }
    let (all, _) = store.list(&CLUSTER_ROLE, None);
    for other in all.iter().filter(|r| r["metadata"]["name"] != name) {
        let labels = &other["metadata"]["labels"];
        let picked = selectors.iter().any(|sel| {
            sel["matchLabels"]
                .as_object()
                .is_some_and(|m| !m.is_empty() && m.iter().all(|(k, v)| &labels[k] == v))
        });
        if picked {
            rules.extend(rules_of(other));
        }
    }
    rules
}

fn rules_of(role: &Value) -> Vec<Value> {
    role["rules"].as_array().cloned().unwrap_or_default()
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

fn has(list: &[&str], want: &str) -> bool {
    list.iter().any(|x| *x == "*" || *x == want)
}

/// `RuleAllows`: verb, group, resource (with its subresource) and name, or the URL.
pub fn rule_allows(rule: &Value, at: &Attributes) -> bool {
    let verbs = strings(&rule["verbs"]);
    if !has(&verbs, at.verb) {
        return false;
    }
    if let Some(path) = at.path {
        return strings(&rule["nonResourceURLs"]).iter().any(|u| {
            *u == "*" || *u == path || u.strip_suffix('*').is_some_and(|p| path.starts_with(p))
        });
    }
    if !has(&strings(&rule["apiGroups"]), at.group) {
        return false;
    }
    let combined = if at.subresource.is_empty() {
        at.resource.to_string()
    } else {
        format!("{}/{}", at.resource, at.subresource)
    };
    let resources_match = strings(&rule["resources"]).iter().any(|r| {
        *r == "*"
            || *r == combined
            || (!at.subresource.is_empty() && *r == format!("*/{}", at.subresource))
    });
    if !resources_match {
        return false;
    }
    let names = strings(&rule["resourceNames"]);
    names.is_empty() || names.contains(&at.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_service_account_is_in_its_groups_and_authenticated() {
        let u = User::impersonated("system:serviceaccount:lab:default", &[]);
        assert_eq!(
            u.groups,
            [
                "system:serviceaccounts",
                "system:serviceaccounts:lab",
                "system:authenticated"
            ]
        );
    }

    #[test]
    fn rules_match_verbs_groups_resources_and_names() {
        let rule = json!({"verbs": ["get", "list"], "apiGroups": [""], "resources": ["pods", "pods/log"], "resourceNames": []});
        let at = |verb, resource, subresource| Attributes {
            verb,
            namespace: "lab",
            resource,
            subresource,
            ..Default::default()
        };
        assert!(rule_allows(&rule, &at("list", "pods", "")));
        assert!(rule_allows(&rule, &at("get", "pods", "log")));
        assert!(!rule_allows(&rule, &at("delete", "pods", "")));
        assert!(!rule_allows(&rule, &at("get", "pods", "exec")));
        let urls = json!({"verbs": ["get"], "nonResourceURLs": ["/healthz", "/api/*"]});
        let path = |p| Attributes {
            verb: "get",
            path: Some(p),
            ..Default::default()
        };
        assert!(rule_allows(&urls, &path("/api/v1")));
        assert!(!rule_allows(&urls, &path("/metrics")));
    }
}
