//! The field manager of the embedded API server: who owns which field (`metadata.managedFields`),
//! server-side apply with conflicts, and ownership tracking for ordinary writes.
//!
//! It follows the real server's structured-merge-diff semantics on untyped JSON: list shapes
//! come from [`crate::schema`], a few map shapes from `typed`. Paths, FieldsV1 and the
//! conflict message use the real server's notation, so what a learner sees here matches what
//! `kubectl get -o yaml --show-managed-fields` shows on a cluster.

mod apply;
mod cap;
mod compare;
mod entry;
mod lastapplied;
mod merge;
mod path;
mod prune;
mod set;
mod typed;
mod update;
mod walk;

#[cfg(test)]
mod robustness;
#[cfg(test)]
mod tests;

pub use apply::{conflict_message, server_side_apply};
pub use entry::{ManagedFieldsEntry, read_entries, write_entries};
// What the unit tests below (`use super::*`) reach for besides the API above.
pub use update::record_update;
#[cfg(test)]
use {apply::BEFORE_FIRST_APPLY, entry::Operation, lastapplied::LAST_APPLIED, set::FieldSet};

/// Why managedFields data could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldsError {
    #[error("expected a JSON object")]
    NotAnObject,
    #[error("invalid FieldsV1 key {0:?}")]
    BadKey(String),
    #[error("invalid managedFields operation {0:?} (want Apply or Update)")]
    BadOperation(String),
    #[error("invalid fieldsType {0:?} (want FieldsV1)")]
    BadFieldsType(String),
}

/// Who is writing, and how: the manager identity an entry is recorded under.
#[derive(Clone, Copy, Debug)]
pub struct Writer<'a> {
    /// The field manager (`?fieldManager=`, or the client's default such as `kubectl-edit`).
    pub manager: &'a str,
    /// The apiVersion the write used (`apps/v1`).
    pub api_version: &'a str,
    /// `Some("status")` or `Some("scale")` for subresource writes.
    pub subresource: Option<&'a str>,
    /// The write's time, RFC 3339 with seconds (`2024-05-01T10:00:00Z`).
    pub time: &'a str,
    /// False for custom resources: their CRDs declare no list or map types, so their lists
    /// (outside `metadata`) are atomic and their maps granular.
    pub builtin: bool,
}
