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
use crate::tui::state::{ItemState, JobView, Pane, State, StepMode, StepState, answer_key};

pub struct LessonView<'a>(pub &'a State);

/// Frames of the running step's spinner, one per second of the plan.
const SPINNER: [&str; 4] = ["◐", "◓", "◑", "◒"];

impl Widget for &LessonView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        draw(self.0, area, buf);
    }
}

/// Draws the lesson pane and returns its extent (as [`extent`]), from the text it drew: the
/// lesson's text is built once a frame.
pub fn draw(s: &State, area: Rect, buf: &mut Buffer) -> (u16, u16, u16) {
    let Some(lesson) = s.current() else {
        Paragraph::new(t!(s.lang(), "lesson-none")).render(area, buf);
        return (0, area.height, 0);
    };
    let [top, bottom] = split(s, area);
    let text = text_of(s, lesson, top);
    let total = u16::try_from(text.line_count(top.width)).unwrap_or(u16::MAX);
    let max = total.saturating_sub(top.height);
    let offset =
        s.ui.scroll
            .get(&Pane::Lesson)
            .copied()
            .unwrap_or(0)
            .min(max);
    text.scroll((offset, 0)).render(top, buf);
    if let Some(job) = &s.run.job {
        Paragraph::new(super::wrap::wrap(plan(s, job), bottom.width)).render(bottom, buf);
    }
    (total, top.height, max)
}

/// The lesson's text above, the running plan (if any) below.
fn split(s: &State, area: Rect) -> [Rect; 2] {
    let plan_height = s.run.job.as_ref().map_or(0, |j| {
        let narration = if s.run.step_mode.is_some() { 6 } else { 0 };
        (j.steps.len() as u16 + 6 + narration).min(area.height * 3 / 5)
    });
    Layout::vertical([Constraint::Min(3), Constraint::Length(plan_height)]).areas(area)
}

/// (lines in all, lines shown, how far it can scroll) of the lesson's text in `area`.
pub fn extent(s: &State, area: Rect) -> (u16, u16, u16) {
    let Some(lesson) = s.current() else {
        return (0, area.height, 0);
    };
    let [top, _] = split(s, area);
    let text = text_of(s, lesson, top);
    let total = u16::try_from(text.line_count(top.width)).unwrap_or(u16::MAX);
    (total, top.height, total.saturating_sub(top.height))
}

/// The lesson's text as it is drawn: header, checklist, verdict and the part shown.
fn text_of<'a>(s: &'a State, lesson: &'a Lesson, top: Rect) -> Paragraph<'a> {
    {
        let mut lines = header(s, lesson);
        // Small panes get the checklist as one line; the rest, step by step.
        lines.extend(checklist(s, lesson, top.height < 18));
        // The self-check's verdict first (a long lesson must not push it out of sight), with
        // what failed and the hint that helps.
        lines.extend(verdict(s, lesson));
        let marked = s.selected_command().map(|c| c.code_lines);
        let (mut text, first_marked) =
            markdown::render_marked(&s.session.fit.render(&body(s, lesson)), s.ui.theme, marked);
        // Keep the selected command in sight: skip what is above it, and say so.
        if let Some(first) = first_marked {
            let skip = first.saturating_sub(2);
            if skip > 0 && lines.len() + first + 6 > usize::from(top.height) {
                text.drain(..skip);
                lines.push(Line::from(Span::styled(
                    t!(s.lang(), "lesson-lines-above", lines = skip),
                    s.ui.theme.dim(),
                )));
            }
        }
        lines.extend(text);
        Paragraph::new(super::wrap::wrap(lines, top.width))
    }
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
fn narration(s: &State) -> Vec<Line<'static>> {
    let (theme, lang) = (s.ui.theme, s.lang());
    let Some(m) = &s.run.step_mode else {
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
    } else {
        t!(lang, "step-mode-g-runs-it")
    };
    let mut lines = vec![Line::from(Span::styled(
        t!(
            lang,
            "step-mode-heading",
            at = m.next.min(m.total),
            of = m.total,
            now = now
        ),
        theme.title(),
    ))];
    if let Some(then) = m
        .next
        .checked_sub(1)
        .and_then(|i| lesson.spec.actions.get(i))
        .filter(|_| !m.running)
        .and_then(|a| a.then.as_ref())
    {
        lines.push(Line::from(Span::styled(
            format!("✓ {}", words(then)),
            theme.good().add_modifier(Modifier::BOLD),
        )));
    }
    lines.extend(predictions(s, lesson, m));
    if let Some(action) = lesson.spec.actions.get(m.next) {
        let say = action
            .say
            .as_ref()
            .map_or_else(|| action.step.title(lang), words);
        lines.push(Line::from(Span::styled(
            format!("▶ {say}"),
            theme.warn().add_modifier(Modifier::BOLD),
        )));
    }
    lines.push(Line::raw(""));
    lines
}

