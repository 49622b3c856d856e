//! What a `lesson.yaml` says, as types: the lesson's Application and focus object, its evidence
//! file (each field's JSON type, where it is read from, whether the self-check compares it with
//! the cluster), the rules a comparison cannot express, and the plan. A typo in a rule, a type, a
//! kind or a path fails to load with the file and the reason, never at grading time.

pub use error::SpecError;
pub use evidence::{Change, EvidenceSpec, FieldSpec, JsonType, Source, evidence_file};
use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::i18n::Lang;

mod checklist;
mod error;
mod evidence;
mod lets;
mod mistakes;
mod plan;
mod refs;
mod rule;
pub mod schema;

pub use checklist::{ChecklistItem, DoneWhen, Requirement};
pub use lets::LetValue;
pub use mistakes::KnownMistake;
pub use plan::{Step, Until};
pub use refs::{EvidenceRef, FieldPath, Kind, ObjectKey};
pub use rule::{Breaks, CommitCheck, Rule};

/// A lesson, by the number its `lesson.yaml` gives it: how progress, grades and plans name it.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    Default,
    schemars::JsonSchema,
)]
#[serde(transparent)]
pub struct LessonId(pub u8);

impl fmt::Display for LessonId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A text in the languages a lesson is written in, by language code (`en`, `zh`, ...). English
/// is required: it stands in for a language a lesson does not have yet. A plain string is the
/// English alone.
#[derive(Debug, Clone, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "LocalizedRepr")]
pub struct Localized(BTreeMap<String, String>);

/// How `lesson.yaml` writes a [`Localized`]: a map by language code, or a plain English string.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
enum LocalizedRepr {
    Plain(String),
    ByLanguage(BTreeMap<String, String>),
}

impl Localized {
    /// A text the tutor itself writes, in every language it speaks.
    pub fn from_fn(text: impl Fn(Lang) -> String) -> Localized {
        Localized(
            Lang::all()
                .iter()
                .map(|&lang| (lang.code().to_string(), text(lang)))
                .collect(),
        )
    }

    /// The text in `lang`, else in English.
    pub fn get(&self, lang: Lang) -> &str {
        self.0
            .get(lang.code())
            .or_else(|| self.0.get(Lang::FALLBACK.code()))
            .map_or("", String::as_str)
    }

    /// Whether the text is written in `lang` itself (not falling back to English).
    pub fn has(&self, lang: Lang) -> bool {
        self.0.get(lang.code()).is_some_and(|t| !t.is_empty())
    }

    /// The text written in the language with this code, without falling back.
    pub fn get_exactly(&self, code: &str) -> Option<&str> {
        self.0.get(code).map(String::as_str)
    }

    /// The language codes it is written in.
    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }
}

impl crate::i18n::Say for Localized {
    fn say(&self, lang: Lang) -> String {
        self.get(lang).to_string()
    }
}

impl TryFrom<LocalizedRepr> for Localized {
    type Error = SpecError;
    fn try_from(repr: LocalizedRepr) -> Result<Self, SpecError> {
        let map = match repr {
            LocalizedRepr::Plain(en) => BTreeMap::from([(Lang::FALLBACK.code().to_string(), en)]),
            LocalizedRepr::ByLanguage(map) => map,
        };
        match map.get(Lang::FALLBACK.code()) {
            Some(en) if !en.trim().is_empty() => Ok(Localized(map)),
            _ => Err(SpecError::NoEnglish {
                code: Lang::FALLBACK.code(),
            }),
        }
    }
}

/// `lesson.yaml`, parsed once.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LessonSpec {
    pub number: LessonId,
    pub slug: String,
    pub title: Localized,
    /// Values the lesson states more than once, by name, each read from the template file that
    /// defines it: `${name}` anywhere below (a check's value, a rule, a text) is that value.
    #[serde(default, rename = "let")]
    pub lets: BTreeMap<String, LetValue>,
    /// The Application this lesson is about: listed first, and the timeline's default.
    pub app: String,
    /// The live panes that matter most in this lesson, most important first: they get the
    /// room, the others one line each.
    #[serde(default)]
    pub panes: Vec<PaneName>,
    /// The object whose managedFields matter in this lesson.
    #[serde(default)]
    pub focus: Option<ObjectKey>,
    #[serde(default)]
    pub templates: Vec<String>,
    /// What must hold before the plan runs (another lesson's Application or files): `r` and
    /// `do` name the lesson to do first, and change nothing.
    #[serde(default)]
    pub requires: Vec<Requirement>,
    #[serde(default)]
    pub evidence: Option<EvidenceSpec>,
    /// Helm values whose provenance the values pane shows.
    #[serde(default)]
    pub values: Option<ValuesSpec>,
    /// The steps a learner does by hand, each with what shows it is done.
    #[serde(default)]
    pub checklist: Vec<ChecklistItem>,
    /// "Do it for me", one typed step at a time, with what a presenter says around each.
    #[serde(default)]
    pub actions: Vec<PlanAction>,
    /// Mistakes the lesson lists, known by the words Argo CD's render error holds: the
    /// checklist names the mistake beside the error (an overlay's `resources: [base]` had
    /// shown kustomize's message alone).
    #[serde(default)]
    pub mistakes: Vec<KnownMistake>,
}

