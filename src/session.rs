//! Which cluster and which folders a command works on: a kubeconfig/context, or the embedded
//! lab cluster (`--sim`) with its state, source and bare dirs kept under one state dir, so
//! `capa-tui do all --sim` and a later `capa-tui check all --sim` see the same lab. One process
//! serves a state dir's cluster (`serving`): the first `--sim` command (a tutor, `sim serve`)
//! starts it, and every other command on that state dir attaches to it over HTTP.

pub mod clock;
pub mod ending;
mod fresh;
pub mod jobs;
pub mod logfile;
mod said;
mod serve_here;
pub mod serving;
pub mod shell_env;

pub use fresh::{InUse, move_aside};
mod target;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::cluster;
use crate::i18n::Lang;
use crate::lab::catalog::Catalog;
use crate::lab::engine::Runner;
use crate::lab::fit::Fit;
use crate::lab::learner::Learner;
use crate::lab::paths::LabPaths;
use crate::t;
use serve_here::ServeHere;
use serving::{Claim, Owner};
use shell_env::ShellEnv;
pub use target::Target;

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
    /// One of many learners on this cluster (`--learner`): their own source dir by default.
    pub learner: Option<&'a Learner>,
}

/// Why a session could not start, typed; said with what to do by [`Say`].
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The embedded cluster could not start (a port in use, a state dir that is not ours, a
    /// kubeconfig it cannot write).
    Sim(#[source] capa_sim::SimError),
    Cluster(#[source] cluster::ClusterError),
    MoveAside {
        from: PathBuf,
        to: PathBuf,
        source: std::io::Error,
    },
    /// The state dir cannot be made or locked.
    StateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Another process serves this lab, so it cannot be moved aside or served twice.
    Served {
        pid: Option<u32>,
        url: Option<String>,
    },
    /// Another process holds the lab, and never said where it serves.
    NotSaying {
        state: PathBuf,
    },
    /// A tutor, shell or plan has this lab open (attached), so `--fresh` does not move it.
    InUse {
        state: PathBuf,
    },
    /// The tutor's own folder in the source dir (`.capa-tui`: progress, the lab shell's
    /// start-up file) is one another user controls.
    TutorFolder(#[source] capa_sim::UnsafeFolder),
}

crate::display_says!(SessionError);

impl From<cluster::ClusterError> for SessionError {
    fn from(e: cluster::ClusterError) -> SessionError {
        SessionError::Cluster(e)
    }
}

impl From<capa_sim::SimError> for SessionError {
    fn from(e: capa_sim::SimError) -> SessionError {
        SessionError::Sim(e)
    }
}

/// Where a lab lives, before any cluster is started: with `--sim`, everything under the state
/// dir (the cluster's store, `kubeconfig`, `capa-src/`, `bare/`).
pub struct Where {
    pub state: PathBuf,
    pub paths: LabPaths,
    pub kubeconfig: PathBuf,
}

impl Options<'_> {
    /// The lab's folders a session on these options uses: the state dir's with `--sim`, else
    /// the flags', the environment's or the lab VM's.
    pub fn lab_paths(&self) -> LabPaths {
        if self.sim {
            self.place().paths
        } else {
            LabPaths::resolve_for(self.src_dir, self.bare_dir, self.learner)
        }
    }

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
        let src = self.src_dir.map(Path::to_path_buf).unwrap_or_else(|| {
            state.join(match self.learner {
                Some(l) => l.own("capa-src"),
                None => "capa-src".into(),
            })
        });
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

/// What happened as the session started, for the learner to read once.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Started {
    /// `--fresh` kept the old lab here.
    pub kept_aside: Option<PathBuf>,
    /// The process that served this lab before ended without stopping it; this one took over.
    pub took_over_from: Option<u32>,
    /// Another process serves this lab; this session uses its cluster.
    pub attached_to: Option<u32>,
}

impl Started {
    /// What to tell the learner, one line each, in their language.
    pub fn lines(&self, lang: Lang) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(kept) = &self.kept_aside {
            out.push(t!(
                lang,
                "session-kept-aside",
                path = kept.display().to_string()
            ));
        }
        if let Some(pid) = self.took_over_from {
            out.push(t!(lang, "session-took-over", pid = pid.to_string()));
        }
        if let Some(pid) = self.attached_to {
            out.push(t!(lang, "session-attached", pid = pid.to_string()));
        }
        out
    }
}

/// The embedded cluster, as this session has it.
enum Embedded {
    /// This process serves it, and stops it when the session closes.
    Serves {
        handle: Box<capa_sim::Handle>,
        owner: Owner,
    },
    /// Another process serves it.
    Attached,
}

pub struct Session {
    /// Follows the kubeconfig file: after the cluster restarts elsewhere and rewrites it, the
    /// same client talks to the new address.
    pub client: kube::Client,
    pub paths: LabPaths,
    pub kubeconfig: Option<PathBuf>,
    pub context: Option<String>,
    /// What the session is about to change, for the learner to confirm.
    pub target: Target,
    pub started: Started,
    embedded: Option<Embedded>,
    /// Keeps the kubeconfig followed while the session lasts.
    followed: cluster::follow::Followed,
    /// The cluster's clock, when it runs faster than the wall's.
    clock: Option<clock::FastClock>,
    /// This session's hold on the lab (embedded labs only), released when it ends.
    _in_use: Option<InUse>,
    /// The cluster this session came to serve after the process it was attached to ended
    /// ([`Session::adopt_when_orphaned`]); stopped with the session.
    adopted: std::sync::Arc<tokio::sync::Mutex<Option<Embedded>>>,
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

/// Makes the tutor's own folder in the source dir (`.capa-tui`) private, or refuses it: it
/// holds the learner's progress and the lab shell's start-up file, which the shell runs, so a
/// folder another user owns or may write into (or above it) would let them run their
/// commands as the learner (issue 32). Every file in it is then written under a fresh
/// `O_EXCL` name and renamed into place, so nothing planted there is followed.
/// A source dir not made yet is left to the plan that makes it (a session only looking, as
/// `status` does, creates nothing); the next session checks it.
fn keep_tutor_folder_private(paths: &LabPaths) -> Result<(), SessionError> {
    if !paths.src_dir.is_dir() {
        return Ok(());
    }
    capa_sim::check_private_dir(&paths.tutor_dir()).map_err(SessionError::TutorFolder)
}

/// How long an attaching command waits for an owner that is starting the cluster to say where.
const OWNER_PATIENCE: Duration = Duration::from_secs(20);

/// How to serve when this process starts the embedded cluster.
pub struct Serve<'a> {
    pub listen: SocketAddr,
    /// Where to write the kubeconfig (the state dir's `kubeconfig` when `None`).
    pub kubeconfig_out: Option<&'a Path>,
}

impl Session {
    /// A session on the cluster the options name; with `--sim`, the lab's embedded cluster,
    /// started here when no other process serves it, else attached to.
    pub async fn open(o: Options<'_>) -> Result<Session, SessionError> {
        if o.sim {
            let mut s = Session::embedded(&o, None).await?;
            // Attached, the speed is the serving process's.
            let speed = match (&s.embedded, &s.target) {
                (Some(Embedded::Attached), Target::Embedded { state, .. }) => {
                    serving::read(state).and_then(|v| v.speed).unwrap_or(1.0)
                }
                _ => o.speed,
            };
            s.clock = clock::FastClock::read(&s.client, speed).await;
            // What its clock said before, while other processes served the lab.
            if let (Some(c), Target::Embedded { state, .. }) = (&mut s.clock, &s.target) {
                c.runs = capa_sim::read_runs(state);
            }
            // Checked once the state dir is the one this session uses (`--fresh` moves the
            // old one, with its source dir, aside).
            if let Err(e) = keep_tutor_folder_private(&s.paths) {
                s.close().await;
                return Err(e);
            }
            return Ok(s);
        }
        keep_tutor_folder_private(&o.lab_paths())?;
        let path = cluster::kubeconfig_path(o.kubeconfig)?;
        let followed = cluster::follow::connect(&path, o.context).await?;
        Ok(Session {
            client: followed.client.clone(),
            followed,
            paths: o.lab_paths(),
            kubeconfig: o.kubeconfig.map(Path::to_path_buf),
            context: o.context.map(String::from),
            // Named as they are, not as they were asked for: the file the kubeconfig was
            // found in ($KUBECONFIG, ~/.kube/config, k3s's) and its current context.
            target: Target::Context {
                context: o.context.map(String::from).or_else(|| {
                    kube::config::Kubeconfig::read_from(&path)
                        .ok()
                        .and_then(|k| k.current_context)
                }),
                kubeconfig: Some(path.clone()),
            },
            started: Started::default(),
            embedded: None,
            // A real cluster keeps the wall's time.
            clock: None,
            _in_use: None,
            adopted: std::sync::Arc::default(),
        })
    }

    /// `capa-tui sim serve`: this process serves the lab's embedded cluster; another that
    /// already does is named, never doubled.
    pub async fn serve(o: Options<'_>, serve: Serve<'_>) -> Result<Session, SessionError> {
        Session::embedded(&o, Some(serve)).await
    }

    async fn embedded(o: &Options<'_>, serve: Option<Serve<'_>>) -> Result<Session, SessionError> {
        let Where {
            state,
            paths,
            kubeconfig,
        } = o.place();
        let mut started = Started::default();
        let state_error = |source| SessionError::StateDir {
            path: state.clone(),
            source,
        };
        // Never a lock or a lab in a folder another user owns or can write to.
        capa_sim::check_state_dir(&state)?;
        if o.fresh {
            started.kept_aside = fresh_start(&state)?;
        }
        // Held while the session lasts, so a `--fresh` elsewhere knows the lab is open.
        let in_use = InUse::hold(&state).map_err(state_error)?;
        match serving::claim(&state).map_err(state_error)? {
            Claim::Owner { owner, previous } => {
                started.took_over_from = previous;
                let out = serve
                    .as_ref()
                    .and_then(|s| s.kubeconfig_out)
                    .map_or_else(|| kubeconfig.clone(), Path::to_path_buf);
                let here = ServeHere {
                    state: &state,
                    bare_dir: &paths.bare_dir,
                    speed: o.speed,
                    listen: serve.as_ref().map(|s| s.listen),
                    kubeconfig: &out,
                };
                let handle = here.start(&owner).await?;
                let followed = cluster::follow::connect(&out, None).await?;
                repair_tracking(&paths);
                Ok(Session {
                    client: followed.client.clone(),
                    followed,
                    paths,
                    target: Target::Embedded {
                        url: handle.url(),
                        state,
                        served_by: None,
                    },
                    kubeconfig: Some(out),
                    context: None,
                    started,
                    embedded: Some(Embedded::Serves {
                        handle: Box::new(handle),
                        owner,
                    }),
                    clock: None,
                    _in_use: Some(in_use),
                    adopted: std::sync::Arc::default(),
                })
            }
            Claim::Taken if serve.is_some() => Err(served(&state)),
            Claim::Taken => {
                let serving = serving::wait_for(&state, OWNER_PATIENCE)
                    .await
                    .ok_or_else(|| SessionError::NotSaying {
                        state: state.clone(),
                    })?;
                started.attached_to = Some(serving.pid);
                let followed = cluster::follow::connect(&serving.kubeconfig, None).await?;
                repair_tracking(&paths);
                Ok(Session {
                    client: followed.client.clone(),
                    followed,
                    paths,
                    target: Target::Embedded {
                        url: serving.url,
                        state,
                        served_by: Some(serving.pid),
                    },
                    kubeconfig: Some(serving.kubeconfig),
                    context: None,
                    started,
                    embedded: Some(Embedded::Attached),
                    clock: None,
                    _in_use: Some(in_use),
                    adopted: std::sync::Arc::default(),
                })
            }
        }
    }

    /// The cluster's clock, when it runs faster than the wall's (`--speed`).
    pub fn fast_clock(&self) -> Option<&clock::FastClock> {
        self.clock.as_ref()
    }

    /// What a plan needs to run on this session's cluster and folders: the same for the tutor
    /// and the CLI. Its commits are written in `commit_lang`.
    pub fn runner(&self, catalog: Arc<Catalog>, commit_lang: Lang, deadline: Duration) -> Runner {
        Runner {
            client: self.client.clone(),
            catalog,
            paths: self.paths.clone(),
            kubeconfig: self.kubeconfig.clone(),
            context: self.context.clone(),
            deadline,
            fit: Fit::for_paths(&self.paths),
            commit_lang,
            clock: self.clock.clone(),
        }
    }

    /// The environment a shell for this session's cluster and folders gets.
    pub fn shell_env(&self) -> ShellEnv {
        let label = if self.is_sim() {
            "sim".to_string()
        } else {
            self.context.clone().unwrap_or_else(|| "cluster".into())
        };
        ShellEnv::new(&self.paths, self.kubeconfig.as_deref(), &label).on_clock(self.clock.clone())
    }

    /// Ticks each time the kubeconfig changed and the client moved to what it now says.
    pub fn kubeconfig_changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.followed.changes.clone()
    }

    /// The embedded lab cluster (served here or by another process).
    pub fn is_sim(&self) -> bool {
        self.embedded.is_some()
    }

    /// The embedded cluster's address, when this process serves it (from the start, or since
    /// it took over a lab whose server ended).
    pub fn sim_url(&self) -> Option<String> {
        self.served_here(capa_sim::Handle::url)
    }

    /// The bare repos' git URL, when this process serves the embedded cluster.
    pub fn sim_git_url(&self, name: &str) -> Option<String> {
        self.served_here(|handle| handle.git_url(name))
    }

    fn served_here(&self, read: impl Fn(&capa_sim::Handle) -> String) -> Option<String> {
        if let Some(Embedded::Serves { handle, .. }) = &self.embedded {
            return Some(read(handle));
        }
        // Taken over only while it is being recorded, an instant: `None` then is true enough.
        match self.adopted.try_lock().ok()?.as_ref()? {
            Embedded::Serves { handle, .. } => Some(read(handle)),
            Embedded::Attached => None,
        }
    }

    /// Ends the session: the embedded cluster this process serves stops, flushing its state;
    /// one it attached to goes on serving.
    pub async fn close(self) {
        let adopted = self.adopted.lock().await.take();
        for embedded in [self.embedded, adopted].into_iter().flatten() {
            if let Embedded::Serves { handle, owner } = embedded {
                (*handle).shutdown().await;
                owner.withdraw();
            }
        }
    }

    /// Attached to a lab another process serves: once that process ends and nothing took its
    /// place, this one serves the lab itself, at the same clock speed, writing the kubeconfig
    /// it follows (so its watches, plans and shell move to it), and says where it serves. Quit
    /// the tutor that served a lab while another shows it, and the other goes on live.
    /// `None` when this session serves the lab itself or is not on the embedded cluster.
    pub fn adopt_when_orphaned(
        &self,
    ) -> Option<impl std::future::Future<Output = Option<Target>> + Send + 'static> {
        let (Some(Embedded::Attached), Target::Embedded { state, .. }, Some(kubeconfig)) =
            (&self.embedded, &self.target, &self.kubeconfig)
        else {
            return None;
        };
        let (state, kubeconfig) = (state.clone(), kubeconfig.clone());
        let bare_dir = self.paths.bare_dir.clone();
        let speed = serving::read(&state).and_then(|s| s.speed).unwrap_or(1.0);
        let adopted = self.adopted.clone();
        Some(async move {
            let owner = serving::owner_when_free(&state).await.ok()?;
            let here = ServeHere {
                state: &state,
                bare_dir: &bare_dir,
                speed,
                listen: None,
                kubeconfig: &kubeconfig,
            };
            let handle = match here.start(&owner).await {
                Ok(h) => h,
                Err(e) => {
                    tracing::warn!("could not serve the lab its owner left: {e}");
                    return None;
                }
            };
            let target = Target::Embedded {
                url: handle.url(),
                state,
                served_by: None,
            };
            *adopted.lock().await = Some(Embedded::Serves {
                handle: Box::new(handle),
                owner,
            });
            Some(target)
        })
    }
}

