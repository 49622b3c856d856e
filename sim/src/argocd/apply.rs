//! What client-side `kubectl apply` leaves on the server, which is how Argo CD applies by
//! default: the last-applied annotation and the three-way merge of it, the new manifest and the
//! live object.
//!
//! The result is what kubectl's patch makes of the live object. The API server then defaults
//! it (a `$retainKeys` may, for instance, clear a Deployment's `rollingUpdate` for the server
//! to fill in again), so callers store it through their defaulting like any other write.

mod gojson;
mod jsonmerge;
mod threeway;

use serde_json::{Map, Value};

use crate::patch::strategic::{PatchError, apply_strategic_merge};

pub use gojson::{encode as go_json, values_equal};

/// The annotation client-side apply records the applied manifest in.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Why kubectl would refuse the apply; the messages follow kubectl's where it has one.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ApplyError {
    #[error("the manifest is not a JSON object")]
    NotAnObject,
    #[error("map: {field} does not contain declared merge key: {key}")]
    MissingMergeKey { field: String, key: String },
    #[error("cannot merge list {field}: {reason}")]
    BadList { field: String, reason: &'static str },
    #[error("error while applying: invalid {LAST_APPLIED} annotation: {0}")]
    BadLastApplied(String),
    #[error(transparent)]
    Patch(#[from] PatchError),
}

/// The annotation's value for `desired`: the manifest without the annotation itself,
/// encoded as kubectl's Go encoder does (sorted keys, compact, newline-terminated). kubectl
/// always leaves an `annotations` map in it, empty if the manifest has none.
pub fn last_applied_configuration(desired: &Value) -> String {
    let mut config = desired.clone();
    if let Value::Object(obj) = &mut config {
        let meta = obj
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()));
        if !meta.is_object() {
            *meta = Value::Object(Map::new());
        }
        if let Value::Object(meta) = meta {
            let annotations = meta
                .entry("annotations")
                .or_insert_with(|| Value::Object(Map::new()));
            match annotations {
                Value::Object(a) => {
                    a.shift_remove(LAST_APPLIED);
                }
                other => *other = Value::Object(Map::new()),
            }
        }
    }
    gojson::encode(&config)
}

/// The object `kubectl apply` would leave; see [`try_client_side_apply`]. When kubectl would
/// refuse (a list item without its merge key, a corrupt annotation), the live object stays as
/// it was, and a create of a non-object leaves nothing but that value.
pub fn client_side_apply(live: Option<&Value>, desired: &Value, builtin: bool) -> Value {
    match try_client_side_apply(live, desired, builtin) {
        Ok(applied) => applied,
        Err(_) => live.unwrap_or(desired).clone(),
    }
}

/// The object `kubectl apply` (client-side) would leave.
///
/// On create: `desired` plus the last-applied annotation. On update: a three-way merge of
/// the live annotation, `desired` and `live`: fields the last apply set and `desired` no
/// longer has are deleted, fields in `desired` are set, fields only `live` has (server defaults,
/// other managers' fields) stay. Built-in kinds merge lists by their patch strategy (containers
/// by name...); custom resources (`builtin == false`) use a JSON merge patch, which replaces
/// lists. `status` stays as live has it.
pub fn try_client_side_apply(
    live: Option<&Value>,
    desired: &Value,
    builtin: bool,
) -> Result<Value, ApplyError> {
    if !desired.is_object() {
        return Err(ApplyError::NotAnObject);
    }
    match live {
        None => Ok(with_annotation(desired)),
        Some(live) => client_side_update(live, desired, builtin).map(|(_, applied)| applied),
    }
}

/// The patch `kubectl apply` sends to update `live` to `desired` (`{}` when there is nothing
/// to change, and then kubectl sends nothing), and the object the server makes of it.
pub fn client_side_update(
    live: &Value,
    desired: &Value,
    builtin: bool,
) -> Result<(Value, Value), ApplyError> {
    if !desired.is_object() {
        return Err(ApplyError::NotAnObject);
    }
    let modified = with_annotation(desired);
    let original = match read_last_applied(live) {
        None => Value::Object(Map::new()),
        Some(text) if text.trim().is_empty() => Value::Object(Map::new()),
        Some(text) => {
            serde_json::from_str(text).map_err(|e| ApplyError::BadLastApplied(e.to_string()))?
        }
    };
    let patch = three_way_patch(&original, &modified, live, builtin)?;
    let mut applied = apply_patch(live, &patch, builtin)?;
    // The main resource's status is not the client's to write.
    if let Value::Object(obj) = &mut applied {
        match live.get("status") {
            Some(status) => {
                obj.insert("status".to_owned(), status.clone());
            }
            None => {
                obj.shift_remove("status");
            }
        }
    }
    Ok((patch, applied))
}

/// `desired` carrying its own last-applied annotation, as kubectl sends it.
fn with_annotation(desired: &Value) -> Value {
    let text = last_applied_configuration(desired);
    let mut out = desired.clone();
    if let Value::Object(obj) = &mut out {
        let meta = obj
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()));
        if !meta.is_object() {
            *meta = Value::Object(Map::new());
        }
        let annotations = &mut meta["annotations"];
        if !annotations.is_object() {
            *annotations = Value::Object(Map::new());
        }
        annotations[LAST_APPLIED] = Value::String(text);
    }
    out
}

