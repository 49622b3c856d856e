//! The lesson pane: the current part of the lesson (presenter keys step through them), the hints
//! asked for so far, and — while "do it for me" runs — the plan as a checklist with elapsed time,
//! what blocks it, and the tail of its log.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{Look, markdown};
use strum::EnumCount;

use crate::lab::catalog::{Lesson, Section};
use crate::lab::spec::Localized;
use crate::t;
use crate::tui::state::{ItemState, JobView, Pane, State, StepState};

pub struct LessonView<'a>(pub &'a State);

/// Frames of the running step's spinner, one per second of the plan.
const SPINNER: [&str; 4] = ["◐", "◓", "◑", "◒"];

impl Widget for &LessonView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        draw(self.0, area, buf);
    }
}

/// What a drawn lesson pane holds: (lines in all, lines shown, how far it can scroll), and the
/// line it was drawn from.
pub struct Drawn {
    pub extent: (u16, u16, u16),
    pub offset: u16,
}

/// Draws the lesson pane from text built once a frame, and says what it drew.
pub fn draw(s: &State, area: Rect, buf: &mut Buffer) -> Drawn {
    let Some(lesson) = s.current() else {
        Paragraph::new(t!(s.lang(), "lesson-none")).render(area, buf);
        return Drawn {
            extent: (0, area.height, 0),
            offset: 0,
        };
    };
    // The plan's lines, built once: they set its height and are what it draws.
    let job = s.job_here();
    let plan_said = job.map(|job| plan(s, job)).unwrap_or_default();
    let plan_lines = crate::tui::wrap::wrap(
        plan_said.iter().map(|(line, _)| line.clone()).collect(),
        area.width,
    );
    // Presenting, the room read the narration before the press: what runs now matters more.
    // Otherwise the narration (with the question to predict) comes first and the log gives way.
    let presenting = job.is_some_and(|job| plan_shape(s, job) == PlanShape::CurrentStep);
    // A step that failed in front of the room: why, and what to do, matter more than the
    // lesson's text, which keeps its title and goal.
    let failed = job.is_some_and(|job| matches!(job.finished, Some(Err(_))));
    let most = if presenting && failed {
        area.height.saturating_sub(2)
    } else {
        area.height * 3 / 5
    };
    let [top, bottom] = split(area, plan_lines.len(), most);
    let plan_lines = if presenting && plan_lines.len() > usize::from(bottom.height) {
        fit_plan(plan_said, area.width, bottom.height)
    } else {
        plan_lines
    };
    let laid = lay_out(s, lesson, top);
    let drawn = Drawn {
        extent: (laid.total(), laid.height, laid.max()),
        offset: laid.offset,
    };
    let head_rows = u16::try_from(laid.head.len()).unwrap_or(0);
    let [head, body] =
        Layout::vertical([Constraint::Length(head_rows), Constraint::Fill(1)]).areas(top);
    Paragraph::new(laid.head).render(head, buf);
    Paragraph::new(laid.lines)
        .scroll((laid.offset, 0))
        .render(body, buf);
    Paragraph::new(plan_lines).render(bottom, buf);
    drawn
}

/// The lesson's text wrapped to its part of the pane, and the line it is drawn from; while a
/// command is chosen, the lesson's head (title, checklist, verdict) stays at the top, so the
/// checklist ticks in sight of what is typed.
struct Laid {
    head: Vec<Line<'static>>,
    lines: Vec<Line<'static>>,
    height: u16,
    offset: u16,
}

impl Laid {
    fn total(&self) -> u16 {
        u16::try_from(self.lines.len()).unwrap_or(u16::MAX)
    }

    fn max(&self) -> u16 {
        self.total().saturating_sub(self.height)
    }
}