/// Another process serves the lab at `state`: who, and where.
fn served(state: &Path) -> SessionError {
    let serving = serving::read(state);
    SessionError::Served {
        pid: serving.as_ref().map(|s| s.pid),
        url: serving.map(|s| s.url),
    }
}

/// `--fresh`: moves the lab in `state` aside (returning where), unless a process serves it or
/// a session has it open.
fn fresh_start(state: &Path) -> Result<Option<PathBuf>, SessionError> {
    let state_error = |source| SessionError::StateDir {
        path: state.to_path_buf(),
        source,
    };
    // A lab some process serves is not moved from under it.
    if state.exists() {
        match serving::claim(state).map_err(state_error)? {
            Claim::Taken => return Err(served(state)),
            Claim::Owner { owner, .. } => drop(owner),
        }
    }
    // Nor one a tutor or shell is still attached to, though nobody serves it now:
    // that tutor once wrote the old lab's progress into the new one (reliability-4 D6).
    // Held while it moves, so nothing attaches halfway.
    let _alone = if state.exists() {
        match InUse::alone(state).map_err(state_error)? {
            Some(alone) => Some(alone),
            None => {
                return Err(SessionError::InUse {
                    state: state.to_path_buf(),
                });
            }
        }
    } else {
        None
    };
    move_aside(state)
}

/// The working copy tracks `origin/main`, so a plain `git push` works there (a clone of an
/// empty repo, by capa-tui or by the learner, tracks nothing). Never touches a file of theirs.
fn repair_tracking(paths: &LabPaths) {
    if let Ok(repo) = crate::git::open(&paths.repo())
        && let Err(e) = crate::git::track_origin(&repo)
    {
        tracing::warn!("cannot set the working copy's upstream: {e}");
    }
}

#[cfg(test)]
mod tests;
