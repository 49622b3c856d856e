//! Where each pane goes, as a pure function of the screen size, the lesson, focus and zoom —
//! shared by drawing and by mouse clicks, so a click lands on what was drawn.
//!
//! The lesson says which live panes matter most (`panes:` in its `lesson.yaml`): those get the
//! room, the others one line each. A wide screen has the lesson (and the shell) on the left and
//! the lesson's panes on the right; a narrow or short one stacks the lesson over one live pane,
//! with a strip naming every pane between them. The focused pane is always one of those shown.

use ratatui::layout::{Constraint, Layout, Position, Rect};

use super::state::{Pane, ShellStatus, State};

pub struct Areas {
    pub header: Rect,
    pub footer: Rect,
    /// Panes drawn whole.
    pub panes: Vec<(Pane, Rect)>,
    /// Panes shown as one line each (a click or Tab brings one up).
    pub summaries: Vec<(Pane, Rect)>,
    /// The strip naming every pane, on a small screen.
    pub tabs: Option<Rect>,
    /// Presenting in step mode: the band across the screen with the question or its answer.
    pub prediction: Option<Rect>,
    /// Presenting on a wide screen: where the last key pressed is shown large.
    pub big_key: Option<Rect>,
}

/// The screen size from which the lesson and two live panes sit side by side.
const WIDE_COLUMNS: u16 = 110;
const TALL_ROWS: u16 = 30;
/// The box of the key just pressed: six letters of four cells, four rows, and its border.
const BIG_KEY_COLUMNS: u16 = 26;
const BIG_KEY_ROWS: u16 = 6;

pub fn areas(s: &State, area: Rect) -> Areas {
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(s.header_rows()),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let mut out = Areas {
        header,
        footer,
        panes: Vec::new(),
        summaries: Vec::new(),
        tabs: None,
        prediction: None,
        big_key: None,
    };
    // The room's question takes the width of the screen above everything, never over text.
    let band = super::prediction::band_rows(s, body.width).min(body.height / 2);
    let body = if band > 0 {
        let [band_area, rest] =
            Layout::vertical([Constraint::Length(band), Constraint::Fill(1)]).areas(body);
        out.prediction = Some(band_area);
        rest
    } else {
        body
    };
    if s.ui().panes.zoom {
        out.panes.push((s.ui().panes.focus, body));
    } else if body.width >= WIDE_COLUMNS && area.height >= TALL_ROWS {
        wide(s, body, &mut out);
    } else {
        small(s, body, &mut out);
    }
    out
}

fn shell_shown(s: &State) -> bool {
    s.shell().status != ShellStatus::NotStarted || s.ui().panes.focus == Pane::Shell
}

/// The live panes in the order they get room: the one step mode's narration names first, the
/// one the action just run watched next, then the lesson's, a focused other one next.
fn live_order(s: &State) -> Vec<Pane> {
    let mut order = s.lesson_panes();
    for watched in [s.aftermath_pane(), s.watched_pane()].into_iter().flatten() {
        order.retain(|p| *p != watched);
        order.insert(0, watched);
    }
    if !matches!(s.ui().panes.focus, Pane::Lesson | Pane::Shell)
        && !order.contains(&s.ui().panes.focus)
    {
        order.insert(1.min(order.len()), s.ui().panes.focus);
    }
    for p in super::view::live::LIVE.iter().map(|l| l.pane()) {
        if !order.contains(&p) {
            order.push(p);
        }
    }
    order
}

