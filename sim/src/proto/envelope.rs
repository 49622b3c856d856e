//! The `k8s\0` + `runtime.Unknown` envelope around one object, and the length-prefixed
//! `WatchEvent` frames of a protobuf watch stream.

use prost::Message;
use prost_reflect::{DynamicMessage, Value as PValue};
use serde_json::{Map, Value};

use super::ProtoError;
use super::from_json::message_from_json;
use super::pool::{META, RUNTIME, message, message_for};
use super::to_json::message_to_json;

/// What every protobuf body starts with: "k8s" and encoding style 0 (a `runtime.Unknown`).
pub const MAGIC: [u8; 4] = *b"k8s\0";

/// A protobuf body → the object as JSON, `apiVersion` and `kind` first.
pub fn decode(bytes: &[u8]) -> Result<Value, ProtoError> {
    let body = match bytes {
        [] => return Err(ProtoError::Empty),
        b if !b.starts_with(&MAGIC) => return Err(ProtoError::NoPrefix),
        [_, _, _, _] => return Err(ProtoError::Empty),
        b => &b[MAGIC.len()..],
    };
    let unknown_desc = runtime_message("Unknown")?;
    let unknown = DynamicMessage::decode(unknown_desc, body).map_err(wire)?;
    let text = |m: &DynamicMessage, name: &str| -> String {
        m.get_field_by_name(name)
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    };
    let encoding = text(&unknown, "contentEncoding");
    if !encoding.is_empty() {
        return Err(ProtoError::ContentEncoding(encoding));
    }
    let (api_version, kind) = match unknown.get_field_by_name("typeMeta").as_deref() {
        Some(PValue::Message(tm)) => (text(tm, "apiVersion"), text(tm, "kind")),
        _ => (String::new(), String::new()),
    };
    if kind.is_empty() {
        return Err(ProtoError::MissingKind);
    }
    let desc = message_for(&api_version, &kind).ok_or_else(|| ProtoError::UnknownKind {
        api_version: api_version.clone(),
        kind: kind.clone(),
    })?;
    let raw = unknown
        .get_field_by_name("raw")
        .and_then(|v| v.as_bytes().cloned())
        .unwrap_or_default();
    let object = DynamicMessage::decode(desc, raw).map_err(wire)?;
    let mut out = Map::new();
    out.insert("kind".into(), Value::String(kind));
    out.insert("apiVersion".into(), Value::String(api_version));
    out.extend(message_to_json(&object, "")?);
    Ok(Value::Object(out))
}

/// An object (with `apiVersion` and `kind`) → a protobuf body.
pub fn encode(object: &Value) -> Result<Vec<u8>, ProtoError> {
    let text = |key: &str| object[key].as_str().unwrap_or_default().to_string();
    let (api_version, kind) = (text("apiVersion"), text("kind"));
    if kind.is_empty() {
        return Err(ProtoError::MissingKind);
    }
    let desc = message_for(&api_version, &kind).ok_or_else(|| ProtoError::UnknownKind {
        api_version: api_version.clone(),
        kind: kind.clone(),
    })?;
    let Value::Object(fields) = object else {
        return Err(ProtoError::field("", "an object must be a JSON object"));
    };
    let raw = message_from_json(&desc, fields, "")?.encode_to_vec();
    let mut type_meta = DynamicMessage::new(runtime_message("TypeMeta")?);
    type_meta.set_field_by_name("apiVersion", PValue::String(api_version));
    type_meta.set_field_by_name("kind", PValue::String(kind));
    let mut unknown = DynamicMessage::new(runtime_message("Unknown")?);
    unknown.set_field_by_name("typeMeta", PValue::Message(type_meta));
    unknown.set_field_by_name("raw", PValue::Bytes(raw.into()));
    unknown.set_field_by_name("contentEncoding", PValue::String(String::new()));
    unknown.set_field_by_name("contentType", PValue::String(String::new()));
    let mut out = MAGIC.to_vec();
    unknown
        .encode(&mut out)
        .map_err(|e| ProtoError::Wire(e.to_string()))?;
    Ok(out)
}

/// One frame of a protobuf watch stream: the length, then a bare `WatchEvent` whose object is
/// an enveloped body.
pub fn watch_frame(event_type: &str, object: &Value) -> Result<Vec<u8>, ProtoError> {
    let mut raw = DynamicMessage::new(runtime_message("RawExtension")?);
    raw.set_field_by_name("raw", PValue::Bytes(encode(object)?.into()));
    let desc = message(&format!("{META}.WatchEvent"))
        .ok_or_else(|| ProtoError::Wire("WatchEvent is missing from the descriptors".into()))?;
    let mut event = DynamicMessage::new(desc);
    event.set_field_by_name("type", PValue::String(event_type.to_string()));
    event.set_field_by_name("object", PValue::Message(raw));
    let body = event.encode_to_vec();
    let len = u32::try_from(body.len())
        .map_err(|_| ProtoError::Wire("watch event larger than 4 GiB".into()))?;
    let mut frame = len.to_be_bytes().to_vec();
    frame.extend(body);
    Ok(frame)
}

fn runtime_message(name: &str) -> Result<prost_reflect::MessageDescriptor, ProtoError> {
    message(&format!("{RUNTIME}.{name}"))
        .ok_or_else(|| ProtoError::Wire(format!("runtime.{name} is missing from the descriptors")))
}

fn wire(e: prost::DecodeError) -> ProtoError {
    ProtoError::Wire(e.to_string())
}
