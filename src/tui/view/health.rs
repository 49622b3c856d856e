//! How the tutor says whether what it shows is the cluster now: the header (live, connecting,
//! or stale since a clock time with its age, which streams fail and why in plain words), each
//! pane fed by a stale stream marked "as of HH:MM:SS" and drawn faint, and the notice when an
//! action needs a cluster that does not answer.

use jiff::Timestamp;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Widget, Wrap};

use crate::cluster::health::{Failing, Overall};
use crate::cluster::watch::StreamId;
use crate::lab::catalog::Lang;
use crate::tui::keymap::{Action, BINDINGS};
use crate::tui::state::{Notice, Pane, State};

/// A moment as the learner's wall clock shows it.
pub fn clock(s: &State, t: Timestamp) -> String {
    t.to_zoned(s.tz.clone()).strftime("%H:%M:%S").to_string()
}

/// How long ago `since` was, in whole seconds and minutes (`23 s`, `4 min 05 s`; `23 秒`).
fn age(s: &State, since: Timestamp) -> String {
    let secs = s.now.duration_since(since).as_secs().max(0);
    let zh = s.lang == Lang::Zh;
    match (secs / 3600, secs / 60 % 60, secs % 60, zh) {
        (0, 0, sec, false) => format!("{sec} s"),
        (0, min, sec, false) => format!("{min} min {sec:02} s"),
        (h, min, _, false) => format!("{h} h {min:02} min"),
        (0, 0, sec, true) => format!("{sec} 秒"),
        (0, min, sec, true) => format!("{min} 分 {sec:02} 秒"),
        (h, min, _, true) => format!("{h} 小时 {min:02} 分"),
    }
}

/// The header's watch words: one line when live or connecting; when stale, a second line with
/// which streams fail and why.
pub fn watch_lines(s: &State) -> (Vec<Span<'static>>, Option<Line<'static>>) {
    let zh = s.lang == Lang::Zh;
    match s.health.overall() {
        Overall::Live => (
            vec![Span::styled(
                if zh { "✓ 实时" } else { "✓ live" },
                s.theme.good(),
            )],
            None,
        ),
        Overall::Connecting => (
            vec![Span::styled(
                if zh {
                    "… 连接中"
                } else {
                    "… connecting"
                },
                s.theme.warn(),
            )],
            None,
        ),
        Overall::Stale { since, failing } => {
            let first = match (since, zh) {
                (Some(t), false) => format!(
                    "✗ stale since {} ({} ago) · reconnecting",
                    clock(s, t),
                    age(s, t)
                ),
                (Some(t), true) => format!(
                    "✗ 数据过期：截至 {}（{}前）· 正在重连",
                    clock(s, t),
                    age(s, t)
                ),
                (None, false) => "✗ not loaded yet · reconnecting".to_string(),
                (None, true) => "✗ 尚未载入 · 正在重连".to_string(),
            };
            let why = failing
                .iter()
                .map(|f| failing_words(f, zh))
                .collect::<Vec<_>>()
                .join("; ");
            (
                vec![Span::styled(
                    first,
                    s.theme.bad().add_modifier(Modifier::BOLD),
                )],
                Some(Line::from(Span::styled(format!("  {why}"), s.theme.bad()))),
            )
        }
    }
}

/// `all watches: cannot reach …`, or the streams by name (three, then how many more).
fn failing_words(f: &Failing<'_>, zh: bool) -> String {
    const NAMED: usize = 3;
    let who = if f.all {
        (if zh { "全部监视" } else { "all watches" }).to_string()
    } else {
        let mut names: Vec<String> = f.streams.iter().take(NAMED).map(|s| s.label()).collect();
        if f.streams.len() > NAMED {
            let more = f.streams.len() - NAMED;
            names.push(if zh {
                format!("另 {more} 个")
            } else {
                format!("{more} more")
            });
        }
        names.join(", ")
    };
    format!("{who}{}{}", if zh { "：" } else { ": " }, f.problem)
}

/// The streams a pane draws from.
fn pane_streams(s: &State, pane: Pane) -> Vec<StreamId> {
    match pane {
        Pane::Apps | Pane::Values => vec![StreamId::applications()],
        // The timeline reads the Application and the live objects it deployed.
        Pane::Timeline => {
            let ns = s
                .apps
                .get(s.timeline_app())
                .map(|a| a.spec.destination.namespace.clone())
                .unwrap_or_default();
            let mut streams = vec![StreamId::applications()];
            streams.extend(s.health.streams().filter(|st| st.namespace == ns).cloned());
            streams
        }
        // The object whose managedFields are shown comes from its namespace's watch of its kind.
        Pane::Fields => StreamId::of_key(&s.fields_object()).into_iter().collect(),
        Pane::Lesson | Pane::Shell | Pane::Evidence => Vec::new(),
    }
}

