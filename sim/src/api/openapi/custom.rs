//! A custom type's schema as the CRD OpenAPI builder publishes it in its group-version's
//! document: the version's `openAPIV3Schema` with `apiVersion`, `kind` and `metadata` added
//! and the kind it describes named, which is what `kubectl explain` looks up.

use serde_json::{Map, Value, json};

use crate::kinds::ResourceType;

const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const METADATA_DOC: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const OBJECT_META_DOC: &str = "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.";

/// `util.ToRESTFriendlyName("group/version.Kind")`: the group's labels reversed
/// (`io.example.v1.Widget`).
fn schema_name(ty: &ResourceType) -> String {
    let reversed: Vec<&str> = ty.group.split('.').rev().collect();
    format!("{}.{}.{}", reversed.join("."), ty.version, ty.kind)
}

/// The component schemas `ty` adds to its document (none for a built-in type, or a CRD
/// version without a schema).
pub fn schemas(ty: &ResourceType) -> Map<String, Value> {
    let mut out = Map::new();
    let Some(Value::Object(declared)) = ty.custom.and_then(|c| c.schema.as_ref()) else {
        return out;
    };
    let mut schema = declared.clone();
    let props = schema.entry("properties").or_insert_with(|| json!({}));
    if let Some(props) = props.as_object_mut() {
        props.insert(
            "apiVersion".into(),
            json!({"description": API_VERSION_DOC, "type": "string"}),
        );
        props.insert(
            "kind".into(),
            json!({"description": KIND_DOC, "type": "string"}),
        );
        props.insert(
            "metadata".into(),
            json!({"description": METADATA_DOC, "allOf": [{"$ref": format!("#/components/schemas/{OBJECT_META}")}]}),
        );
    }
    schema.insert(
        "x-kubernetes-group-version-kind".into(),
        json!([{"group": ty.group, "kind": ty.kind, "version": ty.version}]),
    );
    out.insert(schema_name(ty), Value::Object(schema));
    out.insert(
        OBJECT_META.into(),
        json!({"description": OBJECT_META_DOC, "type": "object"}),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crd_schema_is_published_under_its_rest_friendly_name() {
        let crd = json!({"metadata": {"name": "widgets.openapi-test.example.io"}, "spec": {
            "group": "openapi-test.example.io", "scope": "Namespaced",
            "names": {"plural": "widgets", "kind": "Widget"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema":
                {"type": "object", "properties": {"spec": {"type": "object"}}}}}]}});
        let (ty, _) = crate::kinds::custom::from_crd(&crd).unwrap();
        let s = schemas(ty);
        let widget = &s["io.example.openapi-test.v1.Widget"];
        assert_eq!(
            widget["x-kubernetes-group-version-kind"],
            json!([{"group": "openapi-test.example.io", "kind": "Widget", "version": "v1"}])
        );
        assert_eq!(widget["properties"]["spec"]["type"], "object");
        assert_eq!(widget["properties"]["kind"]["type"], "string");
        assert!(schemas(&crate::kinds::POD).is_empty());
    }
}
