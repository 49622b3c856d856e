//! Judging a lesson: whether its checklist's conditions hold on the facts at hand (the watched
//! cluster, the bare repos, the evidence files), the evidence read from the cluster as its
//! `lesson.yaml` says, the values derived from Git and managedFields, and the self-check that
//! grades a lesson as the lab's grader would. The one place a lesson's data meets the world.

pub mod check;
pub mod checklist;
pub mod context;
pub mod derived;
pub mod evidence;
pub mod facts;
pub mod files;
mod unmet;

pub use checklist::ItemState;
pub use facts::{AppFacts, EvidenceFacts, Facts, GitFacts, LiveFacts, read_git_facts};
pub use unmet::{AppState, Unmet, Unsettled, holds, not_held, shown};
