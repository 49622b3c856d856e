//! "Type it for me": choosing a command from the lesson's code blocks (`]`/`[`), typing it into
//! the shell without pressing Enter (`y`), or copying it to the clipboard (`Y`, OSC 52).

use super::Effect;
use super::shell;
use crate::lab::catalog::Section;
use crate::lab::snippets::Snippet;
use crate::tui::state::{Pane, State, TallCommand};

fn current(s: &State) -> Vec<Snippet> {
    s.snippets()
}

fn selected(s: &State) -> Option<Snippet> {
    s.selected_command()
}

/// Selects the next (or previous) command; a part without commands moves to "By hand".
pub fn step(s: &mut State, forward: bool) {
    if current(s).is_empty() {
        super::navigate::go_to(s, s.ui.place.lesson, Section::ByHand);
    }
    let count = current(s).len();
    if count == 0 {
        return;
    }
    let now = match s.ui.picks.selected_snippet {
        Some((lesson, section, i))
            if (lesson, section) == (s.ui.place.lesson, s.ui.place.section) =>
        {
            Some(i)
        }
        _ => None,
    };
    let next = match (now, forward) {
        (None, true) => 0,
        (None, false) => count - 1,
        (Some(i), true) => (i + 1).min(count - 1),
        (Some(i), false) => i.saturating_sub(1),
    };
    s.ui.picks.selected_snippet = Some((s.ui.place.lesson, s.ui.place.section, next));
    s.ui.picks.follow_selection = true;
}

/// Types the selected command into the shell (starting it when needed); the learner presses
/// Enter. A shell that has not drawn its prompt yet gets it as soon as it has.
pub fn type_it(s: &mut State) -> Vec<Effect> {
    if selected(s).is_none() {
        step(s, true);
    }
    let Some(snippet) = selected(s) else {
        return Vec::new();
    };
    let text = snippet.text;
    // A command taller than the shell pane scrolls its start out of sight as it is typed: the
    // pane says so, and whether zooming it would show the whole command (the lesson pane beside
    // it shows it whole, marked, so nothing is zoomed for the learner).
    s.ui.panes.focus = Pane::Shell;
    let lines = text.lines().count();
    s.shell.tall_command = (!shell::fits(s, lines)).then(|| TallCommand {
        lines,
        fits_zoomed: shell::fits_zoomed(s, lines),
    });
    let mut effects = shell::enter(s);
    s.shell.pending_input = Some(text);
    effects.extend(deliver(s));
    effects
}

/// Copies the selected command to the clipboard of the learner's terminal.
pub fn copy_it(s: &mut State) -> Vec<Effect> {
    if selected(s).is_none() {
        step(s, true);
    }
    selected(s)
        .map(|snippet| vec![Effect::CopyToClipboard(snippet.text)])
        .unwrap_or_default()
}

/// Sends a waiting command once the shell is ready for it: as a bracketed paste when the shell
/// asked for those (a multi-line command then waits for Enter), else as typed.
pub fn deliver(s: &mut State) -> Vec<Effect> {
    let screen = s.shell.screen.screen();
    let ready = screen.bracketed_paste() || s.shell.seen_prompt;
    if !s.shell.running() || !ready {
        return Vec::new();
    }
    let Some(text) = s.shell.pending_input.take() else {
        return Vec::new();
    };
    // A command taller than the pane is typed line by line: readline cannot redraw a pasted
    // buffer taller than its screen (it left lines like "EOF  - containerPort: 80ineeb"), while
    // continuation lines scroll as any shell's do. A snippet is one command (a heredoc, lines
    // continued with `\`), so nothing runs before the learner's Enter on its last line.
    let mut bytes = if screen.bracketed_paste() && s.shell.tall_command.is_none() {
        format!("\x1b[200~{text}\x1b[201~").into_bytes()
    } else {
        text.trim_end_matches('\n').replace('\n', "\r").into_bytes()
    };
    bytes.append(&mut s.shell.pending_keys);
    vec![Effect::ShellInput(bytes)]
}
