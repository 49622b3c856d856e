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

/// One `Schema`, its fields in field-number order as Go's encoder writes them.
fn schema(v: &Value) -> Vec<u8> {
    let Some(map) = v.as_object() else {
        return Vec::new();
    };
    let mut fields: Vec<(u64, Vec<u8>)> = Vec::new();
    let mut put = |number: u64, bytes: Vec<u8>| fields.push((number, bytes));
    for (key, value) in map {
        let mut b = Vec::new();
        match key.as_str() {
            "$ref" => string(1, value, &mut b),
            "format" => string(2, value, &mut b),
            "title" => string(3, value, &mut b),
            "description" => string(4, value, &mut b),
            "default" => field(5, &any(value), &mut b),
            "multipleOf" => double(6, value, &mut b),
            "maximum" => double(7, value, &mut b),
            "exclusiveMaximum" => boolean(8, value, &mut b),
            "minimum" => double(9, value, &mut b),
            "exclusiveMinimum" => boolean(10, value, &mut b),
            "maxLength" => integer(11, value, &mut b),
            "minLength" => integer(12, value, &mut b),
            "pattern" => string(13, value, &mut b),
            "maxItems" => integer(14, value, &mut b),
            "minItems" => integer(15, value, &mut b),
            "uniqueItems" => boolean(16, value, &mut b),
            "maxProperties" => integer(17, value, &mut b),
            "minProperties" => integer(18, value, &mut b),
            "required" => value
                .as_array()
                .into_iter()
                .flatten()
                .for_each(|r| string(19, r, &mut b)),
            "enum" => value
                .as_array()
                .into_iter()
                .flatten()
                .for_each(|e| field(20, &any(e), &mut b)),
            "additionalProperties" => {
                // `AdditionalPropertiesItem`: a schema (1) or a boolean (2).
                let mut item = Vec::new();
                match value {
                    Value::Bool(_) => boolean(2, value, &mut item),
                    _ => field(1, &schema(value), &mut item),
                }
                field(21, &item, &mut b);
            }
            "type" => {
                // `TypeItem`: repeated `value` (1).
                let mut item = Vec::new();
                match value {
                    Value::Array(types) => types.iter().for_each(|t| string(1, t, &mut item)),
                    _ => string(1, value, &mut item),
                }
                field(22, &item, &mut b);
            }
            "items" => {
                // `ItemsItem`: repeated `schema` (1).
                let mut item = Vec::new();
                match value {
                    Value::Array(schemas) => {
                        schemas.iter().for_each(|s| field(1, &schema(s), &mut item));
                    }
                    _ => field(1, &schema(value), &mut item),
                }
                field(23, &item, &mut b);
            }
            "allOf" => value
                .as_array()
                .into_iter()
                .flatten()
                .for_each(|s| field(24, &schema(s), &mut b)),
            "properties" => {
                if let Some(props) = value.as_object() {
                    field(25, &named_schemas(props), &mut b);
                }
            }
            "discriminator" => string(26, value, &mut b),
            "readOnly" => boolean(27, value, &mut b),
            "example" => field(30, &any(value), &mut b),
            extension if extension.starts_with("x-") => {
                // `NamedAny`: `name` (1), `value` (2).
                let mut entry = Vec::new();
                field(1, extension.as_bytes(), &mut entry);
                field(2, &any(value), &mut entry);
                field(31, &entry, &mut b);
            }
            _ => continue,
        }
        put(field_number(key), b);
    }
    fields.sort_by_key(|(number, _)| *number);
    fields.into_iter().flat_map(|(_, bytes)| bytes).collect()
}

/// The field number a Schema key is written under, for ordering.
fn field_number(key: &str) -> u64 {
    const ORDER: [&str; 30] = [
        "$ref",
        "format",
        "title",
        "description",
        "default",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxProperties",
        "minProperties",
        "required",
        "enum",
        "additionalProperties",
        "type",
        "items",
        "allOf",
        "properties",
        "discriminator",
        "readOnly",
        "xml",
        "externalDocs",
        "example",
    ];
    ORDER
        .iter()
        .position(|k| *k == key)
        .map_or(31, |i| i as u64 + 1)
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