/// Where the text is drawn from: the learner's scroll, moved as little as it takes to show
/// the selected command whole (its first line, when it is taller than the pane).
fn lay_out(s: &State, lesson: &Lesson, top: Rect) -> Laid {
    let (mut lines, head_rows, mut marked) = text_of(s, lesson, top);
    let mut head = Vec::new();
    let mut height = top.height;
    if let Some((first, last)) = marked
        && head_rows < usize::from(top.height / 2)
        && first >= head_rows
    {
        head = lines.drain(..head_rows).collect();
        marked = Some((first - head_rows, last - head_rows));
        height -= u16::try_from(head_rows).unwrap_or(0);
    }
    let mut laid = Laid {
        head,
        lines,
        height,
        offset: 0,
    };
    let top = Rect { height, ..top };
    let wanted = s.ui.scroll.get(&Pane::Lesson).copied().unwrap_or(0);
    laid.offset = match marked {
        Some((first, last)) => {
            let (first, last) = (
                u16::try_from(first).unwrap_or(u16::MAX),
                u16::try_from(last).unwrap_or(u16::MAX),
            );
            // A line of context above the command when there is room for it.
            let highest = first.saturating_sub(1);
            let lowest = (last + 1).saturating_sub(top.height);
            if lowest > first {
                first
            } else {
                wanted.clamp(lowest, highest.max(lowest))
            }
        }
        None => wanted,
    }
    .min(laid.max());
    laid
}

/// How much of a plan the lesson pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PlanShape {
    /// Running (or stepping, for a learner): every step, what blocks it, the log's tail.
    Whole,
    /// Presenting in step mode: the narration, and the step just run with its outcome.
    CurrentStep,
    /// Over: one line saying how it ended.
    Ended,
}

fn plan_shape(s: &State, job: &JobView) -> PlanShape {
    match (s.stepping_here(), &job.finished) {
        (Some(_), _) if s.ui.present => PlanShape::CurrentStep,
        (Some(_), _) | (None, None) => PlanShape::Whole,
        (None, Some(_)) => PlanShape::Ended,
    }
}

