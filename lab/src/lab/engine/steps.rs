//! What each plan step does. Every step first reads the current state and skips what is
//! already done; waits read, then watch, then give up at the deadline with what blocked them.
//! This file holds the steps on the learner's folders (git, files, kubectl); `steps/argo.rs`
//! the ones that wait on or end Argo CD's operations. What a step says comes through the
//! strings layer, in the runner's language.

mod argo;
mod recorded;
mod refreshed;

use crate::i18n::Words;
use kube::api::{Api, DynamicObject, Patch, PatchParams};
use serde_json::Value;

use super::guard;
use super::{Runner, StepError};
use crate::cluster::{self, application, argocd};
use crate::git;
use crate::lab::eval::evidence;
use crate::lab::spec::Step;
use crate::words;

/// A step's summary line, or why it could not be done.
type StepResult = Result<Words, StepError>;

pub async fn run(r: &Runner, step: &Step, blocker: &(dyn Fn(Words) + Sync)) -> StepResult {
    match step {
        Step::CreateBareRepo { repo } => {
            let path = r.paths.bare_repo(repo);
            blocking(move || match git::init_bare(&path) {
                Ok(true) => Ok(words!("did-create-bare", path = path.display().to_string())),
                Ok(false) => Ok(words!("did-bare-there", path = path.display().to_string())),
                Err(e) => Err(StepError::BareDir { why: Words::of(e) }),
            })
            .await
        }
        Step::Clone { repo } => clone(r, repo).await,
        Step::WriteTemplates { template } => write_templates(r, template).await,
        Step::CommitPush { message } => commit_push(r, message.get(r.commit_lang), blocker).await,
        Step::ApplyApp { file } => apply_app(r, file).await,
        Step::HardRefresh { app } => refreshed::hard_refresh(r, app, blocker).await,
        Step::Wait { app, until } => argo::wait(r, app, *until, blocker).await,
        Step::EndBlockingOperation { app } => argo::end_blocking(r, app, blocker).await,
        Step::EndOperation { app } => argo::end_operation(r, app, blocker).await,
        Step::EndOperationAndRecord { app, file } => {
            argo::end_operation_and_record(r, app, file, blocker).await
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
        } => argo::hold(r, namespace, deployment, *seconds, blocker).await,
        Step::RemoveFiles { paths } => remove_files(r, paths).await,
        Step::Evidence { file, fields } => {
            let ctx = r.context();
            let value = evidence_as_synced(r, (file, fields), &ctx).await?;
            if !fields.is_empty() {
                let (said, whole) = record_fields(r, file, fields, &value)?;
                if whole {
                    written_evidence_passes(r, file).await?;
                }
                return Ok(said);
            }
            // Never written through a link that leads out of the lab (reliability-4 D5).
            let path = r
                .paths
                .evidence_inside(file)
                .map_err(crate::lab::eval::context::EvidenceError::Outside)?;
            let backup = evidence::write(&path, &value)?;
            written_evidence_passes(r, file).await?;
            Ok(match backup {
                Some(b) => words!(
                    "did-write-evidence-kept",
                    path = path.display().to_string(),
                    backup = b.display().to_string()
                ),
                None => words!(
                    "did-write-evidence",
                    path = path.display().to_string(),
                    value = value.to_string()
                ),
            })
        }
    }
}

/// Writes `fields` of `value` into the evidence file beside what it already holds: the other
/// fields are recorded at another moment of the lesson, so the file is checked only once it
/// holds every field the lesson names (the second value says whether it does).
fn record_fields(
    r: &Runner,
    file: &str,
    fields: &[String],
    value: &Value,
) -> Result<(Words, bool), StepError> {
    let path = r
        .paths
        .evidence_inside(file)
        .map_err(crate::lab::eval::context::EvidenceError::Outside)?;
    let mut doc = crate::lab::files::read_text(&path, crate::lab::files::MAX_LEARNER_FILE)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
    let mut now = serde_json::Map::new();
    for f in fields {
        now.insert(f.clone(), value[f.as_str()].clone());
        doc[f.as_str()] = value[f.as_str()].clone();
    }
    evidence::write(&path, &doc)?;
    let whole = r
        .catalog
        .lesson_for_evidence(file)
        .and_then(|l| l.spec.evidence.as_ref())
        .is_some_and(|spec| spec.fields.iter().all(|f| doc.get(&f.name).is_some()));
    let said = words!(
        "did-write-evidence",
        path = path.display().to_string(),
        value = Value::Object(now).to_string()
    );
    Ok((said, whole))
}