impl LessonSpec {
    /// Every object the lesson names (focus, values, evidence and its rules, checklist,
    /// prerequisites, actions' conditions, predictions), as written.
    pub fn objects(&self) -> Vec<&ObjectKey> {
        let mut out: Vec<&ObjectKey> = self.focus.iter().collect();
        out.extend(self.values.iter().flat_map(|v| &v.keys).map(|k| &k.live));
        if let Some(e) = &self.evidence {
            for field in &e.fields {
                match &field.from {
                    Source::Field { object, .. }
                    | Source::ScaleTime { object }
                    | Source::FieldOwner { object, .. }
                    | Source::ImageSource { object, .. } => out.push(object),
                    _ => {}
                }
            }
            for rule in &e.rules {
                match rule {
                    Rule::BeforeCondition { object, .. } | Rule::RightAfterWrite { object, .. } => {
                        out.push(object);
                    }
                    Rule::CreatedAfterCondition { object, after, .. } => {
                        out.extend([object, after])
                    }
                    _ => {}
                }
            }
        }
        let conditions = self
            .checklist
            .iter()
            .map(|i| &i.done_when)
            .chain(self.requires.iter().map(|r| &r.done_when))
            .chain(self.actions.iter().filter_map(|a| a.done_when.as_ref()));
        for d in conditions {
            out.extend(d.objects());
        }
        for ask in self.actions.iter().filter_map(|a| a.ask.as_ref()) {
            let (Reveal::Field { object, .. } | Reveal::Owner { object, .. }) = &ask.reveal;
            out.push(object);
        }
        out
    }

    /// The action after which the question asked before action `asked` has its answer in the
    /// cluster: the first `wait` from it on (a value changes once Argo CD has synced, not when
    /// the file is written or applied), else that action itself (a scale's owner shows at once).
    pub fn answered_by(&self, asked: usize) -> usize {
        self.actions
            .iter()
            .enumerate()
            .skip(asked)
            .find(|(_, a)| matches!(a.step, Step::Wait { .. }))
            .map_or(asked, |(i, _)| i)
    }
}

/// Which Helm values of which Application the values pane traces through the layers, and where
/// each one shows in the cluster.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValuesSpec {
    pub app: String,
    /// The chart's folder in the working copy, whose `*.yaml` files are the value layers.
    pub chart: String,
    pub keys: Vec<ValueKey>,
}

#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValueKey {
    pub key: String,
    pub live: ObjectKey,
    pub path: FieldPath,
}

/// One action of a lesson's plan, and its narration for step mode: what is about to happen and
/// what to watch (`say`), and what changed once it ran (`then`).
// Deserialized by hand (below): a flattened step takes any key, so a typo (`sya:`) would
// otherwise be dropped unseen.
#[derive(Debug, Clone, schemars::JsonSchema)]
pub struct PlanAction {
    #[serde(flatten)]
    pub step: Step,
    #[serde(default)]
    pub say: Option<Localized>,
    #[serde(default)]
    pub then: Option<Localized>,
    /// The pane the narration tells the room to watch: presenting, it gets the room from this
    /// action on, until an action names another.
    #[serde(default)]
    pub watch: Option<PaneName>,
    /// What shows the learner already did this by hand: "do it for me" then skips it.
    #[serde(default)]
    pub done_when: Option<DoneWhen>,
    /// Predict, then watch: asked before the action runs, answered from the cluster after.
    #[serde(default)]
    pub ask: Option<Question>,
}

/// The plan action's own keys (`say`, `then`, ...) as the schema lists them.
fn action_keys() -> &'static (Vec<String>, Value) {
    static KEYS: std::sync::OnceLock<(Vec<String>, Value)> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let schema = schemars::schema_for!(PlanAction).to_value();
        let own = schema["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        (own, schema["oneOf"].clone())
    })
}

