//! Staging a lesson's moment again once it has passed unrecorded. Lesson 6 records an operation
//! as it fails; if a stopped run left it until the retries ran out and the fix synced, the failure
//! is gone from the cluster, and pushing the broken commit again changes nothing Argo CD compares
//! (only the hook differs). Putting back the files the required lessons left, synced, gives the
//! plan the start it was written for, so a re-run completes instead of failing.

use crate::i18n::Words;
use tokio::sync::watch;

use super::{RunError, Runner, StepError};
use crate::i18n::Lang;
use crate::i18n::Say;
use crate::lab::spec::{LessonId, Localized, Step, Until};
use crate::words;

impl Runner {
    /// The steps that put back what `lesson`'s required lessons left in Git and wait until `app`
    /// has synced it; `None` when it requires no lesson (nothing to go back to).
    fn restaging(&self, lesson: LessonId, app: &str) -> Option<(LessonId, Vec<Step>)> {
        let spec = &self.catalog.lesson(lesson)?.spec;
        let before = spec.requires.iter().map(|r| r.lesson).max()?;
        let mut steps: Vec<Step> = spec
            .requires
            .iter()
            .filter_map(|r| self.catalog.lesson(r.lesson))
            .flat_map(|l| l.spec.templates.iter())
            .map(|template| Step::WriteTemplates {
                template: template.clone(),
            })
            .collect();
        steps.extend([
            Step::CommitPush {
                message: {
                    let words = words!("plan-restage-commit", lesson = before.to_string());
                    Localized::from_fn(|lang: Lang| words.say(lang))
                },
            },
            Step::HardRefresh {
                app: app.to_string(),
            },
            Step::Wait {
                app: app.to_string(),
                until: Until::Succeeded,
            },
        ]);
        Some((before, steps))
    }

    /// Stages `lesson` again after step `n` found its moment over: what it did, in words, or
    /// `None` when there is nothing to go back to (the error stands).
    pub(super) async fn restage(
        &self,
        lesson: LessonId,
        n: usize,
        app: &str,
        blocker: &(dyn Fn(Words) + Sync),
        cancel: &mut watch::Receiver<bool>,
    ) -> Result<Option<Result<Words, StepError>>, RunError> {
        let Some((before, steps)) = self.restaging(lesson, app) else {
            return Ok(None);
        };
        let why = crate::words!(
            "plan-restage",
            step = n.to_string(),
            app = app,
            lesson = before.to_string()
        );
        blocker(why.clone());
        for step in &steps {
            blocker(step.title());
            if let Err(e) = self.run_step(n, step, blocker, cancel).await? {
                return Ok(Some(Err(e)));
            }
        }
        Ok(Some(Ok(why)))
    }
}
