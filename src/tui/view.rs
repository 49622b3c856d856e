//! Drawing the tutor from borrowed state: a header (cluster, SIM, watch health), the panes, a
//! footer of keys, and the help overlay generated from the keymap. Drawing never changes state.

mod health;
mod lesson;
mod markdown;
mod panes;
mod shell;
mod summary;
mod timeline;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Widget, Wrap};

use super::keymap::BINDINGS;
use super::layout;
use super::state::{Pane, State};

/// The whole screen.
pub struct Screen<'a>(pub &'a State);

impl Widget for &Screen<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let s = self.0;
        let areas = layout::areas(s, area);
        header(s, areas.header, buf);
        for (pane, rect) in &areas.panes {
            let focused = *pane == s.focus;
            let block = Block::default()
                .borders(Borders::ALL)
                .border_type(if focused {
                    BorderType::Thick
                } else {
                    BorderType::Plain
                })
                .border_style(if focused {
                    s.theme.focused_border()
                } else {
                    s.theme.dim()
                })
                .title(Span::styled(
                    format!(" {} ", pane_title(s, *pane)),
                    s.theme.title(),
                ));
            let inner = block.inner(*rect);
            block.render(*rect, buf);
            let extent = match pane {
                Pane::Lesson => {
                    (&lesson::LessonView(s)).render(inner, buf);
                    Some(lesson::extent(s, inner))
                }
                Pane::Shell => {
                    (&shell::ShellPane(s)).render(inner, buf);
                    None
                }
                other => {
                    let text = pane_text(s, *other, inner.width);
                    let (total, max) = text_extent(&text, inner);
                    let offset = s.scroll.get(other).copied().unwrap_or(0).min(max);
                    text.scroll((offset, 0)).render(inner, buf);
                    if health::pane_as_of(s, *other).is_some() {
                        health::fade(s, inner, buf);
                    }
                    Some((total, inner.height, max))
                }
            };
            if let Some((total, shown, max)) = extent
                && max > 0
            {
                let offset = s.scroll.get(pane).copied().unwrap_or(0).min(max);
                scroll_marker(s, *rect, (offset, shown, total), buf);
            }
        }
        for (pane, rect) in &areas.summaries {
            Paragraph::new(summary::line(s, *pane, rect.width)).render(*rect, buf);
            if health::pane_as_of(s, *pane).is_some() {
                health::fade(s, *rect, buf);
            }
        }
        if let Some(strip) = areas.tabs {
            let shown: Vec<Pane> = areas.panes.iter().map(|(p, _)| *p).collect();
            Paragraph::new(summary::strip(s, &shown)).render(strip, buf);
        }
        footer(s, areas.footer, buf);
        if s.help {
            help(s, area, buf);
        }
        if let Some(lesson) = s.confirm {
            confirm(s, lesson, area, buf);
        }
        health::notice(s, area, buf);
        // Presenting, the question is shown large for the room to vote.
        if s.present
            && s.pending_question().is_some()
            && let Some(m) = &s.step_mode
            && let Some(l) = s.lessons.iter().find(|l| l.spec.number == m.lesson)
        {
            let lines = lesson::predictions(s, l, m);
            let rect = centered(area, area.width.saturating_sub(8).min(90), 6);
            Clear.render(rect, buf);
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .block(
                    Block::default()
                        .borders(Borders::ALL)
                        .border_type(BorderType::Double)
                        .title(" Predict, then watch "),
                )
                .render(rect, buf);
        }
    }
}

/// A scrollable pane's lines, wrapped to its width.
fn pane_text(s: &State, pane: Pane, width: u16) -> Paragraph<'static> {
    let lines = match pane {
        Pane::Apps => panes::AppsView(s).lines(),
        Pane::Timeline => panes::TimelineView(s).lines(width),
        Pane::Fields => panes::FieldsView(s).lines(),
        Pane::Values => panes::ValuesView(s).lines(),
        Pane::Evidence => panes::EvidenceView(s).lines(),
        Pane::Lesson | Pane::Shell => Vec::new(),
    };
    Paragraph::new(lines).wrap(Wrap { trim: false })
}

/// (lines in all, how far it can scroll) of a paragraph drawn in `area`.
fn text_extent(p: &Paragraph<'_>, area: Rect) -> (u16, u16) {
    let total = u16::try_from(p.line_count(area.width)).unwrap_or(u16::MAX);
    (total, total.saturating_sub(area.height))
}

