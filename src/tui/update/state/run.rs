//! What runs for the learner (`Run`): a plan as the lesson pane shows it, its steps and why it
//! stopped, and step mode around it.

use crate::i18n::{Lang, Say, Words};
use crate::lab::spec::LessonId;

/// What runs for the learner: a plan, and step mode around it.
#[derive(Default)]
pub struct Run {
    pub job: Option<JobView>,
    /// Step mode, while a presenter steps through a lesson's plan.
    pub step_mode: Option<StepMode>,
}

impl Run {
    /// A plan is running now (step mode between two actions is not).
    pub fn running(&self) -> bool {
        let stepping_idle = self.step_mode.as_ref().is_some_and(|m| !m.running);
        self.job.as_ref().is_some_and(|j| j.finished.is_none()) && !stepping_idle
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
    /// The next action was asked for before the room answered its question: the band says
    /// to answer first, until an answer comes (a clicker's press did nothing, unexplained).
    pub answer_first: bool,
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

/// Saved (a recorded session) as what it says in each language, as words keep a typed value:
/// a replay says it in whichever language it is watched in.
impl serde::Serialize for JobFailure {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::i18n::Words::of(self.clone()).serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for JobFailure {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<JobFailure, D::Error> {
        crate::i18n::Words::deserialize(d).map(JobFailure::new)
    }
}

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
    /// What the step running waits on now, as it last said.
    pub blocker: Option<Words>,
    /// What the plan did, newest last, said in the learner's language when drawn.
    pub log: Vec<LogLine>,
    pub started: jiff::Timestamp,
    pub finished: Option<Result<(), JobFailure>>,
    /// How long the plan took, once it finished.
    pub took: Option<std::time::Duration>,
    /// The lesson's checklist steps done when the plan ended: once that changes, the lab has
    /// moved on and a failure's reason may no longer hold.
    pub done_when_ended: Option<usize>,
}

impl JobView {
    /// A plan about to run at `started`, its steps all to do.
    pub fn new(lesson: LessonId, steps: Vec<PlanStep>, started: jiff::Timestamp) -> JobView {
        JobView {
            lesson,
            steps,
            blocker: None,
            log: Vec::new(),
            started,
            finished: None,
            took: None,
            done_when_ended: None,
        }
    }

    /// How long the plan ran: until it finished, else until `now`.
    pub fn elapsed(&self, now: jiff::Timestamp) -> std::time::Duration {
        self.took
            .unwrap_or_else(|| now.duration_since(self.started).unsigned_abs())
    }
}

/// One step of a running plan: what it does and how far it got.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanStep {
    pub title: Words,
    pub state: StepState,
}

impl PlanStep {
    pub fn todo(title: impl Into<Words>) -> PlanStep {
        PlanStep {
            title: title.into(),
            state: StepState::Todo,
        }
    }
}

/// One line of a plan's log, kept as the engine said it: drawn in the language the tutor shows
/// when it is drawn, so switching language mid-plan redraws the log too.
#[derive(Debug, Clone, PartialEq)]
pub enum LogLine {
    /// Step `step` began.
    Started {
        step: usize,
        title: Words,
    },
    /// A wait said a new reason it waits.
    Waiting(Words),
    Done(Words),
    Failed(Words),
    /// The plan went back to its start.
    StartedOver(Words),
}

crate::display_says!(LogLine);

impl LogLine {
    /// A line said by the step's own progress (its start or what it waits on), which a pane
    /// that draws the running step live can leave out.
    pub fn repeats_the_live_step(&self) -> bool {
        matches!(self, LogLine::Started { .. } | LogLine::Waiting(_))
    }
}

impl Say for LogLine {
    fn say(&self, lang: Lang) -> String {
        match self {
            LogLine::Started { step, title } => format!("[{step}] {}", title.say(lang)),
            LogLine::Waiting(why) => format!("    … {}", why.say(lang)),
            LogLine::Done(summary) => format!("    ✓ {}", summary.say(lang)),
            LogLine::Failed(error) => format!("    ✗ {}", error.say(lang)),
            LogLine::StartedOver(why) => format!("  ↻ {}", why.say(lang)),
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
