//! The tutor's frame around the panes: the header (whether the panes are live, the cluster, the
//! theme), the footer of keys (from the keymap), pane titles, and the overlays — the help
//! (from the keymap), the look-before-you-change confirmation, and the key just pressed,
//! large, for a room.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Widget};

use super::{Look, health};
use crate::i18n::Say;
use crate::lab::spec::LessonId;
use crate::t;
use crate::tui::keymap::{Action, BINDINGS, Mode};
use crate::tui::state::{Pane, State};

/// What the keys mean now (the help and the footer say it).
pub fn mode(s: &State) -> Mode {
    if s.ui().present && s.run().step_mode.is_some() {
        Mode::PresentStep
    } else {
        Mode::Normal
    }
}

/// A pane's title; a stale pane's says since when, the shell's what it is connected to and,
/// while typing, how to leave.
pub fn pane_title(s: &State, pane: Pane) -> String {
    let lang = s.lang();
    if pane != Pane::Shell {
        let as_of = health::as_of_words(s, pane).unwrap_or_default();
        return format!("{}{as_of}", pane.title(lang));
    }
    let marker = s.shell().about.marker.trim();
    if s.shell().typing && s.ui().panes.focus == Pane::Shell {
        format!(
            "{} {marker} · {}",
            pane.title(lang),
            t!(lang, "shell-typing")
        )
    } else {
        format!("{} {marker}", pane.title(lang))
    }
}

/// What a pane's bottom border says: for the shell, a command taller than it and where to read
/// it whole (a line of its own: the top one is full in a narrow pane).
pub fn pane_note(s: &State, pane: Pane) -> Option<String> {
    let tall = s.shell().tall_command.filter(|_| pane == Pane::Shell)?;
    let lang = s.lang();
    Some(if tall.fits_zoomed {
        t!(lang, "shell-tall-command-zoom", lines = tall.lines)
    } else {
        t!(lang, "shell-tall-command-lesson", lines = tall.lines)
    })
}

/// Whether the panes show the cluster now comes first, then the cluster, then the theme; a
/// stale watch's reason gets a line of its own. A line too long for the screen gives up the
/// cluster's words first (a path), never the short ones.
pub fn header(s: &State, area: Rect, buf: &mut Buffer) {
    let look = Look::of(s);
    let (watch, why) = health::watch_lines(s);
    let mut spans = vec![
        Span::styled(
            " capa-tui ",
            look.theme.title().add_modifier(Modifier::REVERSED),
        ),
        Span::raw(" "),
    ];
    // A replay: nothing here is live, and the moment shown is the recording's (on the
    // cluster's clock, as every time on screen).
    if let Some(at) = s.session().replaying_at {
        let at = look.clock(s.session().on_the_clusters_clock(at));
        spans.push(Span::styled(
            t!(look.lang, "header-replay", at = at),
            look.theme.warn().add_modifier(Modifier::BOLD),
        ));
    }
    if s.session().sim() {
        spans.push(Span::styled(
            "SIM ",
            look.theme.accent().add_modifier(Modifier::BOLD),
        ));
    }
    if let Some(clock) = &s.shell().about.clock {
        let said = match clock.ahead_seconds {
            Some(secs) => t!(look.lang, "header-clock-ahead", ahead = said_ahead(secs)),
            None => t!(look.lang, "header-clock", speed = clock.speed.to_string()),
        };
        spans.push(Span::styled(said, look.theme.accent()));
    }
    spans.extend(watch);
    // On a cluster many learners share, whose lab this is (the projector shows it to the room).
    if let Some(learner) = s.session().catalog.learner() {
        spans.push(Span::styled(
            t!(look.lang, "header-learner", learner = learner),
            look.theme.accent().add_modifier(Modifier::BOLD),
        ));
    }
    let theme = Span::styled(
        t!(look.lang, "header-theme", theme = look.theme.name()),
        look.theme.dim(),
    );
    let used: usize = spans.iter().map(Span::width).sum::<usize>() + theme.width();
    let room = usize::from(area.width).saturating_sub(used + 3);
    let forms = s.session().target.forms(look.lang);
    let target = forms
        .iter()
        .find(|f| unicode_width::UnicodeWidthStr::width(f.as_str()) <= room)
        .or(forms.last())
        .map(|f| cut(f, room))
        .unwrap_or_default();
    spans.push(Span::raw(format!(" · {target}")));
    spans.push(theme);
    let mut lines = vec![Line::from(spans)];
    lines.extend(why);
    Paragraph::new(lines).render(area, buf);
}

