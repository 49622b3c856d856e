//! The lesson pane: the current part of the lesson (presenter keys step through them), the hints
//! asked for so far, and — while "do it for me" runs — the plan as a checklist with elapsed time,
//! what blocks it, and the tail of its log.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::markdown;
use strum::EnumCount;

use crate::lab::catalog::{Lang, Lesson, Section};
use crate::tui::state::{JobView, Pane, State, StepState};

pub struct LessonView<'a>(pub &'a State);

/// Frames of the running step's spinner, one per second of the plan.
const SPINNER: [&str; 4] = ["◐", "◓", "◑", "◒"];

impl Widget for &LessonView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let s = self.0;
        let Some(lesson) = s.current() else {
            Paragraph::new("No lessons found.").render(area, buf);
            return;
        };
        let [top, bottom] = split(s, area);
        let text = text_of(s, lesson, top);
        let max = max_scroll(&text, top);
        let offset = s.scroll.get(&Pane::Lesson).copied().unwrap_or(0).min(max);
        text.scroll((offset, 0)).render(top, buf);
        if let Some(job) = &s.job {
            Paragraph::new(plan(s, job))
                .wrap(Wrap { trim: false })
                .render(bottom, buf);
        }
    }
}

/// The lesson's text above, the running plan (if any) below.
fn split(s: &State, area: Rect) -> [Rect; 2] {
    let plan_height = s.job.as_ref().map_or(0, |j| {
        let narration = if s.step_mode.is_some() { 6 } else { 0 };
        (j.steps.len() as u16 + 6 + narration).min(area.height * 3 / 5)
    });
    Layout::vertical([Constraint::Min(3), Constraint::Length(plan_height)]).areas(area)
}

/// How far a paragraph drawn in `area` can scroll.
fn max_scroll(p: &Paragraph<'_>, area: Rect) -> u16 {
    u16::try_from(p.line_count(area.width))
        .unwrap_or(u16::MAX)
        .saturating_sub(area.height)
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
            markdown::render_marked(&s.fit.render(&body(s, lesson)), s.theme, marked);
        // Keep the selected command in sight: skip what is above it, and say so.
        if let Some(first) = first_marked {
            let skip = first.saturating_sub(2);
            if skip > 0 && lines.len() + first + 6 > usize::from(top.height) {
                text.drain(..skip);
                lines.push(Line::from(Span::styled(
                    format!("↑ {skip} lines above · [ ] choose · y type it · Y copy"),
                    s.theme.dim(),
                )));
            }
        }
        lines.extend(text);
        Paragraph::new(lines).wrap(Wrap { trim: false })
    }
}

/// The lesson's number and title, the part shown and the evidence file it writes.
fn header(s: &State, lesson: &Lesson) -> Vec<Line<'static>> {
    vec![
        Line::from(Span::styled(
            format!("{} · {}", lesson.spec.number, lesson.title(s.lang)),
            s.theme.title(),
        )),
        Line::from(Span::styled(
            format!(
                "{} ({}/{})  ·  evidence: {}",
                s.section.name(s.lang),
                s.section.ordinal(),
                Section::COUNT,
                lesson.evidence_file().unwrap_or("none")
            ),
            s.theme.accent(),
        )),
        Line::raw(""),
    ]
}

/// The lesson's checklist: each step ticked with the time it was seen done, the next one
/// pointed at; or, compact, how many are done and what is next.
fn checklist(s: &State, lesson: &Lesson, compact: bool) -> Vec<Line<'static>> {
    let items = &lesson.spec.checklist;
    if items.is_empty() {
        return Vec::new();
    }
    let ticks = s.ticks.get(&lesson.spec.number);
    let done_at = |i: usize| ticks.and_then(|t| t.get(&i));
    let done = (0..items.len()).filter(|i| done_at(*i).is_some()).count();
    let next = (0..items.len()).find(|i| done_at(*i).is_none());
    let label = |i: usize| match s.lang {
        Lang::En => items[i].step.en.clone(),
        Lang::Zh => items[i].step.zh.clone(),
    };
    let title = if s.lang == Lang::Zh {
        "检查清单"
    } else {
        "Checklist"
    };
    if compact {
        let rest = next.map_or_else(
            || {
                if s.lang == Lang::Zh {
                    " · 全部完成".into()
                } else {
                    " · all done".into()
                }
            },
            |i| format!(" · next: {}", label(i)),
        );
        return vec![Line::from(Span::styled(
            format!("{title} {done}/{}{rest}", items.len()),
            s.theme.accent(),
        ))];
    }
    let mut lines = vec![Line::from(Span::styled(
        format!("{title} {done}/{}", items.len()),
        s.theme.accent(),
    ))];
    for i in 0..items.len() {
        let line = match done_at(i) {
            Some(t) => Span::styled(format!(" ✓ {} {}", clock(*t), label(i)), s.theme.good()),
            None if Some(i) == next => Span::styled(format!(" ▸ {}", label(i)), s.theme.title()),
            None => Span::styled(format!(" · {}", label(i)), s.theme.dim()),
        };
        lines.push(Line::from(line));
    }
    lines.push(Line::raw(""));
    lines
}

