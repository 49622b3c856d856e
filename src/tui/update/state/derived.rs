//! What the parts say together, worked out when asked and never kept, so it holds for the
//! latest facts: where an evidence file stands, what the checklists are judged on, which panes a
//! lesson wants, step mode's questions, and the app, object and command the panes follow.

use std::collections::BTreeMap;

use super::{JobView, Pane, State, StepMode};
use crate::cluster::ObjectKey;
use crate::lab::catalog::Lesson;
use crate::lab::eval::{EvidenceFacts, Facts};
use crate::lab::snippets::{Snippet, snippets};
use crate::lab::spec::{LessonId, Question, ValuesSpec};

impl State {
    /// Whether an evidence file is there.
    pub fn evidence_present(&self, file: &str) -> bool {
        self.lab.evidence.get(file).is_some_and(Option::is_some)
    }

    /// Where an evidence file stands now, the one reading every pane, strip and verdict shows:
    /// a file that is not there passes nothing, whatever an older self-check said.
    pub fn evidence_standing(&self, file: &str) -> EvidenceStanding {
        match (self.evidence_present(file), self.lab.grades.get(file)) {
            (false, _) => EvidenceStanding::Missing,
            (true, Some(g)) if g.passed() => EvidenceStanding::Passes,
            // A plan writes its lesson's file a moment at a time and checks it once whole: a
            // part written so far is not a failure yet.
            (true, Some(_)) if self.plan_writes(file) => EvidenceStanding::BeingWritten,
            (true, Some(_)) => EvidenceStanding::Fails,
            (true, None) => EvidenceStanding::NotChecked,
        }
    }

    /// A plan running now is its lesson's, which writes `file`.
    fn plan_writes(&self, file: &str) -> bool {
        self.run.running()
            && self.run.job.as_ref().is_some_and(|job| {
                self.session()
                    .catalog
                    .lesson(job.lesson)
                    .and_then(Lesson::evidence_file)
                    == Some(file)
            })
    }

    /// What the checklists are judged against: the state's facts, borrowed (`evidence` is
    /// built by the caller from the files and their grades).
    pub fn facts<'a>(&'a self, evidence: &'a BTreeMap<String, EvidenceFacts>) -> Facts<'a> {
        Facts {
            apps: &self.live.apps,
            objects: &self.live.objects,
            git: &self.lab.git,
            evidence,
            now: self.live.cluster_now,
            events_read: self
                .live
                .health
                .streams()
                .filter(|s| s.kind == crate::cluster::Kind::Event)
                .all(|s| self.live.health.is_live(s)),
        }
    }

    /// Each evidence file as the facts hold it: when it was written, and when the check that
    /// passed it ran (a file that is not there passes nothing).
    pub fn evidence_facts(&self) -> BTreeMap<String, EvidenceFacts> {
        self.lab
            .evidence
            .iter()
            .map(|(file, written)| {
                let passed = self
                    .lab
                    .grades
                    .get(file)
                    .filter(|g| g.passed() && written.is_some())
                    .map(|g| {
                        g.checked_at
                            .unwrap_or_else(|| self.session.on_the_clusters_clock(self.live.now))
                    });
                // The file system dates a write on the wall's clock.
                let written = written.map(|w| self.session.on_the_clusters_clock(w));
                (file.clone(), EvidenceFacts { written, passed })
            })
            .collect()
    }

    /// The live panes that matter most in this lesson, most important first (Applications and
    /// the timeline when the lesson does not say).
    pub fn lesson_panes(&self) -> Vec<Pane> {
        let named: Vec<Pane> = self
            .current()
            .map(|l| l.spec.panes.iter().map(|p| Pane::named(*p)).collect())
            .unwrap_or_default();
        if named.is_empty() {
            vec![Pane::Apps, Pane::Timeline]
        } else {
            named
        }
    }