/// Predict, then watch: the question the next action asks (with its choices), or — after the
/// action that answers it ran — the prediction beside the live value.
pub fn predictions(s: &State, lesson: &Lesson, m: &StepMode) -> Vec<Line<'static>> {
    let (theme, lang) = (s.ui.theme, s.lang());
    let mut lines = Vec::new();
    if let Some((_, ask)) = s.pending_question() {
        lines.push(Line::from(Span::styled(
            t!(lang, "predict-question", question = ask.question.get(lang)),
            theme.accent().add_modifier(Modifier::BOLD),
        )));
        let choices: Vec<String> = ask
            .choices
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}) {c}", i + 1))
            .collect();
        lines.push(Line::raw(format!(
            "  {}   ← 1–{}",
            choices.join("   "),
            ask.choices.len()
        )));
    }
    let answered = m
        .next
        .checked_sub(1)
        .filter(|_| !m.running)
        .and_then(|i| Some((i, lesson.spec.actions.get(i)?.ask.as_ref()?)));
    if let Some((i, ask)) = answered {
        let said = s
            .lab
            .answers
            .get(&answer_key(m.lesson, i))
            .cloned()
            .unwrap_or_else(|| "-".into());
        let live = crate::lab::eval::derived::revealed(&ask.reveal, &s.live.objects)
            .unwrap_or_else(|| "?".into());
        let right = said == live || said.ends_with(&format!(" {live}"));
        lines.push(Line::from(Span::styled(
            format!(
                "{} {}",
                if right { "✓" } else { "✗" },
                t!(lang, "predict-reveal", said = said, live = live)
            ),
            if right { theme.good() } else { theme.bad() },
        )));
    }
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

/// "Do it for me" as a checklist: elapsed time, each step's state, what blocks it, the log's tail.
fn plan(s: &State, job: &JobView) -> Vec<Line<'static>> {
    let (theme, lang) = (s.ui.theme, s.lang());
    let mut plan = narration(s);
    let elapsed = job.took.unwrap_or_else(|| job.started.elapsed()).as_secs();
    let stepping_idle = s.run.step_mode.as_ref().is_some_and(|m| !m.running);
    let state = match &job.finished {
        None if stepping_idle => Span::styled(t!(lang, "plan-waiting-for-g"), theme.dim()),
        None => Span::styled(t!(lang, "plan-running", seconds = elapsed), theme.warn()),
        Some(Ok(())) => Span::styled(t!(lang, "plan-done", seconds = elapsed), theme.good()),
        Some(Err(e)) => Span::styled(format!("✗ {e}"), theme.bad()),
    };
    plan.push(Line::from(vec![
        Span::styled(
            t!(lang, "plan-heading", lesson = job.lesson.to_string()),
            theme.title(),
        ),
        state,
    ]));
    for step in &job.steps {
        let title = &step.title;
        let (glyph, style) = match step.state {
            StepState::Todo => ("·", theme.dim()),
            StepState::Running => (
                SPINNER[(elapsed % SPINNER.len() as u64) as usize],
                theme.warn(),
            ),
            StepState::Done => ("✓", theme.good()),
            StepState::Failed => ("✗", theme.bad()),
        };
        plan.push(Line::from(Span::styled(format!(" {glyph} {title}"), style)));
    }
    if !job.blocker.is_empty() {
        plan.push(Line::from(Span::styled(
            format!(" {}", job.blocker),
            theme.warn(),
        )));
    }
    // The log's tail: what the plan did last.
    for line in job.log.iter().skip(job.log.len().saturating_sub(3)) {
        plan.push(Line::from(Span::styled(line.clone(), theme.dim())));
    }
    plan
}
