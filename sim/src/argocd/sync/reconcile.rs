//! `kubectl auth reconcile`, which Argo CD runs before a client-side apply of an RBAC object
//! (`rbacReconcile`): a missing Role is created with its rules, an existing one gets the rules
//! it lacks added, a binding the subjects it lacks (and is recreated when its roleRef changed).
//! Its output, stdout and stderr joined as Argo CD joins them, comes first in the task's result.

use serde_json::{Value, json};

use super::kubectl;
use crate::controllers::Env;
use crate::kinds::ResourceType;
use crate::objects;
use crate::ops::{self, Actor, DeleteOptions, Part, Target};
use crate::store::Key;

/// `auth reconcile` sends no field manager: the server names the writer after the
/// controller's User-Agent (docs/sim-behaviour.md §7.1).
const RECONCILE_MANAGER: &str = "argocd-application-controller";

/// Whether Argo CD reconciles this kind before applying it.
pub fn applies_to(ty: &ResourceType) -> bool {
    ty.group == "rbac.authorization.k8s.io"
}

/// Reconciles `desired` and returns what kubectl printed.
pub fn run(
    env: &Env,
    ty: &'static ResourceType,
    namespace: &str,
    desired: &Value,
) -> Result<String, String> {
    let name = objects::name(desired);
    let key = Key::new(ty, namespace, name);
    let live = env.store.get(&key);
    let is_binding = ty.kind.ends_with("Binding");
    let (operation, missing, reconciled) = match (&live, is_binding) {
        (None, _) => {
            let missing = if is_binding {
                subjects(desired)
            } else {
                breakdown(desired)
            };
            ("create", missing, desired.clone())
        }
        (Some(live), false) => {
            let missing: Vec<Value> = breakdown(desired)
                .into_iter()
                .filter(|r| !covered(live, r))
                .collect();
            let mut updated = (**live).clone();
            let mut rules = live["rules"].as_array().cloned().unwrap_or_default();
            rules.extend(missing.iter().cloned());
            updated["rules"] = json!(rules);
            (
                if missing.is_empty() { "" } else { "update" },
                missing,
                updated,
            )
        }
        (Some(live), true) => {
            let have = subjects(live);
            let missing: Vec<Value> = subjects(desired)
                .into_iter()
                .filter(|s| !have.contains(s))
                .collect();
            if live["roleRef"] != desired["roleRef"] {
                ("recreate", missing, desired.clone())
            } else {
                let mut updated = (**live).clone();
                updated["subjects"] = json!(
                    have.into_iter()
                        .chain(missing.iter().cloned())
                        .collect::<Vec<_>>()
                );
                (
                    if missing.is_empty() { "" } else { "update" },
                    missing,
                    updated,
                )
            }
        }
    };
    let actor = Actor::new(RECONCILE_MANAGER);
    let body = kubectl::as_stored(ty, &reconciled)?;
    match operation {
        "create" => {
            ops::create(&env.store, ty, namespace, body, &actor).map_err(|e| e.message)?;
        }
        "update" => {
            let target = Target {
                ty,
                namespace,
                name,
                part: Part::Main,
            };
            ops::replace(&env.store, &target, body, &actor).map_err(|e| e.message)?;
        }
        "recreate" => {
            ops::delete(&env.store, ty, namespace, name, &DeleteOptions::default())
                .map_err(|e| e.message)?;
            ops::create(&env.store, ty, namespace, body, &actor).map_err(|e| e.message)?;
        }
        _ => {}
    }
    let stdout = format!("{} reconciled", ty.kubectl_ref(name));
    let mut stderr = String::new();
    if !operation.is_empty() {
        stderr.push_str(&format!("\treconciliation required {operation}\n"));
    }
    if !missing.is_empty() {
        let (what, shown): (&str, Vec<String>) = if is_binding {
            ("subjects", missing.iter().map(go_subject).collect())
        } else {
            ("rules", missing.iter().map(go_rule).collect())
        };
        stderr.push_str(&format!("\tmissing {what} added:\n"));
        for line in shown {
            stderr.push_str(&format!("\t\t{line}\n"));
        }
    }
    Ok(kubectl::output(&stdout, &stderr))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(String::from))
        .collect()
}

