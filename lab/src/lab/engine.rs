//! Runs a lesson's plan: one step at a time, progress sent as data (for the tutor and the CLI
//! alike), cancellable between and inside steps, and safe to re-run. Nothing is taken on trust
//! from an earlier run: a step is skipped only when its condition holds now, in the cluster and
//! in Git, or when an interrupted run got past it and nothing it touched has changed since
//! (`checkpoint`); every other step reads before it writes, so re-running after a cancel, a
//! failure or another lesson converges. A lesson whose prerequisite is missing names the lesson
//! to do first and changes nothing. The learner's work is never overwritten.

mod app_watch;
mod by_hand;
mod checkpoint;
mod error;
mod guard;
mod reach;
mod restage;
mod steps;

pub use error::StepError;

use std::ops::Range;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use super::catalog::{Catalog, Lesson};
use super::eval::Unmet;
use super::eval::context::Context;
use super::fit::Fit;
use super::paths::LabPaths;
use super::spec::{LessonId, Step};
use crate::cluster::ClusterError;
use crate::i18n::{Lang, Say, Words};
use crate::t;

/// Progress, as the tutor and the CLI show it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Progress {
    /// Step `step` (from 1) of the plan began; the plan's own `Step` says its command, in the
    /// language of whoever shows it.
    Started {
        step: usize,
        title: Words,
    },
    /// What the step is waiting on or doing right now (`waiting: wave 0 · Deployment/app 0/1 available`).
    Blocker {
        step: usize,
        line: Words,
    },
    Done {
        step: usize,
        summary: Words,
    },
    Failed {
        step: usize,
        error: Words,
    },
    /// The plan goes back to its first step, and why (its moment passed and was staged again).
    StartedOver {
        why: Words,
    },
}

/// Why a plan stopped, typed; said in the learner's language by [`Say`].
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    Cancelled {
        step: usize,
    },
    Step {
        step: usize,
        title: Words,
        source: std::sync::Arc<StepError>,
    },
    /// The lesson has no actions to run.
    NoActions(String),
    /// Something another lesson makes is not there: do that lesson first.
    Prerequisite {
        lesson: LessonId,
        needs: LessonId,
        why: Box<Unmet>,
    },
    /// Whether the prerequisites hold cannot be told: the cluster does not answer.
    Unknowable(#[source] ClusterError),
}

impl Say for RunError {
    fn say(&self, lang: Lang) -> String {
        match self {
            RunError::Cancelled { step } => {
                t!(lang, "run-cancelled", step = step.to_string())
            }
            RunError::Step {
                step,
                title,
                source,
            } => t!(
                lang,
                "run-step-failed",
                step = step.to_string(),
                title = title.say(lang),
                why = source.say(lang)
            ),
            RunError::NoActions(folder) => {
                t!(lang, "run-no-actions", folder = folder.as_str())
            }
            RunError::Prerequisite { lesson, needs, why } => t!(
                lang,
                "run-needs-lesson",
                lesson = lesson.to_string(),
                needs = needs.to_string(),
                // Only the fact: the message's own advice is to do that lesson first.
                why = why.fact(lang)
            ),
            RunError::Unknowable(e) => t!(lang, "run-unknowable", why = e.say(lang)),
        }
    }
}

crate::display_says!(RunError);

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
    /// The language the plan's commits are written in. A commit message stays in Git, in the
    /// learner's words like the rest of their work; progress and errors are words said where
    /// they are shown, in whatever language that is.
    pub commit_lang: Lang,
    /// The cluster's clock when it runs faster than the wall's (`--speed`).
    pub clock: Option<crate::cluster::clock::FastClock>,
}

/// The plan of a lesson, from its `lesson.yaml` (already parsed and typed when it loaded).
pub fn plan(lesson: &Lesson) -> Result<Vec<Step>, RunError> {
    if lesson.spec.actions.is_empty() {
        return Err(RunError::NoActions(lesson.folder.clone()));
    }
    Ok(lesson.spec.actions.iter().map(|a| a.step.clone()).collect())
}

