//! Moving through the lesson and the panes: parts and lessons (PgDn/PgUp, n/p), scrolling the
//! focused pane, the pane under the mouse wheel, and the help.

use super::{DrawnMsg, State, shell};
use crate::lab::catalog::Section;
use crate::lab::spec::LessonId;
use crate::tui::keymap::Action;
use crate::tui::layout;
use crate::tui::state::Pane;

/// What the last frame drew: how far each pane can scroll (a scroll past it is brought back),
/// and where the lesson pane was drawn from.
pub(super) fn on_drawn(s: &mut State, drawn: DrawnMsg) {
    match drawn {
        DrawnMsg::LessonShownAt(at) => {
            s.ui.panes.scroll.insert(Pane::Lesson, at);
        }
        DrawnMsg::ScrollLimits(limits) => {
            for (pane, reach) in &limits {
                if let Some(at) = s.ui.panes.scroll.get_mut(pane) {
                    *at = (*at).min(reach.max);
                }
            }
            s.ui.panes.reach = limits;
        }
    }
}

/// ↑/↓/PgUp/PgDn/Home/End while the help is open scroll it.
pub(super) fn scroll_help(s: &mut State, action: Action) {
    let lines = i32::try_from(2 * crate::tui::keymap::BINDINGS.len()).unwrap_or(i32::MAX);
    let by = match action {
        Action::ScrollUp => -1,
        Action::ScrollDown => 1,
        Action::PrevSection => -10,
        Action::NextSection => 10,
        Action::ScrollTop => -lines,
        Action::ScrollBottom => lines,
        _ => 0,
    };
    let to = (i32::from(s.ui.panes.help_scroll) + by).clamp(0, lines);
    s.ui.panes.help_scroll = u16::try_from(to).unwrap_or(0);
}

/// Through the lesson: a page at a time within a part taller than the pane (as a reader
/// pages), then to the next or previous part, then lesson.
pub(super) fn navigate(s: &mut State, action: Action) {
    if page_within_part(s, action) {
        return;
    }
    let here = s.lesson_index();
    let lessons: Vec<LessonId> = s.lessons().iter().map(|l| l.id()).collect();
    let at = |i: usize| lessons.get(i).copied();
    // The last part's PgDn first says which lesson comes next; the next PgDn goes there.
    let stopped = std::mem::take(&mut s.ui.place.at_lesson_end);
    let (lesson, section) = match action {
        Action::NextSection => match s.ui.place.section.next() {
            Some(next) => (Some(s.ui.place.lesson), next),
            None if !stopped => {
                // Said below the part's last line: the pane goes to its (new) end.
                s.ui.place.at_lesson_end = true;
                s.ui.panes.scroll.insert(Pane::Lesson, u16::MAX);
                return;
            }
            None => (at(here + 1), Section::Goal),
        },
        Action::PrevSection => match s.ui.place.section.prev() {
            Some(prev) => (Some(s.ui.place.lesson), prev),
            None => (here.checked_sub(1).and_then(at), Section::LAST),
        },
        Action::NextLesson => (at(here + 1), Section::Goal),
        Action::PrevLesson => (here.checked_sub(1).and_then(at), Section::Goal),
        _ => return,
    };
    let Some(lesson) = lesson else {
        return;
    };
    s.ui.place.lesson_chosen = true;
    go_to(s, lesson, section);
    // Paging back lands on the previous part's last page, as a reader turning back would.
    if action == Action::PrevSection {
        s.ui.panes.scroll.insert(Pane::Lesson, u16::MAX);
    }
}

/// PgDn/PgUp move the lesson pane a page (keeping one line of the last page in view) while the
/// part goes on beyond it; `false` at the part's end, where they turn the part instead.
fn page_within_part(s: &mut State, action: Action) -> bool {
    let reach =
        s.ui.panes
            .reach
            .get(&Pane::Lesson)
            .copied()
            .unwrap_or_default();
    let at = (s.ui.panes.scroll.get(&Pane::Lesson).copied().unwrap_or(0)).min(reach.max);
    let page = reach.page.saturating_sub(1).max(1);
    let to = match action {
        // The end of the lesson was said: the next PgDn goes on to the next lesson.
        Action::NextSection if s.ui.place.at_lesson_end => return false,
        Action::NextSection if at < reach.max => at.saturating_add(page).min(reach.max),
        Action::PrevSection if at > 0 => at.saturating_sub(page),
        _ => return false,
    };
    s.ui.picks.follow_selection = false;
    s.ui.place.at_lesson_end = false;
    s.ui.panes.scroll.insert(Pane::Lesson, to);
    true
}

/// `section` of `lesson` on screen, with that lesson's hints shown and the pane at its top.
pub(super) fn go_to(s: &mut State, lesson: LessonId, section: Section) {
    if lesson != s.ui.place.lesson {
        s.lab
            .hints_by_lesson
            .insert(s.ui.place.lesson, s.ui.place.hints_shown);
        s.ui.place.hints_shown = s.lab.hints_by_lesson.get(&lesson).copied().unwrap_or(0);
    }
    if (lesson, section) != (s.ui.place.lesson, s.ui.place.section) {
        s.ui.panes.scroll.remove(&Pane::Lesson);
    }
    (s.ui.place.lesson, s.ui.place.section) = (lesson, section);
}

/// ↑/↓/Home/End on the focused pane (the shell scrolls back through its own output).
pub(super) fn scroll_focused(s: &mut State, action: Action) {
    if s.ui.panes.focus == Pane::Lesson {
        s.ui.picks.follow_selection = false;
    }
    match (s.ui.panes.focus, action) {
        (Pane::Shell, Action::ScrollUp) => shell::scroll(s, true, 1),
        (Pane::Shell, Action::ScrollDown) => shell::scroll(s, false, 1),
        (pane, Action::ScrollUp) => scroll_by(s, pane, -1),
        (pane, Action::ScrollDown) => scroll_by(s, pane, 1),
        (pane, Action::ScrollTop) => {
            s.ui.panes.scroll.insert(pane, 0);
        }
        (pane, _) => {
            let max = s.ui.panes.reach.get(&pane).map_or(0, |r| r.max);
            s.ui.panes.scroll.insert(pane, max);
        }
    }
}

/// The mouse wheel scrolls the pane under it, three lines a notch.
pub(super) fn wheel(s: &mut State, (column, row): (u16, u16), up: bool) {
    let under = layout::pane_at(s, column, row);
    if under == Some(Pane::Lesson) {
        s.ui.picks.follow_selection = false;
    }
    match under {
        Some(Pane::Shell) => shell::scroll(s, up, 3),
        Some(pane) => scroll_by(s, pane, if up { -3 } else { 3 }),
        None => {}
    }
}

/// Scrolls a pane by `lines` (up when negative), within what it holds.
fn scroll_by(s: &mut State, pane: Pane, lines: i32) {
    let max = s.ui.panes.reach.get(&pane).map_or(0, |r| r.max);
    let at = i32::from(s.ui.panes.scroll.get(&pane).copied().unwrap_or(0));
    let to = (at + lines).clamp(0, i32::from(max));
    s.ui.panes
        .scroll
        .insert(pane, u16::try_from(to).unwrap_or(0));
}

/// The item after `current` in `items`, wrapping around (the first when `current` is absent).
pub(super) fn next_after<T: PartialEq + Clone>(items: &[T], current: Option<&T>) -> Option<T> {
    let i = items
        .iter()
        .position(|x| Some(x) == current)
        .map_or(0, |i| (i + 1) % items.len().max(1));
    items.get(i).cloned()
}
