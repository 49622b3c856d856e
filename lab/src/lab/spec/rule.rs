//! The rules a lesson's evidence must meet beyond its fields' types and their agreement with
//! the cluster, as `lesson.yaml` states them (graded in `lab/check`).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::{FieldPath, Localized, ObjectKey};

/// What the self-check asks beyond each field's type and its agreement with the cluster.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(tag = "rule", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Rule {
    /// Two RFC 3339 times in order: `earlier` no later than `later`.
    InOrder {
        earlier: String,
        later: String,
        hint: usize,
        /// What to do when they are not.
        fix: Localized,
    },
    /// A recorded time no later than a live object's condition turned True.
    BeforeCondition {
        field: String,
        object: ObjectKey,
        condition: String,
        hint: usize,
    },
    /// Two Unix-second fields at least `seconds` apart.
    AtLeastApart {
        from: String,
        to: String,
        #[schemars(schema_with = "super::schema::number_or_let")]
        seconds: f64,
        hint: usize,
    },
    /// Each field equals one of `values`; `says` explains a wrong value that is common.
    OneOf {
        fields: Vec<String>,
        values: Vec<Value>,
        hint: usize,
        #[serde(default)]
        why: Option<Localized>,
        #[serde(default)]
        says: BTreeMap<String, Localized>,
    },
    /// A recorded commit changed a value in Git that the recorded live value does not show.
    CommitNotApplied(CommitCheck),
    /// A field holds a whole commit SHA (40 hex digits), not a branch, `HEAD` or a short SHA.
    FullSha { field: String, hint: usize },
    /// Fields hold Unix times in seconds (not milliseconds), none in the cluster's future.
    UnixSeconds { fields: Vec<String>, hint: usize },
    /// A Unix-seconds field recorded right after `manager` last wrote `path` of the object:
    /// no earlier than that managedFields time, at most `within` seconds after it.
    RightAfterWrite {
        field: String,
        object: ObjectKey,
        path: FieldPath,
        manager: String,
        within: i64,
        hint: usize,
    },
    /// A hook Job named by Argo CD from `generate_name` (`<prefix><rev7>-<phase>-<startedAt>`):
    /// the name has that shape, the revision is a commit of `repo`, and while the Job exists it
    /// is that phase's hook, it succeeded, and `created` is its creationTimestamp.
    HookJob {
        name: String,
        created: String,
        namespace: String,
        generate_name: String,
        phase: String,
        repo: String,
        hint: usize,
    },
    /// The live object was created at or after the moment another object's condition turned
    /// True (the smoke Job waits for the app to be Available).
    CreatedAfterCondition {
        object: ObjectKey,
        after: ObjectKey,
        condition: String,
        hint: usize,
    },
    /// Earlier evidence files pass their own lessons' self-checks.
    Passes { files: Vec<String>, hint: usize },
    /// An object lived between two commits and is gone: `added` is the commit of `repo`'s
    /// `main` that added `file` (the object's manifest), `removed` a later one that removed it,
    /// the cluster's Events name the object with the `uid` recorded while it lived, and no object
    /// with that uid is there now. A past moment proved, not taken on trust.
    LivedBetween {
        object: ObjectKey,
        uid: String,
        repo: String,
        file: String,
        added: String,
        removed: String,
        hint: usize,
    },
}

impl Rule {
    /// The evidence fields the rule reads: when one of them has the wrong type the rule has
    /// nothing to judge, and the type's own finding says what to fix.
    pub fn fields(&self) -> Vec<&str> {
        match self {
            Rule::InOrder { earlier, later, .. } => vec![earlier, later],
            Rule::BeforeCondition { field, .. }
            | Rule::FullSha { field, .. }
            | Rule::RightAfterWrite { field, .. } => vec![field],
            Rule::AtLeastApart { from, to, .. } => vec![from, to],
            Rule::OneOf { fields, .. } | Rule::UnixSeconds { fields, .. } => {
                fields.iter().map(String::as_str).collect()
            }
            Rule::CommitNotApplied(c) => vec![&c.commit, &c.live],
            Rule::HookJob { name, created, .. } => vec![name, created],
            Rule::LivedBetween {
                uid,
                added,
                removed,
                ..
            } => vec![uid, added, removed],
            Rule::CreatedAfterCondition { .. } | Rule::Passes { .. } => Vec::new(),
        }
    }
}

/// A file the broken commit also changed, and what it then contained.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Breaks {
    pub file: String,
    pub contains: String,
}

/// A commit recorded in `commit` is in the history of `repo`'s `main` and is the one that set
/// `path` of `file` to `value` (its parent did not), breaking `breaks` in the same commit; and
/// `live` (the value recorded from the cluster) is still the parent's value: not applied.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommitCheck {
    pub commit: String,
    /// The bare repo the commit must be in the history of `main` of.
    pub repo: String,
    pub file: String,
    pub path: FieldPath,
    pub value: Value,
    /// The same commit broke this file too (one commit, as the lab asks).
    #[serde(default)]
    pub breaks: Option<Breaks>,
    pub live: String,
    pub hint: usize,
    pub live_hint: usize,
}
