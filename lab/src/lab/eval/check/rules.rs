//! The rules a lesson's evidence must meet beyond types and agreement with the cluster, as its
//! `lesson.yaml` states them; each is checked against the live object, Git or clock that proves
//! it, and a failure names the rule's own hint. A field of the wrong type is said once by the
//! type check: a rule that needs it just does not judge.

use serde_json::Value;

use super::time::time;
use super::{Finding, expect, fail, fail_with, history, pass, same_value};
use crate::cluster::{self, argocd};
use crate::i18n::Words;
use crate::lab::eval::context::Context;
use crate::lab::eval::derived::{field_owner, writes_of};
use crate::lab::eval::shown;
use crate::lab::spec::{FieldPath, Localized, ObjectKey, Rule};
use crate::words;

/// Unix times this far apart from now are milliseconds or a made-up number, not seconds.
const SECONDS_PLAUSIBLE: std::ops::RangeInclusive<f64> = 1.5e9..=1.0e10;

/// A failure to read what proves a rule: no lesson hint, the words say what to do.
fn unreadable(what: Words) -> Finding {
    fail_with(what, words!("check-cluster-help"))
}

/// What `rule` finds of `v`. A rule that compares the file with objects or conditions as the
/// cluster shows them now says so of each finding (`Finding::live`).
pub async fn apply(rule: &Rule, v: &Value, ctx: &Context<'_>) -> Vec<Finding> {
    let found = apply_rule(rule, v, ctx).await;
    let reads_the_cluster_now = matches!(
        rule,
        Rule::BeforeCondition { .. }
            | Rule::CreatedAfterCondition { .. }
            | Rule::RightAfterWrite { .. }
    );
    if reads_the_cluster_now {
        found.into_iter().map(Finding::live).collect()
    } else {
        found
    }
}