/// How much a line of the plan matters when a small pane cannot show them all: the least
/// goes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
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
type Said = (Line<'static>, Keep);

/// The plan's lines in `rows` of `width`, presenting, when they do not fit: the lines that
/// matter least give way first (the oldest of them first), each whole, in their order, so a
/// small pane shows what runs now and what comes next, and never a line from its middle. Rows
/// left over show the start of the line that mattered most of those that gave way, cut `…`.
fn fit_plan(said: Vec<Said>, width: u16, rows: u16) -> Vec<Line<'static>> {
    let rows = usize::from(rows);
    let lines: Vec<(Vec<Line<'static>>, Keep)> = said
        .into_iter()
        .map(|(line, keep)| (crate::tui::wrap::wrap(vec![line], width), keep))
        .collect();
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

/// The lesson's text above, the plan of this lesson (if any) below, as tall as its lines
/// wrapped to the pane, at most `most` rows (three fifths of it: the lesson stays in view).
fn split(area: Rect, plan_rows: usize, most: u16) -> [Rect; 2] {
    let plan_height = u16::try_from(plan_rows).unwrap_or(u16::MAX).min(most);
    Layout::vertical([Constraint::Fill(1), Constraint::Length(plan_height)]).areas(area)
}

/// The lesson's text as it is drawn, wrapped to the pane: header, checklist, verdict and the
/// part shown; how many rows the head (title, checklist, verdict) takes; and the rows of the
/// selected command (first, last), each marked `▌`.
fn text_of(
    s: &State,
    lesson: &Lesson,
    top: Rect,
) -> (Vec<Line<'static>>, usize, Option<(usize, usize)>) {
    let mut lines = header(s, lesson);
    if s.ui.at_lesson_end {
        lines.extend(next_lesson(s));
    }
    // Small panes get the checklist as one line; the rest, step by step.
    lines.extend(checklist(s, lesson, top.height < 18));
    // The self-check's verdict first (a long lesson must not push it out of sight), with
    // what failed and the hint that helps.
    lines.extend(verdict(s, lesson));
    let mut out = crate::tui::wrap::wrap(lines, top.width);
    let head_rows = out.len();
    let marked = s.selected_command().map(|c| c.code_lines);
    let (text, first_marked) =
        markdown::render_marked(&s.session.fit.render(&body(s, lesson)), s.ui.theme, marked);
    let marked_rows = marked.map_or(0, |(a, b)| b - a + 1);
    let mut rows: Option<(usize, usize)> = None;
    for (i, line) in text.into_iter().enumerate() {
        let is_marked = first_marked.is_some_and(|f| (f..f + marked_rows).contains(&i));
        if !is_marked {
            out.extend(crate::tui::wrap::wrap(vec![line], top.width));
            continue;
        }
        // Every row of the chosen command carries the mark, wrapped ones too.
        let style = line.style;
        let mut rest = line;
        let mark = rest.spans.remove(0);
        let start = out.len();
        for row in crate::tui::wrap::wrap(vec![rest], top.width.saturating_sub(2)) {
            let mut spans = vec![mark.clone()];
            spans.extend(row.spans);
            out.push(Line::from(spans).style(style));
        }
        let end = out.len() - 1;
        rows = Some(rows.map_or((start, end), |(a, _)| (a, end)));
    }
    (out, head_rows, rows)
}

/// The lesson's number and title, the part shown and the evidence file it writes.
fn header(s: &State, lesson: &Lesson) -> Vec<Line<'static>> {
    let (theme, lang) = (s.ui.theme, s.lang());
    let evidence = lesson
        .evidence_file()
        .map_or_else(|| t!(lang, "lesson-no-evidence"), String::from);
    vec![
        Line::from(Span::styled(
            format!("{} · {}", lesson.spec.number, lesson.title(lang)),
            theme.title(),
        )),
        Line::from(Span::styled(
            t!(
                lang,
                "lesson-part",
                part = s.ui.section.name(lang),
                at = s.ui.section.ordinal(),
                of = Section::COUNT,
                evidence = evidence
            ),
            theme.accent(),
        )),
        Line::raw(""),
    ]
}

/// The end of the lesson's last part: which lesson PgDn goes to next (or that this was the last).
fn next_lesson(s: &State) -> Vec<Line<'static>> {
    let (theme, lang) = (s.ui.theme, s.lang());
    let words = match s.lessons().get(s.lesson_index() + 1) {
        Some(next) => t!(
            lang,
            "lesson-end-next",
            lesson = next.spec.number.to_string(),
            title = next.title(lang)
        ),
        None => t!(lang, "lesson-end-last"),
    };
    vec![
        Line::from(Span::styled(
            words,
            theme
                .warn()
                .add_modifier(Modifier::BOLD | Modifier::REVERSED),
        )),
        Line::raw(""),
    ]
}

