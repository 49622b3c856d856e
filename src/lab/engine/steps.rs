//! What each plan step does. Every step first reads the current state and skips what is
//! already done; waits read, then watch, then give up at the deadline with what blocked them.

use std::time::Duration;

use kube::api::{Api, DynamicObject, Patch, PatchParams};
use serde_json::Value;

use super::app_watch::{next_app, watch_app};
use super::guard;
use super::reach;
use super::{Runner, StepError};
use crate::cluster::{self, Application, application, argocd};
use crate::git;
use crate::lab::eval::evidence;
use crate::lab::spec::{Step, Until};

/// A step's summary line, or why it could not be done.
type StepResult = Result<String, StepError>;

pub async fn run(r: &Runner, step: &Step, blocker: &(dyn Fn(String) + Sync)) -> StepResult {
    match step {
        Step::CreateBareRepo { repo } => {
            let path = r.paths.bare_repo(repo);
            blocking(move || match git::init_bare(&path) {
                Ok(true) => Ok(format!("created {}", path.display())),
                Ok(false) => Ok(format!("{} is already there", path.display())),
                Err(e) => {
                    Err(format!("{e}. Is the bare dir right (--bare-dir) and writable?").into())
                }
            })
            .await
        }
        Step::Clone { repo } => clone(r, repo).await,
        Step::WriteTemplates { template } => write_templates(r, template).await,
        Step::CommitPush { message } => commit_push(r, message, blocker).await,
        Step::ApplyApp { file } => apply_app(r, file).await,
        Step::HardRefresh { app } => {
            argocd::refresh(r.client.clone(), argocd::NAMESPACE, app, true).await?;
            Ok(format!("asked Argo CD to re-read {app} from Git"))
        }
        Step::Wait { app, until } => wait(r, app, *until, blocker).await,
        Step::EndBlockingOperation { app } => end_blocking(r, app, blocker).await,
        Step::EndOperation { app } => end_operation(r, app, blocker).await,
        Step::EndOperationAndRecord { app, file } => {
            end_operation_and_record(r, app, file, blocker).await
        }
        Step::Scale {
            namespace,
            deployment,
            replicas,
        } => scale(r, namespace, deployment, *replicas).await,
        Step::HoldAfterScale {
            namespace,
            deployment,
            seconds,
        } => hold(r, namespace, deployment, *seconds, blocker).await,
        Step::Evidence { file } => {
            let ctx = evidence::Context {
                client: &r.client,
                catalog: &r.catalog,
                lang: r.lang,
                src_dir: &r.paths.src_dir,
                bare_dir: &r.paths.bare_dir,
            };
            let value = evidence::capture_file(file, &ctx).await?;
            let path = r.paths.evidence(file);
            let backup = evidence::write(&path, &value)?;
            Ok(match backup {
                Some(b) => format!(
                    "wrote {} (your earlier file is kept as {})",
                    path.display(),
                    b.display()
                ),
                None => format!("wrote {}: {}", path.display(), value),
            })
        }
    }
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f)
        .await
        .expect("a blocking lab step panicked")
}

async fn clone(r: &Runner, repo: &str) -> StepResult {
    let (bare, dest) = (r.paths.bare_repo(repo), r.paths.repo());
    blocking(move || {
        if dest.join(".git").exists() {
            let existing = git::open(&dest)?;
            let url = existing.find_remote("origin").ok().and_then(|o| o.url().ok().map(String::from)).unwrap_or_default();
            let wanted = bare.display().to_string();
            if url.trim_end_matches('/') != wanted && !url.ends_with(&format!("/{}", bare.file_name().and_then(|n| n.to_str()).unwrap_or(""))) {
                return Err(format!("{} is a clone of {url}, not of {wanted}: move it aside or pass another --src-dir", dest.display()).into());
            }
            return Ok(format!("{} is already a clone", dest.display()));
        }
        if !bare.join("HEAD").exists() {
            return Err(format!("the bare repo {} does not exist: create it first (git init --bare -b main {})", bare.display(), bare.display()).into());
        }
        // Clone beside the destination and rename it into place: a cancelled or failed clone
        // never leaves half a repository where the next run looks.
        let parent = dest.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
        std::fs::create_dir_all(&parent).map_err(|e| StepError::Lab(format!("cannot create {}: {e}. Is the source dir writable (--src-dir)?", parent.display())))?;
        let tmp = tempfile::Builder::new().prefix(".repo-cloning-").tempdir_in(&parent).map_err(|e| StepError::Lab(format!("cannot write in {}: {e}. Is the source dir writable (--src-dir)?", parent.display())))?;
        let staged = tmp.path().join("repo");
        git::clone(&bare.display().to_string(), &staged)?;
        if let Err(e) = std::fs::rename(&staged, &dest) {
            // Another run finished the same clone first: that one is as good.
            if !dest.join(".git").exists() {
                return Err(format!("cannot move the clone into {}: {e}", dest.display()).into());
            }
        }
        Ok(format!("cloned {} into {}", bare.display(), dest.display()))
    })
    .await
}