/// `text` in at most `room` cells, cut with `…` in the middle (a path keeps its ends).
pub fn cut(text: &str, room: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    if text.width() <= room {
        return text.to_string();
    }
    if room < 2 {
        return "…".chars().take(room).collect();
    }
    let chars: Vec<char> = text.chars().collect();
    let half = (room - 1) / 2;
    let mut head = String::new();
    for c in &chars {
        if (head.clone() + &c.to_string()).width() > half {
            break;
        }
        head.push(*c);
    }
    let mut tail: Vec<char> = Vec::new();
    for c in chars.iter().rev() {
        let t: String = std::iter::once(*c)
            .chain(tail.iter().rev().copied())
            .collect();
        if t.width() > room - 1 - head.width() {
            break;
        }
        tail.insert(0, *c);
    }
    format!("{head}…{}", tail.into_iter().collect::<String>())
}

/// `text` padded with spaces, or cut with `…`, to exactly `width` cells.
/// `text` in `room` cells, keeping its start and ending with `…` when it is longer: for words
/// whose beginning says what they are.
pub fn cut_end(text: &str, room: usize) -> String {
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    if text.width() <= room {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > room {
            break;
        }
        out.push(c);
        used += w;
    }
    if room > 0 {
        out.push('…');
    }
    out
}

pub fn cut_pad(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    let mut out = cut(text, width);
    let pad = width.saturating_sub(out.width());
    out.push_str(&" ".repeat(pad));
    out
}

pub fn footer(s: &State, area: Rect, shows_big_key: bool, buf: &mut Buffer) {
    let look = Look::of(s);
    let lang = look.lang;
    if s.ui().panes.focus == Pane::Shell && s.shell().typing {
        let line = Line::from(vec![
            Span::styled(" Ctrl-] ", look.theme.accent().add_modifier(Modifier::BOLD)),
            Span::raw(t!(lang, "footer-leave-shell")),
        ]);
        Paragraph::new(line).render(area, buf);
        return;
    }
    let stepping = mode(s) == Mode::PresentStep;
    let has_commands = !s.snippets().is_empty();
    let mut spans = Vec::new();
    let mut used = 0;
    // For the room: the key just pressed, at the start where everyone looks (large beside the
    // panes where the screen has room for it).
    if s.ui().present && !s.ui().last_key.is_empty() && !shows_big_key {
        let echo = format!(" ⌨ {} ", s.ui().last_key);
        used += Span::raw(echo.as_str()).width();
        spans.push(Span::styled(
            echo,
            look.theme.warn().add_modifier(Modifier::REVERSED),
        ));
    }
    for b in BINDINGS {
        let Some(f) = &b.footer else {
            continue;
        };
        // The commands of the lesson's text are chosen and typed only where there are some.
        if matches!(b.action, Action::NextCommand | Action::TypeCommand) && !has_commands {
            continue;
        }
        let words = match b.action {
            Action::NextSection if stepping => t!(lang, "footer-next-action"),
            _ => (f.words)(lang),
        };
        let (key, words) = (format!(" {} ", f.keys), format!("{words} "));
        let width = Span::raw(key.as_str()).width() + Span::raw(words.as_str()).width();
        // Keys that do not fit are left to the help (?), and the cut is marked.
        if used + width > usize::from(area.width) {
            spans.push(Span::styled("…", look.theme.dim()));
            break;
        }
        used += width;
        spans.push(Span::styled(
            key,
            look.theme.accent().add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(words));
    }
    Paragraph::new(Line::from(spans)).render(area, buf);
}

/// The overlays, over everything else: help, confirmation, notice, the room's prediction.
pub fn overlays(s: &State, area: Rect, buf: &mut Buffer) {
    if s.ui().panes.help {
        help(s, area, buf);
    }
    if let Some(lesson) = s.ui().confirm {
        confirm(s, lesson, area, buf);
    }
    health::notice(s, area, buf);
}

/// Before a plan changes a cluster other than the embedded one: which cluster, then every
/// step with its command, and the keys that go ahead or leave it.
fn confirm(s: &State, lesson: LessonId, area: Rect, buf: &mut Buffer) {
    let look = Look::of(s);
    let lang = look.lang;
    let Some(l) = s.session().catalog.lesson(lesson) else {
        return;
    };
    let fit = &s.session().fit;
    let mut lines = vec![
        Line::from(Span::styled(
            t!(
                lang,
                "confirm-about-to-change",
                lesson = lesson.to_string(),
                target = crate::i18n::Say::say(&s.session().target, lang)
            ),
            look.theme.warn().add_modifier(Modifier::BOLD),
        )),
        Line::raw(t!(
            lang,
            "confirm-folders",
            src = fit.src_dir.as_str(),
            bare = fit.bare_dir.as_str()
        )),
        Line::raw(""),
    ];
    for (i, step) in l.spec.actions.iter().map(|a| &a.step).enumerate() {
        lines.push(Line::from(Span::styled(
            format!("{:>2}. {}", i + 1, step.title().say(lang)),
            look.theme.title(),
        )));
        lines.push(Line::from(Span::styled(
            format!("    $ {}", step.command(fit).say(lang)),
            look.theme.dim(),
        )));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(" y ", look.theme.accent().add_modifier(Modifier::BOLD)),
        Span::raw(t!(lang, "confirm-go-ahead")),
        Span::styled(" n ", look.theme.accent().add_modifier(Modifier::BOLD)),
        Span::raw(t!(lang, "confirm-change-nothing")),
    ]));
    let width = area.width.saturating_sub(4).min(110);
    let lines = crate::tui::wrap::wrap(lines, width.saturating_sub(2));
    let height = (u16::try_from(lines.len()).unwrap_or(u16::MAX) + 2).min(area.height);
    let rect = crate::tui::layout::centered(area, width, height);
    clear_for_overlay(rect, buf);
    Paragraph::new(lines)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Double)
                .title(t!(lang, "confirm-title")),
        )
        .render(rect, buf);
}

