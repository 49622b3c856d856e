//! The cluster panes: Applications (with the step-6 trap said in plain words), managedFields
//! ownership, Helm value provenance, and the evidence files. Each borrows only the parts of the
//! state it draws.

use std::collections::BTreeMap;

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use serde_json::Value;

use super::Look;
use crate::cluster::application::OperationState;
use crate::cluster::health::StreamHealth;
use crate::cluster::{Application, ObjectKey, derive};
use crate::lab::catalog::Catalog;
use crate::lab::spec::ValuesSpec;
use crate::t;
use crate::tui::state::{EvidenceStanding, LabView, Live, WinnerHidden};

pub use super::timeline::TimelineView;

fn short(rev: Option<&str>) -> String {
    rev.map_or_else(|| "-".into(), |r| crate::lab::short_commit(r).to_string())
}

pub struct AppsView<'a> {
    pub live: &'a Live,
    pub lab: &'a LabView,
    /// The lesson's Application, listed first.
    pub lesson_app: &'a str,
    /// The lesson the shown one builds on (its first requirement): with no Applications yet,
    /// `r` here changes nothing until that one is done, and the pane must not promise it will.
    pub builds_on: Option<crate::lab::spec::LessonId>,
    /// How to end a blocking operation where the learner is.
    pub terminate_op: &'a dyn Fn(&str) -> String,
    pub look: Look<'a>,
}

