//! A recording given to `update` again: the tutor's state as it stood at any moment of the
//! recorded session, in the watcher's language and at the watcher's size. No terminal here:
//! the player and the cast export draw what it holds.

use std::sync::Arc;

use super::recording::Recording;
use crate::i18n::Lang;
use crate::lab::catalog::{Catalog, CatalogError};
use crate::tui::state::{Opening, State};
use crate::tui::theme::Theme;
use crate::tui::update::{InputMsg, JobMsg, LabMsg, Msg, ReplayMsg, update};

/// Who watches the replay, and how.
#[derive(Debug, Clone, Copy)]
pub struct Watching {
    pub lang: Lang,
    pub present: bool,
    pub theme: Theme,
    /// The size the tutor is drawn at.
    pub size: (u16, u16),
}

/// A recording and the state built from it so far.
pub struct Replay {
    recording: Recording,
    /// The messages a step stops at: the learner's keys, a plan's steps and end, grades.
    moments: Vec<usize>,
    catalog: Arc<Catalog>,
    watching: Watching,
    state: State,
    /// The messages given so far: `recording.messages[..next]`.
    next: usize,
    /// The recorded time on show, in seconds since the recording began.
    at: f64,
}

/// The messages a step stops at: something the learner did, a plan's step beginning or ending,
/// and a verdict that changed (not each object a watch saw, what a step waits on, or the same
/// verdict checked again).
fn moments(messages: &[(f64, Msg)]) -> Vec<usize> {
    use crate::lab::engine::Progress;
    let mut verdicts = std::collections::BTreeMap::new();
    let mut moments = Vec::new();
    for (i, (_, msg)) in messages.iter().enumerate() {
        let moment = match msg {
            Msg::Input(InputMsg::Key(_)) | Msg::Job(JobMsg::Ended(_)) => true,
            Msg::Job(JobMsg::Progress(p)) => !matches!(p, Progress::Blocker { .. }),
            Msg::Lab(LabMsg::Graded(grades)) => {
                grades
                    .iter()
                    .filter(|g| verdicts.insert(g.key(), g.passed()) != Some(g.passed()))
                    .count()
                    > 0
            }
            _ => false,
        };
        if moment {
            moments.push(i);
        }
    }
    moments
}