/// The help overlay, generated from the keymap: what each key does in the mode the tutor is in
/// (keys that do nothing here now are dimmed), scrolled with ↑/↓/PgUp/PgDn, its place marked.
fn help(s: &State, area: Rect, buf: &mut Buffer) {
    let look = Look::of(s);
    /// Where a key's words start: its label right-aligned in 14 cells, then two spaces.
    const KEY_COLUMN: u16 = 16;
    let m = mode(s);
    let width = area.width.min(76);
    let mode_words = match m {
        Mode::PresentStep => t!(look.lang, "help-mode-present-step"),
        Mode::Normal => t!(look.lang, "help-mode-normal"),
    };
    let lines = vec![
        Line::from(Span::styled(mode_words, look.theme.title())),
        Line::raw(""),
    ];
    let mut lines = crate::tui::wrap::wrap(lines, width.saturating_sub(2));
    // Each key's words wrap under themselves, not under its key: a hanging indent.
    for b in BINDINGS {
        let active = key_active(s, b.action);
        let style = |st: ratatui::style::Style| if active { st } else { look.theme.dim() };
        let words = Line::from(Span::styled(
            b.help_in(look.lang, m),
            style(ratatui::style::Style::default()),
        ));
        let rows = crate::tui::wrap::wrap(
            vec![words],
            width.saturating_sub(2).saturating_sub(KEY_COLUMN).max(10),
        );
        for (i, row) in rows.into_iter().enumerate() {
            let lead = if i == 0 {
                Span::styled(
                    format!("{:>w$}  ", b.label, w = usize::from(KEY_COLUMN) - 2),
                    style(look.theme.accent().add_modifier(Modifier::BOLD)),
                )
            } else {
                Span::raw(" ".repeat(usize::from(KEY_COLUMN)))
            };
            let mut spans = vec![lead];
            spans.extend(row.spans);
            lines.push(Line::from(spans));
        }
    }
    lines.push(Line::raw(""));
    lines.extend(crate::tui::wrap::wrap(
        vec![Line::from(Span::styled(
            t!(look.lang, "help-scroll"),
            look.theme.dim(),
        ))],
        width.saturating_sub(2),
    ));
    let total = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let height = (total + 2).min(area.height);
    let shown = height.saturating_sub(2);
    let max = total.saturating_sub(shown);
    let offset = s.ui().panes.help_scroll.min(max);
    let rect = crate::tui::layout::centered(area, width, height);
    clear_for_overlay(rect, buf);
    Paragraph::new(lines)
        .scroll((offset, 0))
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_type(BorderType::Double)
                .title(t!(look.lang, "help-title")),
        )
        .render(rect, buf);
    if max > 0 {
        super::scroll_marker(look.theme, rect, (offset, shown, total), buf);
    }
}

