//! How the tutor says whether what it shows is the cluster now: the header (live, connecting,
//! or stale since a clock time with its age, which streams fail and why in plain words), each
//! pane fed by a stale stream marked "as of HH:MM:SS" and drawn faint, and the notice when an
//! action needs a cluster that does not answer.

use jiff::Timestamp;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Widget};

use super::Look;
use crate::cluster::health::{Failing, Overall};
use crate::cluster::problem::Problem;
use crate::cluster::watch::StreamId;
use crate::i18n::{Lang, Say};
use crate::t;
use crate::tui::keymap::{Action, binding};
use crate::tui::state::{Notice, Pane, State};
use crate::tui::theme::Theme;

/// How long ago `since` was, in whole seconds and minutes (`23 s`, `4 min 05 s`).
fn age(lang: Lang, now: Timestamp, since: Timestamp) -> String {
    let secs = now.duration_since(since).as_secs().max(0);
    match (secs / 3600, secs / 60 % 60, secs % 60) {
        (0, 0, sec) => t!(lang, "age-seconds", seconds = sec),
        (0, min, sec) => t!(
            lang,
            "age-minutes",
            minutes = min,
            seconds = format!("{sec:02}")
        ),
        (h, min, _) => t!(lang, "age-hours", hours = h, minutes = format!("{min:02}")),
    }
}

/// The header's watch words: one line when live or connecting; when stale, a second line with
/// which streams fail and why.
pub fn watch_lines(s: &State) -> (Vec<Span<'static>>, Option<Line<'static>>) {
    let look = Look::of(s);
    let lang = look.lang;
    match s.live().health.overall() {
        Overall::Live => (
            vec![Span::styled(t!(lang, "watch-live"), look.theme.good())],
            None,
        ),
        Overall::Connecting => (
            vec![Span::styled(
                t!(lang, "watch-connecting"),
                look.theme.warn(),
            )],
            None,
        ),
        Overall::Stale { since, failing } => {
            let first = match since {
                Some(t) => t!(
                    lang,
                    "watch-stale-since",
                    clock = look.clock(t),
                    age = age(lang, s.live().now, t)
                ),
                None => t!(lang, "watch-not-loaded"),
            };
            let why = failing
                .iter()
                .map(|f| failing_words(f, lang))
                .collect::<Vec<_>>()
                .join("; ");
            (
                vec![Span::styled(
                    first,
                    look.theme.bad().add_modifier(Modifier::BOLD),
                )],
                Some(Line::from(Span::styled(
                    format!("  {why}"),
                    look.theme.bad(),
                ))),
            )
        }
    }
}

/// `all watches: cannot reach …`, or the streams by name (three, then how many more).
fn failing_words(f: &Failing<'_>, lang: Lang) -> String {
    const NAMED: usize = 3;
    let who = if f.all {
        t!(lang, "watch-all")
    } else {
        let mut names: Vec<String> = f.streams.iter().take(NAMED).map(|s| s.say(lang)).collect();
        if f.streams.len() > NAMED {
            let more: usize = f.streams.len() - NAMED;
            names.push(t!(lang, "watch-more", count = more));
        }
        names.join(", ")
    };
    t!(
        lang,
        "watch-failing",
        who = who,
        problem = f.problem.say(lang)
    )
}

/// The streams a pane draws from (none for the lesson and the shell).
fn pane_streams(s: &State, pane: Pane) -> Vec<StreamId> {
    super::live::live(pane).map_or_else(Vec::new, |p| p.streams(s))
}

/// `None` when the pane shows the cluster now; else the moment its data is from (`None` inside
/// when it never loaded).
pub fn pane_as_of(s: &State, pane: Pane) -> Option<Option<Timestamp>> {
    s.live().health.as_of(pane_streams(s, pane).iter())
}

/// What a stale pane's title adds: ` · as of 14:02:11`.
pub fn as_of_words(s: &State, pane: Pane) -> Option<String> {
    let look = Look::of(s);
    pane_as_of(s, pane).map(|at| match at {
        Some(t) => t!(look.lang, "pane-as-of", clock = look.clock(t)),
        None => t!(look.lang, "pane-not-loaded"),
    })
}

/// Faints what is drawn in `area` (old data must not look like live data).
pub fn fade(theme: Theme, area: Rect, buf: &mut Buffer) {
    buf.set_style(area, theme.stale());
}

