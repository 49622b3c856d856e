//! `/openapi/v2`: the Swagger 2.0 document, with the definitions of every kind served, written
//! from the v3 schemas as the real server writes the two (a lone `allOf` reference is a plain
//! `$ref` under `#/definitions/`, no `default`s, and what v2 cannot say is left out: see
//! `Origin`); there are no paths. Scripts read it as JSON (`kubectl get --raw`); kubectl reads it
//! in gnostic's protobuf form (`gnostic`) for `explain --output plaintext-openapiv2` and where
//! the v3 documents do not know a kind (a misspelt kind, a removed `apps/v1beta1`).

use serde_json::{Map, Value, json};

use crate::kinds::Catalog;

mod gnostic;

/// What client-go's `OpenAPISchema` sends, and what the real server answers it with.
pub const PROTOBUF_ACCEPT: &str = "application/com.github.proto-openapi.spec.v2";
pub const PROTOBUF_CONTENT_TYPE: &str =
    "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

/// `info.version`: the server's major.minor (`v1.35.2+k3s1` → `1.35`), as the real one writes.
fn info_version(git_version: &str) -> String {
    let trimmed = git_version.trim_start_matches('v');
    let mut parts = trimmed.split(['.', '+', '-']);
    let major = parts.next().unwrap_or("1");
    let minor = parts.next().unwrap_or("35");
    format!("{major}.{minor}")
}

pub fn json_document(git_version: &str, kinds: &Catalog) -> Value {
    json!({
        "swagger": "2.0",
        "info": {"title": "Kubernetes", "version": info_version(git_version)},
        "paths": {},
        "definitions": definitions(kinds),
        "securityDefinitions": {"BearerToken": {"description": "Bearer Token authentication",
            "type": "apiKey", "name": "authorization", "in": "header"}},
        "security": [{"BearerToken": []}],
    })
}

/// Every definition, in Swagger 2.0's form: the built-in kinds' and the custom types'.
fn definitions(kinds: &Catalog) -> Map<String, Value> {
    let mut out: Map<String, Value> = super::builtin::all()
        .iter()
        .map(|(name, schema)| (name.clone(), swagger_schema(schema, Origin::Kubernetes)))
        .collect();
    for ty in kinds.all().into_iter().filter(|t| !t.builtin) {
        for (name, schema) in super::custom::schemas(ty) {
            if !out.contains_key(&name) {
                out.insert(name, swagger_schema(&schema, Origin::Crd));
            }
        }
    }
    out
}

/// Where a v3 schema comes from, which decides how v2 writes what it cannot say.
#[derive(Clone, Copy, PartialEq)]
enum Origin {
    /// Kubernetes' own types: `oneOf` (IntOrString, Quantity) is declared a string.
    Kubernetes,
    /// A CRD's schema, as apiextensions' v2 conversion leaves it: no junctors (`anyOf`,
    /// `oneOf`, `not`), nothing below a field that keeps unknown fields, no type where the
    /// value is free-form (unknown fields, nullable, a list without items).
    Crd,
}

