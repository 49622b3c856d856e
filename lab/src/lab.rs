//! The lab: the lessons as data and what is done with them. Never imports ratatui.
//!
//! - `spec`: every type of a `lesson.yaml` (the lesson, its checklist, plan, evidence, rules,
//!   references); it evaluates nothing.
//! - `catalog`: the lessons and templates one command uses, loaded once and passed in.
//! - `eval`: judging a lesson against facts — the checklist's conditions, the evidence read from
//!   the cluster, the values derived from Git, and the self-check that grades it all.
//! - `engine`: running a lesson's plan ("do it for me"), one typed step at a time.
//! - `trial`: what `lesson test` asks of a lesson's grading: broken evidence it must refuse.
//! - `paths`, `fit`, `files`, `fswatch`, `progress`, `snippets`: where the lab's files are, lesson
//!   text fitted to them, atomic writes, watching the folders, the learner's progress, and the
//!   commands a lesson's text holds.

pub mod catalog;
pub mod class;
pub mod engine;
pub mod eval;
pub mod files;
pub mod fit;
pub mod fswatch;
pub mod learner;
pub mod lint;
pub mod paths;
pub mod progress;
pub mod setup;
pub mod snippets;
pub mod spec;
pub mod trial;

/// A commit as people write it: its first seven characters.
pub fn short_commit(commit: &str) -> &str {
    commit
        .char_indices()
        .nth(7)
        .map_or(commit, |(end, _)| &commit[..end])
}