/// Removes files from the working copy for the next commit. Only a file Git or a template
/// holds as it is goes: a change the learner made and did not commit stops the step instead.
async fn remove_files(r: &Runner, paths: &[String]) -> StepResult {
    let (repo_dir, catalog, paths) = (r.paths.repo(), r.catalog.clone(), paths.to_vec());
    blocking(move || {
        let repo = git::open(&repo_dir)?;
        let mut removed = Vec::new();
        for rel in paths {
            let target = repo_dir.join(&rel);
            if !crate::lab::paths::stays_inside(&rel) {
                return Err(StepError::WouldLoseChanges { path: target });
            }
            let Ok(bytes) =
                crate::lab::files::read_bounded(&target, crate::lab::files::MAX_LEARNER_FILE)
            else {
                continue;
            };
            let committed = git::file_at(&repo, "HEAD", &rel);
            let kept_elsewhere = committed.as_deref().map(str::as_bytes) == Some(&bytes[..])
                || std::str::from_utf8(&bytes)
                    .is_ok_and(|t| catalog.any_template_has(&format!("repo/{rel}"), t));
            if !kept_elsewhere {
                return Err(StepError::WouldLoseChanges { path: target });
            }
            std::fs::remove_file(&target).map_err(|source| StepError::CannotWrite {
                path: target.clone(),
                source,
            })?;
            removed.push(rel);
        }
        Ok(if removed.is_empty() {
            words!("did-remove-none")
        } else {
            words!("did-remove-files", paths = removed.join(" "))
        })
    })
    .await
}

/// A plan never says done while the evidence it wrote fails its own check: the file is kept
/// (the learner may want to read it), and the step fails with the check's first finding.
pub async fn written_evidence_passes(r: &Runner, file: &str) -> Result<(), StepError> {
    let Some(lesson) = r.catalog.lesson_for_evidence(file) else {
        return Ok(());
    };
    let Some(spec) = &lesson.spec.evidence else {
        return Ok(());
    };
    let failed: Vec<_> = crate::lab::eval::check::evidence_findings(spec, &r.context())
        .await
        .into_iter()
        .filter(|f| !f.ok)
        .collect();
    match failed.first() {
        None => Ok(()),
        Some(first) => Err(StepError::EvidenceFails {
            file: file.to_string(),
            lesson: lesson.spec.number,
            what: first.what.clone(),
            help: first.help.clone(),
            more: failed.len() - 1,
        }),
    }
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StepError> + Send + 'static,
) -> Result<T, StepError> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(StepError::CannotRunKubectl(e.to_string())))
}

async fn clone(r: &Runner, repo: &str) -> StepResult {
    let (bare, dest) = (r.paths.bare_repo(repo), r.paths.repo());
    blocking(move || {
        if dest.join(".git").exists() {
            let existing = git::open(&dest)?;
            let url = existing
                .find_remote("origin")
                .ok()
                .and_then(|o| o.url().ok().map(String::from))
                .unwrap_or_default();
            let wanted = bare.display().to_string();
            let name = bare.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if url.trim_end_matches('/') != wanted && !url.ends_with(&format!("/{name}")) {
                return Err(StepError::CloneOfOther { dest, url, wanted });
            }
            // An older lab's clone, or the learner's own: plain `git push` must work there too.
            git::track_origin(&existing)?;
            return Ok(words!("did-clone-there", dest = dest.display().to_string()));
        }
        if !bare.join("HEAD").exists() {
            return Err(StepError::NoBareRepo { bare });
        }
        // Clone beside the destination and rename it into place: a cancelled or failed clone
        // never leaves half a repository where the next run looks.
        let parent = dest
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
        let cannot = |source: std::io::Error| StepError::CannotWriteIn {
            path: parent.clone(),
            source,
        };
        std::fs::create_dir_all(&parent).map_err(cannot)?;
        let tmp = tempfile::Builder::new()
            .prefix(".repo-cloning-")
            .tempdir_in(&parent)
            .map_err(cannot)?;
        let staged = tmp.path().join("repo");
        git::clone(&bare.display().to_string(), &staged)?;
        if let Err(source) = std::fs::rename(&staged, &dest) {
            // Another run finished the same clone first: that one is as good.
            if !dest.join(".git").exists() {
                return Err(StepError::CannotMoveClone { dest, source });
            }
        }
        Ok(words!(
            "did-clone",
            bare = bare.display().to_string(),
            dest = dest.display().to_string()
        ))
    })
    .await
}