    /// Whether, and until when, the values pane keeps the winning layer to itself: by hand, the
    /// lesson says "don't guess which wins", so it stays hidden until the lesson's evidence is
    /// written or the learner asks (`v`); step mode hides it while its question is unanswered.
    pub fn values_winner_hidden(&self) -> Option<WinnerHidden> {
        if self.ui.values_revealed {
            return None;
        }
        // The room's question is about the values only in the lesson that traces them (lesson
        // 6's about a ConfigMap had hidden lesson 2's finished winner).
        let values_here = self.current().is_some_and(|l| l.spec.values.is_some());
        if self.stepping_here().is_some() && values_here {
            return self.room_predicts().then_some(WinnerHidden::UntilAnswered);
        }
        self.values_lesson()
            .and_then(|l| l.evidence_file())
            .is_some_and(|file| self.evidence_standing(file) == EvidenceStanding::Missing)
            .then_some(WinnerHidden::UntilEvidence)
    }

    /// Step mode steps through a lesson with a question whose answer the room has not seen yet
    /// (asked or still to come, or answered with its reveal still to run): until the cluster
    /// shows it, nothing on screen but the question may give the answer away (the lesson's
    /// title, text, checklist and verdict, the values pane's winner), so they wait. A
    /// checklist step named the answer three actions before its question was asked, and an
    /// answer brought the title back before the reveal (a walk in step mode).
    pub fn room_predicts(&self) -> bool {
        let Some(m) = self.stepping_here() else {
            return false;
        };
        let Some(lesson) = self.current() else {
            return false;
        };
        let actions = &lesson.spec.actions;
        // The reveal's action has run once step mode is past it (`next` moves on when an
        // action ends, so one running is not past yet).
        actions
            .iter()
            .enumerate()
            .any(|(i, a)| a.ask.is_some() && lesson.spec.answered_by(i) >= m.next)
    }

    /// How many of `lesson`'s checklist steps are done now.
    pub fn checklist_done(&self, lesson: crate::lab::spec::LessonId) -> usize {
        self.lab
            .checklists
            .get(&lesson)
            .map_or(0, |c| c.iter().filter(|i| i.done()).count())
    }

    /// Step mode, when it steps through the lesson on screen (another lesson's is not shown).
    pub fn stepping_here(&self) -> Option<&StepMode> {
        self.run
            .step_mode
            .as_ref()
            .filter(|m| m.lesson == self.ui.place.lesson)
    }

    /// The pane step mode's narration tells the room to watch now: named by the action shown
    /// (or running), else by the last one before it that names one.
    pub fn watched_pane(&self) -> Option<Pane> {
        let m = self.stepping_here()?;
        self.pane_watched_up_to(m.next)
    }

    /// Between two actions, the pane the one just run watched when the next watches another:
    /// what it changed stays in sight until the next press (lesson 6's push had said "watch
    /// Applications: src-waves still shows the old commit", and the pane gave way to the
    /// timeline the moment the push was done). `None` while an action runs.
    pub fn aftermath_pane(&self) -> Option<Pane> {
        let m = self.stepping_here()?;
        if m.running || m.next == 0 {
            return None;
        }
        let pane = self.pane_watched_up_to(m.next - 1)?;
        (Some(pane) != self.watched_pane()).then_some(pane)
    }

    /// The pane named by the lesson's action `i` (0-based, the last one past the end), else by
    /// the last action before it that names one.
    fn pane_watched_up_to(&self, i: usize) -> Option<Pane> {
        let actions = &self.current()?.spec.actions;
        let i = i.min(actions.len().checked_sub(1)?);
        actions[..=i]
            .iter()
            .rev()
            .find_map(|a| a.watch)
            .map(Pane::named)
    }

    /// The plan the lesson on screen ran or runs (another lesson's is not shown).
    pub fn job_here(&self) -> Option<&JobView> {
        self.run
            .job
            .as_ref()
            .filter(|j| j.lesson == self.ui.place.lesson)
    }

