//! How the API server decodes a custom resource (Application, AppProject): as free-form JSON,
//! then its `metadata` checked as an ObjectMeta, then pruned to the CRD's structural schema —
//! every field the schema does not declare is dropped, and named when strict decoding was
//! asked for (`apiextensions-apiserver`'s `schemaCoercingDecoder` and `pruning` package).

use serde_json::{Map, Value};

use super::doc::{Node, parse_json};
use super::godecode::{self, Decoded};
use super::shape::{Leaf, Schema, Shape};

/// Checks and prunes a custom resource; `Err` is a decoding error (a malformed ObjectMeta).
/// `strict` lists the unknown fields of `metadata` and of the rest, in that order.
pub fn decode(schema: &Schema, object_meta: &Schema, node: &Node) -> Result<Decoded, String> {
    let mut value = node.to_value();
    // The free-form read finds repeated keys only; they come first.
    let mut strict = Vec::new();
    godecode::duplicates(node, &mut Vec::new(), &mut strict);
    if let Some(meta) = value.get("metadata") {
        // The server re-encodes metadata before decoding it as ObjectMeta: keys sorted, numbers
        // in Go's notation.
        let text = crate::argocd::apply::go_json(meta);
        let meta_node = parse_json(text.as_bytes()).unwrap_or(Node::Null);
        let decoded = godecode::decode(object_meta, &meta_node, true)?;
        strict.extend(decoded.strict.into_iter().map(|e| {
            // `unknown field "x"` becomes `unknown field "metadata.x"`.
            e.replacen("unknown field \"", "unknown field \"metadata.", 1)
        }));
        value["metadata"] = decoded.value;
    }
    let mut unknown = Vec::new();
    if let (Value::Object(root), Shape::Struct(id)) = (&mut value, &schema.root) {
        let def = schema.def(*id);
        root.retain(|k, v| {
            if matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
                return !v.is_null() || k == "metadata";
            }
            match def.field(k) {
                Some(shape) => {
                    prune(schema, v, shape, k, &mut unknown);
                    !v.is_null()
                }
                None => {
                    unknown.push(k.clone());
                    false
                }
            }
        });
    }
    unknown.sort();
    strict.extend(unknown.iter().map(|p| format!("unknown field \"{p}\"")));
    Ok(Decoded { value, strict })
}

/// Drops what `shape` does not declare below `value`, noting each dropped path; nulls of
/// declared fields go too (none of Argo CD's fields is nullable or defaulted).
fn prune(schema: &Schema, value: &mut Value, shape: &Shape, path: &str, unknown: &mut Vec<String>) {
    match (shape, value) {
        (Shape::Leaf(Leaf::Any), _) => {}
        (Shape::Struct(id), Value::Object(map)) => {
            let def = schema.def(*id);
            retain(map, |k, v| match def.field(k) {
                Some(shape) => {
                    prune(schema, v, shape, &format!("{path}.{k}"), unknown);
                    !v.is_null()
                }
                None => {
                    unknown.push(format!("{path}.{k}"));
                    false
                }
            });
        }
        (Shape::Map(inner), Value::Object(map)) => retain(map, |k, v| {
            prune(schema, v, inner, &format!("{path}.{k}"), unknown);
            !v.is_null()
        }),
        (Shape::List(inner), Value::Array(items)) => {
            for (i, item) in items.iter_mut().enumerate() {
                prune(schema, item, inner, &format!("{path}[{i}]"), unknown);
            }
        }
        _ => {}
    }
}

/// The type checks of the CRD's OpenAPI validation, run on the pruned object: each value whose
/// JSON type is not the schema's, as `(path, its type, the schema's type)`.
pub fn type_errors(schema: &Schema, value: &Value) -> Vec<(String, &'static str, &'static str)> {
    let mut out = Vec::new();
    if let (Value::Object(root), Shape::Struct(id)) = (value, &schema.root) {
        let def = schema.def(*id);
        for (k, v) in root {
            if let Some(shape) = def.field(k).filter(|_| k != "metadata") {
                check_types(schema, v, shape, k, &mut out);
            }
        }
    }
    out
}

