//! The terminal tutor: the lesson beside live panes. One writer — `update` changes `State` from
//! messages and returns effects; watchers and jobs only send messages; views draw from borrowed
//! state. Never does I/O while drawing.

mod cast;
pub mod keymap;
pub mod layout;
pub mod prediction;
pub mod pty_keys;
pub mod replay;
mod runtime;
pub mod shell;
pub mod theme;
pub mod update;
pub mod view;
pub mod wrap;

pub use runtime::{Executor, Options, run};
/// The state lives in `update`, its one writer: its fields are that module's alone, and
/// everything else reads it through accessors (`state.ui()`, `state.live()`, ...).
pub use update::state;