    /// The lesson whose Helm values the values pane traces: the current one, else the first
    /// that names some.
    fn values_lesson(&self) -> Option<&Lesson> {
        self.current()
            .filter(|l| l.spec.values.is_some())
            .or_else(|| self.lessons().iter().find(|l| l.spec.values.is_some()))
    }

    /// The Helm values the values pane traces.
    pub fn values_spec(&self) -> Option<&ValuesSpec> {
        self.values_lesson().and_then(|l| l.spec.values.as_ref())
    }

    /// The commands of the part of the lesson shown, fitted to this lab (`Fit::render`), so
    /// their lines are the lines the lesson pane draws and the text is what is typed.
    pub fn snippets(&self) -> Vec<Snippet> {
        self.current()
            .map(|l| {
                let text = l.text(self.lang()).section(self.ui.place.section);
                snippets(&self.session.fit.render(&text))
            })
            .unwrap_or_default()
    }

    /// The command chosen for "type it for me", if it belongs to the part shown.
    pub fn selected_command(&self) -> Option<Snippet> {
        let (lesson, section, i) = self.ui.picks.selected_snippet?;
        if (lesson, section) != (self.ui.place.lesson, self.ui.place.section) {
            return None;
        }
        self.snippets().into_iter().nth(i)
    }

    /// The question the next action of step mode asks and no one has answered yet.
    pub fn pending_question(&self) -> Option<(String, &Question)> {
        let m = self.run.step_mode.as_ref().filter(|m| !m.running)?;
        let lesson = self.session.catalog.lesson(m.lesson)?;
        let ask = lesson.spec.actions.get(m.next)?.ask.as_ref()?;
        let key = answer_key(m.lesson, m.next);
        (!self.lab.answers.contains_key(&key)).then_some((key, ask))
    }

    /// The questions step mode's last action answered (each with the index of the action it
    /// was asked before), while the room reads the reveal: until the next action runs. A
    /// question is answered once the cluster shows it (`LessonSpec::answered_by`), which may be
    /// a few actions after it was asked.
    pub fn answered_questions(&self) -> Vec<(usize, &Question)> {
        let Some(m) = self.run.step_mode.as_ref().filter(|m| !m.running) else {
            return Vec::new();
        };
        let (Some(lesson), Some(last)) =
            (self.session.catalog.lesson(m.lesson), m.next.checked_sub(1))
        else {
            return Vec::new();
        };
        lesson
            .spec
            .actions
            .iter()
            .enumerate()
            .take(last + 1)
            .filter_map(|(i, a)| Some((i, a.ask.as_ref()?)))
            .filter(|(i, _)| lesson.spec.answered_by(*i) == last)
            .collect()
    }

    /// The Application the timeline shows: the one chosen with `a` in this lesson, else the
    /// lesson's.
    pub fn timeline_app(&self) -> &str {
        match &self.ui.picks.selected_app {
            Some((lesson, app)) if *lesson == self.ui.place.lesson => app,
            _ => self.lesson_app(),
        }
    }

    /// The object whose managedFields are shown: the one chosen with `o` in this lesson, else
    /// the lesson's focus object.
    pub fn fields_object(&self) -> Option<ObjectKey> {
        match &self.ui.picks.selected_object {
            Some((lesson, key)) if *lesson == self.ui.place.lesson => Some(key.clone()),
            _ => self.current().and_then(|l| l.spec.focus.clone()),
        }
    }
}

/// Where an evidence file stands: what the Evidence pane, its strip and the lesson's verdict say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvidenceStanding {
    Missing,
    NotChecked,
    Passes,
    Fails,
    /// Written in part by its lesson's plan, which is still running.
    BeingWritten,
}

/// How a prediction is kept: `lesson:action`, the action counted from 1.
pub fn answer_key(lesson: LessonId, action: usize) -> String {
    format!("{lesson}:{}", action + 1)
}

/// Until when the values pane keeps the winning layer to itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WinnerHidden {
    /// By hand: until the lesson's evidence is written (or `v`).
    UntilEvidence,
    /// Step mode: until the question it asks is answered.
    UntilAnswered,
}
