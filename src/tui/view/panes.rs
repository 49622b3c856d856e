//! The cluster panes: Applications (with the step-6 trap said in plain words), the sync
//! timeline, managedFields ownership, Helm value provenance, and the evidence files.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::cluster::{Application, derive};
use crate::tui::state::State;
use crate::tui::theme::{gloss_zh, status_glyph, status_style};

fn short(rev: Option<&str>) -> String {
    rev.map_or_else(|| "-".into(), |r| r.chars().take(7).collect())
}

/// A status word with its glyph; in Chinese with its meaning beside it (`✓ Synced 已同步`).
fn status(s: &State, word: &str) -> Span<'static> {
    let word = if word.is_empty() { "Unknown" } else { word };
    let gloss = match (s.lang, gloss_zh(word)) {
        (crate::lab::catalog::Lang::Zh, Some(g)) => format!(" {g}"),
        _ => String::new(),
    };
    Span::styled(
        format!("{} {word}{gloss}", status_glyph(word)),
        status_style(s.theme, word),
    )
}

pub struct AppsView<'a>(pub &'a State);

impl AppsView<'_> {
    /// The pane's lines; the screen wraps, scrolls and marks them.
    pub fn lines(&self) -> Vec<Line<'static>> {
        let s = self.0;
        let mut lines = Vec::new();
        let loaded = !matches!(
            s.health
                .of(&crate::cluster::watch::StreamId::applications()),
            crate::cluster::health::StreamHealth::Connecting
                | crate::cluster::health::StreamHealth::Stale { since: None, .. }
        );
        if s.apps.is_empty() && !loaded {
            lines.push(Line::raw(if s.lang == crate::lab::catalog::Lang::Zh {
                "Applications 尚未载入：集群还没有回应（见顶部）。"
            } else {
                "The Applications are not loaded yet: the cluster has not answered (see the header)."
            }));
        } else if s.apps.is_empty() {
            lines.push(Line::raw(if s.lang == crate::lab::catalog::Lang::Zh {
                "argocd 中还没有 Application。r 执行本课计划，会创建所需的一切。"
            } else {
                "No Applications in argocd yet. r runs this lesson's plan, which creates what it needs."
            }));
        }
        // The lesson's own Application first: its operation and banner are what matter.
        for (name, app) in super::summary::ordered_apps(s) {
            lines.extend(app_lines(s, name, app));
        }
        lines
    }
}

/// One Application: sync and health, Git's revision beside the synced one (with commit
/// subjects), the operation, its conditions, and the retry trap in plain words.
fn app_lines(s: &State, name: &str, app: &Application) -> Vec<Line<'static>> {
    let st = &app.status;
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{name:<10} "), s.theme.title()),
        status(s, &st.sync.status),
        Span::raw("  "),
        status(s, &st.health.status),
    ])];
    let subject = |rev: Option<&str>| {
        rev.and_then(|r| s.commits.get(r))
            .map(|t| format!(" \"{t}\""))
            .unwrap_or_default()
    };
    lines.push(Line::from(Span::raw(format!(
        "  git {}{} · synced {}{}",
        short(app.git_revision()),
        subject(app.git_revision()),
        short(app.synced_revision()),
        subject(app.synced_revision()),
    ))));
    if let Some(op) = st.operation_state.as_ref().filter(|o| !o.phase.is_empty()) {
        let retry = op
            .retry_count
            .map(|n| format!(" · retry {n}"))
            .unwrap_or_default();
        let clock = |t: Option<&str>| t.and_then(|t| t.get(11..19)).unwrap_or("-").to_string();
        let finished = op
            .finished_at
            .as_deref()
            .map(|t| format!("→{}", clock(Some(t))))
            .unwrap_or_default();
        lines.push(Line::from(vec![
            Span::raw("  op "),
            status(s, &op.phase),
            Span::raw(format!(
                "{retry} · {}{finished} · {}",
                clock(op.started_at.as_deref()),
                op.message
            )),
        ]));
    }
    for c in &st.conditions {
        lines.push(Line::from(Span::styled(
            format!("  ✗ {}: {}", c.kind, c.message),
            s.theme.bad(),
        )));
    }
    if let Some(retrying) = app.retrying_an_old_revision() {
        lines.push(Line::from(Span::styled(
            format!(
                "  ⚠ An operation is still retrying {} while Git is at {}: the new commit waits until it ends. End it with: capa-tui app terminate-op {name}",
                short(Some(retrying)),
                short(app.git_revision())
            ),
            s.theme.warn().add_modifier(Modifier::BOLD),
        )));
    }
    lines
}

pub use super::timeline::TimelineView;

pub struct FieldsView<'a>(pub &'a State);