impl Replay {
    /// The recording, opened as the recorded tutor opened, for `watching`.
    pub fn new(recording: Recording, watching: Watching) -> Result<Replay, CatalogError> {
        let catalog = Arc::new(Catalog::from_source(recording.header.catalog.clone())?);
        let moments = moments(&recording.messages);
        let state = opened(&recording, &catalog, watching);
        Ok(Replay {
            recording,
            moments,
            catalog,
            watching,
            state,
            next: 0,
            at: 0.0,
        })
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn header(&self) -> &super::Header {
        &self.recording.header
    }

    /// The recorded time on show, in seconds.
    pub fn at(&self) -> f64 {
        self.at
    }

    /// How long the recording runs, in seconds.
    pub fn duration(&self) -> f64 {
        self.recording.messages.last().map_or(0.0, |(t, _)| *t)
    }

    /// Every message has been given.
    pub fn ended(&self) -> bool {
        self.next >= self.recording.messages.len()
    }

    /// (the moments shown so far, all the moments).
    pub fn moments(&self) -> (usize, usize) {
        (self.shown(), self.moments.len())
    }

    /// How many moments have been given (`moments` is in the recording's order).
    fn shown(&self) -> usize {
        self.moments.partition_point(|&i| i < self.next)
    }

    /// When the next message is due, in recorded seconds.
    pub fn next_at(&self) -> Option<f64> {
        self.recording.messages.get(self.next).map(|(t, _)| *t)
    }

    /// Gives the next message to the state; its time, or `None` when there is none.
    pub fn apply_next(&mut self) -> Option<f64> {
        let (t, msg) = self.recording.messages.get(self.next)?.clone();
        self.next += 1;
        self.at = self.at.max(t);
        let recorded = self.recording.header.size;
        let same_size = recorded == self.watching.size;
        match msg {
            // The watcher's terminal has its own size; a click lands where the recorded layout
            // was, so it is given only on a screen laid out the same.
            Msg::Input(InputMsg::Resize(..)) => {}
            Msg::Input(InputMsg::Click { .. } | InputMsg::Wheel { .. }) if !same_size => {}
            msg => {
                let at = self.moment(t);
                update(&mut self.state, Msg::Replaying(ReplayMsg::At(at)));
                update(&mut self.state, msg);
                // The recorded `L` does not choose for the watcher.
                if self.state.lang() != self.watching.lang {
                    update(
                        &mut self.state,
                        Msg::Replaying(ReplayMsg::Lang(self.watching.lang)),
                    );
                }
            }
        }
        Some(t)
    }

    /// The wall's time at `t` seconds into the recording.
    fn moment(&self, t: f64) -> jiff::Timestamp {
        let micros = (t * 1e6).round();
        // A recording is hours at most: the cast to i64 cannot overflow.
        #[allow(clippy::cast_possible_truncation)]
        let span = jiff::SignedDuration::from_micros(micros as i64);
        self.recording
            .header
            .started
            .checked_add(span)
            .unwrap_or(self.recording.header.started)
    }

    /// Shows the recording as it stood `to` seconds in (from the start again when that is
    /// before what is shown: the state is only ever built forwards, as it was).
    pub fn seek(&mut self, to: f64) {
        let to = to.clamp(0.0, self.duration());
        if to < self.at {
            self.state = opened(&self.recording, &self.catalog, self.watching);
            (self.next, self.at) = (0, 0.0);
        }
        while self.next_at().is_some_and(|t| t <= to) {
            self.apply_next();
        }
        self.at = to;
        let at = self.moment(to);
        update(&mut self.state, Msg::Replaying(ReplayMsg::At(at)));
    }

    /// On to the next moment (a key, a plan's step, a grade), or the end.
    pub fn step(&mut self) {
        let to = self
            .moments
            .get(self.shown())
            .map_or(self.duration(), |&i| self.recording.messages[i].0);
        self.seek(to);
    }

    /// Back to the moment before the one shown last, or the start.
    pub fn step_back(&mut self) {
        let to = match self.shown() {
            0 | 1 => 0.0,
            n => self.recording.messages[self.moments[n - 2]].0,
        };
        self.seek(to);
    }

    /// Watched in `lang` from now on (every line is said when drawn: nothing runs again).
    pub fn set_lang(&mut self, lang: Lang) {
        self.watching.lang = lang;
        update(&mut self.state, Msg::Replaying(ReplayMsg::Lang(lang)));
    }

    /// The watcher's tutor area is `size` now.
    pub fn resize(&mut self, size: (u16, u16)) {
        self.watching.size = size;
        update(
            &mut self.state,
            Msg::Input(InputMsg::Resize(size.0, size.1)),
        );
    }

    /// What a frame drew goes back into the state (how far each pane scrolls), as the tutor's
    /// runtime does after each frame.
    pub fn after_frame(&mut self, frame: crate::tui::view::Frame) {
        crate::tui::runtime::after_frame(&mut self.state, frame);
    }

    pub fn watching(&self) -> Watching {
        self.watching
    }
}

/// The state the recorded tutor opened with, for `watching`.
fn opened(recording: &Recording, catalog: &Arc<Catalog>, watching: Watching) -> State {
    let o = &recording.header.opened;
    let opening = Opening {
        lang: watching.lang,
        target: o.target.clone(),
        fit: o.fit.clone(),
        clock: o.clock.clone(),
        notice: None,
        present: watching.present,
        theme: watching.theme,
        shell_about: o.shell_about.clone(),
        progress: o.progress.clone(),
        progress_kept_aside: None,
        lesson: o.lesson,
        size: Some(watching.size),
    };
    let mut state = State::open(catalog.clone(), opening);
    update(
        &mut state,
        Msg::Replaying(ReplayMsg::At(recording.header.started)),
    );
    update(&mut state, Msg::Tick(recording.header.started));
    state
}
