//! Everything the tutor shows, in parts with one owner each: the session (which lab, in which
//! language), the screen (`ui`), the cluster as the watches last told it (`live`), the
//! learner's lab (`lab`), what runs for them (`run`) and the shell pane. Only `update` changes
//! it; views borrow the part they draw. Tests build it with [`StateBuilder`].

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::Value;

use super::theme::Theme;
use crate::cluster::Application;
use crate::cluster::health::Health;
use crate::cluster::watch::lab_streams;
use crate::i18n::Lang;
use crate::lab::catalog::{Catalog, Lesson, Section};
pub use crate::lab::eval::ItemState;
use crate::lab::eval::check::Grade;
use crate::lab::eval::{AppFacts, EvidenceFacts, Facts, GitFacts};
use crate::lab::fit::Fit;
use crate::lab::progress::Progress;
use crate::lab::snippets::{Snippet, snippets};
use crate::lab::spec::{LessonId, Question, ValuesSpec};
use crate::session::Target;

mod parts;
pub use parts::{
    JobFailure, JobView, Notice, Pane, PlanStep, SHELL_SCROLLBACK_LINES, ShellAbout, ShellStatus,
    ShellView, StepMode, StepState,
};

impl SessionView {
    /// The embedded lab cluster: `SIM` in the header, and no confirmation before a plan.
    pub fn sim(&self) -> bool {
        matches!(self.target, Target::Embedded { .. })
    }
}

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
}

/// What the screen shows and where the learner is in the lessons.
pub struct Ui {
    pub lesson: LessonId,
    pub section: Section,
    /// Hints shown in the current lesson.
    pub hints_shown: usize,
    pub theme: Theme,
    pub focus: Pane,
    pub zoom: bool,
    pub help: bool,
    /// How far the help is scrolled down, in lines.
    pub help_scroll: u16,
    /// PgDn on the lesson's last part stopped here: the pane says which lesson comes next,
    /// and the next PgDn goes there.
    pub at_lesson_end: bool,
    /// The managedFields pane shows the raw entries.
    pub raw: bool,
    /// The learner asked (`v`) to see which Helm layer wins before writing the evidence.
    pub values_revealed: bool,
    pub quit: bool,
    pub size: (u16, u16),
    /// Presenting to a room: the projector theme, fewer and larger panes, the last key shown.
    pub present: bool,
    /// The last key pressed, for the room to see (`--present`).
    pub last_key: String,
    /// Said over the screen until the next key.
    pub notice: Option<Notice>,
    /// A lesson's plan shown before it changes a cluster other than the embedded one, waiting
    /// for y (or Enter) to go ahead or n (or Esc) to leave everything as it is.
    pub confirm: Option<LessonId>,
    /// How far each pane is scrolled down, in lines.
    pub scroll: BTreeMap<Pane, u16>,
    /// How far each pane can scroll, as last drawn (the runtime reports it after each frame).
    pub scroll_max: BTreeMap<Pane, u16>,
    /// The Application the timeline shows (`a` cycles), chosen in a lesson; every other lesson
    /// shows its own app.
    pub selected_app: Option<(LessonId, String)>,
    /// The object whose managedFields are shown (`o` cycles), chosen in a lesson; every other
    /// lesson shows its own focus.
    pub selected_object: Option<(LessonId, String)>,
    /// The command chosen for "type it for me": (lesson, part, index among its commands).
    pub selected_snippet: Option<(LessonId, Section, usize)>,
}

/// The cluster as the watches last told it.
pub struct Live {
    /// Applications in `argocd`, by name.
    pub apps: BTreeMap<String, AppFacts>,
    /// Live lab objects the panes read, by `namespace/Kind/name`.
    pub objects: BTreeMap<String, Value>,
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

