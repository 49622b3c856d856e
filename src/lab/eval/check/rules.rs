//! The rules a lesson's evidence must meet beyond types and agreement with the cluster, as its
//! `lesson.yaml` states them; each is checked against the live object, Git or clock that proves it.

use serde_json::Value;

use super::{Finding, expect, fail, history, pass, same_value};
use crate::cluster::{self, argocd};
use crate::lab::eval::derived::{field_owner, writes_of};
use crate::lab::eval::evidence::Context;
use crate::lab::eval::shown;
use crate::lab::spec::{FieldPath, ObjectRef, Rule};

/// An RFC 3339 time, as an instant.
pub fn time_of(s: &str) -> Option<jiff::Timestamp> {
    s.parse().ok()
}

fn time(v: &Value) -> Option<jiff::Timestamp> {
    v.as_str().and_then(time_of)
}

/// Unix times this far apart from now are milliseconds or a made-up number, not seconds.
const SECONDS_PLAUSIBLE: std::ops::RangeInclusive<f64> = 1.5e9..=1.0e10;

pub async fn apply(rule: &Rule, v: &Value, ctx: &Context<'_>) -> Vec<Finding> {
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
        } => match time(&v[field]) {
            None => vec![fail(format!("{field} must be an RFC 3339 time"), 1)],
            Some(recorded) => match condition_since(ctx, object, condition).await {
                Ok(t) => vec![expect(
                    recorded <= t,
                    format!("{field} came before {} became {condition}", object.name),
                    format!(
                        "{field} ({recorded}) is after {} became {condition} ({t})",
                        object.name
                    ),
                    *hint,
                )],
                Err(why) => vec![fail(why, 2)],
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
            .map(|f| one_of(v, f, values, (why.as_deref(), says), *hint))
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
            vec![right_after_write(v, field, &write, *within, *hint, ctx).await]
        }
        Rule::HookJob { .. } => history::hook_job(rule, v, ctx).await,
        Rule::Passes { files, hint } => passes(files, *hint, ctx).await,
    }
}

/// Field `f` is one of `values`; `says` explains a common wrong value in the lesson's words.
fn one_of(
    v: &Value,
    f: &str,
    values: &[Value],
    (why, says): (Option<&str>, &std::collections::BTreeMap<String, String>),
    hint: usize,
) -> Finding {
    let found = &v[f];
    let allowed: Vec<String> = values.iter().map(shown).collect();
    let bad = says.get(&shown(found)).cloned().unwrap_or_else(|| {
        let why = why.map(|w| format!(": {w}")).unwrap_or_default();
        format!("{f} is {found}, not {}{why}", allowed.join(" or "))
    });
    expect(
        values.iter().any(|a| same_value(a, found)),
        format!("{f} is {found}"),
        bad,
        hint,
    )
}

