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
/// alone, as `GenerateManifests` skips them; no instance label is added.
pub(super) fn stamp(app: &str, obj: &mut Value, dest_namespace: &str) {
    if is_crd(obj) {
        return;
    }
    let id = tracking_id(app, obj, dest_namespace);
    let Value::Object(root) = obj else { return };
    let meta = root
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if meta.is_null() {
        *meta = Value::Object(Map::new());
    }
    // metadata of another type cannot take annotations; Unstructured silently gives up too.
    let Value::Object(meta) = meta else { return };
    let annotations = meta
        .entry("annotations")
        .or_insert_with(|| Value::Object(Map::new()));
    if !annotations.is_object() {
        *annotations = Value::Object(Map::new());
    }
    if let Value::Object(a) = annotations {
        a.remove(INSTALLATION_ID);
        a.insert(TRACKING_ID.into(), Value::String(id));
    }
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
    fn stamps_all_but_crds() {
        let mut cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c",
            "labels": {"app.kubernetes.io/instance": "chart-set"},
            "annotations": {"argocd.argoproj.io/installation-id": "x", "keep": "me"}}});
        stamp("app", &mut cm, "ns");
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
        stamp("app", &mut bare, "ns");
        assert_eq!(
            bare["metadata"]["annotations"][TRACKING_ID],
            "app:/Thing:ns/"
        );

        let mut crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "x.y"}});
        stamp("app", &mut crd, "ns");
        assert!(crd["metadata"].get("annotations").is_none());
    }
}
