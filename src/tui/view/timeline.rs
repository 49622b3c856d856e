//! The sync timeline: the last operation of an Application, one row per resource in the order
//! the engine ran them (phase, then wave), each with a bar on a time axis in seconds from the
//! operation's start, its outcome in words (a failed hook reads `✗ … failed`, never a tick), the
//! pause between waves, and what the operation waits for right now.

use ratatui::text::{Line, Span};

use super::Look;
use crate::cluster::application::OperationState;
use crate::cluster::derive::{self, Lane, LaneItem};
use crate::i18n::Lang;
use crate::t;
use crate::tui::state::Live;
use crate::tui::theme::{status_glyph, status_style};

pub struct TimelineView<'a> {
    pub live: &'a Live,
    /// The Application whose last operation it shows.
    pub app: &'a str,
    pub look: Look<'a>,
}

/// Columns of the time axis for a pane `width` wide.
fn axis_width(width: u16) -> usize {
    usize::from(width / 5).clamp(8, 24)
}

/// When the item was last seen to change: done, failed, or created.
fn end_of(item: &LaneItem) -> Option<i64> {
    item.healthy_at.or(item.failed_at).or(item.created_at)
}

/// The item's outcome in words, with its times from the operation's start.
fn outcome(item: &LaneItem, lang: Lang) -> (String, String) {
    let phase = if item.phase.is_empty() {
        "Synced".to_string()
    } else {
        item.phase.clone()
    };
    let failed = phase == "Failed" || phase == "Error";
    let times = match (item.created_at, item.healthy_at, item.failed_at) {
        // Namespaces are not watched: nothing to say about their times.
        (None, _, _) if item.kind == "Namespace" => String::new(),
        (None, _, _) if failed => t!(lang, "timeline-failed-gone"),
        (None, _, _) => t!(lang, "timeline-gone-or-unseen"),
        // Applied unchanged: the object is older than this operation.
        (Some(c), _, _) if c < 0 => t!(lang, "timeline-existed-before"),
        (Some(_), h, f) if failed => t!(lang, "timeline-failed-at", at = f.or(h).unwrap_or(0)),
        (Some(c), Some(h), _) => t!(lang, "timeline-created-ready", created = c, ready = h),
        (Some(c), _, Some(f)) => t!(lang, "timeline-created-failed", created = c, failed = f),
        (Some(c), None, None) => t!(lang, "timeline-created", created = c),
    };
    (phase, times)
}

/// A bar from the item's start to its end on an axis of `cols` columns for `max` seconds.
fn bar(item: &LaneItem, max: i64, cols: usize) -> String {
    let col =
        |t: i64| usize::try_from(t.clamp(0, max) * (cols as i64 - 1) / max.max(1)).unwrap_or(0);
    let mut cells = vec![' '; cols];
    if let (Some(start), Some(end)) = (item.created_at.filter(|c| *c >= 0), end_of(item)) {
        for c in cells.iter_mut().take(col(end) + 1).skip(col(start)) {
            *c = '█';
        }
    }
    cells.into_iter().collect()
}

/// The axis's length in seconds: the operation's, not stretched by a resource that changed
/// after it finished (scaled in a later lesson, say): such a bar runs to the axis's end.
fn axis_seconds(op: &OperationState, lanes: &[Lane]) -> i64 {
    let seconds = |t: &Option<String>| {
        t.as_deref()
            .and_then(|t| t.parse::<jiff::Timestamp>().ok())
            .map(|t| t.as_second())
    };
    let finished = seconds(&op.finished_at)
        .zip(seconds(&op.started_at))
        .map(|(f, s)| f - s);
    let latest = lanes.iter().flat_map(|l| &l.items).filter_map(end_of).max();
    match (finished, latest) {
        (Some(f), Some(l)) => f.min(l),
        (f, l) => f.or(l).unwrap_or(1),
    }
    .max(1)
}