/// Lesson (and shell) on the left; the lesson's two panes on the right, the rest one line each.
fn wide(s: &State, body: Rect, out: &mut Areas) {
    let left_pct = if shell_shown(s) { 50 } else { 42 };
    let [left, right] = Layout::horizontal([
        Constraint::Percentage(left_pct),
        Constraint::Percentage(100 - left_pct),
    ])
    .areas(body);
    if shell_shown(s) {
        let [lesson, shell] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(left);
        out.panes
            .extend([(Pane::Lesson, lesson), (Pane::Shell, shell)]);
    } else {
        out.panes.push((Pane::Lesson, left));
    }
    let order = live_order(s);
    // Presenting: one large live pane (two between actions that watch different ones: the
    // next action's over what the last one changed), the others a line each.
    if s.ui().present {
        let large = if s.aftermath_pane().is_some() { 2 } else { 1 };
        let rest = u16::try_from(order.len().saturating_sub(large)).unwrap_or(0);
        let [main, lines] = Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(rest.max(BIG_KEY_ROWS)),
        ])
        .areas(right);
        if large == 2 {
            let [next, last] =
                Layout::vertical([Constraint::Fill(3), Constraint::Fill(2)]).areas(main);
            out.panes.extend([(order[0], next), (order[1], last)]);
        } else {
            out.panes.push((order[0], main));
        }
        // Beside the one-line panes, the key just pressed, large for the back of the room.
        let [lines, key] =
            Layout::horizontal([Constraint::Fill(1), Constraint::Length(BIG_KEY_COLUMNS)])
                .areas(lines);
        out.big_key = Some(key);
        for (i, pane) in order.iter().skip(large).enumerate() {
            let row = lines.y + u16::try_from(i).unwrap_or(0);
            out.summaries
                .push((*pane, Rect::new(lines.x, row, lines.width, 1)));
        }
        return;
    }
    let rest = u16::try_from(order.len().saturating_sub(2)).unwrap_or(0);
    let [first, second, lines] = Layout::vertical([
        Constraint::Percentage(58),
        Constraint::Fill(1),
        Constraint::Length(rest),
    ])
    .areas(right);
    out.panes.extend([(order[0], first), (order[1], second)]);
    for (i, pane) in order.iter().skip(2).enumerate() {
        let row = lines.y + u16::try_from(i).unwrap_or(0);
        out.summaries
            .push((*pane, Rect::new(lines.x, row, lines.width, 1)));
    }
}

/// The lesson over one live pane, with the strip of every pane between them; while the shell
/// is up, the lesson over the shell, so its commands are read while typing them.
fn small(s: &State, body: Rect, out: &mut Areas) {
    let shell_up = s.ui().panes.focus == Pane::Shell || (shell_shown(s) && s.shell().typing);
    let [top, strip, bottom] = Layout::vertical([
        Constraint::Percentage(if shell_up { 42 } else { 45 }),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(body);
    out.panes.push((Pane::Lesson, top));
    let lower = if shell_up {
        Pane::Shell
    } else if s.ui().panes.focus == Pane::Lesson {
        live_order(s)[0]
    } else {
        s.ui().panes.focus
    };
    out.panes.push((lower, bottom));
    out.tabs = Some(strip);
}

/// The pane under a mouse click, if any (a one-line summary counts as its pane).
pub fn pane_at(s: &State, column: u16, row: u16) -> Option<Pane> {
    let area = Rect::new(0, 0, s.ui().panes.size.0, s.ui().panes.size.1);
    let areas = areas(s, area);
    areas
        .panes
        .into_iter()
        .chain(areas.summaries)
        .find(|(_, r)| r.contains(Position { x: column, y: row }))
        .map(|(p, _)| p)
}

/// A `width`×`height` rectangle in the middle of `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [_, mid, _] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(width),
        Constraint::Fill(1),
    ])
    .areas(area);
    let [_, rect, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(height),
        Constraint::Fill(1),
    ])
    .areas(mid);
    rect
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::catalog::Catalog;

    fn state(lesson: u8) -> crate::tui::state::StateBuilder {
        State::builder(std::sync::Arc::new(Catalog::embedded().unwrap())).lesson(lesson)
    }

    #[test]
    fn the_lessons_panes_get_the_room_and_the_others_a_line_each() {
        let s = state(5).build();
        let a = areas(&s, Rect::new(0, 0, 120, 40));
        let drawn: Vec<Pane> = a.panes.iter().map(|(p, _)| *p).collect();
        assert_eq!(
            drawn,
            [Pane::Lesson, Pane::Timeline, Pane::Apps],
            "lesson 5"
        );
        let lines: Vec<Pane> = a.summaries.iter().map(|(p, _)| *p).collect();
        assert_eq!(lines, [Pane::Fields, Pane::Values, Pane::Evidence]);
        assert!(a.summaries.iter().all(|(_, r)| r.height == 1));
    }

    #[test]
    fn a_small_screen_stacks_the_lesson_over_its_first_pane_with_a_strip() {
        let s = state(6).build();
        let a = areas(&s, Rect::new(0, 0, 80, 24));
        let drawn: Vec<Pane> = a.panes.iter().map(|(p, _)| *p).collect();
        assert_eq!(drawn, [Pane::Lesson, Pane::Apps], "lesson 6");
        assert!(a.tabs.is_some());
        let s = state(6).focus(Pane::Fields).build();
        let drawn: Vec<Pane> = areas(&s, Rect::new(0, 0, 80, 24))
            .panes
            .iter()
            .map(|(p, _)| *p)
            .collect();
        assert_eq!(
            drawn,
            [Pane::Lesson, Pane::Fields],
            "the focused pane comes up"
        );
    }
}
