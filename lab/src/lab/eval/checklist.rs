//! A lesson's checklist judged on facts, true right now: a step is done — in order, or after the
//! last step before it that is done, with the time the facts say it was done — or undone, with
//! the reason, when the cluster or Git undid it. A moment (lesson 6's failed sync) stays done
//! once it happened or its evidence proves it. A step that needs time to pass counts down until
//! it has. The tutor and `capa-tui status` both judge this way.

use std::collections::BTreeMap;

use super::Unmet;
use super::facts::{EvidenceFacts, Facts};
use crate::lab::catalog::Lesson;

/// Where a checklist step stands now.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemState {
    /// It holds (or, a moment, it happened): since when.
    Done { at: jiff::Timestamp },
    /// It was done, and the cluster or Git undid it: why it no longer holds.
    Undone { was: jiff::Timestamp, why: Unmet },
    /// It holds, and has to go on holding for this many more seconds of cluster time.
    Counting { left: u64 },
    /// Not done yet (why, when it is the next one and the facts say).
    Open { why: Option<Unmet> },
}

impl ItemState {
    pub fn done(&self) -> bool {
        matches!(self, ItemState::Done { .. })
    }
}

/// What a checklist was before: when each step was first seen done, and how each stood.
pub type Before<'a> = (
    Option<&'a BTreeMap<usize, jiff::Timestamp>>,
    Option<&'a Vec<ItemState>>,
);

/// Each step of `lesson`'s checklist as it stands on `facts`.
pub fn judge(
    lesson: &Lesson,
    facts: &Facts<'_>,
    (ticks, before): Before<'_>,
    now: jiff::Timestamp,
    evidence: &BTreeMap<String, EvidenceFacts>,
) -> Vec<ItemState> {
    // A moment that is over (lesson 6's failed sync, once fixed) is proven by the evidence that
    // passed its self-check, as the self-check itself takes it. It happened by the time that
    // evidence was written, not when the check ran (a tutor opened the next day would say today).
    let proven = lesson
        .evidence_file()
        .and_then(|f| evidence.get(f))
        .and_then(|e| {
            e.passed
                .map(|passed| e.written.unwrap_or(passed).min(passed))
        });
    let mut states: Vec<ItemState> = Vec::new();
    for (i, item) in lesson.spec.checklist.iter().enumerate() {
        // Done before: ticked, or undone and not done again yet.
        let ticked = ticks.and_then(|t| t.get(&i)).copied().or_else(|| {
            match before.and_then(|b| b.get(i)) {
                Some(ItemState::Undone { was, .. }) => Some(*was),
                _ => None,
            }
        });
        // A step that was never done counts only once the steps before it are done: what
        // holds before the lesson's first steps (left over from an earlier lesson) is not done
        // by this lesson.
        let in_order = states.iter().all(ItemState::done);
        // ... or once it came true after the last step before it that is done: then it was
        // done in this lesson, only in another order (lesson 6's plan pushes the fix before it
        // writes failed-hook.json, to show the trap). Both times are on the cluster's clock.
        let last_done = states
            .iter()
            .filter_map(|s| match s {
                ItemState::Done { at } => Some(*at),
                _ => None,
            })
            .max();
        let came_after = || {
            last_done
                .zip(item.done_when.since(facts))
                .is_some_and(|(last, since)| since >= last)
        };
        let why = item.done_when.unmet(facts);
        let state = match (why, ticked) {
            // Once it happened, a moment stays done.
            _ if item.moment && ticked.is_some() => ItemState::Done {
                at: ticked.unwrap_or(now),
            },
            _ if item.moment && proven.is_some() && in_order => ItemState::Done {
                at: proven.unwrap_or(now),
            },
            (None, Some(at)) if ticks.and_then(|t| t.get(&i)).is_some() => ItemState::Done { at },
            // Done again after it was undone: since the facts say.
            (None, Some(_)) => ItemState::Done {
                at: item.done_when.since(facts).unwrap_or(now),
            },
            (None, None) if in_order || came_after() => ItemState::Done {
                at: item.done_when.since(facts).unwrap_or(now),
            },
            (None, None) => ItemState::Open { why: None },
            // Not knowing the cluster's clock undoes nothing: a step that held and needs only
            // the clock to say so still holds (what could undo it is a fact, judged first).
            (Some(Unmet::NoClock), Some(at)) if ticks.and_then(|t| t.get(&i)).is_some() => {
                ItemState::Done { at }
            }
            // Undone, and now only the clock can say whether it holds again (lesson 7 scaled
            // away and back): not done until the clock is read, and never with the old time.
            (Some(Unmet::NoClock), Some(_)) => ItemState::Open {
                why: Some(Unmet::NoClock),
            },
            (Some(why), Some(was)) if !item.moment && why.countdown().is_none() => {
                ItemState::Undone { was, why }
            }
            (Some(why), _) => match why.countdown() {
                Some(left) if in_order => ItemState::Counting { left },
                _ => ItemState::Open {
                    why: in_order.then_some(why),
                },
            },
        };
        states.push(state);
    }
    states
}
