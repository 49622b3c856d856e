//! Custom resources of a CustomResourceDefinition a learner or a chart created: the shape
//! pruning and the type checks follow (from the CRD's structural `openAPIV3Schema`), and the
//! value validations the API server runs on them (`apiextensions-apiserver`'s
//! `ValidateCustomResource` with kube-openapi's validators, in their words).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use serde_json::Value;

use super::shape::{Leaf, Schema, Shape, StructDef};
use crate::kinds::{CustomDef, ResourceType};
use crate::status::{BadValue, FieldError};

/// The shape of a custom type's objects, made once per CRD definition.
pub fn schema(ty: &ResourceType) -> Option<&'static Schema> {
    static MADE: Mutex<Option<HashMap<usize, &'static Schema>>> = Mutex::new(None);
    let def: &'static CustomDef = ty.custom?;
    let json = def.schema.as_ref()?;
    let id = std::ptr::from_ref(def) as usize;
    let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
    let made = made.get_or_insert_with(HashMap::new);
    if let Some(s) = made.get(&id) {
        return Some(s);
    }
    let schema: &'static Schema = Box::leak(Box::new(shape_of_root(json)));
    made.insert(id, schema);
    Some(schema)
}

pub(super) fn shape_of_root(json: &Value) -> Schema {
    let mut structs = vec![StructDef {
        name: String::new(),
        fields: Vec::new(),
    }];
    let mut fields = vec![
        ("apiVersion".to_string(), Shape::Leaf(Leaf::String)),
        ("kind".to_string(), Shape::Leaf(Leaf::String)),
        // Checked as ObjectMeta, not pruned.
        ("metadata".to_string(), Shape::Leaf(Leaf::Any)),
    ];
    if preserves(json) {
        // Everything is kept: nothing at the root is unknown.
        return Schema {
            structs,
            root: Shape::Leaf(Leaf::Any),
        };
    }
    for (name, sub) in json["properties"].as_object().into_iter().flatten() {
        if matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        let shape = shape_of(sub, &mut structs);
        fields.push((name.clone(), shape));
    }
    structs[0].fields = fields;
    Schema {
        structs,
        root: Shape::Struct(0),
    }
}

fn preserves(json: &Value) -> bool {
    json["x-kubernetes-preserve-unknown-fields"] == true
        || json["x-kubernetes-embedded-resource"] == true
}

fn shape_of(json: &Value, structs: &mut Vec<StructDef>) -> Shape {
    if json["x-kubernetes-int-or-string"] == true {
        return Shape::Leaf(Leaf::IntOrString);
    }
    if preserves(json) {
        return Shape::Leaf(Leaf::Any);
    }
    match json["type"].as_str() {
        Some("string") => Shape::Leaf(Leaf::String),
        Some("integer") => Shape::Leaf(Leaf::Int64),
        Some("number") => Shape::Leaf(Leaf::Float64),
        Some("boolean") => Shape::Leaf(Leaf::Bool),
        Some("array") => Shape::List(Box::new(match json.get("items") {
            Some(items) if items.is_object() => shape_of(items, structs),
            _ => Shape::Leaf(Leaf::Any),
        })),
        Some("object") => {
            if let Some(props) = json["properties"].as_object() {
                let id = structs.len();
                structs.push(StructDef {
                    name: String::new(),
                    fields: Vec::new(),
                });
                let fields = props
                    .iter()
                    .map(|(k, v)| (k.clone(), shape_of(v, structs)))
                    .collect();
                structs[id].fields = fields;
                Shape::Struct(id)
            } else {
                match json.get("additionalProperties") {
                    Some(Value::Bool(true)) => Shape::Map(Box::new(Shape::Leaf(Leaf::Any))),
                    Some(inner) if inner.is_object() => {
                        Shape::Map(Box::new(shape_of(inner, structs)))
                    }
                    // An object declaring no field keeps none.
                    _ => {
                        structs.push(StructDef {
                            name: String::new(),
                            fields: Vec::new(),
                        });
                        Shape::Struct(structs.len() - 1)
                    }
                }
            }
        }
        _ => Shape::Leaf(Leaf::Any),
    }
}