/// `None` when the pane shows the cluster now; else the moment its data is from (`None` inside
/// when it never loaded).
pub fn pane_as_of(s: &State, pane: Pane) -> Option<Option<Timestamp>> {
    s.health.as_of(pane_streams(s, pane).iter())
}

/// What a stale pane's title adds: ` · as of 14:02:11`.
pub fn as_of_words(s: &State, pane: Pane) -> Option<String> {
    let zh = s.lang == Lang::Zh;
    pane_as_of(s, pane).map(|at| match (at, zh) {
        (Some(t), false) => format!(" · as of {}", clock(s, t)),
        (Some(t), true) => format!(" · 截至 {}", clock(s, t)),
        (None, false) => " · not loaded".to_string(),
        (None, true) => " · 未载入".to_string(),
    })
}

/// Faints what is drawn in `area` (old data must not look like live data).
pub fn fade(s: &State, area: Rect, buf: &mut Buffer) {
    buf.set_style(area, s.theme.stale());
}

/// The notice over the screen, when there is one.
pub fn notice(s: &State, area: Rect, buf: &mut Buffer) {
    let Some(Notice::ClusterUnreachable {
        action,
        problem,
        since,
    }) = &s.notice
    else {
        return;
    };
    let zh = s.lang == Lang::Zh;
    let label = BINDINGS
        .iter()
        .find(|b| b.action == *action)
        .map_or("?", |b| b.label);
    let what = match (action, zh) {
        (Action::Run, false) => "“Do it for me”",
        (Action::Run, true) => "“替我做”",
        (Action::Check, false) => "The self-check",
        (Action::Check, true) => "自检",
        (Action::Step, false) => "Step mode",
        (Action::Step, true) => "分步模式",
        (_, false) => "This",
        (_, true) => "此操作",
    };
    let when = since.map(|t| clock(s, t));
    let lines: Vec<Line> = if zh {
        vec![
            Line::from(Span::styled(
                format!("{what}（{label}）需要集群，但集群没有回应："),
                s.theme.bad().add_modifier(Modifier::BOLD),
            )),
            Line::raw(format!("  {problem}")),
            Line::raw(when.map_or_else(String::new, |w| format!("  窗格显示的是 {w} 时的状态。"))),
            Line::raw(""),
            Line::raw("请重新启动集群或检查 kubeconfig；导师会自动重连。"),
            Line::raw(format!("顶部显示 ✓ 实时 后再按 {label}。")),
            Line::raw(""),
            Line::from(Span::styled("按任意键关闭。", s.theme.dim())),
        ]
    } else {
        vec![
            Line::from(Span::styled(
                format!("{what} ({label}) needs the cluster, and it does not answer:"),
                s.theme.bad().add_modifier(Modifier::BOLD),
            )),
            Line::raw(format!("  {problem}")),
            Line::raw(when.map_or_else(String::new, |w| format!("  The panes show it as of {w}."))),
            Line::raw(""),
            Line::raw(format!(
                "Start it again, or check the kubeconfig: the tutor reconnects by itself. Press {label} again once the header says ✓ live."
            )),
            Line::raw(""),
            Line::from(Span::styled("Any key closes this.", s.theme.dim())),
        ]
    };
    // A stream that never loaded has no moment to show.
    let lines: Vec<Line> = lines
        .into_iter()
        .enumerate()
        .filter(|(i, l)| *i != 2 || l.width() > 0)
        .map(|(_, l)| l)
        .collect();
    let width = area.width.saturating_sub(4).min(80);
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    let rows = u16::try_from(text.line_count(width.saturating_sub(2))).unwrap_or(u16::MAX);
    let rect = super::centered(area, width, rows.saturating_add(2).min(area.height));
    Clear.render(rect, buf);
    text.block(
        Block::default()
            .borders(Borders::ALL)
            .border_type(BorderType::Double)
            .title(if zh {
                " 集群没有回应 "
            } else {
                " The cluster does not answer "
            }),
    )
    .render(rect, buf);
}