/// The lesson's checklist as it stands now: each step done with the time it was done, undone
/// with why, counting down the time it needs, or next with what is missing; or, compact, how
/// many are done and what is next.
fn checklist(s: &State, lesson: &Lesson, compact: bool) -> Vec<Line<'static>> {
    use crate::i18n::Say;
    let (theme, lang) = (s.ui.theme, s.lang());
    let look = Look::of(s);
    let items = &lesson.spec.checklist;
    if items.is_empty() {
        return Vec::new();
    }
    let states = s.lab.checklists.get(&lesson.id());
    let state = |i: usize| states.and_then(|st| st.get(i));
    let done = (0..items.len())
        .filter(|i| state(*i).is_some_and(ItemState::done))
        .count();
    let next = (0..items.len()).find(|i| !state(*i).is_some_and(ItemState::done));
    let label = |i: usize| items[i].step.get(lang).to_string();
    let count = t!(lang, "checklist-count", done = done, of = items.len());
    if compact {
        let rest = next.map_or_else(
            || t!(lang, "checklist-all-done"),
            |i| t!(lang, "checklist-next", step = label(i)),
        );
        return vec![Line::from(Span::styled(
            format!("{count}{rest}"),
            theme.accent(),
        ))];
    }
    let mut lines = vec![Line::from(Span::styled(count, theme.accent()))];
    for i in 0..items.len() {
        let line = match state(i) {
            Some(ItemState::Done { at }) => vec![Span::styled(
                format!(" ✓ {} {}", look.clock(*at), label(i)),
                theme.good(),
            )],
            Some(ItemState::Undone { was, why }) => vec![
                Span::styled(format!(" ✗ {}", label(i)), theme.bad()),
                Span::styled(
                    format!(
                        " — {}",
                        t!(
                            lang,
                            "checklist-undone",
                            was = look.clock(*was),
                            why = why.say(lang)
                        )
                    ),
                    theme.bad(),
                ),
            ],
            Some(ItemState::Counting { left }) => vec![
                Span::styled(format!(" ⧗ {}", label(i)), theme.warn()),
                Span::styled(
                    format!(
                        " — {}",
                        t!(lang, "checklist-counting", seconds = left.to_string())
                    ),
                    theme.warn(),
                ),
            ],
            _ if Some(i) == next => {
                vec![Span::styled(format!(" ▸ {}", label(i)), theme.title())]
            }
            _ => vec![Span::styled(format!(" · {}", label(i)), theme.dim())],
        };
        lines.push(Line::from(line));
    }
    lines.push(Line::raw(""));
    lines
}