/// The value validations of a custom resource's schema that fail, each as the API server
/// reports it (`spec.size: Invalid value: 0: spec.size in body should be greater than or
/// equal to 1`), in the order of the fields' paths. Type errors are the decoder's, not these.
pub fn value_errors(ty: &ResourceType, obj: &Value) -> Vec<FieldError> {
    let Some(schema) = ty.custom.and_then(|d| d.schema.as_ref()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let Some(root) = obj.as_object() else {
        return out;
    };
    for name in required(schema) {
        if !root.contains_key(name) {
            out.push(FieldError::required(name, ""));
        }
    }
    for (name, sub) in schema["properties"].as_object().into_iter().flatten() {
        if matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        if let Some(v) = root.get(name) {
            check(sub, v, name, &mut out);
        }
    }
    out.sort_by(|a, b| a.field.cmp(&b.field));
    out
}

fn required(schema: &Value) -> Vec<&str> {
    schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

fn check(schema: &Value, v: &Value, path: &str, out: &mut Vec<FieldError>) {
    if v.is_null() {
        return;
    }
    if let Some(allowed) = schema["enum"].as_array()
        && !allowed.iter().any(|a| same(a, v))
    {
        let texts: Vec<String> = allowed
            .iter()
            .map(|a| match a {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        out.push(FieldError::not_supported(path, BadValue::json(v), &texts));
    }
    match v {
        Value::String(s) => check_string(schema, s, path, out),
        Value::Number(n) => check_number(schema, n, path, out),
        Value::Array(items) => check_array(schema, v, items, path, out),
        Value::Object(map) => check_object(schema, v, map, path, out),
        _ => {}
    }
}

/// `maxLength`, `minLength` and `pattern` (one error at most, in that order).
fn check_string(schema: &Value, s: &str, path: &str, out: &mut Vec<FieldError>) {
    let invalid = |why: String| FieldError::invalid(path, BadValue::text(s), &why);
    let length = s.chars().count() as u64;
    if let Some(max) = schema["maxLength"].as_u64()
        && length > max
    {
        out.push(FieldError::too_long(path, max));
    } else if let Some(min) = schema["minLength"].as_u64()
        && length < min
    {
        out.push(invalid(format!(
            "{path} in body should be at least {min} chars long"
        )));
    } else if let Some(pattern) = schema["pattern"].as_str()
        && regex::Regex::new(pattern).is_ok_and(|re| !re.is_match(s))
    {
        out.push(invalid(format!("{path} in body should match '{pattern}'")));
    }
}

/// `multipleOf`, `maximum` and `minimum` (with their exclusive forms).
fn check_number(schema: &Value, n: &serde_json::Number, path: &str, out: &mut Vec<FieldError>) {
    let x = n.as_f64().unwrap_or_default();
    let invalid = |why: String| FieldError::invalid(path, BadValue::Raw(n.to_string()), &why);
    if let Some(m) = schema["multipleOf"].as_f64()
        && m != 0.0
        && (x / m).fract() != 0.0
    {
        out.push(invalid(format!(
            "{path} in body should be a multiple of {}",
            go_number(m)
        )));
    }
    if let Some(max) = schema["maximum"].as_f64() {
        let exclusive = schema["exclusiveMaximum"] == true;
        if (exclusive && x >= max) || x > max {
            let words = if exclusive {
                "less than"
            } else {
                "less than or equal to"
            };
            out.push(invalid(format!(
                "{path} in body should be {words} {}",
                go_number(max)
            )));
        }
    }
    if let Some(min) = schema["minimum"].as_f64() {
        let exclusive = schema["exclusiveMinimum"] == true;
        if (exclusive && x <= min) || x < min {
            let words = if exclusive {
                "greater than"
            } else {
                "greater than or equal to"
            };
            out.push(invalid(format!(
                "{path} in body should be {words} {}",
                go_number(min)
            )));
        }
    }
}

/// `maxItems`, `minItems`, `uniqueItems`, then each item against `items`.
fn check_array(schema: &Value, v: &Value, items: &[Value], path: &str, out: &mut Vec<FieldError>) {
    let invalid = |why: String| FieldError::invalid(path, BadValue::json(v), &why);
    let n = items.len() as u64;
    if let Some(max) = schema["maxItems"].as_u64()
        && n > max
    {
        out.push(FieldError::too_many(path, n, max));
    }
    if let Some(min) = schema["minItems"].as_u64()
        && n < min
    {
        out.push(invalid(format!(
            "{path} in body should have at least {min} items"
        )));
    }
    if schema["uniqueItems"] == true
        && items
            .iter()
            .enumerate()
            .any(|(i, a)| items[..i].iter().any(|b| same(a, b)))
    {
        out.push(invalid(format!(
            "{path} in body shouldn't contain duplicates"
        )));
    }
    if let Some(inner) = schema.get("items").filter(|i| i.is_object()) {
        for (i, item) in items.iter().enumerate() {
            check(inner, item, &format!("{path}[{i}]"), out);
        }
    }
}

/// `maxProperties`, `minProperties`, `required`, then each field against its schema.
fn check_object(
    schema: &Value,
    v: &Value,
    map: &serde_json::Map<String, Value>,
    path: &str,
    out: &mut Vec<FieldError>,
) {
    let n = map.len() as u64;
    if let Some(max) = schema["maxProperties"].as_u64()
        && n > max
    {
        out.push(FieldError::too_many(path, n, max));
    }
    if let Some(min) = schema["minProperties"].as_u64()
        && n < min
    {
        out.push(FieldError::invalid(
            path,
            BadValue::json(v),
            &format!("{path} in body should have at least {min} properties"),
        ));
    }
    for name in required(schema) {
        if !map.contains_key(name) {
            out.push(FieldError::required(&format!("{path}.{name}"), ""));
        }
    }
    if let Some(props) = schema["properties"].as_object() {
        for (name, sub) in props {
            if let Some(v) = map.get(name) {
                check(sub, v, &format!("{path}.{name}"), out);
            }
        }
    } else if let Some(inner) = schema.get("additionalProperties").filter(|a| a.is_object()) {
        for (name, v) in map {
            check(inner, v, &format!("{path}.{name}"), out);
        }
    }
}

/// JSON equality with numbers compared by value (`1` is `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// A bound as Go's `%v` prints a float64 (`%g`, shortest): `1`, `1.5`, `100000`, `1e+06`,
/// `1e-05`; the exponent form from 1e6 up and below 1e-4.
fn go_number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        format!("{x}")
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn widget(schema: Value) -> &'static ResourceType {
        let crd = json!({"metadata": {"name": "widgets.structural-test.example.io"}, "spec": {
            "group": "structural-test.example.io", "scope": "Namespaced",
            "names": {"plural": "widgets", "kind": "Widget"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}]}});
        crate::kinds::custom::from_crd(&crd).unwrap().0
    }

    fn messages(errors: &[FieldError]) -> Vec<String> {
        errors.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn each_validation_in_the_servers_words() {
        let ty = widget(
            json!({"type": "object", "required": ["spec"], "properties": {"spec": {
            "type": "object", "required": ["size"], "properties": {
                "size": {"type": "integer", "minimum": 1, "maximum": 10},
                "colour": {"type": "string", "enum": ["red", "blue"]},
                "name": {"type": "string", "maxLength": 5, "pattern": "^[a-z]+$"},
                "tags": {"type": "array", "maxItems": 2, "items": {"type": "string"}}}}}}),
        );
        assert_eq!(
            messages(&value_errors(ty, &json!({"spec": {"size": 0}}))),
            ["spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1"]
        );
        assert_eq!(
            messages(&value_errors(
                ty,
                &json!({"spec": {"size": 11, "colour": "green", "name": "ABCDEFG", "tags": ["a", "b", "c"]}})
            )),
            [
                "spec.colour: Unsupported value: \"green\": supported values: \"red\", \"blue\"",
                "spec.name: Too long: may not be more than 5 bytes",
                "spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10",
                "spec.tags: Too many: 3: must have at most 2 items",
            ]
        );
        assert_eq!(
            messages(&value_errors(
                ty,
                &json!({"spec": {"size": 2, "name": "AB"}})
            )),
            ["spec.name: Invalid value: \"AB\": spec.name in body should match '^[a-z]+$'"]
        );
        assert_eq!(
            messages(&value_errors(ty, &json!({"spec": {}}))),
            ["spec.size: Required value"]
        );
        assert_eq!(
            messages(&value_errors(ty, &json!({}))),
            ["spec: Required value"]
        );
    }

    #[test]
    fn bounds_print_as_go_prints_a_float() {
        let printed: Vec<String> = [1.0, 1.5, 100000.0, 1e6, 0.00001, -2.0, 1234567.0]
            .into_iter()
            .map(go_number)
            .collect();
        assert_eq!(
            printed,
            ["1", "1.5", "100000", "1e+06", "1e-05", "-2", "1.234567e+06"]
        );
    }

    #[test]
    fn the_shape_prunes_what_the_schema_does_not_declare() {
        let ty = widget(
            json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "size": {"type": "integer"}, "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "port": {"x-kubernetes-int-or-string": true}, "closed": {"type": "object"}}}}}),
        );
        let s = schema(ty).unwrap();
        assert_eq!(s.at(&["spec", "size"]), Some(&Shape::Leaf(Leaf::Int64)));
        assert_eq!(s.at(&["spec", "free", "x"]), Some(&Shape::Leaf(Leaf::Any)));
        assert_eq!(
            s.at(&["spec", "labels", "a"]),
            Some(&Shape::Leaf(Leaf::String))
        );
        assert_eq!(
            s.at(&["spec", "port"]),
            Some(&Shape::Leaf(Leaf::IntOrString))
        );
        assert_eq!(s.at(&["spec", "closed", "x"]), None);
        assert_eq!(s.at(&["spec", "colour"]), None);
        assert_eq!(s.at(&["status"]), None);
        assert!(s.at(&["metadata", "name"]).is_some());
    }
}