impl Runner {
    /// What reading evidence needs from this run.
    pub fn context(&self) -> Context<'_> {
        Context {
            client: &self.client,
            catalog: &self.catalog,
            src_dir: &self.paths.src_dir,
            bare_dir: &self.paths.bare_dir,
            clock: self.clock.as_ref(),
        }
    }

    /// Runs lesson `lesson`'s `steps`, sending progress; stops at the first failure or when
    /// `cancel` turns true.
    pub async fn run(
        &self,
        lesson: LessonId,
        steps: &[Step],
        progress: mpsc::UnboundedSender<Progress>,
        cancel: watch::Receiver<bool>,
    ) -> Result<(), RunError> {
        self.run_through(lesson, steps, 0..steps.len(), progress, cancel)
            .await
    }

    /// Runs one step on its own, with no prerequisite, checkpoint or skipping: what it did, in
    /// words, or why it failed (for tools and tests that need one step's effect).
    pub async fn run_one(
        &self,
        step: &Step,
        blocker: &(dyn Fn(Words) + Sync),
    ) -> Result<Words, StepError> {
        steps::run(self, step, blocker).await
    }

    /// The first prerequisite of `lesson` that does not hold now, as the error that names the
    /// lesson to do first.
    pub async fn prerequisite(&self, lesson: LessonId) -> Result<(), RunError> {
        match by_hand::missing_requirement(self, lesson).await {
            Ok(None) => Ok(()),
            Ok(Some((req, why))) => Err(RunError::Prerequisite {
                lesson,
                needs: req.lesson,
                why: Box::new(why),
            }),
            Err(e) => Err(RunError::Unknowable(e)),
        }
    }

    /// Runs the plan's actions in `range` (all of them, or one in step mode). Before the first
    /// action, the lesson's prerequisites must hold; the leading actions whose conditions hold
    /// now are skipped. A whole run on a lab past where the lesson's staged moment starts stages
    /// it again, once, and starts over.
    pub async fn run_through(
        &self,
        lesson: LessonId,
        steps: &[Step],
        range: Range<usize>,
        progress: mpsc::UnboundedSender<Progress>,
        mut cancel: watch::Receiver<bool>,
    ) -> Result<(), RunError> {
        let range = range.start.min(steps.len())..range.end.min(steps.len());
        let whole = range.start == 0 && range.end == steps.len();
        if range.start == 0 {
            self.prerequisite(lesson).await?;
        }
        let mut staged_again = false;
        let passes = loop {
            let (step, title, mut source) = match self
                .run_pass(lesson, steps, range.clone(), &progress, &mut cancel)
                .await?
            {
                Pass::Reached { passes } => break passes,
                Pass::Stopped {
                    step,
                    title,
                    source,
                } => (step, title, source),
            };
            if whole
                && !staged_again
                && let Some(app) = source.past_the_start().map(String::from)
            {
                let blocker = blocker_for(&progress, step);
                match self
                    .restage(lesson, step, &app, &blocker, &mut cancel)
                    .await?
                {
                    Some(Ok(why)) => {
                        staged_again = true;
                        checkpoint::clear(self, lesson);
                        let _ = progress.send(Progress::StartedOver { why });
                        continue;
                    }
                    Some(Err(failed)) => source = failed,
                    None => {}
                }
            }
            let source = std::sync::Arc::new(source);
            let _ = progress.send(Progress::Failed {
                step,
                error: Words::of(source.clone()),
            });
            return Err(RunError::Step {
                step,
                title,
                source,
            });
        };
        if whole {
            checkpoint::clear(self, lesson);
        }
        // A plan that reached its last step never says done while the lesson's check fails.
        if range.end == steps.len() && range.start < range.end && !passes {
            self.lesson_passes(lesson, steps, &progress).await?;
        }
        Ok(())
    }

    /// One pass over the actions in `range`, from where an interrupted run got to.
    async fn run_pass(
        &self,
        lesson: LessonId,
        steps: &[Step],
        range: Range<usize>,
        progress: &mpsc::UnboundedSender<Progress>,
        cancel: &mut watch::Receiver<bool>,
    ) -> Result<Pass, RunError> {
        let whole = range.start == 0 && range.end == steps.len();
        // A whole run carries on after the steps an interrupted run did, only if nothing in Git
        // or the lesson's Application changed since; else it starts over.
        let resume = if whole {
            checkpoint::resume(self, lesson).await.min(steps.len())
        } else {
            range.start
        };
        // A whole run of a lesson whose self-check passes now has nothing to do. Replaying it
        // would be wrong: lesson 6 would push its broken commit again, which Argo CD never
        // syncs (hooks are not part of the diff), and then wait for a failure that never comes.
        let passes = whole && self.passes_now(lesson).await;
        // What is already there, as the lesson's conditions see it now, is not done again.
        let done_now = if passes {
            steps.len()
        } else {
            resume + by_hand::done(self, lesson, resume, range.end).await
        };
        for (i, step) in steps.iter().enumerate().take(range.end).skip(range.start) {
            let n = i + 1;
            let title = step.title();
            if *cancel.borrow() {
                return Err(RunError::Cancelled { step: n });
            }
            let _ = progress.send(Progress::Started {
                step: n,
                title: title.clone(),
            });
            if i < done_now {
                let summary = if passes {
                    crate::words!("did-skip-passes", lesson = lesson.to_string())
                } else if i < resume {
                    crate::words!("did-skip-resume")
                } else {
                    crate::words!("did-skip")
                };
                let _ = progress.send(Progress::Done { step: n, summary });
                continue;
            }
            let blocker = blocker_for(progress, n);
            match self.run_step(n, step, &blocker, cancel).await? {
                Ok(summary) => {
                    if whole {
                        checkpoint::record(self, lesson, n).await;
                    }
                    let _ = progress.send(Progress::Done { step: n, summary });
                }
                Err(source) => {
                    return Ok(Pass::Stopped {
                        step: n,
                        title,
                        source,
                    });
                }
            }
        }
        Ok(Pass::Reached { passes })
    }

    /// The lesson's check, after its last step: a failure is the last step's, with the check's
    /// first finding and what to do.
    async fn lesson_passes(
        &self,
        lesson: LessonId,
        steps: &[Step],
        progress: &mpsc::UnboundedSender<Progress>,
    ) -> Result<(), RunError> {
        let Some(l) = self.catalog.lesson(lesson) else {
            return Ok(());
        };
        let grade = crate::lab::eval::check::grade_lesson(l, &self.context()).await;
        let failed: Vec<_> = grade.findings.iter().filter(|f| !f.ok).collect();
        let Some(first) = failed.first() else {
            return Ok(());
        };
        let source = StepError::LessonFails {
            lesson,
            what: first.what.clone(),
            help: first.help.clone(),
            more: failed.len() - 1,
        };
        let n = steps.len();
        let source = std::sync::Arc::new(source);
        let _ = progress.send(Progress::Failed {
            step: n,
            error: Words::of(source.clone()),
        });
        Err(RunError::Step {
            step: n,
            title: steps.last().map_or_else(|| Words::text("-"), Step::title),
            source,
        })
    }

    /// The lesson's self-check passes now: what its steps leave in the cluster and Git, and its
    /// evidence, as `check` grades them.
    async fn passes_now(&self, lesson: LessonId) -> bool {
        let Some(l) = self.catalog.lesson(lesson) else {
            return false;
        };
        crate::lab::eval::check::grade_lesson(l, &self.context())
            .await
            .passed()
    }

    /// Runs step `n`; when it fails only because the cluster gave no answer, waits for the
    /// cluster (cancellable, until the deadline) and runs it again.
    async fn run_step(
        &self,
        n: usize,
        step: &Step,
        blocker: &(dyn Fn(Words) + Sync),
        cancel: &mut watch::Receiver<bool>,
    ) -> Result<Result<Words, StepError>, RunError> {
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
            let now = tokio::time::Instant::now();
            let (since, deadline) = *outage.get_or_insert((now, now + self.deadline));
            tokio::select! {
                back = reach::until_answers(self, why.clone(), since, deadline, blocker) => {
                    if let Err(e) = back {
                        return Ok(Err(e));
                    }
                }
                () = cancelled(cancel) => return Err(RunError::Cancelled { step: n }),
            }
        }
    }
}

/// How one pass over a plan's actions ended.
enum Pass {
    /// The last action in range is done; `passes`: the lesson passed before it began.
    Reached { passes: bool },
    /// Step `step` failed.
    Stopped {
        step: usize,
        title: Words,
        source: StepError,
    },
}

/// What a step is waiting on, sent as the progress of step `n`.
fn blocker_for(progress: &mpsc::UnboundedSender<Progress>, n: usize) -> impl Fn(Words) + Sync {
    let progress = progress.clone();
    move |line: Words| {
        let _ = progress.send(Progress::Blocker { step: n, line });
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
