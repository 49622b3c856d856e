//! The learner's keys and mouse, and the terminal's size: a key to the keymap, a click to the
//! pane under it (the shell's starts typing into it), the wheel to the pane it turned over.

use super::{Effect, InputMsg, keys, navigate, shell};
use crate::tui::layout;
use crate::tui::state::{Pane, State};

pub(super) fn on_input(s: &mut State, input: InputMsg) -> Vec<Effect> {
    match input {
        InputMsg::Key(key) => keys::on_key(s, key),
        InputMsg::Click { column, row } => match layout::pane_at(s, column, row) {
            // A click on the shell types into it (starting it when it is not running).
            Some(Pane::Shell) => shell::enter(s),
            Some(pane) => {
                s.ui.panes.focus = pane;
                s.shell.typing = false;
                Vec::new()
            }
            None => Vec::new(),
        },
        InputMsg::Wheel { column, row, up } => {
            navigate::wheel(s, (column, row), up);
            Vec::new()
        }
        InputMsg::Resize(w, h) => {
            s.ui.panes.size = (w, h);
            Vec::new()
        }
    }
}