/// The live object's last-applied annotation, if it has one.
pub fn read_last_applied(live: &Value) -> Option<&str> {
    live.pointer("/metadata/annotations")?
        .get(LAST_APPLIED)?
        .as_str()
}

/// The patch client-side apply sends: a three-way strategic merge patch for built-in kinds, a
/// three-way JSON merge patch for custom resources.
pub fn three_way_patch(
    original: &Value,
    modified: &Value,
    current: &Value,
    builtin: bool,
) -> Result<Value, ApplyError> {
    if builtin {
        threeway::three_way(original, modified, current)
    } else {
        Ok(jsonmerge::three_way(original, modified, current))
    }
}

/// Applies a patch from [`three_way_patch`] (or [`merge_patch`]) as the API server would.
pub fn apply_patch(doc: &Value, patch: &Value, builtin: bool) -> Result<Value, ApplyError> {
    if builtin {
        Ok(apply_strategic_merge(doc, patch)?)
    } else {
        Ok(jsonmerge::apply(doc, patch))
    }
}

/// The two-way JSON merge patch from `original` to `modified` (removed fields as `null`).
pub fn merge_patch(original: &Value, modified: &Value) -> Value {
    jsonmerge::create(original, modified)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn manifest(labels: Value, image: &str) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "demo", "labels": labels},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{"name": "web", "image": image}]}}}})
    }

    #[test]
    fn create_adds_the_annotation_kubectl_writes() {
        let desired = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "cfg", "namespace": "demo"}, "data": {"a": "<b>"}});
        let created = client_side_apply(None, &desired, true);
        assert_eq!(
            created["metadata"]["annotations"][LAST_APPLIED],
            "{\"apiVersion\":\"v1\",\"data\":{\"a\":\"\\u003cb\\u003e\"},\"kind\":\"ConfigMap\",\
             \"metadata\":{\"annotations\":{},\"name\":\"cfg\",\"namespace\":\"demo\"}}\n"
        );
        assert_eq!(created["data"], desired["data"]);
    }

    #[test]
    fn update_drops_a_removed_label_keeps_foreign_ones_and_server_defaults() {
        let first = manifest(json!({"app": "web", "tier": "front"}), "nginx:1.27");
        let mut live = client_side_apply(None, &first, true);
        // What the server and other tools added since.
        live["metadata"]["labels"]["team"] = json!("ops");
        live["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"] =
            json!("IfNotPresent");
        live["status"] = json!({"replicas": 2});
        let second = manifest(json!({"app": "web"}), "nginx:1.28");
        let applied = client_side_apply(Some(&live), &second, true);
        assert_eq!(
            applied["metadata"]["labels"],
            json!({"app": "web", "team": "ops"})
        );
        let container = &applied["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(container["image"], "nginx:1.28");
        assert_eq!(container["imagePullPolicy"], "IfNotPresent");
        assert_eq!(applied["status"], json!({"replicas": 2}));
        let recorded: Value =
            serde_json::from_str(read_last_applied(&applied).expect("annotation kept"))
                .expect("json");
        assert_eq!(recorded["metadata"]["labels"], json!({"app": "web"}));
    }

    #[test]
    fn custom_resources_replace_their_lists() {
        let app = |dests: Value| {
            json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
                "metadata": {"name": "a", "namespace": "argocd"},
                "spec": {"project": "default", "syncPolicy": {"syncOptions": dests}}})
        };
        let mut live = client_side_apply(None, &app(json!(["A=1", "B=2"])), false);
        live["status"] = json!({"sync": {"status": "Synced"}});
        live["spec"]["ignoreDifferences"] = json!([{"kind": "X"}]);
        let applied = client_side_apply(Some(&live), &app(json!(["C=3"])), false);
        assert_eq!(applied["spec"]["syncPolicy"]["syncOptions"], json!(["C=3"]));
        assert_eq!(applied["spec"]["ignoreDifferences"], json!([{"kind": "X"}]));
        assert_eq!(applied["status"], live["status"]);
    }

    #[test]
    fn refusals_leave_the_live_object_alone() {
        let live = client_side_apply(None, &manifest(json!({}), "a"), true);
        let mut bad = manifest(json!({}), "b");
        bad["spec"]["template"]["spec"]["containers"] = json!([{"image": "b"}]);
        assert!(try_client_side_apply(Some(&live), &bad, true).is_err());
        assert_eq!(client_side_apply(Some(&live), &bad, true), live);
        let mut corrupt = live.clone();
        corrupt["metadata"]["annotations"][LAST_APPLIED] = json!("{not json");
        assert!(matches!(
            try_client_side_apply(Some(&corrupt), &manifest(json!({}), "c"), true),
            Err(ApplyError::BadLastApplied(_))
        ));
        assert_eq!(
            try_client_side_apply(None, &json!([1]), true),
            Err(ApplyError::NotAnObject)
        );
    }
}
