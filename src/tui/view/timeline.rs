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

/// The stretch of time the operation covers, in seconds from its start: up to its end once it
/// has ended (a later rollout or scale is not part of it), else up to now.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Reach {
    seconds: i64,
    ended: bool,
}

impl Reach {
    /// `t` when it falls within the operation (or the operation still runs), else `None`.
    fn within(self, t: Option<i64>) -> Option<i64> {
        t.filter(|t| !self.ended || *t <= self.seconds)
    }

    /// Whether `t` is a time after the operation ended.
    fn after(self, t: Option<i64>) -> bool {
        self.ended && t.is_some_and(|t| t > self.seconds)
    }
}

fn seconds_of(t: Option<&str>) -> Option<i64> {
    t.and_then(|t| t.parse::<jiff::Timestamp>().ok())
        .map(|t| t.as_second())
}

fn reach(op: &OperationState, lanes: &[Lane], now: jiff::Timestamp) -> Reach {
    let started = seconds_of(op.started_at.as_deref());
    // A retry runs again with the failed attempt's finish time still recorded.
    let running = matches!(op.phase.as_str(), "Running" | "Terminating");
    let finished = seconds_of(op.finished_at.as_deref()).filter(|_| !running);
    match (finished, started) {
        (Some(f), Some(s)) => Reach {
            seconds: (f - s).max(1),
            ended: true,
        },
        _ => {
            let latest = lanes
                .iter()
                .flat_map(|l| &l.items)
                .filter_map(|i| last_seen(i, None))
                .max();
            let so_far = started.map(|s| now.as_second() - s);
            Reach {
                seconds: latest.max(so_far).unwrap_or(1).max(1),
                ended: false,
            }
        }
    }
}

/// When the item was last seen to change within the operation: done, failed, (an older
/// object) changed by the apply, or created.
fn last_seen(item: &LaneItem, reach: Option<Reach>) -> Option<i64> {
    let within = |t| reach.map_or(t, |r| r.within(t));
    within(item.healthy_at)
        .or(within(item.failed_at))
        .or(within(changed_by_the_operation(item)))
        .or(within(item.created_at))
}

/// When Argo CD changed an object older than the operation, if that was during it.
fn changed_by_the_operation(item: &LaneItem) -> Option<i64> {
    item.changed_at
        .filter(|t| *t >= 0 && item.created_at.is_some_and(|c| c < 0))
}

/// [`changed_by_the_operation`], within what the operation covers.
fn changed_within(item: &LaneItem, reach: Reach) -> Option<i64> {
    reach.within(changed_by_the_operation(item))
}

/// The word and glyph for the item's state: a hook still running when the operation has ended
/// never finished, and says so rather than showing an ellipsis forever.
fn final_phase(item: &LaneItem, reach: Reach) -> String {
    let phase = if item.phase.is_empty() {
        "Synced".to_string()
    } else {
        item.phase.clone()
    };
    let unfinished = matches!(phase.as_str(), "Running" | "Pending" | "Terminating");
    if reach.ended && unfinished {
        UNFINISHED.to_string()
    } else {
        phase
    }
}

/// Kinds whose health is having run to their end, not being ready to serve.
fn runs_to_an_end(kind: &str) -> bool {
    matches!(kind, "Job" | "Pod")
}

/// Stands for a hook the ended operation left running; drawn with its own words and glyph.
const UNFINISHED: &str = "Unfinished";

