//! The Helm value provenance pane: which of the chart's defaults, the value files and the
//! parameters wins each value the lesson asks about, beside the live object.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::LivePane;
use crate::cluster::derive;
use crate::cluster::watch::StreamId;
use crate::i18n::Lang;
use crate::t;
use crate::tui::state::{Pane, State, WinnerHidden};
use crate::tui::view::{Look, panes};

pub struct Values;

impl LivePane for Values {
    fn pane(&self) -> Pane {
        Pane::Values
    }

    fn title(&self, lang: Lang) -> String {
        t!(lang, "pane-values")
    }

    fn short_title(&self, lang: Lang) -> String {
        t!(lang, "pane-values-short")
    }

    fn lines(&self, s: &State, _inner: Rect) -> Vec<Line<'static>> {
        panes::ValuesView {
            spec: s.values_spec(),
            hide_winner: s.values_winner_hidden(),
            live: s.live(),
            chart_values: &s.lab().chart_values,
            look: Look::of(s),
        }
        .lines()
    }

    fn summary(&self, s: &State, look: Look<'_>) -> Vec<Span<'static>> {
        let Some(spec) = s.values_spec() else {
            return vec![Span::raw(t!(look.lang, "values-none"))];
        };
        let Some(helm) = s.live().app(&spec.app).and_then(|a| a.helm().cloned()) else {
            return vec![Span::raw(t!(
                look.lang,
                "values-app-missing",
                app = spec.app.as_str()
            ))];
        };
        let chart = s
            .lab()
            .chart_values
            .get("values.yaml")
            .cloned()
            .unwrap_or_default();
        let files: Vec<serde_json::Value> = helm
            .value_files
            .iter()
            .map(|f| s.lab().chart_values.get(f).cloned().unwrap_or_default())
            .collect();
        match s.values_winner_hidden() {
            Some(WinnerHidden::UntilEvidence) => {
                return vec![Span::raw(t!(look.lang, "summary-values-hidden"))];
            }
            Some(WinnerHidden::UntilAnswered) => {
                return vec![Span::raw(t!(
                    look.lang,
                    "summary-values-hidden-until-answered"
                ))];
            }
            None => {}
        }
        let winners: Vec<String> = spec
            .keys
            .iter()
            .map(|k| {
                let p = derive::provenance(&k.key, &chart, &files, &helm);
                format!("{} ← {}", k.key, p.winner.unwrap_or("-"))
            })
            .collect();
        vec![Span::raw(winners.join(" · "))]
    }

    /// The Application whose Helm source it reads.
    fn streams(&self, s: &State) -> Vec<StreamId> {
        s.values_spec()
            .map(|v| StreamId::app(&v.app))
            .into_iter()
            .collect()
    }
}