/// Where a pane that does not fit is scrolled to, on its bottom border: a cut is never silent.
fn scroll_marker(s: &State, rect: Rect, (offset, shown, total): (u16, u16, u16), buf: &mut Buffer) {
    let last = (offset + shown).min(total);
    let more = if last < total { " ↓ more" } else { "" };
    let text = format!(" {}–{last}/{total}{more} ", offset + 1);
    let width = u16::try_from(text.chars().count()).unwrap_or(0);
    if rect.width < width + 4 || rect.height < 2 {
        return;
    }
    let area = Rect::new(rect.right() - width - 2, rect.bottom() - 1, width, 1);
    Paragraph::new(Span::styled(text, s.theme.accent())).render(area, buf);
}

/// How far each pane on screen can scroll at this size: what `update` needs to keep a scroll
/// inside the content (reported by the runtime after each frame).
pub fn scroll_limits(s: &State, area: Rect) -> std::collections::BTreeMap<Pane, u16> {
    layout::areas(s, area)
        .panes
        .into_iter()
        .filter_map(|(pane, rect)| {
            let inner = Block::default().borders(Borders::ALL).inner(rect);
            match pane {
                Pane::Shell => None,
                Pane::Lesson => Some((pane, lesson::extent(s, inner).2)),
                other => Some((
                    pane,
                    text_extent(&pane_text(s, other, inner.width), inner).1,
                )),
            }
        })
        .collect()
}

/// A pane's title; a stale pane's says since when, the shell's what it is connected to and,
/// while typing, how to leave.
fn pane_title(s: &State, pane: Pane) -> String {
    if pane != Pane::Shell {
        let as_of = health::as_of_words(s, pane).unwrap_or_default();
        return format!("{}{as_of}", pane.title(s.lang));
    }
    let label = s
        .shell
        .about
        .split(" · ")
        .next()
        .unwrap_or_default()
        .to_string();
    if s.shell.typing && s.focus == Pane::Shell {
        let typing = if s.lang == crate::lab::catalog::Lang::Zh {
            "输入中 · Ctrl-] 回到导师"
        } else {
            "typing · Ctrl-] back to the tutor"
        };
        format!("{} {label} · {typing}", pane.title(s.lang))
    } else {
        format!("{} {label}", pane.title(s.lang))
    }
}

/// Whether the panes show the cluster now comes first (a long target is cut at the right on a
/// small screen), then the cluster, then the theme; a stale watch's reason gets a line of its own.
fn header(s: &State, area: Rect, buf: &mut Buffer) {
    let (watch, why) = health::watch_lines(s);
    let mut spans = vec![
        Span::styled(
            " capa-tui ",
            s.theme.title().add_modifier(Modifier::REVERSED),
        ),
        Span::raw(" "),
    ];
    if s.sim {
        spans.push(Span::styled(
            "SIM ",
            s.theme.accent().add_modifier(Modifier::BOLD),
        ));
    }
    spans.extend(watch);
    spans.push(Span::raw(format!(" · {}", s.target)));
    spans.push(Span::styled(
        format!(" · theme {}", s.theme.name()),
        s.theme.dim(),
    ));
    let mut lines = vec![Line::from(spans)];
    lines.extend(why);
    Paragraph::new(lines).render(area, buf);
}

