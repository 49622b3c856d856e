//! Everything that can happen to the tutor (`Msg`: keys, the watches, plans, files, the shell)
//! and everything it can ask of the world (`Effect`), which the runtime carries out.

use ratatui::crossterm::event::KeyEvent;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cluster::watch::{ObjectChange, StreamChange, WatchEvent};
use crate::lab::engine::Progress;
use crate::lab::eval::GitFacts;
use crate::lab::eval::check::Grade;
use crate::lab::spec::LessonId;
use crate::tui::state::{JobFailure, Pane};

/// Everything that can happen, by who it comes from; each owner's messages are handled by
/// one file of `update/`, matching every one of them. Saved as they come by `--record`, and
/// given to `update` again by `replay` (all but what a frame drew, which the replay's own
/// frames say).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Msg {
    /// The learner's keys and mouse, and the terminal's size (`update/input.rs`).
    Input(InputMsg),
    /// An object a watch saw come, change or go, keyed where it was seen (`update/watch.rs`).
    Object(ObjectChange),
    /// A watch's stream listed, lost the cluster or must list again (`update/watch.rs`).
    Stream(StreamChange),
    /// The plan running in the background (`update/plan.rs`).
    Job(JobMsg),
    /// The learner's files, Git, the cluster's clock and the self-checks (`update/regrade.rs`).
    Lab(LabMsg),
    /// The lab shell (`update/shell.rs`).
    Shell(ShellMsg),
    /// What the last frame drew (`update/navigate.rs`).
    #[serde(skip)]
    Drawn(DrawnMsg),
    /// The embedded cluster this tutor is attached to is served by another process now.
    Retargeted(crate::session::Target),
    /// Time passed: the wall clock now (redraws a stale watch's age and a plan's elapsed time).
    Tick(jiff::Timestamp),
    /// A replay's own news, never recorded (`update.rs`).
    #[serde(skip)]
    Replaying(ReplayMsg),
}

/// What a replay tells the state it replays into.
#[derive(Debug, Clone)]
pub enum ReplayMsg {
    /// The recorded moment on show: every "now" reads it (`SessionView::wall_now`).
    At(jiff::Timestamp),
    /// The language the replay is watched in, whatever the recording's keys chose.
    Lang(crate::i18n::Lang),
}

/// What a watch saw, as the message it is.
impl From<WatchEvent> for Msg {
    fn from(e: WatchEvent) -> Msg {
        match e {
            WatchEvent::Object(change) => Msg::Object(change),
            WatchEvent::Stream(change) => Msg::Stream(change),
        }
    }
}

/// The learner at the keyboard and mouse, and the terminal they look through.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum InputMsg {
    Key(KeyEvent),
    Click {
        column: u16,
        row: u16,
    },
    /// The mouse wheel turned over a pane.
    Wheel {
        column: u16,
        row: u16,
        up: bool,
    },
    Resize(u16, u16),
}

/// A plan's progress, and its end.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum JobMsg {
    Progress(Progress),
    Ended(Result<(), JobFailure>),
}

/// What the lab's files, Git and the self-checks say.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum LabMsg {
    Graded(Vec<Grade>),
    /// The evidence files: each with when it was last written (`None`: not there).
    Evidence(Vec<(String, Option<jiff::Timestamp>)>),
    /// These evidence files were written or changed: grade them.
    EvidenceChanged(Vec<String>),
    ChartValues(Vec<(String, Value)>),
    Commits(Vec<(String, String)>),
    /// What the bare repos and the working copy hold now.
    Git(GitFacts),
    /// The cluster's clock, read for a checklist step that counts down.
    ClusterClock(jiff::Timestamp),
    /// The quiet after the last change is over: the self-checks shown run again.
    RegradeDue,
}

/// The lab shell's terminal.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ShellMsg {
    /// Bytes the shell wrote to its terminal.
    Output(Vec<u8>),
    /// The shell ended, with its exit code when it had one.
    Exited(Option<u32>),
    /// The shell could not start: why.
    Failed(crate::session::shell_env::ShellError),
}

/// What the last frame drew, which the next keys move within.
#[derive(Debug, Clone)]
pub enum DrawnMsg {
    /// How far each pane on screen can scroll, and its page, as last drawn.
    ScrollLimits(std::collections::BTreeMap<Pane, crate::tui::state::Reach>),
    /// The line the lesson pane was drawn from (it moves to show the chosen command whole).
    LessonShownAt(u16),
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