    pub fn object(&self, ns: &str, kind: &str, name: &str) -> Option<&Value> {
        self.objects.get(&format!("{ns}/{kind}/{name}"))
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
    pub git: GitFacts,
    /// Chart values from the learner's working copy: file name → values.
    pub chart_values: BTreeMap<String, Value>,
    /// Commit subjects by full SHA, from the learner's working copy.
    pub commits: BTreeMap<String, String>,
}

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

pub struct State {
    /// Counts the messages that changed something: the runtime draws a frame only when it
    /// moved, so an update that changes nothing on screen costs no frame.
    pub version: u64,
    pub session: SessionView,
    pub ui: Ui,
    pub live: Live,
    pub lab: LabView,
    pub run: Run,
    pub shell: ShellView,
}

impl State {
    pub fn new(catalog: Arc<Catalog>, lang: Lang, target: Target) -> State {
        let health = Health::new(lab_streams(&catalog.apps(), &catalog.namespaces()));
        let first = catalog
            .lessons()
            .first()
            .map(Lesson::id)
            .unwrap_or_default();
        State {
            version: 0,
            session: SessionView {
                catalog,
                lang,
                target,
                fit: Fit::lab_vm(),
                tz: jiff::tz::TimeZone::system(),
            },
            ui: Ui {
                lesson: first,
                section: Section::Goal,
                hints_shown: 0,
                theme: Theme::from_env(),
                focus: Pane::Lesson,
                zoom: false,
                help: false,
                help_scroll: 0,
                values_revealed: false,
                at_lesson_end: false,
                raw: false,
                quit: false,
                size: (80, 24),
                present: false,
                last_key: String::new(),
                notice: None,
                confirm: None,
                scroll: BTreeMap::new(),
                scroll_max: BTreeMap::new(),
                selected_app: None,
                selected_object: None,
                selected_snippet: None,
            },
            live: Live {
                apps: BTreeMap::new(),
                objects: BTreeMap::new(),
                health,
                now: jiff::Timestamp::now(),
                cluster_now: None,
                clock_asked: false,
            },
            lab: LabView::default(),
            run: Run::default(),
            shell: ShellView::new(),
        }
    }

    /// A builder for tests and screenshots: the state a scene needs, without writing fields.
    pub fn builder(catalog: Arc<Catalog>) -> StateBuilder {
        StateBuilder::new(catalog)
    }

    pub fn lang(&self) -> Lang {
        self.session.lang
    }

    pub fn theme(&self) -> Theme {
        self.ui.theme
    }

    pub fn lessons(&self) -> &[Lesson] {
        self.session.catalog.lessons()
    }

    /// Something on screen moves with the clock: a stale watch's age or a running plan's
    /// elapsed time. Only then does the tutor redraw once a second; otherwise it sits idle.
    pub fn clock_running(&self) -> bool {
        // A stream that never loaded shows no age, so nothing moves for it.
        self.run.running() || self.live.health.oldest().is_some() || self.counting_down()
    }

    /// A checklist step on screen counts down the time it needs.
    pub fn counting_down(&self) -> bool {
        self.lab
            .checklists
            .get(&self.ui.lesson)
            .is_some_and(|items| {
                items
                    .iter()
                    .any(|i| matches!(i, ItemState::Counting { .. }))
            })
    }

    /// Whether an evidence file is there.
    pub fn evidence_present(&self, file: &str) -> bool {
        self.lab.evidence.get(file).is_some_and(Option::is_some)
    }

    /// Where an evidence file stands now, the one reading every pane, strip and verdict shows:
    /// a file that is not there passes nothing, whatever an older self-check said.
    pub fn evidence_standing(&self, file: &str) -> EvidenceStanding {
        match (self.evidence_present(file), self.lab.grades.get(file)) {
            (false, _) => EvidenceStanding::Missing,
            (true, Some(g)) if g.passed() => EvidenceStanding::Passes,
            (true, Some(_)) => EvidenceStanding::Fails,
            (true, None) => EvidenceStanding::NotChecked,
        }
    }