/// When the live object's condition last turned True, or why that cannot be told.
async fn condition_since(
    ctx: &Context<'_>,
    object: &ObjectRef,
    condition: &str,
) -> Result<jiff::Timestamp, String> {
    let name = &object.name;
    let kind = object.kind.name();
    let d = argocd::raw_get(ctx.client.clone(), &object.path(&serde_json::Map::new()))
        .await
        .map_err(|e| format!("cannot read {kind} {name}: {e}"))?;
    d["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["type"] == condition && c["status"] == "True")
        .and_then(|c| time(&c["lastTransitionTime"]))
        .ok_or_else(|| format!("{kind} {name} is not {condition} yet"))
}

async fn created_after(
    ctx: &Context<'_>,
    object: &ObjectRef,
    after: &ObjectRef,
    condition: &str,
    hint: usize,
) -> Finding {
    let since = match condition_since(ctx, after, condition).await {
        Ok(t) => t,
        Err(why) => return fail(why, 2),
    };
    let path = object.path(&serde_json::Map::new());
    match argocd::raw_get_if_any(ctx.client.clone(), &path).await {
        Ok(Some(o)) => match time(&o["metadata"]["creationTimestamp"]) {
            Some(created) => expect(
                created >= since,
                format!(
                    "{} was created after {} became {condition}",
                    object.name, after.name
                ),
                format!(
                    "{} was created at {created}, before {} became {condition} ({since}): the waves did not hold it back; check the sync-wave annotations",
                    object.name, after.name
                ),
                hint,
            ),
            None => fail(format!("{} has no creationTimestamp", object.name), 2),
        },
        Ok(None) => fail(
            format!(
                "{object} is not in the cluster, so the wave order cannot be checked: sync the app again"
            ),
            2,
        ),
        Err(e) => fail(format!("cannot read {object}: {e}"), 2),
    }
}

/// Unix seconds, plausible and not in the cluster's future.
async fn unix_seconds(
    v: &Value,
    fields: &[String],
    hint: usize,
    ctx: &Context<'_>,
) -> Vec<Finding> {
    let now = cluster::now(ctx.client).await;
    fields
        .iter()
        .map(|f| {
            let Some(t) = v[f.as_str()].as_f64() else {
                return fail(
                    format!("{f} must be a number of Unix seconds (date +%s)"),
                    1,
                );
            };
            if !SECONDS_PLAUSIBLE.contains(&t) {
                return fail(
                    format!(
                        "{f} is {t}, not a time in Unix seconds: write date +%s (not milliseconds)"
                    ),
                    hint,
                );
            }
            match &now {
                #[allow(clippy::cast_precision_loss)] // seconds since 1970 fit an f64 exactly
                Ok(now) if t > now.as_second() as f64 + 5.0 => fail(
                    format!(
                        "{f} ({t:.0}) is in the future: the cluster's clock reads {}",
                        now.as_second()
                    ),
                    hint,
                ),
                Ok(_) => pass(format!("{f} is a Unix time in seconds")),
                Err(e) => fail(
                    format!("cannot read the cluster's clock to check {f}: {e}"),
                    2,
                ),
            }
        })
        .collect()
}

/// A field write found in an object's managedFields.
struct Write<'a> {
    object: &'a ObjectRef,
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
) -> Finding {
    let Some(recorded) = v[field].as_f64() else {
        return fail(format!("{field} must be a number of Unix seconds"), 1);
    };
    let obj =
        match argocd::raw_get(ctx.client.clone(), &w.object.path(&serde_json::Map::new())).await {
            Ok(o) => o,
            Err(e) => return fail(format!("cannot read {}: {e}", w.object), 2),
        };
    let (path, manager) = (w.path, w.manager);
    let owner = field_owner(&obj, path);
    let written = last_write(&obj, path, manager);
    match (owner, written) {
        (Some(o), Some(t)) if o == manager => {
            #[allow(clippy::cast_precision_loss)] // seconds since 1970 fit an f64 exactly
            let t = t.as_second() as f64;
            expect(
                recorded >= t - 1.0 && recorded <= t + within as f64,
                format!("{field} is right after {manager} wrote {path} ({t:.0})"),
                format!(
                    "{field} is {recorded:.0}, but {manager} wrote {path} of {} at {t:.0}: record date +%s right after the scale",
                    w.object.name
                ),
                hint,
            )
        }
        (owner, _) => fail(
            format!(
                "{path} of {} is owned by {}, not {manager}: scale it with kubectl scale, then record the time",
                w.object.name,
                owner.unwrap_or_else(|| "nobody".into())
            ),
            hint,
        ),
    }
}

/// When `manager` last wrote `path` (its managedFields entry holding it).
fn last_write(obj: &Value, path: &FieldPath, manager: &str) -> Option<jiff::Timestamp> {
    writes_of(obj, path)
        .filter(|m| m["manager"] == manager)
        .filter_map(|m| time(&m["time"]))
        .max()
}

/// Earlier evidence files pass their own lessons' checks.
async fn passes(files: &[String], hint: usize, ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for file in files {
        let grade = Box::pin(super::grade(file, ctx)).await;
        let first = grade
            .findings
            .iter()
            .find(|f| !f.ok)
            .map(|f| f.what.clone());
        out.push(match first {
            None => pass(format!("{file} passes its own check")),
            Some(why) => fail(
                format!(
                    "{file} (lesson {}) does not pass its own check — {why}: fix it first, this report builds on it",
                    grade.lesson
                ),
                hint,
            ),
        });
    }
    out
}
