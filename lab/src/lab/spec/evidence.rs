//! A lesson's evidence file as its `lesson.yaml` states it: each field's JSON type, where its
//! value is read from, and the hint for a wrong value.

use std::fmt;

use serde::Deserialize;

use super::*;

/// A lesson's evidence file: its fields, how each is read, and how it is graded.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvidenceSpec {
    /// Relative to the source dir, and staying inside it.
    #[serde(deserialize_with = "evidence_file")]
    pub file: String,
    pub fields: Vec<FieldSpec>,
    /// The hint (1-based) that helps when a value differs from the cluster's.
    #[serde(default = "default_live_hint")]
    pub live_hint: usize,
    #[serde(default)]
    pub rules: Vec<Rule>,
}

/// An evidence file's name, refused when it leads out of the source dir (`../x`, `/abs`).
pub fn evidence_file<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let file = String::deserialize(d)?;
    if crate::lab::paths::stays_inside(&file) {
        Ok(file)
    } else {
        Err(serde::de::Error::custom(SpecError::EvidenceOutside(file)))
    }
}

fn default_live_hint() -> usize {
    2
}

#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldSpec {
    pub name: String,
    #[serde(rename = "type")]
    pub json_type: JsonType,
    /// The self-check reads the value again and it must be the same.
    #[serde(default)]
    pub live: bool,
    pub from: Source,
    /// The hint for a wrong value of this field (else the evidence's `live_hint`): a wrong
    /// tracking annotation needs the hint about its parts, not the one about the method.
    #[serde(default)]
    pub hint: Option<usize>,
}

/// The JSON types the lab's grader names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
pub enum JsonType {
    #[serde(rename = "number")]
    Number,
    #[serde(rename = "string")]
    String,
    #[serde(rename = "boolean")]
    Boolean,
    #[serde(rename = "string or null")]
    StringOrNull,
}

impl JsonType {
    pub fn admits(self, v: Option<&Value>) -> bool {
        match (self, v) {
            (JsonType::Number, Some(v)) => v.is_number(),
            (JsonType::String, Some(v)) => v.is_string(),
            (JsonType::Boolean, Some(v)) => v.is_boolean(),
            (JsonType::StringOrNull, Some(v)) => v.is_string() || v.is_null(),
            (_, None) => false,
        }
    }
}

impl fmt::Display for JsonType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Boolean => "boolean",
            JsonType::StringOrNull => "string or null",
        })
    }
}

/// Where an evidence field's value comes from: always the cluster, the Git repo or an earlier
/// evidence file, never a value known in advance.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(tag = "read", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Source {
    /// The value at `path` in a live object (`null` when absent and `optional`).
    Field {
        object: ObjectKey,
        path: FieldPath,
        #[serde(default)]
        optional: bool,
        /// What to do when it is not there yet.
        #[serde(default)]
        missing: Option<Localized>,
    },
    /// How many objects of a kind a namespace holds (with a field selector).
    Count {
        #[schemars(with = "refs::KindSchema")]
        kind: Kind,
        namespace: String,
        #[serde(default)]
        field_selector: Option<String>,
    },
    /// Whether a namespace holds any object of a kind (with a field selector).
    Exists {
        #[schemars(with = "refs::KindSchema")]
        kind: Kind,
        namespace: String,
        #[serde(default)]
        field_selector: Option<String>,
    },
    /// The cluster's clock now, in Unix seconds.
    ClusterTime,
    /// When `kubectl scale` last wrote the object's replicas, in Unix seconds.
    ScaleTime { object: ObjectKey },
    /// The manager that owns a field of the object now (the latest managedFields entry).
    FieldOwner {
        object: ObjectKey,
        path: FieldPath,
        #[serde(default)]
        missing: Option<Localized>,
    },
    /// The Helm layer (chart, valueFiles, valuesObject, parameters) that decides `key` for the
    /// Application, which must agree with the value an earlier evidence file recorded.
    HelmLayer {
        app: String,
        key: String,
        agrees_with: EvidenceRef,
    },
    /// `application` when the Application's kustomize image override made the live image,
    /// else `git`.
    ImageSource { app: String, object: ObjectKey },
    /// True when the commit an evidence file recorded changed a value in Git that the live
    /// value (recorded beside it) does not show: the change was not applied.
    CommitNotApplied {
        commit: EvidenceRef,
        live: EvidenceRef,
        file: String,
        path: FieldPath,
    },
    /// The newest commit of `repo`'s `main` that added (or removed) `file`: when an object's
    /// manifest came into Git, or left it.
    GitCommit {
        repo: String,
        file: String,
        change: Change,
    },
}

/// How a commit changed a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    Added,
    Removed,
}

impl Change {
    pub fn in_git(self) -> crate::git::FileChange {
        match self {
            Change::Added => crate::git::FileChange::Added,
            Change::Removed => crate::git::FileChange::Removed,
        }
    }
}
