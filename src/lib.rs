//! capa-tui: a terminal tutor for how Argo CD really decides things.
//!
//! The embedded lab cluster is its own crate, `capa-sim` (in `sim/`): it cannot import anything
//! of the tutor, and the tutor reaches it only over HTTP and git, as it would a real cluster
//! (`session` starts it in-process for `--sim`). `ARCHITECTURE.md` walks through the whole.
//!
//! Modules, from the bottom up (a module imports only those above it in this list):
//! - `embedded`: the lessons, templates and strings built into the binary.
//! - `i18n`: the strings layer (Project Fluent); every word a person reads, in their language.
//! - `git`: bare repos, clone, commit, push with progress (git2); knows nothing of lessons.
//! - `cluster`: kube-rs access to any cluster (kubeconfig/context), the watches, a typed
//!   `Application`, pure derivations (timeline, field owners, Helm provenance), and the Argo CD
//!   operations the lab needs (refresh, terminate-op). Never imports ratatui.
//! - `lab`: the lessons as data (`spec`, `catalog`), judging them (`eval`), running their plans
//!   (`engine`), and the lab's paths and progress. Never imports ratatui.
//! - `session`: which cluster and folders a command works on; starts the embedded cluster for
//!   `--sim`; the environment a lab shell gets.
//! - `config`: the learner's settings (theme, language, presenting) and where each came from.
//! - `tui`: the terminal tutor: state, messages, `update`, views, keymap, themes, layout.
//! - `cli`: command-line arguments and dispatch.
pub mod cli;
pub mod cluster;
pub mod config;
pub mod embedded;
pub mod git;
pub mod i18n;
pub mod lab;
pub mod session;
pub mod tui;
