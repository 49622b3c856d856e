//! Messages whose JSON form is not an object of their fields: times are RFC 3339 strings,
//! IntOrString is a number or a string, Quantity a string, raw JSON fields are the JSON itself,
//! a CRD schema's "X or Y" unions are whichever of X or Y is set, and a user's extra values
//! are a bare list.

use jiff::Timestamp;
use prost_reflect::MessageDescriptor;

use super::ProtoError;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Special {
    /// `metav1.Time`: whole seconds in JSON.
    Time,
    /// `metav1.MicroTime`: microseconds in JSON.
    MicroTime,
    IntOrString,
    Quantity,
    /// `metav1.Duration`: Go's duration text in JSON, nanoseconds on the wire.
    Duration,
    /// `FieldsV1`, `RawExtension`, apiextensions `JSON`: bytes that are JSON text.
    RawJson,
    /// `JSONSchemaPropsOrArray`: a schema, or a list of schemas.
    SchemaOrArray,
    /// `JSONSchemaPropsOrBool`: a schema, or true/false.
    SchemaOrBool,
    /// `JSONSchemaPropsOrStringArray`: a schema, or a list of property names.
    SchemaOrStringArray,
    /// `ExtraValue` of authentication and authorization (a user's extra attributes): a Go
    /// `[]string`, a list of strings in JSON and a message with one repeated field on the wire.
    StringList,
}

pub fn special(desc: &MessageDescriptor) -> Option<Special> {
    const APIEXT: &str = "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.";
    Some(match desc.full_name() {
        "k8s.io.apimachinery.pkg.apis.meta.v1.Time" => Special::Time,
        "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime" => Special::MicroTime,
        "k8s.io.apimachinery.pkg.util.intstr.IntOrString" => Special::IntOrString,
        "k8s.io.apimachinery.pkg.api.resource.Quantity" => Special::Quantity,
        "k8s.io.apimachinery.pkg.apis.meta.v1.Duration" => Special::Duration,
        "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1"
        | "k8s.io.apimachinery.pkg.runtime.RawExtension" => Special::RawJson,
        "k8s.io.api.authentication.v1.ExtraValue" | "k8s.io.api.authorization.v1.ExtraValue" => {
            Special::StringList
        }
        name => match name.strip_prefix(APIEXT) {
            Some("JSON") => Special::RawJson,
            Some("JSONSchemaPropsOrArray") => Special::SchemaOrArray,
            Some("JSONSchemaPropsOrBool") => Special::SchemaOrBool,
            Some("JSONSchemaPropsOrStringArray") => Special::SchemaOrStringArray,
            _ => return None,
        },
    })
}

/// (seconds, nanos) of an RFC 3339 time.
pub fn parse_time(text: &str, path: &str) -> Result<(i64, i32), ProtoError> {
    let t: Timestamp = text
        .parse()
        .map_err(|e| ProtoError::field(path, format!("{text:?} is not an RFC 3339 time: {e}")))?;
    Ok((t.as_second(), t.subsec_nanosecond()))
}

/// The JSON form of a time: `null` for the zero time, as Go writes it.
pub fn format_time(
    seconds: i64,
    nanos: i32,
    micro: bool,
    path: &str,
) -> Result<serde_json::Value, ProtoError> {
    if seconds == 0 && nanos == 0 {
        return Ok(serde_json::Value::Null);
    }
    let t = Timestamp::new(seconds, if micro { nanos } else { 0 })
        .map_err(|e| ProtoError::field(path, format!("time out of range: {e}")))?;
    let text = if micro {
        t.strftime("%Y-%m-%dT%H:%M:%S.%6fZ").to_string()
    } else {
        t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
    };
    Ok(serde_json::Value::String(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_as_go_prints_them() {
        let (s, n) = parse_time("2026-07-01T11:59:50.123456Z", "t").unwrap();
        assert_eq!(
            format_time(s, n, false, "t").unwrap(),
            "2026-07-01T11:59:50Z"
        );
        assert_eq!(
            format_time(s, n, true, "t").unwrap(),
            "2026-07-01T11:59:50.123456Z"
        );
        assert_eq!(
            format_time(0, 0, false, "t").unwrap(),
            serde_json::Value::Null
        );
        assert!(parse_time("yesterday", "metadata.creationTimestamp").is_err());
        assert!(format_time(i64::MAX, 0, false, "t").is_err());
    }
}
