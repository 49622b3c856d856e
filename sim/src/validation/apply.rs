//! Server-side apply's checks of the applied configuration. The field manager turns it into a
//! typed value (structured-merge-diff) before merging, and that refuses any field the schema
//! does not declare and any value of the wrong type, whatever `fieldValidation` says:
//! `failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.replica:
//! field not declared in schema` (500, no reason). Strict and Warn add only a strict YAML read
//! for duplicate keys.

use serde_json::Value;

use super::doc::{Entry, Node, parse_yaml};
use super::shape::{Leaf, Schema, Shape};
use super::{Directive, Warnings, builtin, go_quote, gofmt};
use crate::kinds::ResourceType;
use crate::status::{ApiError, ApiResult};

/// Reads and checks an apply configuration; the value returned is what the merge works from.
pub fn check_apply(
    ty: &ResourceType,
    raw: &[u8],
    directive: Directive,
    warnings: &Warnings,
) -> ApiResult<Value> {
    let node = match parse_yaml(raw) {
        Ok(node) => node,
        Err(_) => return crate::body::decode_body(raw, "application/apply-patch+yaml"),
    };
    let value = as_converted_json(&node).to_value();
    let schema = builtin::schema(ty).or_else(|| super::custom_schema(ty));
    if let Some(schema) = schema.filter(|_| same_kind(ty, &value)) {
        let errors = typed_errors(schema, ty.builtin, &value);
        if !errors.is_empty() {
            return Err(ApiError {
                code: 500,
                reason: "",
                message: format!(
                    "failed to create typed patch object ({}): {}",
                    gvknn(ty, &value),
                    join(&errors)
                ),
                details: None,
            });
        }
    }
    let duplicates = yaml_duplicates(&node);
    if !duplicates.is_empty() && directive != Directive::Ignore {
        let error = format!(
            "error converting YAML to JSON: yaml: unmarshal errors:\n  {}",
            duplicates.join("\n  ")
        );
        if directive == Directive::Strict {
            return Err(ApiError::bad_request(format!(
                "error strict decoding YAML: {error}"
            )));
        }
        warnings.add_strict(&error);
    }
    Ok(value)
}

fn same_kind(ty: &ResourceType, value: &Value) -> bool {
    value["apiVersion"].as_str() == Some(ty.api_version().as_str())
        && value["kind"].as_str() == Some(ty.kind)
}

/// `default/web; apps/v1, Kind=Deployment`, from the configuration's own metadata.
fn gvknn(ty: &ResourceType, value: &Value) -> String {
    let meta = &value["metadata"];
    format!(
        "{}/{}; {}/{}, Kind={}",
        meta["namespace"].as_str().unwrap_or_default(),
        meta["name"].as_str().unwrap_or_default(),
        ty.group,
        ty.version,
        ty.kind
    )
}

/// structured-merge-diff's `ValidationErrors` text: one error alone, or `errors:` and one
/// indented line each.
fn join(errors: &[String]) -> String {
    match errors {
        [one] => one.clone(),
        many => format!("errors:\n  {}", many.join("\n  ")),
    }
}

/// Every error structured-merge-diff's validation finds, in the order met. In each object only
/// the first undeclared field is reported (the walk of that object stops there).
fn typed_errors(schema: &Schema, builtin: bool, value: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let mut walk = Walk {
        schema,
        builtin,
        names: Vec::new(),
        errors: &mut errors,
    };
    walk.value(value, &schema.root, String::new());
    errors
}

struct Walk<'a> {
    schema: &'a Schema,
    builtin: bool,
    /// Field names from the root, for the list-type table.
    names: Vec<String>,
    errors: &'a mut Vec<String>,
}

impl Walk<'_> {
    fn value(&mut self, value: &Value, shape: &Shape, path: String) {
        if value.is_null() {
            return;
        }
        match shape {
            Shape::Leaf(leaf) => {
                if let Some(e) = scalar_error(*leaf, value) {
                    self.errors.push(format!("{path}: {e}"));
                }
            }
            Shape::Struct(id) => {
                let Some(map) = value.as_object() else {
                    return self
                        .errors
                        .push(format!("{path}: expected map, got {}", unstructured(value)));
                };
                let def = self.schema.def(*id);
                for (k, v) in map {
                    let Some(field) = def.field(k) else {
                        self.errors
                            .push(format!("{path}.{k}: field not declared in schema"));
                        break;
                    };
                    self.names.push(k.clone());
                    self.value(v, field, format!("{path}.{k}"));
                    self.names.pop();
                }
            }
            Shape::Map(inner) => {
                let Some(map) = value.as_object() else {
                    return self
                        .errors
                        .push(format!("{path}: expected map, got {}", unstructured(value)));
                };
                for (k, v) in map {
                    self.value(v, inner, format!("{path}.{k}"));
                }
            }
            Shape::List(inner) => {
                let Some(items) = value.as_array() else {
                    return self.errors.push(format!(
                        "{path}: expected list, got {}",
                        unstructured(value)
                    ));
                };
                let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
                let keys = match crate::schema::list_kind(self.builtin, &names) {
                    crate::schema::ListKind::Map(keys) => Some(keys),
                    _ => None,
                };
                for (i, item) in items.iter().enumerate() {
                    let element = keys
                        .and_then(|keys| key_element(item, keys))
                        .unwrap_or_else(|| format!("[{i}]"));
                    self.value(item, inner, format!("{path}{element}"));
                }
            }
        }
    }
}

