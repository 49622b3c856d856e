//! A decoded protobuf message → the JSON object Go's `encoding/json` would write for it.

use base64::Engine;
use prost_reflect::{
    DynamicMessage, FieldDescriptor, Kind, MapKey, ReflectMessage, Value as PValue,
};
use serde_json::{Map, Number, Value};

use super::shape::{is_inline, json_name, keeps_zero, omits_zero};
use super::special::{Special, format_time, special};
use super::{ProtoError, join};

/// The message's fields as a JSON object.
pub fn message_to_json(msg: &DynamicMessage, path: &str) -> Result<Map<String, Value>, ProtoError> {
    let mut out = Map::new();
    fill(msg, path, &mut out)?;
    Ok(out)
}

fn fill(msg: &DynamicMessage, path: &str, out: &mut Map<String, Value>) -> Result<(), ProtoError> {
    for (field, value) in msg.fields() {
        if is_inline(&field) {
            if let PValue::Message(inner) = value {
                fill(inner, path, out)?;
            }
            continue;
        }
        let name = json_name(&field);
        let here = join(path, &name);
        if let Some(json) = field_to_json(&field, value, &here)? {
            out.insert(name, json);
        }
    }
    Ok(())
}

/// `None` when Go's JSON leaves the field out.
fn field_to_json(
    field: &FieldDescriptor,
    value: &PValue,
    path: &str,
) -> Result<Option<Value>, ProtoError> {
    match value {
        PValue::Map(entries) => {
            if entries.is_empty() {
                return Ok(None);
            }
            let value_kind = match field.kind() {
                Kind::Message(entry) => entry.map_entry_value_field().kind(),
                other => other,
            };
            // Go writes map keys sorted.
            let mut keys: Vec<&MapKey> = entries.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for key in keys {
                let name = match key {
                    MapKey::String(s) => s.clone(),
                    other => format!("{other:?}"),
                };
                let json = value_to_json(&value_kind, &entries[key], &join(path, &name))?;
                out.insert(name, json);
            }
            Ok(Some(Value::Object(out)))
        }
        PValue::List(items) => {
            if items.is_empty() {
                return Ok(None);
            }
            let kind = field.kind();
            let out = items
                .iter()
                .enumerate()
                .map(|(i, v)| value_to_json(&kind, v, &format!("{path}[{i}]")))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Some(Value::Array(out)))
        }
        PValue::Message(_) => {
            let json = value_to_json(&field.kind(), value, path)?;
            Ok((!json.is_null() || !omits_zero(field)).then_some(json))
        }
        scalar => {
            if is_zero(scalar) && !keeps_zero(field) {
                return Ok(None);
            }
            value_to_json(&field.kind(), scalar, path).map(Some)
        }
    }
}

fn is_zero(v: &PValue) -> bool {
    match v {
        PValue::Bool(b) => !b,
        PValue::I32(n) | PValue::EnumNumber(n) => *n == 0,
        PValue::I64(n) => *n == 0,
        PValue::U32(n) => *n == 0,
        PValue::U64(n) => *n == 0,
        PValue::F32(n) => *n == 0.0,
        PValue::F64(n) => *n == 0.0,
        PValue::String(s) => s.is_empty(),
        PValue::Bytes(b) => b.is_empty(),
        PValue::Message(_) | PValue::List(_) | PValue::Map(_) => false,
    }
}

fn value_to_json(kind: &Kind, v: &PValue, path: &str) -> Result<Value, ProtoError> {
    Ok(match v {
        PValue::Message(m) => match special(&m.descriptor()) {
            Some(s) => special_to_json(s, m, path)?,
            None => Value::Object(message_to_json(m, path)?),
        },
        PValue::Bool(b) => Value::Bool(*b),
        PValue::I32(n) | PValue::EnumNumber(n) => Value::from(*n),
        PValue::I64(n) => Value::from(*n),
        PValue::U32(n) => Value::from(*n),
        PValue::U64(n) => Value::from(*n),
        PValue::F32(n) => float(f64::from(*n), path)?,
        PValue::F64(n) => float(*n, path)?,
        PValue::String(s) => Value::String(s.clone()),
        PValue::Bytes(b) => Value::String(base64::engine::general_purpose::STANDARD.encode(b)),
        PValue::List(_) | PValue::Map(_) => {
            return Err(ProtoError::field(
                path,
                format!("a nested list or map where {kind:?} belongs"),
            ));
        }
    })
}