    /// What the checklists are judged against: the state's facts, borrowed (`evidence` is
    /// built by the caller from the files and their grades).
    pub fn facts<'a>(&'a self, evidence: &'a BTreeMap<String, EvidenceFacts>) -> Facts<'a> {
        Facts {
            apps: &self.live.apps,
            objects: &self.live.objects,
            git: &self.lab.git,
            evidence,
            now: self.live.cluster_now,
        }
    }

    /// Each evidence file as the facts hold it: when it was written, and when the check that
    /// passed it ran (a file that is not there passes nothing).
    pub fn evidence_facts(&self) -> BTreeMap<String, EvidenceFacts> {
        self.lab
            .evidence
            .iter()
            .map(|(file, written)| {
                let passed = self
                    .lab
                    .grades
                    .get(file)
                    .filter(|g| g.passed() && written.is_some())
                    .map(|g| g.checked_at.unwrap_or(self.live.now));
                (
                    file.clone(),
                    EvidenceFacts {
                        written: *written,
                        passed,
                    },
                )
            })
            .collect()
    }

    /// The header's height: a second line says why the watches are stale.
    pub fn header_rows(&self) -> u16 {
        if self.live.health.any_stale() { 2 } else { 1 }
    }

    pub fn current(&self) -> Option<&Lesson> {
        self.session.catalog.lesson(self.ui.lesson)
    }

    /// The current lesson's place among the lessons (0-based).
    pub fn lesson_index(&self) -> usize {
        self.lessons()
            .iter()
            .position(|l| l.id() == self.ui.lesson)
            .unwrap_or(0)
    }

    /// The Application the current lesson is about (its `lesson.yaml` says).
    pub fn lesson_app(&self) -> &str {
        self.current().map_or("", |l| l.spec.app.as_str())
    }

    /// The live panes that matter most in this lesson, most important first (Applications and
    /// the timeline when the lesson does not say).
    pub fn lesson_panes(&self) -> Vec<Pane> {
        let named: Vec<Pane> = self
            .current()
            .map(|l| l.spec.panes.iter().map(|p| Pane::named(*p)).collect())
            .unwrap_or_default();
        if named.is_empty() {
            vec![Pane::Apps, Pane::Timeline]
        } else {
            named
        }
    }

    /// Whether the values pane keeps the winning layer to itself: by hand, the lesson says
    /// "don't guess which wins", so it stays hidden until the lesson's evidence is written or
    /// the learner asks (`v`). Step mode has asked the room already, so it shows it.
    pub fn values_winner_hidden(&self) -> bool {
        if self.ui.values_revealed || self.stepping_here().is_some() {
            return false;
        }
        self.values_lesson()
            .and_then(|l| l.evidence_file())
            .is_some_and(|file| self.evidence_standing(file) == EvidenceStanding::Missing)
    }

    /// Step mode, when it steps through the lesson on screen (another lesson's is not shown).
    pub fn stepping_here(&self) -> Option<&StepMode> {
        self.run
            .step_mode
            .as_ref()
            .filter(|m| m.lesson == self.ui.lesson)
    }

    /// The pane step mode's narration tells the room to watch now: named by the action shown
    /// (or running), else by the last one before it that names one.
    pub fn watched_pane(&self) -> Option<Pane> {
        let m = self.stepping_here()?;
        let actions = &self.current()?.spec.actions;
        let shown = m.next.min(actions.len().checked_sub(1)?);
        actions[..=shown]
            .iter()
            .rev()
            .find_map(|a| a.watch)
            .map(Pane::named)
    }

    /// The plan the lesson on screen ran or runs (another lesson's is not shown).
    pub fn job_here(&self) -> Option<&JobView> {
        self.run.job.as_ref().filter(|j| j.lesson == self.ui.lesson)
    }

    /// The lesson whose Helm values the values pane traces: the current one, else the first
    /// that names some.
    fn values_lesson(&self) -> Option<&Lesson> {
        self.current()
            .filter(|l| l.spec.values.is_some())
            .or_else(|| self.lessons().iter().find(|l| l.spec.values.is_some()))
    }

