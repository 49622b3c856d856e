//! capa-tui: a terminal tutor for how Argo CD really decides things.
//!
//! The embedded lab cluster is its own crate, `capa-sim` (in `sim/`): it cannot import anything
//! of the tutor, and the tutor reaches it only over HTTP and git, as it would a real cluster
//! (`session` starts it in-process for `--sim`). `ARCHITECTURE.md` walks through the whole.
//!
//! The lab (lessons, judging, plans, cluster and git access, the words) is the crate
//! `capa-lab` (in `lab/`), which has no terminal dependency; it is re-exported here under its
//! module names, so `capa_tui::lab`, `capa_tui::cluster` and the rest read as before.
//!
//! Modules of this crate, from the bottom up (a module imports only those above it):
//! - `session`: which cluster and folders a command works on; starts the embedded cluster for
//!   `--sim`; the environment a lab shell gets.
//! - `config`: the learner's settings (theme, language, presenting) and where each came from.
//! - `tui`: the terminal tutor: state, messages, `update`, views, keymap, themes, layout.
//! - `cli`: command-line arguments and dispatch.
pub use capa_lab::{cluster, display_says, embedded, git, i18n, lab, t, words};

pub mod cli;
pub mod config;
pub mod session;
pub mod tui;
