//! The lab's evidence files, read from the live cluster (never hard-coded) as each lesson's
//! `lesson.yaml` says, and written atomically into the source dir; a different file already
//! there is kept as `<name>.bak`.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::context::{Context, EarlierProblem, EvidenceError, Missing, Result};
use super::derived;
use crate::cluster::{self, argocd};
use crate::lab::spec::{EvidenceRef, EvidenceSpec, FieldPath, Source};

/// Reads a lesson's evidence from the cluster (and Git, and earlier evidence) as its
/// `lesson.yaml` says, field by field: a later field may name an object after an earlier one.
pub async fn capture(spec: &EvidenceSpec, ctx: &Context<'_>) -> Result<Value> {
    capture_as_of(spec, ctx, &Known::new()).await
}

/// The live fields of `spec` (`live: true`) as the cluster shows them now, for comparing with
/// the file `recorded`: every other field is taken as the file recorded it, so a live field
/// that names its object after another (`src-waves/Job/{hook_job}`) reads the object the file
/// names, and nothing the cluster has since moved on from (lesson 6 re-syncs src-waves, so its
/// operation no longer names lesson 5's hook) stops the live fields being read.
pub async fn capture_live(
    spec: &EvidenceSpec,
    ctx: &Context<'_>,
    recorded: &Value,
) -> Result<Value> {
    let mut values = Map::new();
    for field in &spec.fields {
        let v = if field.live {
            read(&field.from, &values, ctx, &Known::new()).await?
        } else {
            recorded.get(&field.name).cloned().unwrap_or(Value::Null)
        };
        values.insert(field.name.clone(), v);
    }
    Ok(Value::Object(values))
}

/// Objects already read, by API path: a capture uses them as they were then instead of
/// reading them again (an operation recorded at the moment it ended, not a moment later).
pub type Known = std::collections::BTreeMap<String, Value>;

/// As [`capture`], with some objects as they were when `known` was read.
pub async fn capture_as_of(spec: &EvidenceSpec, ctx: &Context<'_>, known: &Known) -> Result<Value> {
    let mut values = Map::new();
    for field in &spec.fields {
        let v = read(&field.from, &values, ctx, known).await?;
        values.insert(field.name.clone(), v);
    }
    Ok(Value::Object(values))
}

/// The API paths of the live objects a spec's fields read (without names taken from other
/// fields), for reading them ahead.
pub fn object_paths(spec: &EvidenceSpec) -> Vec<String> {
    spec.fields
        .iter()
        .filter_map(|f| match &f.from {
            Source::Field { object, .. } if !object.name.contains('{') => {
                Some(object.path(&Map::new()))
            }
            _ => None,
        })
        .collect()
}

/// Captures the evidence file `file` of whichever lesson writes it.
pub async fn capture_file(file: &str, ctx: &Context<'_>) -> Result<Value> {
    let spec = ctx
        .catalog
        .lesson_for_evidence(file)
        .and_then(|l| l.spec.evidence.as_ref())
        .ok_or_else(|| EvidenceError::NotOurs(file.to_string()))?;
    capture(spec, ctx).await
}

async fn read(
    source: &Source,
    values: &Map<String, Value>,
    ctx: &Context<'_>,
    known: &Known,
) -> Result<Value> {
    let client = ctx.client;
    match source {
        Source::Field {
            object,
            path,
            optional,
            missing: hint,
        } => {
            let url = object.path(values);
            let obj = match known.get(&url) {
                Some(o) => o.clone(),
                None => argocd::raw_get(client.clone(), &url).await?,
            };
            match path.get(&obj) {
                Some(v) => Ok(v.clone()),
                None if *optional => Ok(Value::Null),
                None => Err(EvidenceError::NotYet {
                    what: Missing::Field {
                        path: path.to_string(),
                        object: object.name_with(values),
                    },
                    hint: hint.clone(),
                }),
            }
        }
        Source::Count {
            kind,
            namespace,
            field_selector,
        } => Ok(json!(
            count(client, kind, namespace, field_selector.as_deref()).await?
        )),
        Source::Exists {
            kind,
            namespace,
            field_selector,
        } => Ok(json!(
            count(client, kind, namespace, field_selector.as_deref()).await? > 0
        )),
        Source::ClusterTime => Ok(json!(cluster::now(client).await?.as_second())),
        Source::ScaleTime { object } => Ok(json!(
            scaled_at(client, &object.namespace, &object.name)
                .await?
                .as_second()
        )),
        Source::FieldOwner {
            object,
            path,
            missing: hint,
        } => {
            let obj = argocd::raw_get(client.clone(), &object.path(values)).await?;
            derived::field_owner(&obj, path)
                .map(Value::String)
                .ok_or_else(|| EvidenceError::NotYet {
                    what: Missing::Owner {
                        path: path.to_string(),
                        object: object.name.clone(),
                    },
                    hint: hint.clone(),
                })
        }
        Source::HelmLayer {
            app,
            key,
            agrees_with,
        } => {
            let recorded = derived::evidence_field(ctx, agrees_with)?;
            let app = argocd::application(client.clone(), argocd::NAMESPACE, app).await?;
            derived::helm_layer(ctx, &app, key, &recorded).map(|layer| json!(layer))
        }
        Source::ImageSource { app, object } => {
            let app = argocd::application(client.clone(), argocd::NAMESPACE, app).await?;
            let live = argocd::raw_get(client.clone(), &object.path(values)).await?;
            Ok(json!(derived::image_source(&app, &live)))
        }
        Source::CommitNotApplied {
            commit,
            live,
            file,
            path,
        } => commit_not_applied(ctx, (commit, live), file, path),
        Source::GitCommit { repo, file, change } => {
            let bare = ctx.bare_dir.join(format!("{repo}.git"));
            crate::git::open(&bare)
                .ok()
                .and_then(|r| crate::git::newest_file_change(&r, file, change.in_git(), usize::MAX))
                .map(Value::String)
                .ok_or_else(|| EvidenceError::NotYet {
                    what: Missing::Commit {
                        file: file.clone(),
                        change: *change,
                    },
                    hint: None,
                })
        }
    }
}

