//! The tutor's runtime: the terminal (restored on exit and on panic), an input thread, the lab
//! watches, and the effects `update` asks for (running a plan, cancelling it, grading), all
//! turned into messages. Queued messages are drained before each frame, so bursts coalesce into
//! one draw.

use std::io::{Write, stdout};
use std::path::Path;
use std::time::Duration;

use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, MouseEventKind,
};
use ratatui::crossterm::execute;
use serde_json::Value;
use tokio::sync::{mpsc, watch};

use std::sync::Arc;

use super::shell::{self, ShellProcess};
use super::state::{JobFailure, Pane, PlanStep, ShellAbout, State};
use super::update::{Effect, Msg, update};
use crate::cluster::watch::{self as lab_watch, lab_streams};
use crate::i18n::Lang;
use crate::lab::catalog::Catalog;
use crate::lab::engine::{self, Runner};
use crate::lab::eval::read_git_facts;
use crate::lab::fswatch::{self, FolderWatch};
use crate::lab::paths::LabPaths;
use crate::lab::progress;
use crate::lab::spec::LessonId;
use crate::session::Session;
use crate::session::shell_env::ShellEnv;

/// The longest any wait of a plan may take in the tutor.
const PLAN_DEADLINE: Duration = Duration::from_secs(600);
/// How often a moving time (a stale watch's age, a plan's elapsed time) is redrawn.
const CLOCK_INTERVAL: Duration = Duration::from_secs(1);

/// Carries out effects, reporting back with messages.
pub struct Executor {
    /// Built once for the session; each plan runs on a clone.
    runner: Runner,
    /// What the shell pane's shell gets, and the shell while it runs.
    shell_env: ShellEnv,
    shell: Option<ShellProcess>,
    pub tx: mpsc::UnboundedSender<Msg>,
    catalog: Arc<Catalog>,
    lang: Lang,
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
            lang,
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
                        let _ = tx.send(Msg::ClusterClock(now));
                    }
                });
            }
        }
    }

    fn start_shell(&mut self, rows: u16, cols: u16) {
        self.end_shell();
        let rc_dir = self.runner.paths.src_dir.join(".capa-tui");
        match shell::spawn(&self.shell_env, &rc_dir, (rows, cols), self.tx.clone()) {
            Ok(p) => self.shell = Some(p),
            Err(why) => {
                let _ = self.tx.send(Msg::ShellFailed(why));
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
                let _ = self.tx.send(Msg::JobEnded(Err(JobFailure::new(e))));
                return;
            }
        };
        // In step mode the plan is on screen already: each action updates its own row.
        if action.is_none() {
            let _ = self.tx.send(Msg::JobSteps {
                lesson: n,
                steps: steps
                    .iter()
                    .map(|s| {
                        PlanStep::todo(&s.title(self.lang), &s.command(&self.runner.fit, self.lang))
                    })
                    .collect(),
            });
        }
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
                        let _ = tx.send(Msg::Job(p));
                    }
                })
            };
            if let Err(e) = std::fs::create_dir_all(&runner.paths.src_dir) {
                let why = crate::lab::engine::StepError::CannotWriteIn {
                    path: runner.paths.src_dir.clone(),
                    why: e.to_string(),
                };
                let _ = tx.send(Msg::JobEnded(Err(JobFailure::new(why))));
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
            let _ = tx.send(Msg::Evidence(present));
            let _ = tx.send(Msg::ChartValues(values));
            let _ = tx.send(Msg::Commits(commits));
            let _ = tx.send(Msg::JobEnded(result));
        });
    }

    fn check(&self, n: LessonId) {
        let Some(lesson) = self.catalog.lesson(n).cloned() else {
            return;
        };
        let (client, paths, tx) = (
            self.runner.client.clone(),
            self.runner.paths.clone(),
            self.tx.clone(),
        );
        let (catalog, lang) = (self.catalog.clone(), self.lang);
        tokio::spawn(async move {
            let ctx = crate::lab::eval::context::Context {
                client: &client,
                catalog: &catalog,
                lang,
                src_dir: &paths.src_dir,
                bare_dir: &paths.bare_dir,
            };
            let grade = crate::lab::eval::check::grade_lesson(&lesson, &ctx).await;
            let FilesSnapshot {
                evidence: present, ..
            } = files_snapshot(&paths, &catalog);
            let _ = tx.send(Msg::Evidence(present));
            let _ = tx.send(Msg::Graded(vec![grade]));
        });
    }
}

