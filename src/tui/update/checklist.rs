//! Ticking the lessons' checklists: after any message that changes what the tutor knows (an
//! Application, an object, the bare repos, the evidence and its grades), each lesson's next
//! undone step is checked against those facts. Steps tick in order and stay ticked, with the
//! time they were first seen done.

use std::collections::BTreeMap;

use crate::lab::eval::Facts;
use crate::tui::state::State;

pub fn refresh(s: &mut State) {
    let passed: BTreeMap<String, bool> = s
        .lab
        .grades
        .iter()
        .map(|(file, g)| (file.clone(), g.passed()))
        .collect();
    let (apps, specs) = s.live.typed_apps();
    let facts = Facts {
        apps: &apps,
        app_specs: &specs,
        objects: &s.live.objects,
        git: &s.lab.git,
        evidence_present: &s.lab.evidence_present,
        evidence_passed: &passed,
    };
    let mut newly = Vec::new();
    for lesson in s.session.catalog.lessons() {
        let n = lesson.id();
        let ticked = s.lab.ticks.get(&n);
        // A moment that is over (lesson 6's failed sync, once fixed) is proven by the evidence
        // that passed its self-check, as the self-check itself takes it.
        let proven = lesson
            .evidence_file()
            .and_then(|f| passed.get(f))
            .copied()
            .unwrap_or(false);
        for (i, item) in lesson.spec.checklist.iter().enumerate() {
            if ticked.is_some_and(|t| t.contains_key(&i)) {
                continue;
            }
            if item.done_when.holds(&facts) || (item.moment && proven) {
                newly.push((n, i));
            }
            // The next step only counts once this one is done.
            break;
        }
    }
    if newly.is_empty() {
        return;
    }
    let now = jiff::Timestamp::now();
    for (n, i) in newly {
        s.lab.ticks.entry(n).or_default().insert(i, now);
    }
    // A step that ticked may let the next one tick on the same facts.
    refresh(s);
}
