//! The tutor's runtime: the terminal (restored on exit and on panic), an input thread, the lab
//! watches, and the effects `update` asks for (running a plan, cancelling it, grading), all
//! turned into messages. Queued messages are drained before each frame, so bursts coalesce into
//! one draw.

mod executor;
mod files;
mod sources;

use std::io::stdout;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use tokio::sync::mpsc;

pub use executor::Executor;

use super::cast::Cast;
use super::state::{Opening, Pane, ShellAbout, State};
use super::update::{Msg, update};
use crate::i18n::Lang;
use crate::lab::catalog::Catalog;
use crate::lab::progress;
use crate::session::Session;
use crate::tui::update::{DrawnMsg, LabMsg};

/// How often a moving time (a stale watch's age, a plan's elapsed time) is redrawn.
const CLOCK_INTERVAL: Duration = Duration::from_secs(1);

/// The progress this tutor last loaded or wrote, so it is written only when it changes, and
/// only its own changes since then are laid over another tutor's (`progress::save`).
struct SavedProgress(progress::Progress);

impl SavedProgress {
    fn keep(&mut self, state: &State, src_dir: &Path) {
        let now = state.progress();
        if now == self.0 {
            return;
        }
        match progress::save(src_dir, &self.0, &now) {
            Ok(_) => self.0 = now,
            Err(e) => tracing::warn!("cannot keep progress in {}: {e}", src_dir.display()),
        }
    }
}

/// How the tutor opens.
pub struct Options {
    pub lang: Lang,
    /// `--present`: for a room (fewer panes, keys shown, step mode).
    pub present: bool,
    pub theme: crate::config::ThemeName,
    /// The lessons and templates this lab was set up with, when they came from the lab rather
    /// than this command line: said on screen first.
    pub kept_setup: Option<crate::lab::setup::KeptIn>,
    /// `--lesson`: the lesson to open on, whatever the progress says.
    pub lesson: Option<crate::lab::spec::LessonId>,
    /// `--record`: the session as an asciicast v2 file.
    pub record: Option<std::path::PathBuf>,
}

/// What is said before anything else: a lab moved aside or taken over (attaching is in the
/// header), else lessons and templates that came from the lab rather than the command line.
fn first_notice(
    session: &Session,
    kept_setup: Option<crate::lab::setup::KeptIn>,
) -> Option<super::state::Notice> {
    use super::state::Notice;
    let started = &session.started;
    if started.kept_aside.is_some() || started.took_over_from.is_some() {
        return Some(Notice::LabStarted(started.clone()));
    }
    kept_setup.map(Notice::SetupOfTheLab)
}

/// What the tutor opens with: the options, the session's lab and clock, and the progress kept
/// with the lab, resumed.
fn opening(session: &Session, options: Options) -> Opening {
    let loaded = progress::load(&session.paths.src_dir);
    Opening {
        lang: options.lang,
        target: session.target.clone(),
        fit: crate::lab::fit::Fit::for_paths(&session.paths),
        clock: session.fast_clock().cloned(),
        notice: first_notice(session, options.kept_setup),
        present: options.present,
        theme: super::theme::Theme::named(options.theme),
        shell_about: ShellAbout::of(&session.shell_env()),
        progress: loaded.progress,
        progress_kept_aside: loaded.kept_aside,
        lesson: options.lesson,
        size: ratatui::crossterm::terminal::size().ok(),
    }
}

