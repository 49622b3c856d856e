//! Self-check: grades a lesson as a grader reading the lab literally would — what its steps
//! left in the cluster and in Git (the checklist's lasting steps), then its evidence file: that
//! it is there and is a JSON object, each field's JSON type on its own, the values against the
//! live cluster, and the rules its `lesson.yaml` states, each cross-checked with the source that
//! proves it — and says what is wrong, what to do, and what helps: the lesson's hint for that
//! rule, or advice that fits a file that is empty, not JSON, or of the wrong type. A check that
//! cannot decide says so and does not pass.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::context::Context;
use super::evidence;
use crate::i18n::Words;
use crate::lab::catalog::Lesson;
use crate::lab::files::{MAX_LEARNER_FILE, ReadError};
use crate::lab::spec::{EvidenceSpec, JsonType, LessonId, Rule};
use crate::words;

mod cause;
mod history;
mod lived;
mod rules;
mod state;
mod then;
mod time;

pub use then::as_of_then;

pub use time::time_of;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Finding {
    pub ok: bool,
    /// What was found, said where it is shown (kept as words in `tutor.json`).
    pub what: Words,
    /// The lesson hint (1-based) that helps, for failures of the lesson's own rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<usize>,
    /// Advice that fits this failure better than any lesson hint (a file that is not JSON, a
    /// value of the wrong type, a cluster that does not answer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<Words>,
    /// It reads the cluster as it is now, which may have moved on since the file was written
    /// (an object replaced, a condition gone): a file that passed is judged as of then
    /// (`then::as_of_then`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub live: bool,
}

impl Finding {
    /// The finding as JSON with its words said in `lang` (`check --json`), shaped as saved.
    pub fn said(&self, lang: crate::i18n::Lang) -> Value {
        use crate::i18n::Say;
        let mut v = serde_json::to_value(self).unwrap_or_default();
        v["what"] = self.what.say(lang).into();
        if let Some(help) = &self.help {
            v["help"] = help.say(lang).into();
        }
        v
    }

    /// The same finding, about the cluster as it is now.
    fn live(mut self) -> Finding {
        self.live = true;
        self
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Grade {
    /// The evidence file graded; empty for a lesson that writes none.
    pub file: String,
    #[serde(default)]
    pub lesson: LessonId,
    pub findings: Vec<Finding>,
    /// When the check ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_at: Option<jiff::Timestamp>,
    /// A file that passed, checked again once the cluster had moved on: what no longer holds
    /// now (the grade stands as of `checked_at`; `then::as_of_then`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed_since: Vec<Finding>,
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

fn pass(what: impl Into<Words>) -> Finding {
    Finding {
        ok: true,
        what: what.into(),
        hint: None,
        help: None,
        live: false,
    }
}

fn fail(what: impl Into<Words>, hint: usize) -> Finding {
    Finding {
        ok: false,
        what: what.into(),
        hint: Some(hint),
        help: None,
        live: false,
    }
}

/// A failure no lesson hint fits: `help` says what to do instead.
fn fail_with(what: impl Into<Words>, help: impl Into<Words>) -> Finding {
    Finding {
        ok: false,
        what: what.into(),
        hint: None,
        help: Some(help.into()),
        live: false,
    }
}

fn expect(ok: bool, good: Words, bad: Words, hint: usize) -> Finding {
    if ok { pass(good) } else { fail(bad, hint) }
}

/// The advice for a value of the wrong JSON type: what it should look like.
fn type_help(json_type: JsonType) -> Words {
    match json_type {
        JsonType::Number => words!("check-type-help-number"),
        JsonType::String => words!("check-type-help-string"),
        JsonType::Boolean => words!("check-type-help-boolean"),
        JsonType::StringOrNull => words!("check-type-help-string-or-null"),
    }
}

/// Field `name` has the JSON type the lab names.
fn typed(v: &Value, name: &str, json_type: JsonType) -> Finding {
    let kind = match json_type {
        JsonType::Number => words!("json-type-number"),
        JsonType::String => words!("json-type-string"),
        JsonType::Boolean => words!("json-type-boolean"),
        JsonType::StringOrNull => words!("json-type-string-or-null"),
    };
    if json_type.admits(v.get(name)) {
        return pass(words!("check-type-ok", field = name, kind = kind.clone()));
    }
    match v.get(name) {
        // Not there yet is not a wrong type: a lesson may record it at a later moment.
        None => fail_with(
            words!("check-type-missing", field = name, kind = kind.clone()),
            words!("check-type-help-missing", field = name),
        ),
        Some(found) => fail_with(
            words!(
                "check-type-wrong",
                field = name,
                kind = kind.clone(),
                found = found.to_string()
            ),
            type_help(json_type),
        ),
    }
}

/// A field a rule reads as an RFC 3339 time is one, on its own (the rule may not get that far).
fn timed(v: &Value, name: &str) -> Option<Finding> {
    let found = v.get(name)?;
    let ok = found.as_str().and_then(time_of).is_some();
    (!ok).then(|| {
        fail_with(
            words!("check-not-a-time", field = name, found = found.to_string()),
            words!("check-time-help"),
        )
    })
}

/// Equal as a grader compares them: numbers by value (3.0 is 3), RFC 3339 times as instants
/// (`Z` and `+00:00` are the same moment), anything else exactly.
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(x), Value::String(y)) => {
            x == y || matches!((time_of(x), time_of(y)), (Some(p), Some(q)) if p == q)
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
            findings: vec![fail_with(
                words!("check-not-evidence", file = file),
                words!("check-not-evidence-help"),
            )],
            checked_at: Some(checked_now(ctx).await),
            changed_since: Vec::new(),
        },
    }
}