/// `[name="web"]` / `[containerPort=80,protocol="TCP"]`: an associative list item's path.
fn key_element(item: &Value, keys: &[&str]) -> Option<String> {
    let parts: Vec<String> = keys
        .iter()
        .filter_map(|k| {
            let v = item.get(*k)?;
            Some(format!(
                "{k}={}",
                crate::argocd::apply::go_json(v).trim_end()
            ))
        })
        .collect();
    (!parts.is_empty()).then(|| format!("[{}]", parts.join(",")))
}

fn unstructured(value: &Value) -> String {
    format!("&{{{}}}", gofmt::v(value))
}

fn scalar_error(leaf: Leaf, value: &Value) -> Option<String> {
    let scalar = !value.is_object() && !value.is_array();
    match leaf {
        Leaf::Any => None,
        Leaf::String | Leaf::Time | Leaf::MicroTime | Leaf::Bytes if !value.is_string() => {
            Some(format!(
                "expected string, got &value.valueUnstructured{{Value:{}}}",
                gofmt::sharp_v(value)
            ))
        }
        Leaf::Bool if !value.is_boolean() => {
            Some(format!("expected boolean, got {}", unstructured(value)))
        }
        Leaf::Int32 | Leaf::Int64 | Leaf::Float64 if !value.is_number() => Some(format!(
            "expected numeric (int or float), got {}",
            gofmt::type_name(value)
        )),
        Leaf::IntOrString | Leaf::Quantity if !scalar => {
            Some(format!("expected any scalar, got {}", unstructured(value)))
        }
        _ => None,
    }
}

/// goyaml's strict-mode complaints about repeated keys, one per repeat, in document order.
pub fn yaml_duplicates(node: &Node) -> Vec<String> {
    let mut out = Vec::new();
    collect_duplicates(node, &mut out);
    out
}

fn collect_duplicates(node: &Node, out: &mut Vec<String>) {
    match node {
        Node::Array(items) => items.iter().for_each(|i| collect_duplicates(i, out)),
        Node::Object(entries) => {
            for (i, e) in entries.iter().enumerate() {
                if entries[..i].iter().any(|p| p.key == e.key) {
                    out.push(format!(
                        "line {}: key {} already set in map",
                        e.line,
                        go_quote(&e.key)
                    ));
                }
                collect_duplicates(&e.value, out);
            }
        }
        _ => {}
    }
}

/// The document as the server's YAML-to-JSON conversion leaves it: repeated keys resolved (the
/// last wins) and keys sorted, as Go encodes maps.
pub fn as_converted_json(node: &Node) -> Node {
    match node {
        Node::Array(items) => Node::Array(items.iter().map(as_converted_json).collect()),
        Node::Object(entries) => {
            let mut kept: Vec<Entry> = Vec::new();
            for e in entries {
                let value = as_converted_json(&e.value);
                match kept.iter_mut().find(|k| k.key == e.key) {
                    Some(k) => k.value = value,
                    None => kept.push(Entry {
                        key: e.key.clone(),
                        line: e.line,
                        value,
                    }),
                }
            }
            kept.sort_by(|a, b| a.key.cmp(&b.key));
            Node::Object(kept)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::by_kind;

    fn apply(kind: (&str, &str), body: &str, directive: Directive) -> ApiResult<Value> {
        check_apply(
            by_kind(kind.0, kind.1).unwrap(),
            body.as_bytes(),
            directive,
            &Warnings::default(),
        )
    }

    const HEAD: &str = r#""apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"}"#;

    #[test]
    fn undeclared_fields_fail_whatever_the_directive() {
        let err = apply(
            ("apps/v1", "Deployment"),
            &format!(r#"{{{HEAD},"spec":{{"replica":3}}}}"#),
            Directive::Ignore,
        )
        .unwrap_err();
        assert_eq!((err.code, err.reason), (500, ""));
        assert_eq!(
            err.message,
            "failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.replica: field not declared in schema"
        );
    }

    #[test]
    fn list_items_are_named_by_their_keys_and_types_are_checked() {
        let err = apply(
            ("apps/v1", "Deployment"),
            &format!(
                r#"{{{HEAD},"spec":{{"replicas":"two","template":{{"spec":{{"containers":[{{"name":"web","imagee":"x"}}]}}}}}}}}"#
            ),
            Directive::Strict,
        )
        .unwrap_err();
        assert_eq!(
            err.message,
            "failed to create typed patch object (default/web; apps/v1, Kind=Deployment): errors:\n  .spec.replicas: expected numeric (int or float), got string\n  .spec.template.spec.containers[name=\"web\"].imagee: field not declared in schema"
        );
        let err = apply(
            ("v1", "ConfigMap"),
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"a":3}}}"#,
            Directive::Strict,
        )
        .unwrap_err();
        assert!(
            err.message.ends_with(
                "(/c; /v1, Kind=ConfigMap): .metadata.labels.a: expected string, got &value.valueUnstructured{Value:3}"
            ),
            "{}",
            err.message
        );
    }

    #[test]
    fn duplicate_keys_fail_under_strict_and_warn_under_warn() {
        let body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"},\"data\":{\"a\":\"1\",\"a\":\"2\"}}";
        let err = apply(("v1", "ConfigMap"), body, Directive::Strict).unwrap_err();
        assert_eq!(err.code, 400);
        assert_eq!(
            err.message,
            "error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 1: key \"a\" already set in map"
        );
        let w = Warnings::default();
        let v = check_apply(
            &crate::kinds::CONFIG_MAP,
            body.as_bytes(),
            Directive::Warn,
            &w,
        )
        .unwrap();
        assert_eq!(v["data"]["a"], "2");
        assert_eq!(w.texts(), ["line 1: key \"a\" already set in map"]);
    }
}
