//! Argo CD 3.5 inside the embedded cluster: the application controller (refresh, compare,
//! automated sync, self-heal, the sync engine) and the repo server (git over the real
//! `git daemon`, the real `helm template` and `kubectl kustomize`). It reads and writes the
//! cluster only through the store and `ops`, as k3s's controllers do.
//!
//! The behaviour follows `docs/sim-behaviour.md` (§ numbers in comments).

pub mod app;
pub mod apply;
mod autosync;
mod bootstrap;
mod compare;
mod controller;
mod ctrllog;
pub mod diff;
pub mod health;
mod hooks;
mod install;
mod operation;
mod options;
mod project;
pub mod repo;
mod sync;

use std::sync::Arc;

use tokio::task::JoinHandle;

use super::controllers::Env;
use crate::store::Store;
use repo::RepoServer;

/// Seeds what an Argo CD install leaves in the cluster.
pub fn seed(store: &Store) {
    bootstrap::seed(store);
}

/// Starts the application controller.
pub fn spawn(env: Env, repo: Arc<RepoServer>) -> JoinHandle<()> {
    controller::run(env, repo)
}