/// The keys a step of kind `kind` (`do: kind`) takes, as the schema lists them.
fn step_keys(kind: &str) -> Vec<String> {
    action_keys()
        .1
        .as_array()
        .into_iter()
        .flatten()
        .find(|v| v["properties"]["do"]["const"] == kind)
        .and_then(|v| v["properties"].as_object())
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

impl<'de> Deserialize<'de> for PlanAction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut map = serde_json::Map::<String, Value>::deserialize(d)?;
        let mut own = |key: &str| map.remove(key).filter(|v| !v.is_null());
        let (say, then, watch, done_when, ask) = (
            own("say"),
            own("then"),
            own("watch"),
            own("done_when"),
            own("ask"),
        );
        let step = Step::deserialize(Value::Object(map.clone())).map_err(D::Error::custom)?;
        let kind = map.get("do").and_then(Value::as_str).unwrap_or_default();
        let allowed = step_keys(kind);
        if let Some(unknown) = map.keys().find(|k| !allowed.contains(k)) {
            let mut expected: Vec<&str> = allowed
                .iter()
                .chain(&action_keys().0)
                .map(String::as_str)
                .filter(|k| *k != "do")
                .collect();
            expected.sort_unstable();
            let list: Vec<String> = expected.iter().map(|k| format!("`{k}`")).collect();
            return Err(D::Error::custom(format!(
                "unknown field `{unknown}`, expected one of {}",
                list.join(", ")
            )));
        }
        fn part<T: serde::de::DeserializeOwned, E: Error>(
            v: Option<Value>,
        ) -> Result<Option<T>, E> {
            v.map(serde_json::from_value).transpose().map_err(E::custom)
        }
        Ok(PlanAction {
            step,
            say: part(say)?,
            then: part(then)?,
            watch: part(watch)?,
            done_when: part(done_when)?,
            ask: part(ask)?,
        })
    }
}

/// A multiple-choice question whose answer the action reveals.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub question: Localized,
    /// The answers offered; a number or a boolean is offered as its text (so `${replicas}`
    /// can be one).
    #[serde(deserialize_with = "choices_as_text")]
    pub choices: Vec<String>,
    pub reveal: Reveal,
}

fn choices_as_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let items: Vec<Value> = Vec::deserialize(d)?;
    items
        .into_iter()
        .map(|v| match v {
            Value::String(s) => Ok(s),
            Value::Number(_) | Value::Bool(_) => Ok(v.to_string()),
            other => Err(serde::de::Error::custom(format!(
                "a choice is a text, not {other}"
            ))),
        })
        .collect()
}

/// Where the answer shows once the action has run.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Reveal {
    /// A live object's field.
    Field { object: ObjectKey, path: FieldPath },
    /// The manager that owns a live object's field.
    Owner { object: ObjectKey, path: FieldPath },
}

impl Reveal {
    /// The object the answer is read from.
    pub fn object(&self) -> &ObjectKey {
        match self {
            Reveal::Field { object, .. } | Reveal::Owner { object, .. } => object,
        }
    }
}

/// The tutor's live panes, as lessons name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PaneName {
    Apps,
    Timeline,
    Fields,
    Values,
    Evidence,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_with_a_key_its_step_does_not_take_does_not_read() {
        let yaml = "{do: clone, repo: src, colour: 1, say: {en: Clone it.}}";
        let err = serde_saphyr::from_str::<PlanAction>(yaml)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `colour`"), "{err}");
        assert!(err.contains("`repo`") && err.contains("`say`"), "{err}");
        let ok: PlanAction =
            serde_saphyr::from_str("{do: clone, repo: src, say: {en: Clone it.}, watch: apps}")
                .unwrap();
        assert_eq!(ok.step, Step::Clone { repo: "src".into() });
        assert_eq!(ok.watch, Some(PaneName::Apps));
        assert!(ok.say.is_some() && ok.then.is_none());
        // A key another kind of step takes is still unknown here.
        let err = serde_saphyr::from_str::<PlanAction>("{do: clone, repo: src, app: x}")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `app`"), "{err}");
    }

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
        assert_eq!(path("status.resources[-1].name").get(&v), Some(&json!("b")));
        assert_eq!(path("status.resources[-2].name").get(&v), Some(&json!("a")));
        assert_eq!(path("status.resources[-3].name").get(&v), None);
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
        let e = ObjectKey::try_from("ns/Widget/x".to_string()).unwrap_err();
        assert!(e.to_string().contains("unknown kind \"Widget\""), "{e}");
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
        let o = ObjectKey::try_from("src-waves/Job/{hook_job}".to_string()).unwrap();
        let mut values = serde_json::Map::new();
        values.insert("hook_job".into(), json!("migrate-abc"));
        assert_eq!(
            o.path(&values),
            "/apis/batch/v1/namespaces/src-waves/jobs/migrate-abc"
        );
        assert_eq!(o.to_string(), "src-waves/Job/{hook_job}");
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