/// Go prints a whole float without a fraction (`minimum: 0`, not `0.0`).
fn float(n: f64, path: &str) -> Result<Value, ProtoError> {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        return Ok(Value::from(n as i64));
    }
    Number::from_f64(n)
        .map(Value::Number)
        .ok_or_else(|| ProtoError::field(path, format!("{n} is not a JSON number")))
}

fn special_to_json(s: Special, m: &DynamicMessage, path: &str) -> Result<Value, ProtoError> {
    let get = |name: &str| m.get_field_by_name(name).map(|v| v.into_owned());
    let number = |name: &str| get(name).and_then(|v| v.as_i64().or(v.as_i32().map(i64::from)));
    let set = |name: &str| m.has_field_by_name(name);
    match s {
        Special::Time | Special::MicroTime => {
            let seconds = number("seconds").unwrap_or(0);
            let nanos = number("nanos").unwrap_or(0);
            let nanos =
                i32::try_from(nanos).map_err(|_| ProtoError::field(path, "nanos out of range"))?;
            format_time(seconds, nanos, s == Special::MicroTime, path)
        }
        Special::IntOrString => {
            // type 1 is a string; anything else reads as the integer, as Go does.
            if number("type") == Some(1) {
                Ok(Value::String(
                    get("strVal")
                        .and_then(|v| v.as_str().map(String::from))
                        .unwrap_or_default(),
                ))
            } else {
                Ok(Value::from(number("intVal").unwrap_or(0)))
            }
        }
        Special::Quantity => {
            let text = get("string").and_then(|v| v.as_str().map(String::from));
            Ok(Value::String(
                text.filter(|t| !t.is_empty()).unwrap_or_else(|| "0".into()),
            ))
        }
        Special::Duration => Ok(Value::String(super::duration::format(
            number("duration").unwrap_or(0),
        ))),
        Special::RawJson => {
            let raw = m
                .get_field_by_number(1)
                .and_then(|v| v.as_bytes().cloned())
                .unwrap_or_default();
            if raw.is_empty() {
                return Ok(Value::Null);
            }
            serde_json::from_slice(&raw)
                .map_err(|e| ProtoError::field(path, format!("raw value is not JSON: {e}")))
        }
        Special::SchemaOrArray | Special::SchemaOrStringArray => {
            // Field 2 is the list form; a set (non-empty) list wins over the schema in field 1.
            if let Some(list) = m.descriptor().get_field(2)
                && m.has_field(&list)
            {
                let json = field_to_json(&list, &m.get_field(&list), path)?;
                return Ok(json.unwrap_or_default());
            }
            schema_or(m, 1, path, Value::Null)
        }
        Special::StringList => {
            let items = m
                .get_field_by_number(1)
                .and_then(|v| v.as_list().map(<[PValue]>::to_vec))
                .unwrap_or_default();
            Ok(Value::Array(
                items
                    .iter()
                    .map(|i| Value::String(i.as_str().unwrap_or_default().to_string()))
                    .collect(),
            ))
        }
        Special::SchemaOrBool => {
            let allows = get("allows").and_then(|v| v.as_bool()).unwrap_or(false);
            if set("schema") {
                schema_or(m, 2, path, Value::Bool(allows))
            } else {
                Ok(Value::Bool(allows))
            }
        }
    }
}

/// The schema in field `number` as JSON, or `fallback` when it is not set.
fn schema_or(
    m: &DynamicMessage,
    number: u32,
    path: &str,
    fallback: Value,
) -> Result<Value, ProtoError> {
    match m.get_field_by_number(number) {
        Some(v) if m.has_field_by_number(number) => match v.as_ref() {
            PValue::Message(schema) => Ok(Value::Object(message_to_json(schema, path)?)),
            _ => Ok(fallback),
        },
        _ => Ok(fallback),
    }
}