// One arm per rule, each short: the rules read as one table.
#[allow(clippy::too_many_lines)]
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
                words!("rule-in-order-ok", earlier = earlier, later = later),
                words!(
                    "rule-in-order-not",
                    earlier = earlier,
                    a = a.to_string(),
                    later = later,
                    b = b.to_string(),
                    fix = fix.clone()
                ),
                *hint,
            )],
            // The type check already said which is not a time.
            _ => Vec::new(),
        },
        Rule::BeforeCondition {
            field,
            object,
            condition,
            hint,
        } => match time(&v[field]) {
            None => Vec::new(),
            Some(recorded) => match condition_since(ctx, object, condition).await {
                Ok(t) => vec![expect(
                    recorded <= t,
                    words!(
                        "rule-before-condition-ok",
                        field = field,
                        object = object.name.as_str(),
                        condition = condition
                    ),
                    words!(
                        "rule-before-condition-not",
                        field = field,
                        recorded = recorded.to_string(),
                        object = object.name.as_str(),
                        condition = condition,
                        at = t.to_string()
                    ),
                    *hint,
                )],
                Err(why) => vec![why],
            },
        },
        Rule::CreatedAfterCondition {
            object,
            after,
            condition,
            hint,
        } => vec![created_after(ctx, object, after, condition, *hint).await],
        Rule::AtLeastApart {
            from,
            to,
            seconds,
            hint,
        } => {
            let (Some(a), Some(b)) = (v[from].as_f64(), v[to].as_f64()) else {
                return Vec::new();
            };
            let apart = b - a;
            vec![expect(
                apart >= *seconds,
                words!(
                    "rule-apart-ok",
                    to = to,
                    apart = format!("{apart:.0}"),
                    from = from,
                    seconds = seconds.to_string()
                ),
                words!(
                    "rule-apart-not",
                    to = to,
                    from = from,
                    apart = format!("{apart:.0}"),
                    seconds = seconds.to_string()
                ),
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
            .map(|f| one_of(v, f, values, (why.as_ref(), says), *hint))
            .collect(),
        Rule::CommitNotApplied(c) => history::commit_not_applied(v, c, ctx),
        Rule::FullSha { field, hint } => vec![history::full_sha(v, field, *hint)],
        Rule::UnixSeconds { fields, hint } => unix_seconds(v, fields, *hint, ctx).await,
        Rule::RightAfterWrite {
            field,
            object,
            path,
            manager,
            within,
            hint,
        } => {
            let write = Write {
                object,
                path,
                manager,
            };
            right_after_write(v, field, &write, *within, *hint, ctx)
                .await
                .into_iter()
                .collect()
        }
        Rule::HookJob { .. } => history::hook_job(rule, v, ctx).await,
        Rule::Passes { files, hint } => passes(files, *hint, ctx).await,
        Rule::LivedBetween { .. } => super::lived::lived_between(rule, v, ctx).await,
    }
}

/// Field `f` is one of `values`; `says` explains a common wrong value in the lesson's words.
fn one_of(
    v: &Value,
    f: &str,
    values: &[Value],
    (why, says): (
        Option<&Localized>,
        &std::collections::BTreeMap<String, Localized>,
    ),
    hint: usize,
) -> Finding {
    let found = &v[f];
    let allowed: Vec<String> = values.iter().map(shown).collect();
    let bad = says.get(&shown(found)).map_or_else(
        || {
            let allowed = crate::i18n::Joined(allowed.clone(), words!("rule-or"));
            match why {
                Some(w) => words!(
                    "rule-one-of-not-why",
                    field = f,
                    found = found.to_string(),
                    allowed = allowed,
                    why = w.clone()
                ),
                None => words!(
                    "rule-one-of-not",
                    field = f,
                    found = found.to_string(),
                    allowed = allowed
                ),
            }
        },
        |said| Words::of(said.clone()),
    );
    expect(
        values.iter().any(|a| same_value(a, found)),
        words!("rule-one-of-ok", field = f, found = found.to_string()),
        bad,
        hint,
    )
}

/// When the live object's condition last turned True, or the finding that says why that
/// cannot be told.
async fn condition_since(
    ctx: &Context<'_>,
    object: &ObjectKey,
    condition: &str,
) -> Result<jiff::Timestamp, Finding> {
    let name = object.name.as_str();
    let kind = object.kind.name();
    let d = argocd::raw_get(ctx.client.clone(), &object.path(&serde_json::Map::new()))
        .await
        .map_err(|e| {
            unreadable(words!(
                "rule-cannot-read",
                object = format!("{kind} {name}"),
                why = Words::of(e)
            ))
        })?;
    d["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["type"] == condition && c["status"] == "True")
        .and_then(|c| time(&c["lastTransitionTime"]))
        .ok_or_else(|| {
            fail_with(
                words!(
                    "rule-not-condition-yet",
                    kind = kind,
                    name = name,
                    condition = condition
                ),
                words!("rule-not-condition-yet-help"),
            )
        })
}

async fn created_after(
    ctx: &Context<'_>,
    object: &ObjectKey,
    after: &ObjectKey,
    condition: &str,
    hint: usize,
) -> Finding {
    let since = match condition_since(ctx, after, condition).await {
        Ok(t) => t,
        Err(why) => return why,
    };
    let path = object.path(&serde_json::Map::new());
    match argocd::raw_get_if_any(ctx.client.clone(), &path).await {
        Ok(Some(o)) => match time(&o["metadata"]["creationTimestamp"]) {
            Some(created) => expect(
                created >= since,
                words!(
                    "rule-created-after-ok",
                    object = object.name.as_str(),
                    after = after.name.as_str(),
                    condition = condition
                ),
                words!(
                    "rule-created-after-not",
                    object = object.name.as_str(),
                    created = created.to_string(),
                    after = after.name.as_str(),
                    condition = condition,
                    since = since.to_string()
                ),
                hint,
            ),
            None => unreadable(words!(
                "rule-no-creation-time",
                object = object.name.as_str()
            )),
        },
        Ok(None) => fail_with(
            words!("rule-wave-object-gone", object = object.to_string()),
            words!("rule-sync-again-help"),
        ),
        Err(e) => unreadable(words!(
            "rule-cannot-read",
            object = object.to_string(),
            why = Words::of(e)
        )),
    }
}

/// Unix seconds, plausible and not in the cluster's future.
async fn unix_seconds(
    v: &Value,
    fields: &[String],
    hint: usize,
    ctx: &Context<'_>,
) -> Vec<Finding> {
    // Its failure said in each finding that needs the clock.
    let now = cluster::now(ctx.client).await.map_err(Words::of);
    fields
        .iter()
        // A field that is not a number is said by the type check.
        .filter_map(|f| Some((f, v[f.as_str()].as_f64()?)))
        .map(|(f, t)| {
            if !SECONDS_PLAUSIBLE.contains(&t) {
                return fail(
                    words!(
                        "rule-not-unix-seconds",
                        field = f.as_str(),
                        value = t.to_string()
                    ),
                    hint,
                );
            }
            match &now {
                #[allow(clippy::cast_precision_loss)] // seconds since 1970 fit an f64 exactly
                Ok(now) if t > now.as_second() as f64 + 5.0 => fail(
                    words!(
                        "rule-in-the-future",
                        field = f.as_str(),
                        value = format!("{t:.0}"),
                        now = now.as_second().to_string()
                    ),
                    hint,
                ),
                Ok(_) => pass(words!("rule-unix-seconds-ok", field = f.as_str())),
                Err(e) => unreadable(words!(
                    "rule-cannot-read-clock",
                    field = f.as_str(),
                    why = e.clone()
                )),
            }
        })
        .collect()
}

/// A field write found in an object's managedFields.
struct Write<'a> {
    object: &'a ObjectKey,
    path: &'a FieldPath,
    manager: &'a str,
}

async fn right_after_write(
    v: &Value,
    field: &str,
    w: &Write<'_>,
    within: i64,
    hint: usize,
    ctx: &Context<'_>,
) -> Option<Finding> {
    let recorded = v[field].as_f64()?;
    let obj =
        match argocd::raw_get(ctx.client.clone(), &w.object.path(&serde_json::Map::new())).await {
            Ok(o) => o,
            Err(e) => {
                return Some(unreadable(words!(
                    "rule-cannot-read",
                    object = w.object.to_string(),
                    why = Words::of(e)
                )));
            }
        };
    let (path, manager) = (w.path, w.manager);
    let owner = field_owner(&obj, path);
    let mut written = last_write(&obj, path, manager);
    // A write through /scale is not dated in managedFields on a real cluster: its scale Event
    // dates it (cluster::scaled).
    if written.is_none() && w.object.kind == crate::cluster::Kind::Deployment {
        let events =
            crate::lab::eval::facts::scale_events(ctx.client, &w.object.namespace, &w.object.name)
                .await
                .unwrap_or_default();
        written = crate::cluster::scaled::scaled_at(&obj, &events);
    }
    Some(match (owner, written) {
        (Some(o), Some(t)) if o == manager => {
            #[allow(clippy::cast_precision_loss)] // seconds since 1970 fit an f64 exactly
            let t = t.as_second() as f64;
            let early = super::time::shell_allowance(ctx.clock);
            expect(
                recorded >= t - early && recorded <= t + within as f64,
                words!(
                    "rule-after-write-ok",
                    field = field,
                    manager = manager,
                    path = path.to_string(),
                    at = format!("{t:.0}")
                ),
                words!(
                    "rule-after-write-not",
                    field = field,
                    recorded = format!("{recorded:.0}"),
                    manager = manager,
                    path = path.to_string(),
                    object = w.object.name.as_str(),
                    at = format!("{t:.0}")
                ),
                hint,
            )
        }
        // The right manager owns it, and the cluster no longer says when it wrote it (a
        // scale's Event lives an hour): nothing to hold the recorded time against.
        (Some(o), None) if o == manager => pass(words!(
            "rule-after-write-undated",
            field = field,
            manager = manager,
            path = path.to_string(),
            object = w.object.name.as_str()
        )),
        (owner, _) => fail(
            words!(
                "rule-after-write-owner",
                path = path.to_string(),
                object = w.object.name.as_str(),
                owner = owner.map_or_else(|| words!("rule-nobody"), Words::text),
                manager = manager
            ),
            hint,
        ),
    })
}

/// When `manager` last wrote `path` (its managedFields entry holding it).
fn last_write(obj: &Value, path: &FieldPath, manager: &str) -> Option<jiff::Timestamp> {
    writes_of(obj, path)
        .filter(|m| m["manager"] == manager)
        .filter_map(|m| time(&m["time"]))
        .max()
}

/// Earlier evidence files pass their own lessons' checks; what to do names the earlier lesson
/// (do it, or see what its own check says), never a detail of the cluster this report is not
/// about.
async fn passes(files: &[String], hint: usize, ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for file in files {
        let grade = Box::pin(super::grade(file, ctx)).await;
        let lesson = grade.lesson.to_string();
        let first = grade
            .findings
            .iter()
            .find(|f| !f.ok)
            .map(|f| f.what.clone());
        // The lesson's hint stays with the finding; the help says which lesson to do.
        let with_hint = |f: Finding| Finding {
            hint: Some(hint),
            ..f
        };
        out.push(match first {
            None => pass(words!("rule-passes-ok", file = file.as_str())),
            Some(_) if !ctx.src_dir.join(file).exists() => with_hint(fail_with(
                words!(
                    "rule-passes-missing",
                    file = file.as_str(),
                    lesson = lesson.as_str()
                ),
                words!("rule-passes-missing-help", lesson = lesson.as_str()),
            )),
            Some(why) => {
                let failed = with_hint(fail_with(
                    words!(
                        "rule-passes-not",
                        file = file.as_str(),
                        lesson = lesson.as_str(),
                        why = why
                    ),
                    words!("rule-passes-not-help", lesson = lesson.as_str()),
                ));
                // It fails only where the cluster has moved on: so does this, as of then.
                if grade.findings.iter().all(|f| f.ok || f.live) {
                    failed.live()
                } else {
                    failed
                }
            }
        });
    }
    out
}