/// When a check ran, by the cluster's clock: the clock its panes and evidence times read, also
/// on a sped-up embedded cluster (this machine's clock only when the cluster gives none).
async fn checked_now(ctx: &Context<'_>) -> jiff::Timestamp {
    crate::cluster::now(ctx.client)
        .await
        .unwrap_or_else(|_| jiff::Timestamp::now())
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
        checked_at: Some(checked_now(ctx).await),
        changed_since: Vec::new(),
    }
}

/// The evidence file as JSON, or the one finding that says why it is not.
fn read_evidence(spec: &EvidenceSpec, ctx: &Context<'_>) -> Result<Value, Finding> {
    let path = ctx.src_dir.join(&spec.file);
    let shown = path.display().to_string();
    // A link that leads out of the lab is not followed (reliability-4 D5).
    if let Err(out) = crate::lab::paths::inside(ctx.src_dir, &spec.file) {
        return Err(fail_with(
            words!(
                "evidence-outside",
                file = out.file.as_str(),
                dir = out.dir.display().to_string()
            ),
            words!("evidence-outside-help"),
        ));
    }
    // Only a regular file of bounded size: a FIFO hung `check` for good (reliability-4 H2).
    let bytes = match crate::lab::files::read_bounded(&path, MAX_LEARNER_FILE) {
        Ok(b) => b,
        Err(ReadError::Missing { .. }) => {
            return Err(fail_with(
                words!("check-missing", path = shown.as_str()),
                words!(
                    "check-missing-help",
                    lesson = ctx
                        .catalog
                        .lesson_for_evidence(&spec.file)
                        .map_or_else(String::new, |l| l.spec.number.to_string())
                ),
            ));
        }
        Err(ReadError::NotRegular { .. }) => {
            return Err(fail_with(
                words!("check-not-regular", path = shown.as_str()),
                words!("check-not-regular-help"),
            ));
        }
        Err(ReadError::TooBig { size, limit, .. }) => {
            return Err(fail_with(
                words!(
                    "check-too-big",
                    path = shown.as_str(),
                    size = size.to_string(),
                    limit = limit.to_string()
                ),
                words!("check-wrote-it-help"),
            ));
        }
        Err(ReadError::Io { source, .. }) => {
            return Err(fail_with(
                words!(
                    "check-unreadable",
                    path = shown.as_str(),
                    why = source.to_string()
                ),
                words!("check-unreadable-help"),
            ));
        }
    };
    let wrote_it = || words!("check-wrote-it-help");
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(fail_with(
            words!("check-empty", file = spec.file.as_str()),
            wrote_it(),
        ));
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(fail_with(
            words!("check-not-text", file = spec.file.as_str()),
            wrote_it(),
        ));
    };
    match serde_json::from_str::<Value>(&text) {
        Err(e) => Err(fail_with(
            words!(
                "check-not-json",
                file = spec.file.as_str(),
                line = e.line().to_string(),
                column = e.column().to_string()
            ),
            wrote_it(),
        )),
        Ok(v) if !v.is_object() => Err(fail_with(
            words!("check-not-object", file = spec.file.as_str()),
            wrote_it(),
        )),
        Ok(v) => Ok(v),
    }
}

