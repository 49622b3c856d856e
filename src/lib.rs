//! capa-tui: a terminal tutor for how Argo CD really decides things.
//!
//! The embedded lab cluster is its own crate, `capa-sim` (in `sim/`): it cannot import anything
//! of the tutor, and the tutor reaches it only over HTTP and git, as it would a real cluster
//! (`lab::session` and `cli` start it in-process for `--sim`).
//!
//! Modules:
//! - `tui`: the terminal tutor — state, messages, `update`, views, keymap, themes, layout.
//! - `cli`: command-line arguments and dispatch.
//! - `git`: bare repos, clone, commit, push with progress (git2); knows nothing of lessons.
//! - `lab`: lessons (embedded from `lessons/`), templates, lab paths; never imports ratatui.
//! - `cluster`: kube-rs access to any cluster (kubeconfig/context) and the Argo CD operations
//!   the lab needs (refresh, terminate-op). Never imports ratatui.
pub mod cli;
pub mod cluster;
pub mod config;
pub mod git;
pub mod lab;
pub mod tui;
