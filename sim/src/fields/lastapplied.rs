//! Interplay with client-side `kubectl apply`: its last-applied annotation lets the "kubectl"
//! manager take over client-side-applied fields without conflicts, and is kept in step.

use serde_json::{Map, Value};

use super::compare::compare;
use super::set::FieldSet;

/// The annotation client-side `kubectl apply` keeps its last configuration in.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The only manager name the real server gives this treatment to (`kubectl apply --server-side`).
pub const KUBECTL: &str = "kubectl";

fn last_applied_text(obj: &Value) -> Option<&str> {
    obj.pointer("/metadata/annotations")?
        .get(LAST_APPLIED)?
        .as_str()
}

/// The fields the live object's last-applied annotation sets to exactly their live values.
/// When `kubectl apply --server-side` conflicts only on these, the server forces the apply:
/// that is the documented upgrade path from client-side to server-side apply.
pub fn allowed_conflicts(live: &Value, builtin: bool) -> Option<FieldSet> {
    let last: Value = serde_json::from_str(last_applied_text(live)?).ok()?;
    let cmp = compare(Some(&last), live, builtin);
    let set = FieldSet::from_object(&last, builtin);
    Some(
        set.difference(&cmp.modified)
            .difference(&cmp.added)
            .difference(&cmp.removed),
    )
}

/// After an apply by "kubectl", rewrites an existing last-applied annotation to the applied
/// configuration, so a later client-side apply computes its patch from the right base. The
/// annotation's new value is not tracked as a field change, as on the real server.
pub fn sync_annotation(obj: &mut Value, config: &Value) {
    if last_applied_text(obj).is_none() {
        return;
    }
    let text = encode_last_applied(config);
    if let Some(Value::Object(annotations)) = obj.pointer_mut("/metadata/annotations") {
        annotations.insert(LAST_APPLIED.to_string(), Value::String(text));
    }
}

/// The configuration as the server encodes it into the annotation: without the annotation
/// itself, keys sorted, compact, HTML-escaped like Go's encoder, newline-terminated.
fn encode_last_applied(config: &Value) -> String {
    let mut config = config.clone();
    if let Some(Value::Object(meta)) = config.get_mut("metadata") {
        let now_empty = match meta.get_mut("annotations") {
            Some(Value::Object(annotations)) => {
                annotations.remove(LAST_APPLIED);
                annotations.is_empty()
            }
            _ => false,
        };
        if now_empty {
            meta.remove("annotations");
        }
    }
    let text = sorted(&config).to_string();
    let escaped = text
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029");
    format!("{escaped}\n")
}

fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut pairs: Vec<_> = map.iter().collect();
            pairs.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(
                pairs
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sorted(v)))
                    .collect::<Map<_, _>>(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn live_with(last: &Value, replicas: i64) -> Value {
        json!({"metadata": {"name": "w", "annotations": {LAST_APPLIED: last.to_string()}},
               "spec": {"replicas": replicas, "paused": false}})
    }

    #[test]
    fn fields_still_matching_the_annotation_are_allowed() {
        let last = json!({"metadata": {"name": "w"}, "spec": {"replicas": 2, "paused": false}});
        let allowed = allowed_conflicts(&live_with(&last, 2), true).unwrap();
        assert!(allowed.contains_path(&["spec", "replicas"]));
        let drifted = allowed_conflicts(&live_with(&last, 5), true).unwrap();
        assert!(!drifted.contains_path(&["spec", "replicas"]));
        assert!(drifted.contains_path(&["spec", "paused"]));
        assert!(allowed_conflicts(&json!({"metadata": {}}), true).is_none());
        let garbage = json!({"metadata": {"annotations": {LAST_APPLIED: "{not json"}}});
        assert!(allowed_conflicts(&garbage, true).is_none());
    }

    #[test]
    fn sync_rewrites_only_an_existing_annotation() {
        let config = json!({"kind": "X", "metadata": {"name": "w", "annotations": {LAST_APPLIED: "old"}},
                            "data": {"b": "<1>", "a": "&"}});
        let mut obj = live_with(&json!({}), 1);
        sync_annotation(&mut obj, &config);
        let text = obj["metadata"]["annotations"][LAST_APPLIED]
            .as_str()
            .unwrap();
        assert_eq!(
            text,
            "{\"data\":{\"a\":\"\\u0026\",\"b\":\"\\u003c1\\u003e\"},\"kind\":\"X\",\"metadata\":{\"name\":\"w\"}}\n"
        );
        let mut bare = json!({"metadata": {"name": "w"}});
        sync_annotation(&mut bare, &config);
        assert_eq!(bare, json!({"metadata": {"name": "w"}}));
    }
}
