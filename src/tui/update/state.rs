//! Everything the tutor shows, in parts with one owner each: the session (which lab, in which
//! language), the screen (`ui`), the cluster as the watches last told it (`live`), the
//! learner's lab (`lab`), what runs for them (`run`) and the shell pane. Only `update` changes
//! it; views borrow the part they draw. Tests build it with [`StateBuilder`].

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::cluster::health::Health;
use crate::cluster::watch::lab_streams;
use crate::i18n::Lang;
use crate::lab::catalog::{Catalog, Lesson, Section};
pub use crate::lab::eval::ItemState;
use crate::lab::fit::Fit;
use crate::lab::progress::Progress;
use crate::session::Target;
use crate::tui::theme::Theme;

mod builder;
mod derived;
mod pane;
mod parts;
mod run;
mod shell;

pub use builder::StateBuilder;
pub use derived::{EvidenceStanding, WinnerHidden, answer_key};
pub use pane::{Pane, Reach};
pub use parts::{LabView, Live, Notice, Panes, Picks, Place, SessionView, Ui};
pub use run::{JobFailure, JobView, LogLine, PlanStep, Run, StepMode, StepState};
pub use shell::{
    SHELL_SCROLLBACK_LINES, ShellAbout, ShellClock, ShellStatus, ShellView, TallCommand,
};

/// Its parts are written only in `tui::update` (the compiler keeps it: the fields are that
/// module's); everything else reads them through the accessors below.
pub struct State {
    /// Counts the messages that changed something: the runtime draws a frame only when it
    /// moved, so an update that changes nothing on screen costs no frame.
    pub(in crate::tui::update) version: u64,
    pub(in crate::tui::update) session: SessionView,
    pub(in crate::tui::update) ui: Ui,
    pub(in crate::tui::update) live: Live,
    pub(in crate::tui::update) lab: LabView,
    pub(in crate::tui::update) run: Run,
    pub(in crate::tui::update) shell: ShellView,
}

/// What the tutor opens with, besides its lessons: set once, as the state is made, so nothing
/// outside `update` ever writes a field.
pub struct Opening {
    pub lang: Lang,
    pub target: Target,
    pub fit: Fit,
    pub clock: Option<crate::cluster::clock::FastClock>,
    /// Said first (a lab moved aside or taken over, lessons that came from the lab).
    pub notice: Option<Notice>,
    pub present: bool,
    pub theme: Theme,
    pub shell_about: ShellAbout,
    /// The progress kept with the lab, resumed.
    pub progress: Progress,
    /// Progress that did not read was kept here: said over everything else.
    pub progress_kept_aside: Option<std::path::PathBuf>,
    /// `--lesson`: opened on, whatever the progress says.
    pub lesson: Option<crate::lab::spec::LessonId>,
    /// The terminal's size, when known.
    pub size: Option<(u16, u16)>,
}