/// The evidence file's own findings (its fields and rules), without the lesson's state.
pub async fn evidence_findings(spec: &EvidenceSpec, ctx: &Context<'_>) -> Vec<Finding> {
    match read_evidence(spec, ctx) {
        Err(why) => vec![why],
        Ok(v) => apply_checks(&v, spec, ctx).await,
    }
}

/// A live field that differs, with the advice its cause calls for: the lesson's hint only when
/// the value itself is wrong.
fn live_differs(
    differs: Words,
    field: &str,
    cause: Option<&cause::LiveDiffers>,
    spec: &EvidenceSpec,
) -> Finding {
    let clock = |t: &jiff::Timestamp| {
        t.to_zoned(jiff::tz::TimeZone::system())
            .strftime("%H:%M:%S")
            .to_string()
    };
    match cause {
        Some(cause::LiveDiffers::Syncing { app }) => fail_with(
            differs,
            words!("check-live-differs-syncing", app = app.as_str()),
        ),
        Some(cause::LiveDiffers::ReadTooEarly {
            app,
            written,
            ended,
        }) => fail_with(
            differs,
            words!(
                "check-live-differs-too-early",
                file = spec.file.as_str(),
                written = clock(written),
                app = app.as_str(),
                ended = clock(ended)
            ),
        ),
        Some(cause::LiveDiffers::Value) | None => {
            let hint = spec
                .fields
                .iter()
                .find(|f| f.name == field)
                .and_then(|f| f.hint)
                .unwrap_or(spec.live_hint);
            fail(differs, hint)
        }
    }
}

/// The fields the rules read as RFC 3339 times.
fn time_fields(spec: &EvidenceSpec) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for rule in &spec.rules {
        match rule {
            Rule::InOrder { earlier, later, .. } => out.extend([earlier.as_str(), later.as_str()]),
            Rule::BeforeCondition { field, .. } => out.push(field),
            Rule::HookJob { created, .. } => out.push(created),
            _ => {}
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

async fn apply_checks(v: &Value, spec: &EvidenceSpec, ctx: &Context<'_>) -> Vec<Finding> {
    // Each field's type on its own: one wrong field never hides another.
    let mut out: Vec<Finding> = spec
        .fields
        .iter()
        .map(|f| typed(v, &f.name, f.json_type))
        .collect();
    let wrong_type: Vec<&str> = spec
        .fields
        .iter()
        .filter(|f| !f.json_type.admits(v.get(&f.name)))
        .map(|f| f.name.as_str())
        .collect();
    let mut faulty = wrong_type.clone();
    for name in time_fields(spec) {
        if wrong_type.contains(&name) {
            continue;
        }
        if let Some(not_a_time) = timed(v, name) {
            out.push(not_a_time);
            faulty.push(name);
        }
    }
    let live_fields: Vec<&str> = spec
        .fields
        .iter()
        .filter(|f| f.live && f.json_type.admits(v.get(&f.name)))
        .map(|f| f.name.as_str())
        .collect();
    if !live_fields.is_empty() {
        match evidence::capture_live(spec, ctx, v).await {
            Ok(live) => {
                // Why a value differs is found once, for all of them: the cause is the file's.
                let mut cause = None;
                for f in live_fields {
                    let (value, now) = (v[f].to_string(), live[f].to_string());
                    if same_value(&v[f], &live[f]) {
                        out.push(pass(words!("check-live-ok", field = f, value = value)).live());
                        continue;
                    }
                    let differs =
                        words!("check-live-differs", field = f, value = value, live = now);
                    if cause.is_none() {
                        cause = Some(cause::why_live_differs(spec, ctx).await);
                    }
                    out.push(live_differs(differs, f, cause.as_ref(), spec).live());
                }
            }
            Err(e) => out.push(
                fail_with(
                    words!(
                        "check-cannot-read-live",
                        file = spec.file.as_str(),
                        why = Words::of(e)
                    ),
                    words!("check-cannot-read-live-help"),
                )
                .live(),
            ),
        }
    }
    // A rule over a field already found faulty would only repeat that, in other words.
    for rule in &spec.rules {
        if rule.fields().iter().any(|f| faulty.contains(f)) {
            continue;
        }
        out.extend(rules::apply(rule, v, ctx).await);
    }
    out
}

#[cfg(test)]
mod tests;
