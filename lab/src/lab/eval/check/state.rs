//! What a lesson's steps must have left in the cluster and in Git, read live once and judged by
//! the same conditions as the ticking checklist (its lasting steps).

use super::{Finding, fail_with, pass};
use crate::i18n::Words;
use crate::lab::catalog::Lesson;
use crate::lab::eval::LiveFacts;
use crate::lab::eval::context::Context;
use crate::lab::paths::LabPaths;
use crate::lab::spec::{ChecklistItem, DoneWhen};
use crate::words;

/// The steps the self-check asks to still hold: not moments, not the evidence itself.
fn lasting(lesson: &Lesson) -> Vec<&ChecklistItem> {
    lesson
        .spec
        .checklist
        .iter()
        .filter(|i| {
            !i.moment
                && !matches!(
                    i.done_when,
                    DoneWhen::EvidenceExists(_) | DoneWhen::EvidencePasses(_)
                )
        })
        .collect()
}

pub async fn findings(lesson: &Lesson, ctx: &Context<'_>) -> Vec<Finding> {
    let items = lasting(lesson);
    if items.is_empty() {
        return Vec::new();
    }
    let paths = LabPaths {
        src_dir: ctx.src_dir.to_path_buf(),
        bare_dir: ctx.bare_dir.to_path_buf(),
    };
    let conditions: Vec<&DoneWhen> = items.iter().map(|i| &i.done_when).collect();
    let live = match LiveFacts::read(ctx.client, &paths, &conditions).await {
        Ok(l) => l,
        Err(e) => {
            return vec![fail_with(
                words!(
                    "check-cannot-read-steps",
                    lesson = lesson.spec.number.to_string(),
                    why = Words::of(e)
                ),
                words!("check-cluster-help"),
            )];
        }
    };
    let facts = live.facts();
    items
        .iter()
        .map(|item| match item.done_when.unmet(&facts) {
            None => pass(Words::of(item.step.clone())),
            // The reason already says what to do; a hint only where the lesson names one.
            Some(why) => Finding {
                ok: false,
                what: words!("check-step-unmet", step = item.step.clone(), why = why),
                hint: item.hint,
                help: None,
                // What the lesson's steps left must hold now: a learner who deletes their app
                // has undone the lesson (unlike a moment its evidence recorded).
                live: false,
            },
        })
        .collect()
}
