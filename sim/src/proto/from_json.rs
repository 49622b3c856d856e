//! A JSON object → the protobuf message of its kind. Keys the message has no field for are
//! left out (as the real server, decoding into a Go struct, would have dropped them); a value
//! of the wrong JSON type is an error naming its path.

use base64::Engine;
use prost_reflect::{
    DynamicMessage, FieldDescriptor, Kind, MapKey, MessageDescriptor, ReflectMessage,
    Value as PValue,
};
use serde_json::{Map, Value};

use super::shape::{is_inline, json_name};
use super::special::{Special, parse_time, special};
use super::{ProtoError, join};

pub fn message_from_json(
    desc: &MessageDescriptor,
    obj: &Map<String, Value>,
    path: &str,
) -> Result<DynamicMessage, ProtoError> {
    let mut msg = DynamicMessage::new(desc.clone());
    for field in desc.fields() {
        if is_inline(&field) {
            if let Kind::Message(inner) = field.kind() {
                let value = message_from_json(&inner, obj, path)?;
                msg.set_field(&field, PValue::Message(value));
            }
            continue;
        }
        let name = json_name(&field);
        match obj.get(&name) {
            None | Some(Value::Null) => {}
            Some(v) => {
                let value = field_from_json(&field, v, &join(path, &name))?;
                msg.set_field(&field, value);
            }
        }
    }
    Ok(msg)
}

fn field_from_json(field: &FieldDescriptor, v: &Value, path: &str) -> Result<PValue, ProtoError> {
    if field.is_map() {
        let Value::Object(entries) = v else {
            return Err(ProtoError::field(
                path,
                format!("expected an object, got {}", type_name(v)),
            ));
        };
        let Kind::Message(entry) = field.kind() else {
            return Err(ProtoError::field(path, "map without an entry message"));
        };
        let value_kind = entry.map_entry_value_field().kind();
        let mut out = std::collections::HashMap::new();
        for (key, value) in entries {
            // Go's JSON reads a null map value as the zero value.
            let value = match value {
                Value::Null => PValue::default_value(&value_kind),
                v => value_from_json(&value_kind, v, &join(path, key))?,
            };
            out.insert(MapKey::String(key.clone()), value);
        }
        return Ok(PValue::Map(out));
    }
    if field.is_list() {
        let Value::Array(items) = v else {
            return Err(ProtoError::field(
                path,
                format!("expected an array, got {}", type_name(v)),
            ));
        };
        let kind = field.kind();
        return items
            .iter()
            .enumerate()
            .map(|(i, item)| value_from_json(&kind, item, &format!("{path}[{i}]")))
            .collect::<Result<Vec<_>, _>>()
            .map(PValue::List);
    }
    value_from_json(&field.kind(), v, path)
}

fn value_from_json(kind: &Kind, v: &Value, path: &str) -> Result<PValue, ProtoError> {
    let wrong =
        |want: &str| ProtoError::field(path, format!("expected {want}, got {}", type_name(v)));
    Ok(match kind {
        Kind::Message(desc) => PValue::Message(match special(desc) {
            Some(s) => special_from_json(s, desc, v, path)?,
            None => match v {
                Value::Object(obj) => message_from_json(desc, obj, path)?,
                _ => return Err(wrong("an object")),
            },
        }),
        // A number or boolean where a string belongs reads as its JSON text rather than failing
        // the whole object (a stored annotation may be a number).
        Kind::String => match v {
            Value::String(s) => PValue::String(s.clone()),
            Value::Number(_) | Value::Bool(_) => PValue::String(v.to_string()),
            _ => return Err(wrong("a string")),
        },
        Kind::Bool => PValue::Bool(v.as_bool().ok_or_else(|| wrong("a boolean"))?),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => PValue::I32(
            integer(v)
                .and_then(|n| i32::try_from(n).ok())
                .ok_or_else(|| wrong("a 32-bit integer"))?,
        ),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => {
            PValue::I64(integer(v).ok_or_else(|| wrong("an integer"))?)
        }
        Kind::Uint32 | Kind::Fixed32 => PValue::U32(
            integer(v)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| wrong("an unsigned 32-bit integer"))?,
        ),
        Kind::Uint64 | Kind::Fixed64 => {
            PValue::U64(v.as_u64().ok_or_else(|| wrong("an unsigned integer"))?)
        }
        Kind::Double => PValue::F64(v.as_f64().ok_or_else(|| wrong("a number"))?),
        Kind::Float => PValue::F32(v.as_f64().ok_or_else(|| wrong("a number"))? as f32),
        Kind::Bytes => {
            let text = v.as_str().ok_or_else(|| wrong("a base64 string"))?;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(text)
                .map_err(|e| ProtoError::field(path, format!("illegal base64 data: {e}")))?;
            PValue::Bytes(bytes.into())
        }
        Kind::Enum(_) => PValue::EnumNumber(
            integer(v)
                .and_then(|n| i32::try_from(n).ok())
                .ok_or_else(|| wrong("an enum number"))?,
        ),
    })
}

