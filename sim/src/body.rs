//! Decoding a request body by its content type (JSON, YAML, protobuf): one place for the API's
//! handlers and for field validation, which reads the same bytes before they are stored.

use serde_json::Value;

use crate::status::ApiError;

/// The media type without its parameters (`application/json; charset=utf-8` → `application/json`).
fn essence(content_type: &str) -> &str {
    content_type.split(';').next().unwrap_or_default().trim()
}

/// A YAML body (`application/yaml`, `application/apply-patch+yaml`).
pub fn is_yaml(content_type: &str) -> bool {
    essence(content_type).ends_with("yaml")
}

/// A JSON body; a request without a content type is read as JSON, as the real server does.
pub fn is_json(content_type: &str) -> bool {
    let essence = essence(content_type);
    essence.is_empty() || essence.ends_with("json")
}

/// Decodes a request body by its content type. A protobuf body of a kind with no protobuf form
/// (a custom resource) is refused as the real server refuses it: 400, not decodable.
pub fn decode_body(bytes: &[u8], content_type: &str) -> Result<Value, ApiError> {
    if bytes.is_empty() {
        return Ok(Value::Null);
    }
    let essence = essence(content_type);
    if essence == crate::proto::MEDIA_TYPE {
        return crate::proto::decode(bytes).map_err(|e| ApiError::bad_request(e.to_string()));
    }
    if essence.ends_with("yaml") {
        return serde_saphyr::from_slice::<Value>(bytes)
            .map_err(|e| ApiError::bad_request(format!("error decoding YAML: {e}")));
    }
    serde_json::from_slice(bytes).map_err(|e| {
        // Go's encoding/json names a truncated body this way; other errors keep serde's words.
        let why = if e.is_eof() {
            "unexpected end of JSON input".to_string()
        } else {
            e.to_string()
        };
        ApiError::bad_request(format!(
            "couldn't get version/kind; json parse error: {why}"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_decode_from_json_yaml_and_protobuf() {
        assert_eq!(
            decode_body(b"{\"a\":1}", "application/json").unwrap()["a"],
            1
        );
        assert_eq!(
            decode_body(b"a: 1\n", "application/apply-patch+yaml").unwrap()["a"],
            1
        );
        let pb = crate::proto::encode(&serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}})).unwrap();
        assert_eq!(
            decode_body(&pb, "application/vnd.kubernetes.protobuf").unwrap()["metadata"]["name"],
            "x"
        );
        assert_eq!(
            decode_body(b"k8s\0", "application/vnd.kubernetes.protobuf")
                .unwrap_err()
                .code,
            400
        );
        assert_eq!(
            decode_body(b"{nope", "application/json").unwrap_err().code,
            400
        );
    }
}
