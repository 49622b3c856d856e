//! The `Executor`: carries out the effects `update` returns (a plan or one action of it, a
//! cancel, a self-check, the shell, the clipboard, the cluster's clock), each on a task of its
//! own that reports back only with messages.

use std::io::{Write, stdout};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use crate::i18n::Lang;
use crate::lab::catalog::Catalog;
use crate::lab::engine::{self, Runner};
use crate::lab::eval::files::{FilesSnapshot, files_snapshot};
use crate::lab::spec::LessonId;
use crate::session::Session;
use crate::session::shell_env::ShellEnv;
use crate::tui::shell::{self, ShellProcess};
use crate::tui::state::JobFailure;
use crate::tui::update::{Effect, Msg};
use crate::tui::update::{JobMsg, LabMsg, ShellMsg};

/// The longest any wait of a plan may take in the tutor.
const PLAN_DEADLINE: Duration = Duration::from_secs(600);

/// Carries out effects, reporting back with messages.
pub struct Executor {
    /// Built once for the session; each plan runs on a clone.
    runner: Runner,
    /// What the shell pane's shell gets, and the shell while it runs.
    shell_env: ShellEnv,
    shell: Option<ShellProcess>,
    pub tx: mpsc::UnboundedSender<Msg>,
    catalog: Arc<Catalog>,
    cancel: Option<watch::Sender<bool>>,
}

impl Executor {
    pub fn new(
        session: &Session,
        catalog: Arc<Catalog>,
        lang: Lang,
        tx: mpsc::UnboundedSender<Msg>,
    ) -> Executor {
        Executor {
            runner: session.runner(catalog.clone(), lang, PLAN_DEADLINE),
            shell_env: session.shell_env(),
            shell: None,
            tx,
            catalog,
            cancel: None,
        }
    }

    pub fn run(&mut self, effect: Effect) {
        match effect {
            Effect::Quit => self.end_shell(),
            Effect::StartShell { rows, cols } => self.start_shell(rows, cols),
            Effect::ShellInput(bytes) => {
                if let Some(shell) = &mut self.shell {
                    shell.write(&bytes);
                }
            }
            Effect::CopyToClipboard(text) => {
                // OSC 52: the learner's terminal puts it on the clipboard (over SSH too).
                use base64::Engine;
                let encoded = base64::engine::general_purpose::STANDARD.encode(text);
                let mut out = stdout();
                let _ = write!(out, "\x1b]52;c;{encoded}\x07");
                let _ = out.flush();
            }
            Effect::ShellResize { rows, cols } => {
                if let Some(shell) = &self.shell {
                    shell.resize(rows, cols);
                }
            }
            Effect::Cancel => {
                if let Some(c) = &self.cancel {
                    let _ = c.send(true);
                }
            }
            Effect::RunLesson(n) => self.run_lesson(n, None),
            Effect::RunStep { lesson, action } => self.run_lesson(lesson, Some(action)),
            Effect::Check(n) => self.check(n),
            Effect::ReadClusterClock => {
                let (client, tx) = (self.runner.client.clone(), self.tx.clone());
                tokio::spawn(async move {
                    if let Ok(now) = crate::cluster::now(&client).await {
                        let _ = tx.send(Msg::Lab(LabMsg::ClusterClock(now)));
                    }
                });
            }
        }
    }

    fn start_shell(&mut self, rows: u16, cols: u16) {
        self.end_shell();
        let rc_dir = self.runner.paths.tutor_dir();
        match shell::spawn(&self.shell_env, &rc_dir, (rows, cols), self.tx.clone()) {
            Ok(p) => self.shell = Some(p),
            Err(why) => {
                let _ = self.tx.send(Msg::Shell(ShellMsg::Failed(why)));
            }
        }
    }

    /// Ends the shell pane's shell and everything it started.
    pub fn end_shell(&mut self) {
        if let Some(p) = self.shell.take() {
            p.end();
        }
    }

    /// Runs lesson `n`'s plan, or (step mode) its one action `action`.
    fn run_lesson(&mut self, n: LessonId, action: Option<usize>) {
        let Some(lesson) = self.catalog.lesson(n) else {
            return;
        };
        let steps = match engine::plan(lesson) {
            Ok(s) => s,
            Err(e) => {
                let _ = self
                    .tx
                    .send(Msg::Job(JobMsg::Ended(Err(JobFailure::new(e)))));
                return;
            }
        };
        // The plan is on screen already (`update` put it there as it asked for this run).
        let (cancel_tx, cancel_rx) = watch::channel(false);
        self.cancel = Some(cancel_tx);
        let runner = self.runner.clone();
        let tx = self.tx.clone();
        let catalog = self.catalog.clone();
        tokio::spawn(async move {
            let (ptx, mut prx) = mpsc::unbounded_channel();
            let forward = {
                let tx = tx.clone();
                tokio::spawn(async move {
                    while let Some(p) = prx.recv().await {
                        let _ = tx.send(Msg::Job(JobMsg::Progress(p)));
                    }
                })
            };
            if let Err(source) = std::fs::create_dir_all(&runner.paths.src_dir) {
                let why = crate::lab::engine::StepError::CannotWriteIn {
                    path: runner.paths.src_dir.clone(),
                    source,
                };
                let _ = tx.send(Msg::Job(JobMsg::Ended(Err(JobFailure::new(why)))));
                return;
            }
            let range = action.map_or(0..steps.len(), |a| a..a + 1);
            let result = runner
                .run_through(n, &steps, range, ptx, cancel_rx)
                .await
                .map_err(JobFailure::new);
            let _ = forward.await;
            let FilesSnapshot {
                evidence: present,
                chart_values: values,
                commits,
            } = files_snapshot(&runner.paths, &catalog);
            let _ = tx.send(Msg::Lab(LabMsg::Evidence(present)));
            let _ = tx.send(Msg::Lab(LabMsg::ChartValues(values)));
            let _ = tx.send(Msg::Lab(LabMsg::Commits(commits)));
            let _ = tx.send(Msg::Job(JobMsg::Ended(result)));
        });
    }

    fn check(&self, n: LessonId) {
        let Some(lesson) = self.catalog.lesson(n).cloned() else {
            return;
        };
        let (client, paths, clock, tx) = (
            self.runner.client.clone(),
            self.runner.paths.clone(),
            self.runner.clock.clone(),
            self.tx.clone(),
        );
        let catalog = self.catalog.clone();
        tokio::spawn(async move {
            let ctx = crate::lab::eval::context::Context {
                client: &client,
                catalog: &catalog,
                src_dir: &paths.src_dir,
                bare_dir: &paths.bare_dir,
                clock: clock.as_ref(),
            };
            let grade = crate::lab::eval::check::grade_lesson(&lesson, &ctx).await;
            let FilesSnapshot {
                evidence: present, ..
            } = files_snapshot(&paths, &catalog);
            let _ = tx.send(Msg::Lab(LabMsg::Evidence(present)));
            let _ = tx.send(Msg::Lab(LabMsg::Graded(vec![grade])));
        });
    }
}
