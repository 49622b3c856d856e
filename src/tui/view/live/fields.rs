//! The managedFields pane: who owns which field of the object the lesson looks at.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::LivePane;
use crate::cluster::derive;
use crate::cluster::watch::StreamId;
use crate::i18n::Lang;
use crate::t;
use crate::tui::state::{Pane, State};
use crate::tui::view::{Look, panes};

pub struct Fields;

impl LivePane for Fields {
    fn pane(&self) -> Pane {
        Pane::Fields
    }

    fn title(&self, lang: Lang) -> String {
        t!(lang, "pane-fields")
    }

    fn short_title(&self, lang: Lang) -> String {
        t!(lang, "pane-fields-short")
    }

    fn lines(&self, s: &State, _inner: Rect) -> Vec<Line<'static>> {
        panes::FieldsView {
            objects: &s.live().objects,
            gone: &s.live().gone,
            key: s.fields_object(),
            raw: s.ui().raw,
            look: Look::of(s),
        }
        .lines()
    }

    fn summary(&self, s: &State, _look: Look<'_>) -> Vec<Span<'static>> {
        let Some(key) = s.fields_object() else {
            return Vec::new();
        };
        match s.live().objects.get(&key).and_then(derive::replicas_owner) {
            Some(owner) => vec![Span::raw(format!(
                "{key} · spec.replicas ← {}",
                owner.manager
            ))],
            None => vec![Span::raw(key.to_string())],
        }
    }

    /// The object comes from its namespace's watch of its kind.
    fn streams(&self, s: &State) -> Vec<StreamId> {
        // An Application comes from its own stream, by name.
        s.fields_object()
            .map(|key| match key.is_app() {
                true => StreamId::app(&key.name),
                false => StreamId::new(&key.namespace, key.kind),
            })
            .into_iter()
            .collect()
    }
}
