//! What the API server's apiextensions controllers do for a CustomResourceDefinition: the
//! naming controller accepts its names (or says which one another CRD of the group already
//! uses), the establishing controller marks it Established, the cluster then serves its
//! custom resources (`kinds::Catalog`), and on deletion the finalizer controller deletes every
//! custom resource before letting the CRD go (`apiextensions-apiserver/pkg/controller/{status,
//! establish,finalizer}`). Conditions carry the real reasons and messages.

use std::time::Duration;

use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::{Env, MANAGER};
use crate::kinds::{self, CUSTOM_RESOURCE_DEFINITION};
use crate::objects;
use crate::ops::{self, DeleteOptions, Part};
use crate::store::{Event, Key, Store};

/// The finalizer the API server puts on a CRD being deleted.
pub const CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

pub struct Definitions;

impl Controller for Definitions {
    fn keys_for(&self, env: &Env, event: &Event) -> Vec<Key> {
        if !std::ptr::eq(event.key.ty(), &CUSTOM_RESOURCE_DEFINITION) {
            return Vec::new();
        }
        // A CRD that goes frees its names: the others of its group may take them now.
        let group = event.object["spec"]["group"].as_str().unwrap_or_default();
        let mut keys = vec![event.key.clone()];
        if event.kind == crate::store::EventType::Deleted {
            keys.extend(
                env.store
                    .list(&CUSTOM_RESOURCE_DEFINITION, None)
                    .0
                    .iter()
                    .filter(|c| c["spec"]["group"] == group)
                    .map(|c| Key::new(&CUSTOM_RESOURCE_DEFINITION, "", objects::name(c))),
            );
        }
        keys
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        env.store
            .list(&CUSTOM_RESOURCE_DEFINITION, None)
            .0
            .iter()
            .map(|c| Key::new(&CUSTOM_RESOURCE_DEFINITION, "", objects::name(c)))
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(crd) = env.store.get(key) else {
            env.store.kinds.withdraw(&key.name);
            return Next::Done;
        };
        if objects::is_deleting(&crd) {
            return finalize(env, key, &crd);
        }
        name_and_establish(&env.store, key, &crd);
        serve(&env.store, key);
        Next::Done
    }
}

/// Names, establishes and serves the CRD `name` now, as the controller would in a moment: for
/// a writer that waits for it to be Established before going on (Argo CD's sync).
pub fn establish_now(store: &Store, name: &str) {
    let key = Key::new(&CUSTOM_RESOURCE_DEFINITION, "", name);
    let Some(crd) = store.get(&key) else {
        return;
    };
    if objects::is_deleting(&crd) {
        return;
    }
    name_and_establish(store, &key, &crd);
    serve(store, &key);
}

/// Accepts the CRD's names and marks it Established, as two status writes (the naming
/// controller's, then the establishing controller's) like the real server's.
fn name_and_establish(store: &Store, key: &Key, crd: &Value) {
    let status = &crd["status"];
    if crd["spec"]["names"] != status["acceptedNames"] || conditions(crd).is_empty() {
        let (names, accepted, established) = names_and_conditions(store, crd);
        let mut conds = conditions(crd);
        set_condition(store, &mut conds, accepted);
        set_condition(store, &mut conds, established);
        let patch = json!({"status": {"acceptedNames": names, "conditions": conds}});
        if let Err(e) = ops::merge(store, key, &patch, Part::Status, MANAGER) {
            tracing::debug!("crd {}: names not written: {}", key.name, e.message);
            return;
        }
    }
    // Served from the moment its names are accepted, so Established means it is served.
    serve(store, key);
    let Some(crd) = store.get(key) else {
        return;
    };
    if is_true(&crd, "NamesAccepted") && !is_true(&crd, "Established") {
        let mut conds = conditions(&crd);
        set_condition(
            store,
            &mut conds,
            condition(
                "Established",
                "True",
                "InitialNamesAccepted",
                "the initial names have been accepted",
            ),
        );
        let patch = json!({"status": {"conditions": conds}});
        let _ = ops::merge(store, key, &patch, Part::Status, MANAGER);
    }
}

/// Serves the CRD's types while its names are accepted or it is Established (as the custom
/// resource handler does), and not otherwise.
fn serve(store: &Store, key: &Key) {
    let Some(crd) = store.get(key) else {
        return;
    };
    if !(is_true(&crd, "NamesAccepted") || is_true(&crd, "Established")) {
        store.kinds.withdraw(&key.name);
        return;
    }
    match kinds::custom::from_crd(&crd) {
        Some((storage, served)) => {
            let terminating = is_true(&crd, "Terminating");
            store.kinds.serve(&key.name, storage, served, terminating);
        }
        None => {
            store.kinds.withdraw(&key.name);
        }
    }
}

