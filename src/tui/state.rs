//! Everything the tutor shows, in one place. Only `update` changes it; views borrow it.

use std::collections::BTreeMap;
use std::time::Instant;

use strum::{EnumCount, EnumIter, FromRepr};

use serde_json::Value;

use super::theme::Theme;
use crate::cluster::Application;
use crate::cluster::health::Health;
use crate::cluster::problem::Problem;
use crate::cluster::watch::lab_streams;
use crate::lab::catalog::{Lang, Lesson, Section};
use crate::lab::check::Grade;
use crate::lab::checklist::GitFacts;
use crate::lab::fit::Fit;
use crate::lab::progress::Progress;
use crate::lab::snippets::{Snippet, snippets};
use crate::lab::spec::ValuesSpec;

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
    pub fn short_title(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::Zh, Pane::Lesson) => "课程",
            (Lang::Zh, Pane::Shell) => "终端",
            (Lang::Zh, Pane::Apps) => "应用",
            (Lang::Zh, Pane::Timeline) => "时间线",
            (Lang::Zh, Pane::Fields) => "字段归属",
            (Lang::Zh, Pane::Values) => "取值",
            (Lang::Zh, Pane::Evidence) => "证据",
            (Lang::En, Pane::Lesson) => "Lesson",
            (Lang::En, Pane::Shell) => "Shell",
            (Lang::En, Pane::Apps) => "Apps",
            (Lang::En, Pane::Timeline) => "Timeline",
            (Lang::En, Pane::Fields) => "Fields",
            (Lang::En, Pane::Values) => "Values",
            (Lang::En, Pane::Evidence) => "Evidence",
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

    pub fn title(self, lang: Lang) -> &'static str {
        if lang == Lang::Zh {
            return match self {
                Pane::Lesson => "课程",
                Pane::Shell => "终端",
                Pane::Apps => "Applications",
                Pane::Timeline => "同步时间线",
                Pane::Fields => "managedFields（字段归属）",
                Pane::Values => "取值来源",
                Pane::Evidence => "证据",
            };
        }
        match self {
            Pane::Lesson => "Lesson",
            Pane::Shell => "Shell",
            Pane::Apps => "Applications",
            Pane::Timeline => "Sync timeline",
            Pane::Fields => "managedFields",
            Pane::Values => "Values provenance",
            Pane::Evidence => "Evidence",
        }
    }
}

/// A presenter running a lesson's plan one action at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct StepMode {
    pub lesson: u8,
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
    Failed(String),
}

/// The shell pane: the terminal screen the shell's output draws on, and whether keys go to it.
pub struct ShellView {
    pub screen: vt100::Parser,
    pub status: ShellStatus,
    /// Keys go to the shell (the pane is focused and the learner has not pressed Ctrl-]).
    pub typing: bool,
    /// Where it starts and what it is connected to, for the pane's first words.
    pub about: String,
    /// A command waiting for the shell to be ready ("type it for me" on a shell just started).
    pub pending_input: Option<String>,
    /// Keys pressed while that command waits: they follow it, in order.
    pub pending_keys: Vec<u8>,
    /// The shell has drawn its prompt at least once.
    pub seen_prompt: bool,
}

impl ShellView {
    fn new() -> ShellView {
        ShellView {
            screen: vt100::Parser::new(24, 80, SHELL_SCROLLBACK_LINES),
            status: ShellStatus::NotStarted,
            typing: false,
            about: String::new(),
            pending_input: None,
            pending_keys: Vec::new(),
            seen_prompt: false,
        }
    }

    pub fn running(&self) -> bool {
        self.status == ShellStatus::Running
    }
}

/// Something the learner asked for and could not have, said until the next key.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// `action` needs the cluster, which does not answer: why, and since when.
    ClusterUnreachable {
        action: super::keymap::Action,
        problem: Problem,
        since: Option<jiff::Timestamp>,
    },
}

