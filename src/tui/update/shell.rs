//! How the shell pane changes state: its output drawn onto its screen, keys turned into bytes
//! for it (all but Ctrl-], which hands the keys back to the tutor), scrolling back, and keeping
//! the pseudo-terminal the size of the pane.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use super::{Effect, ShellMsg};
use crate::tui::layout;
use crate::tui::pty_keys::key_bytes;
use crate::tui::state::{Pane, ShellStatus, State};

/// The key that leaves the shell: keys go to the tutor again.
pub fn is_leave_key(key: &KeyEvent) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(key.code, KeyCode::Char(']') | KeyCode::Char('5'))
}

/// Focus the shell and type into it, starting it first when it is not running.
pub fn enter(s: &mut State) -> Vec<Effect> {
    s.ui.panes.focus = Pane::Shell;
    s.shell.typing = true;
    if s.shell.running() {
        return Vec::new();
    }
    s.shell.status = ShellStatus::Running;
    s.shell.seen_prompt = false;
    s.shell.screen = vt100::Parser::new(
        s.shell.screen.screen().size().0,
        s.shell.screen.screen().size().1,
        crate::tui::state::SHELL_SCROLLBACK_LINES,
    );
    let (rows, cols) = pane_size(s).unwrap_or((24, 80));
    s.shell.screen.screen_mut().set_size(rows, cols);
    vec![Effect::StartShell { rows, cols }]
}

/// A key while the learner types into the shell.
pub fn on_key(s: &mut State, key: &KeyEvent) -> Vec<Effect> {
    if is_leave_key(key) {
        s.shell.typing = false;
        return Vec::new();
    }
    if !s.shell.running() {
        // The shell ended (or never started): Enter starts another.
        return if key.code == KeyCode::Enter {
            enter(s)
        } else {
            Vec::new()
        };
    }
    // Typing shows the live screen again after scrolling back; Enter (or Ctrl-C) ends the tall
    // command the title speaks of.
    s.shell.screen.screen_mut().set_scrollback(0);
    let cancel = key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c');
    if key.code == KeyCode::Enter || cancel {
        s.shell.tall_command = None;
    }
    let bytes = key_bytes(key, s.shell.screen.screen().application_cursor());
    // A command typed for the learner is still waiting for the prompt: keys follow it.
    if s.shell.pending_input.is_some() {
        s.shell.pending_keys.extend(bytes);
        return Vec::new();
    }
    if bytes.is_empty() {
        Vec::new()
    } else {
        vec![Effect::ShellInput(bytes)]
    }
}

/// Scrolls the shell's screen back (`up`) or forward by `lines`.
pub fn scroll(s: &mut State, up: bool, lines: usize) {
    let screen = s.shell.screen.screen_mut();
    let now = screen.scrollback();
    screen.set_scrollback(if up {
        now.saturating_add(lines)
    } else {
        now.saturating_sub(lines)
    });
}

/// Whether a command of `lines` lines, with the prompt's line, fits the shell pane as it is laid
/// out now (a pane not on screen fits nothing).
pub fn fits(s: &State, lines: usize) -> bool {
    pane_size(s).is_some_and(|(rows, _)| lines < usize::from(rows))
}

/// Whether that command would fit the shell pane zoomed to the whole screen.
pub fn fits_zoomed(s: &mut State, lines: usize) -> bool {
    // The layout is a function of the state: ask it with the zoom on, then put the zoom back.
    let was = std::mem::replace(&mut s.ui.panes.zoom, true);
    let fits = fits(s, lines);
    s.ui.panes.zoom = was;
    fits
}

/// The shell pane's inner size (rows, cols), if it is on screen.
fn pane_size(s: &State) -> Option<(u16, u16)> {
    let area = Rect::new(0, 0, s.ui.panes.size.0, s.ui.panes.size.1);
    layout::areas(s, area)
        .panes
        .into_iter()
        .find(|(p, _)| *p == Pane::Shell)
        .map(|(_, r)| {
            (
                r.height.saturating_sub(2).max(2),
                r.width.saturating_sub(2).max(10),
            )
        })
}

/// Keeps the pseudo-terminal the size of the pane after a resize, a zoom or a layout change.
pub fn follow_size(s: &mut State) -> Vec<Effect> {
    if !s.shell.running() {
        return Vec::new();
    }
    let Some((rows, cols)) = pane_size(s) else {
        return Vec::new();
    };
    if s.shell.screen.screen().size() == (rows, cols) {
        return Vec::new();
    }
    s.shell.screen.screen_mut().set_size(rows, cols);
    vec![Effect::ShellResize { rows, cols }]
}

/// What the shell did: wrote to its terminal (which may deliver a snippet waiting for its
/// prompt), ended, or could not start.
pub(super) fn on_shell(s: &mut State, msg: ShellMsg) -> Vec<Effect> {
    match msg {
        ShellMsg::Output(bytes) => {
            output(s, &bytes);
            super::snippet::deliver(s)
        }
        ShellMsg::Exited(code) => ended(s, ShellStatus::Exited(code)),
        ShellMsg::Failed(why) => ended(s, ShellStatus::Failed(why)),
    }
}

/// The shell wrote to its terminal.
pub fn output(s: &mut State, bytes: &[u8]) {
    s.shell.screen.process(bytes);
    if !s.shell.seen_prompt && s.shell.screen.screen().contents().contains("(capa:") {
        s.shell.seen_prompt = true;
    }
}

/// The shell exited, or could not start.
pub fn ended(s: &mut State, status: ShellStatus) -> Vec<Effect> {
    s.shell.status = status;
    Vec::new()
}
