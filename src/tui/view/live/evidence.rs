//! The evidence pane: each lesson's evidence file, there or not, and how its self-check stands.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::LivePane;
use crate::cluster::watch::StreamId;
use crate::i18n::Lang;
use crate::t;
use crate::tui::state::{EvidenceStanding, Pane, State};
use crate::tui::view::{Look, panes};

pub struct Evidence;

impl LivePane for Evidence {
    fn pane(&self) -> Pane {
        Pane::Evidence
    }

    fn title(&self, lang: Lang) -> String {
        t!(lang, "pane-evidence")
    }

    fn short_title(&self, lang: Lang) -> String {
        t!(lang, "pane-evidence-short")
    }

    fn lines(&self, s: &State, _inner: Rect) -> Vec<Line<'static>> {
        panes::EvidenceView {
            catalog: &s.session().catalog,
            standing: &|file| s.evidence_standing(file),
            look: Look::of(s),
        }
        .lines()
    }

    fn summary(&self, s: &State, look: Look<'_>) -> Vec<Span<'static>> {
        let lang = look.lang;
        let standings: Vec<EvidenceStanding> = s
            .session()
            .catalog
            .evidence_files()
            .map(|f| s.evidence_standing(f))
            .collect();
        let count = |st: EvidenceStanding| standings.iter().filter(|x| **x == st).count();
        let mut out = vec![Span::styled(
            t!(
                lang,
                "summary-evidence-pass",
                passing = count(EvidenceStanding::Passes),
                total = standings.len()
            ),
            look.theme.good(),
        )];
        let others = [
            (EvidenceStanding::Fails, look.theme.bad()),
            (EvidenceStanding::BeingWritten, look.theme.warn()),
            (EvidenceStanding::NotChecked, look.theme.warn()),
            (EvidenceStanding::Missing, look.theme.dim()),
        ];
        for (standing, style) in others {
            let n = count(standing);
            let words = match standing {
                EvidenceStanding::Fails => t!(lang, "summary-evidence-fail", count = n),
                EvidenceStanding::NotChecked => {
                    t!(lang, "summary-evidence-not-checked", count = n)
                }
                EvidenceStanding::BeingWritten => {
                    t!(lang, "summary-evidence-being-written", count = n)
                }
                _ => t!(lang, "summary-evidence-missing", count = n),
            };
            if n > 0 {
                out.push(Span::styled(words, style));
            }
        }
        out
    }

    /// The learner's files, watched as files, not through the cluster.
    fn streams(&self, _s: &State) -> Vec<StreamId> {
        Vec::new()
    }
}
