//! One line for a pane that is not given room: enough to see what it would show (and a click
//! or Tab brings it up), and the strip that names every pane on a small screen.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use strum::IntoEnumIterator;

use super::Look;
use crate::cluster::{Application, derive};
use crate::t;
use crate::tui::state::{EvidenceStanding, Live, Pane, ShellStatus, State, WinnerHidden};
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
        Pane::Apps => apps(s.live(), s.lesson_app(), look),
        Pane::Timeline => timeline(s, look),
        Pane::Fields => fields(s),
        Pane::Values => values(s, look),
        Pane::Evidence => evidence(s, look),
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
        Pane::Lesson => Vec::new(),
    });
    Line::from(spans)
}

fn word(look: Look<'_>, w: &str) -> Span<'static> {
    let w = if w.is_empty() { "Unknown" } else { w };
    Span::styled(
        format!("{} {w}", status_glyph(w)),
        status_style(look.theme, w),
    )
}

fn apps(live: &Live, lesson_app: &str, look: Look<'_>) -> Vec<Span<'static>> {
    if live.apps.is_empty() {
        return vec![Span::raw(t!(look.lang, "summary-apps-none"))];
    }
    let mut out = Vec::new();
    for (name, app) in ordered_apps(live, lesson_app) {
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

/// The Applications with the lesson's own first.
pub fn ordered_apps<'a>(live: &'a Live, lesson_app: &str) -> Vec<(&'a String, &'a Application)> {
    let mut apps: Vec<_> = live.apps.iter().map(|(n, a)| (n, &a.app)).collect();
    apps.sort_by_key(|(name, _)| name.as_str() != lesson_app);
    apps
}

fn timeline(s: &State, look: Look<'_>) -> Vec<Span<'static>> {
    let name = s.timeline_app().to_string();
    match s
        .live()
        .app(&name)
        .and_then(|a| a.status.operation_state.clone())
    {
        Some(op) => vec![
            Span::raw(format!("{name} ")),
            word(look, &op.phase),
            Span::raw(super::timeline::retry_said(look.lang, &op)),
        ],
        None => vec![Span::raw(t!(
            look.lang,
            "timeline-no-operation",
            app = name
        ))],
    }
}

fn fields(s: &State) -> Vec<Span<'static>> {
    let key = s.fields_object();
    match s.live().objects.get(&key).and_then(derive::replicas_owner) {
        Some(owner) => vec![Span::raw(format!(
            "{key} · spec.replicas ← {}",
            owner.manager
        ))],
        None => vec![Span::raw(key)],
    }
}

fn values(s: &State, look: Look<'_>) -> Vec<Span<'static>> {
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

fn evidence(s: &State, look: Look<'_>) -> Vec<Span<'static>> {
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
        (EvidenceStanding::NotChecked, look.theme.warn()),
        (EvidenceStanding::Missing, look.theme.dim()),
    ];
    for (standing, style) in others {
        let n = count(standing);
        let words = match standing {
            EvidenceStanding::Fails => t!(lang, "summary-evidence-fail", count = n),
            EvidenceStanding::NotChecked => t!(lang, "summary-evidence-not-checked", count = n),
            _ => t!(lang, "summary-evidence-missing", count = n),
        };
        if n > 0 {
            out.push(Span::styled(words, style));
        }
    }
    out
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