/// A plan being run for the learner, as the lesson pane shows it.
#[derive(Debug, Clone)]
pub struct JobView {
    pub lesson: u8,
    pub steps: Vec<PlanStep>,
    pub blocker: String,
    pub log: Vec<String>,
    pub started: Instant,
    pub finished: Option<Result<(), String>>,
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

pub struct State {
    pub lessons: Vec<Lesson>,
    pub lesson: usize,
    pub section: Section,
    pub hints_shown: usize,
    pub lang: Lang,
    pub theme: Theme,
    pub focus: Pane,
    pub zoom: bool,
    pub help: bool,
    pub raw: bool,
    pub quit: bool,
    /// What the tutor is connected to (and `SIM` for the embedded cluster).
    pub target: String,
    pub sim: bool,
    /// Each watch's health: which panes show the cluster as it is now.
    pub health: Health,
    /// The wall clock as last told (by a watch or the once-a-second tick while something is
    /// stale), so drawing never reads the clock.
    pub now: jiff::Timestamp,
    /// Where clock times are shown in.
    pub tz: jiff::tz::TimeZone,
    /// Said over the screen until the next key.
    pub notice: Option<Notice>,
    /// Self-checks asked for by changed evidence while the cluster was not live: run once it is.
    pub deferred_checks: std::collections::BTreeSet<u8>,
    pub size: (u16, u16),
    /// Applications in `argocd`, by name.
    pub apps: BTreeMap<String, Application>,
    /// Live lab objects the panes read, by `namespace/kind/name`.
    pub objects: BTreeMap<String, Value>,
    /// Chart values from the learner's working copy: file name → values.
    pub chart_values: BTreeMap<String, Value>,
    /// Commit subjects by full SHA, from the learner's working copy.
    pub commits: BTreeMap<String, String>,
    pub job: Option<JobView>,
    /// The Application the timeline shows (`a` cycles); the lesson's when unset.
    pub selected_app: Option<String>,
    /// The object whose managedFields are shown (`o` cycles); the lesson's focus when unset.
    pub selected_object: Option<String>,
    pub grades: BTreeMap<String, Grade>,
    /// Lesson text and commands filled in for where the learner is.
    pub fit: Fit,
    pub shell: ShellView,
    /// Each Application's `spec` as JSON, for checklist steps that ask about any field.
    pub app_specs: BTreeMap<String, Value>,
    /// What the bare repos and the working copy hold.
    pub git: GitFacts,
    /// Hints shown in other lessons, as progress kept them.
    pub hints_by_lesson: BTreeMap<u8, usize>,
    /// Checklist steps done: lesson number → step index → when it was first seen done.
    pub ticks: BTreeMap<u8, BTreeMap<usize, jiff::Timestamp>>,
    /// Predictions made in step mode: `lesson:action` (1-based) → the choice.
    pub answers: BTreeMap<String, String>,
    /// Step mode, while a presenter steps through a lesson's plan.
    pub step_mode: Option<StepMode>,
    /// Presenting to a room: the projector theme, fewer and larger panes, and the last key
    /// pressed shown in the footer.
    pub present: bool,
    /// The last key pressed, for the room to see (`--present`).
    pub last_key: String,
    /// A lesson's plan shown before it changes a cluster other than the embedded one, waiting
    /// for y (or Enter) to go ahead or n (or Esc) to leave everything as it is.
    pub confirm: Option<u8>,
    /// How far each pane is scrolled down, in lines.
    pub scroll: BTreeMap<Pane, u16>,
    /// How far each pane can scroll, as last drawn (the runtime reports it after each frame).
    pub scroll_max: BTreeMap<Pane, u16>,
    /// The command chosen for "type it for me": (lesson, part, index among its commands).
    pub selected_snippet: Option<(usize, Section, usize)>,
    pub evidence_present: BTreeMap<String, bool>,
}

impl State {
    pub fn new(lessons: Vec<Lesson>, lang: Lang, target: String, sim: bool) -> State {
        let health = Health::new(lab_streams(&crate::lab::catalog::lab_namespaces(&lessons)));
        State {
            lessons,
            lesson: 0,
            section: Section::Goal,
            hints_shown: 0,
            lang,
            theme: Theme::from_env(),
            focus: Pane::Lesson,
            zoom: false,
            help: false,
            raw: false,
            quit: false,
            target,
            sim,
            health,
            now: jiff::Timestamp::now(),
            tz: jiff::tz::TimeZone::system(),
            notice: None,
            deferred_checks: std::collections::BTreeSet::new(),
            size: (80, 24),
            apps: BTreeMap::new(),
            objects: BTreeMap::new(),
            chart_values: BTreeMap::new(),
            commits: BTreeMap::new(),
            job: None,
            selected_app: None,
            selected_object: None,
            grades: BTreeMap::new(),
            fit: Fit::lab_vm(),
            shell: ShellView::new(),
            selected_snippet: None,
            confirm: None,
            step_mode: None,
            answers: BTreeMap::new(),
            present: false,
            last_key: String::new(),
            scroll: BTreeMap::new(),
            scroll_max: BTreeMap::new(),
            app_specs: BTreeMap::new(),
            git: GitFacts::default(),
            ticks: BTreeMap::new(),
            hints_by_lesson: BTreeMap::new(),
            evidence_present: BTreeMap::new(),
        }
    }

    /// Something on screen moves with the clock: a stale watch's age or a running plan's
    /// elapsed time. Only then does the tutor redraw once a second; otherwise it sits idle.
    pub fn clock_running(&self) -> bool {
        let stepping_idle = self.step_mode.as_ref().is_some_and(|m| !m.running);
        let plan_running =
            self.job.as_ref().is_some_and(|j| j.finished.is_none()) && !stepping_idle;
        // A stream that never loaded shows no age, so nothing moves for it.
        plan_running || self.health.oldest().is_some()
    }

