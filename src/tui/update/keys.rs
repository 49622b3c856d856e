//! A key press (never a release) after the notice, the shell, a confirmation and a prediction
//! have had their turn: what the keymap binds it to, done to the state; presenting, the key is
//! kept for the room to see.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};

use super::{Effect, navigate, plan, shell, snippet, watch};
use crate::cluster::ObjectKey;
use crate::lab::catalog::Section;
use crate::lab::spec::LessonId;
use crate::tui::keymap::{Action, action_for};
use crate::tui::state::{Notice, Pane, State};

pub(super) fn on_key(s: &mut State, key: KeyEvent) -> Vec<Effect> {
    let shown = (s.ui.place.lesson, s.ui.place.section);
    // Every move to another part goes through `navigate::go_to`, which starts it at its top.
    let effects = on_key_inner(s, key);
    // Step mode belongs to its lesson: leaving the lesson leaves it (unless an action runs).
    if s.ui.place.lesson != shown.0 && s.run.step_mode.as_ref().is_some_and(|m| !m.running) {
        plan::leave_step_mode(s);
    }
    effects
}

fn on_key_inner(s: &mut State, key: KeyEvent) -> Vec<Effect> {
    // Presenter clickers and terminals may send releases and repeats: act on presses only.
    if key.kind != KeyEventKind::Press {
        return Vec::new();
    }
    // A notice is read, then any key puts it away; asked whether to quit mid-plan, quit again
    // quits.
    if let Some(notice) = s.ui.notice.take() {
        if matches!(notice, Notice::QuitWhilePlanRuns { .. })
            && action_for(&key) == Some(Action::Quit)
        {
            return quit(s);
        }
        return Vec::new();
    }
    // While the learner types into the shell, every key is the shell's but Ctrl-].
    if s.ui.panes.focus == Pane::Shell && s.shell.typing && !s.ui.panes.help {
        return shell::on_key(s, &key);
    }
    if s.ui.present {
        s.ui.last_key = key_label(&key);
    }
    if let Some(lesson) = s.ui.confirm {
        return confirm_key(s, lesson, &key);
    }
    // A prediction is asked: a digit answers it.
    if let (Some((answer, ask)), KeyCode::Char(c)) = (s.pending_question(), key.code)
        && let Some(choice) = c
            .to_digit(10)
            .and_then(|d| ask.choices.get((d as usize).checked_sub(1)?))
    {
        let choice = choice.clone();
        s.lab.answers.insert(answer, choice);
        if let Some(m) = &mut s.run.step_mode {
            m.answer_first = false;
        }
        return Vec::new();
    }
    let Some(mut action) = action_for(&key) else {
        return Vec::new();
    };
    // The help takes the keys that scroll it; the others wait until it is closed.
    if s.ui.panes.help && !matches!(action, Action::Close | Action::Help | Action::Quit) {
        navigate::scroll_help(s, action);
        return Vec::new();
    }
    // A presenter's clicker steps through the plan while step mode is on.
    if s.ui.present && s.run.step_mode.is_some() && action == Action::NextSection {
        action = Action::Step;
    }
    act(s, action, &key)
}

/// Quits, stopping a running plan first (a re-run carries on from where it stopped).
fn quit(s: &mut State) -> Vec<Effect> {
    s.ui.quit = true;
    let mut effects = Vec::new();
    if s.run.running() {
        effects.push(Effect::Cancel);
    }
    effects.push(Effect::Quit);
    effects
}

