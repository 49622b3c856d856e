//! Where each pane goes, as a pure function of the screen size, focus and zoom — shared by
//! drawing and by mouse clicks, so a click lands on what was drawn.

use ratatui::layout::{Constraint, Direction, Layout, Rect};

use super::state::{Pane, ShellStatus, State};

pub struct Areas {
    pub header: Rect,
    pub footer: Rect,
    pub panes: Vec<(Pane, Rect)>,
}

pub fn areas(s: &State, area: Rect) -> Areas {
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let panes = if s.zoom {
        vec![(s.focus, body)]
    } else {
        split(s, body)
    };
    Areas {
        header,
        footer,
        panes,
    }
}

fn split(s: &State, body: Rect) -> Vec<(Pane, Rect)> {
    let wide = body.width >= 110;
    let shell_shown = s.shell.status != ShellStatus::NotStarted || s.focus == Pane::Shell;
    // A shell needs width for its commands: the left column grows when it is open.
    let left_pct = match (wide, shell_shown) {
        (true, false) => 42,
        (true, true) => 55,
        (false, _) => 50,
    };
    let [left, right] = Layout::horizontal([
        Constraint::Percentage(left_pct),
        Constraint::Percentage(100 - left_pct),
    ])
    .areas(body);
    let [apps, timeline, bottom] = Layout::vertical([
        Constraint::Percentage(30),
        Constraint::Percentage(35),
        Constraint::Percentage(35),
    ])
    .areas(right);
    let mut panes = Vec::new();
    // The shell sits under the lesson once it is open (or focused): read a step, type it.
    if shell_shown {
        let [lesson, shell] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(left);
        panes.extend([(Pane::Lesson, lesson), (Pane::Shell, shell)]);
    } else {
        panes.push((Pane::Lesson, left));
    }
    panes.extend([(Pane::Apps, apps), (Pane::Timeline, timeline)]);
    if wide {
        let cols = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([
                Constraint::Percentage(36),
                Constraint::Percentage(36),
                Constraint::Percentage(28),
            ])
            .split(bottom);
        panes.extend([
            (Pane::Fields, cols[0]),
            (Pane::Values, cols[1]),
            (Pane::Evidence, cols[2]),
        ]);
    } else {
        // A narrow screen shows one of the bottom panes: the focused one, else Evidence.
        let shown = if matches!(s.focus, Pane::Fields | Pane::Values) {
            s.focus
        } else {
            Pane::Evidence
        };
        panes.push((shown, bottom));
    }
    panes
}

/// The pane under a mouse click, if any.
pub fn pane_at(s: &State, column: u16, row: u16) -> Option<Pane> {
    let area = Rect::new(0, 0, s.size.0, s.size.1);
    areas(s, area)
        .panes
        .into_iter()
        .find(|(_, r)| r.contains(ratatui::layout::Position { x: column, y: row }))
        .map(|(p, _)| p)
}