async fn write_templates(r: &Runner, template: &str) -> StepResult {
    let files = r.catalog.template_files(template);
    if files.is_empty() {
        return Err(format!("capa-tui has no template {template}").into());
    }
    let (repo_dir, src_dir, catalog) = (r.paths.repo(), r.paths.src_dir.clone(), r.catalog.clone());
    let ours: Vec<(String, String)> = files
        .iter()
        .filter_map(|(p, c)| Some((p.strip_prefix("repo/")?.to_string(), c.to_string())))
        .collect();
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, c)| (p.to_string(), c.to_string()))
        .collect();
    blocking(move || {
        guard::check(&repo_dir, &ours)?;
        let mut written = Vec::new();
        for (path, text) in files {
            let (target, backup_ok) = match path.strip_prefix("repo/") {
                Some(rel) => (repo_dir.join(rel), false),
                None => (src_dir.join(&path), true),
            };
            let existing = std::fs::read_to_string(&target).ok();
            if existing.as_deref() == Some(text.as_str()) {
                continue;
            }
            // A file capa-tui itself wrote for an earlier lesson is replaced; anything else is
            // the learner's and is kept as a backup.
            let ours = existing
                .as_deref()
                .is_some_and(|e| catalog.any_template_has(&path, e));
            let written_file = if ours {
                crate::lab::files::write_atomic(&target, &text).map(|()| None)
            } else {
                crate::lab::files::write_keeping_backup(&target, &text)
            };
            let backup = written_file
                .map_err(|e| StepError::Lab(format!("cannot write {}: {e}", target.display())))?;
            if let Some(b) = backup.filter(|_| backup_ok) {
                written.push(format!("{path} (yours kept as {})", b.display()));
            } else {
                written.push(path);
            }
        }
        Ok(if written.is_empty() {
            "the files are already there".to_string()
        } else {
            format!("wrote {}", written.join(", "))
        })
    })
    .await
}

async fn commit_push(r: &Runner, message: &str, blocker: &(dyn Fn(String) + Sync)) -> StepResult {
    let (repo_dir, message) = (r.paths.repo(), message.to_string());
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let work = blocking(move || {
        let repo = git::open(&repo_dir)?;
        let sig = git2::Signature::now(guard::AUTHOR, "capa-tui@localhost")?;
        let commit = git::commit_all(&repo, &message, &sig)?;
        let pending = git::pending(&repo, "main")?;
        if pending.unpushed > 0 {
            git::push(&repo, "main", |p| {
                let _ = tx.send(format!(
                    "pushing: {}/{} objects, {} bytes",
                    p.current, p.total, p.bytes
                ));
            })?;
        }
        let head = git::head(&repo).unwrap_or_default();
        Ok::<_, StepError>(match commit {
            Some(sha) => format!("committed {} and pushed", &sha[..7]),
            None => format!(
                "nothing new to commit; {} is pushed",
                &head[..head.len().min(7)]
            ),
        })
    });
    tokio::pin!(work);
    loop {
        tokio::select! {
            done = &mut work => return done,
            Some(line) = rx.recv() => blocker(line),
        }
    }
}

fn applications(r: &Runner) -> Api<DynamicObject> {
    application::api(r.client.clone(), argocd::NAMESPACE)
}