/// The column heads: phase and wave, the axis from 0 to `max` seconds, the resource.
fn axis_line(look: Look<'_>, cols: usize, max: i64) -> Line<'static> {
    let mut axis = vec![' '; cols];
    let label = format!("{max}s");
    for (i, ch) in label.chars().enumerate() {
        if let Some(c) = axis.get_mut(cols.saturating_sub(label.len()) + i) {
            *c = ch;
        }
    }
    axis[0] = '0';
    Line::from(Span::styled(
        format!(
            "{}│{}│ {}",
            super::chrome::cut_pad(&t!(look.lang, "timeline-head-lane"), 12),
            axis.iter().collect::<String>(),
            t!(look.lang, "timeline-head-resource")
        ),
        look.theme.dim(),
    ))
}

/// The pause line between two lanes: when the earlier wave was done.
fn gap_line(look: Look<'_>, before: &Lane, lane: &Lane) -> Line<'static> {
    let done = before
        .items
        .iter()
        .filter_map(end_of)
        .filter(|t| *t >= 0)
        .max();
    // Waves in the same phase start after the previous one is done and a pause.
    let words = match (done, before.phase == lane.phase) {
        (Some(d), true) => t!(look.lang, "timeline-wave-done-pause", at = d),
        (Some(d), false) => t!(look.lang, "timeline-wave-done-at", at = d),
        (None, true) => t!(look.lang, "timeline-wave-done-then-pause"),
        (None, false) => t!(look.lang, "timeline-wave-done"),
    };
    Line::from(Span::styled(
        format!("{:<12}⤷ {words}", ""),
        look.theme.dim(),
    ))
}

/// One resource: phase and wave, its bar, and its outcome in words.
fn item_row(
    look: Look<'_>,
    lane: &Lane,
    item: &LaneItem,
    (max, cols): (i64, usize),
) -> Line<'static> {
    let (phase, times) = outcome(item, look.lang);
    // The phase column already says which hook it is.
    let hook = if item.hook.is_some() { " hook" } else { "" };
    let style = status_style(look.theme, &phase);
    Line::from(vec![
        Span::styled(
            format!("{:<8}{:>3} ", lane.phase, lane.wave),
            look.theme.accent(),
        ),
        Span::raw("│"),
        Span::styled(bar(item, max, cols), style),
        Span::raw("│ "),
        Span::styled(
            format!(
                "{} {}/{}{hook}{times}",
                status_glyph(&phase),
                item.kind,
                item.name
            ),
            style,
        ),
    ])
}

impl TimelineView<'_> {
    /// The pane's lines for a pane `width` wide.
    pub fn lines(&self, width: u16) -> Vec<Line<'static>> {
        let look = self.look;
        let lang = look.lang;
        let name = self.app.to_string();
        let Some(app) = self.live.app(&name) else {
            return vec![Line::raw(t!(lang, "timeline-no-operation", app = name))];
        };
        let op = app.status.operation_state.clone().unwrap_or_default();
        let retry = op
            .retry_count
            .map(|n| t!(lang, "retry-count", count = n))
            .unwrap_or_default();
        let started = op
            .started_at
            .as_deref()
            .and_then(|t| t.get(11..19))
            .unwrap_or("-");
        let mut lines = vec![Line::from(vec![
            Span::styled(
                t!(lang, "timeline-last-operation", app = name.as_str()),
                look.theme.title(),
            ),
            Span::styled(
                format!("{} {}", status_glyph(&op.phase), op.phase),
                status_style(look.theme, &op.phase),
            ),
            Span::raw(t!(
                lang,
                "timeline-started",
                retry = retry,
                started = started
            )),
        ])];
        if app.operation.is_some() && !op.message.is_empty() {
            lines.push(Line::from(Span::styled(
                t!(lang, "timeline-now", message = op.message.as_str()),
                look.theme.warn(),
            )));
        }
        let live = |ns: &str, kind: &str, name: &str| self.live.object(ns, kind, name).cloned();
        let lanes = derive::timeline(app, &live);
        let (max, cols) = (axis_seconds(&op, &lanes), axis_width(width));
        lines.push(axis_line(look, cols, max));
        // A narrow pane keeps one row per resource: the pauses are left to the wide one.
        let roomy = width >= 100;
        for (i, lane) in lanes.iter().enumerate() {
            if i > 0 && roomy {
                lines.push(gap_line(look, &lanes[i - 1], lane));
            }
            for item in &lane.items {
                lines.push(item_row(look, lane, item, (max, cols)));
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(phase: &str, created: i64, healthy: Option<i64>, failed: Option<i64>) -> LaneItem {
        LaneItem {
            kind: "Job".into(),
            name: "migrate".into(),
            phase: phase.into(),
            hook: Some("PreSync".into()),
            message: String::new(),
            created_at: Some(created),
            healthy_at: healthy,
            failed_at: failed,
        }
    }

    #[test]
    fn a_failed_hook_reads_failed_never_a_tick() {
        let (phase, times) = outcome(&item("Failed", 0, Some(2), None), Lang::FALLBACK);
        assert_eq!(status_glyph(&phase), "✗");
        assert_eq!(times, " failed +2s");
        let (phase, times) = outcome(&item("Succeeded", 0, Some(2), None), Lang::FALLBACK);
        assert_eq!(
            (status_glyph(&phase), times.as_str()),
            ("✓", " +0s → ready +2s")
        );
    }

    #[test]
    fn bars_sit_on_the_time_axis() {
        assert_eq!(
            bar(&item("Succeeded", 0, Some(5), None), 10, 11),
            "██████     "
        );
        assert_eq!(
            bar(&item("Succeeded", 10, None, None), 10, 11),
            "          █"
        );
    }
}