/// The notice over the screen, when there is one.
pub fn notice(s: &State, area: Rect, buf: &mut Buffer) {
    let look = Look::of(s);
    let lang = look.lang;
    let any_key = t!(lang, "notice-any-key");
    let (title, lines) = match &s.ui().notice {
        None => return,
        Some(Notice::LabStarted(started)) => (
            t!(lang, "notice-title-lab"),
            warning(look, started.lines(lang), any_key),
        ),
        Some(Notice::SetupOfTheLab(kept)) => (
            t!(lang, "notice-title-lab"),
            warning(look, vec![kept.say(lang)], any_key),
        ),
        Some(Notice::ProgressKeptAside(kept)) => {
            let kept = kept.display().to_string();
            (
                t!(lang, "notice-title-lab"),
                warning(
                    look,
                    vec![t!(lang, "progress-damaged-screen", kept = kept)],
                    any_key,
                ),
            )
        }
        Some(Notice::ClusterUnreachable {
            action,
            problem,
            since,
        }) => (
            t!(lang, "notice-title"),
            unreachable_lines(look, *action, problem, *since),
        ),
        Some(Notice::PlanRunning { action, lesson }) => {
            let said = t!(
                lang,
                "notice-plan-running",
                what = what_needs(lang, *action),
                lesson = lesson.to_string()
            );
            (
                t!(lang, "notice-title-plan"),
                warning(look, vec![said], any_key),
            )
        }
        Some(Notice::QuitWhilePlanRuns { lesson }) => {
            let said = t!(
                lang,
                "notice-quit-while-plan-runs",
                lesson = lesson.to_string()
            );
            (
                t!(lang, "notice-title-plan"),
                warning(look, vec![said], t!(lang, "notice-quit-or-any-key")),
            )
        }
    };
    let width = area.width.saturating_sub(4).min(80);
    let lines = crate::tui::wrap::wrap(lines, width.saturating_sub(2));
    let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let text = Paragraph::new(lines);
    let rect = crate::tui::layout::centered(area, width, rows.saturating_add(2).min(area.height));
    super::chrome::clear_for_overlay(rect, buf);
    text.block(
        Block::default()
            .borders(Borders::ALL)
            .border_type(BorderType::Double)
            .title(title),
    )
    .render(rect, buf);
}

/// A notice's lines: what it warns of, a blank line, then how to go on (dim).
fn warning(look: Look<'_>, said: Vec<String>, go_on: String) -> Vec<Line<'static>> {
    said.into_iter()
        .map(|l| Line::from(Span::styled(l, look.theme.warn())))
        .chain([
            Line::raw(""),
            Line::from(Span::styled(go_on, look.theme.dim())),
        ])
        .collect()
}

/// What a refused key would have done, as a notice names it.
fn what_needs(lang: crate::i18n::Lang, action: Action) -> String {
    match action {
        Action::Run => t!(lang, "notice-what-run"),
        Action::Check => t!(lang, "notice-what-check"),
        Action::Step => t!(lang, "notice-what-step"),
        _ => t!(lang, "notice-what-other"),
    }
}

/// Why an action that needs the cluster cannot run, since when, and what to do.
fn unreachable_lines(
    look: Look<'_>,
    action: Action,
    problem: &Problem,
    since: Option<jiff::Timestamp>,
) -> Vec<Line<'static>> {
    let lang = look.lang;
    let label = binding(action).map_or("?", |b| b.label);
    let what = what_needs(lang, action);
    let mut lines = vec![
        Line::from(Span::styled(
            t!(lang, "notice-needs-cluster", what = what, key = label),
            look.theme.bad().add_modifier(Modifier::BOLD),
        )),
        Line::raw(format!("  {}", problem.say(lang))),
    ];
    // A stream that never loaded has no moment to show.
    if let Some(t) = since {
        lines.push(Line::raw(t!(lang, "notice-as-of", clock = look.clock(t))));
    }
    lines.extend([
        Line::raw(""),
        Line::raw(t!(lang, "notice-what-to-do", key = label)),
        Line::raw(""),
        Line::from(Span::styled(t!(lang, "notice-any-key"), look.theme.dim())),
    ]);
    lines
}
