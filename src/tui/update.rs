//! The one writer: `update` turns a message into changes of state and returns the effects the
//! runtime must carry out. No I/O here, so every behaviour is testable without a terminal.

mod checklist;
mod navigate;
mod shell;
mod snippet;
pub(super) mod watch;

use std::time::Instant;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use serde_json::Value;

use super::keymap::{Action, action_for};
use super::layout;
use super::state::{JobFailure, JobView, Pane, PlanStep, ShellStatus, State, StepMode, StepState};
use crate::cluster::problem::Problem;
use crate::cluster::watch::StreamId;
use crate::lab::catalog::Section;
use crate::lab::engine::Progress;
use crate::lab::eval::GitFacts;
use crate::lab::eval::check::Grade;
use crate::lab::spec::LessonId;

#[derive(Debug)]
pub enum Msg {
    Key(KeyEvent),
    Click {
        column: u16,
        row: u16,
    },
    Resize(u16, u16),
    App(Value),
    AppGone(String),
    Object(String, Value),
    ObjectGone(String),
    /// A watch listed its stream: everything it holds now, by key.
    Listed {
        stream: StreamId,
        objects: Vec<(String, Value)>,
        at: jiff::Timestamp,
    },
    /// A watch lost the cluster; it re-lists when the cluster answers again.
    StreamLost {
        stream: StreamId,
        problem: Problem,
        at: jiff::Timestamp,
    },
    /// The server cannot resume a watch (410 Gone): it re-lists.
    StreamExpired {
        stream: StreamId,
        at: jiff::Timestamp,
    },
    /// Time passed: the wall clock now (redraws a stale watch's age and a plan's elapsed time).
    Tick(jiff::Timestamp),
    /// A plan is about to run: its steps as (title, command).
    JobSteps {
        lesson: LessonId,
        steps: Vec<PlanStep>,
    },
    Job(Progress),
    JobEnded(Result<(), JobFailure>),
    Graded(Vec<Grade>),
    /// The evidence files: each with when it was last written (`None`: not there).
    Evidence(Vec<(String, Option<jiff::Timestamp>)>),
    /// The cluster's clock, read for a checklist step that counts down.
    ClusterClock(jiff::Timestamp),
    /// The quiet after the last change is over: the self-checks shown run again.
    RegradeDue,
    ChartValues(Vec<(String, Value)>),
    Commits(Vec<(String, String)>),
    /// What the bare repos and the working copy hold now.
    Git(GitFacts),
    /// These evidence files were written or changed: grade them.
    EvidenceChanged(Vec<String>),
    /// How far each pane on screen can scroll, as last drawn.
    ScrollLimits(std::collections::BTreeMap<Pane, u16>),
    /// The line the lesson pane was drawn from (it moves to show the chosen command whole).
    LessonShownAt(u16),
    /// The mouse wheel turned over a pane.
    Wheel {
        column: u16,
        row: u16,
        up: bool,
    },
    /// Bytes the shell wrote to its terminal.
    ShellOutput(Vec<u8>),
    /// The shell ended, with its exit code when it had one.
    ShellExited(Option<u32>),
    /// The shell could not start: why.
    ShellFailed(crate::session::shell_env::ShellError),
}

#[derive(Debug, PartialEq)]
pub enum Effect {
    /// Start the lab shell on a terminal of this size.
    StartShell {
        rows: u16,
        cols: u16,
    },
    /// Bytes for the shell, as its terminal would send them.
    ShellInput(Vec<u8>),
    /// Put text on the clipboard of the learner's terminal (OSC 52; works over SSH).
    CopyToClipboard(String),
    ShellResize {
        rows: u16,
        cols: u16,
    },
    RunLesson(LessonId),
    /// Run one action of a lesson's plan (0-based): step mode.
    RunStep {
        lesson: LessonId,
        action: usize,
    },
    Cancel,
    Check(LessonId),
    /// Read the cluster's clock (a checklist step counts down the time it needs).
    ReadClusterClock,
    Quit,
}