/// The item's outcome in words, with its times from the operation's start; times after the
/// operation ended are not counted into it.
fn outcome(item: &LaneItem, reach: Reach, lang: Lang) -> (String, String) {
    let phase = final_phase(item, reach);
    let failed = phase == "Failed" || phase == "Error" || phase == "SyncFailed";
    let (healthy, failed_at) = (reach.within(item.healthy_at), reach.within(item.failed_at));
    let changed_after = reach.after(item.healthy_at) || reach.after(item.failed_at);
    let mut times = match item.created_at {
        // What a prune did is its whole story: the object is gone, or kept on purpose.
        _ if phase == "Pruned" => t!(lang, "timeline-pruned"),
        _ if phase == "PruneSkipped" => t!(lang, "timeline-prune-skipped"),
        // Namespaces are not watched: nothing to say about their times.
        None if item.kind == "Namespace" => String::new(),
        None if failed => t!(lang, "timeline-failed-gone"),
        None => t!(lang, "timeline-gone-or-unseen"),
        // Made again after this operation (deleted and re-created since): its times are not ours.
        c if reach.after(c) => t!(lang, "timeline-made-after"),
        // Older than this operation: applying it changed it (the fix's new mode), when the
        // API server dated the change, or not.
        Some(c) if c < 0 && item.message.ends_with(" configured") => {
            match changed_within(item, reach) {
                Some(at) => t!(lang, "timeline-existed-changed-at", at = at),
                None => t!(lang, "timeline-existed-configured"),
            }
        }
        Some(c) if c < 0 => t!(lang, "timeline-existed-before"),
        Some(_) if failed => match failed_at.or(healthy) {
            Some(at) => t!(lang, "timeline-failed-at", at = at),
            None => t!(lang, "timeline-failed"),
        },
        Some(c) => match (healthy, failed_at) {
            // A Job or Pod that ran to its end is done; "ready" is a Deployment's word.
            (Some(h), _) if runs_to_an_end(&item.kind) => {
                t!(lang, "timeline-created-done", created = c, done = h)
            }
            (Some(h), _) => t!(lang, "timeline-created-ready", created = c, ready = h),
            (_, Some(f)) => t!(lang, "timeline-created-failed", created = c, failed = f),
            (None, None) => t!(lang, "timeline-created", created = c),
        },
    };
    let older = item.created_at.is_some_and(|c| c < 0);
    if changed_after && !older && !reach.after(item.created_at) {
        times.push_str(&t!(lang, "timeline-changed-after"));
    }
    if phase == UNFINISHED {
        times.push_str(&t!(lang, "timeline-unfinished"));
    }
    (phase, times)
}

/// A bar from the item's start to its end on an axis of `cols` columns for the operation.
fn bar(item: &LaneItem, reach: Reach, cols: usize) -> String {
    let max = reach.seconds;
    let col =
        |t: i64| usize::try_from(t.clamp(0, max) * (cols as i64 - 1) / max.max(1)).unwrap_or(0);
    let mut cells = vec![' '; cols];
    // An object older than the operation has one moment in it: when the apply changed it.
    let start = reach
        .within(item.created_at)
        .filter(|c| *c >= 0)
        .or(changed_within(item, reach));
    if let Some(start) = start {
        // Never before the start: an older Deployment's Available dates from before the sync.
        let end = last_seen(item, Some(reach)).map_or(start, |end| end.max(start));
        for c in cells.iter_mut().take(col(end) + 1).skip(col(start)) {
            *c = '█';
        }
    }
    cells.into_iter().collect()
}

/// The column heads: phase and wave, the axis from 0 to `max` seconds, the resource.
fn axis_line(look: Look<'_>, (cols, width): (usize, usize), max: i64) -> Line<'static> {
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
            // One row, as the resources' rows are: a narrow pane cuts the heading, not a row.
            super::chrome::cut_end(
                &t!(look.lang, "timeline-head-resource"),
                words_room(width, cols)
            )
        ),
        look.theme.dim(),
    ))
}

/// Between two lanes: when the earlier was done, when the next began, and the pause between, all
/// read off the times the rows print (so a sped-up lab's shorter pause reads as it is).
fn gap_words(lang: Lang, before: &Lane, lane: &Lane, reach: Reach) -> String {
    let done = before
        .items
        .iter()
        .filter_map(|i| last_seen(i, Some(reach)))
        .filter(|t| *t >= 0)
        .max();
    let next = lane
        .items
        .iter()
        .filter_map(|i| reach.within(i.created_at))
        .filter(|t| *t >= 0)
        .min();
    let same_phase = before.phase == lane.phase;
    let mut words = vec![match (done, same_phase) {
        (Some(d), true) => t!(lang, "timeline-wave-done-at", at = d),
        (Some(d), false) => t!(
            lang,
            "timeline-phase-done-at",
            phase = before.phase.as_str(),
            at = d
        ),
        (None, true) => t!(lang, "timeline-wave-done"),
        (None, false) => t!(lang, "timeline-phase-done", phase = before.phase.as_str()),
    }];
    if let (Some(d), Some(n)) = (done, next)
        && n > d
    {
        words.push(t!(lang, "timeline-pause", seconds = (n - d).to_string()));
    }
    if let Some(n) = next {
        words.push(t!(lang, "timeline-next-at", at = n));
    }
    words.join(" · ")
}

