//! The embedded cluster's own test harness: starts a cluster in-process and drives it with the
//! real kubectl from `.tools/bin` (installed by `scripts/install-tools`) and with kube-rs, and
//! the git and Argo CD steps its tests share. It needs nothing of the tutor.

pub mod argocd;
pub mod git;

pub use argocd::{
    URL, app_yaml, apply_app, cm, comparison_error, job, lab_with_repo, op_state, synced_healthy,
    terminate_op, wait_app,
};
pub use git::{commit_and_push, src_repo, write};

mod lab;
pub use lab::*;
