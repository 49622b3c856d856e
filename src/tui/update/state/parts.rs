//! The parts of the state that hold what the tutor knows: the session (fixed for the run), the
//! screen (`Ui`, with the notice said over it), the cluster as the watches last told it (`Live`)
//! and the learner's lab (`LabView`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::Value;

use super::{ItemState, Pane, Reach};
use crate::cluster::health::Health;
use crate::cluster::problem::Problem;
use crate::cluster::{Application, ObjectKey};
use crate::i18n::Lang;
use crate::lab::catalog::{Catalog, Section};
use crate::lab::eval::check::Grade;
use crate::lab::eval::{AppFacts, GitFacts};
use crate::lab::fit::Fit;
use crate::lab::spec::LessonId;
use crate::session::Target;
use crate::tui::keymap::Action;
use crate::tui::theme::Theme;

/// Which lab this is: fixed for the tutor's whole run.
pub struct SessionView {
    pub catalog: Arc<Catalog>,
    pub lang: Lang,
    /// What the tutor is connected to; said in the learner's language where it is drawn.
    pub target: Target,
    /// Lesson text and commands filled in for where the learner is.
    pub fit: Fit,
    /// Where clock times are shown in.
    pub tz: jiff::tz::TimeZone,
    /// The cluster's clock when it runs faster than the wall's (`--speed`): what the file
    /// system and this process date is said on it, so a checklist never shows two clocks.
    pub clock: Option<crate::session::clock::FastClock>,
    /// A replay: the recorded moment on show, which every "now" reads instead of the wall's
    /// (a plan's elapsed time, a checklist's countdown), so a replay at any speed says what
    /// the learner saw.
    pub replaying_at: Option<jiff::Timestamp>,
}

impl SessionView {
    /// The wall's time now, or the moment a replay shows.
    pub fn wall_now(&self) -> jiff::Timestamp {
        self.replaying_at.unwrap_or_else(jiff::Timestamp::now)
    }

    /// The cluster's time when the wall's was `wall` (the same at real speed).
    pub fn on_the_clusters_clock(&self, wall: jiff::Timestamp) -> jiff::Timestamp {
        self.clock.as_ref().map_or(wall, |c| c.at(wall))
    }

    /// The embedded lab cluster: `SIM` in the header, and no confirmation before a plan.
    pub fn sim(&self) -> bool {
        matches!(self.target, Target::Embedded { .. })
    }
}

/// What the screen shows and where the learner is in the lessons, in parts.
pub struct Ui {
    pub place: Place,
    pub panes: Panes,
    pub picks: Picks,
    pub theme: Theme,
    /// Presenting to a room: the projector theme, fewer and larger panes, the last key shown.
    pub present: bool,
    /// The last key pressed, for the room to see (`--present`).
    pub last_key: String,
    /// The managedFields pane shows the raw entries.
    pub raw: bool,
    /// The learner asked (`v`) to see which Helm layer wins before writing the evidence.
    pub values_revealed: bool,
    /// Said over the screen until the next key.
    pub notice: Option<Notice>,
    /// A lesson's plan shown before it changes a cluster other than the embedded one, waiting
    /// for y (or Enter) to go ahead or n (or Esc) to leave everything as it is.
    pub confirm: Option<LessonId>,
    pub quit: bool,
}

/// Where the learner is in the lessons.
pub struct Place {
    pub lesson: LessonId,
    pub section: Section,
    /// Hints shown in the current lesson.
    pub hints_shown: usize,
    /// PgDn on the lesson's last part stopped here: the pane says which lesson comes next,
    /// and the next PgDn goes there.
    pub at_lesson_end: bool,
    /// The lesson on screen was chosen (by the learner, or kept from their progress); until
    /// it is, the tutor opens the first lesson whose checklist is not done once it has read
    /// the lab (`do 1`…`do 4` then the tutor opened on lesson 1).
    pub lesson_chosen: bool,
}

/// The panes on screen: the terminal's size, focus and zoom, how far each is scrolled and can
/// scroll, and the help over them.
pub struct Panes {
    pub size: (u16, u16),
    pub focus: Pane,
    pub zoom: bool,
    /// How far each pane is scrolled down, in lines.
    pub scroll: BTreeMap<Pane, u16>,
    /// How far each pane can scroll and its page, as last drawn (the runtime reports it after
    /// each frame).
    pub reach: BTreeMap<Pane, Reach>,
    pub help: bool,
    /// How far the help is scrolled down, in lines.
    pub help_scroll: u16,
}

/// What the learner picked to look at or to have typed.
pub struct Picks {
    /// The Application the timeline shows (`a` cycles), chosen in a lesson; every other lesson
    /// shows its own app.
    pub selected_app: Option<(LessonId, String)>,
    /// The object whose managedFields are shown (`o` cycles), chosen in a lesson; every other
    /// lesson shows its own focus.
    pub selected_object: Option<(LessonId, ObjectKey)>,
    /// The command chosen for "type it for me": (lesson, part, index among its commands).
    pub selected_snippet: Option<(LessonId, Section, usize)>,
    /// The lesson pane keeps the selected command in view (after `]`/`[`); scrolling the pane
    /// lets go of it, so the text above and below stays in reach.
    pub follow_selection: bool,
}

