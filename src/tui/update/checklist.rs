//! The lessons' checklists, true right now: after any message that changes what the tutor knows
//! (an Application, an object, the bare repos, the evidence and its grades, the cluster's
//! clock), the steps that read it are judged again on those facts (`lab::eval::checklist`),
//! and the time a step was first seen done is kept with the learner's progress. One
//! Application's update judges only the lessons that read it: work per change, not per lab.

use crate::lab::catalog::Lesson;
use crate::lab::eval::checklist::judge;
use crate::tui::state::{ItemState, State};

/// What changed, so only the lessons that read it are judged again.
#[derive(Debug, Clone, Copy)]
pub enum Touched<'a> {
    /// Anything (Git, evidence, grades, the clock, a whole stream listed).
    Everything,
    App(&'a str),
    Object(&'a crate::cluster::ObjectKey),
    /// Nothing changed, but this lesson came on screen.
    Lesson(crate::lab::spec::LessonId),
}

impl Touched<'_> {
    fn reads(self, lesson: &Lesson) -> bool {
        let conditions = || lesson.spec.checklist.iter().map(|i| &i.done_when);
        match self {
            Touched::Everything => true,
            Touched::App(name) => conditions().any(|c| c.apps().contains(&name)),
            Touched::Object(key) => conditions().any(|c| c.objects().contains(&key)),
            Touched::Lesson(id) => lesson.id() == id,
        }
    }
}

pub fn refresh(s: &mut State) {
    refresh_touched(s, Touched::Everything);
}

/// Judges again the lessons whose checklist reads what `touched` says changed.
pub fn refresh_touched(s: &mut State, touched: Touched<'_>) {
    let lessons: Vec<&Lesson> = s
        .session
        .catalog
        .lessons()
        .iter()
        .filter(|l| touched.reads(l))
        .collect();
    if lessons.is_empty() {
        return;
    }
    let evidence = s.evidence_facts();
    let facts = s.facts(&evidence);
    // A step the facts do not date ticks now, on the cluster's clock like every other time.
    let now = s
        .session
        .on_the_clusters_clock(s.live.now.max(s.session.wall_now()));
    let mut judged = Vec::new();
    for lesson in lessons {
        let ticks = s.lab.ticks.get(&lesson.id());
        let before = s.lab.checklists.get(&lesson.id());
        let states = judge(lesson, &facts, (ticks, before), now, &evidence);
        judged.push((lesson.id(), states));
    }
    // Until every watch has listed, the facts are still arriving (a reopened tutor reads the
    // Applications before the Deployments): what is missing undoes nothing yet, so a ticked
    // step stays ticked with its time (issue 31: no step reads "undone" before the tutor has
    // read the cluster).
    let arriving = !s.live.health.all_live();
    for (lesson, mut states) in judged {
        let ticks = s.lab.ticks.entry(lesson).or_default();
        if arriving {
            for (i, state) in states.iter_mut().enumerate() {
                if let Some(at) = ticks.get(&i) {
                    *state = ItemState::Done { at: *at };
                }
            }
        }
        for (i, state) in states.iter().enumerate() {
            match state {
                ItemState::Done { at } => {
                    ticks.entry(i).or_insert(*at);
                }
                // Done again later, it ticks with the time it was done again (a hold that
                // counts down again was undone by a new scale).
                ItemState::Undone { .. } | ItemState::Counting { .. } => {
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
    if !arriving {
        open_where_the_learner_is(s);
    }
}

/// Until a lesson is chosen, the first lesson whose checklist is not done comes on screen once
/// the lab has been read (the cluster and the folders, evidence first): after `capa-tui do 1`
/// …`4`, lesson 5. Only then: a lesson done while the tutor is open never moves it.
fn open_where_the_learner_is(s: &mut State) {
    if s.ui.place.lesson_chosen || !s.lab.git_read {
        return;
    }
    s.ui.place.lesson_chosen = true;
    let first_open = s.session.catalog.lessons().iter().find(|l| {
        s.lab
            .checklists
            .get(&l.id())
            .is_some_and(|states| states.iter().any(|st| !st.done()))
    });
    if let Some(lesson) = first_open.map(Lesson::id)
        && lesson != s.ui.place.lesson
    {
        super::navigate::go_to(s, lesson, crate::lab::catalog::Section::Goal);
    }
}
