//! The OpenAPI v3 documents kubectl downloads before `apply` and `create -f` with its default
//! validation. kubectl needs each operation's group-version-kind and a `fieldValidation`
//! parameter (to know the server validates fields itself); the schemas can stay empty, and
//! kubectl then uses its built-in knowledge of the core types for strategic merge.
//! Each operation lists the media types it answers in, as the real server's do: protobuf for
//! built-in kinds, JSON and YAML only for custom resources.

use serde_json::{Map, Value, json};

use crate::kinds::{TYPES, group_versions};

/// A stable hash per document so kubectl's cache is reused between runs of the same build.
const HASH: &str = concat!("capa-", env!("CARGO_PKG_VERSION"));

pub fn index() -> Value {
    let mut paths = Map::new();
    for (g, v) in group_versions() {
        let key = if g.is_empty() {
            format!("api/{v}")
        } else {
            format!("apis/{g}/{v}")
        };
        paths.insert(
            key.clone(),
            json!({"serverRelativeURL": format!("/openapi/v3/{key}?hash={HASH}")}),
        );
    }
    json!({"paths": paths})
}

/// The document for one group-version, or `None` when not served.
pub fn document(group: &str, version: &str) -> Option<Value> {
    let mut paths = Map::new();
    for t in TYPES
        .iter()
        .filter(|t| t.group == group && t.version == version)
    {
        let gvk = json!({"group": t.group, "version": t.version, "kind": t.kind});
        let op = |action: &str| {
            let content = |types: Vec<&str>| -> Map<String, Value> {
                types
                    .into_iter()
                    .map(|m| (m.to_string(), json!({"schema": {}})))
                    .collect()
            };
            let mut op = json!({
                "x-kubernetes-action": action,
                "x-kubernetes-group-version-kind": gvk,
                "parameters": [
                    {"name": "fieldValidation", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
                    {"name": "dryRun", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
                    {"name": "fieldManager", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
                ],
                "responses": {"200": {"description": "OK", "content": content(response_media_types(t.builtin, action))}},
            });
            let request = request_media_types(t.builtin, action);
            if !request.is_empty() {
                op["requestBody"] = json!({"content": content(request)});
            }
            op
        };
        let base = t.base_path();
        let collection = if t.namespaced {
            format!("{base}/namespaces/{{namespace}}/{}", t.plural)
        } else {
            format!("{base}/{}", t.plural)
        };
        paths.insert(
            collection.clone(),
            json!({"get": op("list"), "post": op("post")}),
        );
        paths.insert(
            format!("{collection}/{{name}}"),
            json!({"get": op("get"), "put": op("put"), "patch": op("patch"), "delete": op("delete")}),
        );
    }
    if paths.is_empty() {
        return None;
    }
    Some(json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": "v1.35.2"},
        "paths": paths,
        "components": {"schemas": {}},
    }))
}

/// What an operation's responses can be written in: protobuf for built-in kinds, and a
/// built-in list can also be watched (the CRD OpenAPI builder lists JSON and YAML only).
fn response_media_types(builtin: bool, action: &str) -> Vec<&'static str> {
    let mut types = vec!["application/json", "application/yaml"];
    if builtin {
        types.push("application/vnd.kubernetes.protobuf");
        if action == "list" {
            types.extend([
                "application/json;stream=watch",
                "application/vnd.kubernetes.protobuf;stream=watch",
            ]);
        }
    }
    types
}

/// What an operation's request body may be in (none for reads).
fn request_media_types(builtin: bool, action: &str) -> Vec<&'static str> {
    match (action, builtin) {
        ("get" | "list", _) => vec![],
        ("patch", true) => vec![
            "application/json-patch+json",
            "application/merge-patch+json",
            "application/strategic-merge-patch+json",
            "application/apply-patch+yaml",
        ],
        ("patch", false) => vec![
            "application/json-patch+json",
            "application/merge-patch+json",
            "application/apply-patch+yaml",
        ],
        (_, true) => vec!["*/*"],
        (_, false) => vec!["application/json", "application/yaml"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_served_group_version_has_a_document_with_field_validation() {
        let idx = index();
        assert!(
            idx["paths"]["apis/apps/v1"]["serverRelativeURL"]
                .as_str()
                .unwrap()
                .starts_with("/openapi/v3/apis/apps/v1?hash=")
        );
        let doc = document("apps", "v1").unwrap();
        let patch =
            &doc["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"];
        assert_eq!(
            patch["x-kubernetes-group-version-kind"]["kind"],
            "Deployment"
        );
        assert_eq!(patch["parameters"][0]["name"], "fieldValidation");
        assert!(document("nope", "v1").is_none());
    }

    #[test]
    fn built_in_kinds_advertise_protobuf_and_custom_resources_do_not() {
        let media = |doc: &Value, path: &str, verb: &str| -> Vec<String> {
            doc["paths"][path][verb]["responses"]["200"]["content"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect()
        };
        let core = document("", "v1").unwrap();
        assert_eq!(
            media(&core, "/api/v1/namespaces/{namespace}/configmaps", "get"),
            [
                "application/json",
                "application/yaml",
                "application/vnd.kubernetes.protobuf",
                "application/json;stream=watch",
                "application/vnd.kubernetes.protobuf;stream=watch"
            ]
        );
        assert_eq!(
            media(&core, "/api/v1/namespaces/{name}", "put"),
            [
                "application/json",
                "application/yaml",
                "application/vnd.kubernetes.protobuf"
            ]
        );
        let argo = document("argoproj.io", "v1alpha1").unwrap();
        assert_eq!(
            media(
                &argo,
                "/apis/argoproj.io/v1alpha1/namespaces/{namespace}/applications/{name}",
                "get"
            ),
            ["application/json", "application/yaml"]
        );
    }
}
