//! The sync-wave timeline: the last operation of the lesson's Application, phase by phase and
//! wave by wave.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::LivePane;
use crate::cluster::watch::StreamId;
use crate::i18n::Lang;
use crate::t;
use crate::tui::state::{Pane, State};
use crate::tui::view::summary::word;
use crate::tui::view::{Look, panes};

pub struct Timeline;

impl LivePane for Timeline {
    fn pane(&self) -> Pane {
        Pane::Timeline
    }

    fn title(&self, lang: Lang) -> String {
        t!(lang, "pane-timeline")
    }

    fn short_title(&self, lang: Lang) -> String {
        t!(lang, "pane-timeline-short")
    }

    fn lines(&self, s: &State, inner: Rect) -> Vec<Line<'static>> {
        panes::TimelineView {
            live: s.live(),
            app: s.timeline_app(),
            look: Look::of(s),
        }
        .fitted(inner.width, inner.height)
    }

    fn summary(&self, s: &State, look: Look<'_>) -> Vec<Span<'static>> {
        let name = s.timeline_app().to_string();
        match s
            .live()
            .app(&name)
            .and_then(|a| a.status.operation_state.clone())
        {
            Some(op) => vec![
                Span::raw(format!("{name} ")),
                word(look, &op.phase),
                Span::raw(crate::tui::view::timeline::retry_said(look.lang, &op)),
            ],
            None => vec![Span::raw(t!(
                look.lang,
                "timeline-no-operation",
                app = name
            ))],
        }
    }

    /// The Application and the live objects it deployed.
    fn streams(&self, s: &State) -> Vec<StreamId> {
        let ns = s
            .live()
            .app(s.timeline_app())
            .map(|a| a.spec.destination.namespace.clone())
            .unwrap_or_default();
        let mut streams = vec![StreamId::app(s.timeline_app())];
        streams.extend(
            s.live()
                .health
                .streams()
                .filter(|st| st.namespace == ns)
                .cloned(),
        );
        streams
    }
}
