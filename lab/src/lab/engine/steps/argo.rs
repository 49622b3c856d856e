//! The plan steps that wait on Argo CD or end its operations: each reads the Application first,
//! then watches it, says what it waits for, and judges from the state now — a failure of an
//! operation long over never fails a wait whose app is Synced and Healthy.

use crate::i18n::Words;
use std::time::Duration;

mod ending;
pub mod last_sync;

use super::{StepResult, blocking};
use crate::cluster::{self, Application, argocd};
use crate::git;
use crate::lab::engine::app_watch::{next_app, watch_app};
use crate::lab::engine::{Runner, StepError, reach};
use crate::lab::eval::evidence;
use crate::lab::spec::Until;
use crate::words;

use crate::lab::short_commit as short;

/// The commit Git's branch is at now for the app's source, read from the lab's bare repo: the
/// truth a wait is judged against. Argo CD's own `status.sync.revision` lags behind a push
/// (until its next refresh, and during an operation), so judged by it a wait right after a
/// push ended at the old commit, and a failure of the commit before the fix read as the fix's.
/// `None` when the source is not a lab repo in the bare dir.
async fn git_target(r: &Runner, app: &Application) -> Option<String> {
    let name = app.source_repo_name()?;
    let revision = app
        .spec
        .source
        .as_ref()
        .map(|s| s.target_revision.trim().to_string())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| "HEAD".to_string());
    let bare = r.paths.bare_repo(&name);
    tokio::task::spawn_blocking(move || {
        let repo = git::open(&bare).ok()?;
        git::resolve(&repo, &revision)
    })
    .await
    .ok()
    .flatten()
}

/// Whether the app is where `until` wants it, judged against `target` (Git's commit now, when
/// known); `Err` when it never will be without help.
fn reached(app: &Application, until: Until, target: Option<&str>) -> Result<bool, StepError> {
    let status = &app.status;
    let git = target.or(app.git_revision());
    // Argo CD has compared the commit Git is at (not one before it).
    let seen = target.is_none() || app.git_revision() == target;
    let on_target = |rev: Option<&str>| git.is_some() && rev == git;
    let state = status.operation_state.clone().unwrap_or_default();
    // The status must describe the spec as it is now (not the one before a re-apply).
    let current = status.sync.compared_to.source == app.spec.source;
    let settled = current
        && seen
        && app.operation.is_none()
        && status.sync.status == "Synced"
        && status.health.status == "Healthy";
    match until {
        Until::OperationFailed => {
            let failing = state.message.contains("Retrying attempt") || state.failed();
            if failing && on_target(app.operation_revision()) {
                return Ok(true);
            }
            // Argo CD compared Git's commit and found nothing to change, and no operation ever
            // ran on it: an app Synced at a commit starts no sync by itself (a hook's change
            // alone does not make it OutOfSync), so no hook runs and nothing will fail.
            if settled && !on_target(app.operation_revision()) {
                return Err(StepError::NothingToSync {
                    app: app.metadata.name.clone(),
                    commit: short(git.unwrap_or_default()).to_string(),
                });
            }
            Ok(false)
        }
        Until::SyncedHealthy | Until::Succeeded => {
            // Where the app is now decides: an old failure does not outlive a settled app.
            if settled && until == Until::SyncedHealthy {
                return Ok(true);
            }
            if settled && state.phase == "Succeeded" && on_target(app.result_revision()) {
                return Ok(true);
            }
            if let Some(c) = status
                .conditions
                .iter()
                .find(|c| c.kind == "ComparisonError")
            {
                return Err(StepError::CannotRender(c.message.clone()));
            }
            if app.operation.is_none()
                && !settled
                && state.failed()
                && on_target(app.operation_revision())
            {
                return Err(StepError::SyncFailed(state.message));
            }
            Ok(false)
        }
    }
}