/// The progress last written to the lab, so it is written only when it changes.
struct SavedProgress(progress::Progress);

impl SavedProgress {
    fn keep(&mut self, state: &State, src_dir: &Path) {
        let now = state.progress();
        if now == self.0 {
            return;
        }
        match progress::save(src_dir, &now) {
            Ok(()) => self.0 = now,
            Err(e) => tracing::warn!("cannot keep progress in {}: {e}", src_dir.display()),
        }
    }
}

/// What the panes and the checklists need from the learner's files, as messages.
fn lab_files(paths: &LabPaths, catalog: &Catalog) -> Vec<Msg> {
    let FilesSnapshot {
        evidence,
        chart_values,
        commits,
    } = files_snapshot(paths, catalog);
    let items = catalog
        .lessons()
        .iter()
        .flat_map(|l| &l.spec.checklist)
        .map(|i| &i.done_when);
    vec![
        Msg::Evidence(evidence),
        Msg::ChartValues(chart_values),
        Msg::Commits(commits),
        Msg::Git(read_git_facts(paths, items)),
    ]
}

/// Watches the bare repos and the source dir: after each change, the files' facts again, and
/// which evidence files changed (so they are graded).
fn watch_lab_files(
    paths: &LabPaths,
    catalog: &Arc<Catalog>,
    tx: mpsc::UnboundedSender<Msg>,
) -> Option<FolderWatch> {
    let (paths, catalog) = (paths.clone(), catalog.clone());
    let dirs = [paths.bare_dir.clone(), paths.src_dir.clone()];
    let modified =
        |paths: &LabPaths, catalog: &Catalog| -> Vec<(String, Option<std::time::SystemTime>)> {
            catalog
                .evidence_files()
                .map(|f| {
                    let time = std::fs::metadata(paths.evidence(f))
                        .and_then(|m| m.modified())
                        .ok();
                    (f.to_string(), time)
                })
                .collect()
        };
    let mut last = modified(&paths, &catalog);
    let watched = fswatch::watch(&dirs, move || {
        let now = modified(&paths, &catalog);
        let changed: Vec<String> = now
            .iter()
            .filter(|(f, t)| t.is_some() && !last.iter().any(|(g, u)| g == f && u == t))
            .map(|(f, _)| f.clone())
            .collect();
        last = now;
        for msg in lab_files(&paths, &catalog) {
            let _ = tx.send(msg);
        }
        if !changed.is_empty() {
            let _ = tx.send(Msg::EvidenceChanged(changed));
        }
    });
    match watched {
        Ok(w) => Some(w),
        Err(e) => {
            tracing::warn!("{e}; the checklist ticks only after plans and checks");
            None
        }
    }
}

/// What the panes show from the learner's files.
pub struct FilesSnapshot {
    /// (evidence file, when it was last written: `None` when it is not there).
    pub evidence: Vec<(String, Option<jiff::Timestamp>)>,
    /// The chart's values files in the working copy: (file name, values).
    pub chart_values: Vec<(String, Value)>,
    /// (full SHA, subject) of recent commits.
    pub commits: Vec<(String, String)>,
}

/// Reads what the panes show from the learner's files: the lessons' evidence files and the
/// chart whose values the values pane traces.
pub fn files_snapshot(paths: &LabPaths, catalog: &Catalog) -> FilesSnapshot {
    let present = catalog
        .evidence_files()
        .map(|f| {
            (
                f.to_string(),
                crate::lab::eval::facts::modified(&paths.evidence(f)),
            )
        })
        .collect();
    let chart = catalog
        .lessons()
        .iter()
        .find_map(|l| l.spec.values.as_ref())
        .map(|v| paths.repo().join(&v.chart));
    let values = chart
        .iter()
        .filter_map(|c| std::fs::read_dir(c).ok())
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            if !name.ends_with(".yaml") || name == "Chart.yaml" {
                return None;
            }
            let v =
                serde_saphyr::from_str::<Value>(&std::fs::read_to_string(e.path()).ok()?).ok()?;
            Some((name, v))
        })
        .collect();
    FilesSnapshot {
        evidence: present,
        chart_values: values,
        commits: commit_subjects(&paths.repo()),
    }
}