    /// The header's height: a second line says why the watches are stale.
    pub fn header_rows(&self) -> u16 {
        if self.health.any_stale() { 2 } else { 1 }
    }

    pub fn current(&self) -> Option<&Lesson> {
        self.lessons.get(self.lesson)
    }

    /// The Application the current lesson is about (its `lesson.yaml` says).
    pub fn lesson_app(&self) -> &str {
        self.current().map_or("", |l| l.spec.app.as_str())
    }

    /// The live panes that matter most in this lesson, most important first (Applications and
    /// the timeline when the lesson does not say).
    pub fn lesson_panes(&self) -> Vec<Pane> {
        use crate::lab::spec::PaneName;
        let named: Vec<Pane> = self
            .current()
            .map(|l| {
                l.spec
                    .panes
                    .iter()
                    .map(|p| match p {
                        PaneName::Apps => Pane::Apps,
                        PaneName::Timeline => Pane::Timeline,
                        PaneName::Fields => Pane::Fields,
                        PaneName::Values => Pane::Values,
                        PaneName::Evidence => Pane::Evidence,
                    })
                    .collect()
            })
            .unwrap_or_default();
        if named.is_empty() {
            vec![Pane::Apps, Pane::Timeline]
        } else {
            named
        }
    }

    /// The Helm values the values pane traces: the current lesson's, else the first lesson's
    /// that names some.
    pub fn values_spec(&self) -> Option<&ValuesSpec> {
        self.current()
            .and_then(|l| l.spec.values.as_ref())
            .or_else(|| self.lessons.iter().find_map(|l| l.spec.values.as_ref()))
    }

    /// The commands of the part of the lesson shown.
    pub fn snippets(&self) -> Vec<Snippet> {
        self.current()
            .map(|l| snippets(&l.text(self.lang).section(self.section)))
            .unwrap_or_default()
    }

    /// The command chosen for "type it for me", if it belongs to the part shown.
    pub fn selected_command(&self) -> Option<Snippet> {
        let (lesson, section, i) = self.selected_snippet?;
        if (lesson, section) != (self.lesson, self.section) {
            return None;
        }
        self.snippets().into_iter().nth(i)
    }

    /// What is kept with the lab so reopening the tutor resumes here.
    pub fn progress(&self) -> Progress {
        let mut hints = self.hints_by_lesson.clone();
        if let Some(l) = self.current() {
            hints.insert(l.spec.number, self.hints_shown);
        }
        Progress {
            lesson: self.current().map(|l| l.spec.number),
            section: self.section,
            hints,
            ticks: self.ticks.clone(),
            grades: self.grades.clone(),
            answers: self.answers.clone(),
        }
    }

    /// Picks up where the learner was.
    pub fn resume(&mut self, p: Progress) {
        if let Some(i) = p
            .lesson
            .and_then(|n| self.lessons.iter().position(|l| l.spec.number == n))
        {
            self.lesson = i;
            self.section = p.section;
        }
        self.hints_shown = self
            .current()
            .and_then(|l| p.hints.get(&l.spec.number).copied())
            .unwrap_or(0);
        self.hints_by_lesson = p.hints;
        for (lesson, steps) in p.ticks {
            self.ticks.entry(lesson).or_default().extend(steps);
        }
        for (file, grade) in p.grades {
            self.grades.entry(file).or_insert(grade);
        }
        self.answers.extend(p.answers);
    }

    /// The question the next action of step mode asks and no one has answered yet.
    pub fn pending_question(&self) -> Option<(String, &crate::lab::spec::Question)> {
        let m = self.step_mode.as_ref().filter(|m| !m.running)?;
        let lesson = self.lessons.iter().find(|l| l.spec.number == m.lesson)?;
        let ask = lesson.spec.actions.get(m.next)?.ask.as_ref()?;
        let key = answer_key(m.lesson, m.next);
        (!self.answers.contains_key(&key)).then_some((key, ask))
    }

    /// The Application the timeline shows.
    pub fn timeline_app(&self) -> &str {
        self.selected_app
            .as_deref()
            .unwrap_or_else(|| self.lesson_app())
    }

    /// The key (`namespace/Kind/name`) of the object whose managedFields are shown: the one
    /// chosen with `o`, else the lesson's focus object.
    pub fn fields_object(&self) -> String {
        self.selected_object.clone().unwrap_or_else(|| {
            self.current()
                .and_then(|l| l.spec.focus.as_ref())
                .map(|f| f.key())
                .unwrap_or_default()
        })
    }

    pub fn object(&self, ns: &str, kind: &str, name: &str) -> Option<&Value> {
        self.objects.get(&format!("{ns}/{kind}/{name}"))
    }
}

/// How a prediction is kept: `lesson:action`, the action counted from 1.
pub fn answer_key(lesson: u8, action: usize) -> String {
    format!("{lesson}:{}", action + 1)
}