/// `BreakdownRule`: one rule per group, resource, verb (and name), one per URL and verb.
fn breakdown(role: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for rule in role["rules"].as_array().into_iter().flatten() {
        let verbs = strings(&rule["verbs"]);
        let names = strings(&rule["resourceNames"]);
        for group in strings(&rule["apiGroups"]) {
            for resource in strings(&rule["resources"]) {
                for verb in &verbs {
                    let base =
                        json!({"verbs": [verb], "apiGroups": [group], "resources": [resource]});
                    if names.is_empty() {
                        out.push(base.clone());
                    }
                    for n in &names {
                        let mut r = base.clone();
                        r["resourceNames"] = json!([n]);
                        out.push(r);
                    }
                }
            }
        }
        for url in strings(&rule["nonResourceURLs"]) {
            for verb in &verbs {
                out.push(json!({"verbs": [verb], "nonResourceURLs": [url]}));
            }
        }
    }
    out
}

/// Whether one of the live role's rules already grants this broken-down rule.
fn covered(live: &Value, wanted: &Value) -> bool {
    let one = |r: &Value, k: &str| strings(&r[k]).into_iter().next().unwrap_or_default();
    let has = |list: Vec<String>, x: &str| list.iter().any(|i| i == "*" || i == x);
    live["rules"].as_array().into_iter().flatten().any(|rule| {
        if !has(strings(&rule["verbs"]), &one(wanted, "verbs")) {
            return false;
        }
        if wanted["nonResourceURLs"].is_array() {
            let url = one(wanted, "nonResourceURLs");
            return strings(&rule["nonResourceURLs"]).iter().any(|u| {
                u == "*" || *u == url || u.strip_suffix('*').is_some_and(|p| url.starts_with(p))
            });
        }
        let names = strings(&rule["resourceNames"]);
        has(strings(&rule["apiGroups"]), &one(wanted, "apiGroups"))
            && has(strings(&rule["resources"]), &one(wanted, "resources"))
            && (names.is_empty() || names.contains(&one(wanted, "resourceNames")))
    })
}

fn subjects(binding: &Value) -> Vec<Value> {
    binding["subjects"].as_array().cloned().unwrap_or_default()
}

/// A Go slice of strings as `%+v` prints it: `[get list]` (an empty string prints as nothing).
fn go_list(v: &Value) -> String {
    format!("[{}]", strings(v).join(" "))
}

/// A PolicyRule as `%+v` prints it.
fn go_rule(r: &Value) -> String {
    format!(
        "{{Verbs:{} APIGroups:{} Resources:{} ResourceNames:{} NonResourceURLs:{}}}",
        go_list(&r["verbs"]),
        go_list(&r["apiGroups"]),
        go_list(&r["resources"]),
        go_list(&r["resourceNames"]),
        go_list(&r["nonResourceURLs"])
    )
}

/// A Subject as `%+v` prints it.
fn go_subject(s: &Value) -> String {
    let text = |k: &str| s[k].as_str().unwrap_or_default().to_string();
    format!(
        "{{Kind:{} APIGroup:{} Name:{} Namespace:{}}}",
        text("kind"),
        text("apiGroup"),
        text("name"),
        text("namespace")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_prints_as_go_prints_it_and_breaks_down_per_verb() {
        let role = json!({"rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get", "list"]}]});
        let rules = breakdown(&role);
        assert_eq!(rules.len(), 2);
        assert_eq!(
            go_rule(&rules[0]),
            "{Verbs:[get] APIGroups:[] Resources:[configmaps] ResourceNames:[] NonResourceURLs:[]}"
        );
        assert!(covered(&role, &rules[1]));
        let more = json!({"verbs": ["delete"], "apiGroups": [""], "resources": ["configmaps"]});
        assert!(!covered(&role, &more));
    }
}