/// Step mode's words: what the last action changed, and what the next one will do and what to
/// watch — from the plan's `say` and `then` in `lesson.yaml` (the step's title when it has none).
fn narration(s: &State) -> Vec<Line<'static>> {
    let Some(m) = &s.step_mode else {
        return Vec::new();
    };
    let Some(lesson) = s.lessons.iter().find(|l| l.spec.number == m.lesson) else {
        return Vec::new();
    };
    let words = |l: &crate::lab::spec::Localized| match s.lang {
        Lang::En => l.en.clone(),
        Lang::Zh => l.zh.clone(),
    };
    let (en, zh) = if m.next >= m.total {
        ("all done · g leaves step mode", "全部完成 · g 退出分步模式")
    } else if m.running {
        ("running…", "执行中…")
    } else {
        ("g runs it", "g 执行")
    };
    let mut lines = vec![Line::from(Span::styled(
        format!(
            "{} · {}/{} · {}",
            if s.lang == Lang::Zh {
                "分步模式"
            } else {
                "Step mode"
            },
            m.next.min(m.total),
            m.total,
            if s.lang == Lang::Zh { zh } else { en }
        ),
        s.theme.title(),
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
            s.theme.good().add_modifier(Modifier::BOLD),
        )));
    }
    lines.extend(predictions(s, lesson, m));
    if let Some(action) = lesson.spec.actions.get(m.next) {
        let say = action
            .say
            .as_ref()
            .map_or_else(|| action.step.title(), words);
        lines.push(Line::from(Span::styled(
            format!("▶ {say}"),
            s.theme.warn().add_modifier(Modifier::BOLD),
        )));
    }
    lines.push(Line::raw(""));
    lines
}

