//! What a `lesson.yaml` says, as types: the lesson's Application and focus object, its evidence
//! file (each field's JSON type, where it is read from, whether the self-check compares it with
//! the cluster), the rules a comparison cannot express, and the plan. A typo in a rule, a type, a
//! kind or a path fails to load with the file and the reason, never at grading time.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use super::plan::Step;
pub use crate::cluster::Kind;

/// A text in both languages the lab is written in.
#[derive(Debug, Clone, Deserialize)]
pub struct Localized {
    pub en: String,
    pub zh: String,
}

/// `lesson.yaml`, parsed once.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonSpec {
    pub number: u8,
    pub slug: String,
    pub title: Localized,
    /// The Application this lesson is about: listed first, and the timeline's default.
    pub app: String,
    /// The live panes that matter most in this lesson, most important first: they get the
    /// room, the others one line each.
    #[serde(default)]
    pub panes: Vec<PaneName>,
    /// The object whose managedFields matter in this lesson.
    #[serde(default)]
    pub focus: Option<ObjectRef>,
    #[serde(default)]
    pub templates: Vec<String>,
    #[serde(default)]
    pub evidence: Option<EvidenceSpec>,
    /// Helm values whose provenance the values pane shows.
    #[serde(default)]
    pub values: Option<ValuesSpec>,
    /// The steps a learner does by hand, each with what shows it is done.
    #[serde(default)]
    pub checklist: Vec<super::checklist::ChecklistItem>,
    /// "Do it for me", one typed step at a time, with what a presenter says around each.
    #[serde(default)]
    pub actions: Vec<PlanAction>,
}

/// Which Helm values of which Application the values pane traces through the layers, and where
/// each one shows in the cluster.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValuesSpec {
    pub app: String,
    /// The chart's folder in the working copy, whose `*.yaml` files are the value layers.
    pub chart: String,
    pub keys: Vec<ValueKey>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueKey {
    pub key: String,
    pub live: ObjectRef,
    pub path: FieldPath,
}

/// One action of a lesson's plan, and its narration for step mode: what is about to happen and
/// what to watch (`say`), and what changed once it ran (`then`).
#[derive(Debug, Clone, Deserialize)]
pub struct PlanAction {
    #[serde(flatten)]
    pub step: Step,
    #[serde(default)]
    pub say: Option<Localized>,
    #[serde(default)]
    pub then: Option<Localized>,
    /// What shows the learner already did this by hand: "do it for me" then skips it.
    #[serde(default)]
    pub done_when: Option<super::checklist::DoneWhen>,
    /// Predict, then watch: asked before the action runs, answered from the cluster after.
    #[serde(default)]
    pub ask: Option<Question>,
}

/// A multiple-choice question whose answer the action reveals.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub question: Localized,
    pub choices: Vec<String>,
    pub reveal: Reveal,
}

/// Where the answer shows once the action has run.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Reveal {
    /// A live object's field.
    Field { object: ObjectRef, path: FieldPath },
    /// The manager that owns a live object's field.
    Owner { object: ObjectRef, path: FieldPath },
}

impl Reveal {
    /// The answer as the live objects show it (by `namespace/Kind/name`).
    pub fn live(&self, objects: &BTreeMap<String, Value>) -> Option<String> {
        match self {
            Reveal::Field { object, path } => objects
                .get(&object.key())
                .and_then(|o| path.get(o))
                .map(|v| v.as_str().map_or_else(|| v.to_string(), String::from)),
            Reveal::Owner { object, path } => objects
                .get(&object.key())
                .and_then(|o| super::derived::field_owner(o, path)),
        }
    }
}

/// The tutor's live panes, as lessons name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PaneName {
    Apps,
    Timeline,
    Fields,
    Values,
    Evidence,
}

/// A lesson's evidence file: its fields, how each is read, and how it is graded.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvidenceSpec {
    pub file: String,
    pub fields: Vec<FieldSpec>,
    /// The hint (1-based) that helps when a value differs from the cluster's.
    #[serde(default = "default_live_hint")]
    pub live_hint: usize,
    #[serde(default)]
    pub rules: Vec<Rule>,
}

fn default_live_hint() -> usize {
    2
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldSpec {
    pub name: String,
    #[serde(rename = "type")]
    pub json_type: JsonType,
    /// The self-check reads the value again and it must be the same.
    #[serde(default)]
    pub live: bool,
    pub from: Source,
}

/// The JSON types the lab's grader names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
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
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "read", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Source {
    /// The value at `path` in a live object (`null` when absent and `optional`).
    Field {
        object: ObjectRef,
        path: FieldPath,
        #[serde(default)]
        optional: bool,
        /// What to do when it is not there yet.
        #[serde(default)]
        missing: Option<String>,
    },
    /// How many objects of a kind a namespace holds (with a field selector).
    Count {
        kind: Kind,
        namespace: String,
        #[serde(default)]
        field_selector: Option<String>,
    },
    /// Whether a namespace holds any object of a kind (with a field selector).
    Exists {
        kind: Kind,
        namespace: String,
        #[serde(default)]
        field_selector: Option<String>,
    },
    /// The cluster's clock now, in Unix seconds.
    ClusterTime,
    /// When `kubectl scale` last wrote the object's replicas, in Unix seconds.
    ScaleTime { object: ObjectRef },
    /// The manager that owns a field of the object now (the latest managedFields entry).
    FieldOwner {
        object: ObjectRef,
        path: FieldPath,
        #[serde(default)]
        missing: Option<String>,
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
    ImageSource { app: String, object: ObjectRef },
    /// True when the commit an evidence file recorded changed a value in Git that the live
    /// value (recorded beside it) does not show: the change was not applied.
    CommitNotApplied {
        commit: EvidenceRef,
        live: EvidenceRef,
        file: String,
        path: FieldPath,
    },
}

/// A field of another evidence file: `precedence.json#replicas`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct EvidenceRef {
    pub file: String,
    pub field: String,
}

impl TryFrom<String> for EvidenceRef {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let (file, field) = s
            .split_once('#')
            .filter(|(f, k)| !f.is_empty() && !k.is_empty())
            .ok_or_else(|| format!("{s:?} is not FILE#FIELD (e.g. precedence.json#replicas)"))?;
        Ok(EvidenceRef {
            file: file.into(),
            field: field.into(),
        })
    }
}