/// Something the learner must read before going on, said until the next key.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// The lab is not the one the learner left: `--fresh` moved it aside, or this process took
    /// over from one that ended without stopping it.
    LabStarted(crate::session::Started),
    /// The lessons and templates come from what the lab was set up with (kept in `file`), not
    /// from this command line.
    SetupOfTheLab(crate::lab::setup::KeptIn),
    /// The saved progress did not read: it is kept at this path and progress starts over.
    ProgressKeptAside(std::path::PathBuf),
    /// `action` needs the cluster, which does not answer: why, and since when.
    ClusterUnreachable {
        action: Action,
        problem: Problem,
        since: Option<jiff::Timestamp>,
    },
    /// `action` waits for the plan of `lesson`, which runs now: one plan runs at a time.
    PlanRunning {
        action: Action,
        lesson: crate::lab::spec::LessonId,
    },
    /// Quit was pressed while the plan of `lesson` runs: quitting stops it, so it asks first
    /// (a walk's `q` mid-plan closed the tutor and the cluster with it, unasked).
    QuitWhilePlanRuns { lesson: crate::lab::spec::LessonId },
}

/// The cluster as the watches last told it.
pub struct Live {
    /// Applications in `argocd`, by name.
    pub apps: BTreeMap<String, AppFacts>,
    /// Live lab objects the panes read.
    pub objects: BTreeMap<ObjectKey, Value>,
    /// Objects the watches saw deleted, and when (the wall's clock): a pane says an object is
    /// gone, and when, rather than only that it is not there (a pruned child Application).
    pub gone: BTreeMap<ObjectKey, jiff::Timestamp>,
    /// Each watch's health: which panes show the cluster as it is now.
    pub health: Health,
    /// The wall clock as last told (by a watch or the once-a-second tick while something is
    /// stale), so drawing never reads the clock.
    pub now: jiff::Timestamp,
    /// The cluster's clock as last read (while a checklist step counts down the time it needs).
    pub cluster_now: Option<jiff::Timestamp>,
    /// A read of the cluster's clock is on its way.
    pub clock_asked: bool,
}

impl Live {
    /// Keeps an Application as the watch delivered it (a JSON that is not one is ignored).
    pub fn insert_app(&mut self, json: &Value) {
        if let Some(app) = AppFacts::from_json(json) {
            self.apps.insert(app.app.metadata.name.clone(), app);
        }
    }

    pub fn app(&self, name: &str) -> Option<&Application> {
        self.apps.get(name).map(|a| &a.app)
    }

    /// An object by the kind's name Argo CD reports (none of a kind the lab does not read).
    pub fn object(&self, ns: &str, kind: &str, name: &str) -> Option<&Value> {
        self.objects.get(&ObjectKey::new(
            ns,
            crate::cluster::Kind::parse(kind)?,
            name,
        ))
    }
}

/// The learner's lab: what they did, asked for and wrote, and what Git holds.
#[derive(Default)]
pub struct LabView {
    /// Checklist steps first seen done: lesson → step index → when it was done.
    pub ticks: BTreeMap<LessonId, BTreeMap<usize, jiff::Timestamp>>,
    /// Each lesson's checklist as it stands now (derived from the facts whenever they change).
    pub checklists: BTreeMap<LessonId, Vec<ItemState>>,
    /// Hints shown in other lessons, as progress kept them.
    pub hints_by_lesson: BTreeMap<LessonId, usize>,
    /// Predictions made in step mode: `lesson:action` (1-based) → the choice.
    pub answers: BTreeMap<String, String>,
    /// The last self-check of each evidence file (or lesson without one), by [`Grade::key`].
    pub grades: BTreeMap<String, Grade>,
    /// Evidence file → when it was last written (`None`: it is not there).
    pub evidence: BTreeMap<String, Option<jiff::Timestamp>>,
    /// The self-checks shown are stale: the cluster, Git or a file changed since they ran.
    /// Re-run at this moment (a short quiet after the last change).
    pub regrade_at: Option<std::time::Instant>,
    /// The first change since the self-checks last ran.
    pub regrade_since: Option<std::time::Instant>,
    /// Self-checks asked for by changed evidence while the cluster was not live: run once it is.
    pub deferred_checks: BTreeSet<LessonId>,
    /// What the bare repos and the working copy hold.
    /// The learner's folders have been read once (their Git facts came).
    pub git_read: bool,
    pub git: GitFacts,
    /// Chart values from the learner's working copy: file name → values.
    pub chart_values: BTreeMap<String, Value>,
    /// Commit subjects by full SHA, from the learner's working copy.
    pub commits: BTreeMap<String, String>,
}
