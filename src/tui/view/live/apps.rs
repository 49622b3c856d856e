//! The Applications pane: each lab Application's sync and health, the lesson's own first.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::LivePane;
use crate::cluster::watch::StreamId;
use crate::i18n::Lang;
use crate::t;
use crate::tui::state::{Pane, State};
use crate::tui::view::summary::{ordered_apps, word};
use crate::tui::view::{Look, panes};

pub struct Apps;

impl LivePane for Apps {
    fn pane(&self) -> Pane {
        Pane::Apps
    }

    fn title(&self, lang: Lang) -> String {
        t!(lang, "pane-apps")
    }

    fn short_title(&self, lang: Lang) -> String {
        t!(lang, "pane-apps-short")
    }

    fn lines(&self, s: &State, _inner: Rect) -> Vec<Line<'static>> {
        let fit = &s.session().fit;
        panes::AppsView {
            live: s.live(),
            lab: s.lab(),
            lesson_app: s.lesson_app(),
            builds_on: s
                .current()
                .and_then(|l| l.spec.requires.first())
                .map(|r| r.lesson),
            terminate_op: &|app| fit.terminate_op(app),
            look: Look::of(s),
        }
        .lines()
    }

    fn summary(&self, s: &State, look: Look<'_>) -> Vec<Span<'static>> {
        let live = s.live();
        if live.apps.is_empty() {
            return vec![Span::raw(t!(look.lang, "summary-apps-none"))];
        }
        let mut out = Vec::new();
        for (name, app) in ordered_apps(live, s.lesson_app()) {
            out.push(Span::raw(format!("{name} ")));
            out.push(word(look, &app.status.sync.status));
            out.push(Span::raw(" "));
            out.push(word(look, &app.status.health.status));
            if app.retrying_an_old_revision().is_some() {
                out.push(Span::styled(
                    t!(look.lang, "summary-apps-retrying"),
                    look.theme.warn(),
                ));
            }
            out.push(Span::raw("  "));
        }
        out
    }

    /// Each lab Application has a stream of its own.
    fn streams(&self, s: &State) -> Vec<StreamId> {
        s.live()
            .health
            .streams()
            .filter(|st| st.is_app())
            .cloned()
            .collect()
    }
}