/// The names the other CRDs of this one's group have accepted: resource names (plural,
/// singular, short names) and kinds (kind, list kind).
fn taken_names(store: &Store, crd: &Value) -> (Vec<String>, Vec<String>) {
    let group = crd["spec"]["group"].as_str().unwrap_or_default();
    let name = objects::name(crd);
    let (mut resources, mut kinds) = (Vec::<String>::new(), Vec::<String>::new());
    for other in store.list(&CUSTOM_RESOURCE_DEFINITION, None).0 {
        if other["spec"]["group"] != group || objects::name(&other) == name {
            continue;
        }
        let a = &other["status"]["acceptedNames"];
        for k in ["plural", "singular"] {
            resources.push(a[k].as_str().unwrap_or_default().to_string());
        }
        for s in a["shortNames"].as_array().into_iter().flatten() {
            resources.push(s.as_str().unwrap_or_default().to_string());
        }
        for k in ["kind", "listKind"] {
            kinds.push(a[k].as_str().unwrap_or_default().to_string());
        }
    }
    (resources, kinds)
}

/// `calculateNamesAndConditions`: the names the CRD may have (each one it asks for unless
/// another CRD of its group has accepted it), NamesAccepted, and Established until the
/// establishing controller sets it.
fn names_and_conditions(store: &Store, crd: &Value) -> (Value, Value, Value) {
    let (taken_resources, taken_kinds) = taken_names(store, crd);
    let requested = &crd["spec"]["names"];
    let accepted = &crd["status"]["acceptedNames"];
    let mut names = accepted.as_object().cloned().unwrap_or_default();
    let mut problem: Option<(&str, String)> = None;
    let fresh = |want: &str, have: &str, taken: &[String]| {
        if want == have || !taken.iter().any(|t| t == want) {
            None
        } else {
            Some(format!("{want:?} is already in use"))
        }
    };
    let text = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_string();
    for (field, reason, taken) in [
        ("plural", "PluralConflict", &taken_resources),
        ("singular", "SingularConflict", &taken_resources),
    ] {
        match fresh(&text(requested, field), &text(accepted, field), taken) {
            Some(why) => problem = Some((reason, why)),
            None => {
                names.insert(field.into(), requested[field].clone());
            }
        }
    }
    if requested["shortNames"] != accepted["shortNames"] {
        let had: Vec<&str> = accepted["shortNames"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let errors: Vec<String> = requested["shortNames"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|s| !had.contains(s))
            .filter_map(|s| fresh(s, "", &taken_resources))
            .collect();
        match errors.as_slice() {
            [] => {
                names.insert("shortNames".into(), requested["shortNames"].clone());
            }
            [one] => problem = Some(("ShortNamesConflict", one.clone())),
            many => problem = Some(("ShortNamesConflict", format!("[{}]", many.join(", ")))),
        }
    }
    for (field, reason) in [("kind", "KindConflict"), ("listKind", "ListKindConflict")] {
        match fresh(
            &text(requested, field),
            &text(accepted, field),
            &taken_kinds,
        ) {
            Some(why) => problem = Some((reason, why)),
            None => {
                names.insert(field.into(), requested[field].clone());
            }
        }
    }
    match requested.get("categories") {
        Some(c) => names.insert("categories".into(), c.clone()),
        None => names.remove("categories"),
    };
    let accepted_condition = match &problem {
        Some((reason, why)) => condition("NamesAccepted", "False", reason, why),
        None => condition("NamesAccepted", "True", "NoConflicts", "no conflicts found"),
    };
    (
        ordered_names(names),
        accepted_condition,
        established_condition(crd, problem.is_none()),
    )
}

/// The accepted names in the order the Go struct writes them.
fn ordered_names(mut names: serde_json::Map<String, Value>) -> Value {
    let mut ordered = serde_json::Map::new();
    for k in [
        "plural",
        "singular",
        "shortNames",
        "kind",
        "listKind",
        "categories",
    ] {
        if let Some(v) = names.remove(k).filter(|v| !v.is_null()) {
            ordered.insert(k.into(), v);
        }
    }
    Value::Object(ordered)
}

/// Established as the naming controller leaves it: True stays True; otherwise Installing once
/// every name is accepted (the establishing controller then sets True), else NotAccepted.
fn established_condition(crd: &Value, all_accepted: bool) -> Value {
    let old = conditions(crd)
        .into_iter()
        .find(|c| c["type"] == "Established");
    let mut established = old.unwrap_or_else(|| {
        condition(
            "Established",
            "False",
            "NotAccepted",
            "not all names are accepted",
        )
    });
    if established["status"] != "True" && all_accepted {
        established = condition(
            "Established",
            "False",
            "Installing",
            "the initial names have been accepted",
        );
    }
    established
}

/// The finalizer controller: once the CRD is marked for deletion, delete every custom resource
/// it defines, then let the CRD go.
fn finalize(env: &Env, key: &Key, crd: &Value) -> Next {
    if !objects::finalizers(crd)
        .iter()
        .any(|f| f == CLEANUP_FINALIZER)
    {
        return Next::Done;
    }
    let mut conds = conditions(crd);
    set_condition(
        &env.store,
        &mut conds,
        condition(
            "Terminating",
            "True",
            "InstanceDeletionInProgress",
            "CustomResource deletion is in progress",
        ),
    );
    let in_progress = json!({"status": {"conditions": conds}});
    let _ = ops::merge(&env.store, key, &in_progress, Part::Status, MANAGER);
    serve(&env.store, key);
    let outcome = if is_true(crd, "Established") {
        let storage = env
            .store
            .kinds
            .storage_of(&key.name)
            .or_else(|| kinds::custom::from_crd(crd).map(|(s, _)| s));
        let mut remaining = 0;
        if let Some(ty) = storage {
            for obj in env.store.list(ty, None).0 {
                if !objects::is_deleting(&obj) {
                    let _ = ops::delete(
                        &env.store,
                        ty,
                        objects::namespace(&obj),
                        objects::name(&obj),
                        &DeleteOptions::default(),
                    );
                }
            }
            remaining = env.store.list(ty, None).0.len();
        }
        if remaining > 0 {
            // Instances held by finalizers: look again, as the real controller polls.
            return Next::After(Duration::from_secs(2));
        }
        condition(
            "Terminating",
            "False",
            "InstanceDeletionCompleted",
            "removed all instances",
        )
    } else {
        condition(
            "Terminating",
            "False",
            "NeverEstablished",
            "resource was never established",
        )
    };
    let Some(crd) = env.store.get(key) else {
        return Next::Done;
    };
    let mut conds = conditions(&crd);
    set_condition(&env.store, &mut conds, outcome);
    let completed = json!({"status": {"conditions": conds}});
    let _ = ops::merge(&env.store, key, &completed, Part::Status, MANAGER);
    env.store.kinds.withdraw(&key.name);
    let rest: Vec<String> = objects::finalizers(&crd)
        .into_iter()
        .filter(|f| f != CLEANUP_FINALIZER)
        .collect();
    let release = json!({"metadata": {"finalizers": rest}});
    let _ = ops::merge(&env.store, key, &release, Part::Main, MANAGER);
    Next::Done
}

/// The Terminating condition a CRD gets when it is marked for deletion (by the registry's
/// Delete, with the finalizer).
pub fn marked_for_deletion() -> Value {
    json!({
        "type": "Terminating",
        "status": "True",
        "reason": "InstanceDeletionPending",
        "message": "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
    })
}

fn condition(ty: &str, status: &str, reason: &str, message: &str) -> Value {
    json!({"type": ty, "status": status, "reason": reason, "message": message})
}

fn conditions(crd: &Value) -> Vec<Value> {
    crd["status"]["conditions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn is_true(crd: &Value, ty: &str) -> bool {
    conditions(crd)
        .iter()
        .any(|c| c["type"] == ty && c["status"] == "True")
}

/// `SetCRDCondition`: replaces the condition of the same type (its transition time kept
/// unless the status changes), or appends it.
fn set_condition(store: &Store, conds: &mut Vec<Value>, new: Value) {
    let now = store.clock.now_rfc3339();
    set_condition_at(conds, new, &now);
}

pub fn set_condition_at(conds: &mut Vec<Value>, new: Value, now: &str) {
    let ordered = |c: &Value, time: &Value| {
        json!({"type": c["type"], "status": c["status"], "lastTransitionTime": time,
            "reason": c["reason"], "message": c["message"]})
    };
    match conds.iter_mut().find(|c| c["type"] == new["type"]) {
        Some(old) => {
            let time = if old["status"] == new["status"] && !old["lastTransitionTime"].is_null() {
                old["lastTransitionTime"].clone()
            } else {
                json!(now)
            };
            *old = ordered(&new, &time);
        }
        None => conds.push(ordered(&new, &json!(now))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_condition_keeps_its_time_until_its_status_changes() {
        let mut conds = Vec::new();
        let installing = condition("Established", "False", "Installing", "x");
        set_condition_at(&mut conds, installing.clone(), "t1");
        set_condition_at(&mut conds, installing, "t2");
        assert_eq!(conds[0]["lastTransitionTime"], "t1");
        let up = condition("Established", "True", "InitialNamesAccepted", "y");
        set_condition_at(&mut conds, up, "t3");
        assert_eq!(conds.len(), 1);
        assert_eq!(
            (&conds[0]["lastTransitionTime"], &conds[0]["reason"]),
            (&json!("t3"), &json!("InitialNamesAccepted"))
        );
    }
}
