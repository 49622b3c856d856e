//! A plan as the lesson pane shows it: its steps, each step's progress and its end (which asks
//! for a grade); and step mode, which runs it one action at a time for a room.

use super::{Effect, JobMsg, watch};
use crate::lab::engine::Progress;
use crate::lab::spec::LessonId;
use crate::tui::keymap::Action;
use crate::tui::state::{JobView, LogLine, PlanStep, State, StepMode, StepState};

/// Lesson `lesson`'s plan on screen, every step to do, as it starts (or as step mode opens):
/// built here once, from the lesson, for the run and for step mode alike.
pub(super) fn show_plan(s: &mut State, lesson: LessonId) {
    let steps = s
        .session
        .catalog
        .lesson(lesson)
        .map(|l| {
            l.spec
                .actions
                .iter()
                .map(|a| PlanStep::todo(a.step.title()))
                .collect()
        })
        .unwrap_or_default();
    s.run.job = Some(JobView::new(lesson, steps, s.session.wall_now()));
}

/// A plan's progress: its steps, each step's state, and its end (which asks for a grade).
pub(super) fn on_job(s: &mut State, msg: JobMsg) -> Vec<Effect> {
    match msg {
        JobMsg::Progress(p) => {
            if let Some(job) = &mut s.run.job {
                apply_progress(job, p);
            }
            Vec::new()
        }
        JobMsg::Ended(result) => {
            let lesson = s.run.job.as_ref().map(|j| j.lesson);
            // In step mode an action ended, not the plan: it is over after its last action,
            // or when an action fails.
            let plan_over = s
                .run
                .step_mode
                .as_ref()
                .is_none_or(|m| result.is_err() || (result.is_ok() && m.next + 1 >= m.total));
            let done_now = lesson.map(|l| s.checklist_done(l));
            if let Some(job) = &mut s.run.job {
                job.blocker = None;
                if plan_over {
                    job.took = Some(job.elapsed(s.session.wall_now()));
                    job.finished = Some(result.clone());
                    job.done_when_ended = done_now;
                }
            }
            if let Some(step) = &mut s.run.step_mode {
                step.running = false;
                if result.is_ok() {
                    step.next = (step.next + 1).min(step.total);
                }
                // In step mode the evidence is graded once the last action is done.
                if step.next < step.total {
                    return Vec::new();
                }
            }
            // A finished plan is graded at once, so the evidence pane says where it stands.
            match (result, lesson) {
                (Ok(()), Some(n)) => vec![Effect::Check(n)],
                _ => Vec::new(),
            }
        }
    }
}

fn apply_progress(job: &mut JobView, p: Progress) {
    const LOG_LINES: usize = 50;
    let mut log = |line: LogLine| {
        job.log.push(line);
        if job.log.len() > LOG_LINES {
            job.log.remove(0);
        }
    };
    match p {
        Progress::Started { step, title, .. } => {
            log(LogLine::Started { step, title });
            if let Some(st) = job.steps.get_mut(step - 1) {
                st.state = StepState::Running;
            }
        }
        // A wait says what blocks it on every change it sees; the log keeps each new reason once.
        Progress::Blocker { line, .. } if job.blocker.as_ref() == Some(&line) => {}
        Progress::Blocker { line, .. } => {
            job.blocker = Some(line.clone());
            log(LogLine::Waiting(line));
        }
        Progress::Done { step, summary } => {
            log(LogLine::Done(summary));
            job.blocker = None;
            if let Some(st) = job.steps.get_mut(step - 1) {
                st.state = StepState::Done;
            }
        }
        Progress::Failed { step, error } => {
            log(LogLine::Failed(error));
            if let Some(st) = job.steps.get_mut(step - 1) {
                st.state = StepState::Failed;
            }
        }
        // Every step is to do again: none keeps a ✓ from the pass that went back.
        Progress::StartedOver { why } => {
            log(LogLine::StartedOver(why));
            job.blocker = None;
            for st in &mut job.steps {
                st.state = StepState::Todo;
            }
        }
    }
}

/// Leaves step mode between two actions: a plan stepped only part of the way is not running,
/// so it leaves the screen with it (it said "running" for ever, and r refused every lesson).
pub(super) fn leave_step_mode(s: &mut State) {
    let Some(m) = s.run.step_mode.take() else {
        return;
    };
    if s.run
        .job
        .as_ref()
        .is_some_and(|j| j.lesson == m.lesson && j.finished.is_none())
    {
        s.run.job = None;
    }
}

/// A key that would start a plan while another runs says so, and which, instead of nothing.
pub(super) fn refuse_while_running(s: &mut State, action: Action) {
    if let Some(job) = &s.run.job {
        s.ui.notice = Some(crate::tui::state::Notice::PlanRunning {
            action,
            lesson: job.lesson,
        });
    }
}

/// Step mode: the first press shows the plan and what comes first; each next press runs the
/// action shown, after which the pane says what changed and what comes next.
pub(super) fn step(s: &mut State, lesson: LessonId, running: bool) -> Vec<Effect> {
    let total = s.current().map_or(0, |l| l.spec.actions.len());
    match &mut s.run.step_mode {
        // The action waits for the room's prediction first.
        Some(m) if m.lesson == lesson && !running && m.next < m.total => {
            if s.pending_question().is_some() {
                if let Some(m) = &mut s.run.step_mode {
                    m.answer_first = true;
                }
                return Vec::new();
            }
            if watch::refused_while_unreachable(s, Action::Step) {
                return Vec::new();
            }
            let Some(m) = &mut s.run.step_mode else {
                return Vec::new();
            };
            m.running = true;
            // An action that failed before runs again: its failure is no longer the news.
            if let Some(job) = &mut s.run.job {
                job.finished = None;
            }
            vec![Effect::RunStep {
                lesson,
                action: m.next,
            }]
        }
        Some(m) if m.lesson == lesson => {
            if m.next >= m.total && !running {
                leave_step_mode(s);
            }
            Vec::new()
        }
        _ if running => {
            refuse_while_running(s, Action::Step);
            Vec::new()
        }
        _ if total == 0 => Vec::new(),
        _ => {
            // A new run through the lesson asks the room again: earlier answers are forgotten.
            s.lab
                .answers
                .retain(|key, _| !key.starts_with(&format!("{lesson}:")));
            s.run.step_mode = Some(StepMode {
                lesson,
                next: 0,
                total,
                running: false,
                answer_first: false,
            });
            show_plan(s, lesson);
            Vec::new()
        }
    }
}