/// (full SHA, subject) of the working copy's recent commits, so revisions read as words.
fn commit_subjects(repo_dir: &Path) -> Vec<(String, String)> {
    let Ok(repo) = crate::git::open(repo_dir) else {
        return Vec::new();
    };
    let Ok(mut walk) = repo.revwalk() else {
        return Vec::new();
    };
    if walk.push_glob("refs/*").is_err() {
        return Vec::new();
    }
    walk.flatten()
        .take(200)
        .filter_map(|oid| {
            let c = repo.find_commit(oid).ok()?;
            Some((
                oid.to_string(),
                c.summary().ok().flatten().unwrap_or_default().to_string(),
            ))
        })
        .collect()
}

/// Starts the lab's watches (following the kubeconfig); what they see arrives as messages.
fn start_watches(
    session: &Session,
    catalog: &Catalog,
    tx: mpsc::UnboundedSender<Msg>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let (wtx, mut wrx) = mpsc::unbounded_channel();
    let scope = Arc::new(lab_watch::Scope {
        apps: catalog.apps().into_iter().map(String::from).collect(),
        named: catalog.named_objects(),
    });
    let watches = lab_watch::spawn(
        session.client.clone(),
        &lab_streams(&catalog.apps(), &catalog.namespaces()),
        &scope,
        Some(session.kubeconfig_changes()),
        wtx,
    );
    tokio::spawn(async move {
        while let Some(e) = wrx.recv().await {
            if tx.send(Msg::from(e)).is_err() {
                return;
            }
        }
    });
    watches
}

/// How the tutor opens.
pub struct Options {
    pub lang: Lang,
    /// `--present`: for a room (fewer panes, keys shown, step mode).
    pub present: bool,
    pub theme: crate::config::ThemeName,
}

