//! The lesson pane: the current part of the lesson (presenter keys step through them), the hints
//! asked for so far, and — while "do it for me" runs — the plan as a checklist with elapsed time,
//! what blocks it, and the tail of its log.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{Look, markdown};
use plan::{PlanShape, Wrapped, fit_plan, plan, plan_shape};
use strum::EnumCount;

use crate::i18n::Say;
use crate::lab::catalog::{Lesson, Section};
use crate::t;
use crate::tui::state::{EvidenceStanding, ItemState, Pane, State};

mod plan;

pub struct LessonView<'a>(pub &'a State);

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
    let plan_rows = Wrapped::of(job.map(|job| plan(s, job)).unwrap_or_default(), area.width);
    let presenting = job.is_some_and(|job| plan_shape(s, job) == PlanShape::CurrentStep);
    // A step that failed in front of the room: why, and what to do, matter more than the
    // lesson's text, which keeps its title and goal.
    let failed = job.is_some_and(|job| matches!(job.finished, Some(Err(_))));
    let most = if presenting && failed {
        area.height.saturating_sub(2)
    } else {
        area.height * 3 / 5
    };
    let [top, bottom] = split(area, plan_rows.height(), most);
    let plan_lines = fit_plan(plan_rows, bottom.height);
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
    let (mut lines, head_rows, marked) = text_of(s, lesson, top);
    // Scrolled since the command was chosen: the learner's scroll, unpinned.
    let mut marked = marked.filter(|_| s.ui().picks.follow_selection);
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
    let wanted = s.ui().panes.scroll.get(&Pane::Lesson).copied().unwrap_or(0);
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
    // The room predicts: the title, checklist, verdict and text could say the answer.
    if s.room_predicts() {
        lines.push(Line::from(Span::styled(
            t!(s.lang(), "lesson-waits-for-prediction"),
            s.ui().theme.dim(),
        )));
        return (crate::tui::wrap::wrap(lines, top.width), 0, None);
    }
    // Small panes get the checklist as one line; the rest, step by step.
    lines.extend(checklist(s, lesson, top.height < 18));
    // The self-check's verdict first (a long lesson must not push it out of sight), with
    // what failed and the hint that helps.
    lines.extend(verdict(s, lesson));
    let mut out = crate::tui::wrap::wrap(lines, top.width);
    let head_rows = out.len();
    let marked = s.selected_command().map(|c| c.code_lines);
    let markdown::Rendered {
        lines: text,
        first_marked,
        code,
    } = markdown::render_marked(
        &s.session().fit.render(&body(s, lesson)),
        s.ui().theme,
        marked,
    );
    let marked_rows = marked.map_or(0, |(a, b)| b - a + 1);
    let mut rows: Option<(usize, usize)> = None;
    let mut code = code.into_iter().peekable();
    for (i, line) in text.into_iter().enumerate() {
        if code.next_if_eq(&i).is_none() {
            out.extend(crate::tui::wrap::wrap(vec![line], top.width));
            continue;
        }
        let start = out.len();
        out.extend(code_rows(line, top.width, s.ui().theme));
        if first_marked.is_some_and(|f| (f..f + marked_rows).contains(&i)) {
            let end = out.len() - 1;
            rows = Some(rows.map_or((start, end), |(a, _)| (a, end)));
        }
    }
    // Said below the part's last line, where the reader who paged to its end is looking.
    if s.ui().place.at_lesson_end {
        out.extend(crate::tui::wrap::wrap(next_lesson(s), top.width));
    }
    (out, head_rows, rows)
}

/// A code line wrapped to `width`: every row keeps the line's gutter (the chosen command's
/// bar on each of its rows), and a row that continues the line above says so with `↪`, so a
/// long command is not read as two (as Vim's `showbreak` does).
fn code_rows(
    mut line: Line<'static>,
    width: u16,
    theme: crate::tui::theme::Theme,
) -> Vec<Line<'static>> {
    let style = line.style;
    let gutter = line.spans.remove(0);
    let bar: String = gutter.content.chars().take(1).collect();
    crate::tui::wrap::wrap(vec![line], width.saturating_sub(2))
        .into_iter()
        .enumerate()
        .map(|(row, wrapped)| {
            let mut spans = if row == 0 {
                vec![gutter.clone()]
            } else {
                vec![
                    Span::styled(bar.clone(), gutter.style),
                    Span::styled("↪", theme.dim()),
                ]
            };
            spans.extend(wrapped.spans);
            Line::from(spans).style(style)
        })
        .collect()
}

