//! Which cluster and which folders a command works on: a kubeconfig/context, or the embedded
//! lab cluster started in-process (`--sim`) with its state, source and bare dirs kept under one
//! state dir, so `capa-tui do all --sim` and a later `capa-tui check all --sim` see the same lab.

pub mod shell_env;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::cluster;
use crate::lab::catalog::Catalog;
use crate::lab::engine::Runner;
use crate::lab::fit::Fit;
use crate::lab::paths::LabPaths;
use shell_env::ShellEnv;

pub struct Options<'a> {
    pub sim: bool,
    pub speed: f64,
    pub state_dir: Option<&'a Path>,
    pub kubeconfig: Option<&'a Path>,
    pub context: Option<&'a str>,
    pub src_dir: Option<&'a Path>,
    pub bare_dir: Option<&'a Path>,
    /// With `sim`: start a new lab, moving the old state dir aside first (nothing is deleted).
    pub fresh: bool,
}

/// Why a session could not start, in words that say what to do.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The embedded cluster says what went wrong (a port in use, a state dir that is not
    /// ours, a kubeconfig it cannot write) and what to do.
    #[error(transparent)]
    Sim(#[from] capa_sim::SimError),
    #[error(transparent)]
    Cluster(#[from] cluster::ClusterError),
    #[error(
        "cannot move the old lab {from} aside to {to}: {source}. Move it yourself, or pick another --state-dir"
    )]
    MoveAside {
        from: PathBuf,
        to: PathBuf,
        source: std::io::Error,
    },
}

/// Moves a lab's state dir to `<dir>-<UTC time>` so a new lab can start there; returns where it
/// went (`None` when there was nothing to move).
pub fn move_aside(state: &Path) -> Result<Option<PathBuf>, SessionError> {
    if !state.exists() {
        return Ok(None);
    }
    let stamp = jiff::Timestamp::now()
        .strftime("%Y%m%dT%H%M%SZ")
        .to_string();
    let name = state
        .file_name()
        .map_or_else(|| "lab".into(), |n| n.to_string_lossy().into_owned());
    let mut to = state.with_file_name(format!("{name}-{stamp}"));
    let mut n = 1;
    while to.exists() {
        n += 1;
        to = state.with_file_name(format!("{name}-{stamp}-{n}"));
    }
    std::fs::rename(state, &to).map_err(|source| SessionError::MoveAside {
        from: state.to_path_buf(),
        to: to.clone(),
        source,
    })?;
    Ok(Some(to))
}

/// Where a lab lives, before any cluster is started: with `--sim`, everything under the state
/// dir (the cluster's store, `kubeconfig`, `capa-src/`, `bare/`).
pub struct Where {
    pub state: PathBuf,
    pub paths: LabPaths,
    pub kubeconfig: PathBuf,
}

impl Options<'_> {
    /// The embedded cluster's folders for these options (flags first, then the state dir).
    pub fn place(&self) -> Where {
        let state = self
            .state_dir
            .map(Path::to_path_buf)
            .unwrap_or_else(default_sim_state);
        let bare = self
            .bare_dir
            .map(Path::to_path_buf)
            .unwrap_or_else(|| state.join("bare"));
        let src = self
            .src_dir
            .map(Path::to_path_buf)
            .unwrap_or_else(|| state.join("capa-src"));
        Where {
            kubeconfig: state.join("kubeconfig"),
            paths: LabPaths {
                src_dir: src,
                bare_dir: bare,
            },
            state,
        }
    }
}

pub struct Session {
    /// Follows the kubeconfig file: after the cluster restarts elsewhere and rewrites it, the
    /// same client talks to the new address.
    pub client: kube::Client,
    pub paths: LabPaths,
    pub kubeconfig: Option<PathBuf>,
    pub context: Option<String>,
    /// What the session is about to change, for the learner to confirm.
    pub target: String,
    sim: Option<capa_sim::Handle>,
    /// Keeps the kubeconfig followed while the session lasts.
    followed: cluster::follow::Followed,
}