async fn apply_app(r: &Runner, file: &str) -> StepResult {
    let path = r.paths.src_dir.join(file);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| StepError::Lab(format!("cannot read {}: {e}", path.display())))?;
    let obj: Value = serde_saphyr::from_str(&text)
        .map_err(|e| StepError::Lab(format!("{} is not valid YAML: {e}", path.display())))?;
    let name = obj["metadata"]["name"]
        .as_str()
        .ok_or_else(|| format!("{} has no metadata.name", path.display()))?
        .to_string();
    let params = PatchParams::apply("capa-tui").force();
    applications(r)
        .patch(&name, &params, &Patch::Apply(&obj))
        .await
        .map_err(cluster::explain)?;
    Ok(format!(
        "applied Application {name} from {}",
        path.display()
    ))
}

/// Whether the app is where `until` wants it; `Err` when it never will be without help.
fn reached(app: &Application, until: Until) -> Result<bool, String> {
    let status = &app.status;
    let git = app.git_revision();
    let on_target = |rev: Option<&str>| git.is_some() && rev == git;
    let state = status.operation_state.clone().unwrap_or_default();
    // The status must describe the spec as it is now (not the one before a re-apply).
    let current = status.sync.compared_to.source == app.spec.source;
    let settled = current
        && app.operation.is_none()
        && status.sync.status == "Synced"
        && status.health.status == "Healthy";
    match until {
        Until::OperationFailed => {
            let failing = state.message.contains("Retrying attempt") || state.failed();
            Ok(failing && on_target(app.operation_revision()))
        }
        Until::SyncedHealthy | Until::Succeeded => {
            if app.operation.is_none() && state.failed() && on_target(app.synced_revision()) {
                return Err(format!("the sync failed: {}", state.message));
            }
            if let Some(c) = status
                .conditions
                .iter()
                .find(|c| c.kind == "ComparisonError")
            {
                return Err(format!("Argo CD cannot render the app: {}", c.message));
            }
            if until == Until::Succeeded {
                return Ok(settled
                    && state.phase == "Succeeded"
                    && on_target(app.synced_revision()));
            }
            Ok(settled)
        }
    }
}

/// One line saying what the app is waiting on.
async fn blocker_line(r: &Runner, app: &Application) -> String {
    let status = &app.status;
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
                    return format!(
                        "waiting: wave {wave} · Deployment/{name} {have}/{want} available"
                    );
                }
            }
            return format!("waiting: wave {wave} · {kind}/{name} to become healthy");
        }
    }
    if !message.is_empty() && app.operation.is_some() {
        // Argo CD's own "waiting for completion of hook …" needs no second "waiting".
        return if message.starts_with("waiting for ") {
            message.to_string()
        } else {
            format!("waiting: {message}")
        };
    }
    let or_unknown = |s: &str| {
        if s.is_empty() {
            "Unknown".to_string()
        } else {
            s.to_string()
        }
    };
    format!(
        "waiting: sync {} · health {}",
        or_unknown(&status.sync.status),
        or_unknown(&status.health.status)
    )
}

async fn wait(
    r: &Runner,
    name: &str,
    until: Until,
    blocker: &(dyn Fn(String) + Sync),
) -> StepResult {
    let deadline = tokio::time::Instant::now() + r.deadline;
    // Read first: an app already where we want it is done at once (argo-cd#12211).
    let mut changes = watch_app(r, name);
    let mut last_line = String::new();
    let mut away: Option<String> = None;
    loop {
        let next = tokio::time::timeout_at(deadline, next_app(&mut changes, name)).await;
        let json = match next {
            Err(_) => {
                if let Some(why) = &away {
                    return Err(reach::gave_up(why, r.deadline));
                }
                return Err(
                    format!("gave up after {:?}; last seen: {last_line}", r.deadline).into(),
                );
            }
            Ok(Ok(None)) => {
                return Err(StepError::Lab("the watch on the Application ended".into()));
            }
            Ok(Err(problem)) => {
                let line = if problem.unreachable() {
                    reach::waiting_line(&problem.to_string())
                } else {
                    format!("waiting: the watch on the Application stopped ({problem}); re-reading")
                };
                blocker(line);
                away = problem.unreachable().then(|| problem.to_string());
                continue;
            }
            Ok(Ok(Some(None))) => {
                away = None;
                blocker(format!("waiting: Application {name} does not exist yet"));
                continue;
            }
            Ok(Ok(Some(Some(json)))) => json,
        };
        away = None;
        let app = Application::from_json(&json).unwrap_or_default();
        if reached(&app, until)? {
            let status = &app.status;
            return Ok(format!(
                "{name}: {} · {} · revision {}",
                status.sync.status,
                status.health.status,
                app.git_revision().map_or("?", |s| &s[..s.len().min(7)])
            ));
        }
        let line = blocker_line(r, &app).await;
        if line != last_line {
            blocker(line.clone());
            last_line = line;
        }
    }
}

