//! The Swagger 2.0 document in gnostic's protobuf form (`openapi.v2.Document` of
//! `github.com/google/gnostic-models`' `openapiv2/OpenAPIv2.proto`), which is what client-go's
//! `OpenAPISchema` asks for and kubectl reads (`explain --output plaintext-openapiv2`, validation
//! of a kind the v3 documents lack). Written field by field from the JSON document; values
//! gnostic keeps as YAML (`default`, `enum`, `example`, `x-*` extensions) are written as JSON,
//! which is YAML too and what the reader parses them with.

use serde_json::{Map, Value};

/// The whole document: `swagger` (1), `info` (2), `definitions` (9), `security` (12),
/// `securityDefinitions` (13); paths are empty and left out, as protobuf leaves empty fields.
pub fn encode(doc: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    string(1, &doc["swagger"], &mut out);
    let mut info = Vec::new();
    string(1, &doc["info"]["title"], &mut info);
    string(2, &doc["info"]["version"], &mut info);
    field(2, &info, &mut out);
    if let Some(definitions) = doc["definitions"].as_object()
        && !definitions.is_empty()
    {
        field(9, &named_schemas(definitions), &mut out);
    }
    for requirement in doc["security"].as_array().into_iter().flatten() {
        let mut named = Vec::new();
        for (name, scopes) in requirement.as_object().into_iter().flatten() {
            let mut array = Vec::new();
            for scope in scopes.as_array().into_iter().flatten() {
                string(1, scope, &mut array);
            }
            let mut entry = Vec::new();
            field(1, name.as_bytes(), &mut entry);
            field(2, &array, &mut entry);
            field(1, &entry, &mut named);
        }
        field(12, &named, &mut out);
    }
    if let Some(definitions) = doc["securityDefinitions"].as_object() {
        let mut all = Vec::new();
        for (name, scheme) in definitions {
            // Only API keys are declared (the bearer token): `ApiKeySecurity`, item 2.
            let mut key = Vec::new();
            string(1, &scheme["type"], &mut key);
            string(2, &scheme["name"], &mut key);
            string(3, &scheme["in"], &mut key);
            string(4, &scheme["description"], &mut key);
            let mut item = Vec::new();
            field(2, &key, &mut item);
            let mut entry = Vec::new();
            field(1, name.as_bytes(), &mut entry);
            field(2, &item, &mut entry);
            field(1, &entry, &mut all);
        }
        field(13, &all, &mut out);
    }
    out
}

/// `Definitions` and `Properties` alike: repeated `NamedSchema` (1) of `name` (1), `value` (2).
fn named_schemas(schemas: &Map<String, Value>) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, value) in schemas {
        let mut entry = Vec::new();
        field(1, name.as_bytes(), &mut entry);
        field(2, &schema(value), &mut entry);
        field(1, &entry, &mut out);
    }
    out
}

/// How a `Schema` field is written.
#[derive(Clone, Copy)]
enum Wire {
    Text,
    /// gnostic's `Any` (YAML text).
    Yaml,
    Double,
    Bool,
    Int,
    /// Repeated text.
    Texts,
    /// Repeated `Any`.
    Yamls,
    /// Repeated `Schema`.
    Schemas,
    /// `AdditionalPropertiesItem`: a schema (1) or a boolean (2).
    SchemaOrBool,
    /// `TypeItem`: repeated `value` (1).
    Types,
    /// `ItemsItem`: repeated `schema` (1).
    Items,
    /// `Properties`: repeated `NamedSchema`.
    Named,
}

/// The JSON keys of gnostic's `Schema` message, their field numbers and how each is written;
/// `x-` extensions go to `vendor_extension` (31).
const SCHEMA_FIELDS: [(&str, u64, Wire); 28] = [
    ("$ref", 1, Wire::Text),
    ("format", 2, Wire::Text),
    ("title", 3, Wire::Text),
    ("description", 4, Wire::Text),
    ("default", 5, Wire::Yaml),
    ("multipleOf", 6, Wire::Double),
    ("maximum", 7, Wire::Double),
    ("exclusiveMaximum", 8, Wire::Bool),
    ("minimum", 9, Wire::Double),
    ("exclusiveMinimum", 10, Wire::Bool),
    ("maxLength", 11, Wire::Int),
    ("minLength", 12, Wire::Int),
    ("pattern", 13, Wire::Text),
    ("maxItems", 14, Wire::Int),
    ("minItems", 15, Wire::Int),
    ("uniqueItems", 16, Wire::Bool),
    ("maxProperties", 17, Wire::Int),
    ("minProperties", 18, Wire::Int),
    ("required", 19, Wire::Texts),
    ("enum", 20, Wire::Yamls),
    ("additionalProperties", 21, Wire::SchemaOrBool),
    ("type", 22, Wire::Types),
    ("items", 23, Wire::Items),
    ("allOf", 24, Wire::Schemas),
    ("properties", 25, Wire::Named),
    ("discriminator", 26, Wire::Text),
    ("readOnly", 27, Wire::Bool),
    ("example", 30, Wire::Yaml),
];

