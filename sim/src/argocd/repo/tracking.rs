//! Annotation resource tracking, the Argo CD 3.x default: every rendered object but a CRD gets
//! `argocd.argoproj.io/tracking-id: <app>:<group>/<kind>:<namespace>/<name>`.

use serde_json::{Map, Value};

pub const TRACKING_ID: &str = "argocd.argoproj.io/tracking-id";
/// Only written when argocd-cm sets `installationID`; otherwise actively removed.
const INSTALLATION_ID: &str = "argocd.argoproj.io/installation-id";

/// `<app>:<group>/<kind>:<namespace>/<name>`. A manifest without a namespace (cluster-scoped
/// ones included) gets the destination namespace; the core group is empty, and an object with
/// only `generateName` has an empty name.
pub fn tracking_id(app: &str, obj: &Value, dest_namespace: &str) -> String {
    let meta = obj.get("metadata");
    let field = |k: &str| {
        meta.and_then(|m| m.get(k))
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    let namespace = match field("namespace") {
        "" => dest_namespace,
        ns => ns,
    };
    let group = group_of(obj);
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
    format!("{app}:{group}/{kind}:{namespace}/{}", field("name"))
}

/// Stamps the tracking annotation (`SetAppInstance` with the annotation method). CRDs are left
/// alone, as `GenerateManifests` skips them; no instance label is added. Annotations that are
/// not a map of strings (an unquoted `sync-wave: -1`) fail the whole render, worded as the
/// repo-server words it (docs/sim-behaviour.md §2.2).
pub(super) fn stamp(app: &str, obj: &mut Value, dest_namespace: &str) -> Result<(), String> {
    if is_crd(obj) {
        return Ok(());
    }
    string_annotations(obj).map_err(|e| {
        let meta = obj.get("metadata");
        let field = |k: &str| {
            meta.and_then(|m| m.get(k))
                .and_then(Value::as_str)
                .unwrap_or("")
        };
        format!(
            "failed to set app instance tracking info on manifest: failed to get annotations for {} {}/{}: {e}",
            gvk(obj),
            field("namespace"),
            field("name")
        )
    })?;
    let id = tracking_id(app, obj, dest_namespace);
    let Value::Object(root) = obj else {
        return Ok(());
    };
    let meta = root
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if meta.is_null() {
        *meta = Value::Object(Map::new());
    }
    // metadata of another type cannot take annotations; Unstructured silently gives up too.
    let Value::Object(meta) = meta else {
        return Ok(());
    };
    let annotations = meta
        .entry("annotations")
        .or_insert_with(|| Value::Object(Map::new()));
    if annotations.is_null() {
        *annotations = Value::Object(Map::new());
    }
    if let Value::Object(a) = annotations {
        a.remove(INSTALLATION_ID);
        a.insert(TRACKING_ID.into(), Value::String(id));
    }
    Ok(())
}

/// apimachinery's `NestedStringMap` on `metadata.annotations`: absent or null is fine, anything
/// else must be a map of strings. Go reports whichever bad key its map order meets first; the
/// first in key order is reported here.
fn string_annotations(obj: &Value) -> Result<(), String> {
    let Some(annotations) = obj.get("metadata").and_then(|m| m.get("annotations")) else {
        return Ok(());
    };
    match annotations {
        Value::Null => Ok(()),
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            match keys.into_iter().find(|k| !map[k.as_str()].is_string()) {
                None => Ok(()),
                Some(k) => Err(format!(
                    ".metadata.annotations accessor error: contains non-string value in the map under key {}: {} is of the type {}, expected string",
                    serde_json::Value::String(k.clone()),
                    go_value(&map[k.as_str()]),
                    go_type(&map[k.as_str()])
                )),
            }
        }
        other => Err(format!(
            ".metadata.annotations accessor error: {} is of the type {}, expected map[string]interface{{}}",
            go_value(other),
            go_type(other)
        )),
    }
}

/// `GroupVersionKind().String()`: `/v1, Kind=ConfigMap`, `apps/v1, Kind=Deployment`.
fn gvk(obj: &Value) -> String {
    let api_version = obj.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let (group, version) = match api_version.split_once('/') {
        Some((g, v)) if !v.contains('/') => (g, v),
        Some(_) => ("", ""),
        None => ("", api_version),
    };
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
    format!("{group}/{version}, Kind={kind}")
}