/// One v3 schema as the v2 spec writes the same type.
fn swagger_schema(v3: &Value, origin: Origin) -> Value {
    let Value::Object(map) = v3 else {
        return v3.clone();
    };
    let crd = origin == Origin::Crd;
    let free_form = crd
        && (map.get("x-kubernetes-preserve-unknown-fields") == Some(&json!(true))
            || map.get("nullable") == Some(&json!(true)));
    let mut out = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "default" => {}
            "oneOf" if !crd => {
                out.insert("type".into(), json!("string"));
            }
            "anyOf" | "oneOf" | "not" | "nullable" if crd => {}
            "type" | "properties" | "items" if free_form => {}
            "$ref" => {
                out.insert(key.clone(), json!(definition_ref(value)));
            }
            "allOf" => {
                // A lone reference is how v3 describes a referenced type; other junctors go.
                if let Some(target) = lone_reference(value) {
                    out.insert("$ref".into(), json!(definition_ref(&json!(target))));
                } else if !crd {
                    out.insert(key.clone(), value.clone());
                }
            }
            "properties" => {
                let props = value.as_object().into_iter().flatten();
                let props = props.map(|(p, s)| (p.clone(), swagger_schema(s, origin)));
                out.insert(key.clone(), Value::Object(props.collect()));
            }
            "items" | "additionalProperties" if value.is_object() => {
                out.insert(key.clone(), swagger_schema(value, origin));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    // kubectl cannot read a list without an item schema.
    if crd && out.get("type") == Some(&json!("array")) && !out.contains_key("items") {
        out.remove("type");
    }
    Value::Object(out)
}

/// The target of `allOf: [{$ref: ...}]`, the v3 way to describe a referenced type.
fn lone_reference(all_of: &Value) -> Option<&str> {
    match all_of.as_array()?.as_slice() {
        [only] => only.get("$ref")?.as_str(),
        _ => None,
    }
}

fn definition_ref(v3_ref: &Value) -> String {
    let r = v3_ref.as_str().unwrap_or_default();
    match r.strip_prefix("#/components/schemas/") {
        Some(name) => format!("#/definitions/{name}"),
        None => r.to_string(),
    }
}

/// The same document in gnostic's protobuf form.
pub fn protobuf_document(git_version: &str, kinds: &Catalog) -> Vec<u8> {
    gnostic::encode(&json_document(git_version, kinds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_major_dot_minor() {
        assert_eq!(info_version("v1.35.2+k3s1"), "1.35");
        assert_eq!(
            json_document("v1.35.2", &Catalog::default())["info"]["version"],
            "1.35"
        );
    }

    #[test]
    fn definitions_take_the_v2_spec_form() {
        let doc = json_document("v1.35.2", &Catalog::default());
        let pod_spec = &doc["definitions"]["io.k8s.api.core.v1.PodSpec"]["properties"];
        assert_eq!(
            pod_spec["affinity"],
            json!({"$ref": "#/definitions/io.k8s.api.core.v1.Affinity",
                "description": "If specified, the pod's scheduling constraints"})
        );
        assert_eq!(
            pod_spec["containers"]["items"],
            json!({"$ref": "#/definitions/io.k8s.api.core.v1.Container"})
        );
        assert_eq!(
            pod_spec["containers"]["x-kubernetes-patch-merge-key"],
            "name"
        );
        let int_or_string = &doc["definitions"]["io.k8s.apimachinery.pkg.util.intstr.IntOrString"];
        assert_eq!(int_or_string["type"], "string");
        assert!(int_or_string.get("oneOf").is_none());
        // A field named `default` is a field, not a default.
        let limit = &doc["definitions"]["io.k8s.api.core.v1.LimitRangeItem"]["properties"];
        assert!(limit.get("default").is_some());
    }

    #[test]
    fn crd_definitions_leave_out_what_v2_cannot_say() {
        let doc = json_document("v1.35.2", &Catalog::default());
        let app = &doc["definitions"]["io.argoproj.v1alpha1.Application"]["properties"];
        assert_eq!(
            app["metadata"]["$ref"],
            "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
        );
        let source = &app["spec"]["properties"]["source"]["properties"];
        let values = &source["helm"]["properties"]["valuesObject"];
        assert_eq!(values["x-kubernetes-preserve-unknown-fields"], true);
        assert!(values.get("type").is_none());
        let count = &source["kustomize"]["properties"]["replicas"]["items"]["properties"]["count"];
        assert_eq!(count["x-kubernetes-int-or-string"], true);
        assert!(count.get("anyOf").is_none());
        assert!(doc["definitions"]["io.argoproj.v1alpha1.AppProjectList"].is_object());
    }

    #[test]
    fn the_protobuf_form_is_gnostics_document() {
        let bytes = protobuf_document("v1.35.2", &Catalog::default());
        // swagger = "2.0"
        assert_eq!(&bytes[..5], &[0x0a, 3, b'2', b'.', b'0']);
        // info { title = "Kubernetes", version = "1.35" }
        let info = [&[0x0a, 10][..], b"Kubernetes", &[0x12, 4], b"1.35"].concat();
        assert_eq!(&bytes[5..7], &[0x12, info.len() as u8]);
        assert_eq!(&bytes[7..7 + info.len()], &info[..]);
        // then the definitions (9), built-in and custom
        let rest = &bytes[7 + info.len()..];
        assert_eq!(rest[0], 0x4a);
        for name in [
            "io.k8s.api.core.v1.ConfigMap",
            "io.argoproj.v1alpha1.AppProject",
        ] {
            let name = name.as_bytes();
            assert!(rest.windows(name.len()).any(|w| w == name));
        }
    }
}