/// Opens the tutor on `session` until the learner quits; returns the exit code.
pub async fn run(
    session: Session,
    catalog: Arc<Catalog>,
    options: Options,
    log_file: &Path,
) -> i32 {
    let (lang, present, theme) = (options.lang, options.present, options.theme);
    init_logging(log_file);
    let mut state = State::new(catalog.clone(), lang, session.target.clone());
    state.session.fit = crate::lab::fit::Fit::for_paths(&session.paths);
    // Attaching is in the header; a lab moved aside or taken over is said before anything else.
    let started = &session.started;
    if started.kept_aside.is_some() || started.took_over_from.is_some() {
        state.ui.notice = Some(super::state::Notice::LabStarted(started.clone()));
    }
    (state.ui.present, state.ui.theme) = (present, super::theme::Theme::named(theme));
    let env = session.shell_env();
    state.shell.about = ShellAbout {
        marker: env.prompt_marker(),
        cwd: env.cwd.display().to_string(),
        kubeconfig: env
            .vars
            .iter()
            .find(|(k, _)| k == "KUBECONFIG")
            .map(|(_, v)| v.clone())
            .unwrap_or_default(),
    };
    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    let watches = start_watches(&session, &catalog, tx.clone());
    state.resume(progress::load(&session.paths.src_dir));
    for msg in lab_files(&session.paths, &catalog) {
        update(&mut state, msg);
    }
    // Kept alive until the tutor ends: pushes, commits and evidence files arrive as messages.
    let _files_watch = watch_lab_files(&session.paths, &catalog, tx.clone());
    let mut executor = Executor::new(&session, catalog.clone(), lang, tx.clone());

    let mut terminal = ratatui::init();
    let _ = execute!(stdout(), EnableMouseCapture);
    if let Ok(size) = terminal.size() {
        state.ui.size = (size.width, size.height);
    }
    spawn_input_thread(tx.clone());
    // Evidence already there is graded as soon as the watches are live, so a passing file
    // reads as passing (and a cluster that does not answer fails no one's evidence).
    let present: Vec<String> = state
        .lab
        .evidence
        .iter()
        .filter(|(_, written)| written.is_some())
        .map(|(f, _)| f.clone())
        .collect();
    for e in update(&mut state, Msg::EvidenceChanged(present)) {
        executor.run(e);
    }
    let mut saved = SavedProgress(state.progress());
    let mut clock = tokio::time::interval(CLOCK_INTERVAL);
    clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut code = 0;
    // The state's version last drawn: nothing changed, nothing drawn.
    let mut drawn: Option<u64> = None;
    loop {
        if drawn != Some(state.version) {
            drawn = Some(state.version);
            let mut frame = None;
            if let Err(e) = terminal.draw(|f| {
                frame = Some(super::view::draw(&state, f.area(), f.buffer_mut()));
            }) {
                tracing::error!("drawing failed: {e}");
                code = 1;
                break;
            }
            if let Some(frame) = frame {
                if frame.limits != state.ui.scroll_max {
                    update(&mut state, Msg::ScrollLimits(frame.limits));
                }
                // The lesson moved to show the chosen command: scrolling goes on from there.
                if let Some(at) = frame
                    .lesson_at
                    .filter(|at| state.ui.scroll.get(&Pane::Lesson) != Some(at))
                {
                    update(&mut state, Msg::LessonShownAt(at));
                }
            }
        }
        let regrade = state.lab.regrade_at.map(tokio::time::Instant::from_std);
        let Some(first) = next_message(&mut rx, &mut clock, state.clock_running(), regrade).await
        else {
            break;
        };
        let mut effects = update(&mut state, first);
        while let Ok(more) = rx.try_recv() {
            effects.extend(update(&mut state, more));
        }
        for e in effects {
            executor.run(e);
        }
        saved.keep(&state, &session.paths.src_dir);
        if state.ui.quit {
            break;
        }
    }
    executor.end_shell();
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
    for w in watches {
        w.abort();
    }
    session.close().await;
    code
}

/// The next message; while something on screen moves with the clock, a tick once a second too
/// (and never otherwise: an idle tutor draws nothing); and when the self-checks on show are due
/// to run again, that moment.
async fn next_message(
    rx: &mut mpsc::UnboundedReceiver<Msg>,
    clock: &mut tokio::time::Interval,
    clock_running: bool,
    regrade: Option<tokio::time::Instant>,
) -> Option<Msg> {
    let due = async {
        match regrade {
            Some(at) => tokio::time::sleep_until(at).await,
            None => std::future::pending::<()>().await,
        }
    };
    let tick = async {
        if clock_running {
            clock.tick().await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        msg = rx.recv() => msg,
        () = tick => Some(Msg::Tick(jiff::Timestamp::now())),
        () = due => Some(Msg::RegradeDue),
    }
}

/// Reads the terminal's keys, clicks, wheel and resizes on a thread of its own, as messages.
fn spawn_input_thread(tx: mpsc::UnboundedSender<Msg>) {
    std::thread::spawn(move || {
        loop {
            let msg = match event::read() {
                Ok(Event::Key(k)) => Msg::Key(k),
                Ok(Event::Mouse(m)) => match m.kind {
                    MouseEventKind::Down(_) => Msg::Click {
                        column: m.column,
                        row: m.row,
                    },
                    MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => Msg::Wheel {
                        column: m.column,
                        row: m.row,
                        up: m.kind == MouseEventKind::ScrollUp,
                    },
                    _ => continue,
                },
                Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                Ok(_) => continue,
                Err(_) => return,
            };
            if tx.send(msg).is_err() {
                return;
            }
        }
    });
}

fn init_logging(path: &Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    else {
        return;
    };
    let _ = tracing_subscriber::fmt()
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("CAPA_LOG")
                .unwrap_or_else(|_| "info".into()),
        )
        .try_init();
}