impl AppsView<'_> {
    /// The pane's lines; the screen wraps, scrolls and marks them.
    pub fn lines(&self) -> Vec<Line<'static>> {
        let lang = self.look.lang;
        let mut lines = Vec::new();
        let loaded = self
            .live
            .health
            .streams()
            .filter(|st| st.is_app())
            .any(|st| {
                !matches!(
                    self.live.health.of(st),
                    StreamHealth::Connecting | StreamHealth::Stale { since: None, .. }
                )
            });
        if self.live.apps.is_empty() && !loaded {
            lines.push(Line::raw(t!(lang, "apps-not-loaded")));
        } else if self.live.apps.is_empty() {
            lines.push(Line::raw(match self.builds_on {
                Some(needs) => t!(lang, "apps-none-builds-on", needs = needs.to_string()),
                None => t!(lang, "apps-none-yet"),
            }));
        }
        // The lesson's own Application first: its operation and banner are what matter.
        for (name, app) in super::summary::ordered_apps(self.live, self.lesson_app) {
            lines.extend(self.app_lines(name, app));
        }
        lines
    }

    /// One Application: sync and health, Git's revision beside the synced one (with commit
    /// subjects), the operation, its conditions, and the retry trap in plain words.
    fn app_lines(&self, name: &str, app: &Application) -> Vec<Line<'static>> {
        let look = &self.look;
        let lang = look.lang;
        let st = &app.status;
        let mut lines = vec![Line::from(vec![
            Span::styled(format!("{name:<10} "), look.theme.title()),
            look.status(&st.sync.status),
            Span::raw("  "),
            look.status(&st.health.status),
        ])];
        let subject = |rev: Option<&str>| {
            rev.and_then(|r| self.lab.commits.get(r))
                .map(|t| format!(" \"{t}\""))
                .unwrap_or_default()
        };
        // Git's revision beside the last one that synced successfully: a failed sync of a new
        // commit leaves the old one deployed, and the lesson on failed hooks is about exactly that.
        // Synced at Git's commit with nothing running: the commits since the last sync had
        // nothing to apply (they changed other folders, or only hooks), which is not drift.
        let in_sync = st.sync.status == "Synced" && app.operation.is_none();
        let good = match app.last_good_revision() {
            Some(good) if Some(good) == app.git_revision() => t!(lang, "apps-last-good-here"),
            Some(good) if in_sync => t!(
                lang,
                "apps-nothing-since",
                revision = short(Some(good)),
                subject = subject(Some(good))
            ),
            Some(good) => t!(
                lang,
                "apps-last-good",
                revision = short(Some(good)),
                subject = subject(Some(good))
            ),
            None => t!(lang, "apps-never-good"),
        };
        lines.push(Line::from(Span::raw(t!(
            lang,
            "apps-revisions",
            git = short(app.git_revision()),
            git_subject = subject(app.git_revision()),
            good = good
        ))));
        if let Some(op) = st.operation_state.as_ref().filter(|o| !o.phase.is_empty()) {
            lines.push(self.operation_line(app, op));
        }
        for c in &st.conditions {
            lines.push(Line::from(Span::styled(
                format!("  ✗ {}: {}", c.kind, c.message),
                look.theme.bad(),
            )));
        }
        if let Some(retrying) = app.retrying_an_old_revision() {
            lines.push(Line::from(Span::styled(
                t!(
                    lang,
                    "apps-retry-trap",
                    retrying = short(Some(retrying)),
                    git = short(app.git_revision()),
                    command = (self.terminate_op)(name)
                ),
                look.theme.warn().add_modifier(Modifier::BOLD),
            )));
        }
        lines
    }

    /// The last operation, named by the revision it worked on: ended (Succeeded, Failed, Error),
    /// retrying (Running again after a failure), or running for the first time.
    fn operation_line(&self, app: &Application, op: &OperationState) -> Line<'static> {
        let look = &self.look;
        let lang = look.lang;
        let revision = short(app.operation_revision().or(app.result_revision()));
        let clock = |t: Option<&str>| t.and_then(|t| t.get(11..19)).unwrap_or("-").to_string();
        let retries = op.retry_count.filter(|n| *n > 0);
        let running = matches!(op.phase.as_str(), "Running" | "Terminating");
        let (lead, style) = match (running, retries) {
            // How many retries are left is what a presenter needs: once they run out, the
            // next commit syncs by itself.
            (true, Some(n)) => (
                match op.retry_limit() {
                    Some(limit) => t!(
                        lang,
                        "apps-op-retrying-of",
                        revision = revision,
                        count = n,
                        limit = limit
                    ),
                    None => t!(lang, "apps-op-retrying", revision = revision, count = n),
                },
                look.theme.warn(),
            ),
            (true, None) => (
                t!(lang, "apps-op-running", revision = revision),
                look.theme.warn(),
            ),
            (false, _) if op.failed() => (
                t!(lang, "apps-op-ended", revision = revision),
                look.theme.bad(),
            ),
            (false, _) => (
                t!(lang, "apps-op-ended", revision = revision),
                look.theme.good(),
            ),
        };
        // A retry runs again with the failed attempt's finish time still recorded.
        let times = match op.finished_at.as_deref().filter(|_| !running) {
            Some(end) => format!("{}→{}", clock(op.started_at.as_deref()), clock(Some(end))),
            None => t!(
                lang,
                "apps-op-since",
                time = clock(op.started_at.as_deref())
            ),
        };
        let mut spans = vec![Span::styled(lead, style)];
        // While it runs the lead says so; once ended, the phase in Argo CD's own word.
        if running {
            spans.push(Span::raw(format!("{times} · {}", op.message)));
        } else {
            let after = retries
                .map(|n| t!(lang, "apps-op-after-retries", count = n))
                .unwrap_or_default();
            spans.push(look.status(&op.phase));
            spans.push(Span::raw(format!("{after} · {times} · {}", op.message)));
        }
        Line::from(spans)
    }
}

pub struct FieldsView<'a> {
    pub objects: &'a BTreeMap<ObjectKey, Value>,
    /// When the watches saw objects deleted.
    pub gone: &'a BTreeMap<ObjectKey, jiff::Timestamp>,
    /// The object shown (none when the lesson names none and none was chosen).
    pub key: Option<ObjectKey>,
    pub raw: bool,
    pub look: Look<'a>,
}