fn footer(s: &State, area: Rect, buf: &mut Buffer) {
    let zh = s.lang == crate::lab::catalog::Lang::Zh;
    if s.focus == Pane::Shell && s.shell.typing {
        let line = Line::from(vec![
            Span::styled(" Ctrl-] ", s.theme.accent().add_modifier(Modifier::BOLD)),
            Span::raw(if zh {
                "回到导师（其余按键都交给终端）"
            } else {
                "back to the tutor (every other key goes to the shell)"
            }),
        ]);
        Paragraph::new(line).render(area, buf);
        return;
    }
    let keys = [
        ("?", if zh { "帮助" } else { "help" }),
        ("PgDn/PgUp", if zh { "翻页" } else { "step" }),
        ("s", if zh { "终端" } else { "shell" }),
        ("r", if zh { "替我做" } else { "do it for me" }),
        ("g", if zh { "分步" } else { "step" }),
        ("x", if zh { "取消" } else { "cancel" }),
        ("c", if zh { "自检" } else { "check" }),
        ("h", if zh { "提示" } else { "hint" }),
        ("Tab", if zh { "窗格" } else { "pane" }),
        ("z", if zh { "放大" } else { "zoom" }),
        ("q", if zh { "退出" } else { "quit" }),
    ];
    let mut spans = Vec::new();
    let mut used = 0;
    // For the room: the key just pressed, at the start where everyone looks.
    if s.present && !s.last_key.is_empty() {
        let echo = format!(" ⌨ {} ", s.last_key);
        used += echo.chars().count();
        spans.push(Span::styled(
            echo,
            s.theme.warn().add_modifier(Modifier::REVERSED),
        ));
    }
    for (k, what) in keys {
        let (key, words) = (format!(" {k} "), format!("{what} "));
        let width = key.chars().count() + words.chars().count();
        // Keys that do not fit are left to the help (?), and the cut is marked.
        if used + width > usize::from(area.width) {
            spans.push(Span::styled("…", s.theme.dim()));
            break;
        }
        used += width;
        spans.push(Span::styled(
            key,
            s.theme.accent().add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(words));
    }
    Paragraph::new(Line::from(spans)).render(area, buf);
}

/// Before a plan changes a cluster other than the embedded one: which cluster, then every
/// step with its command, and the keys that go ahead or leave it.
fn confirm(s: &State, lesson: u8, area: Rect, buf: &mut Buffer) {
    let Some(l) = s.lessons.iter().find(|l| l.spec.number == lesson) else {
        return;
    };
    let mut lines = vec![
        Line::from(Span::styled(
            format!("Lesson {lesson} is about to change {}", s.target),
            s.theme.warn().add_modifier(Modifier::BOLD),
        )),
        Line::raw(format!(
            "Source dir {} · bare repos {}",
            s.fit.src_dir, s.fit.bare_dir
        )),
        Line::raw(""),
    ];
    for (i, step) in l.spec.actions.iter().map(|a| &a.step).enumerate() {
        lines.push(Line::from(Span::styled(
            format!("{:>2}. {}", i + 1, step.title()),
            s.theme.title(),
        )));
        lines.push(Line::from(Span::styled(
            format!("    $ {}", step.command(&s.fit)),
            s.theme.dim(),
        )));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(" y ", s.theme.accent().add_modifier(Modifier::BOLD)),
        Span::raw("go ahead   "),
        Span::styled(" n ", s.theme.accent().add_modifier(Modifier::BOLD)),
        Span::raw("change nothing"),
    ]));
    let width = area.width.saturating_sub(4).min(110);
    let height = (u16::try_from(lines.len()).unwrap_or(u16::MAX) + 2).min(area.height);
    let rect = centered(area, width, height);
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Double)
                .title(" Look before you change "),
        )
        .render(rect, buf);
}

/// A `width`×`height` rectangle in the middle of `area`.
fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [_, mid, _] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(width),
        Constraint::Fill(1),
    ])
    .areas(area);
    let [_, rect, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(height),
        Constraint::Fill(1),
    ])
    .areas(mid);
    rect
}

/// The help overlay, generated from the keymap.
fn help(s: &State, area: Rect, buf: &mut Buffer) {
    let height = (BINDINGS.len() as u16 + 4).min(area.height);
    let rect = centered(area, area.width.min(64), height);
    Clear.render(rect, buf);
    let lines: Vec<Line> = BINDINGS
        .iter()
        .map(|b| {
            Line::from(vec![
                Span::styled(
                    format!("{:>14}  ", b.label),
                    s.theme.accent().add_modifier(Modifier::BOLD),
                ),
                Span::raw(if s.lang == crate::lab::catalog::Lang::Zh {
                    b.help_zh
                } else {
                    b.help
                }),
            ])
        })
        .collect();
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Double)
                .title(if s.lang == crate::lab::catalog::Lang::Zh {
                    " 按键 · Esc 关闭 "
                } else {
                    " Keys · Esc closes "
                }),
        )
        .render(rect, buf);
}

/// The prediction lines of step mode as plain text (for tests and logs).
pub fn predictions_text(
    s: &State,
    lesson: &crate::lab::catalog::Lesson,
    m: &super::state::StepMode,
) -> String {
    lesson::predictions(s, lesson, m)
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|sp| sp.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