/// `namespace/Kind/name`; the name may take an earlier field's value: `src-waves/Job/{hook_job}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct ObjectRef {
    pub namespace: String,
    pub kind: Kind,
    pub name: String,
}

impl TryFrom<String> for ObjectRef {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let parts: Vec<&str> = s.splitn(3, '/').collect();
        let [namespace, kind, name] = parts.as_slice() else {
            return Err(format!("{s:?} is not namespace/Kind/name"));
        };
        let kind = Kind::parse(kind).ok_or_else(|| {
            format!("{s:?}: unknown kind {kind:?} (Application, ConfigMap, Deployment, Job, Pod, Secret, Service)")
        })?;
        Ok(ObjectRef {
            namespace: namespace.to_string(),
            kind,
            name: name.to_string(),
        })
    }
}

impl ObjectRef {
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

    /// The key the tutor's watches use: `namespace/Kind/name`.
    pub fn key(&self) -> String {
        format!("{}/{}/{}", self.namespace, self.kind.name(), self.name)
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
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
    Find(Vec<(String, String)>),
}

impl TryFrom<String> for FieldPath {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        let bad = |why: &str| format!("path {text:?}: {why}");
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
                steps.push(match inner.parse::<usize>() {
                    Ok(i) => PathStep::Index(i),
                    Err(_) => PathStep::Find(
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

mod rule;
pub use rule::{Breaks, CommitCheck, Rule};

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path(s: &str) -> FieldPath {
        FieldPath::try_from(s.to_string()).unwrap()
    }

    #[test]
    fn paths_read_keys_quoted_keys_indices_and_list_filters() {
        let v = json!({
            "metadata": {"annotations": {"a.b/c": "x"}},
            "spec": {"template": {"spec": {"containers": [{"image": "nginx"}]}}},
            "status": {"resources": [
                {"name": "a", "hookType": "PreSync", "hookPhase": "Failed"},
                {"name": "b", "hookType": "PreSync", "hookPhase": "Succeeded"}
            ]}
        });
        assert_eq!(
            path("metadata.annotations[\"a.b/c\"]").get(&v),
            Some(&json!("x"))
        );
        assert_eq!(
            path("spec.template.spec.containers[0].image").get(&v),
            Some(&json!("nginx"))
        );
        assert_eq!(
            path("status.resources[hookType=PreSync,hookPhase=Succeeded].name").get(&v),
            Some(&json!("b"))
        );
        assert_eq!(path("spec.replicas").get(&v), None);
        assert_eq!(
            path("spec.replicas").managed_fields_keys(),
            ["f:spec", "f:replicas"]
        );
    }

    #[test]
    fn bad_paths_kinds_and_rules_fail_to_load_with_the_reason() {
        assert!(FieldPath::try_from("a[b".to_string()).is_err());
        assert!(FieldPath::try_from(String::new()).is_err());
        let e = ObjectRef::try_from("ns/Widget/x".to_string()).unwrap_err();
        assert!(e.contains("unknown kind \"Widget\""), "{e}");
        let e = serde_saphyr::from_str::<Rule>("{rule: wave-order}").unwrap_err();
        assert!(e.to_string().contains("wave-order"), "{e}");
        let e = serde_saphyr::from_str::<FieldSpec>(
            "{name: x, type: integer, from: {read: cluster-time}}",
        )
        .unwrap_err();
        assert!(e.to_string().contains("integer"), "{e}");
    }

    #[test]
    fn object_names_take_earlier_values() {
        let o = ObjectRef::try_from("src-waves/Job/{hook_job}".to_string()).unwrap();
        let mut values = serde_json::Map::new();
        values.insert("hook_job".into(), json!("migrate-abc"));
        assert_eq!(
            o.path(&values),
            "/apis/batch/v1/namespaces/src-waves/jobs/migrate-abc"
        );
        assert_eq!(o.key(), "src-waves/Job/{hook_job}");
    }

    #[test]
    fn types_are_checked_as_the_lab_names_them() {
        let v = json!({"replicas": "3", "greeting": "x", "instance_label": null});
        assert!(!JsonType::Number.admits(v.get("replicas")));
        assert!(JsonType::String.admits(v.get("greeting")));
        assert!(JsonType::StringOrNull.admits(v.get("instance_label")));
        assert!(
            !JsonType::StringOrNull.admits(v.get("missing")),
            "absent is not null"
        );
    }
}