/// `$XDG_STATE_HOME/capa-tui/sim`, else `~/.local/state/capa-tui/sim` (the XDG base
/// directories, as `etcetera` reads them); the temporary folder when there is no home.
pub fn default_sim_state() -> PathBuf {
    use etcetera::BaseStrategy;
    etcetera::choose_base_strategy()
        .ok()
        .and_then(|dirs| dirs.state_dir())
        .unwrap_or_else(std::env::temp_dir)
        .join("capa-tui/sim")
}

impl Session {
    pub async fn open(o: Options<'_>) -> Result<Session, SessionError> {
        if o.sim {
            let Where {
                state,
                paths,
                kubeconfig,
            } = o.place();
            if o.fresh
                && let Some(kept) = move_aside(&state)?
            {
                eprintln!(
                    "capa-tui: starting a new lab; the previous one is kept in {}",
                    kept.display()
                );
            }
            let config = capa_sim::Config {
                state_dir: Some(state.clone()),
                speed: o.speed,
                bare_dir: Some(paths.bare_dir.clone()),
                ..Default::default()
            };
            let handle = capa_sim::start(config).await?;
            handle.write_kubeconfig(&kubeconfig)?;
            let followed = cluster::follow::connect(&kubeconfig, None).await?;
            return Ok(Session {
                client: followed.client.clone(),
                followed,
                paths,
                target: format!(
                    "the embedded lab cluster at {} (state in {})",
                    handle.url(),
                    state.display()
                ),
                kubeconfig: Some(kubeconfig),
                context: None,
                sim: Some(handle),
            });
        }
        let path = cluster::kubeconfig_path(o.kubeconfig)?;
        let followed = cluster::follow::connect(&path, o.context).await?;
        let target = format!(
            "the cluster of context {} in {}",
            o.context.unwrap_or("(current)"),
            o.kubeconfig.map_or_else(
                || "$KUBECONFIG or ~/.kube/config".to_string(),
                |p| p.display().to_string()
            ),
        );
        Ok(Session {
            client: followed.client.clone(),
            followed,
            paths: LabPaths::resolve(o.src_dir, o.bare_dir),
            kubeconfig: o.kubeconfig.map(Path::to_path_buf),
            context: o.context.map(String::from),
            target,
            sim: None,
        })
    }

    /// What a plan needs to run on this session's cluster and folders: the same for the tutor
    /// and the CLI.
    pub fn runner(
        &self,
        catalog: Arc<Catalog>,
        lang: crate::i18n::Lang,
        deadline: Duration,
    ) -> Runner {
        Runner {
            client: self.client.clone(),
            catalog,
            paths: self.paths.clone(),
            kubeconfig: self.kubeconfig.clone(),
            context: self.context.clone(),
            deadline,
            fit: Fit::for_paths(&self.paths),
            lang,
        }
    }

    /// The environment a shell for this session's cluster and folders gets.
    pub fn shell_env(&self) -> ShellEnv {
        let label = if self.is_sim() {
            "sim".to_string()
        } else {
            self.context.clone().unwrap_or_else(|| "cluster".into())
        };
        ShellEnv::new(&self.paths, self.kubeconfig.as_deref(), &label)
    }

    /// Ticks each time the kubeconfig changed and the client moved to what it now says.
    pub fn kubeconfig_changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.followed.changes.clone()
    }

    pub fn is_sim(&self) -> bool {
        self.sim.is_some()
    }

    /// Stops the in-process cluster, if any, flushing its state.
    pub async fn close(self) {
        if let Some(h) = self.sim {
            h.shutdown().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_lab_moves_the_old_one_aside_and_deletes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("sim");
        assert_eq!(move_aside(&state).unwrap(), None, "nothing to move");
        std::fs::create_dir_all(state.join("capa-src")).unwrap();
        std::fs::write(state.join("capa-src/precedence.json"), "{}").unwrap();
        let kept = move_aside(&state).unwrap().unwrap();
        assert!(!state.exists());
        assert!(
            kept.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("sim-")
        );
        assert_eq!(
            std::fs::read_to_string(kept.join("capa-src/precedence.json")).unwrap(),
            "{}"
        );
        std::fs::create_dir_all(&state).unwrap();
        let again = move_aside(&state).unwrap().unwrap();
        assert_ne!(
            again, kept,
            "a second move in the same second gets its own name"
        );
    }
}
