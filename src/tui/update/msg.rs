//! Everything that can happen to the tutor (`Msg`: keys, the watches, plans, files, the shell)
//! and everything it can ask of the world (`Effect`), which the runtime carries out.

use ratatui::crossterm::event::KeyEvent;
use serde_json::Value;

use crate::cluster::problem::Problem;
use crate::cluster::watch::StreamId;
use crate::lab::engine::Progress;
use crate::lab::eval::GitFacts;
use crate::lab::eval::check::Grade;
use crate::lab::spec::LessonId;
use crate::tui::state::{JobFailure, Pane};

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
    /// The embedded cluster this tutor is attached to is served by another process now.
    Retargeted(crate::session::Target),
    /// Time passed: the wall clock now (redraws a stale watch's age and a plan's elapsed time).
    Tick(jiff::Timestamp),
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
    /// How far each pane on screen can scroll, and its page, as last drawn.
    ScrollLimits(std::collections::BTreeMap<Pane, crate::tui::state::Reach>),
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