/// How long the facts must stay quiet before the self-checks shown run again, and the longest a
/// stream of changes may hold them back.
pub const REGRADE_QUIET: std::time::Duration = std::time::Duration::from_millis(800);
pub const REGRADE_AT_MOST: std::time::Duration = std::time::Duration::from_secs(5);

pub fn update(s: &mut State, msg: Msg) -> Vec<Effect> {
    // One object's change costs what it touches, and nothing when it changed nothing.
    if let object @ (Msg::App(_) | Msg::AppGone(_) | Msg::Object(..) | Msg::ObjectGone(_)) = msg {
        return watch::on_object(s, object);
    }
    // The folder watch reads the lab's files again after any burst of changes; the same facts
    // again change nothing (no judging, no frame).
    if same_lab_facts(s, &msg) {
        return Vec::new();
    }
    s.version += 1;
    // What the self-checks read: when it changes, the grades shown are re-run.
    let world_changed = matches!(msg, Msg::Listed { .. } | Msg::Git(_));
    let facts_changed = world_changed
        || matches!(
            msg,
            Msg::Evidence(_) | Msg::Graded(_) | Msg::ClusterClock(_)
        );
    let ticked = matches!(msg, Msg::Tick(_));
    let shown = s.ui.lesson;
    let mut effects = apply(s, msg);
    // A lesson comes on screen as it stands now: its steps were judged when their facts last
    // changed, and a step that counts down may have been waiting for the clock since. (Not
    // before every stream has listed: half the facts would untick what is done.)
    let arrived = s.ui.lesson != shown && s.live.health.all_live();
    if facts_changed {
        checklist::refresh(s);
    } else if arrived {
        // Only the lesson that came on screen: nothing the others read has changed.
        checklist::refresh_touched(s, checklist::Touched::Lesson(s.ui.lesson));
    }
    if world_changed {
        schedule_regrade(s);
    }
    if (facts_changed || ticked || arrived) && wants_cluster_clock(s) && !s.live.clock_asked {
        s.live.clock_asked = true;
        effects.push(Effect::ReadClusterClock);
    }
    effects.extend(shell::follow_size(s));
    effects
}

/// The learner's files read again, as they were.
fn same_lab_facts(s: &State, msg: &Msg) -> bool {
    let same = |pairs: &[(String, Value)], kept: &std::collections::BTreeMap<String, Value>| {
        pairs.len() == kept.len() && pairs.iter().all(|(k, v)| kept.get(k) == Some(v))
    };
    match msg {
        Msg::Git(facts) => *facts == s.lab.git,
        Msg::ChartValues(values) => same(values, &s.lab.chart_values),
        Msg::Commits(commits) => {
            commits.len() == s.lab.commits.len()
                && commits
                    .iter()
                    .all(|(sha, subject)| s.lab.commits.get(sha) == Some(subject))
        }
        Msg::Evidence(files) => {
            files.len() == s.lab.evidence.len()
                && files.iter().all(|(f, t)| s.lab.evidence.get(f) == Some(t))
        }
        _ => false,
    }
}

/// An Application or object changed (`watch::on_object`): the screen is redrawn, the lessons
/// that read it are judged again, and the self-checks shown run again after a quiet moment.
fn changed(s: &mut State, touched: checklist::Touched<'_>) -> Vec<Effect> {
    s.version += 1;
    checklist::refresh_touched(s, touched);
    schedule_regrade(s);
    if wants_cluster_clock(s) && !s.live.clock_asked {
        s.live.clock_asked = true;
        return vec![Effect::ReadClusterClock];
    }
    Vec::new()
}

/// The self-checks on show are stale: run them again once the facts have been quiet a moment
/// (and at most a few seconds after the first change, during a long sync).
fn schedule_regrade(s: &mut State) {
    if s.lab.grades.is_empty() {
        return;
    }
    let now = std::time::Instant::now();
    let first = *s.lab.regrade_since.get_or_insert(now);
    s.lab.regrade_at = Some((now + REGRADE_QUIET).min(first + REGRADE_AT_MOST));
}

