//! `/openapi/v2`: the Swagger 2.0 document, with no definitions or paths. kubectl reads it only
//! where the v3 documents do not know a kind (a misspelt kind, a removed `apps/v1beta1`): it
//! then looks the kind up here, finds no schema, validates nothing itself and goes on to say
//! what the real one says (`resource mapping not found ...`), where an unserved document made
//! it stop at `failed to download openapi`. client-go asks for gnostic's protobuf form and reads
//! nothing else; `kubectl get --raw` gets JSON.

use serde_json::{Value, json};

/// What client-go's `OpenAPISchema` sends, and what the real server answers it with.
pub const PROTOBUF_ACCEPT: &str = "application/com.github.proto-openapi.spec.v2";
pub const PROTOBUF_CONTENT_TYPE: &str =
    "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

/// `info.version`: the server's major.minor (`v1.35.2+k3s1` → `1.35`), as the real one writes.
fn info_version(git_version: &str) -> String {
    let trimmed = git_version.trim_start_matches('v');
    let mut parts = trimmed.split(['.', '+', '-']);
    let major = parts.next().unwrap_or("1");
    let minor = parts.next().unwrap_or("35");
    format!("{major}.{minor}")
}

pub fn json_document(git_version: &str) -> Value {
    json!({
        "swagger": "2.0",
        "info": {"title": "Kubernetes", "version": info_version(git_version)},
        "paths": {},
        "definitions": {},
        "securityDefinitions": {"BearerToken": {"description": "Bearer Token authentication",
            "type": "apiKey", "name": "authorization", "in": "header"}},
        "security": [{"BearerToken": []}],
    })
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

/// gnostic's `openapi.v2.Document`: `swagger` (1) and `info` (2: `title` 1, `version` 2).
/// The other fields are empty, so protobuf leaves them out.
pub fn protobuf_document(git_version: &str) -> Vec<u8> {
    let mut info = Vec::new();
    field(1, b"Kubernetes", &mut info);
    field(2, info_version(git_version).as_bytes(), &mut info);
    let mut doc = Vec::new();
    field(1, b"2.0", &mut doc);
    field(2, &info, &mut doc);
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_major_dot_minor() {
        assert_eq!(info_version("v1.35.2+k3s1"), "1.35");
        assert_eq!(json_document("v1.35.2")["info"]["version"], "1.35");
    }

    #[test]
    fn the_protobuf_form_is_gnostics_document() {
        let bytes = protobuf_document("v1.35.2");
        // swagger = "2.0"
        assert_eq!(&bytes[..5], &[0x0a, 3, b'2', b'.', b'0']);
        // info { title = "Kubernetes", version = "1.35" }
        let info = [&[0x0a, 10][..], b"Kubernetes", &[0x12, 4], b"1.35"].concat();
        assert_eq!(&bytes[5..7], &[0x12, info.len() as u8]);
        assert_eq!(&bytes[7..], &info[..]);
    }
}