    /// The Helm values the values pane traces.
    pub fn values_spec(&self) -> Option<&ValuesSpec> {
        self.values_lesson().and_then(|l| l.spec.values.as_ref())
    }

    /// The commands of the part of the lesson shown.
    pub fn snippets(&self) -> Vec<Snippet> {
        self.current()
            .map(|l| snippets(&l.text(self.lang()).section(self.ui.section)))
            .unwrap_or_default()
    }

    /// The command chosen for "type it for me", if it belongs to the part shown.
    pub fn selected_command(&self) -> Option<Snippet> {
        let (lesson, section, i) = self.ui.selected_snippet?;
        if (lesson, section) != (self.ui.lesson, self.ui.section) {
            return None;
        }
        self.snippets().into_iter().nth(i)
    }

    /// What is kept with the lab so reopening the tutor resumes here.
    pub fn progress(&self) -> Progress {
        let mut hints = self.lab.hints_by_lesson.clone();
        if self.current().is_some() {
            hints.insert(self.ui.lesson, self.ui.hints_shown);
        }
        Progress {
            lesson: self.current().map(Lesson::id),
            section: self.ui.section,
            hints,
            ticks: self.lab.ticks.clone(),
            grades: self.lab.grades.clone(),
            answers: self.lab.answers.clone(),
        }
    }

    /// Picks up where the learner was.
    pub fn resume(&mut self, p: Progress) {
        if let Some(id) = p
            .lesson
            .filter(|id| self.session.catalog.lesson(*id).is_some())
        {
            self.ui.lesson = id;
            self.ui.section = p.section;
        }
        self.ui.hints_shown = p.hints.get(&self.ui.lesson).copied().unwrap_or(0);
        self.lab.hints_by_lesson = p.hints;
        for (lesson, steps) in p.ticks {
            self.lab.ticks.entry(lesson).or_default().extend(steps);
        }
        for (file, grade) in p.grades {
            self.lab.grades.entry(file).or_insert(grade);
        }
        self.lab.answers.extend(p.answers);
    }

    /// The question the next action of step mode asks and no one has answered yet.
    pub fn pending_question(&self) -> Option<(String, &Question)> {
        let m = self.run.step_mode.as_ref().filter(|m| !m.running)?;
        let lesson = self.session.catalog.lesson(m.lesson)?;
        let ask = lesson.spec.actions.get(m.next)?.ask.as_ref()?;
        let key = answer_key(m.lesson, m.next);
        (!self.lab.answers.contains_key(&key)).then_some((key, ask))
    }

    /// The question step mode's last action answered (its index and the question), while the
    /// room reads the reveal: until the next action runs.
    pub fn answered_question(&self) -> Option<(usize, &Question)> {
        let m = self.run.step_mode.as_ref().filter(|m| !m.running)?;
        let lesson = self.session.catalog.lesson(m.lesson)?;
        let i = m.next.checked_sub(1)?;
        Some((i, lesson.spec.actions.get(i)?.ask.as_ref()?))
    }

    /// The Application the timeline shows: the one chosen with `a` in this lesson, else the
    /// lesson's.
    pub fn timeline_app(&self) -> &str {
        match &self.ui.selected_app {
            Some((lesson, app)) if *lesson == self.ui.lesson => app,
            _ => self.lesson_app(),
        }
    }

    /// The key (`namespace/Kind/name`) of the object whose managedFields are shown: the one
    /// chosen with `o` in this lesson, else the lesson's focus object.
    pub fn fields_object(&self) -> String {
        match &self.ui.selected_object {
            Some((lesson, key)) if *lesson == self.ui.lesson => key.clone(),
            _ => self
                .current()
                .and_then(|l| l.spec.focus.as_ref())
                .map(|f| f.key())
                .unwrap_or_default(),
        }
    }
}

/// Where an evidence file stands: what the Evidence pane, its strip and the lesson's verdict say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvidenceStanding {
    Missing,
    NotChecked,
    Passes,
    Fails,
}