/// A step of the lesson on screen needs the cluster's clock: it counts down, or it holds and
/// only the clock is missing.
fn wants_cluster_clock(s: &State) -> bool {
    use crate::lab::eval::Unmet;
    use crate::tui::state::ItemState;
    s.lab.checklists.get(&s.ui.lesson).is_some_and(|items| {
        items.iter().any(|i| {
            matches!(
                i,
                ItemState::Counting { .. }
                    | ItemState::Open {
                        why: Some(Unmet::NoClock)
                    }
            )
        })
    })
}

fn apply(s: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Key(key) => on_key(s, key),
        Msg::Click { column, row } => match layout::pane_at(s, column, row) {
            // A click on the shell types into it (starting it when it is not running).
            Some(Pane::Shell) => shell::enter(s),
            Some(pane) => {
                s.ui.focus = pane;
                s.shell.typing = false;
                Vec::new()
            }
            None => Vec::new(),
        },
        Msg::Wheel { column, row, up } => {
            navigate::wheel(s, (column, row), up);
            Vec::new()
        }
        Msg::LessonShownAt(at) => {
            s.ui.scroll.insert(Pane::Lesson, at);
            Vec::new()
        }
        Msg::ScrollLimits(limits) => {
            for (pane, max) in &limits {
                if let Some(at) = s.ui.scroll.get_mut(pane) {
                    *at = (*at).min(*max);
                }
            }
            s.ui.scroll_max = limits;
            Vec::new()
        }
        Msg::ShellOutput(bytes) => {
            shell::output(s, &bytes);
            snippet::deliver(s)
        }
        Msg::ShellExited(code) => shell::ended(s, ShellStatus::Exited(code)),
        Msg::ShellFailed(why) => shell::ended(s, ShellStatus::Failed(why)),
        job @ (Msg::JobSteps { .. } | Msg::Job(_) | Msg::JobEnded(_)) => on_job(s, job),
        Msg::Resize(w, h) => {
            s.ui.size = (w, h);
            Vec::new()
        }
        Msg::EvidenceChanged(files) => {
            let lessons: Vec<LessonId> = s
                .lessons()
                .iter()
                .filter(|l| {
                    l.evidence_file()
                        .is_some_and(|f| files.iter().any(|c| c == f))
                })
                .map(|l| l.id())
                .collect();
            watch::checks(s, lessons)
        }
        // Handled by `watch::on_object` before `apply`.
        Msg::App(_) | Msg::AppGone(_) | Msg::Object(..) | Msg::ObjectGone(_) => Vec::new(),
        health @ (Msg::Listed { .. } | Msg::StreamLost { .. } | Msg::StreamExpired { .. }) => {
            watch::on_watch(s, health)
        }
        Msg::Tick(now) => {
            s.live.now = now;
            Vec::new()
        }
        Msg::Evidence(files) => {
            let files: std::collections::BTreeMap<_, _> = files.into_iter().collect();
            // A file written or removed changes what the lesson's checks can say.
            if files != s.lab.evidence {
                s.lab.evidence = files;
                schedule_regrade(s);
            }
            Vec::new()
        }
        lab @ (Msg::Graded(_) | Msg::ChartValues(_) | Msg::Commits(_) | Msg::Git(_)) => {
            on_lab(s, lab);
            Vec::new()
        }
        Msg::ClusterClock(now) => {
            s.live.cluster_now = Some(now);
            s.live.clock_asked = false;
            Vec::new()
        }
        Msg::RegradeDue => regrade(s),
    }
}

/// What the learner's files and the self-checks say now.
fn on_lab(s: &mut State, msg: Msg) {
    match msg {
        Msg::Graded(grades) => {
            for g in grades {
                s.lab.grades.insert(g.key(), g);
            }
        }
        Msg::ChartValues(values) => s.lab.chart_values = values.into_iter().collect(),
        Msg::Commits(commits) => s.lab.commits = commits.into_iter().collect(),
        Msg::Git(facts) => s.lab.git = facts,
        _ => {}
    }
}