fn check_types(
    schema: &Schema,
    value: &Value,
    shape: &Shape,
    path: &str,
    out: &mut Vec<(String, &'static str, &'static str)>,
) {
    let expected = match shape {
        Shape::Leaf(Leaf::String) => "string",
        Shape::Leaf(Leaf::Bool) => "boolean",
        Shape::Leaf(Leaf::Int64) => "integer",
        Shape::Leaf(Leaf::Float64) => "number",
        Shape::Leaf(Leaf::IntOrString) => "integer,string",
        Shape::Struct(_) | Shape::Map(_) => "object",
        Shape::List(_) => "array",
        _ => return,
    };
    let actual = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    // A number may be an integer; an int-or-string either.
    let fits = actual == expected
        || (expected == "number" && actual == "integer")
        || (expected == "integer,string" && matches!(actual, "integer" | "string"));
    if !fits {
        out.push((path.to_string(), actual, expected));
        return;
    }
    match (shape, value) {
        (Shape::Struct(id), Value::Object(map)) => {
            let def = schema.def(*id);
            for (k, v) in map {
                if let Some(shape) = def.field(k) {
                    check_types(schema, v, shape, &format!("{path}.{k}"), out);
                }
            }
        }
        (Shape::Map(inner), Value::Object(map)) => {
            for (k, v) in map {
                check_types(schema, v, inner, &format!("{path}.{k}"), out);
            }
        }
        (Shape::List(inner), Value::Array(items)) => {
            for (i, v) in items.iter().enumerate() {
                check_types(schema, v, inner, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

fn retain(map: &mut Map<String, Value>, mut keep: impl FnMut(&String, &mut Value) -> bool) {
    map.retain(|k, v| keep(k, v));
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::validation::{argocd, object_meta};

    fn run(body: &str) -> Result<Decoded, String> {
        let app = argocd::schema(&crate::kinds::APPLICATION).unwrap();
        decode(
            app,
            object_meta().unwrap(),
            &parse_json(body.as_bytes()).unwrap(),
        )
    }

    #[test]
    fn unknown_fields_are_pruned_and_named_in_sorted_order() {
        let d = run(
            r#"{"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
                "metadata": {"name": "a", "labelz": {}},
                "spec": {"syncPolicy": {"automated": {"selfheal": true, "prune": true}},
                         "source": {"helm": {"valuesObject": {"free": {"x": 1}}}},
                         "ignoreDifferences": [{"kind": "X", "jsonPointer": "/a"}]},
                "extra": 1}"#,
        )
        .unwrap();
        assert_eq!(
            d.strict,
            [
                r#"unknown field "metadata.labelz""#,
                r#"unknown field "extra""#,
                r#"unknown field "spec.ignoreDifferences[0].jsonPointer""#,
                r#"unknown field "spec.syncPolicy.automated.selfheal""#,
            ]
        );
        assert_eq!(
            d.value["spec"]["syncPolicy"]["automated"],
            serde_json::json!({"prune": true})
        );
        assert_eq!(
            d.value["spec"]["source"]["helm"]["valuesObject"]["free"]["x"],
            1
        );
        assert!(d.value.get("extra").is_none());
        assert!(d.value["metadata"].get("labelz").is_none());
    }

    #[test]
    fn repeated_keys_come_before_unknown_fields() {
        let d = run(r#"{"spec": {"project": "a", "project": "b", "bogus": 1}}"#).unwrap();
        assert_eq!(
            d.strict,
            [
                r#"duplicate field "spec.project""#,
                r#"unknown field "spec.bogus""#
            ]
        );
        assert_eq!(d.value["spec"]["project"], "b");
    }

    #[test]
    fn metadata_is_decoded_as_object_meta() {
        assert_eq!(
            run(r#"{"metadata": {"name": "a", "annotations": {"b": 1}}}"#).unwrap_err(),
            "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type string"
        );
        assert_eq!(
            run(r#"{"metadata": "a"}"#).unwrap_err(),
            "json: cannot unmarshal string into Go value of type v1.ObjectMeta"
        );
    }

    #[test]
    fn values_of_the_wrong_json_type_are_found() {
        let app = argocd::schema(&crate::kinds::APPLICATION).unwrap();
        let v = serde_json::json!({"metadata": {"name": 1}, "spec": {"project": 3, "syncPolicy": {"automated": {"selfHeal": "yes"}}, "revisionHistoryLimit": 1.5, "sources": {}}});
        assert_eq!(
            type_errors(app, &v),
            [
                ("spec.project".to_string(), "integer", "string"),
                (
                    "spec.syncPolicy.automated.selfHeal".to_string(),
                    "string",
                    "boolean"
                ),
                ("spec.revisionHistoryLimit".to_string(), "number", "integer"),
                ("spec.sources".to_string(), "object", "array"),
            ]
        );
    }

    #[test]
    fn nulls_of_declared_fields_are_dropped() {
        let d = run(r#"{"spec": {"project": null, "syncPolicy": {"automated": null}}}"#).unwrap();
        assert_eq!(d.value["spec"], serde_json::json!({"syncPolicy": {}}));
    }
}
