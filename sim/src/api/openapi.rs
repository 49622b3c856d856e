//! The OpenAPI v3 documents kubectl downloads before `apply` and `create -f` with its default
//! validation, and for `kubectl explain`. kubectl needs each operation's group-version-kind and
//! a `fieldValidation` parameter (to know the server validates fields itself); `explain` finds a
//! kind by the schema carrying its group-version-kind, and `apply` computes strategic-merge
//! patches from that schema's patch extensions. Built-in kinds' schemas are Kubernetes' own
//! (`builtin`), custom resources' their CRDs' (`custom`).
//! Each operation lists the media types it answers in, as the real server's do: protobuf for
//! built-in kinds, JSON and YAML only for custom resources.

use serde_json::{Map, Value, json};

use crate::kinds::Catalog;

pub(super) mod builtin;
pub(super) mod custom;
pub mod v2;

/// A stable hash per document so kubectl's cache is reused between runs of the same build.
const HASH: &str = concat!("capa-", env!("CARGO_PKG_VERSION"));

pub fn index(kinds: &Catalog) -> Value {
    let mut paths = Map::new();
    for (g, v) in kinds.group_versions() {
        let key = builtin::document_path(g, v);
        paths.insert(
            key.clone(),
            json!({"serverRelativeURL": format!("/openapi/v3/{key}?hash={HASH}")}),
        );
    }
    json!({"paths": paths})
}

/// The document for one group-version, or `None` when not served.
pub fn document(kinds: &Catalog, group: &str, version: &str) -> Option<Value> {
    let mut paths = Map::new();
    let mut schemas = builtin::schemas(group, version);
    for t in kinds
        .all()
        .into_iter()
        .filter(|t| t.group == group && t.version == version)
    {
        schemas.extend(custom::schemas(t));
        let gvk = json!({"group": t.group, "version": t.version, "kind": t.kind});
        let object_schema = schema_of_kind(&schemas, t.group, t.version, t.kind);
        let list_schema = schema_of_kind(&schemas, t.group, t.version, &format!("{}List", t.kind));
        let op = |action: &str| {
            // What a response holds: the kind, or its list (nothing said for the rest).
            let answer = match action {
                "list" => list_schema.as_deref(),
                "get" | "put" | "post" | "patch" => object_schema.as_deref(),
                _ => None,
            }
            .map_or(
                json!({}),
                |name| json!({"$ref": format!("#/components/schemas/{name}")}),
            );
            let content = |types: Vec<&str>, schema: &Value| -> Map<String, Value> {
                types
                    .into_iter()
                    .map(|m| (m.to_string(), json!({"schema": schema})))
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
                "responses": {"200": {"description": "OK", "content": content(response_media_types(t.builtin, action), &answer)}},
            });
            let request = request_media_types(t.builtin, action);
            if !request.is_empty() {
                op["requestBody"] = json!({"content": content(request, &json!({}))});
            }
            op
        };
        let base = t.base_path();
        let collection = if t.namespaced {
            format!("{base}/namespaces/{{namespace}}/{}", t.plural)
        } else {
            format!("{base}/{}", t.plural)
        };
        // The verbs discovery lists, on the collection and on one object.
        let verbs = super::discovery::verbs(kinds, t);
        let mut on_collection = Map::new();
        let mut on_object = Map::new();
        for verb in verbs {
            let (at, method, action) = match verb {
                "list" => (&mut on_collection, "get", "list"),
                "create" => (&mut on_collection, "post", "post"),
                "deletecollection" => (&mut on_collection, "delete", "deletecollection"),
                "get" => (&mut on_object, "get", "get"),
                "update" => (&mut on_object, "put", "put"),
                "patch" => (&mut on_object, "patch", "patch"),
                "delete" => (&mut on_object, "delete", "delete"),
                _ => continue,
            };
            at.insert(method.into(), op(action));
        }
        paths.insert(collection.clone(), Value::Object(on_collection));
        if !on_object.is_empty() {
            paths.insert(format!("{collection}/{{name}}"), Value::Object(on_object));
        }
    }
    if paths.is_empty() {
        return None;
    }
    Some(json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": "v1.35.2"},
        "paths": paths,
        "components": {"schemas": schemas},
    }))
}

/// The name of the schema describing `kind` in a document's schemas.
fn schema_of_kind(
    schemas: &Map<String, Value>,
    group: &str,
    version: &str,
    kind: &str,
) -> Option<String> {
    let wanted = json!({"group": group, "version": version, "kind": kind});
    schemas
        .iter()
        .find(|(_, s)| {
            s["x-kubernetes-group-version-kind"]
                .as_array()
                .is_some_and(|gvks| gvks.contains(&wanted))
        })
        .map(|(name, _)| name.clone())
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
        let idx = index(&Catalog::default());
        assert!(
            idx["paths"]["apis/apps/v1"]["serverRelativeURL"]
                .as_str()
                .unwrap()
                .starts_with("/openapi/v3/apis/apps/v1?hash=")
        );
        let doc = document(&Catalog::default(), "apps", "v1").unwrap();
        let patch =
            &doc["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"];
        assert_eq!(
            patch["x-kubernetes-group-version-kind"]["kind"],
            "Deployment"
        );
        assert_eq!(patch["parameters"][0]["name"], "fieldValidation");
        assert_eq!(
            patch["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/io.k8s.api.apps.v1.Deployment"
        );
        let list = &doc["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments"]["get"];
        assert_eq!(
            list["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/io.k8s.api.apps.v1.DeploymentList"
        );
        assert!(document(&Catalog::default(), "nope", "v1").is_none());
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
        let core = document(&Catalog::default(), "", "v1").unwrap();
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
        let argo = document(&Catalog::default(), "argoproj.io", "v1alpha1").unwrap();
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