/// An integer, also from a float with no fraction (`3.0`), as Go's JSON accepts.
fn integer(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            .map(|f| f as i64)
    })
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn special_from_json(
    s: Special,
    desc: &MessageDescriptor,
    v: &Value,
    path: &str,
) -> Result<DynamicMessage, ProtoError> {
    let mut msg = DynamicMessage::new(desc.clone());
    let wrong =
        |want: &str| ProtoError::field(path, format!("expected {want}, got {}", type_name(v)));
    match s {
        Special::Time | Special::MicroTime => {
            let text = v.as_str().ok_or_else(|| wrong("an RFC 3339 time"))?;
            let (seconds, nanos) = parse_time(text, path)?;
            msg.set_field_by_name("seconds", PValue::I64(seconds));
            // Time is whole seconds on the wire too.
            let nanos = if s == Special::MicroTime { nanos } else { 0 };
            msg.set_field_by_name("nanos", PValue::I32(nanos));
        }
        Special::IntOrString => match v {
            Value::String(text) => {
                msg.set_field_by_name("type", PValue::I64(1));
                msg.set_field_by_name("strVal", PValue::String(text.clone()));
            }
            _ => {
                let n = integer(v)
                    .and_then(|n| i32::try_from(n).ok())
                    .ok_or_else(|| wrong("an integer or a string"))?;
                msg.set_field_by_name("type", PValue::I64(0));
                msg.set_field_by_name("intVal", PValue::I32(n));
            }
        },
        Special::Quantity => {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => return Err(wrong("a quantity")),
            };
            msg.set_field_by_name("string", PValue::String(text));
        }
        Special::Duration => {
            let text = v.as_str().ok_or_else(|| wrong("a duration"))?;
            let nanos = super::duration::parse(text, path)?;
            msg.set_field_by_name("duration", PValue::I64(nanos));
        }
        Special::RawJson => {
            let raw = serde_json::to_vec(v).map_err(|e| ProtoError::field(path, e.to_string()))?;
            msg.set_field_by_number(1, PValue::Bytes(raw.into()));
        }
        Special::SchemaOrArray | Special::SchemaOrStringArray => match v {
            Value::Array(_) => {
                let list = desc.get_field(2).ok_or_else(|| wrong("a schema"))?;
                let value = field_from_json(&list, v, path)?;
                msg.set_field(&list, value);
            }
            _ => set_schema(&mut msg, 1, v, path)?,
        },
        Special::StringList => {
            let items = v.as_array().ok_or_else(|| wrong("a list of strings"))?;
            let items = items
                .iter()
                .map(|i| {
                    i.as_str()
                        .map(|s| PValue::String(s.to_string()))
                        .ok_or_else(|| wrong("a list of strings"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            msg.set_field_by_number(1, PValue::List(items));
        }
        Special::SchemaOrBool => match v {
            Value::Bool(b) => msg.set_field_by_name("allows", PValue::Bool(*b)),
            _ => {
                msg.set_field_by_name("allows", PValue::Bool(true));
                set_schema(&mut msg, 2, v, path)?;
            }
        },
    }
    Ok(msg)
}

fn set_schema(
    msg: &mut DynamicMessage,
    number: u32,
    v: &Value,
    path: &str,
) -> Result<(), ProtoError> {
    let field = msg
        .descriptor()
        .get_field(number)
        .ok_or_else(|| ProtoError::field(path, "union without a schema field"))?;
    let value = value_from_json(&field.kind(), v, path)?;
    msg.set_field(&field, value);
    Ok(())
}
