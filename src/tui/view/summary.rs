//! One line for a pane that is not given room: enough to see what it would show (and a click
//! or Tab brings it up), and the strip that names every pane on a small screen.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::cluster::derive;
use crate::tui::state::{Pane, ShellStatus, State};
use crate::tui::theme::{status_glyph, status_style};

/// What a pane would show, in one line of `width`, cut with `…` when longer.
pub fn line(s: &State, pane: Pane, width: u16) -> Line<'static> {
    let mut line = full_line(s, pane);
    let room = usize::from(width);
    if line.width() > room {
        let mut used = 0;
        let mut kept = Vec::new();
        for span in line.spans {
            let left = room.saturating_sub(used + 1);
            let text: String = span.content.chars().take(left).collect();
            used += text.chars().count();
            let cut = text.chars().count() < span.content.chars().count();
            kept.push(Span::styled(text, span.style));
            if cut {
                break;
            }
        }
        kept.push(Span::styled("…", s.theme.dim()));
        line = Line::from(kept);
    }
    line
}

fn full_line(s: &State, pane: Pane) -> Line<'static> {
    let as_of = super::health::as_of_words(s, pane).unwrap_or_default();
    let mut spans = vec![Span::styled(
        format!("▸ {}{as_of}: ", pane.title(s.lang)),
        s.theme.title(),
    )];
    spans.extend(match pane {
        Pane::Apps => apps(s),
        Pane::Timeline => timeline(s),
        Pane::Fields => fields(s),
        Pane::Values => values(s),
        Pane::Evidence => evidence(s),
        Pane::Shell => vec![Span::raw(match &s.shell.status {
            ShellStatus::Running => "running · s to type".to_string(),
            ShellStatus::NotStarted => "s opens one with the lab's environment".to_string(),
            ShellStatus::Exited(_) => "exited · s starts another".to_string(),
            ShellStatus::Failed(why) => format!("could not start: {why}"),
        })],
        Pane::Lesson => Vec::new(),
    });
    Line::from(spans)
}

fn word(s: &State, w: &str) -> Span<'static> {
    let w = if w.is_empty() { "Unknown" } else { w };
    Span::styled(format!("{} {w}", status_glyph(w)), status_style(s.theme, w))
}

fn apps(s: &State) -> Vec<Span<'static>> {
    if s.apps.is_empty() {
        return vec![Span::raw("none yet")];
    }
    let mut out = Vec::new();
    for (name, app) in ordered_apps(s) {
        out.push(Span::raw(format!("{name} ")));
        out.push(word(s, &app.status.sync.status));
        out.push(Span::raw(" "));
        out.push(word(s, &app.status.health.status));
        if app.retrying_an_old_revision().is_some() {
            out.push(Span::styled(" ⚠ retrying an old commit", s.theme.warn()));
        }
        out.push(Span::raw("  "));
    }
    out
}

/// The Applications with the lesson's own first.
pub fn ordered_apps(s: &State) -> Vec<(&String, &crate::cluster::Application)> {
    let mut apps: Vec<_> = s.apps.iter().collect();
    apps.sort_by_key(|(name, _)| name.as_str() != s.lesson_app());
    apps
}

fn timeline(s: &State) -> Vec<Span<'static>> {
    let name = s.timeline_app().to_string();
    match s
        .apps
        .get(&name)
        .and_then(|a| a.status.operation_state.clone())
    {
        Some(op) => vec![
            Span::raw(format!("{name} ")),
            word(s, &op.phase),
            Span::raw(
                op.retry_count
                    .map(|n| format!(" · retry {n}"))
                    .unwrap_or_default(),
            ),
        ],
        None => vec![Span::raw(format!("{name}: no operation yet"))],
    }
}

fn fields(s: &State) -> Vec<Span<'static>> {
    let key = s.fields_object();
    match s.objects.get(&key).and_then(derive::replicas_owner) {
        Some(owner) => vec![Span::raw(format!(
            "{key} · spec.replicas ← {}",
            owner.manager
        ))],
        None => vec![Span::raw(key)],
    }
}

fn values(s: &State) -> Vec<Span<'static>> {
    let Some(spec) = s.values_spec() else {
        return vec![Span::raw("no lesson traces Helm values")];
    };
    let Some(helm) = s.apps.get(&spec.app).and_then(|a| a.helm().cloned()) else {
        return vec![Span::raw(format!("{} does not exist yet", spec.app))];
    };
    let chart = s
        .chart_values
        .get("values.yaml")
        .cloned()
        .unwrap_or_default();
    let files: Vec<serde_json::Value> = helm
        .value_files
        .iter()
        .map(|f| s.chart_values.get(f).cloned().unwrap_or_default())
        .collect();
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

fn evidence(s: &State) -> Vec<Span<'static>> {
    let files: Vec<&str> = s.lessons.iter().filter_map(|l| l.evidence_file()).collect();
    let passing = files
        .iter()
        .filter(|f| s.grades.get(**f).is_some_and(|g| g.passed()))
        .count();
    let failing = files
        .iter()
        .filter(|f| s.grades.get(**f).is_some_and(|g| !g.passed()))
        .count();
    let mut out = vec![Span::styled(
        format!("{passing}/{} pass", files.len()),
        s.theme.good(),
    )];
    if failing > 0 {
        out.push(Span::styled(format!(" · {failing} fail"), s.theme.bad()));
    }
    out
}

/// Every pane's name, the ones on screen marked: `Tab` moves along it.
pub fn strip(s: &State, shown: &[Pane]) -> Line<'static> {
    let mut spans = Vec::new();
    for pane in [
        Pane::Lesson,
        Pane::Shell,
        Pane::Apps,
        Pane::Timeline,
        Pane::Fields,
        Pane::Values,
        Pane::Evidence,
    ] {
        let name = pane.short_title(s.lang).to_string();
        let style = if shown.contains(&pane) {
            s.theme
                .accent()
                .add_modifier(Modifier::BOLD | Modifier::REVERSED)
        } else {
            s.theme.dim()
        };
        spans.push(Span::styled(format!(" {name} "), style));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled("Tab ⇄", s.theme.dim()));
    Line::from(spans)
}