/// The lesson's number and title, the part shown and the evidence file it writes.
fn header(s: &State, lesson: &Lesson) -> Vec<Line<'static>> {
    let (theme, lang) = (s.ui().theme, s.lang());
    let evidence = lesson
        .evidence_file()
        .map_or_else(|| t!(lang, "lesson-no-evidence"), String::from);
    // A title can state what the room is asked to predict ("…was not applied").
    let title = if s.room_predicts() {
        t!(lang, "lesson-title-after-prediction")
    } else {
        lesson.title(lang).to_string()
    };
    vec![
        Line::from(Span::styled(
            format!("{} · {title}", lesson.spec.number),
            theme.title(),
        )),
        Line::from(Span::styled(
            t!(
                lang,
                "lesson-part",
                part = s.ui().place.section.say(lang),
                at = s.ui().place.section.ordinal(),
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
    let (theme, lang) = (s.ui().theme, s.lang());
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
        Line::raw(""),
        Line::from(Span::styled(
            words,
            theme
                .warn()
                .add_modifier(Modifier::BOLD | Modifier::REVERSED),
        )),
    ]
}

/// The lesson's checklist as it stands now: each step done with the time it was done, undone
/// with why, counting down the time it needs, or next with what is missing; or, compact, how
/// many are done and what is next.
fn checklist(s: &State, lesson: &Lesson, compact: bool) -> Vec<Line<'static>> {
    use crate::i18n::Say;
    let (theme, lang) = (s.ui().theme, s.lang());
    let look = Look::of(s);
    let items = &lesson.spec.checklist;
    if items.is_empty() {
        return Vec::new();
    }
    let states = s.lab().checklists.get(&lesson.id());
    let state = |i: usize| states.and_then(|st| st.get(i));
    let done = (0..items.len())
        .filter(|i| state(*i).is_some_and(ItemState::done))
        .count();
    let next = (0..items.len()).find(|i| !state(*i).is_some_and(ItemState::done));
    let label = |i: usize| items[i].step.get(lang).to_string();
    // Why a step lacks, and the mistake the lesson lists that Argo CD's error shows.
    let why_said = |why: &crate::lab::eval::Unmet| match lesson.spec.known_mistake(why, lang) {
        Some(mistake) => format!("{} {mistake}", why.say(lang)),
        None => why.say(lang),
    };
    let count = t!(lang, "checklist-count", done = done, of = items.len());
    if compact {
        let rest = next.map_or_else(
            || t!(lang, "checklist-all-done"),
            |i| {
                let next = t!(lang, "checklist-next", step = label(i));
                // A step that needs time to pass says how much is left, as the full list does.
                match state(i) {
                    Some(ItemState::Counting { left }) => format!(
                        "{next} ⧗ {}",
                        t!(lang, "checklist-counting", seconds = left.to_string())
                    ),
                    _ => next,
                }
            },
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
                            why = why_said(why)
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
            // The next step says what it lacks: after a reopen, a step undone while the tutor
            // was closed is not ticked, and this is where its cause is said.
            Some(ItemState::Open { why: Some(why) })
                if Some(i) == next
                    && !matches!(
                        why,
                        crate::lab::eval::Unmet::NoClock | crate::lab::eval::Unmet::NotReadYet
                    ) =>
            {
                vec![
                    Span::styled(format!(" ▸ {}", label(i)), theme.title()),
                    Span::styled(format!(" — {}", why_said(why)), theme.warn()),
                ]
            }
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

/// The text of the part shown; hints only as far as the learner asked for them.
fn body(s: &State, lesson: &Lesson) -> String {
    let text = lesson.text(s.lang());
    match s.ui().place.section {
        Section::Hints if s.ui().place.hints_shown == 0 => t!(s.lang(), "lesson-press-h"),
        Section::Hints => text
            .hints
            .iter()
            .take(s.ui().place.hints_shown)
            .enumerate()
            .map(|(i, h)| format!("{}. {h}", i + 1))
            .collect::<Vec<_>>()
            .join("\n"),
        other => text.section(other),
    }
}

/// The self-check's verdict on the lesson's evidence: what failed and the hint that helps.
fn verdict(s: &State, lesson: &Lesson) -> Vec<Line<'static>> {
    let (theme, lang) = (s.ui().theme, s.lang());
    let mut lines = Vec::new();
    let key = lesson
        .evidence_file()
        .map_or_else(|| format!("lesson {}", lesson.spec.number), String::from);
    let Some(g) = s.lab().grades.get(&key) else {
        return lines;
    };
    // A file that is not there (any more) has no verdict, whatever an older check said: the
    // checklist says to write it. One its plan is still writing has none yet either.
    if lesson.evidence_file().is_some() {
        match s.evidence_standing(&key) {
            EvidenceStanding::Missing => return lines,
            EvidenceStanding::BeingWritten => {
                let words = t!(lang, "evidence-being-written");
                lines.push(Line::from(Span::styled(
                    format!("… {key} {words}"),
                    theme.warn(),
                )));
                return lines;
            }
            _ => {}
        }
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
        // Passed as of then; what the cluster no longer holds is said, not held against it.
        if let Some(first) = g.changed_since.first() {
            lines.push(Line::from(Span::styled(
                format!(
                    "  {}",
                    t!(lang, "verdict-changed-since", what = first.what.say(lang))
                ),
                theme.dim(),
            )));
        }
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
                format!("  ✗ {}", f.what.say(lang)),
                theme.bad(),
            )));
            if let Some(help) = &f.help {
                lines.push(Line::from(Span::styled(
                    format!("    {}", t!(lang, "verdict-help", help = help.say(lang))),
                    theme.warn(),
                )));
            } else if let Some((n, hint)) = f.hint.and_then(|h| hints.get(h - 1).map(|t| (h, t))) {
                // A hint is Markdown: its `code` is drawn as code, as in the Hints section.
                let said = t!(
                    lang,
                    "verdict-hint",
                    n = n,
                    hint = s.session().fit.render(hint)
                );
                lines.push(super::markdown::inline(
                    &format!("    {said}"),
                    theme.warn(),
                    theme,
                ));
            }
        }
    }
    lines.push(Line::raw(""));
    lines
}