/// How a prediction is kept: `lesson:action`, the action counted from 1.
pub fn answer_key(lesson: LessonId, action: usize) -> String {
    format!("{lesson}:{}", action + 1)
}

/// Builds a [`State`] for a test or a screenshot: each method sets one thing a scene needs, as
/// controller-rs's fixtures do, so tests never write the state's fields.
pub struct StateBuilder {
    state: State,
}

impl StateBuilder {
    pub fn new(catalog: Arc<Catalog>) -> StateBuilder {
        let target = Target::Embedded {
            url: "https://127.0.0.1:6443".into(),
            state: std::path::PathBuf::from("/tmp/capa-test"),
            served_by: None,
        };
        let mut state = State::new(catalog, Lang::FALLBACK, target);
        state.ui.theme = Theme::Default;
        state.session.tz = jiff::tz::TimeZone::UTC;
        StateBuilder { state }
    }

    pub fn lang(mut self, lang: Lang) -> Self {
        self.state.session.lang = lang;
        self
    }

    pub fn target(mut self, target: Target) -> Self {
        self.state.session.target = target;
        self
    }

    pub fn fit(mut self, fit: Fit) -> Self {
        self.state.session.fit = fit;
        self
    }

    pub fn tz(mut self, tz: jiff::tz::TimeZone) -> Self {
        self.state.session.tz = tz;
        self
    }

    pub fn theme(mut self, theme: Theme) -> Self {
        self.state.ui.theme = theme;
        self
    }

    /// On lesson `n` (its number), at its first part.
    pub fn lesson(mut self, n: u8) -> Self {
        self.state.ui.lesson = LessonId(n);
        self
    }

    pub fn section(mut self, section: Section) -> Self {
        self.state.ui.section = section;
        self
    }

    pub fn size(mut self, width: u16, height: u16) -> Self {
        self.state.ui.size = (width, height);
        self
    }

    pub fn focus(mut self, pane: Pane) -> Self {
        self.state.ui.focus = pane;
        self
    }

    pub fn zoom(mut self, zoom: bool) -> Self {
        self.state.ui.zoom = zoom;
        self
    }

    pub fn help(mut self, help: bool) -> Self {
        self.state.ui.help = help;
        self
    }

    pub fn present(mut self, present: bool) -> Self {
        self.state.ui.present = present;
        self
    }

    /// The wall clock as the watches last told it.
    pub fn now(mut self, now: jiff::Timestamp) -> Self {
        self.state.live.now = now;
        self
    }

    /// An Application as the watch would deliver it.
    pub fn app(mut self, json: &Value) -> Self {
        self.state.live.insert_app(json);
        self
    }

    /// A live object, by `namespace/Kind/name`.
    pub fn object(mut self, key: &str, json: Value) -> Self {
        self.state.live.objects.insert(key.into(), json);
        self
    }

    /// Every watch has listed: the panes show the cluster now.
    pub fn live(mut self) -> Self {
        let streams: Vec<_> = self.state.live.health.streams().cloned().collect();
        for s in streams {
            self.state.live.health.listed(&s);
        }
        self
    }

    pub fn grade(mut self, grade: Grade) -> Self {
        self.state.lab.grades.insert(grade.key(), grade);
        self
    }

    /// An evidence file there (written at the scene's clock) or not.
    pub fn evidence_present(mut self, file: &str, present: bool) -> Self {
        let at = present.then_some(self.state.live.now);
        self.state.lab.evidence.insert(file.into(), at);
        self
    }

    pub fn commit(mut self, sha: &str, subject: &str) -> Self {
        self.state.lab.commits.insert(sha.into(), subject.into());
        self
    }

    pub fn chart_values(mut self, file: &str, values: Value) -> Self {
        self.state.lab.chart_values.insert(file.into(), values);
        self
    }

    pub fn git(mut self, git: GitFacts) -> Self {
        self.state.lab.git = git;
        self
    }

    pub fn build(self) -> State {
        self.state
    }
}
