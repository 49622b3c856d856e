//! The plan as the lesson pane shows it: step mode's narration, each step and what blocks it,
//! the log's tail; and, when a small pane cannot show it all, what gives way first.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::i18n::Say;
use crate::lab::spec::Localized;
use crate::t;
use crate::tui::state::{JobView, State, StepState};

/// Frames of the running step's spinner, one per second of the plan.
const SPINNER: [&str; 4] = ["◐", "◓", "◑", "◒"];

/// How much of a plan the lesson pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PlanShape {
    /// Running (or stepping, for a learner): every step, what blocks it, the log's tail.
    Whole,
    /// Presenting in step mode: the narration, and the step just run with its outcome.
    CurrentStep,
    /// Over: one line saying how it ended.
    Ended,
}

pub(super) fn plan_shape(s: &State, job: &JobView) -> PlanShape {
    match (s.stepping_here(), &job.finished) {
        (Some(_), _) if s.ui().present => PlanShape::CurrentStep,
        (Some(_), _) | (None, None) => PlanShape::Whole,
        (None, Some(_)) => PlanShape::Ended,
    }
}

/// How much a line of the plan matters when a small pane cannot show them all: the least
/// goes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Keep {
    /// A blank line between parts.
    Spacing,
    /// The log, the steps that ran, and what other lines say again.
    Log,
    /// What was said before: the last action's outcome, the plan's state.
    Said,
    /// What comes next or runs now: the action a presenter reads out, the running step.
    Next,
    /// Step mode's heading, what a running step waits for, a failure.
    Always,
}