/// The line between two waves, in one row of the pane (`width`): it carries the lesson.
fn gap_line(
    look: Look<'_>,
    before: &Lane,
    lane: &Lane,
    (reach, width): (Reach, usize),
) -> Line<'static> {
    let words = gap_words(look.lang, before, lane, reach);
    Line::from(Span::styled(
        format!(
            "{:<12}⤷ {}",
            "",
            super::chrome::cut(&words, width.saturating_sub(14))
        ),
        look.theme.dim(),
    ))
}

/// How much of a resource's name a narrow timeline keeps before its words give way: the lab's
/// short names whole (`smoke`, `settings`, `prod-api`), a long one's start (`migrate-…`).
const NAME_KEEPS: usize = 10;

/// A name in `room` cells: its start (what it is: `migrate-…`) before its end (which one).
fn keep_start(name: &str, room: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    if name.width() <= room {
        return name.to_string();
    }
    let tail = room.saturating_sub(1) / 3;
    let head: String = name.chars().take(room.saturating_sub(1 + tail)).collect();
    let end: String = name
        .chars()
        .rev()
        .take(tail)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("{head}…{end}")
}

/// The cells a row has for a resource's words in a pane `width` wide with an axis `cols` wide:
/// what is left after the phase and wave, the bar and their rules.
fn words_room(width: usize, cols: usize) -> usize {
    width.saturating_sub(12 + 1 + cols + 2)
}

/// One resource's rows, both ways: `whole`, its words going on under themselves (in the words'
/// column, the phase and bar columns left blank, as a table's cell wraps: the times a narrow
/// pane would cut, `→ ready +10s`, are what the row is for), and `cut`, one row whose words
/// give way from their end. Either way the name gives way first, down to enough of it to say
/// which one.
struct ItemRows {
    whole: Vec<Line<'static>>,
    cut: Line<'static>,
}

fn item_rows(
    look: Look<'_>,
    lane: &Lane,
    item: &LaneItem,
    (reach, cols, width): (Reach, usize, usize),
) -> ItemRows {
    use unicode_width::UnicodeWidthStr;
    let (phase, times) = outcome(item, reach, look.lang);
    // The phase column already says which hook it is.
    let hook = if item.hook.is_some() { " hook" } else { "" };
    let (style, glyph) = if phase == UNFINISHED {
        (look.theme.dim(), "–")
    } else {
        (status_style(look.theme, &phase), status_glyph(&phase))
    };
    let room = words_room(width, cols).max(8);
    let fixed = format!("{glyph} {}/{hook}{times}", item.kind);
    let name_room = room
        .saturating_sub(fixed.width())
        .max(item.name.width().min(NAME_KEEPS));
    let name = keep_start(&item.name, name_room.max(3));
    let words = format!("{}/{name}{hook}{times}", item.kind);
    // Continued lines are indented past the glyph.
    let glyph_cells = glyph.width() + 1;
    let first_row = |first: &str| {
        Line::from(vec![
            Span::styled(
                format!("{:<8}{:>3} ", lane.phase, lane.wave),
                look.theme.accent(),
            ),
            Span::raw("│"),
            Span::styled(bar(item, reach, cols), style),
            Span::raw("│ "),
            Span::styled(format!("{glyph} {first}"), style),
        ])
    };
    let room_after_glyph = room.saturating_sub(glyph_cells);
    let mut pieces = crate::tui::wrap::wrap(
        vec![Line::raw(words.clone())],
        u16::try_from(room_after_glyph).unwrap_or(u16::MAX),
    )
    .into_iter()
    .map(|l| {
        l.spans
            .iter()
            .map(|s| s.content.as_ref())
            .collect::<String>()
    });
    let mut whole = vec![first_row(&pieces.next().unwrap_or_default())];
    for more in pieces {
        whole.push(Line::from(vec![
            Span::raw(format!("{:12}│{:cols$}│ ", "", "")),
            Span::styled(format!("{:glyph_cells$}{}", "", more.trim_start()), style),
        ]));
    }
    ItemRows {
        whole,
        cut: first_row(&super::chrome::cut_end(&words, room_after_glyph)),
    }
}

