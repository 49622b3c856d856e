//! Self-check: grades each evidence file as the lab's grader would — field names and JSON
//! types first, then the values against the live cluster and the rules its `lesson.yaml`
//! states — and says what is wrong and which hint helps.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::catalog;
use super::evidence::{self, Context};
use super::spec::{CommitCheck, EvidenceSpec, JsonType, ObjectRef, Rule};
use crate::cluster::argocd;

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
    pub file: String,
    pub findings: Vec<Finding>,
}

impl Grade {
    pub fn passed(&self) -> bool {
        !self.findings.is_empty() && self.findings.iter().all(|f| f.ok)
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
    expect(
        json_type.admits(v.get(name)),
        format!("{name} is a {json_type}"),
        format!("{name} must be a {json_type}, found {}", v[name]),
        1,
    )
}

/// Grades `file` in the source dir by the checks of the lesson that writes it.
pub async fn grade(file: &str, ctx: &Context<'_>) -> Grade {
    let path = ctx.src_dir.join(file);
    let spec = catalog::lesson_for_evidence(file).and_then(|l| l.spec.evidence);
    let findings = match (spec, std::fs::read_to_string(&path)) {
        (None, _) => vec![fail(
            format!("{file} is not an evidence file of this lab"),
            1,
        )],
        (Some(_), Err(_)) => vec![fail(
            format!(
                "{} is missing: run the lesson (or write it by hand) first",
                path.display()
            ),
            1,
        )],
        (Some(spec), Ok(text)) => match serde_json::from_str::<Value>(&text) {
            Err(e) => vec![fail(format!("{file} is not valid JSON: {e}"), 1)],
            Ok(v) if !v.is_object() => vec![fail(format!("{file} must hold a JSON object"), 1)],
            Ok(v) => apply_checks(&v, &spec, ctx).await,
        },
    };
    Grade {
        file: file.to_string(),
        findings,
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
                        v[f] == live[f],
                        format!("{f} = {} matches the cluster", v[f]),
                        format!("{f} is {} but the cluster shows {}", v[f], live[f]),
                        spec.live_hint,
                    ));
                }
            }
            Err(e) => out.push(fail(
                format!("cannot read the cluster to check {}: {e}", spec.file),
                spec.live_hint,
            )),
        }
    }
    for rule in &spec.rules {
        out.extend(apply_rule(rule, v, ctx).await);
    }
    out
}

/// What a comparison with the cluster cannot express, as `lesson.yaml` states it.
async fn apply_rule(rule: &Rule, v: &Value, ctx: &Context<'_>) -> Vec<Finding> {
    match rule {
        Rule::InOrder {
            earlier,
            later,
            hint,
            fix,
        } => match (time(&v[earlier]), time(&v[later])) {
            (Some(a), Some(b)) => vec![expect(
                a <= b,
                format!("{earlier} is no later than {later}"),
                format!("{earlier} ({a}) is after {later} ({b}): {fix}"),
                *hint,
            )],
            _ => vec![fail(
                format!(
                    "{earlier} and {later} must be RFC 3339 times, as creationTimestamp shows them"
                ),
                1,
            )],
        },
        Rule::BeforeCondition {
            field,
            object,
            condition,
            hint,
        } => before_condition(v, field, object, condition, *hint, ctx).await,
        Rule::AtLeastApart {
            from,
            to,
            seconds,
            hint,
        } => {
            let apart = v[to].as_f64().unwrap_or(0.0) - v[from].as_f64().unwrap_or(0.0);
            vec![expect(
                apart >= *seconds,
                format!("{to} is {apart:.0} s after {from} (≥ {seconds})"),
                format!("{to} − {from} is {apart:.0} s; wait at least {seconds} s"),
                *hint,
            )]
        }
        Rule::OneOf {
            fields,
            values,
            hint,
            why,
            says,
        } => fields
            .iter()
            .map(|f| {
                let found = &v[f.as_str()];
                let text = found
                    .as_str()
                    .map_or_else(|| found.to_string(), String::from);
                let allowed: Vec<String> = values
                    .iter()
                    .map(|a| a.as_str().map_or_else(|| a.to_string(), String::from))
                    .collect();
                let bad = says.get(&text).cloned().unwrap_or_else(|| {
                    let why = why.as_deref().map(|w| format!(": {w}")).unwrap_or_default();
                    format!("{f} is {found}, not {}{why}", allowed.join(" or "))
                });
                expect(
                    values.contains(found),
                    format!("{f} is {found}"),
                    bad,
                    *hint,
                )
            })
            .collect(),
        Rule::CommitNotApplied(c) => commit_not_applied(v, c, ctx),
    }
}

