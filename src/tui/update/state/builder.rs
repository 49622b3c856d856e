//! [`StateBuilder`]: the state a test or a screenshot needs, one setting a call, so no test
//! writes the state's fields.

use std::sync::Arc;

use serde_json::Value;

use super::{Pane, State};
use crate::i18n::Lang;
use crate::lab::catalog::{Catalog, Section};
use crate::lab::eval::GitFacts;
use crate::lab::eval::check::Grade;
use crate::lab::fit::Fit;
use crate::lab::spec::LessonId;
use crate::session::Target;
use crate::tui::theme::Theme;

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
        self.state.ui.place.lesson = LessonId(n);
        self.state.ui.place.lesson_chosen = true;
        self
    }

    pub fn section(mut self, section: Section) -> Self {
        self.state.ui.place.section = section;
        self
    }

    pub fn size(mut self, width: u16, height: u16) -> Self {
        self.state.ui.panes.size = (width, height);
        self
    }

    pub fn focus(mut self, pane: Pane) -> Self {
        self.state.ui.panes.focus = pane;
        self
    }

    pub fn zoom(mut self, zoom: bool) -> Self {
        self.state.ui.panes.zoom = zoom;
        self
    }

    pub fn help(mut self, help: bool) -> Self {
        self.state.ui.panes.help = help;
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

    /// A live object.
    pub fn object(mut self, key: crate::cluster::ObjectKey, json: Value) -> Self {
        self.state.live.objects.insert(key, json);
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

    /// The notice over the screen, as the runtime puts it there at start.
    pub fn notice(mut self, notice: super::Notice) -> Self {
        self.state.ui.notice = Some(notice);
        self
    }

    pub fn build(self) -> State {
        self.state
    }
}