impl FieldsView<'_> {
    /// The pane's lines; the screen wraps, scrolls and marks them.
    pub fn lines(&self) -> Vec<Line<'static>> {
        let (theme, lang) = (self.look.theme, self.look.lang);
        let key = self
            .key
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let Some(obj) = self.key.as_ref().and_then(|k| self.objects.get(k)) else {
            let said = match self.key.as_ref().and_then(|k| self.gone.get(k)) {
                Some(at) => t!(lang, "fields-gone", object = key, at = self.look.clock(*at)),
                None => t!(lang, "fields-not-there", object = key),
            };
            return vec![Line::raw(said)];
        };
        if self.raw {
            let raw =
                serde_json::to_string_pretty(&obj["metadata"]["managedFields"]).unwrap_or_default();
            return raw.lines().map(|l| Line::raw(l.to_string())).collect();
        }
        let mut lines = vec![Line::from(Span::styled(
            t!(lang, "fields-heading", object = key),
            theme.dim(),
        ))];
        if let Some(owner) = derive::replicas_owner(obj) {
            let text = if owner.subresource.is_empty() {
                t!(
                    lang,
                    "fields-replicas-owner",
                    manager = owner.manager,
                    operation = owner.operation
                )
            } else {
                t!(
                    lang,
                    "fields-replicas-owner-subresource",
                    manager = owner.manager,
                    operation = owner.operation,
                    subresource = owner.subresource
                )
            };
            lines.push(Line::from(Span::styled(
                text,
                theme.accent().add_modifier(Modifier::BOLD),
            )));
        }
        for o in derive::owners(obj) {
            let sub = if o.subresource.is_empty() {
                String::new()
            } else {
                format!(" /{}", o.subresource)
            };
            // A write through /scale is not dated (so the real API server writes it).
            let time = if o.time.is_empty() {
                String::new()
            } else {
                format!(" · {}", o.time)
            };
            lines.push(Line::from(Span::styled(
                format!("{} · {}{sub}{time}", o.manager, o.operation),
                theme.title(),
            )));
            let fields: Vec<&String> = o
                .fields
                .iter()
                .filter(|f| !f.starts_with(".status"))
                .collect();
            for f in fields.iter().take(FIELDS_SHOWN) {
                let style = if *f == ".spec.replicas" {
                    theme.accent().add_modifier(Modifier::BOLD)
                } else {
                    theme.dim()
                };
                lines.push(Line::from(Span::styled(format!("  {f}"), style)));
            }
            // A cut is never silent: what is left out is counted (status fields included).
            let left = o
                .fields
                .len()
                .saturating_sub(fields.len().min(FIELDS_SHOWN));
            if left > 0 {
                lines.push(Line::from(Span::styled(
                    format!("  {}", t!(lang, "watch-more", count = left.to_string())),
                    theme.dim(),
                )));
            }
        }
        lines
    }
}

/// The fields shown under each manager: the pane is about who owns `spec.replicas`, the rest
/// is context.
const FIELDS_SHOWN: usize = 6;

pub struct ValuesView<'a> {
    pub spec: Option<&'a ValuesSpec>,
    /// Keep the winning layer (and the live value that gives it away) to itself, and until when.
    pub hide_winner: Option<WinnerHidden>,
    pub live: &'a Live,
    pub chart_values: &'a BTreeMap<String, Value>,
    pub look: Look<'a>,
}

