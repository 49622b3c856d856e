//! Why a plan step failed: typed where it came from below, plain words where the lab's state
//! asks the learner to act.

use crate::cluster;
use crate::git;
use crate::lab::eval::evidence;

#[derive(Debug, thiserror::Error)]
pub enum StepError {
    #[error(transparent)]
    Git(#[from] git::GitError),
    #[error(transparent)]
    Cluster(#[from] cluster::ClusterError),
    #[error(transparent)]
    Evidence(#[from] evidence::EvidenceError),
    #[error("git: {0}")]
    Git2(#[from] git2::Error),
    /// What is in the way and what to do about it.
    #[error("{0}")]
    Lab(String),
}

impl From<String> for StepError {
    fn from(why: String) -> StepError {
        StepError::Lab(why)
    }
}