async fn write_templates(r: &Runner, template: &str) -> StepResult {
    let files = r.catalog.template_files(template);
    if files.is_empty() {
        return Err(StepError::NoTemplate(template.to_string()));
    }
    let (repo_dir, src_dir, catalog) = (r.paths.repo(), r.paths.src_dir.clone(), r.catalog.clone());
    // The lesson that makes the working copy, named when there is none.
    let clones = catalog
        .lessons()
        .iter()
        .find(|l| {
            l.spec
                .actions
                .iter()
                .any(|a| matches!(a.step, Step::Clone { .. }))
        })
        .map(|l| l.id());
    let ours: Vec<(String, String)> = files
        .iter()
        .filter_map(|(p, c)| Some((p.strip_prefix("repo/")?.to_string(), c.to_string())))
        .collect();
    blocking(move || {
        let written_by_us = |path: &str, text: &str| catalog.any_template_has(path, text);
        let removed_by_us = |path: &str| {
            catalog.lessons().iter().any(|l| {
                l.spec.actions.iter().any(
                    |a| matches!(&a.step, Step::RemoveFiles { paths } if paths.iter().any(|p| p == path)),
                )
            })
        };
        let by_us = guard::ByUs {
            written: &written_by_us,
            removed: &removed_by_us,
        };
        guard::check(&repo_dir, &ours, clones, &by_us)?;
        let mut written = Vec::new();
        for (path, text) in files {
            let (target, backup_ok) = match path.strip_prefix("repo/") {
                Some(rel) => (repo_dir.join(rel), false),
                None => (src_dir.join(&path), true),
            };
            // Bytes, not text: a file that is not UTF-8 is still the learner's (reliability-4
            // D4); one too big to read is the learner's and is kept by the backup below.
            let existing =
                crate::lab::files::read_bounded(&target, crate::lab::files::MAX_LEARNER_FILE).ok();
            if existing.as_deref() == Some(text.as_bytes()) {
                continue;
            }
            // A file capa-tui itself wrote for an earlier lesson is replaced; anything else is
            // the learner's and is kept as a backup.
            let ours = existing
                .as_deref()
                .and_then(|e| std::str::from_utf8(e).ok())
                .is_some_and(|e| catalog.any_template_has(&path, e));
            let written_file = if ours {
                crate::lab::files::write_atomic(&target, &text).map(|()| None)
            } else {
                crate::lab::files::write_keeping_backup(&target, &text)
            };
            let backup = written_file.map_err(|source| StepError::CannotWrite {
                path: target.clone(),
                source,
            })?;
            if let Some(b) = backup.filter(|_| backup_ok) {
                written.push(words!(
                    "did-write-kept",
                    path = path.as_str(),
                    backup = b.display().to_string()
                ));
            } else {
                written.push(Words::text(path));
            }
        }
        Ok(if written.is_empty() {
            words!("did-files-there")
        } else {
            words!("did-write-files", files = Listed(written))
        })
    })
    .await
}

