//! Kubernetes' protobuf wire format (`application/vnd.kubernetes.protobuf`) for the built-in
//! kinds, converted to and from the JSON objects the store keeps.
//!
//! A body is the 4 bytes `k8s\0` followed by a `runtime.Unknown` envelope: the object's
//! apiVersion and kind, and the object's own message (which carries no type fields). A watch
//! stream is a sequence of frames, each a 4-byte big-endian length and a bare `WatchEvent`
//! whose object is itself an enveloped body. The messages come from the vendored Kubernetes
//! `.proto` files (`sim/proto`); the JSON side follows Go's `encoding/json` conventions, so an
//! object sent in protobuf is stored exactly as the same object sent in JSON would be.

mod duration;
mod envelope;
mod from_json;
mod gojson;
mod pool;
mod shape;
mod special;
#[cfg(test)]
mod tests;
mod to_json;

pub use envelope::{decode, encode, watch_frame};
pub use gojson::normalize as go_json;
pub use pool::can_encode;

/// The media type of a protobuf body.
pub const MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf";
/// The media type of a protobuf watch stream.
pub const STREAM_MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf;stream=watch";

/// Why a body could not be read or written as protobuf.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProtoError {
    /// No bytes at all.
    #[error("empty body")]
    Empty,
    /// The body lacks the `k8s\0` magic every Kubernetes protobuf body starts with.
    #[error(
        "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]"
    )]
    NoPrefix,
    /// The bytes are not a valid protobuf message.
    #[error("unable to decode protobuf: {0}")]
    Wire(String),
    /// The envelope names a content encoding other than none.
    #[error("unsupported content encoding {0:?} in the protobuf envelope")]
    ContentEncoding(String),
    /// The envelope carries no kind.
    #[error("Object 'Kind' is missing in the protobuf envelope")]
    MissingKind,
    /// No Kubernetes message is known for this apiVersion and kind.
    #[error("no kind {kind:?} is registered for version {api_version:?} in protobuf")]
    UnknownKind {
        /// The envelope's apiVersion.
        api_version: String,
        /// The envelope's kind.
        kind: String,
    },
    /// One field could not be converted between JSON and protobuf.
    #[error("{path}: {why}")]
    Field {
        /// The field, as a JSON path.
        path: String,
        /// Why.
        why: String,
    },
}

impl ProtoError {
    fn field(path: &str, why: impl Into<String>) -> ProtoError {
        ProtoError::Field {
            path: if path.is_empty() {
                "<root>".into()
            } else {
                path.to_string()
            },
            why: why.into(),
        }
    }
}

/// `parent.child`, or `child` at the top.
fn join(parent: &str, child: &str) -> String {
    if parent.is_empty() {
        child.to_string()
    } else {
        format!("{parent}.{child}")
    }
}
