//! The live panes, each in one place (`live/<pane>.rs`): its titles, what it draws, its one
//! line when it gets no room, and the watch streams it draws from. Adding one is its file, its
//! `Pane` variant, its entry in `LIVE` and its words; the layout, the summaries, the health
//! fading and the titles read this table.

mod apps;
mod evidence;
mod fields;
mod timeline;
mod values;

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::Look;
use crate::cluster::watch::StreamId;
use crate::i18n::Lang;
use crate::t;
use crate::tui::state::{Pane, State};

/// A pane that shows the cluster or the lab as they are now.
pub trait LivePane: Sync {
    /// Which pane this is.
    fn pane(&self) -> Pane;
    /// Its title on its border.
    fn title(&self, lang: Lang) -> String;
    /// Its name in a strip of every pane.
    fn short_title(&self, lang: Lang) -> String;
    /// Its lines, for a pane `inner` large (before wrapping).
    fn lines(&self, s: &State, inner: Rect) -> Vec<Line<'static>>;
    /// What it would show, when it gets one line (cut to fit by the caller).
    fn summary(&self, s: &State, look: Look<'_>) -> Vec<Span<'static>>;
    /// The watch streams it draws from: while one is stale, the pane fades and says "as of".
    fn streams(&self, s: &State) -> Vec<StreamId>;
}

/// The live panes, in the order they get room when nothing asks for one first.
pub static LIVE: [&dyn LivePane; 5] = [
    &apps::Apps,
    &timeline::Timeline,
    &fields::Fields,
    &values::Values,
    &evidence::Evidence,
];

/// The live pane `pane` is, if it is one (the lesson and the shell are drawn apart).
pub fn live(pane: Pane) -> Option<&'static dyn LivePane> {
    LIVE.iter().copied().find(|p| p.pane() == pane)
}

impl Pane {
    /// The pane's title on its border.
    pub fn title(self, lang: Lang) -> String {
        match (self, live(self)) {
            (_, Some(p)) => p.title(lang),
            (Pane::Shell, None) => t!(lang, "pane-shell"),
            (_, None) => t!(lang, "pane-lesson"),
        }
    }

    /// The pane's name in a strip of every pane.
    pub fn short_title(self, lang: Lang) -> String {
        match (self, live(self)) {
            (_, Some(p)) => p.short_title(lang),
            (Pane::Shell, None) => t!(lang, "pane-shell-short"),
            (_, None) => t!(lang, "pane-lesson-short"),
        }
    }
}

#[cfg(test)]
mod tests {
    use strum::IntoEnumIterator;

    use super::*;

    /// Every pane but the lesson and the shell is in the table once, and the table keeps
    /// `Pane`'s order.
    #[test]
    fn every_live_pane_is_in_the_table_once_in_tab_order() {
        let live: Vec<Pane> = Pane::iter()
            .filter(|p| !matches!(p, Pane::Lesson | Pane::Shell))
            .collect();
        let table: Vec<Pane> = LIVE.iter().map(|p| p.pane()).collect();
        assert_eq!(table, live);
    }
}
