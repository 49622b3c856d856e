//! One line for a pane that is not given room: enough to see what it would show (and a click
//! or Tab brings it up), and the strip that names every pane on a small screen.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use strum::IntoEnumIterator;

use super::Look;
use crate::cluster::Application;
use crate::t;
use crate::tui::state::{Live, Pane, ShellStatus, State};
use crate::tui::theme::{status_glyph, status_style};

/// What a pane would show, in one line of `width`, cut with `…` when longer.
pub fn line(s: &State, pane: Pane, width: u16) -> Line<'static> {
    let look = Look::of(s);
    let line = full_line(s, pane);
    fit_line(line, usize::from(width), look)
}

/// `line` in `room` cells, its end cut with `…` when it is wider (cells, not characters: a
/// Chinese character takes two).
pub fn fit_line(line: Line<'static>, room: usize, look: Look<'_>) -> Line<'static> {
    use unicode_width::UnicodeWidthChar;
    if line.width() <= room {
        return line;
    }
    let mut used = 0;
    let mut kept = Vec::new();
    'spans: for span in line.spans {
        let mut text = String::new();
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0);
            if used + w + 1 > room {
                kept.push(Span::styled(text, span.style));
                break 'spans;
            }
            used += w;
            text.push(c);
        }
        kept.push(Span::styled(text, span.style));
    }
    kept.push(Span::styled("…", look.theme.dim()));
    Line::from(kept)
}

fn full_line(s: &State, pane: Pane) -> Line<'static> {
    let look = Look::of(s);
    let lang = look.lang;
    let as_of = super::health::as_of_words(s, pane).unwrap_or_default();
    let mut spans = vec![Span::styled(
        t!(lang, "summary-head", pane = pane.title(lang), as_of = as_of),
        look.theme.title(),
    )];
    spans.extend(match pane {
        Pane::Shell => vec![Span::raw(match &s.shell().status {
            ShellStatus::Running => t!(lang, "summary-shell-running"),
            ShellStatus::NotStarted => t!(lang, "summary-shell-not-started"),
            ShellStatus::Exited(_) => t!(lang, "summary-shell-exited"),
            ShellStatus::Failed(why) => t!(
                lang,
                "summary-shell-failed",
                why = crate::i18n::Say::say(why, lang)
            ),
        })],
        _ => super::live::live(pane)
            .map(|p| p.summary(s, look))
            .unwrap_or_default(),
    });
    Line::from(spans)
}

/// A status word with its glyph, coloured as its status is.
pub(super) fn word(look: Look<'_>, w: &str) -> Span<'static> {
    let w = if w.is_empty() { "Unknown" } else { w };
    Span::styled(
        format!("{} {w}", status_glyph(w)),
        status_style(look.theme, w),
    )
}

/// The Applications with the lesson's own first.
pub fn ordered_apps<'a>(live: &'a Live, lesson_app: &str) -> Vec<(&'a String, &'a Application)> {
    let mut apps: Vec<_> = live.apps.iter().map(|(n, a)| (n, &a.app)).collect();
    apps.sort_by_key(|(name, _)| name.as_str() != lesson_app);
    apps
}

/// Every pane's name, the ones on screen marked: `Tab` moves along it.
pub fn strip(look: Look<'_>, shown: &[Pane]) -> Line<'static> {
    let mut spans = Vec::new();
    for pane in Pane::iter() {
        let name = pane.short_title(look.lang);
        let style = if shown.contains(&pane) {
            look.theme
                .accent()
                .add_modifier(Modifier::BOLD | Modifier::REVERSED)
        } else {
            look.theme.dim()
        };
        spans.push(Span::styled(format!(" {name} "), style));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled("Tab ⇄", look.theme.dim()));
    Line::from(spans)
}