async fn commit_push(r: &Runner, message: &str, blocker: &(dyn Fn(Words) + Sync)) -> StepResult {
    let (repo_dir, message) = (r.paths.repo(), message.to_string());
    // Dated on the cluster's clock, as a commit made in the lab's shell is (libfaketime): a
    // checklist that ticks "pushed" at the commit's time shows one clock under --speed.
    let when = crate::cluster::now(&r.client).await.ok();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Words>();
    let work = blocking(move || {
        let repo = git::open(&repo_dir)?;
        git::track_origin(&repo)?;
        let at = when.map(|t| t.as_second());
        let sig = git::signature(guard::AUTHOR, "capa-tui@localhost", at)?;
        let commit = git::commit_all(&repo, &message, &sig)?;
        let pending = git::pending(&repo, "main")?;
        if pending.unpushed > 0 {
            git::push(&repo, "main", |p| {
                let _ = tx.send(words!(
                    "plan-pushing",
                    current = p.current.to_string(),
                    total = p.total.to_string(),
                    bytes = p.bytes.to_string()
                ));
            })?;
        }
        let head = git::head(&repo).unwrap_or_default();
        Ok(match commit {
            Some(sha) => words!("did-commit-push", commit = sha[..7].to_string()),
            None => words!(
                "did-nothing-to-commit",
                commit = head[..head.len().min(7)].to_string()
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
    let text = std::fs::read_to_string(&path).map_err(|source| StepError::CannotRead {
        path: path.clone(),
        source,
    })?;
    let obj: Value = serde_saphyr::from_str(&text).map_err(|e| StepError::NotYaml {
        path: path.clone(),
        source: Box::new(e),
    })?;
    let name = obj["metadata"]["name"]
        .as_str()
        .ok_or_else(|| StepError::NoName(path.clone()))?
        .to_string();
    let params = PatchParams::apply("capa-tui").force();
    applications(r)
        .patch(&name, &params, &Patch::Apply(&obj))
        .await
        .map_err(cluster::explain)?;
    Ok(words!(
        "did-apply",
        app = name,
        path = path.display().to_string()
    ))
}

/// `kubectl scale`, as the lab says: the managedFields entry it leaves names `kubectl`, which
/// lesson 8 asks about, so there is no fallback through the API.
async fn scale(r: &Runner, namespace: &str, deployment: &str, replicas: i32) -> StepResult {
    let kubectl = which::which("kubectl").map_err(|_| StepError::NoKubectl)?;
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
        .map_err(|e| StepError::CannotRunKubectl(e.to_string()))?;
    if !out.status.success() {
        return Err(StepError::KubectlFailed(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    // kubectl's own words: `deployment.apps/prod-api scaled`.
    Ok(Words::text(String::from_utf8_lossy(&out.stdout).trim()))
}

/// Evidence `file` read from the cluster, with each Application it reads as its last full sync
/// ended when a self-heal has replaced that operation since (`argo::last_sync`).
async fn evidence_as_synced(
    r: &Runner,
    (file, only): (&str, &[String]),
    ctx: &crate::lab::eval::context::Context<'_>,
) -> Result<serde_json::Value, StepError> {
    let Some(whole) = r
        .catalog
        .lesson_for_evidence(file)
        .and_then(|l| l.spec.evidence.as_ref())
    else {
        return Ok(evidence::capture_file(file, ctx).await?);
    };
    // Fields recorded at another moment are not read now: the object they read may not be
    // there yet, or any more.
    let mut spec = whole.clone();
    if !only.is_empty() {
        spec.fields.retain(|f| only.contains(&f.name));
    }
    let spec = &spec;
    let mut known = evidence::Known::new();
    for path in evidence::object_paths(spec) {
        let Some(name) = path.strip_prefix(&format!(
            "{}/",
            crate::cluster::Kind::Application.collection_path(crate::cluster::argocd::NAMESPACE)
        )) else {
            continue;
        };
        if let Ok(live) = crate::cluster::argocd::raw_get(r.client.clone(), &path).await {
            known.extend(argo::last_sync::known_for(&r.paths, name, &live, &path));
        }
    }
    Ok(evidence::capture_as_of(spec, ctx, &known).await?)
}

/// Words said one after another, comma-separated, in the language they are drawn in.
#[derive(Debug)]
struct Listed(Vec<Words>);

impl crate::i18n::Say for Listed {
    fn say(&self, lang: crate::i18n::Lang) -> String {
        self.0
            .iter()
            .map(|w| w.say(lang))
            .collect::<Vec<_>>()
            .join(", ")
    }
}
