//! Drawing the tutor from borrowed state: a header (cluster, SIM, watch health), the panes, a
//! footer of keys, and the overlays (help, confirmation, notice, prediction). Drawing never
//! changes state; each pane's view borrows only the parts of the state it draws.

mod chrome;
mod health;
mod lesson;
pub mod live;
mod markdown;
mod panes;
mod prediction;
mod shell;
mod summary;
mod timeline;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Widget};

use super::layout;
use super::state::{Pane, Reach, State};
use super::theme::{Theme, gloss, status_glyph, status_style};
use crate::i18n::Lang;

/// What every view needs to look right: the theme, the language, and the learner's clock.
#[derive(Clone, Copy)]
pub struct Look<'a> {
    pub theme: Theme,
    pub lang: Lang,
    pub tz: &'a jiff::tz::TimeZone,
}

impl Look<'_> {
    pub fn of(s: &State) -> Look<'_> {
        Look {
            theme: s.ui().theme,
            lang: s.session().lang,
            tz: &s.session().tz,
        }
    }

    /// A moment as the learner's wall clock shows it.
    pub fn clock(&self, t: jiff::Timestamp) -> String {
        t.to_zoned(self.tz.clone()).strftime("%H:%M:%S").to_string()
    }

    /// A status word with its glyph, and its meaning beside it where the language glosses
    /// Argo CD's words (`✓ Synced 已同步`).
    pub fn status(&self, word: &str) -> Span<'static> {
        let word = if word.is_empty() { "Unknown" } else { word };
        let gloss = gloss(self.lang, word)
            .map(|g| format!(" {g}"))
            .unwrap_or_default();
        Span::styled(
            format!("{} {word}{gloss}", status_glyph(word)),
            status_style(self.theme, word),
        )
    }
}

/// The whole screen.
pub struct Screen<'a>(pub &'a State);

impl Widget for &Screen<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        draw(self.0, area, buf);
    }
}

/// Draws the whole screen and says how far each pane on it can scroll, from the same text it
/// drew (each pane's text is built once a frame).
pub fn draw(s: &State, area: Rect, buf: &mut Buffer) -> Frame {
    let mut limits = std::collections::BTreeMap::new();
    let mut lesson_at = None;
    {
        let look = Look::of(s);
        let areas = layout::areas(s, area);
        chrome::header(s, areas.header, buf);
        for (pane, rect) in &areas.panes {
            let focused = *pane == s.ui().panes.focus;
            let mut block = Block::default()
                .borders(Borders::ALL)
                .border_type(if focused {
                    BorderType::Thick
                } else {
                    BorderType::Plain
                })
                .border_style(if focused {
                    look.theme.focused_border()
                } else {
                    look.theme.dim()
                })
                .title(Span::styled(
                    format!(" {} ", chrome::pane_title(s, *pane)),
                    look.theme.title(),
                ));
            if let Some(note) = chrome::pane_note(s, *pane) {
                block = block.title_bottom(Span::styled(
                    format!(" {note} "),
                    look.theme
                        .accent()
                        .add_modifier(ratatui::style::Modifier::REVERSED),
                ));
            }
            let inner = block.inner(*rect);
            block.render(*rect, buf);
            let extent = match pane {
                Pane::Lesson => {
                    let drawn = lesson::draw(s, inner, buf);
                    lesson_at = Some(drawn.offset);
                    Some(drawn.extent)
                }
                Pane::Shell => {
                    (&shell::ShellPane {
                        shell: s.shell(),
                        focused: s.ui().panes.focus == Pane::Shell,
                        look,
                    })
                        .render(inner, buf);
                    None
                }
                other => {
                    let text = pane_text(s, *other, inner);
                    let (total, max) = text_extent(&text, inner);
                    let offset = s
                        .ui()
                        .panes
                        .scroll
                        .get(other)
                        .copied()
                        .unwrap_or(0)
                        .min(max);
                    text.scroll((offset, 0)).render(inner, buf);
                    if health::pane_as_of(s, *other).is_some() {
                        health::fade(look.theme, inner, buf);
                    }
                    Some((total, inner.height, max))
                }
            };
            if let Some((_, page, max)) = extent {
                limits.insert(*pane, Reach { max, page });
            }
            if let Some((total, shown, max)) = extent
                && max > 0
            {
                let offset = match (pane, lesson_at) {
                    (Pane::Lesson, Some(at)) => at,
                    _ => s.ui().panes.scroll.get(pane).copied().unwrap_or(0).min(max),
                };
                scroll_marker(look.theme, *rect, (offset, shown, total), buf);
            }
        }
        for (pane, rect) in &areas.summaries {
            Paragraph::new(summary::line(s, *pane, rect.width)).render(*rect, buf);
            if health::pane_as_of(s, *pane).is_some() {
                health::fade(look.theme, *rect, buf);
            }
        }
        if let Some(strip) = areas.tabs {
            let shown: Vec<Pane> = areas.panes.iter().map(|(p, _)| *p).collect();
            Paragraph::new(summary::strip(look, &shown)).render(strip, buf);
        }
        if let Some(band) = areas.prediction {
            (&prediction::Band(s)).render(band, buf);
        }
        if let Some(key) = areas.big_key {
            chrome::big_key(s, key, buf);
        }
        chrome::footer(s, areas.footer, areas.big_key.is_some(), buf);
        chrome::overlays(s, area, buf);
    }
    Frame { limits, lesson_at }
}

/// What a drawn frame tells `update`: how far each pane can scroll, and the line the lesson
/// pane was drawn from (it moves to show the chosen command whole).
pub struct Frame {
    pub limits: std::collections::BTreeMap<Pane, Reach>,
    pub lesson_at: Option<u16>,
}

/// A scrollable pane's lines, wrapped to its width (the lesson and the shell are drawn apart).
fn pane_text(s: &State, pane: Pane, inner: Rect) -> Paragraph<'static> {
    let lines = live::live(pane)
        .map(|p| p.lines(s, inner))
        .unwrap_or_default();
    Paragraph::new(super::wrap::wrap(lines, inner.width))
}

/// (lines in all, how far it can scroll) of a paragraph drawn in `area`.
fn text_extent(p: &Paragraph<'_>, area: Rect) -> (u16, u16) {
    let total = u16::try_from(p.line_count(area.width)).unwrap_or(u16::MAX);
    (total, total.saturating_sub(area.height))
}

/// Where a pane that does not fit is scrolled to, on its bottom border: a cut is never silent.
pub(super) fn scroll_marker(
    theme: Theme,
    rect: Rect,
    (offset, shown, total): (u16, u16, u16),
    buf: &mut Buffer,
) {
    let last = (offset + shown).min(total);
    let more = if last < total { " ↓" } else { "" };
    let text = format!(" {}–{last}/{total}{more} ", offset + 1);
    let width = u16::try_from(Line::raw(text.as_str()).width()).unwrap_or(0);
    if rect.width < width + 4 || rect.height < 2 {
        return;
    }
    let area = Rect::new(rect.right() - width - 2, rect.bottom() - 1, width, 1);
    Paragraph::new(Span::styled(text, theme.accent())).render(area, buf);
}

/// The screen as text, `width`×`height`, one line a row (for tests of what is on screen).
#[cfg(test)]
pub fn text_of_screen(s: &State, width: u16, height: u16) -> String {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    (&Screen(s)).render(area, &mut buf);
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
