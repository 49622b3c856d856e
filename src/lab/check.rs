//! Self-check: grades each evidence file as the lab's grader would — field names and JSON
//! types first, then the values against the live cluster and the lab's rules — and says what is
//! wrong and which hint helps.

use serde::Serialize;
use serde_json::Value;

use super::evidence::{self, Context};
use super::report;
use crate::cluster::argocd;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Finding {
    pub ok: bool,
    pub what: String,
    /// The lesson hint (1-based) that helps, for failures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
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

/// Field `name` of type `kind` ("number", "string", "boolean", "string or null").
fn typed(v: &Value, name: &str, kind: &str) -> Finding {
    let f = &v[name];
    let ok = match kind {
        "number" => f.is_number(),
        "string" => f.is_string(),
        "boolean" => f.is_boolean(),
        "string or null" => f.is_string() || f.is_null() && v.get(name).is_some(),
        _ => false,
    };
    expect(
        ok,
        format!("{name} is a {kind}"),
        format!("{name} must be a {kind}, found {f}"),
        1,
    )
}

/// Grades `file` in the source dir by its lesson's checks.
pub async fn grade(file: &str, ctx: &Context<'_>) -> Grade {
    let path = ctx.src_dir.join(file);
    let lesson = crate::lab::catalog::lessons().ok().and_then(|l| {
        l.into_iter()
            .find(|l| l.meta.evidence.as_deref() == Some(file))
    });
    let findings = match (lesson, std::fs::read_to_string(&path)) {
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
        (Some(lesson), Ok(text)) => match serde_json::from_str::<Value>(&text) {
            Err(e) => vec![fail(format!("{file} is not valid JSON: {e}"), 1)],
            Ok(v) if !v.is_object() => vec![fail(format!("{file} must hold a JSON object"), 1)],
            Ok(v) => apply_checks(file, &v, &lesson.meta.checks, ctx).await,
        },
    };
    Grade {
        file: file.to_string(),
        findings,
    }
}

async fn apply_checks(
    file: &str,
    v: &Value,
    checks: &crate::lab::catalog::Checks,
    ctx: &Context<'_>,
) -> Vec<Finding> {
    let mut out: Vec<Finding> = checks
        .fields
        .iter()
        .map(|f| typed(v, &f.name, &f.kind))
        .collect();
    let live_fields: Vec<&str> = checks
        .fields
        .iter()
        .filter(|f| f.live)
        .map(|f| f.name.as_str())
        .collect();
    if !live_fields.is_empty() {
        match evidence::capture(file, ctx).await {
            Ok(live) => {
                for f in live_fields {
                    out.push(expect(
                        v[f] == live[f],
                        format!("{f} = {} matches the cluster", v[f]),
                        format!("{f} is {} but the cluster shows {}", v[f], live[f]),
                        checks.live_hint,
                    ));
                }
            }
            Err(e) => out.push(fail(
                format!("cannot read the cluster to check {file}: {e}"),
                checks.live_hint,
            )),
        }
    }
    for rule in &checks.rules {
        out.extend(named_rule(rule, v, ctx).await);
    }
    out
}

/// Every rule `named_rule` knows.
pub const KNOWN_RULES: &[&str] = &[
    "wave-order",
    "failed-commit",
    "failed-phase",
    "waited-40s",
    "replicas-kept",
    "stayed-synced",
    "winners-are-layers",
];

/// The rules a comparison cannot express, named from `lesson.yaml`.
async fn named_rule(rule: &str, v: &Value, ctx: &Context<'_>) -> Vec<Finding> {
    match rule {
        "wave-order" => wave_order(v, ctx).await,
        "failed-commit" => failed_commit(v, ctx),
        "failed-phase" => {
            let phase = v["phase"].as_str().unwrap_or_default();
            vec![expect(
                matches!(phase, "Failed" | "Error"),
                format!("phase {phase} is a failed operation's"),
                if phase == "Running" {
                    "phase is Running: the operation was still retrying when it was recorded; record phase once it reads Failed (after the retries, or at once after ending the operation)".to_string()
                } else {
                    format!(
                        "phase {phase:?} is not a failed operation's: record it once the hook has failed"
                    )
                },
                1,
            )]
        }
        "waited-40s" => {
            let waited =
                v["checked_at"].as_f64().unwrap_or(0.0) - v["scaled_at"].as_f64().unwrap_or(0.0);
            vec![expect(
                waited >= 40.0,
                format!("checked {waited:.0} s after scaling (≥ 40)"),
                format!(
                    "checked_at − scaled_at is {waited:.0} s; wait at least 40 s after scaling"
                ),
                3,
            )]
        }
        "replicas-kept" => vec![expect(
            v["replicas"] == 4,
            "replicas stayed 4".into(),
            format!(
                "replicas is {}; selfHeal must leave the hand-set 4 alone",
                v["replicas"]
            ),
            2,
        )],
        "stayed-synced" => vec![expect(
            v["sync_status"] == "Synced",
            "src-kust was Synced".into(),
            format!(
                "sync_status is {}; with ignoreDifferences the app stays Synced",
                v["sync_status"]
            ),
            2,
        )],
        "winners-are-layers" => ["helm_winner", "replicas_winner"]
            .iter()
            .map(|f| {
                let w = v[*f].as_str().unwrap_or_default();
                expect(
                    report::LAYERS.contains(&w),
                    format!("{f} names a layer"),
                    format!("{f} must be one of chart, valueFiles, valuesObject, parameters"),
                    1,
                )
            })
            .collect(),
        other => vec![fail(
            format!("capa-tui does not know the check rule {other:?} (lesson.yaml)"),
            1,
        )],
    }
}

/// The PreSync hook before `settings`, and `settings` no later than Deployment `app` became
/// Available (the grader's rule for waves.json).
async fn wave_order(v: &Value, ctx: &Context<'_>) -> Vec<Finding> {
    let ts = |f: &Value| f.as_str().and_then(|s| s.parse::<jiff::Timestamp>().ok());
    let (Some(hook), Some(settings)) = (ts(&v["hook_created"]), ts(&v["settings_created"])) else {
        return vec![fail(
            "hook_created and settings_created must be RFC 3339 times, as creationTimestamp shows them",
            1,
        )];
    };
    let mut out = vec![expect(
        hook <= settings,
        "the hook was created before settings".into(),
        format!(
            "hook_created ({hook}) is after settings_created ({settings}): record the PreSync hook of the same sync"
        ),
        3,
    )];
    match argocd::raw_get(
        ctx.client.clone(),
        "/apis/apps/v1/namespaces/src-waves/deployments/app",
    )
    .await
    {
        Ok(d) => {
            let available = d["status"]["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|c| c["type"] == "Available" && c["status"] == "True")
                .and_then(|c| ts(&c["lastTransitionTime"]));
            out.push(match available {
                Some(a) => expect(
                    settings <= a,
                    "settings came before app became Available".into(),
                    format!("settings_created ({settings}) is after app became Available ({a})"),
                    3,
                ),
                None => fail("Deployment app is not Available yet", 2),
            });
        }
        Err(e) => out.push(fail(format!("cannot read Deployment app: {e}"), 2)),
    }
    out
}

/// The recorded commit is the one that changed mode and broke the migration, and the live mode
/// then was still the old one.
fn failed_commit(v: &Value, ctx: &Context<'_>) -> Vec<Finding> {
    let commit = v["commit"].as_str().unwrap_or_default();
    let Ok(repo) = crate::git::open(&ctx.src_dir.join("repo")) else {
        return vec![fail(
            "cannot open the working copy to look at the commit",
            1,
        )];
    };
    let Some(config) = crate::git::file_at(&repo, commit, "waves/config.yaml") else {
        return vec![fail(
            format!(
                "commit {commit} is not in the repo (or has no waves/config.yaml): record the SHA you pushed in step 6"
            ),
            1,
        )];
    };
    let mode = serde_saphyr::from_str::<Value>(&config)
        .ok()
        .map(|c| c["data"]["mode"].clone())
        .unwrap_or(Value::Null);
    vec![
        expect(
            mode == "green",
            format!("commit {} sets mode green", &commit[..commit.len().min(7)]),
            format!("commit {commit} sets mode {mode}, not green"),
            1,
        ),
        expect(
            v["live_mode"] != mode && v["live_mode"].is_string(),
            format!(
                "live_mode {} shows the change was not applied",
                v["live_mode"]
            ),
            format!(
                "live_mode {} equals the commit's mode: record it while the hook is failing",
                v["live_mode"]
            ),
            4,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_lesson_with_evidence_has_checks_and_only_known_rules() {
        for lesson in crate::lab::catalog::lessons().unwrap() {
            let c = &lesson.meta.checks;
            if lesson.meta.evidence.is_some() {
                assert!(
                    !c.fields.is_empty(),
                    "lesson {} checks no field",
                    lesson.meta.number
                );
            }
            for rule in &c.rules {
                assert!(
                    KNOWN_RULES.contains(&rule.as_str()),
                    "lesson {}: unknown rule {rule}",
                    lesson.meta.number
                );
            }
            for f in &c.fields {
                assert!(
                    ["number", "string", "boolean", "string or null"].contains(&f.kind.as_str()),
                    "{}: {}",
                    lesson.meta.number,
                    f.kind
                );
            }
        }
    }

    #[test]
    fn types_are_checked_as_the_lab_names_them() {
        let v = json!({"replicas": "3", "greeting": "x", "instance_label": null});
        assert!(!typed(&v, "replicas", "number").ok);
        assert!(typed(&v, "greeting", "string").ok);
        assert!(typed(&v, "instance_label", "string or null").ok);
        assert!(
            !typed(&v, "missing", "string or null").ok,
            "absent is not null"
        );
    }
}
