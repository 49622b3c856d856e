//! A custom type's schemas as the CRD OpenAPI builder publishes them in its group-version's
//! document: the version's `openAPIV3Schema` with `apiVersion`, `kind` and `metadata` added
//! and the kind it describes named, which is what `kubectl explain` looks up; its list kind;
//! and Kubernetes' own schemas of what its operations read and answer (ObjectMeta, ListMeta,
//! DeleteOptions, Patch, Status and what they refer to).

use serde_json::{Map, Value, json};

use crate::kinds::ResourceType;

const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const METADATA_DOC: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const LIST_METADATA_DOC: &str = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

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
    // A CRD a learner or a chart created carries its schema; the cluster's own custom types
    // (Argo CD's) have theirs in the CRDs it installs.
    let declared = match ty.custom {
        Some(def) => def.schema.clone(),
        None if !ty.builtin => {
            crate::validation::crd_schema(&crate::bootstrap::crd_of(ty)).cloned()
        }
        None => None,
    };
    let Some(Value::Object(mut schema)) = declared else {
        return out;
    };
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
    let name = schema_name(ty);
    out.insert(format!("{name}List"), list_schema(ty, &name));
    out.insert(name, Value::Object(schema));
    out.extend(super::builtin::custom_resource_meta().clone());
    out
}

/// The list kind's schema: `items` of the kind, with list metadata.
fn list_schema(ty: &ResourceType, item_schema: &str) -> Value {
    json!({
        "description": format!("{}List is a list of {}", ty.kind, ty.kind),
        "type": "object",
        "required": ["items"],
        "properties": {
            "apiVersion": {"description": API_VERSION_DOC, "type": "string"},
            "items": {
                "description": format!("List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md", ty.plural),
                "type": "array",
                "items": {"$ref": format!("#/components/schemas/{item_schema}")},
            },
            "kind": {"description": KIND_DOC, "type": "string"},
            "metadata": {"description": LIST_METADATA_DOC, "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"}]},
        },
        "x-kubernetes-group-version-kind": [{"group": ty.group, "kind": format!("{}List", ty.kind), "version": ty.version}],
    })
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
        let list = &s["io.example.openapi-test.v1.WidgetList"];
        assert_eq!(
            list["properties"]["items"]["items"]["$ref"],
            "#/components/schemas/io.example.openapi-test.v1.Widget"
        );
        assert_eq!(
            list["x-kubernetes-group-version-kind"][0]["kind"],
            "WidgetList"
        );
        assert!(s.contains_key("io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause"));
        assert!(schemas(&crate::kinds::POD).is_empty());
        let app = schemas(&crate::kinds::APPLICATION);
        let sync_policy = &app["io.argoproj.v1alpha1.Application"]["properties"]["spec"]["properties"]
            ["syncPolicy"];
        assert_eq!(
            sync_policy["description"],
            "SyncPolicy controls when and how a sync will be performed"
        );
    }
}