/// Whether a key does something on the screen as it is now (the help dims the others).
fn key_active(s: &State, action: Action) -> bool {
    match action {
        Action::NextCommand | Action::PrevCommand | Action::TypeCommand | Action::CopyCommand => {
            !s.snippets().is_empty()
        }
        Action::Cancel => s.run().running() || s.run().step_mode.is_some(),
        Action::LeaveShell => s.shell().running(),
        _ => true,
    }
}

/// The key just pressed, large enough to read from the back of a room (presenting).
pub fn big_key(s: &State, area: Rect, buf: &mut Buffer) {
    use tui_big_text::{BigText, PixelSize};
    if s.ui().last_key.is_empty() {
        return;
    }
    let look = Look::of(s);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(look.theme.dim());
    let inner = block.inner(area);
    block.render(area, buf);
    // Four cells a letter: a key name longer than the box keeps its start.
    let fits = usize::from(inner.width / 4).max(1);
    let key: String = s.ui().last_key.chars().take(fits).collect();
    BigText::builder()
        .pixel_size(PixelSize::Quadrant)
        .style(look.theme.warn())
        .lines(vec![Line::raw(key)])
        .centered()
        .build()
        .render(inner, buf);
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::i18n::Lang;
    use crate::lab::catalog::Catalog;
    use crate::session::Target;
    use crate::tui::state::StateBuilder;

    /// The header's first row as it reads: a wide character once, not with the cell it covers.
    fn top_line(s: &crate::tui::state::State, width: u16) -> String {
        use ratatui::buffer::Buffer;
        use ratatui::layout::Rect;
        let mut buf = Buffer::empty(Rect::new(0, 0, width, 1));
        super::header(s, Rect::new(0, 0, width, 1), &mut buf);
        let mut line = String::new();
        let mut x = 0;
        while x < width {
            let symbol = buf[(x, 0)].symbol();
            line.push_str(symbol);
            let cells = unicode_width::UnicodeWidthStr::width(symbol).max(1);
            x += u16::try_from(cells).unwrap_or(1);
        }
        line
    }

    /// A key's words that wrap go on under themselves, in every language, so the keys stay a
    /// column of their own.
    #[test]
    fn the_help_wraps_each_keys_words_under_themselves() {
        let catalog = Arc::new(Catalog::embedded().unwrap());
        for lang in Lang::all() {
            let s = StateBuilder::new(catalog.clone())
                .lang(*lang)
                .help(true)
                .size(50, 60)
                .live()
                .build();
            let screen = crate::tui::view::text_of_screen(&s, 50, 60);
            let inner: Vec<&str> = screen.lines().filter_map(|l| l.split('║').nth(1)).collect();
            let label = |row: &str| row.starts_with("  ") && !row.starts_with(&" ".repeat(16));
            let first = inner.iter().position(|r| label(r)).expect("a key's row");
            let mut wrapped = 0;
            for row in inner[first..].iter().take_while(|r| !r.trim().is_empty()) {
                assert!(
                    label(row) || row.starts_with(&" ".repeat(16)),
                    "{lang:?}: «{row}» runs under the keys:\n{screen}"
                );
                wrapped += usize::from(!label(row));
            }
            assert!(
                wrapped > 0,
                "{lang:?}: at 50 columns some words wrap:\n{screen}"
            );
        }
    }

    /// On a shared cluster the header says whose lab it is, in every language and at 80 columns.
    #[test]
    fn the_header_names_the_learner_whose_lab_it_is() {
        let alice = crate::lab::learner::Learner::parse("alice").unwrap();
        let catalog = Arc::new(Catalog::load_for(None, None, Some(&alice)).unwrap());
        for lang in Lang::all() {
            let s = StateBuilder::new(catalog.clone())
                .lang(*lang)
                .live()
                .build();
            let screen = crate::tui::view::text_of_screen(&s, 80, 24);
            let header = screen.lines().next().unwrap_or_default();
            // A wide character's second cell reads as a space.
            let bare = |t: &str| t.replace(' ', "");
            let said = crate::t!(*lang, "header-learner", learner = "alice");
            assert!(bare(header).contains(&bare(&said)), "{lang:?}: {header}");
        }
    }

    /// The header names the cluster whole, or in a shorter form that fits: never a path cut in
    /// the middle (`https:/…保存在 /tmp/lab）` read as noise, its bracket left unopened).
    #[test]
    fn the_header_names_the_cluster_in_the_longest_form_that_fits() {
        let catalog = Arc::new(Catalog::embedded().unwrap());
        let target = Target::Embedded {
            url: "https://127.0.0.1:43685".into(),
            state: "/home/learner/.local/state/capa-tui/sim".into(),
            served_by: Some(4242),
        };
        for lang in Lang::all() {
            let forms = target.forms(*lang);
            for width in [200, 120, 80] {
                let s = StateBuilder::new(catalog.clone())
                    .lang(*lang)
                    .target(target.clone())
                    .size(width, 24)
                    .live()
                    .build();
                let top = top_line(&s, width);
                let shown = forms.iter().position(|f| top.contains(f.as_str()));
                assert!(
                    shown.is_some() && !top.contains('…'),
                    "{lang:?} at {width}: one of {forms:?} whole:\n{top}"
                );
                match width {
                    200 => assert_eq!(shown, Some(0), "{lang:?}: all of it:\n{top}"),
                    80 => assert_ne!(shown, Some(0), "{lang:?}: a shorter form:\n{top}"),
                    _ => {}
                }
            }
        }
    }
}