/// What a bound key does to the state, once nothing before it took the key.
fn act(s: &mut State, action: Action, key: &KeyEvent) -> Vec<Effect> {
    let lesson = s.ui.place.lesson;
    let running = s.run.running();
    match action {
        Action::Quit if running => {
            if let Some(job) = &s.run.job {
                s.ui.notice = Some(Notice::QuitWhilePlanRuns { lesson: job.lesson });
            }
        }
        Action::Quit => return quit(s),
        Action::Help => {
            s.ui.panes.help = !s.ui.panes.help;
            s.ui.panes.help_scroll = 0;
        }
        Action::Close => {
            // Esc closes what is open; with nothing open, it lets go of the chosen command.
            if !(s.ui.panes.help || s.ui.raw || s.ui.panes.zoom) {
                s.ui.picks.selected_snippet = None;
            }
            s.ui.panes.help = false;
            s.ui.raw = false;
            s.ui.panes.zoom = false;
            s.shell.tall_command = None;
        }
        Action::NextPane | Action::PrevPane => {
            s.ui.panes.focus = s.ui.panes.focus.cycle(action == Action::NextPane);
        }
        Action::Zoom => {
            s.ui.panes.zoom = !s.ui.panes.zoom;
            s.shell.tall_command = None;
        }
        Action::NextSection | Action::PrevSection | Action::NextLesson | Action::PrevLesson => {
            navigate::navigate(s, action);
        }
        // A cluster that does not answer is said at once, not after the plan's timeout.
        Action::Run if !running && watch::refused_while_unreachable(s, action) => {}
        Action::Check if watch::refused_while_unreachable(s, action) => {}
        // On a cluster that is not the embedded one, look before changing anything.
        Action::Run if !running && !s.session.sim() => s.ui.confirm = Some(lesson),
        Action::Run if !running => {
            plan::show_plan(s, lesson);
            return vec![Effect::RunLesson(lesson)];
        }
        Action::Run => plan::refuse_while_running(s, action),
        Action::Cancel if running => return vec![Effect::Cancel],
        // Between two actions, nothing runs to cancel: x leaves step mode.
        Action::Cancel if s.run.step_mode.is_some() => plan::leave_step_mode(s),
        Action::Cancel => {}
        Action::Check => {
            // The verdict is drawn above the lesson's text: a pane scrolled down to a chosen
            // command would hide the answer the learner just asked for.
            s.ui.picks.follow_selection = false;
            s.ui.panes.scroll.insert(Pane::Lesson, 0);
            return vec![Effect::Check(lesson)];
        }
        Action::Hint => {
            let total = s.current().map_or(0, |l| l.text(s.lang()).hints.len());
            s.ui.place.hints_shown = (s.ui.place.hints_shown + 1).min(total);
            navigate::go_to(s, s.ui.place.lesson, Section::Hints);
        }
        Action::Theme => s.ui.theme = s.ui.theme.next(),
        // Everything on screen is a typed value said when it is drawn: the same state, the
        // plan, its log and the grades included, reads in the next language at once.
        Action::Language => {
            let all = crate::i18n::Lang::all();
            let at = all.iter().position(|l| *l == s.session.lang).unwrap_or(0);
            s.session.lang = all[(at + 1) % all.len()];
        }
        Action::NextApp => {
            let names: Vec<String> = s.live.apps.keys().cloned().collect();
            let shown = s.timeline_app().to_string();
            s.ui.picks.selected_app =
                navigate::next_after(&names, Some(&shown)).map(|a| (lesson, a));
        }
        Action::NextObject => {
            let keys: Vec<ObjectKey> = s.live.objects.keys().cloned().collect();
            s.ui.picks.selected_object =
                navigate::next_after(&keys, s.fields_object().as_ref()).map(|k| (lesson, k));
        }
        // On the managedFields pane, its raw entries; elsewhere, the winning Helm layer.
        Action::Raw if s.ui.panes.focus == Pane::Fields => s.ui.raw = !s.ui.raw,
        Action::Raw => s.ui.values_revealed = !s.ui.values_revealed,
        Action::Step => return plan::step(s, lesson, running),
        // Enter starts typing only where the shell is.
        Action::Shell if key.code == KeyCode::Enter && s.ui.panes.focus != Pane::Shell => {}
        Action::Shell => return shell::enter(s),
        Action::NextCommand => snippet::step(s, true),
        Action::PrevCommand => snippet::step(s, false),
        Action::TypeCommand => return snippet::type_it(s),
        Action::CopyCommand => return snippet::copy_it(s),
        Action::ScrollUp | Action::ScrollDown | Action::ScrollTop | Action::ScrollBottom => {
            navigate::scroll_focused(s, action);
        }
        // Shown in the help; the key itself is handled while typing into the shell.
        Action::LeaveShell => s.shell.typing = false,
    }
    Vec::new()
}

/// How a key reads for the room: `PgDn`, `space`, `g`, `Ctrl-c`.
fn key_label(key: &KeyEvent) -> String {
    let name = match key.code {
        KeyCode::Char(' ') => "space".to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Tab => "Tab".into(),
        other => format!("{other:?}"),
    };
    if key
        .modifiers
        .contains(ratatui::crossterm::event::KeyModifiers::CONTROL)
    {
        format!("Ctrl-{name}")
    } else {
        name
    }
}

/// A key while the plan and the cluster it would change are shown: only y/Enter goes ahead.
fn confirm_key(s: &mut State, lesson: LessonId, key: &KeyEvent) -> Vec<Effect> {
    match key.code {
        KeyCode::Char('y') | KeyCode::Enter => {
            s.ui.confirm = None;
            if watch::refused_while_unreachable(s, Action::Run) {
                return Vec::new();
            }
            plan::show_plan(s, lesson);
            vec![Effect::RunLesson(lesson)]
        }
        KeyCode::Char('n') | KeyCode::Esc | KeyCode::Char('q') => {
            s.ui.confirm = None;
            Vec::new()
        }
        _ => Vec::new(),
    }
}
