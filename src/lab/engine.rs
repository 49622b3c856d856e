//! Runs a lesson's plan: one step at a time, progress sent as data (for the tutor and the CLI
//! alike), cancellable between and inside steps, and safe to re-run — a step that is already
//! done is recognised and skipped, so a re-run after a cancel or failure makes no duplicate
//! commits or objects. The learner's work is never overwritten.

mod app_watch;
mod by_hand;
mod error;
mod guard;
mod reach;
mod steps;

pub use error::StepError;

use std::time::Duration;

use tokio::sync::{mpsc, watch};

use super::catalog::{Catalog, Lesson};
use super::fit::Fit;
use super::paths::LabPaths;
use super::spec::{LessonId, Step};

/// Progress, as the tutor and the CLI show it.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    Started {
        step: usize,
        title: String,
        command: String,
    },
    /// What the step is waiting on or doing right now (`waiting: wave 0 · Deployment/app 0/1 available`).
    Blocker {
        step: usize,
        line: String,
    },
    Done {
        step: usize,
        summary: String,
    },
    Failed {
        step: usize,
        error: String,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("cancelled during step {step}; run the lesson again to finish it")]
    Cancelled { step: usize },
    #[error("step {step} ({title}) failed: {source}")]
    Step {
        step: usize,
        title: String,
        source: StepError,
    },
    #[error("{0}")]
    Plan(String),
}

/// What a run needs.
#[derive(Clone)]
pub struct Runner {
    pub client: kube::Client,
    /// The lessons (a step reads the templates and evidence specs they name).
    pub catalog: std::sync::Arc<Catalog>,
    pub paths: LabPaths,
    /// Passed to kubectl when the plan shells out to it.
    pub kubeconfig: Option<std::path::PathBuf>,
    pub context: Option<String>,
    /// The longest any wait may take (real time).
    pub deadline: Duration,
    /// How commands are shown where the learner is.
    pub fit: Fit,
    /// The language progress and errors are told in.
    pub lang: crate::i18n::Lang,
}

/// Where a lesson's completed steps are recorded, so a re-run after a cancel or a failure
/// resumes after them instead of repeating them (lesson 6 must not re-commit the broken
/// migration after its fix).
fn checkpoint_file(src_dir: &std::path::Path) -> std::path::PathBuf {
    src_dir.join(".capa-tui").join("progress.json")
}

fn read_checkpoint(src_dir: &std::path::Path, lesson: LessonId) -> usize {
    std::fs::read_to_string(checkpoint_file(src_dir))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v[lesson.to_string()].as_u64())
        .unwrap_or(0) as usize
}

fn write_checkpoint(src_dir: &std::path::Path, lesson: LessonId, done: Option<usize>) {
    let path = checkpoint_file(src_dir);
    let mut v = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .filter(serde_json::Value::is_object)
        .unwrap_or_else(|| serde_json::json!({}));
    match done {
        Some(n) => v[lesson.to_string()] = serde_json::json!(n),
        None => {
            if let Some(o) = v.as_object_mut() {
                o.remove(&lesson.to_string());
            }
        }
    }
    if let Err(e) = super::files::write_atomic(&path, &v.to_string()) {
        tracing::warn!("cannot record lesson progress in {}: {e}", path.display());
    }
}

/// The plan of a lesson, from its `lesson.yaml` (already parsed and typed when it loaded).
pub fn plan(lesson: &Lesson) -> Result<Vec<Step>, RunError> {
    if lesson.spec.actions.is_empty() {
        return Err(RunError::Plan(format!(
            "lesson {} has no actions in its lesson.yaml",
            lesson.folder
        )));
    }
    Ok(lesson.spec.actions.iter().map(|a| a.step.clone()).collect())
}

impl Runner {
    /// Runs lesson `lesson`'s `steps`, sending progress; stops at the first failure or when
    /// `cancel` turns true. Steps an interrupted earlier run completed are not repeated.
    pub async fn run(
        &self,
        lesson: LessonId,
        steps: &[Step],
        progress: mpsc::UnboundedSender<Progress>,
        cancel: watch::Receiver<bool>,
    ) -> Result<(), RunError> {
        self.run_through(lesson, steps, steps.len(), progress, cancel)
            .await
    }