/// One line saying what the app is waiting on.
async fn blocker_line(r: &Runner, app: &Application, target: Option<&str>) -> Words {
    let status = &app.status;
    if let Some(commit) = target.filter(|t| app.git_revision() != Some(*t))
        && app.operation.is_none()
    {
        return words!("plan-waiting-see-commit", commit = short(commit));
    }
    let message = status
        .operation_state
        .as_ref()
        .map_or("", |s| s.message.as_str());
    if let Some(rest) = message.strip_prefix("waiting for healthy state of ") {
        let first = rest.split(" and ").next().unwrap_or(rest);
        let parts: Vec<&str> = first.split('/').collect();
        if let [group, kind, name] = parts[..] {
            let wave = status
                .resources
                .iter()
                .find(|x| x.kind == kind && x.name == name)
                .and_then(|x| x.sync_wave)
                .unwrap_or(0);
            let ns = &app.spec.destination.namespace;
            if kind == "Deployment" {
                let path = format!("/apis/{group}/v1/namespaces/{ns}/deployments/{name}");
                if let Ok(d) = argocd::raw_get(r.client.clone(), &path).await {
                    let want = d["spec"]["replicas"].as_i64().unwrap_or(1);
                    let have = d["status"]["availableReplicas"].as_i64().unwrap_or(0);
                    return words!(
                        "plan-waiting-deployment",
                        wave = wave.to_string(),
                        name = name,
                        have = have.to_string(),
                        want = want.to_string()
                    );
                }
            }
            return words!(
                "plan-waiting-healthy",
                wave = wave.to_string(),
                kind = kind,
                name = name
            );
        }
    }
    if !message.is_empty() && app.operation.is_some() {
        // Argo CD's own words: "waiting for completion of hook …" needs no second "waiting".
        return if message.starts_with("waiting for ") {
            Words::text(message)
        } else {
            words!("plan-waiting-argo", message = message)
        };
    }
    let or_unknown = |s: &str| {
        if s.is_empty() {
            "Unknown".to_string()
        } else {
            s.to_string()
        }
    };
    words!(
        "plan-waiting-status",
        sync = or_unknown(&status.sync.status),
        health = or_unknown(&status.health.status)
    )
}

pub async fn wait(
    r: &Runner,
    name: &str,
    until: Until,
    blocker: &(dyn Fn(Words) + Sync),
) -> StepResult {
    let deadline = tokio::time::Instant::now() + r.deadline;
    // Read first: an app already where we want it is done at once (argo-cd#12211).
    let mut changes = watch_app(r, name);
    let mut last_line: Option<Words> = None;
    let mut away: Option<crate::cluster::problem::Problem> = None;
    loop {
        let next = tokio::time::timeout_at(deadline, next_app(&mut changes, name)).await;
        let json = match next {
            Err(_) => {
                if let Some(why) = &away {
                    return Err(reach::gave_up(why, r.deadline));
                }
                return Err(StepError::GaveUp {
                    seconds: r.deadline.as_secs(),
                    last: last_line,
                });
            }
            Ok(Ok(None)) => return Err(StepError::WatchEnded),
            Ok(Err(problem)) => {
                let line = if problem.unreachable() {
                    reach::waiting_line(&problem)
                } else {
                    words!("plan-waiting-watch-stopped", why = problem.clone())
                };
                blocker(line);
                away = problem.unreachable().then_some(problem);
                continue;
            }
            Ok(Ok(Some(None))) => {
                away = None;
                blocker(words!("plan-waiting-no-app", app = name));
                continue;
            }
            Ok(Ok(Some(Some(json)))) => json,
        };
        away = None;
        last_sync::remember(&r.paths, &json);
        let app = Application::from_json(&json).unwrap_or_default();
        let target = git_target(r, &app).await;
        if reached(&app, until, target.as_deref())? {
            let status = &app.status;
            return Ok(words!(
                "did-wait",
                app = name,
                sync = status.sync.status.as_str(),
                health = status.health.status.as_str(),
                revision = app.git_revision().map_or("?", short)
            ));
        }
        let line = blocker_line(r, &app, target.as_deref()).await;
        if last_line.as_ref() != Some(&line) {
            blocker(line.clone());
            last_line = Some(line);
        }
    }
}