/// One `Schema`, its fields in field-number order as Go's encoder writes them.
fn schema(v: &Value) -> Vec<u8> {
    let Some(map) = v.as_object() else {
        return Vec::new();
    };
    let mut fields: Vec<(u64, Vec<u8>)> = Vec::new();
    for (key, value) in map {
        let mut b = Vec::new();
        let known = SCHEMA_FIELDS.iter().find(|(k, _, _)| k == key);
        let number = match known {
            Some(&(_, number, wire)) => {
                write(number, wire, value, &mut b);
                number
            }
            None if key.starts_with("x-") => {
                // `NamedAny`: `name` (1), `value` (2).
                let mut entry = Vec::new();
                field(1, key.as_bytes(), &mut entry);
                field(2, &any(value), &mut entry);
                field(31, &entry, &mut b);
                31
            }
            None => continue,
        };
        fields.push((number, b));
    }
    fields.sort_by_key(|(number, _)| *number);
    fields.into_iter().flat_map(|(_, bytes)| bytes).collect()
}

/// Field `number` of a `Schema`, holding `value`, written as `wire` says.
fn write(number: u64, wire: Wire, value: &Value, out: &mut Vec<u8>) {
    let each = || value.as_array().into_iter().flatten();
    match wire {
        Wire::Text => string(number, value, out),
        Wire::Yaml => field(number, &any(value), out),
        Wire::Double => double(number, value, out),
        Wire::Bool => boolean(number, value, out),
        Wire::Int => integer(number, value, out),
        Wire::Texts => each().for_each(|t| string(number, t, out)),
        Wire::Yamls => each().for_each(|e| field(number, &any(e), out)),
        Wire::Schemas => each().for_each(|s| field(number, &schema(s), out)),
        Wire::SchemaOrBool => {
            let mut item = Vec::new();
            match value {
                Value::Bool(_) => boolean(2, value, &mut item),
                _ => field(1, &schema(value), &mut item),
            }
            field(number, &item, out);
        }
        Wire::Types => {
            let mut item = Vec::new();
            match value {
                Value::Array(types) => types.iter().for_each(|t| string(1, t, &mut item)),
                _ => string(1, value, &mut item),
            }
            field(number, &item, out);
        }
        Wire::Items => {
            let mut item = Vec::new();
            match value {
                Value::Array(schemas) => {
                    schemas.iter().for_each(|s| field(1, &schema(s), &mut item));
                }
                _ => field(1, &schema(value), &mut item),
            }
            field(number, &item, out);
        }
        Wire::Named => {
            if let Some(props) = value.as_object() {
                field(number, &named_schemas(props), out);
            }
        }
    }
}

/// gnostic's `Any`: the value as YAML text (2); JSON is YAML.
fn any(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    let mut text = value.to_string();
    text.push('\n');
    field(2, text.as_bytes(), &mut out);
    out
}

fn string(number: u64, value: &Value, out: &mut Vec<u8>) {
    if let Some(s) = value.as_str() {
        field(number, s.as_bytes(), out);
    }
}

fn boolean(number: u64, value: &Value, out: &mut Vec<u8>) {
    if let Some(b) = value.as_bool() {
        varint(number << 3, out);
        varint(u64::from(b), out);
    }
}

fn integer(number: u64, value: &Value, out: &mut Vec<u8>) {
    if let Some(n) = value.as_i64() {
        varint(number << 3, out);
        // int64 is written as its two's complement in a varint.
        varint(n as u64, out);
    }
}

fn double(number: u64, value: &Value, out: &mut Vec<u8>) {
    if let Some(n) = value.as_f64() {
        varint((number << 3) | 1, out);
        out.extend_from_slice(&n.to_le_bytes());
    }
}

/// A length-delimited protobuf field: its key (field number, wire type 2), length, bytes.
fn field(number: u64, bytes: &[u8], out: &mut Vec<u8>) {
    varint((number << 3) | 2, out);
    varint(bytes.len() as u64, out);
    out.extend_from_slice(bytes);
}

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schema_is_written_in_field_number_order() {
        let bytes = schema(&json!({
            "type": "object",
            "description": "d",
            "x-kubernetes-patch-merge-key": "name",
            "required": ["a"],
        }));
        // description (4), required (19), type (22: TypeItem { value: "object" }), extension (31).
        let mut want = vec![0x22, 1, b'd', 0x9a, 0x01, 1, b'a', 0xb2, 0x01, 8, 0x0a, 6];
        want.extend_from_slice(b"object");
        assert_eq!(&bytes[..want.len()], &want[..]);
        let extension = &bytes[want.len()..];
        assert_eq!(&extension[..2], &[0xfa, 0x01]);
        assert!(
            String::from_utf8_lossy(extension).contains("x-kubernetes-patch-merge-key")
                && String::from_utf8_lossy(extension).contains("\"name\"\n")
        );
    }

    #[test]
    fn booleans_integers_and_doubles_take_their_wire_types() {
        assert_eq!(schema(&json!({"uniqueItems": true})), [0x80, 0x01, 1]);
        assert_eq!(schema(&json!({"maxLength": 300})), [11 << 3, 0xac, 0x02]);
        let max = schema(&json!({"maximum": 1.5}));
        assert_eq!(max[0], (7 << 3) | 1);
        assert_eq!(&max[1..], &1.5f64.to_le_bytes());
    }
}