    /// Runs the plan's steps up to (not including) `end`, after those an earlier run did: one
    /// at a time in step mode. The plan counts as finished once its last step is done.
    pub async fn run_through(
        &self,
        lesson: LessonId,
        steps: &[Step],
        end: usize,
        progress: mpsc::UnboundedSender<Progress>,
        mut cancel: watch::Receiver<bool>,
    ) -> Result<(), RunError> {
        let end = end.min(steps.len());
        let resume = read_checkpoint(&self.paths.src_dir, lesson).min(steps.len());
        // What the learner did by hand, as the lesson's conditions see it, is not done again.
        let by_hand = resume + by_hand::done(self, lesson, resume, end).await;
        for (i, step) in steps.iter().enumerate().take(end) {
            let n = i + 1;
            if i < by_hand {
                let _ = progress.send(Progress::Started {
                    step: n,
                    title: step.title(self.lang),
                    command: step.command(&self.fit),
                });
                let summary = if i < resume {
                    "already done by an earlier run"
                } else {
                    "already done by you: skipped"
                };
                let _ = progress.send(Progress::Done {
                    step: n,
                    summary: summary.into(),
                });
                if i >= resume {
                    write_checkpoint(&self.paths.src_dir, lesson, Some(n));
                }
                continue;
            }
            if *cancel.borrow() {
                return Err(RunError::Cancelled { step: n });
            }
            let _ = progress.send(Progress::Started {
                step: n,
                title: step.title(self.lang),
                command: step.command(&self.fit),
            });
            let blocker = {
                let progress = progress.clone();
                move |line: String| {
                    let _ = progress.send(Progress::Blocker { step: n, line });
                }
            };
            let result = self.run_step(n, step, &blocker, &mut cancel).await?;
            match result {
                Ok(summary) => {
                    write_checkpoint(&self.paths.src_dir, lesson, Some(n));
                    let _ = progress.send(Progress::Done { step: n, summary });
                }
                Err(source) => {
                    let _ = progress.send(Progress::Failed {
                        step: n,
                        error: source.to_string(),
                    });
                    return Err(RunError::Step {
                        step: n,
                        title: step.title(self.lang),
                        source,
                    });
                }
            }
        }
        if end == steps.len() {
            write_checkpoint(&self.paths.src_dir, lesson, None);
        }
        Ok(())
    }
}

impl Runner {
    /// Runs step `n`; when it fails only because the cluster gave no answer, waits for the
    /// cluster (cancellable, until the deadline) and runs it again.
    async fn run_step(
        &self,
        n: usize,
        step: &Step,
        blocker: &(dyn Fn(String) + Sync),
        cancel: &mut watch::Receiver<bool>,
    ) -> Result<Result<String, StepError>, RunError> {
        let mut outage: Option<(tokio::time::Instant, tokio::time::Instant)> = None;
        loop {
            let result = if step.interruptible() {
                tokio::select! {
                    r = steps::run(self, step, blocker) => r,
                    () = cancelled(cancel) => return Err(RunError::Cancelled { step: n }),
                }
            } else {
                steps::run(self, step, blocker).await
            };
            let Some(why) = result.as_ref().err().and_then(reach::unreachable) else {
                return Ok(result);
            };
            let why = why.to_string();
            let now = tokio::time::Instant::now();
            let (since, deadline) = *outage.get_or_insert((now, now + self.deadline));
            tokio::select! {
                back = reach::until_answers(self, &why, since, deadline, blocker) => {
                    if let Err(e) = back {
                        return Ok(Err(e));
                    }
                }
                () = cancelled(cancel) => return Err(RunError::Cancelled { step: n }),
            }
        }
    }
}

async fn cancelled(cancel: &mut watch::Receiver<bool>) {
    loop {
        if *cancel.borrow() {
            return;
        }
        if cancel.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