/// A line of the pane: one said as it is (it may wrap), or a resource's rows in both forms.
enum Row {
    Said(Line<'static>),
    Item(ItemRows),
}

impl TimelineView<'_> {
    /// The pane's lines for a pane `width` × `height`: one row per resource, and the rows the
    /// pane has to spare go to the words that did not fit, from the first resource down
    /// (every resource on screen matters more than the end of one's words).
    pub fn fitted(&self, width: u16, height: u16) -> Vec<Line<'static>> {
        let rows = self.rows(width);
        let least: usize = rows
            .iter()
            .map(|r| match r {
                Row::Said(line) => crate::tui::wrap::wrap(vec![line.clone()], width).len(),
                Row::Item(_) => 1,
            })
            .sum();
        let mut spare = usize::from(height).saturating_sub(least);
        let mut lines = Vec::new();
        for row in rows {
            match row {
                Row::Said(line) => lines.push(line),
                Row::Item(item) if item.whole.len() - 1 <= spare => {
                    spare -= item.whole.len() - 1;
                    lines.extend(item.whole);
                }
                Row::Item(item) => lines.push(item.cut),
            }
        }
        lines
    }

    /// The pane's rows, built once a frame: the heading, then each lane's resources.
    fn rows(&self, width: u16) -> Vec<Row> {
        let look = self.look;
        let lang = look.lang;
        let name = self.app.to_string();
        // No app, or none of its operations yet (a render error before the first sync): no
        // "last operation ?" above an empty axis.
        let Some((app, op)) = self
            .live
            .app(&name)
            .and_then(|a| Some((a, a.status.operation_state.clone()?)))
        else {
            return vec![Row::Said(Line::raw(t!(
                lang,
                "timeline-no-operation",
                app = name
            )))];
        };
        let retry = retry_said(lang, &op);
        let started = op
            .started_at
            .as_deref()
            .and_then(|t| t.get(11..19))
            .unwrap_or("-");
        let mut lines = vec![Row::Said(Line::from(vec![
            Span::styled(
                if matches!(op.phase.as_str(), "Running" | "Terminating") {
                    t!(lang, "timeline-current-operation", app = name.as_str())
                } else {
                    t!(lang, "timeline-last-operation", app = name.as_str())
                },
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
        ]))];
        if app.operation.is_some() && !op.message.is_empty() {
            lines.push(Row::Said(Line::from(Span::styled(
                t!(lang, "timeline-now", message = op.message.as_str()),
                look.theme.warn(),
            ))));
        }
        let live = |ns: &str, kind: &str, name: &str| self.live.object(ns, kind, name).cloned();
        let lanes = derive::timeline(app, &live);
        let (reach, cols) = (reach(&op, &lanes, self.live.now), axis_width(width));
        let width = usize::from(width);
        lines.push(Row::Said(axis_line(look, (cols, width), reach.seconds)));
        for (i, lane) in lanes.iter().enumerate() {
            if i > 0 {
                lines.push(Row::Said(gap_line(
                    look,
                    &lanes[i - 1],
                    lane,
                    (reach, width),
                )));
            }
            for item in &lane.items {
                lines.push(Row::Item(item_rows(look, lane, item, (reach, cols, width))));
            }
        }
        lines
    }
}

/// The operation's retry, and how many it may run when that is known (` · retry 3 of 5`): once
/// they run out, the next commit syncs by itself. Empty before the first retry.
pub(super) fn retry_said(
    lang: crate::i18n::Lang,
    op: &crate::cluster::application::OperationState,
) -> String {
    match (op.retry_count, op.retry_limit()) {
        (Some(n), Some(limit)) => t!(lang, "retry-count-of", count = n, limit = limit),
        (Some(n), None) => t!(lang, "retry-count", count = n),
        (None, _) => String::new(),
    }
}

#[cfg(test)]
mod tests;