impl FieldsView<'_> {
    /// The pane's lines; the screen wraps, scrolls and marks them.
    pub fn lines(&self) -> Vec<Line<'static>> {
        let s = self.0;
        let key = s.fields_object();
        let Some(obj) = s.objects.get(&key) else {
            return vec![Line::raw(format!(
                "{key} does not exist yet. o: next object"
            ))];
        };
        if s.raw {
            let raw =
                serde_json::to_string_pretty(&obj["metadata"]["managedFields"]).unwrap_or_default();
            return raw.lines().map(|l| Line::raw(l.to_string())).collect();
        }
        let mut lines = vec![Line::from(Span::styled(
            format!("{key}   (o: next object · v: raw)"),
            s.theme.dim(),
        ))];
        if let Some(owner) = derive::replicas_owner(obj) {
            lines.push(Line::from(Span::styled(
                format!(
                    "spec.replicas is owned by {} ({}{})",
                    owner.manager,
                    owner.operation,
                    if owner.subresource.is_empty() {
                        String::new()
                    } else {
                        format!(", subresource {}", owner.subresource)
                    }
                ),
                s.theme.accent().add_modifier(Modifier::BOLD),
            )));
        }
        for o in derive::owners(obj) {
            let sub = if o.subresource.is_empty() {
                String::new()
            } else {
                format!(" /{}", o.subresource)
            };
            lines.push(Line::from(Span::styled(
                format!("{} · {}{sub} · {}", o.manager, o.operation, o.time),
                s.theme.title(),
            )));
            for f in o
                .fields
                .iter()
                .filter(|f| !f.starts_with(".status"))
                .take(6)
            {
                let style = if f == ".spec.replicas" {
                    s.theme.accent().add_modifier(Modifier::BOLD)
                } else {
                    s.theme.dim()
                };
                lines.push(Line::from(Span::styled(format!("  {f}"), style)));
            }
        }
        lines
    }
}

pub struct ValuesView<'a>(pub &'a State);

impl ValuesView<'_> {
    /// The pane's lines; the screen wraps, scrolls and marks them.
    pub fn lines(&self) -> Vec<Line<'static>> {
        let s = self.0;
        let Some(spec) = s.values_spec() else {
            return vec![Line::raw("No lesson traces Helm values.")];
        };
        let Some(app) = s.apps.get(&spec.app) else {
            return vec![Line::raw(format!("{} does not exist yet.", spec.app))];
        };
        let helm = app.helm().cloned().unwrap_or_default();
        let chart = s
            .chart_values
            .get("values.yaml")
            .cloned()
            .unwrap_or(Value::Null);
        let files: Vec<Value> = helm
            .value_files
            .iter()
            .map(|f| s.chart_values.get(f).cloned().unwrap_or(Value::Null))
            .collect();
        let mut lines = vec![Line::from(Span::styled(spec.app.clone(), s.theme.dim()))];
        for value_key in &spec.keys {
            let key = value_key.key.as_str();
            let live = s
                .objects
                .get(&value_key.live.key())
                .map(|o| value_key.path.get(o).cloned().unwrap_or(Value::Null));
            let p = derive::provenance(key, &chart, &files, &helm);
            lines.push(Line::from(Span::styled(key.to_string(), s.theme.title())));
            for (layer, value) in &p.layers {
                let won = p.winner == Some(layer);
                let text = if value.is_null() {
                    "-".to_string()
                } else {
                    value.to_string()
                };
                let style = if won {
                    s.theme.good().add_modifier(Modifier::BOLD)
                } else {
                    s.theme.dim()
                };
                lines.push(Line::from(Span::styled(
                    format!("  {} {layer:<13} {text}", if won { "▶" } else { " " }),
                    style,
                )));
            }
            if let Some(live) = live {
                let winner_value = p
                    .layers
                    .iter()
                    .find(|(l, _)| Some(*l) == p.winner)
                    .map(|(_, v)| v.clone())
                    .unwrap_or(Value::Null);
                let render = |v: &Value| v.as_str().map_or_else(|| v.to_string(), String::from);
                let (glyph, style) = if render(&winner_value) == render(&live) {
                    ("✓", s.theme.good())
                } else {
                    ("✗ mismatch", s.theme.bad())
                };
                lines.push(Line::from(Span::styled(
                    format!("    live: {} {glyph}", render(&live)),
                    style,
                )));
            }
        }
        lines
    }
}

pub struct EvidenceView<'a>(pub &'a State);

impl EvidenceView<'_> {
    /// The pane's lines; the screen wraps, scrolls and marks them.
    pub fn lines(&self) -> Vec<Line<'static>> {
        let s = self.0;
        let mut lines = Vec::new();
        for lesson in &s.lessons {
            let Some(file) = lesson.evidence_file() else {
                continue;
            };
            let present = s.evidence_present.get(file).copied().unwrap_or(false);
            let (glyph, word, style) = match (present, s.grades.get(file)) {
                (false, _) => ("·", "missing", s.theme.dim()),
                (true, Some(g)) if g.passed() => ("✓", "passes", s.theme.good()),
                (true, Some(_)) => ("✗", "fails", s.theme.bad()),
                (true, None) => ("…", "not checked (c)", s.theme.warn()),
            };
            lines.push(Line::from(Span::styled(
                format!("{glyph} {file:<17} {word}"),
                style,
            )));
        }
        lines
    }
}
