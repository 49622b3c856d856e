//! The lessons' checklists, true right now: after any message that changes what the tutor knows
//! (an Application, an object, the bare repos, the evidence and its grades, the cluster's
//! clock), every step is judged again on those facts (`lab::eval::checklist`), and the time a
//! step was first seen done is kept with the learner's progress.

use crate::lab::eval::checklist::judge;
use crate::tui::state::{ItemState, State};

pub fn refresh(s: &mut State) {
    let evidence = s.evidence_facts();
    let facts = s.facts(&evidence);
    let now = s.live.now.max(jiff::Timestamp::now());
    let mut judged = Vec::new();
    for lesson in s.session.catalog.lessons() {
        let ticks = s.lab.ticks.get(&lesson.id());
        let before = s.lab.checklists.get(&lesson.id());
        let states = judge(lesson, &facts, (ticks, before), now, &evidence);
        judged.push((lesson.id(), states));
    }
    for (lesson, states) in judged {
        let ticks = s.lab.ticks.entry(lesson).or_default();
        for (i, state) in states.iter().enumerate() {
            match state {
                ItemState::Done { at } => {
                    ticks.entry(i).or_insert(*at);
                }
                // Done again later, it ticks with the time it was done again.
                ItemState::Undone { .. } => {
                    ticks.remove(&i);
                }
                _ => {}
            }
        }
        if ticks.is_empty() {
            s.lab.ticks.remove(&lesson);
        }
        s.lab.checklists.insert(lesson, states);
    }
}