/// Clears `rect` for an overlay drawn over the screen. A wide character (Chinese, Korean) whose
/// first half sits just left of it would cover the overlay's left border, and the terminal
/// would lose the border (`┃手 ?  帮助`): it is blanked too.
pub fn clear_for_overlay(rect: Rect, buf: &mut Buffer) {
    Clear.render(rect, buf);
    let Some(left) = rect.x.checked_sub(1) else {
        return;
    };
    for y in rect.top()..rect.bottom() {
        if let Some(cell) = buf.cell_mut((left, y))
            && unicode_width::UnicodeWidthStr::width(cell.symbol()) > 1
        {
            cell.set_symbol(" ");
        }
    }
}

#[cfg(test)]
mod overlay_tests {
    use super::*;

    /// A Chinese character half under an overlay's left border is blanked, so the border is
    /// drawn (a walk in zh saw `┃手 ?  帮助` with the help's border lost).
    #[test]
    fn a_wide_character_under_an_overlays_left_border_gives_way() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 2));
        buf.set_string(0, 0, "手手手手手", ratatui::style::Style::default());
        buf.set_string(0, 1, "ab", ratatui::style::Style::default());
        // The overlay starts at column 3: the second half of the second 手.
        let rect = Rect::new(3, 0, 5, 2);
        clear_for_overlay(rect, &mut buf);
        assert_eq!(buf[(2, 0)].symbol(), " ", "the 手 it would cover");
        assert_eq!(buf[(0, 0)].symbol(), "手", "one further left stays");
        assert_eq!(buf[(1, 1)].symbol(), "b", "a narrow character stays");
    }
}

/// How far ahead a clock is, as people say it: `1h 5m`, `40s`.
pub(super) fn said_ahead(secs: i64) -> String {
    let rounded = if secs >= 3600 { secs / 60 * 60 } else { secs };
    format!("{:#}", jiff::SignedDuration::from_secs(rounded))
}
