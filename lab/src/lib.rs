//! capa-lab: the lab itself, with no terminal in it. The lessons as data, judging them and
//! running their plans; the cluster and git access they need; and the words every result is
//! said in, in the learner's language, only where something draws or prints it.
//!
//! The tutor (`capa-tui`: `tui`, `cli`, `session`, `config`) builds on this crate, and this
//! crate depends on no terminal library (no ratatui, no crossterm): the compiler keeps "back
//! ends never draw", and a change in a view rebuilds only the tutor.
//!
//! Modules, from the bottom up (a module imports only those above it in this list):
//! - `embedded`: the lessons, templates and strings built into the binary.
//! - `i18n`: the strings layer (Project Fluent); every word a person reads, in their language.
//! - `git`: bare repos, clone, commit, push with progress (git2); knows nothing of lessons.
//! - `cluster`: kube-rs access to any cluster (kubeconfig/context), the watches, a typed
//!   `Application`, pure derivations (timeline, field owners, Helm provenance), and the Argo CD
//!   operations the lab needs (refresh, terminate-op).
//! - `lab`: the lessons as data (`spec`, `catalog`), judging them (`eval`), running their plans
//!   (`engine`), and the lab's paths and progress.
pub mod cluster;
pub mod embedded;
pub mod git;
pub mod i18n;
pub mod lab;