impl State {
    /// The state the tutor opens with.
    pub fn open(catalog: Arc<Catalog>, o: Opening) -> State {
        let mut s = State::new(catalog, o.lang, o.target);
        s.session.fit = o.fit;
        s.session.clock = o.clock;
        s.ui.notice = o.notice;
        (s.ui.present, s.ui.theme) = (o.present, o.theme);
        s.shell.about = o.shell_about;
        s.resume(o.progress);
        // Progress that did not read is said over everything else: it is the learner's work.
        if let Some(kept) = o.progress_kept_aside {
            s.ui.notice = Some(Notice::ProgressKeptAside(kept));
        }
        if let Some(lesson) = o.lesson {
            s.open_lesson(lesson);
        }
        if let Some(size) = o.size {
            s.ui.panes.size = size;
        }
        s
    }

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
                clock: None,
                replaying_at: None,
            },
            ui: Ui {
                place: Place {
                    lesson: first,
                    section: Section::Goal,
                    hints_shown: 0,
                    at_lesson_end: false,
                    lesson_chosen: false,
                },
                panes: Panes {
                    size: (80, 24),
                    focus: Pane::Lesson,
                    zoom: false,
                    scroll: BTreeMap::new(),
                    reach: BTreeMap::new(),
                    help: false,
                    help_scroll: 0,
                },
                picks: Picks {
                    selected_app: None,
                    selected_object: None,
                    selected_snippet: None,
                    follow_selection: false,
                },
                theme: Theme::from_env(),
                present: false,
                last_key: String::new(),
                raw: false,
                values_revealed: false,
                notice: None,
                confirm: None,
                quit: false,
            },
            live: Live {
                apps: BTreeMap::new(),
                objects: BTreeMap::new(),
                gone: BTreeMap::new(),
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

    /// How many messages changed something (the runtime draws when it moves).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Which lab, in which language, on which cluster.
    pub fn session(&self) -> &SessionView {
        &self.session
    }

    /// The screen: lesson, part, focus, scroll, size.
    pub fn ui(&self) -> &Ui {
        &self.ui
    }

    /// The cluster as the watches last told it.
    pub fn live(&self) -> &Live {
        &self.live
    }

    /// The learner's lab: checklists, grades, evidence, answers.
    pub fn lab(&self) -> &LabView {
        &self.lab
    }

    /// What runs for the learner: plans, step mode.
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// The shell pane.
    pub fn shell(&self) -> &ShellView {
        &self.shell
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

    pub fn current(&self) -> Option<&Lesson> {
        self.session.catalog.lesson(self.ui.place.lesson)
    }

    /// The current lesson's place among the lessons (0-based).
    pub fn lesson_index(&self) -> usize {
        self.lessons()
            .iter()
            .position(|l| l.id() == self.ui.place.lesson)
            .unwrap_or(0)
    }

    /// The Application the current lesson is about (its `lesson.yaml` says).
    pub fn lesson_app(&self) -> &str {
        self.current().map_or("", |l| l.spec.app.as_str())
    }

    /// The header's height: a second line says why the watches are stale.
    pub fn header_rows(&self) -> u16 {
        if self.live.health.any_stale() { 2 } else { 1 }
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
            .get(&self.ui.place.lesson)
            .is_some_and(|items| {
                items
                    .iter()
                    .any(|i| matches!(i, ItemState::Counting { .. }))
            })
    }

    /// What is kept with the lab so reopening the tutor resumes here.
    pub fn progress(&self) -> Progress {
        let mut hints = self.lab.hints_by_lesson.clone();
        if self.current().is_some() {
            hints.insert(self.ui.place.lesson, self.ui.place.hints_shown);
        }
        Progress {
            lesson: self.current().map(Lesson::id),
            section: self.ui.place.section,
            hints,
            ticks: self.lab.ticks.clone(),
            grades: self.lab.grades.clone(),
            answers: self.lab.answers.clone(),
        }
    }

    /// Opens on `lesson`, at its first part, as chosen (`--lesson`).
    pub(in crate::tui::update) fn open_lesson(&mut self, lesson: crate::lab::spec::LessonId) {
        self.ui.place.hints_shown = self.lab.hints_by_lesson.get(&lesson).copied().unwrap_or(0);
        self.ui.place.lesson = lesson;
        self.ui.place.section = crate::lab::catalog::Section::Goal;
        self.ui.place.lesson_chosen = true;
    }

    /// Picks up where the learner was.
    pub(in crate::tui::update) fn resume(&mut self, p: Progress) {
        if let Some(id) = p
            .lesson
            .filter(|id| self.session.catalog.lesson(*id).is_some())
        {
            self.ui.place.lesson = id;
            self.ui.place.section = p.section;
            self.ui.place.lesson_chosen = true;
        }
        self.ui.place.hints_shown = p.hints.get(&self.ui.place.lesson).copied().unwrap_or(0);
        self.lab.hints_by_lesson = p.hints;
        for (lesson, steps) in p.ticks {
            self.lab.ticks.entry(lesson).or_default().extend(steps);
        }
        for (file, grade) in p.grades {
            self.lab.grades.entry(file).or_insert(grade);
        }
        self.lab.answers.extend(p.answers);
    }
}
