//! "Do it for me" after the learner did part of a lesson by hand, and what a lesson needs
//! first: the plan's actions and the lesson's prerequisites carry the same "done when"
//! conditions as the checklist, judged here on facts read now from the cluster, the bare repos
//! and the evidence files.

use super::Runner;
use crate::lab::eval::{LiveFacts, Unmet};
use crate::lab::spec::{DoneWhen, LessonId, Requirement};

/// How many actions from `from` (up to `end`) the learner has already done, one after another,
/// as their conditions hold now.
pub async fn done(r: &Runner, lesson: LessonId, from: usize, end: usize) -> usize {
    let Some(l) = r.catalog.lesson(lesson) else {
        return 0;
    };
    let conditions: Vec<Option<&DoneWhen>> = l
        .spec
        .actions
        .iter()
        .take(end)
        .skip(from)
        .map(|a| a.done_when.as_ref())
        .collect();
    if conditions.iter().all(Option::is_none) {
        return 0;
    }
    let known: Vec<&DoneWhen> = conditions.iter().flatten().copied().collect();
    let Ok(live) = LiveFacts::read(&r.client, &r.paths, &known).await else {
        return 0;
    };
    let f = live.facts();
    conditions
        .iter()
        .take_while(|c| c.is_some_and(|c| c.holds(&f)))
        .count()
}

/// The first prerequisite of `lesson` that does not hold now, with why.
pub async fn missing_requirement(
    r: &Runner,
    lesson: LessonId,
) -> Result<Option<(&Requirement, Unmet)>, crate::cluster::ClusterError> {
    let Some(l) = r.catalog.lesson(lesson) else {
        return Ok(None);
    };
    if l.spec.requires.is_empty() {
        return Ok(None);
    }
    let conditions: Vec<&DoneWhen> = l.spec.requires.iter().map(|q| &q.done_when).collect();
    let live = LiveFacts::read(&r.client, &r.paths, &conditions).await?;
    let f = live.facts();
    Ok(l.spec
        .requires
        .iter()
        .find_map(|q| q.done_when.unmet(&f).map(|why| (q, why))))
}