/// Opens the tutor on `session` until the learner quits; returns the exit code.
pub async fn run(
    session: Session,
    catalog: Arc<Catalog>,
    options: Options,
    log_file: &Path,
) -> i32 {
    let lang = options.lang;
    // Bounded and rotated: a cluster away for hours once grew it by 8 lines a second.
    crate::session::logfile::init(log_file);
    let (record, present) = (options.record.clone(), options.present);
    let opening = opening(&session, options);
    let (cast_path, recorder) = recording(record.as_deref(), &opening, &catalog, present);
    let update = |state: &mut State, msg: Msg| {
        recorder.iter().for_each(|r| r.keep(&msg));
        update(state, msg)
    };
    let mut state = State::open(catalog.clone(), opening);
    // The progress as resumed: the base of this tutor's own changes (what it merges into
    // another tutor's, `progress::save`).
    let base = state.progress();
    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    let watches = sources::start_watches(&session, &catalog, tx.clone());
    for msg in files::lab_files(&session.paths, &catalog) {
        update(&mut state, msg);
    }
    // Kept alive until the tutor ends: pushes, commits and evidence files arrive as messages.
    let _files_watch = files::watch_lab_files(&session.paths, &catalog, tx.clone());
    let mut executor = Executor::new(&session, catalog.clone(), lang, tx.clone());

    let mut ending = crate::session::ending::Ending::listen();
    let Some((mut terminal, cast, mut recorded_size)) = open_terminal(cast_path.as_deref()) else {
        restore_terminal();
        session.close().await;
        return 1;
    };
    let _ = execute!(stdout(), EnableMouseCapture);
    sources::spawn_input_thread(tx.clone());
    // Evidence already there is graded as soon as the watches are live, so a passing file
    // reads as passing (and a cluster that does not answer fails no one's evidence).
    let present: Vec<String> = state
        .lab()
        .evidence
        .iter()
        .filter(|(_, written)| written.is_some())
        .map(|(f, _)| f.clone())
        .collect();
    for e in update(&mut state, Msg::Lab(LabMsg::EvidenceChanged(present))) {
        executor.run(e);
    }
    let mut saved = SavedProgress(base);
    let mut clock = tokio::time::interval(CLOCK_INTERVAL);
    clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut code = 0;
    // The state's version last drawn: nothing changed, nothing drawn.
    let mut drawn: Option<u64> = None;
    loop {
        if drawn != Some(state.version()) {
            drawn = Some(state.version());
            if let (Some(c), Ok(now)) = (&cast, terminal.size())
                && (now.width, now.height) != recorded_size
            {
                recorded_size = (now.width, now.height);
                c.resized(recorded_size);
            }
            let mut frame = None;
            if let Err(e) = terminal.draw(|f| {
                frame = Some(super::view::draw(&state, f.area(), f.buffer_mut()));
            }) {
                tracing::error!("drawing failed: {e}");
                code = 1;
                break;
            }
            if let Some(frame) = frame {
                after_frame(&mut state, frame);
            }
        }
        let regrade = state.lab().regrade_at.map(tokio::time::Instant::from_std);
        let next = sources::next_message(&mut rx, &mut clock, state.clock_running(), regrade);
        // SIGTERM, SIGINT or SIGHUP end the tutor as `q` does: the shell's jobs ended and the
        // terminal restored below (reliability-4 L1).
        let first = tokio::select! {
            m = next => m,
            signalled = ending.next() => {
                tracing::info!("ending on a signal (exit code {signalled})");
                code = signalled;
                None
            }
        };
        let Some(first) = first else {
            break;
        };
        let mut effects = update(&mut state, first);
        while let Ok(more) = rx.try_recv() {
            effects.extend(update(&mut state, more));
        }
        for e in effects {
            executor.run(e);
        }
        if let Some(r) = &recorder {
            r.flush();
        }
        saved.keep(&state, &session.paths.src_dir);
        if state.ui().quit {
            break;
        }
    }
    executor.end_shell();
    restore_terminal();
    for w in watches {
        w.abort();
    }
    session.close().await;
    code
}

/// With `--record FILE`: where the cast goes, and the recording of the messages beside it, its
/// header saying how the tutor opened (a tutor that cannot write it runs on, unrecorded, and
/// says so in its log).
fn recording(
    record: Option<&Path>,
    opening: &Opening,
    catalog: &Catalog,
    present: bool,
) -> (
    Option<std::path::PathBuf>,
    Option<super::replay::MessageRecorder>,
) {
    let Some((cast, messages)) = record.map(super::replay::paths_for) else {
        return (None, None);
    };
    let header = super::replay::Header::new(opening, catalog, present);
    let recorder = super::replay::MessageRecorder::create(&messages, &header)
        .map_err(|e| tracing::warn!("no recording into {}: {e}", messages.display()))
        .ok();
    (Some(cast), recorder)
}

/// What a frame drew that the next keys move within: how far each pane scrolls, and where the
/// lesson moved to show the chosen command (scrolling goes on from there).
pub(super) fn after_frame(state: &mut State, frame: super::view::Frame) {
    if frame.limits != state.ui().panes.reach {
        update(state, Msg::Drawn(DrawnMsg::ScrollLimits(frame.limits)));
    }
    if let Some(at) = frame
        .lesson_at
        .filter(|at| state.ui().panes.scroll.get(&Pane::Lesson) != Some(at))
    {
        update(state, Msg::Drawn(DrawnMsg::LessonShownAt(at)));
    }
}

/// The terminal the tutor draws on, its size, and with `--record` the recording its frames are
/// also kept in. Raw mode, the alternate screen and the panic hook come from `ratatui::init`.
fn open_terminal(record: Option<&Path>) -> Option<(Screen, Option<Cast>, (u16, u16))> {
    let size = ratatui::init()
        .size()
        .map_or((80, 24), |s| (s.width, s.height));
    let cast = record.and_then(|path| {
        Cast::create(path, size, "capa-tui")
            .map_err(|e| tracing::warn!("no recording into {}: {e}", path.display()))
            .ok()
    });
    let writer: Box<dyn std::io::Write> = match &cast {
        Some(c) => Box::new(c.tee(stdout())),
        None => Box::new(stdout()),
    };
    let terminal = ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(writer)).ok()?;
    Some((terminal, cast, size))
}

/// The terminal the tutor draws on: stdout, or stdout and a recording.
type Screen = ratatui::Terminal<ratatui::backend::CrosstermBackend<Box<dyn std::io::Write>>>;

/// Gives the terminal back. A terminal that hung up (its window closed: SIGHUP) cannot be
/// written to, and `ratatui::restore` says so with `eprintln!`, which panics on that same dead
/// stderr: the panic skipped the cluster's orderly stop, and the next start said the lab's
/// server had died. Here a failure is only logged.
fn restore_terminal() {
    if let Err(e) = execute!(stdout(), DisableMouseCapture) {
        tracing::info!("the terminal did not take the mouse back: {e}");
    }
    if let Err(e) = ratatui::try_restore() {
        tracing::info!("the terminal was not restored (it may have hung up): {e}");
    }
}
