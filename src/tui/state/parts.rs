//! The smaller pieces of the tutor's state: the panes, the shell pane's screen, a running plan
//! as the lesson pane shows it, step mode, and the notice over the screen.

use std::time::Instant;

use strum::{EnumCount, EnumIter, FromRepr};

use crate::cluster::problem::Problem;
use crate::i18n::{Lang, Say};
use crate::lab::spec::LessonId;
use crate::t;
use crate::tui::keymap::Action;

/// The panes, in the order Tab visits them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, EnumIter, EnumCount, FromRepr)]
pub enum Pane {
    Lesson,
    Shell,
    Apps,
    Timeline,
    Fields,
    Values,
    Evidence,
}

impl Pane {
    /// The pane's name in a strip of every pane.
    pub fn short_title(self, lang: Lang) -> String {
        match self {
            Pane::Lesson => t!(lang, "pane-lesson-short"),
            Pane::Shell => t!(lang, "pane-shell-short"),
            Pane::Apps => t!(lang, "pane-apps-short"),
            Pane::Timeline => t!(lang, "pane-timeline-short"),
            Pane::Fields => t!(lang, "pane-fields-short"),
            Pane::Values => t!(lang, "pane-values-short"),
            Pane::Evidence => t!(lang, "pane-evidence-short"),
        }
    }

    /// The pane's title on its border.
    pub fn title(self, lang: Lang) -> String {
        match self {
            Pane::Lesson => t!(lang, "pane-lesson"),
            Pane::Shell => t!(lang, "pane-shell"),
            Pane::Apps => t!(lang, "pane-apps"),
            Pane::Timeline => t!(lang, "pane-timeline"),
            Pane::Fields => t!(lang, "pane-fields"),
            Pane::Values => t!(lang, "pane-values"),
            Pane::Evidence => t!(lang, "pane-evidence"),
        }
    }

    /// The live pane a lesson names.
    pub fn named(name: crate::lab::spec::PaneName) -> Pane {
        use crate::lab::spec::PaneName;
        match name {
            PaneName::Apps => Pane::Apps,
            PaneName::Timeline => Pane::Timeline,
            PaneName::Fields => Pane::Fields,
            PaneName::Values => Pane::Values,
            PaneName::Evidence => Pane::Evidence,
        }
    }

    /// The pane Tab (`forward`) or Shift-Tab goes to from this one.
    pub fn cycle(self, forward: bool) -> Pane {
        let n = Pane::COUNT;
        let i = self as usize;
        Pane::from_repr(if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        })
        .unwrap_or(self)
    }
}

/// A presenter running a lesson's plan one action at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct StepMode {
    pub lesson: LessonId,
    /// The action shown next (0-based); the plan's length when all are done.
    pub next: usize,
    pub total: usize,
    /// An action is running now.
    pub running: bool,
}

/// Lines of shell output kept above the screen, to scroll back through.
pub const SHELL_SCROLLBACK_LINES: usize = 5_000;

/// Where the shell pane's shell is.
#[derive(Debug, Clone, PartialEq)]
pub enum ShellStatus {
    NotStarted,
    Running,
    /// It ended, with its exit code when it had one.
    Exited(Option<u32>),
    /// It could not start (no shell, no pseudo-terminal): why, in plain words.
    Failed(crate::session::shell_env::ShellError),
}

/// The shell pane: the terminal screen the shell's output draws on, and whether keys go to it.
pub struct ShellView {
    pub screen: vt100::Parser,
    pub status: ShellStatus,
    /// Keys go to the shell (the pane is focused and the learner has not pressed Ctrl-]).
    pub typing: bool,
    /// The prompt's marker (`(capa:sim) `), where it starts and its KUBECONFIG, for the pane's
    /// first words.
    pub about: ShellAbout,
    /// A command waiting for the shell to be ready ("type it for me" on a shell just started).
    pub pending_input: Option<String>,
    /// Keys pressed while that command waits: they follow it, in order.
    pub pending_keys: Vec<u8>,
    /// The shell has drawn its prompt at least once.
    pub seen_prompt: bool,
}

/// What the shell pane says of the shell it starts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShellAbout {
    /// `(capa:sim) `
    pub marker: String,
    pub cwd: String,
    /// The kubeconfig it gets; empty when it inherits the tutor's.
    pub kubeconfig: String,
}

impl ShellView {
    pub(super) fn new() -> ShellView {
        ShellView {
            screen: vt100::Parser::new(24, 80, SHELL_SCROLLBACK_LINES),
            status: ShellStatus::NotStarted,
            typing: false,
            about: ShellAbout::default(),
            pending_input: None,
            pending_keys: Vec::new(),
            seen_prompt: false,
        }
    }

    pub fn running(&self) -> bool {
        self.status == ShellStatus::Running
    }
}

/// Something the learner must read before going on, said until the next key.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// The lab is not the one the learner left: `--fresh` moved it aside, or this process took
    /// over from one that ended without stopping it.
    LabStarted(crate::session::Started),
    /// `action` needs the cluster, which does not answer: why, and since when.
    ClusterUnreachable {
        action: Action,
        problem: Problem,
        since: Option<jiff::Timestamp>,
    },
}

/// Why a plan stopped, as typed where it failed (a plan that does not load, a folder that
/// cannot be written, a step's error); the lesson pane says it in the learner's language.
#[derive(Clone)]
pub struct JobFailure(pub std::sync::Arc<dyn Say + Send + Sync>);

impl JobFailure {
    pub fn new(why: impl Say + Send + Sync + 'static) -> JobFailure {
        JobFailure(std::sync::Arc::new(why))
    }
}

impl Say for JobFailure {
    fn say(&self, lang: Lang) -> String {
        self.0.say(lang)
    }
}

crate::display_says!(JobFailure);

impl std::fmt::Debug for JobFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JobFailure({self})")
    }
}

impl PartialEq for JobFailure {
    fn eq(&self, other: &JobFailure) -> bool {
        self.to_string() == other.to_string()
    }
}

/// A plan being run for the learner, as the lesson pane shows it.
#[derive(Debug, Clone)]
pub struct JobView {
    pub lesson: LessonId,
    pub steps: Vec<PlanStep>,
    pub blocker: String,
    pub log: Vec<String>,
    pub started: Instant,
    pub finished: Option<Result<(), JobFailure>>,
    /// How long the plan took, once it finished.
    pub took: Option<std::time::Duration>,
}

/// One step of a running plan: what it does, the command it stands for, and how far it got.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanStep {
    pub title: String,
    pub command: String,
    pub state: StepState,
}

impl PlanStep {
    pub fn todo(title: &str, command: &str) -> PlanStep {
        PlanStep {
            title: title.into(),
            command: command.into(),
            state: StepState::Todo,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepState {
    Todo,
    Running,
    Done,
    Failed,
}