/// Step mode's words: what the last action changed, and what the next one will do and what to
/// watch — from the plan's `say` and `then` in `lesson.yaml` (the step's title when it has none).
fn narration(s: &State) -> Vec<Said> {
    let (theme, lang) = (s.ui.theme, s.lang());
    let Some(m) = s.stepping_here() else {
        return Vec::new();
    };
    let Some(lesson) = s.session.catalog.lesson(m.lesson) else {
        return Vec::new();
    };
    let words = |l: &Localized| l.get(lang).to_string();
    let now = if m.next >= m.total {
        t!(lang, "step-mode-all-done")
    } else if m.running {
        t!(lang, "step-mode-running")
    } else if s.ui.present {
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
    if !s.ui.present {
        lines.extend(
            crate::tui::prediction::lines(s)
                .into_iter()
                .map(|l| (l, Keep::Said)),
        );
    }
    if let Some(action) = lesson.spec.actions.get(m.next) {
        let say = action
            .say
            .as_ref()
            .map_or_else(|| action.step.title(lang), words);
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

/// The text of the part shown; hints only as far as the learner asked for them.
fn body(s: &State, lesson: &Lesson) -> String {
    let text = lesson.text(s.lang());
    match s.ui.section {
        Section::Hints if s.ui.hints_shown == 0 => t!(s.lang(), "lesson-press-h"),
        Section::Hints => text
            .hints
            .iter()
            .take(s.ui.hints_shown)
            .enumerate()
            .map(|(i, h)| format!("{}. {h}", i + 1))
            .collect::<Vec<_>>()
            .join("\n"),
        other => text.section(other),
    }
}

/// The self-check's verdict on the lesson's evidence: what failed and the hint that helps.
fn verdict(s: &State, lesson: &Lesson) -> Vec<Line<'static>> {
    let (theme, lang) = (s.ui.theme, s.lang());
    let mut lines = Vec::new();
    let key = lesson
        .evidence_file()
        .map_or_else(|| format!("lesson {}", lesson.spec.number), String::from);
    let Some(g) = s.lab.grades.get(&key) else {
        return lines;
    };
    // A file that is not there (any more) has no verdict, whatever an older check said: the
    // checklist says to write it.
    if lesson.evidence_file().is_some()
        && s.evidence_standing(&key) == crate::tui::state::EvidenceStanding::Missing
    {
        return lines;
    }
    let n = lesson.spec.number.to_string();
    let look = Look::of(s);
    let when = g
        .checked_at
        .map(|t| t!(lang, "verdict-checked-at", clock = look.clock(t)))
        .unwrap_or_default();
    if g.passed() {
        let words = if g.file.is_empty() {
            t!(lang, "verdict-steps-pass", lesson = n, when = when.as_str())
        } else {
            t!(
                lang,
                "verdict-file-passes",
                file = key.as_str(),
                when = when.as_str()
            )
        };
        lines.push(Line::from(Span::styled(format!("✓ {words}"), theme.good())));
    } else {
        let words = if g.file.is_empty() {
            t!(lang, "verdict-steps-fail", lesson = n, when = when.as_str())
        } else {
            t!(
                lang,
                "verdict-file-fails",
                file = key.as_str(),
                when = when.as_str()
            )
        };
        lines.push(Line::from(Span::styled(format!("✗ {words}"), theme.bad())));
        let hints = &lesson.text(lang).hints;
        for f in g.findings.iter().filter(|f| !f.ok).take(3) {
            lines.push(Line::from(Span::styled(
                format!("  ✗ {}", f.what),
                theme.bad(),
            )));
            if let Some(help) = &f.help {
                lines.push(Line::from(Span::styled(
                    format!("    {}", t!(lang, "verdict-help", help = help.as_str())),
                    theme.warn(),
                )));
            } else if let Some((n, hint)) = f.hint.and_then(|h| hints.get(h - 1).map(|t| (h, t))) {
                lines.push(Line::from(Span::styled(
                    format!(
                        "    {}",
                        t!(
                            lang,
                            "verdict-hint",
                            n = n,
                            hint = s.session.fit.render(hint)
                        )
                    ),
                    theme.warn(),
                )));
            }
        }
    }
    lines.push(Line::raw(""));
    lines
}

/// "Do it for me" as a checklist: elapsed time, each step's state, what blocks it, the log's
/// tail; presenting in step mode only the step just run and its outcome; over, one line.
fn plan(s: &State, job: &JobView) -> Vec<Said> {
    let (theme, lang) = (s.ui.theme, s.lang());
    let shape = plan_shape(s, job);
    let mut plan = narration(s);
    let elapsed = job.took.unwrap_or_else(|| job.started.elapsed()).as_secs();
    let stepping_idle = s.stepping_here().is_some_and(|m| !m.running);
    // Waiting for the next press says again what step mode's heading says: it goes first.
    let (state, keep) = match &job.finished {
        None if stepping_idle && s.ui.present => (
            Span::styled(t!(lang, "plan-waiting-for-next"), theme.dim()),
            Keep::Log,
        ),
        None if stepping_idle => (
            Span::styled(t!(lang, "plan-waiting-for-g"), theme.dim()),
            Keep::Log,
        ),
        None => (
            Span::styled(t!(lang, "plan-running", seconds = elapsed), theme.warn()),
            Keep::Said,
        ),
        Some(Ok(())) => (
            Span::styled(t!(lang, "plan-done", seconds = elapsed), theme.good()),
            Keep::Said,
        ),
        Some(Err(e)) => (
            Span::styled(format!("✗ {}", crate::i18n::Say::say(e, lang)), theme.bad()),
            Keep::Always,
        ),
    };
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
        // A step that ran is said better by the narration's outcome above it.
        let keep = if step.state == StepState::Running {
            Keep::Next
        } else {
            Keep::Log
        };
        plan.push((
            Line::from(Span::styled(format!(" {glyph} {}", step.title), style)),
            keep,
        ));
    }
    if !job.blocker.is_empty() {
        plan.push((
            Line::from(Span::styled(format!(" {}", job.blocker), theme.warn())),
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
        if shape == PlanShape::CurrentStep && (line.starts_with('[') || line.starts_with("    …"))
        {
            continue;
        }
        plan.push((
            Line::from(Span::styled(line.clone(), theme.dim())),
            Keep::Log,
        ));
    }
    plan
}