fn time(v: &Value) -> Option<jiff::Timestamp> {
    v.as_str().and_then(|s| s.parse().ok())
}

/// The recorded time is no later than the moment the live object's condition turned True.
async fn before_condition(
    v: &Value,
    field: &str,
    object: &ObjectRef,
    condition: &str,
    hint: usize,
    ctx: &Context<'_>,
) -> Vec<Finding> {
    let Some(recorded) = time(&v[field]) else {
        return vec![fail(format!("{field} must be an RFC 3339 time"), 1)];
    };
    let name = &object.name;
    match argocd::raw_get(ctx.client.clone(), &object.path(&serde_json::Map::new())).await {
        Ok(d) => {
            let since = d["status"]["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|c| c["type"] == condition && c["status"] == "True")
                .and_then(|c| time(&c["lastTransitionTime"]));
            vec![match since {
                Some(t) => expect(
                    recorded <= t,
                    format!("{field} came before {name} became {condition}"),
                    format!("{field} ({recorded}) is after {name} became {condition} ({t})"),
                    hint,
                ),
                None => fail(
                    format!("{} {name} is not {condition} yet", object.kind.name()),
                    2,
                ),
            }]
        }
        Err(e) => vec![fail(
            format!("cannot read {} {name}: {e}", object.kind.name()),
            2,
        )],
    }
}

/// The recorded commit sets `path` of `file` to `value`, and the live value recorded beside it
/// was still different: the change had not been applied.
fn commit_not_applied(v: &Value, c: &CommitCheck, ctx: &Context<'_>) -> Vec<Finding> {
    let (file, path, value, live_field) = (&c.file, &c.path, &c.value, &c.live);
    let (hint, live_hint) = (c.hint, c.live_hint);
    let commit = v[&c.commit].as_str().unwrap_or_default();
    let Ok(repo) = crate::git::open(&ctx.src_dir.join("repo")) else {
        return vec![fail(
            "cannot open the working copy to look at the commit",
            1,
        )];
    };
    let Some(text) = crate::git::file_at(&repo, commit, file) else {
        return vec![fail(
            format!(
                "commit {commit} is not in the repo (or has no {file}): record the SHA you pushed"
            ),
            hint,
        )];
    };
    let committed = serde_saphyr::from_str::<Value>(&text)
        .ok()
        .and_then(|c| path.get(&c).cloned())
        .unwrap_or(Value::Null);
    let live = &v[live_field.as_str()];
    vec![
        expect(
            committed == *value,
            format!(
                "commit {} sets {path} {value}",
                &commit[..commit.len().min(7)]
            ),
            format!("commit {commit} sets {path} {committed}, not {value}"),
            hint,
        ),
        expect(
            *live != committed && live.is_string(),
            format!("{live_field} {live} shows the change was not applied"),
            format!(
                "{live_field} {live} equals the commit's {path}: record it while the hook is failing"
            ),
            live_hint,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_lesson_with_evidence_checks_its_fields() {
        for lesson in catalog::lessons().unwrap() {
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
        let ctx = Context {
            client: &client,
            src_dir: std::path::Path::new("/nonexistent"),
        };
        let f = apply_rule(&rule, &json!({"phase": "Running"}), &ctx).await;
        assert_eq!(f[0].what, "still retrying");
        let f = apply_rule(&rule, &json!({"phase": "Succeeded"}), &ctx).await;
        assert_eq!(
            f[0].what,
            "phase is \"Succeeded\", not Failed or Error: record it once the hook has failed"
        );
        let f = apply_rule(&rule, &json!({"phase": "Failed"}), &ctx).await;
        assert!(f[0].ok);
    }
}
