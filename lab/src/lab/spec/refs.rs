//! The references a `lesson.yaml` makes: to a live object (`namespace/Kind/name`), to a field of
//! another evidence file (`file#field`), and a path into a JSON object. Each is checked when the
//! lesson loads, so a typo fails with the reason, never at grading time.

use super::SpecError;
use std::fmt;

use serde::Deserialize;
use serde_json::Value;

pub use crate::cluster::Kind;

/// A field of another evidence file: `precedence.json#replicas`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct EvidenceRef {
    pub file: String,
    pub field: String,
}

impl TryFrom<String> for EvidenceRef {
    type Error = SpecError;
    fn try_from(s: String) -> Result<Self, SpecError> {
        let (file, field) = s
            .split_once('#')
            .filter(|(f, k)| !f.is_empty() && !k.is_empty())
            .ok_or_else(|| SpecError::NotEvidenceRef(s.clone()))?;
        Ok(EvidenceRef {
            file: file.into(),
            field: field.into(),
        })
    }
}

pub use crate::cluster::ObjectKey;

/// A lesson's `namespace/Kind/name`, with the reason in the lesson's words when it is not one.
impl TryFrom<String> for ObjectKey {
    type Error = SpecError;
    fn try_from(s: String) -> Result<Self, SpecError> {
        s.parse().map_err(|e| match e {
            crate::cluster::KeyError::NotKey(_) => SpecError::NotObjectRef(s.clone()),
            crate::cluster::KeyError::UnknownKind { kind, .. } => SpecError::UnknownKind {
                reference: s.clone(),
                kind,
            },
        })
    }
}

/// What a lesson's key means once the evidence it names is read.
impl ObjectKey {
    /// The object's URL path, with `{field}` in its name taken from `values`.
    pub fn path(&self, values: &serde_json::Map<String, Value>) -> String {
        format!(
            "{}/{}",
            self.kind.collection_path(&self.namespace),
            self.name_with(values)
        )
    }

    pub fn name_with(&self, values: &serde_json::Map<String, Value>) -> String {
        let mut name = self.name.clone();
        for (k, v) in values {
            if let Some(v) = v.as_str() {
                name = name.replace(&format!("{{{k}}}"), v);
            }
        }
        name
    }
}

/// A path into a JSON object: `spec.replicas`, `metadata.annotations["a.b/c"]`, and a list item
/// chosen by its fields: `status.resources[hookType=PreSync,hookPhase=Succeeded].name`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct FieldPath {
    text: String,
    steps: Vec<PathStep>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum PathStep {
    Key(String),
    Index(usize),
    /// `[-1]`: counted from the end of a list (the last result an operation recorded).
    FromEnd(usize),
    Find(Vec<(String, String)>),
}

impl TryFrom<String> for FieldPath {
    type Error = SpecError;
    fn try_from(text: String) -> Result<Self, SpecError> {
        let bad = |why: &'static str| SpecError::BadPath {
            path: text.clone(),
            why,
        };
        let mut steps = Vec::new();
        let mut rest = text.as_str();
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("[\"") {
                let end = after.find("\"]").ok_or_else(|| bad("unclosed [\""))?;
                steps.push(PathStep::Key(after[..end].to_string()));
                rest = &after[end + 2..];
            } else if let Some(after) = rest.strip_prefix('[') {
                let end = after.find(']').ok_or_else(|| bad("unclosed ["))?;
                let inner = &after[..end];
                let from_end = inner
                    .strip_prefix('-')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| *n > 0);
                steps.push(match (inner.parse::<usize>(), from_end) {
                    (Ok(i), _) => PathStep::Index(i),
                    (_, Some(n)) => PathStep::FromEnd(n),
                    _ => PathStep::Find(
                        inner
                            .split(',')
                            .map(|kv| {
                                kv.split_once('=')
                                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                                    .ok_or_else(|| bad("a list filter is [key=value,...]"))
                            })
                            .collect::<Result<_, _>>()?,
                    ),
                });
                rest = &after[end + 1..];
            } else {
                let end = rest.find(['.', '[']).unwrap_or(rest.len());
                if end == 0 {
                    return Err(bad("empty key"));
                }
                steps.push(PathStep::Key(rest[..end].to_string()));
                rest = &rest[end..];
            }
            rest = rest.strip_prefix('.').unwrap_or(rest);
        }
        if steps.is_empty() {
            return Err(bad("empty"));
        }
        Ok(FieldPath { text, steps })
    }
}

impl FieldPath {
    /// The value at this path, if every step finds something.
    pub fn get<'a>(&self, mut v: &'a Value) -> Option<&'a Value> {
        for step in &self.steps {
            v = match step {
                PathStep::Key(k) => v.get(k)?,
                PathStep::Index(i) => v.get(*i)?,
                PathStep::FromEnd(n) => {
                    let list = v.as_array()?;
                    list.get(list.len().checked_sub(*n)?)?
                }
                PathStep::Find(pairs) => v.as_array()?.iter().find(|item| {
                    pairs
                        .iter()
                        .all(|(k, want)| item.get(k).and_then(Value::as_str) == Some(want))
                })?,
            };
        }
        (!v.is_null()).then_some(v)
    }

    /// The managedFields form of a plain key path: `spec.replicas` → `f:spec` / `f:replicas`.
    pub fn managed_fields_keys(&self) -> Vec<String> {
        self.steps
            .iter()
            .filter_map(|s| match s {
                PathStep::Key(k) => Some(format!("f:{k}")),
                _ => None,
            })
            .collect()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A string in the schema, with what it must read as: these three parse their text when the
/// lesson loads, so an editor can only be told their shape.
fn text_schema(description: &str, pattern: &str) -> schemars::Schema {
    schemars::json_schema!({
        "type": "string",
        "description": description,
        "pattern": pattern,
    })
}

impl schemars::JsonSchema for ObjectKey {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ObjectKey".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let kinds = KINDS.map(Kind::name).join("|");
        text_schema(
            "A live object: namespace/Kind/name (the name may take an earlier evidence field: {hook_job})",
            &format!("^[^/]+/({kinds})/.+$"),
        )
    }
}

impl schemars::JsonSchema for FieldPath {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "FieldPath".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        text_schema(
            "A path into an object: spec.replicas, metadata.annotations[\"a.b/c\"], containers[0].image, resources[-1] (the last), resources[hookType=PreSync].name",
            "^.+$",
        )
    }
}

impl schemars::JsonSchema for EvidenceRef {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "EvidenceRef".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        text_schema(
            "A field of another lesson's evidence file: FILE#FIELD (precedence.json#replicas)",
            "^[^#]+#.+$",
        )
    }
}

/// Every kind a lesson may name, for the schema. The match below stops compiling when a kind is
/// added and not listed here.
pub const KINDS: [Kind; 7] = [
    Kind::Application,
    Kind::ConfigMap,
    Kind::Deployment,
    Kind::Job,
    Kind::Pod,
    Kind::Secret,
    Kind::Service,
];

const _: fn(Kind) = |k| match k {
    Kind::Application
    | Kind::ConfigMap
    | Kind::Deployment
    | Kind::Job
    | Kind::Pod
    | Kind::Secret
    | Kind::Service => {}
    // Read only to date a scale (`cluster::scaled`); a lesson names the Deployment instead.
    Kind::Event => {}
};

/// `Kind` is the cluster module's; its schema is the lab's concern, so it is written here.
pub struct KindSchema;

impl schemars::JsonSchema for KindSchema {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Kind".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "enum": KINDS.map(Kind::name),
        })
    }
}