/// How many objects of `kind` the namespace holds (with a field selector).
async fn count(
    client: &kube::Client,
    kind: &cluster::Kind,
    namespace: &str,
    field_selector: Option<&str>,
) -> Result<usize> {
    let mut url = kind.collection_path(namespace);
    if let Some(sel) = field_selector {
        url = format!(
            "{url}?fieldSelector={}",
            sel.replace('=', "%3D").replace('/', "%2F")
        );
    }
    let list = argocd::raw_get(client.clone(), &url).await?;
    Ok(list["items"].as_array().map_or(0, Vec::len))
}

/// Whether the commit an evidence file recorded changed `path` of `file` in Git to something
/// the live value recorded beside it does not show.
fn commit_not_applied(
    ctx: &Context<'_>,
    (commit, live): (&EvidenceRef, &EvidenceRef),
    file: &str,
    path: &FieldPath,
) -> Result<Value> {
    let sha = derived::evidence_field(ctx, commit)?;
    let sha = sha.as_str().ok_or_else(|| {
        derived::earlier(
            ctx,
            &commit.file,
            EarlierProblem::Lacks(commit.field.clone()),
        )
    })?;
    let recorded_live = derived::evidence_field(ctx, live)?;
    let committed = derived::yaml_at(ctx, sha, file);
    let committed = path.get(&committed).cloned().unwrap_or(Value::Null);
    Ok(json!(!committed.is_null() && recorded_live != committed))
}

/// When the Deployment was last scaled to the replicas it has now (`cluster::scaled`).
pub async fn scaled_at(
    client: &kube::Client,
    namespace: &str,
    deployment: &str,
) -> Result<jiff::Timestamp> {
    let d = argocd::raw_get(
        client.clone(),
        &format!("/apis/apps/v1/namespaces/{namespace}/deployments/{deployment}"),
    )
    .await?;
    let events = super::facts::scale_events(client, namespace, deployment).await?;
    crate::cluster::scaled::scaled_at(&d, &events).ok_or_else(|| EvidenceError::NotYet {
        what: Missing::Scale {
            deployment: deployment.to_string(),
        },
        hint: None,
    })
}

/// Whole seconds still to wait for `hold` seconds from `scaled` to pass at `now`, counted up as
/// a countdown is ("1 s to go" until the time has come): the plan, the checklist and the
/// self-check show one number for one moment. 0 once the time has passed.
pub fn seconds_to_go(scaled: jiff::Timestamp, hold: u64, now: jiff::Timestamp) -> u64 {
    let passed_ms = now.duration_since(scaled).as_millis().max(0).unsigned_abs();
    let hold_ms = u128::from(hold) * 1000;
    u64::try_from(hold_ms.saturating_sub(passed_ms).div_ceil(1000)).unwrap_or(u64::MAX)
}

/// Writes `value` to `path` atomically (pretty JSON). If a different file is already there (the
/// learner's own), it is first kept as `<name>.bak`; returns that backup's path.
pub fn write(path: &Path, value: &Value) -> Result<Option<PathBuf>> {
    let text = format!(
        "{}\n",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
    crate::lab::files::write_keeping_backup(path, &text).map_err(|source| EvidenceError::Write {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_countdown_says_one_second_until_the_time_has_come() {
        let scaled: jiff::Timestamp = "2026-12-04T10:00:00Z".parse().unwrap();
        let at = |ms: i64| scaled + jiff::SignedDuration::from_millis(ms);
        assert_eq!(seconds_to_go(scaled, 45, at(-2_000)), 45, "a clock behind");
        assert_eq!(seconds_to_go(scaled, 45, at(0)), 45);
        assert_eq!(seconds_to_go(scaled, 45, at(22_000)), 23);
        assert_eq!(seconds_to_go(scaled, 45, at(22_300)), 23);
        assert_eq!(seconds_to_go(scaled, 45, at(44_999)), 1);
        assert_eq!(seconds_to_go(scaled, 45, at(45_000)), 0);
        assert_eq!(seconds_to_go(scaled, 45, at(90_000)), 0);
    }

    #[test]
    fn evidence_is_pretty_json_and_a_learners_file_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("precedence.json");
        std::fs::write(&p, "{\"replicas\": 9}").unwrap();
        let bak = write(&p, &json!({"replicas": 3})).unwrap().unwrap();
        assert_eq!(std::fs::read_to_string(&bak).unwrap(), "{\"replicas\": 9}");
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "{\n  \"replicas\": 3\n}\n"
        );
    }
}
