//! How `update` turns keys and messages into state and effects, without a terminal: the
//! helpers every test here shares, and the tests by what they drive.

use super::*;
use crate::i18n::{Lang, Say};
use crate::lab::catalog::{Catalog, Section};
use crate::lab::engine::Progress;
use crate::lab::spec::LessonId;
use crate::tui::state::{JobView, Pane, PlanStep, ShellStatus, StateBuilder, StepState};
use crate::tui::update::InputMsg;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers};
use strum::EnumCount;

mod checklists;
mod holds;
mod keys;
mod plans;
mod plans_on_screen;
mod shell_pane;

fn catalog() -> std::sync::Arc<Catalog> {
    std::sync::Arc::new(Catalog::embedded().unwrap())
}

fn builder() -> StateBuilder {
    State::builder(catalog())
}

fn state() -> State {
    builder().build()
}

const L: fn(u8) -> LessonId = LessonId;

fn key(s: &mut State, code: KeyCode) -> Vec<Effect> {
    update(s, Msg::Input(InputMsg::Key(KeyEvent::from(code))))
}