/// A line of the plan, and how much it matters.
pub(super) type Said = (Line<'static>, Keep);

/// The plan's lines, each wrapped to the pane once a frame, with how much it matters.
pub(super) struct Wrapped {
    lines: Vec<(Vec<Line<'static>>, Keep)>,
    width: u16,
}

impl Wrapped {
    pub(super) fn of(said: Vec<Said>, width: u16) -> Wrapped {
        Wrapped {
            lines: said
                .into_iter()
                .map(|(line, keep)| (crate::tui::wrap::wrap(vec![line], width), keep))
                .collect(),
            width,
        }
    }

    /// The rows it takes drawn whole.
    pub(super) fn height(&self) -> usize {
        self.lines.iter().map(|(rows, _)| rows.len()).sum()
    }
}

/// The plan's rows in `rows`: all of them when they fit. Otherwise the lines that matter least
/// give way first (the oldest of them first), each whole, in their order, so a small pane shows
/// what runs now and what comes next, and never a line from its middle. Rows left over show the
/// start of the line that mattered most of those that gave way, cut `…`.
pub(super) fn fit_plan(wrapped: Wrapped, rows: u16) -> Vec<Line<'static>> {
    let rows = usize::from(rows);
    if wrapped.height() <= rows {
        return wrapped.lines.into_iter().flat_map(|(l, _)| l).collect();
    }
    let Wrapped { lines, width } = wrapped;
    let mut shown = vec![true; lines.len()];
    let height = |shown: &[bool]| -> usize {
        lines
            .iter()
            .zip(shown)
            .filter(|(_, s)| **s)
            .map(|((l, _), _)| l.len())
            .sum()
    };
    for level in [Keep::Spacing, Keep::Log, Keep::Said, Keep::Next] {
        while height(&shown) > rows {
            let Some(i) = (0..lines.len()).find(|i| shown[*i] && lines[*i].1 == level) else {
                break;
            };
            shown[i] = false;
        }
    }
    let left = rows.saturating_sub(height(&shown));
    let partial = (0..lines.len())
        .filter(|i| !shown[*i] && lines[*i].1 != Keep::Spacing)
        .max_by_key(|i| (lines[*i].1 as u8, *i))
        .filter(|_| left > 0);
    let mut out = Vec::new();
    for (i, (rows_of, _)) in lines.into_iter().enumerate() {
        if shown[i] {
            out.extend(rows_of);
        } else if Some(i) == partial {
            let mut start: Vec<Line<'static>> = rows_of.into_iter().take(left).collect();
            if let Some(last) = start.last_mut() {
                // The mark goes where the row ends, over its last character when it is full.
                if last.width() >= usize::from(width)
                    && let Some(span) = last.spans.last_mut()
                {
                    let mut text = span.content.to_string();
                    text.pop();
                    span.content = text.into();
                }
                last.spans.push(Span::raw("…"));
            }
            out.extend(start);
        }
    }
    // What must stay is taller than the pane: each line's start says what it is.
    out.truncate(rows);
    out
}

/// Step mode's words: what the last action changed, and what the next one will do and what to
/// watch — from the plan's `say` and `then` in `lesson.yaml` (the step's title when it has none).
fn narration(s: &State) -> Vec<Said> {
    let (theme, lang) = (s.ui().theme, s.lang());
    let Some(m) = s.stepping_here() else {
        return Vec::new();
    };
    let Some(lesson) = s.session().catalog.lesson(m.lesson) else {
        return Vec::new();
    };
    let words = |l: &Localized| l.get(lang).to_string();
    let now = if m.next >= m.total {
        t!(lang, "step-mode-all-done")
    } else if m.running {
        t!(lang, "step-mode-running")
    } else if s.ui().present {
        t!(lang, "step-mode-clicker-runs-it")
    } else {
        t!(lang, "step-mode-g-runs-it")
    };
    let mut lines = vec![(
        Line::from(Span::styled(
            t!(
                lang,
                "step-mode-heading",
                at = m.next.min(m.total),
                of = m.total,
                now = now
            ),
            theme.title(),
        )),
        Keep::Always,
    )];
    if let Some(then) = m
        .next
        .checked_sub(1)
        .and_then(|i| lesson.spec.actions.get(i))
        .filter(|_| !m.running)
        .and_then(|a| a.then.as_ref())
    {
        lines.push((
            Line::from(Span::styled(
                format!("✓ {}", words(then)),
                theme.good().add_modifier(Modifier::BOLD),
            )),
            Keep::Said,
        ));
    }
    // Presenting, the question and its answer are a layer of their own, large, for the room.
    if !s.ui().present {
        // The question must be answered before the next action runs; its reveal is the point.
        lines.extend(
            crate::tui::prediction::lines(s)
                .into_iter()
                .map(|l| (l, Keep::Next)),
        );
    }
    if let Some(action) = lesson.spec.actions.get(m.next) {
        let say = action
            .say
            .as_ref()
            .map_or_else(|| action.step.title().say(lang), words);
        lines.push((
            Line::from(Span::styled(
                format!("▶ {say}"),
                theme.warn().add_modifier(Modifier::BOLD),
            )),
            Keep::Next,
        ));
    }
    lines.push((Line::raw(""), Keep::Spacing));
    lines
}

/// How the plan stands, said after its heading, and how much that matters.
fn plan_state(s: &State, job: &JobView, shape: PlanShape, elapsed: u64) -> (Span<'static>, Keep) {
    let (theme, lang) = (s.ui().theme, s.lang());
    // Under --speed the checklist and the steps' times are the cluster's: the time the plan
    // took is said on both clocks, so 66 s beside five minutes of ticks is not a contradiction.
    let took = |done: bool| -> String {
        let wall = if done {
            t!(lang, "plan-done", seconds = elapsed)
        } else {
            t!(lang, "plan-running", seconds = elapsed)
        };
        crate::session::clock::took_on_both_clocks(
            lang,
            wall,
            std::time::Duration::from_secs(elapsed),
            s.session().clock.as_ref(),
            0,
        )
    };
    let stepping_idle = s.stepping_here().is_some_and(|m| !m.running);
    // Waiting for the next press says again what step mode's heading says: it goes first.
    match &job.finished {
        None if stepping_idle && s.ui().present => (
            Span::styled(t!(lang, "plan-waiting-for-next"), theme.dim()),
            Keep::Log,
        ),
        None if stepping_idle => (
            Span::styled(t!(lang, "plan-waiting-for-g"), theme.dim()),
            Keep::Log,
        ),
        None => (Span::styled(took(false), theme.warn()), Keep::Said),
        Some(Ok(())) => (Span::styled(took(true), theme.good()), Keep::Said),
        // Over, and the lab has moved on since (the learner fixed it by hand): the reason
        // may no longer hold, so it is not said as if it did.
        Some(Err(_))
            if shape == PlanShape::Ended
                && job.done_when_ended != Some(s.checklist_done(job.lesson)) =>
        {
            let step = job
                .steps
                .iter()
                .position(|st| st.state == StepState::Failed)
                .map_or(0, |i| i + 1);
            (
                Span::styled(
                    t!(lang, "plan-failed-lab-moved-on", step = step.to_string()),
                    theme.dim(),
                ),
                Keep::Said,
            )
        }
        Some(Err(e)) => (
            Span::styled(format!("✗ {}", crate::i18n::Say::say(e, lang)), theme.bad()),
            Keep::Always,
        ),
    }
}

/// "Do it for me" as a checklist: elapsed time, each step's state, what blocks it, the log's
/// tail; presenting in step mode only the step just run and its outcome; over, one line.
pub(super) fn plan(s: &State, job: &JobView) -> Vec<Said> {
    let (theme, lang) = (s.ui().theme, s.lang());
    let shape = plan_shape(s, job);
    let mut plan = narration(s);
    let elapsed = job.elapsed(s.session().wall_now()).as_secs();
    let (state, keep) = plan_state(s, job, shape, elapsed);
    plan.push((
        Line::from(vec![
            Span::styled(
                t!(lang, "plan-heading", lesson = job.lesson.to_string()),
                theme.title(),
            ),
            state,
        ]),
        keep,
    ));
    if shape == PlanShape::Ended {
        return plan;
    }
    let glyph = |state: StepState| match state {
        StepState::Todo => ("·", theme.dim()),
        StepState::Running => (
            SPINNER[(elapsed % SPINNER.len() as u64) as usize],
            theme.warn(),
        ),
        StepState::Done => ("✓", theme.good()),
        StepState::Failed => ("✗", theme.bad()),
    };
    let steps: Vec<&crate::tui::state::PlanStep> = match shape {
        // Failed, the heading names the step and says why.
        PlanShape::CurrentStep if matches!(job.finished, Some(Err(_))) => Vec::new(),
        // The step running, else the last one that ran.
        PlanShape::CurrentStep => job
            .steps
            .iter()
            .rev()
            .find(|st| st.state == StepState::Running)
            .or_else(|| {
                job.steps
                    .iter()
                    .rev()
                    .find(|st| st.state != StepState::Todo)
            })
            .into_iter()
            .collect(),
        _ => job.steps.iter().collect(),
    };
    for step in steps {
        let (glyph, style) = glyph(step.state);
        // The step running matters; one that failed says where; the rest are the plan's map,
        // and a step that ran is said better by the narration's outcome above it.
        let keep = match step.state {
            StepState::Running => Keep::Next,
            StepState::Failed => Keep::Said,
            StepState::Todo | StepState::Done => Keep::Log,
        };
        plan.push((
            Line::from(Span::styled(
                format!(" {glyph} {}", step.title.say(lang)),
                style,
            )),
            keep,
        ));
    }
    if let Some(blocker) = &job.blocker {
        plan.push((
            Line::from(Span::styled(
                format!(" {}", blocker.say(lang)),
                theme.warn(),
            )),
            Keep::Always,
        ));
    }
    // The log's tail: what the plan did last (presenting, only what the step just said, and
    // nothing once it failed: the heading above says how, and the room reads it once).
    let tail = match shape {
        PlanShape::CurrentStep if matches!(job.finished, Some(Err(_))) => 0,
        PlanShape::CurrentStep => 2,
        _ => 3,
    };
    for line in job.log.iter().skip(job.log.len().saturating_sub(tail)) {
        // Presenting, a step's title and what blocks it are drawn live above: the log's copies
        // of them would only push the live lines out of a small pane.
        if shape == PlanShape::CurrentStep && line.repeats_the_live_step() {
            continue;
        }
        plan.push((
            Line::from(Span::styled(line.say(lang), theme.dim())),
            Keep::Log,
        ));
    }
    plan
}