pub async fn end_blocking(r: &Runner, name: &str, blocker: &(dyn Fn(Words) + Sync)) -> StepResult {
    let repo_dir = r.paths.repo();
    let head = blocking(move || Ok(git::open(&repo_dir).ok().and_then(|repo| git::head(&repo))))
        .await?
        .ok_or(StepError::NoCommit)?;
    let deadline = tokio::time::Instant::now() + r.deadline;
    // First let Argo CD see the new commit.
    let app = loop {
        let app = argocd::application(r.client.clone(), argocd::NAMESPACE, name).await?;
        if app.git_revision() == Some(head.as_str()) {
            break app;
        }
        if tokio::time::Instant::now() > deadline {
            return Err(StepError::NeverSaw {
                app: name.to_string(),
                commit: short(&head).to_string(),
            });
        }
        blocker(words!("plan-waiting-see-commit", commit = short(&head)));
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    match app.running_revision() {
        None => Ok(words!("did-nothing-blocks")),
        Some(rev) if rev == head => Ok(words!("did-already-targets", commit = short(&head))),
        Some(rev) => {
            blocker(words!(
                "plan-ending-blocking",
                retrying = short(rev),
                git = short(&head),
                command = r.fit.terminate_op(name)
            ));
            argocd::terminate_op(r.client.clone(), argocd::NAMESPACE, name).await?;
            Ok(words!(
                "did-end-blocking",
                retrying = short(rev),
                git = short(&head)
            ))
        }
    }
}

/// Ends the app's running operation (as `argocd app terminate-op --core` does) and waits until
/// it reads Failed, so what is recorded next is a finished operation's state.
pub async fn end_operation(r: &Runner, name: &str, blocker: &(dyn Fn(Words) + Sync)) -> StepResult {
    let app = argocd::application(r.client.clone(), argocd::NAMESPACE, name).await?;
    if app.operation.is_none() {
        return Ok(words!(
            "did-no-operation",
            app = name,
            phase = app
                .status
                .operation_state
                .as_ref()
                .map_or("-", |s| s.phase.as_str())
        ));
    }
    argocd::terminate_op(r.client.clone(), argocd::NAMESPACE, name).await?;
    let deadline = tokio::time::Instant::now() + r.deadline;
    loop {
        let app = argocd::application(r.client.clone(), argocd::NAMESPACE, name).await?;
        let state = app.status.operation_state.unwrap_or_default();
        let phase = state.phase.clone();
        if app.operation.is_none() && state.failed() {
            return Ok(words!(
                "did-end-operation",
                phase = phase,
                message = state.message
            ));
        }
        if tokio::time::Instant::now() > deadline {
            return Err(StepError::DidNotEnd {
                app: name.to_string(),
                phase,
            });
        }
        blocker(waiting_to_end(&phase));
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

fn waiting_to_end(phase: &str) -> Words {
    words!("plan-waiting-end", phase = phase)
}

/// Ends the running operation and records `file` as of the moment it reads Failed.
pub async fn end_operation_and_record(
    r: &Runner,
    name: &str,
    file: &str,
    blocker: &(dyn Fn(Words) + Sync),
) -> StepResult {
    let (lesson, spec) = r
        .catalog
        .lesson_for_evidence(file)
        .and_then(|l| Some((l.spec.number, l.spec.evidence.clone()?)))
        .ok_or_else(|| StepError::NoLessonWrites(file.to_string()))?;
    let app_path = format!(
        "{}/{name}",
        crate::cluster::Kind::Application.collection_path(argocd::NAMESPACE)
    );
    // The other objects as they are while the operation still runs.
    let mut known = evidence::Known::new();
    for path in evidence::object_paths(&spec)
        .into_iter()
        .filter(|p| *p != app_path)
    {
        if let Ok(obj) = argocd::raw_get(r.client.clone(), &path).await {
            known.insert(path, obj);
        }
    }
    // Only a failing operation is ended: a sync of the fix that already started is left alone.
    let running_raw = argocd::raw_get(r.client.clone(), &app_path).await?;
    let running = Application::from_json(&running_raw).unwrap_or_default();
    let failing = running.operation_failing();
    let ended_revision = running.operation_revision().map(String::from);
    let saved = ending::Saved::path(&r.paths, file);
    let over = !failing
        && !running
            .status
            .operation_state
            .as_ref()
            .is_some_and(|s| s.failed());
    if over && let Some(value) = ending::record_from_saved(r, &saved, &spec).await? {
        // A run stopped between ending the operation and recording it; the fix has synced
        // since, so the moment is read from what that run saved and the Event of its end.
        return written(r, file, &value, &saved).await;
    }
    // Nothing fails any more and the operation is on the commit Git is at: the failure ended
    // unrecorded (its retries ran out, then the fix synced). Waiting would wait for ever.
    let op_revision = running.operation_revision();
    if over && (op_revision.is_none() || op_revision == running.git_revision()) {
        return Err(StepError::MomentPassed {
            app: name.to_string(),
            revision: op_revision.unwrap_or_default().to_string(),
            lesson,
        });
    }
    // Watch from before the end, so the moment it reads Failed is seen even when a newer commit
    // starts syncing right after (a poll would miss it).
    let mut changes = watch_app(r, name);
    if failing {
        // Saved before the end: once the fix syncs, the failed operation is gone from the app.
        ending::save(&saved, &running_raw, &known)?;
        argocd::terminate_op(r.client.clone(), argocd::NAMESPACE, name).await?;
    }
    let deadline = tokio::time::Instant::now() + r.deadline;
    let ended = loop {
        let event = tokio::time::timeout_at(deadline, next_app(&mut changes, name))
            .await
            .map_err(|_| StepError::DidNotEnd {
                app: name.to_string(),
                phase: "-".into(),
            })?;
        let raw = match event {
            Ok(Some(Some(raw))) => raw,
            Ok(None) => return Err(StepError::WatchEnded),
            Ok(Some(None)) => {
                blocker(words!("plan-waiting-no-app", app = name));
                continue;
            }
            Err(problem) => {
                blocker(reach::waiting_line(&problem));
                continue;
            }
        };
        let app = Application::from_json(&raw).unwrap_or_default();
        let state = app.status.operation_state.clone().unwrap_or_default();
        if state.failed() && app.operation_revision().map(String::from) == ended_revision {
            break raw;
        }
        blocker(waiting_to_end(&state.phase));
    };
    known.insert(app_path, ended);
    let ctx = r.context();
    let value = evidence::capture_as_of(&spec, &ctx, &known).await?;
    written(r, file, &value, &saved).await
}

/// `value` written as the evidence `file`, checked, and the saved moment let go.
async fn written(
    r: &Runner,
    file: &str,
    value: &serde_json::Value,
    saved: &std::path::Path,
) -> StepResult {
    let path = r
        .paths
        .evidence_inside(file)
        .map_err(crate::lab::eval::context::EvidenceError::Outside)?;
    evidence::write(&path, value)?;
    super::written_evidence_passes(r, file).await?;
    let _ = std::fs::remove_file(saved);
    Ok(words!(
        "did-end-and-record",
        path = path.display().to_string(),
        value = value.to_string()
    ))
}

pub async fn hold(
    r: &Runner,
    namespace: &str,
    deployment: &str,
    seconds: u64,
    blocker: &(dyn Fn(Words) + Sync),
) -> StepResult {
    // The scale is dated by the deployment controller's Event, which comes a moment after it.
    let scaled = super::recorded::once_recorded(
        || evidence::scaled_at(&r.client, namespace, deployment),
        super::recorded::PATIENCE,
        &words!("plan-waiting-scale-record", deployment = deployment),
        blocker,
    )
    .await?;
    loop {
        let now = cluster::now(&r.client).await?;
        let left = evidence::seconds_to_go(scaled, seconds, now);
        if left == 0 {
            return Ok(words!(
                "did-hold",
                seconds = now.duration_since(scaled).as_secs().to_string()
            ));
        }
        blocker(words!("plan-waiting-hold", seconds = left.to_string()));
        // The cluster's clock may run faster than ours: look again soon.
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_wait_knows_a_failed_sync_will_not_become_healthy() {
        let app = json!({"status": {"sync": {"status": "OutOfSync", "revision": "abc"}, "health": {"status": "Healthy"},
            "operationState": {"phase": "Failed", "message": "boom", "operation": {"sync": {"revision": "abc"}}, "syncResult": {"revision": "abc"}}}});
        assert_eq!(
            reached(
                &Application::from_json(&app).unwrap(),
                Until::SyncedHealthy,
                None
            )
            .unwrap_err()
            .to_string(),
            "the sync failed: boom"
        );
        let retrying = json!({"operation": {}, "status": {"sync": {"status": "OutOfSync", "revision": "abc"},
            "operationState": {"phase": "Running", "message": "x. Retrying attempt #1 at 3:04PM.", "operation": {"sync": {"revision": "abc"}}}}});
        assert!(
            reached(
                &Application::from_json(&retrying).unwrap(),
                Until::OperationFailed,
                None
            )
            .unwrap()
        );
        let done = json!({"status": {"sync": {"status": "Synced", "revision": "abc", "comparedTo": {"source": null}}, "health": {"status": "Healthy"},
            "operationState": {"phase": "Succeeded", "syncResult": {"revision": "abc"}}}});
        assert!(
            reached(
                &Application::from_json(&done).unwrap(),
                Until::Succeeded,
                None
            )
            .unwrap()
        );
    }

    #[test]
    fn an_old_failure_does_not_fail_a_wait_on_an_app_that_is_synced_and_healthy_now() {
        // The last operation failed on this revision, and the app has since settled (selfHeal
        // or a later refresh): the wait is over, not failed.
        let settled = json!({"status": {"sync": {"status": "Synced", "revision": "abc", "comparedTo": {"source": null}},
            "health": {"status": "Healthy"},
            "operationState": {"phase": "Failed", "message": "an old failure", "operation": {"sync": {"revision": "abc"}}, "syncResult": {"revision": "abc"}}}});
        assert!(
            reached(
                &Application::from_json(&settled).unwrap(),
                Until::SyncedHealthy,
                None
            )
            .unwrap()
        );
    }

    #[test]
    fn a_wait_for_a_failure_ends_at_once_when_argo_cd_has_nothing_to_sync() {
        let app = |sync: &str, revision: &str| {
            Application::from_json(&json!({"metadata": {"name": "src-waves"},
                "status": {"sync": {"status": sync, "revision": revision, "comparedTo": {"source": null}},
                "health": {"status": "Healthy"},
                "operationState": {"phase": "Succeeded", "message": "successfully synced",
                    "operation": {"sync": {"revision": "old1234"}}, "syncResult": {"revision": "old1234"}}}}))
            .unwrap()
        };
        // Not compared yet (still at the old commit), or OutOfSync at the new one: a sync may come.
        assert!(!reached(&app("Synced", "old1234"), Until::OperationFailed, None).unwrap());
        assert!(!reached(&app("OutOfSync", "new5678"), Until::OperationFailed, None).unwrap());
        // Synced at the new commit with no operation on it: Argo CD will run none.
        let said = reached(&app("Synced", "new5678"), Until::OperationFailed, None)
            .unwrap_err()
            .to_string();
        assert!(
            said.starts_with("src-waves is Synced at new5678 and no sync ran on it"),
            "{said}"
        );
        assert!(said.contains("capa-tui do"), "{said}");
    }

    /// Lesson 6 on a real Argo CD: the failing operation on the broken commit was ended, the
    /// fix is already pushed, and Argo CD's status still names the broken commit (it reads Git
    /// again only after the operation). Judged by Argo CD's revision, that ended operation read
    /// as the fix's failure; judged by Git's, the wait goes on until the fix is seen.
    #[test]
    fn a_failure_on_a_commit_git_has_moved_past_fails_no_wait() {
        let ended = Application::from_json(&json!({"status": {
            "sync": {"status": "OutOfSync", "revision": "d74ddc9", "comparedTo": {"source": null}},
            "health": {"status": "Healthy"},
            "operationState": {"phase": "Failed", "message": "Operation terminated (retried 1 times).",
                "operation": {"sync": {"revision": "d74ddc9"}}, "syncResult": {"revision": "d74ddc9"}}}}))
        .unwrap();
        assert!(!reached(&ended, Until::SyncedHealthy, Some("d3cbd37")).unwrap());
        assert!(!reached(&ended, Until::Succeeded, Some("d3cbd37")).unwrap());
        // The same failure on the commit Git is at is a failure.
        assert!(reached(&ended, Until::SyncedHealthy, Some("d74ddc9")).is_err());
    }

    /// A wait right after a push: the app is Synced and Healthy at the commit before it, which
    /// is not the one the plan waits for.
    #[test]
    fn a_wait_after_a_push_waits_for_the_pushed_commit() {
        let before = Application::from_json(&json!({"status": {
            "sync": {"status": "Synced", "revision": "old1234", "comparedTo": {"source": null}},
            "health": {"status": "Healthy"},
            "operationState": {"phase": "Succeeded", "operation": {"sync": {"revision": "old1234"}},
                "syncResult": {"revision": "old1234"}}}}))
        .unwrap();
        assert!(!reached(&before, Until::SyncedHealthy, Some("new5678")).unwrap());
        assert!(reached(&before, Until::SyncedHealthy, Some("old1234")).unwrap());
    }
}