/// The self-checks on show run again: every lesson with a grade, once the cluster answers.
fn regrade(s: &mut State) -> Vec<Effect> {
    match s.lab.regrade_at {
        Some(at) if at <= std::time::Instant::now() => {}
        _ => return Vec::new(),
    }
    s.lab.regrade_at = None;
    s.lab.regrade_since = None;
    let lessons: std::collections::BTreeSet<LessonId> =
        s.lab.grades.values().map(|g| g.lesson).collect();
    watch::checks(s, lessons)
}

/// A plan's progress: its steps, each step's state, and its end (which asks for a grade).
fn on_job(s: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::JobSteps { lesson, steps } => {
            s.run.job = Some(JobView {
                lesson,
                steps,
                blocker: String::new(),
                log: Vec::new(),
                started: Instant::now(),
                finished: None,
                took: None,
            });
            Vec::new()
        }
        Msg::Job(p) => {
            if let Some(job) = &mut s.run.job {
                apply_progress(job, p);
            }
            Vec::new()
        }
        Msg::JobEnded(result) => {
            let lesson = s.run.job.as_ref().map(|j| j.lesson);
            // In step mode an action ended, not the plan: it is over after its last action,
            // or when an action fails.
            let plan_over = s
                .run
                .step_mode
                .as_ref()
                .is_none_or(|m| result.is_err() || (result.is_ok() && m.next + 1 >= m.total));
            if let Some(job) = &mut s.run.job {
                job.blocker.clear();
                if plan_over {
                    job.took = Some(job.started.elapsed());
                    job.finished = Some(result.clone());
                }
            }
            if let Some(step) = &mut s.run.step_mode {
                step.running = false;
                if result.is_ok() {
                    step.next = (step.next + 1).min(step.total);
                }
                // In step mode the evidence is graded once the last action is done.
                if step.next < step.total {
                    return Vec::new();
                }
            }
            // A finished plan is graded at once, so the evidence pane says where it stands.
            match (result, lesson) {
                (Ok(()), Some(n)) => vec![Effect::Check(n)],
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

fn apply_progress(job: &mut JobView, p: Progress) {
    const LOG_LINES: usize = 50;
    let mut log = |line: String| {
        job.log.push(line);
        if job.log.len() > LOG_LINES {
            job.log.remove(0);
        }
    };
    match p {
        Progress::Started { step, title, .. } => {
            log(format!("[{step}] {title}"));
            if let Some(st) = job.steps.get_mut(step - 1) {
                st.state = StepState::Running;
            }
        }
        Progress::Blocker { line, .. } => {
            job.blocker = line.clone();
            log(format!("    … {line}"));
        }
        Progress::Done { step, summary } => {
            log(format!("    ✓ {summary}"));
            job.blocker.clear();
            if let Some(st) = job.steps.get_mut(step - 1) {
                st.state = StepState::Done;
            }
        }
        Progress::Failed { step, error } => {
            log(format!("    ✗ {error}"));
            if let Some(st) = job.steps.get_mut(step - 1) {
                st.state = StepState::Failed;
            }
        }
    }
}

fn on_key(s: &mut State, key: KeyEvent) -> Vec<Effect> {
    let shown = (s.ui.lesson, s.ui.section);
    let effects = on_key_inner(s, key);
    // Another part of the lesson starts at its top.
    if (s.ui.lesson, s.ui.section) != shown {
        s.ui.scroll.remove(&Pane::Lesson);
    }
    // Step mode belongs to its lesson: leaving the lesson leaves it (unless an action runs).
    if s.ui.lesson != shown.0 && s.run.step_mode.as_ref().is_some_and(|m| !m.running) {
        s.run.step_mode = None;
    }
    effects
}

fn on_key_inner(s: &mut State, key: KeyEvent) -> Vec<Effect> {
    // Presenter clickers and terminals may send releases and repeats: act on presses only.
    if key.kind != KeyEventKind::Press {
        return Vec::new();
    }
    // A notice is read, then any key puts it away.
    if s.ui.notice.take().is_some() {
        return Vec::new();
    }
    // While the learner types into the shell, every key is the shell's but Ctrl-].
    if s.ui.focus == Pane::Shell && s.shell.typing && !s.ui.help {
        return shell::on_key(s, &key);
    }
    if s.ui.present {
        s.ui.last_key = key_label(&key);
    }
    if let Some(lesson) = s.ui.confirm {
        return confirm_key(s, lesson, &key);
    }
    // A prediction is asked: a digit answers it.
    if let (Some((answer, ask)), KeyCode::Char(c)) = (s.pending_question(), key.code)
        && let Some(choice) = c
            .to_digit(10)
            .and_then(|d| ask.choices.get((d as usize).checked_sub(1)?))
    {
        let choice = choice.clone();
        s.lab.answers.insert(answer, choice);
        return Vec::new();
    }
    let Some(mut action) = action_for(&key) else {
        return Vec::new();
    };
    // The help takes the keys that scroll it; the others wait until it is closed.
    if s.ui.help && !matches!(action, Action::Close | Action::Help | Action::Quit) {
        navigate::scroll_help(s, action);
        return Vec::new();
    }
    // A presenter's clicker steps through the plan while step mode is on.
    if s.ui.present && s.run.step_mode.is_some() && action == Action::NextSection {
        action = Action::Step;
    }
    let lesson = s.ui.lesson;
    let running = s.run.running();
    match action {
        Action::Quit => {
            s.ui.quit = true;
            let mut effects = Vec::new();
            if running {
                effects.push(Effect::Cancel);
            }
            effects.push(Effect::Quit);
            return effects;
        }
        Action::Help => {
            s.ui.help = !s.ui.help;
            s.ui.help_scroll = 0;
        }
        Action::Close => {
            s.ui.help = false;
            s.ui.raw = false;
            s.ui.zoom = false;
        }
        Action::NextPane | Action::PrevPane => {
            s.ui.focus = s.ui.focus.cycle(action == Action::NextPane);
        }
        Action::Zoom => s.ui.zoom = !s.ui.zoom,
        Action::NextSection | Action::PrevSection | Action::NextLesson | Action::PrevLesson => {
            navigate::navigate(s, action);
        }
        // A cluster that does not answer is said at once, not after the plan's timeout.
        Action::Run if !running && watch::refused_while_unreachable(s, action) => {}
        Action::Check if watch::refused_while_unreachable(s, action) => {}
        // On a cluster that is not the embedded one, look before changing anything.
        Action::Run if !running && !s.session.sim() => s.ui.confirm = Some(lesson),
        Action::Run if !running => return vec![Effect::RunLesson(lesson)],
        Action::Run => {}
        Action::Cancel if running => return vec![Effect::Cancel],
        Action::Cancel => {}
        Action::Check => return vec![Effect::Check(lesson)],
        Action::Hint => {
            let total = s.current().map_or(0, |l| l.text(s.lang()).hints.len());
            s.ui.hints_shown = (s.ui.hints_shown + 1).min(total);
            s.ui.section = Section::Hints;
        }
        Action::Theme => s.ui.theme = s.ui.theme.next(),
        Action::NextApp => {
            let names: Vec<String> = s.live.apps.keys().cloned().collect();
            s.ui.selected_app = navigate::next_after(&names, s.timeline_app()).map(|a| (lesson, a));
        }
        Action::NextObject => {
            let keys: Vec<String> = s.live.objects.keys().cloned().collect();
            s.ui.selected_object =
                navigate::next_after(&keys, &s.fields_object()).map(|k| (lesson, k));
        }
        // On the managedFields pane, its raw entries; elsewhere, the winning Helm layer.
        Action::Raw if s.ui.focus == Pane::Fields => s.ui.raw = !s.ui.raw,
        Action::Raw => s.ui.values_revealed = !s.ui.values_revealed,
        Action::Step => return step(s, lesson, running),
        // Enter starts typing only where the shell is.
        Action::Shell if key.code == KeyCode::Enter && s.ui.focus != Pane::Shell => {}
        Action::Shell => return shell::enter(s),
        Action::NextCommand => snippet::step(s, true),
        Action::PrevCommand => snippet::step(s, false),
        Action::TypeCommand => return snippet::type_it(s),
        Action::CopyCommand => return snippet::copy_it(s),
        Action::ScrollUp | Action::ScrollDown | Action::ScrollTop | Action::ScrollBottom => {
            navigate::scroll_focused(s, action);
        }
        // Shown in the help; the key itself is handled while typing into the shell.
        Action::LeaveShell => s.shell.typing = false,
    }
    Vec::new()
}

/// Step mode: the first press shows the plan and what comes first; each next press runs the
/// action shown, after which the pane says what changed and what comes next.
fn step(s: &mut State, lesson: LessonId, running: bool) -> Vec<Effect> {
    let total = s.current().map_or(0, |l| l.spec.actions.len());
    match &mut s.run.step_mode {
        // The action waits for the room's prediction first.
        Some(m) if m.lesson == lesson && !running && m.next < m.total => {
            if s.pending_question().is_some() || watch::refused_while_unreachable(s, Action::Step) {
                return Vec::new();
            }
            let Some(m) = &mut s.run.step_mode else {
                return Vec::new();
            };
            m.running = true;
            // An action that failed before runs again: its failure is no longer the news.
            if let Some(job) = &mut s.run.job {
                job.finished = None;
            }
            vec![Effect::RunStep {
                lesson,
                action: m.next,
            }]
        }
        Some(m) if m.lesson == lesson => {
            if m.next >= m.total && !running {
                s.run.step_mode = None;
            }
            Vec::new()
        }
        _ if running || total == 0 => Vec::new(),
        _ => {
            // A new run through the lesson asks the room again: earlier answers are forgotten.
            s.lab
                .answers
                .retain(|key, _| !key.starts_with(&format!("{lesson}:")));
            s.run.step_mode = Some(StepMode {
                lesson,
                next: 0,
                total,
                running: false,
            });
            let steps = s
                .current()
                .map(|l| {
                    l.spec
                        .actions
                        .iter()
                        .map(|a| {
                            PlanStep::todo(
                                &a.step.title(s.lang()),
                                &a.step.command(&s.session.fit, s.lang()),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            on_job(s, Msg::JobSteps { lesson, steps })
        }
    }
}

/// How a key reads for the room: `PgDn`, `space`, `g`, `Ctrl-c`.
fn key_label(key: &KeyEvent) -> String {
    let name = match key.code {
        KeyCode::Char(' ') => "space".to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Tab => "Tab".into(),
        other => format!("{other:?}"),
    };
    if key
        .modifiers
        .contains(ratatui::crossterm::event::KeyModifiers::CONTROL)
    {
        format!("Ctrl-{name}")
    } else {
        name
    }
}

/// A key while the plan and the cluster it would change are shown: only y/Enter goes ahead.
fn confirm_key(s: &mut State, lesson: LessonId, key: &KeyEvent) -> Vec<Effect> {
    match key.code {
        KeyCode::Char('y') | KeyCode::Enter => {
            s.ui.confirm = None;
            if watch::refused_while_unreachable(s, Action::Run) {
                return Vec::new();
            }
            vec![Effect::RunLesson(lesson)]
        }
        KeyCode::Char('n') | KeyCode::Esc | KeyCode::Char('q') => {
            s.ui.confirm = None;
            Vec::new()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod change_tests;
#[cfg(test)]
mod health_tests;
#[cfg(test)]
mod tests;