/// Go's `%T` of a decoded JSON value.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if integral(n).is_some() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// Go's `%v` of a decoded JSON value (maps print with sorted keys, as fmt does).
fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match integral(n) {
            Some(i) => i.to_string(),
            None => go_float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(go_value).collect();
            format!("[{}]", parts.join(" "))
        }
        Value::Object(map) => {
            let mut parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}:{}", go_value(v)))
                .collect();
            parts.sort();
            format!("map[{}]", parts.join(" "))
        }
    }
}

/// A number the YAML-to-JSON path decodes as `int64` (a whole number in range).
fn integral(n: &serde_json::Number) -> Option<i64> {
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    let f = n.as_f64()?;
    (f.fract() == 0.0 && f.abs() < 9.2e18).then_some(f as i64)
}

/// `%v` of a float64: shortest digits, exponent form below 1e-4 and from 1e21.
fn go_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-4..1e21).contains(&abs) {
        let text = format!("{f:e}");
        let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    f.to_string()
}

fn is_crd(obj: &Value) -> bool {
    obj.get("kind").and_then(Value::as_str) == Some("CustomResourceDefinition")
        && group_of(obj) == "apiextensions.k8s.io"
}

/// The group of `apiVersion` as `schema.ParseGroupVersion` reads it: `apps/v1` → `apps`,
/// `v1` → core (empty); anything with more slashes does not parse and counts as empty.
fn group_of(obj: &Value) -> &str {
    let api_version = obj.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    match api_version.split_once('/') {
        Some((group, version)) if !version.contains('/') => group,
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_follow_the_format() {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cfg"}});
        assert_eq!(
            tracking_id("guestbook", &cm, "default"),
            "guestbook:/ConfigMap:default/cfg"
        );
        let dep = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "prod"}});
        assert_eq!(
            tracking_id("guestbook", &dep, "default"),
            "guestbook:apps/Deployment:prod/web"
        );
        let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}});
        assert_eq!(tracking_id("a", &ns, "dest"), "a:/Namespace:dest/x");
        let hook = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"generateName": "migrate-"}});
        assert_eq!(tracking_id("a", &hook, "dest"), "a:batch/Job:dest/");
    }

    #[test]
    fn a_non_string_annotation_value_fails_as_the_real_accessor_does() {
        let mut cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings",
            "annotations": {"argocd.argoproj.io/sync-wave": -1}}});
        assert_eq!(
            stamp("app", &mut cm, "ns").unwrap_err(),
            "failed to set app instance tracking info on manifest: failed to get annotations for /v1, Kind=ConfigMap /settings: .metadata.annotations accessor error: contains non-string value in the map under key \"argocd.argoproj.io/sync-wave\": -1 is of the type int64, expected string"
        );
        let mut dep = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "prod",
            "annotations": {"a": "ok", "b": true}}});
        assert!(
            stamp("app", &mut dep, "ns").unwrap_err().ends_with(
                "failed to get annotations for apps/v1, Kind=Deployment prod/web: .metadata.annotations accessor error: contains non-string value in the map under key \"b\": true is of the type bool, expected string"
            )
        );
        let mut odd =
            json!({"kind": "X", "metadata": {"name": "x", "annotations": {"n": null, "f": 1.5}}});
        assert!(
            stamp("app", &mut odd, "ns")
                .unwrap_err()
                .ends_with("under key \"f\": 1.5 is of the type float64, expected string")
        );
        let mut flat = json!({"kind": "X", "metadata": {"name": "x", "annotations": "a=b"}});
        assert!(stamp("app", &mut flat, "ns").unwrap_err().ends_with(
            ".metadata.annotations accessor error: a=b is of the type string, expected map[string]interface{}"
        ));
    }

    #[test]
    fn stamps_all_but_crds() {
        let mut cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c",
            "labels": {"app.kubernetes.io/instance": "chart-set"},
            "annotations": {"argocd.argoproj.io/installation-id": "x", "keep": "me"}}});
        stamp("app", &mut cm, "ns").unwrap();
        assert_eq!(
            cm["metadata"]["annotations"],
            json!({"keep": "me", "argocd.argoproj.io/tracking-id": "app:/ConfigMap:ns/c"})
        );
        // Labels the chart rendered itself stay; Argo CD adds none.
        assert_eq!(
            cm["metadata"]["labels"],
            json!({"app.kubernetes.io/instance": "chart-set"})
        );

        let mut bare = json!({"kind": "Thing"});
        stamp("app", &mut bare, "ns").unwrap();
        assert_eq!(
            bare["metadata"]["annotations"][TRACKING_ID],
            "app:/Thing:ns/"
        );

        let mut crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "x.y"}});
        stamp("app", &mut crd, "ns").unwrap();
        assert!(crd["metadata"].get("annotations").is_none());
    }
}