async fn end_blocking(r: &Runner, name: &str, blocker: &(dyn Fn(String) + Sync)) -> StepResult {
    let repo_dir = r.paths.repo();
    let head = blocking(move || git::open(&repo_dir).ok().and_then(|repo| git::head(&repo)))
        .await
        .ok_or_else(|| StepError::Lab("the working copy has no commit".into()))?;
    let deadline = tokio::time::Instant::now() + r.deadline;
    // First let Argo CD see the new commit.
    let app = loop {
        let app = argocd::application(r.client.clone(), argocd::NAMESPACE, name).await?;
        if app.git_revision() == Some(head.as_str()) {
            break app;
        }
        if tokio::time::Instant::now() > deadline {
            return Err(format!(
                "Argo CD never saw commit {} on {name}: hard-refresh it",
                &head[..7]
            )
            .into());
        }
        blocker(format!("waiting: Argo CD to see commit {}", &head[..7]));
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    match app.running_revision() {
        None => Ok("no operation was running; nothing blocks the new commit".into()),
        Some(rev) if rev == head => Ok(format!(
            "the running operation already targets {}",
            &head[..7]
        )),
        Some(rev) => {
            blocker(format!(
                "an operation is still retrying {} while Git is at {}: ending it (argocd app terminate-op --core)",
                &rev[..rev.len().min(7)],
                &head[..7]
            ));
            argocd::terminate_op(r.client.clone(), argocd::NAMESPACE, name).await?;
            Ok(format!(
                "ended the operation retrying {}; automated sync can now pick up {}",
                &rev[..rev.len().min(7)],
                &head[..7]
            ))
        }
    }
}

/// Ends the app's running operation (as `argocd app terminate-op --core` does) and waits until
/// it reads Failed, so what is recorded next is a finished operation's state.
async fn end_operation(r: &Runner, name: &str, blocker: &(dyn Fn(String) + Sync)) -> StepResult {
    let app = argocd::application(r.client.clone(), argocd::NAMESPACE, name).await?;
    if app.operation.is_none() {
        return Ok(format!(
            "{name} has no running operation (phase {})",
            app.status
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
            return Ok(format!("ended: phase {phase} · {}", state.message));
        }
        if tokio::time::Instant::now() > deadline {
            return Err(format!("the operation of {name} did not end; phase is {phase}").into());
        }
        blocker(format!("waiting: the operation to end (phase {phase})"));
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// Ends the running operation and records `file` as of the moment it reads Failed.
async fn end_operation_and_record(
    r: &Runner,
    name: &str,
    file: &str,
    blocker: &(dyn Fn(String) + Sync),
) -> StepResult {
    let spec = r
        .catalog
        .lesson_for_evidence(file)
        .and_then(|l| l.spec.evidence.clone())
        .ok_or_else(|| StepError::Lab(format!("no lesson writes {file}")))?;
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
    let running = argocd::application(r.client.clone(), argocd::NAMESPACE, name).await?;
    let failing = running
        .status
        .operation_state
        .as_ref()
        .is_some_and(|o| o.failed() || o.message.contains("Retrying attempt"));
    let ended_revision = running.operation_revision().map(String::from);
    // Watch from before the end, so the moment it reads Failed is seen even when a newer commit
    // starts syncing right after (a poll would miss it).
    let mut changes = watch_app(r, name);
    if running.operation.is_some() && failing {
        argocd::terminate_op(r.client.clone(), argocd::NAMESPACE, name).await?;
    }
    let deadline = tokio::time::Instant::now() + r.deadline;
    let ended = loop {
        let event = tokio::time::timeout_at(deadline, next_app(&mut changes, name))
            .await
            .map_err(|_| StepError::Lab(format!("the operation of {name} did not end in time")))?;
        let raw = match event {
            Ok(Some(Some(raw))) => raw,
            Ok(None) => return Err(StepError::Lab("the watch on the Application ended".into())),
            Ok(Some(None)) => {
                blocker(format!("waiting: Application {name} does not exist"));
                continue;
            }
            Err(problem) => {
                blocker(reach::waiting_line(&problem.to_string()));
                continue;
            }
        };
        let app = Application::from_json(&raw).unwrap_or_default();
        let state = app.status.operation_state.clone().unwrap_or_default();
        if state.failed() && app.operation_revision().map(String::from) == ended_revision {
            break raw;
        }
        blocker(format!(
            "waiting: the operation to end (phase {})",
            state.phase
        ));
    };
    known.insert(app_path, ended);
    let ctx = evidence::Context {
        client: &r.client,
        catalog: &r.catalog,
        lang: r.lang,
        src_dir: &r.paths.src_dir,
        bare_dir: &r.paths.bare_dir,
    };
    let value = evidence::capture_as_of(&spec, &ctx, &known).await?;
    let path = r.paths.evidence(file);
    evidence::write(&path, &value)?;
    Ok(format!(
        "ended the operation; wrote {}: {value}",
        path.display()
    ))
}

/// `kubectl scale`, as the lab says: the managedFields entry it leaves names `kubectl`, which
/// lesson 8 asks about, so there is no fallback through the API.
async fn scale(r: &Runner, namespace: &str, deployment: &str, replicas: i32) -> StepResult {
    let kubectl = which("kubectl").ok_or_else(|| {
        StepError::Lab(
            "kubectl is not on PATH. This step must run `kubectl scale` (the lab asks for it, and lesson 8 asks which manager owns spec.replicas): install kubectl or put it on PATH (scripts/install-tools puts one in .tools/bin: export PATH=\"$PWD/.tools/bin:$PATH\"), then run this step again".into(),
        )
    })?;
    let mut cmd = tokio::process::Command::new(kubectl);
    if let Some(k) = &r.kubeconfig {
        cmd.arg("--kubeconfig").arg(k);
    }
    if let Some(c) = &r.context {
        cmd.args(["--context", c]);
    }
    let out = cmd
        .args([
            "-n",
            namespace,
            "scale",
            &format!("deploy/{deployment}"),
            &format!("--replicas={replicas}"),
        ])
        .output()
        .await
        .map_err(|e| StepError::Lab(format!("cannot run kubectl: {e}")))?;
    if !out.status.success() {
        return Err(format!(
            "kubectl scale failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )
        .into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

async fn hold(
    r: &Runner,
    namespace: &str,
    deployment: &str,
    seconds: u64,
    blocker: &(dyn Fn(String) + Sync),
) -> StepResult {
    let scaled = evidence::scaled_at(&r.client, namespace, deployment).await?;
    let until = scaled + Duration::from_secs(seconds);
    loop {
        let now = cluster::now(&r.client).await?;
        if now >= until {
            return Ok(format!(
                "{} s have passed since the scale",
                now.duration_since(scaled).as_secs()
            ));
        }
        let left = until.duration_since(now).as_secs();
        blocker(format!(
            "waiting: {left} s to go (selfHeal would revert replicas in that time if ignoreDifferences did not hold)"
        ));
        // The cluster's clock may run faster than ours: look again soon.
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

fn which(tool: &str) -> Option<std::path::PathBuf> {
    which::which(tool).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_wait_knows_a_failed_sync_will_not_become_healthy() {
        let app = json!({"status": {"sync": {"status": "OutOfSync", "revision": "abc"}, "health": {"status": "Healthy"},
            "operationState": {"phase": "Failed", "message": "boom", "syncResult": {"revision": "abc"}}}});
        assert_eq!(
            reached(&Application::from_json(&app).unwrap(), Until::SyncedHealthy).unwrap_err(),
            "the sync failed: boom"
        );
        let retrying = json!({"operation": {}, "status": {"sync": {"status": "OutOfSync", "revision": "abc"},
            "operationState": {"phase": "Running", "message": "x. Retrying attempt #1 at 3:04PM.", "operation": {"sync": {"revision": "abc"}}}}});
        assert!(
            reached(
                &Application::from_json(&retrying).unwrap(),
                Until::OperationFailed
            )
            .unwrap()
        );
        let done = json!({"status": {"sync": {"status": "Synced", "revision": "abc", "comparedTo": {"source": null}}, "health": {"status": "Healthy"},
            "operationState": {"phase": "Succeeded", "syncResult": {"revision": "abc"}}}});
        assert!(reached(&Application::from_json(&done).unwrap(), Until::Succeeded).unwrap());
    }
}