/// Predict, then watch: the question the next action asks (with its choices), or — after the
/// action that answers it ran — the prediction beside the live value.
pub fn predictions(
    s: &State,
    lesson: &Lesson,
    m: &crate::tui::state::StepMode,
) -> Vec<Line<'static>> {
    let words = |l: &crate::lab::spec::Localized| match s.lang {
        Lang::En => l.en.clone(),
        Lang::Zh => l.zh.clone(),
    };
    let mut lines = Vec::new();
    if let Some((_, ask)) = s.pending_question() {
        lines.push(Line::from(Span::styled(
            format!(
                "? {} {}",
                if s.lang == Lang::Zh {
                    "先猜："
                } else {
                    "Predict:"
                },
                words(&ask.question)
            ),
            s.theme.accent().add_modifier(Modifier::BOLD),
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
            .answers
            .get(&crate::tui::state::answer_key(m.lesson, i))
            .cloned()
            .unwrap_or_else(|| "-".into());
        let live = ask.reveal.live(&s.objects).unwrap_or_else(|| "?".into());
        let right = said == live || said.ends_with(&format!(" {live}"));
        lines.push(Line::from(Span::styled(
            format!(
                "{} {}: {said} · {}: {live}",
                if right { "✓" } else { "✗" },
                if s.lang == Lang::Zh {
                    "你猜"
                } else {
                    "you said"
                },
                if s.lang == Lang::Zh { "实际" } else { "live" }
            ),
            if right { s.theme.good() } else { s.theme.bad() },
        )));
    }
    lines
}

/// A moment as the learner's clock shows it.
fn clock(t: jiff::Timestamp) -> String {
    t.to_zoned(jiff::tz::TimeZone::system())
        .strftime("%H:%M:%S")
        .to_string()
}

/// The text of the part shown; hints only as far as the learner asked for them.
fn body(s: &State, lesson: &Lesson) -> String {
    let text = lesson.text(s.lang);
    match s.section {
        Section::Hints if s.hints_shown == 0 && s.lang == Lang::Zh => {
            "按 h 查看第一个提示。".to_string()
        }
        Section::Hints if s.hints_shown == 0 => "Press h for a first hint.".to_string(),
        Section::Hints => text
            .hints
            .iter()
            .take(s.hints_shown)
            .enumerate()
            .map(|(i, h)| format!("{}. {h}", i + 1))
            .collect::<Vec<_>>()
            .join("\n"),
        other => text.section(other),
    }
}

/// The self-check's verdict on the lesson's evidence: what failed and the hint that helps.
fn verdict(s: &State, lesson: &Lesson) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let key = lesson
        .evidence_file()
        .map_or_else(|| format!("lesson {}", lesson.spec.number), String::from);
    let Some(g) = s.grades.get(&key) else {
        return lines;
    };
    let (file, verb) = if g.file.is_empty() {
        (
            format!("lesson {}'s steps", lesson.spec.number),
            ("pass", "fail"),
        )
    } else {
        (key, ("passes", "fails"))
    };
    if g.passed() {
        lines.push(Line::from(Span::styled(
            format!("✓ {file} {} the self-check", verb.0),
            s.theme.good(),
        )));
    } else {
        lines.push(Line::from(Span::styled(
            format!("✗ {file} {} the self-check:", verb.1),
            s.theme.bad(),
        )));
        let hints = &lesson.text(s.lang).hints;
        for f in g.findings.iter().filter(|f| !f.ok).take(3) {
            lines.push(Line::from(Span::styled(
                format!("  ✗ {}", f.what),
                s.theme.bad(),
            )));
            if let Some((n, hint)) = f.hint.and_then(|h| hints.get(h - 1).map(|t| (h, t))) {
                lines.push(Line::from(Span::styled(
                    format!("    hint {n}: {}", s.fit.render(hint)),
                    s.theme.warn(),
                )));
            }
        }
    }
    lines.push(Line::raw(""));
    lines
}

/// "Do it for me" as a checklist: elapsed time, each step's state, what blocks it, the log's tail.
fn plan(s: &State, job: &JobView) -> Vec<Line<'static>> {
    let mut plan = narration(s);
    let elapsed = job.took.unwrap_or_else(|| job.started.elapsed()).as_secs();
    let stepping_idle = s.step_mode.as_ref().is_some_and(|m| !m.running);
    let state = match &job.finished {
        None if stepping_idle => Span::styled("· waiting for g", s.theme.dim()),
        None => Span::styled(format!("… running · {elapsed}s"), s.theme.warn()),
        Some(Ok(())) => Span::styled(format!("✓ done in {elapsed}s"), s.theme.good()),
        Some(Err(e)) => Span::styled(format!("✗ {e}"), s.theme.bad()),
    };
    plan.push(Line::from(vec![
        Span::styled(
            format!("Do it for me · lesson {} ", job.lesson),
            s.theme.title(),
        ),
        state,
    ]));
    for step in &job.steps {
        let title = &step.title;
        let (glyph, style) = match step.state {
            StepState::Todo => ("·", s.theme.dim()),
            StepState::Running => (
                SPINNER[(elapsed % SPINNER.len() as u64) as usize],
                s.theme.warn(),
            ),
            StepState::Done => ("✓", s.theme.good()),
            StepState::Failed => ("✗", s.theme.bad()),
        };
        plan.push(Line::from(Span::styled(format!(" {glyph} {title}"), style)));
    }
    if !job.blocker.is_empty() {
        plan.push(Line::from(Span::styled(
            format!(" {}", job.blocker),
            s.theme.warn(),
        )));
    }
    // The log's tail: what the plan did last.
    for line in job.log.iter().skip(job.log.len().saturating_sub(3)) {
        plan.push(Line::from(Span::styled(line.clone(), s.theme.dim())));
    }
    plan
}
