//! Self-check: grades a lesson as a grader reading the lab literally would — what its steps
//! left in the cluster and in Git (the checklist's lasting steps), then its evidence file: field
//! names and JSON types, the values against the live cluster, and the rules its `lesson.yaml`
//! states, each cross-checked with the source that proves it — and says what is wrong, what to
//! do, and which hint helps. A check that cannot decide says so and does not pass.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::evidence::{self, Context};
use crate::lab::catalog::Lesson;
use crate::lab::spec::LessonId;
use crate::lab::spec::{EvidenceSpec, JsonType};

mod history;
mod rules;
mod state;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Finding {
    pub ok: bool,
    pub what: String,
    /// The lesson hint (1-based) that helps, for failures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<usize>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Grade {
    /// The evidence file graded; empty for a lesson that writes none.
    pub file: String,
    #[serde(default)]
    pub lesson: LessonId,
    pub findings: Vec<Finding>,
}

impl Grade {
    pub fn passed(&self) -> bool {
        !self.findings.is_empty() && self.findings.iter().all(|f| f.ok)
    }

    /// What the grade is of: its evidence file, else its lesson.
    pub fn key(&self) -> String {
        if self.file.is_empty() {
            format!("lesson {}", self.lesson)
        } else {
            self.file.clone()
        }
    }
}

fn pass(what: impl Into<String>) -> Finding {
    Finding {
        ok: true,
        what: what.into(),
        hint: None,
    }
}

fn fail(what: impl Into<String>, hint: usize) -> Finding {
    Finding {
        ok: false,
        what: what.into(),
        hint: Some(hint),
    }
}

fn expect(ok: bool, good: String, bad: String, hint: usize) -> Finding {
    if ok { pass(good) } else { fail(bad, hint) }
}

/// Field `name` has the JSON type the lab names.
fn typed(v: &Value, name: &str, json_type: JsonType) -> Finding {
    let found = v
        .get(name)
        .map_or_else(|| "nothing".to_string(), Value::to_string);
    expect(
        json_type.admits(v.get(name)),
        format!("{name} is a {json_type}"),
        format!("{name} must be a {json_type}, found {found}"),
        1,
    )
}

/// Equal as a grader compares them: numbers by value (3.0 is 3), RFC 3339 times as instants
/// (`Z` and `+00:00` are the same moment), anything else exactly.
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(x), Value::String(y)) => {
            x == y || matches!((rules::time_of(x), rules::time_of(y)), (Some(p), Some(q)) if p == q)
        }
        (a, b) => a == b,
    }
}

/// Grades the evidence file `file` in the source dir by the check of the lesson that writes it.
pub async fn grade(file: &str, ctx: &Context<'_>) -> Grade {
    match ctx.catalog.lesson_for_evidence(file) {
        Some(lesson) => grade_lesson(lesson, ctx).await,
        None => Grade {
            file: file.to_string(),
            lesson: LessonId(0),
            findings: vec![fail(
                format!("{file} is not an evidence file of this lab"),
                1,
            )],
        },
    }
}

/// Grades a lesson: the steps that must still hold in the cluster and Git, then its evidence.
pub async fn grade_lesson(lesson: &Lesson, ctx: &Context<'_>) -> Grade {
    let mut findings = state::findings(lesson, ctx).await;
    let file = lesson.evidence_file().unwrap_or_default().to_string();
    if let Some(spec) = &lesson.spec.evidence {
        findings.extend(evidence_findings(spec, ctx).await);
    }
    Grade {
        file,
        lesson: lesson.spec.number,
        findings,
    }
}

async fn evidence_findings(spec: &EvidenceSpec, ctx: &Context<'_>) -> Vec<Finding> {
    let path = ctx.src_dir.join(&spec.file);
    let file = &spec.file;
    match std::fs::read_to_string(&path) {
        Err(_) => vec![fail(
            format!(
                "{} is missing: run the lesson (or write it by hand) first",
                path.display()
            ),
            1,
        )],
        Ok(text) => match serde_json::from_str::<Value>(&text) {
            Err(e) => vec![fail(format!("{file} is not valid JSON: {e}"), 1)],
            Ok(v) if !v.is_object() => vec![fail(format!("{file} must hold a JSON object"), 1)],
            Ok(v) => apply_checks(&v, spec, ctx).await,
        },
    }
}

async fn apply_checks(v: &Value, spec: &EvidenceSpec, ctx: &Context<'_>) -> Vec<Finding> {
    let mut out: Vec<Finding> = spec
        .fields
        .iter()
        .map(|f| typed(v, &f.name, f.json_type))
        .collect();
    let live_fields: Vec<&str> = spec
        .fields
        .iter()
        .filter(|f| f.live)
        .map(|f| f.name.as_str())
        .collect();
    if !live_fields.is_empty() {
        match evidence::capture(spec, ctx).await {
            Ok(live) => {
                for f in live_fields {
                    out.push(expect(
                        same_value(&v[f], &live[f]),
                        format!("{f} = {} matches the cluster", v[f]),
                        format!("{f} is {} but the cluster shows {}", v[f], live[f]),
                        spec.live_hint,
                    ));
                }
            }
            Err(e) => out.push(fail(
                format!("cannot check {} against the cluster: {e}", spec.file),
                spec.live_hint,
            )),
        }
    }
    for rule in &spec.rules {
        out.extend(rules::apply(rule, v, ctx).await);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::spec::Rule;
    use serde_json::json;

    #[test]
    fn every_lesson_with_evidence_checks_its_fields() {
        for lesson in crate::lab::catalog::Catalog::embedded().unwrap().lessons() {
            if let Some(e) = &lesson.spec.evidence {
                assert!(
                    !e.fields.is_empty(),
                    "lesson {} checks no field",
                    lesson.spec.number
                );
            }
        }
    }

    #[test]
    fn a_wrong_type_is_named_with_the_type_the_lab_wants() {
        let v = json!({"replicas": "3"});
        let f = typed(&v, "replicas", JsonType::Number);
        assert!(!f.ok);
        assert_eq!(f.what, "replicas must be a number, found \"3\"");
    }

    #[tokio::test]
    async fn one_of_explains_a_common_wrong_value_in_the_lessons_words() {
        let rule: Rule = serde_saphyr::from_str(
            "{rule: one-of, fields: [phase], values: [Failed, Error], hint: 1, why: record it once the hook has failed, says: {Running: still retrying}}",
        )
        .unwrap();
        let client =
            kube::Client::try_from(kube::Config::new("http://127.0.0.1:1".parse().unwrap()))
                .unwrap();
        let catalog = crate::lab::catalog::Catalog::embedded().unwrap();
        let ctx = Context {
            client: &client,
            catalog: &catalog,
            lang: crate::i18n::Lang::FALLBACK,
            src_dir: std::path::Path::new("/nonexistent"),
            bare_dir: std::path::Path::new("/nonexistent"),
        };
        let f = rules::apply(&rule, &json!({"phase": "Running"}), &ctx).await;
        assert_eq!(f[0].what, "still retrying");
        let f = rules::apply(&rule, &json!({"phase": "Succeeded"}), &ctx).await;
        assert_eq!(
            f[0].what,
            "phase is \"Succeeded\", not Failed or Error: record it once the hook has failed"
        );
        let f = rules::apply(&rule, &json!({"phase": "Failed"}), &ctx).await;
        assert!(f[0].ok);
    }
}
