//! What is wrong with a value a lesson author wrote in `lesson.yaml`, typed. These reach the
//! author inside the YAML parser's message (with the line it points at), so they are said in
//! English, the language lessons are written in first.

/// A reference, path or text in `lesson.yaml` that does not read as one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SpecError {
    #[error("{0:?} is not FILE#FIELD (e.g. precedence.json#replicas)")]
    NotEvidenceRef(String),
    #[error("{0:?} is not namespace/Kind/name")]
    NotObjectRef(String),
    #[error(
        "{reference:?}: unknown kind {kind:?} (Application, ConfigMap, Deployment, Job, Pod, Secret, Service)"
    )]
    UnknownKind { reference: String, kind: String },
    #[error("path {path:?}: {why}")]
    BadPath { path: String, why: &'static str },
    #[error("a text needs its English ({code}:), which stands in for a language it lacks")]
    NoEnglish { code: &'static str },
}