impl ValuesView<'_> {
    /// The pane's lines; the screen wraps, scrolls and marks them.
    pub fn lines(&self) -> Vec<Line<'static>> {
        let (theme, lang) = (self.look.theme, self.look.lang);
        let Some(spec) = self.spec else {
            return vec![Line::raw(t!(lang, "values-none"))];
        };
        let Some(app) = self.live.app(&spec.app) else {
            return vec![Line::raw(t!(
                lang,
                "values-app-missing",
                app = spec.app.as_str()
            ))];
        };
        let helm = app.helm().cloned().unwrap_or_default();
        let chart = self
            .chart_values
            .get("values.yaml")
            .cloned()
            .unwrap_or(Value::Null);
        let files: Vec<Value> = helm
            .value_files
            .iter()
            .map(|f| self.chart_values.get(f).cloned().unwrap_or(Value::Null))
            .collect();
        let mut lines = vec![Line::from(Span::styled(spec.app.clone(), theme.dim()))];
        if let Some(until) = self.hide_winner {
            let words = match until {
                WinnerHidden::UntilEvidence => t!(lang, "values-winner-hidden"),
                WinnerHidden::UntilAnswered => t!(lang, "values-winner-hidden-until-answered"),
            };
            lines.push(Line::from(Span::styled(words, theme.warn())));
        }
        for value_key in &spec.keys {
            let key = value_key.key.as_str();
            let live = self
                .live
                .objects
                .get(&value_key.live)
                .map(|o| value_key.path.get(o).cloned().unwrap_or(Value::Null));
            let p = derive::provenance(key, &chart, &files, &helm);
            lines.push(Line::from(Span::styled(key.to_string(), theme.title())));
            for (layer, value) in &p.layers {
                let won = p.winner == Some(layer) && self.hide_winner.is_none();
                let text = if value.is_null() {
                    "-".to_string()
                } else {
                    value.to_string()
                };
                let style = if won {
                    theme.good().add_modifier(Modifier::BOLD)
                } else {
                    theme.dim()
                };
                lines.push(Line::from(Span::styled(
                    format!("  {} {layer:<13} {text}", if won { "▶" } else { " " }),
                    style,
                )));
            }
            if let Some(live) = live.filter(|_| self.hide_winner.is_none()) {
                let winner_value = p
                    .layers
                    .iter()
                    .find(|(l, _)| Some(*l) == p.winner)
                    .map(|(_, v)| v.clone())
                    .unwrap_or(Value::Null);
                let render = |v: &Value| v.as_str().map_or_else(|| v.to_string(), String::from);
                let (words, style) = if render(&winner_value) == render(&live) {
                    (
                        t!(lang, "values-live-matches", value = render(&live)),
                        theme.good(),
                    )
                } else {
                    (
                        t!(lang, "values-live-differs", value = render(&live)),
                        theme.bad(),
                    )
                };
                lines.push(Line::from(Span::styled(format!("    {words}"), style)));
            }
        }
        lines
    }
}

pub struct EvidenceView<'a> {
    pub catalog: &'a Catalog,
    /// Where each file stands ([`crate::tui::state::State::evidence_standing`]).
    pub standing: &'a dyn Fn(&str) -> EvidenceStanding,
    pub look: Look<'a>,
}

impl EvidenceView<'_> {
    /// The pane's lines; the screen wraps, scrolls and marks them.
    pub fn lines(&self) -> Vec<Line<'static>> {
        let (theme, lang) = (self.look.theme, self.look.lang);
        let mut lines = Vec::new();
        for file in self.catalog.evidence_files() {
            let (glyph, word, style) = match (self.standing)(file) {
                EvidenceStanding::Missing => ("·", t!(lang, "evidence-missing"), theme.dim()),
                EvidenceStanding::Passes => ("✓", t!(lang, "evidence-passes"), theme.good()),
                EvidenceStanding::Fails => ("✗", t!(lang, "evidence-fails"), theme.bad()),
                EvidenceStanding::NotChecked => {
                    ("…", t!(lang, "evidence-not-checked"), theme.warn())
                }
                EvidenceStanding::BeingWritten => {
                    ("…", t!(lang, "evidence-being-written"), theme.warn())
                }
            };
            lines.push(Line::from(Span::styled(
                format!("{glyph} {file:<17} {word}"),
                style,
            )));
        }
        lines
    }
}
