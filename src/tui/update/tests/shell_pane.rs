//! The shell pane: keys go to it until Ctrl-], it restarts after it exits, its terminal follows
//! the pane, and "type it for me" pastes the chosen command once the prompt is there.

use super::*;
use crate::tui::update::{DrawnMsg, InputMsg, ShellMsg};

#[test]
fn in_the_shell_every_key_is_the_shells_until_ctrl_close_bracket() {
    let mut s = builder().size(120, 40).build();
    let started = key(&mut s, KeyCode::Char('s'));
    assert!(matches!(started[..], [Effect::StartShell { rows, cols }] if rows > 5 && cols > 40));
    assert_eq!((s.ui.panes.focus, s.shell.typing), (Pane::Shell, true));
    assert_eq!(
        key(&mut s, KeyCode::Char('q')),
        [Effect::ShellInput(b"q".to_vec())]
    );
    assert!(!s.ui.quit, "q in the shell types q");
    let leave = KeyEvent::new(KeyCode::Char(']'), KeyModifiers::CONTROL);
    assert!(update(&mut s, Msg::Input(InputMsg::Key(leave))).is_empty());
    assert!(!s.shell.typing);
    assert_eq!(key(&mut s, KeyCode::Char('q')), [Effect::Quit]);
}

#[test]
fn a_shell_that_exited_says_so_and_enter_starts_another() {
    let mut s = builder().size(120, 40).build();
    key(&mut s, KeyCode::Char('s'));
    update(&mut s, Msg::Shell(ShellMsg::Output(b"hello\r\n".to_vec())));
    assert!(s.shell.screen.screen().contents().contains("hello"));
    update(&mut s, Msg::Shell(ShellMsg::Exited(Some(0))));
    assert_eq!(s.shell.status, ShellStatus::Exited(Some(0)));
    assert!(key(&mut s, KeyCode::Char('x')).is_empty());
    assert!(matches!(
        key(&mut s, KeyCode::Enter)[..],
        [Effect::StartShell { .. }]
    ));
    assert!(s.shell.running());
}

#[test]
fn the_shells_terminal_follows_the_pane_when_the_screen_or_zoom_changes() {
    let mut s = builder().size(120, 40).build();
    key(&mut s, KeyCode::Char('s'));
    let before = s.shell.screen.screen().size();
    let resized = update(&mut s, Msg::Input(InputMsg::Resize(200, 60)));
    let after = s.shell.screen.screen().size();
    assert!(
        after.0 > before.0 && after.1 > before.1,
        "{before:?} → {after:?}"
    );
    assert_eq!(
        resized,
        [Effect::ShellResize {
            rows: after.0,
            cols: after.1
        }]
    );
    let leave = KeyEvent::new(KeyCode::Char(']'), KeyModifiers::CONTROL);
    update(&mut s, Msg::Input(InputMsg::Key(leave)));
    let zoomed = key(&mut s, KeyCode::Char('z'));
    assert!(
        matches!(
            zoomed[..],
            [Effect::ShellResize {
                rows: 56,
                cols: 198
            }]
        ),
        "{zoomed:?}"
    );
}

#[test]
fn type_it_for_me_waits_for_the_prompt_then_pastes_without_enter() {
    let mut s = builder().size(120, 40).build();
    assert!(key(&mut s, KeyCode::Char(']')).is_empty());
    assert_eq!(
        s.ui.place.section,
        Section::ByHand,
        "a part without commands moves to By hand"
    );
    let typed = key(&mut s, KeyCode::Char('y'));
    assert!(
        matches!(typed[..], [Effect::StartShell { .. }]),
        "{typed:?}"
    );
    assert!(s.shell.pending_input.is_some());
    // Enter pressed before the shell is ready follows the command, not precedes it.
    assert!(key(&mut s, KeyCode::Enter).is_empty());
    // bash asks for bracketed paste and draws its prompt: the command arrives, no Enter.
    let sent = update(
        &mut s,
        Msg::Shell(ShellMsg::Output(b"\x1b[?2004h(capa:sim) $ ".to_vec())),
    );
    let [Effect::ShellInput(bytes)] = &sent[..] else {
        panic!("{sent:?}")
    };
    let text = String::from_utf8_lossy(bytes);
    assert!(
        text.starts_with("\x1b[200~git init --bare -b main /srv/bare/src.git"),
        "{text}"
    );
    assert!(
        text.ends_with("\x1b[201~\r"),
        "the early Enter follows: {text:?}"
    );
    assert!(s.shell.pending_input.is_none());
    let leave = KeyEvent::new(KeyCode::Char(']'), KeyModifiers::CONTROL);
    update(&mut s, Msg::Input(InputMsg::Key(leave)));
    key(&mut s, KeyCode::Char(']'));
    assert!(
        matches!(key(&mut s, KeyCode::Char('Y'))[..], [Effect::CopyToClipboard(ref t)] if t.starts_with("git clone /srv/bare/src.git"))
    );
}

#[test]
fn the_chosen_command_is_on_screen_whole_and_marked_on_every_row() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = builder().size(w, h).build();
        let snippets_seen = {
            key(&mut s, KeyCode::Char(']'));
            s.snippets().len()
        };
        assert!(snippets_seen > 4, "lesson 1 has commands to type");
        for i in 0..snippets_seen {
            if i > 0 {
                key(&mut s, KeyCode::Char(']'));
            }
            let chosen = s.selected_command().unwrap();
            let text = chosen.text;
            let screen = crate::tui::view::text_of_screen(&s, w, h);
            // Tell update where the lesson was drawn from, as the runtime does.
            let area = ratatui::layout::Rect::new(0, 0, w, h);
            let mut buf = ratatui::buffer::Buffer::empty(area);
            if let Some(at) = crate::tui::view::draw(&s, area, &mut buf).lesson_at {
                update(&mut s, Msg::Drawn(DrawnMsg::LessonShownAt(at)));
            }
            let marked: Vec<&str> = screen
                .lines()
                .filter_map(|l| {
                    l.split_once('▌')
                        .and_then(|(_, rest)| rest.split(['┃', '│']).next())
                })
                .collect();
            // A row that goes on with the line above starts with `↪`; the rest start a line.
            let continued = marked.iter().filter(|l| l.starts_with('↪')).count();
            let shown: String = marked
                .iter()
                .map(|l| l.strip_prefix('↪').unwrap_or(l).trim())
                .collect::<Vec<_>>()
                .join(" ");
            // Rows wrap anywhere in a long word: compare the characters, not the spaces.
            let want: String = text.split_whitespace().collect();
            let got: String = shown.split_whitespace().collect();
            // A command taller than the pane shows from its first line, every row marked.
            if text.lines().count() >= usize::from(h) / 3 {
                assert!(
                    want.starts_with(&got) && got.len() > 20,
                    "{w}x{h}, command {i}:\n{screen}"
                );
            } else {
                assert_eq!(got, want, "{w}x{h}, command {i}:\n{screen}");
                assert_eq!(
                    marked.len() - continued,
                    text.lines().count(),
                    "{w}x{h}, command {i}: each of its lines starts a row, and only they do:\n{screen}"
                );
            }
        }
    }
}

/// At 80×24 a chosen command never pins the lesson pane: scrolling to the top reaches the
/// lesson's title (and the checklist under it), and Esc lets go of the command.
#[test]
fn a_chosen_command_never_pins_the_lesson_pane_and_esc_lets_go_of_it() {
    let (w, h) = (80, 24);
    let mut s = builder().size(w, h).build();
    let area = ratatui::layout::Rect::new(0, 0, w, h);
    let shown_at = |s: &mut State| {
        let mut buf = ratatui::buffer::Buffer::empty(area);
        if let Some(at) = crate::tui::view::draw(s, area, &mut buf).lesson_at {
            update(s, Msg::Drawn(DrawnMsg::LessonShownAt(at)));
        }
    };
    // The last command of lesson 1: far below its title.
    let count = {
        key(&mut s, KeyCode::Char(']'));
        s.snippets().len()
    };
    for _ in 1..count {
        key(&mut s, KeyCode::Char(']'));
        shown_at(&mut s);
    }
    let title = "Put a chart in Git";
    let screen = crate::tui::view::text_of_screen(&s, w, h);
    assert!(
        !screen.contains(title),
        "scrolled down to the command:\n{screen}"
    );
    s.ui.panes.focus = Pane::Lesson;
    key(&mut s, KeyCode::Home);
    shown_at(&mut s);
    let screen = crate::tui::view::text_of_screen(&s, w, h);
    assert!(screen.contains(title), "Home reaches the top:\n{screen}");
    assert!(s.selected_command().is_some(), "scrolling keeps the choice");
    key(&mut s, KeyCode::Esc);
    assert!(s.selected_command().is_none(), "Esc lets go of the command");
}

/// A command taller than the shell pane says so in the pane's title: zooming shows it whole when
/// the screen is tall enough, else the lesson pane beside it does. Enter puts the note away,
/// and zooming does too.
#[test]
fn a_command_taller_than_the_shell_pane_says_where_to_read_it_whole() {
    let mut seen = (0, 0, 0);
    for (w, h) in [(80, 24), (120, 32), (160, 60)] {
        let mut s = builder().size(w, h).build();
        key(&mut s, KeyCode::Char(']'));
        let count = s.snippets().len();
        for i in 0..count {
            s.ui.picks.selected_snippet = Some((s.ui.place.lesson, s.ui.place.section, i));
            let lines = s.selected_command().unwrap().text.lines().count();
            let mut sent = key(&mut s, KeyCode::Char('y'));
            sent.extend(update(
                &mut s,
                Msg::Shell(ShellMsg::Output(b"\x1b[?2004h(capa:sim) $ ".to_vec())),
            ));
            let typed = sent
                .iter()
                .find_map(|e| match e {
                    Effect::ShellInput(b) => Some(String::from_utf8_lossy(b).to_string()),
                    _ => None,
                })
                .unwrap_or_default();
            // Pasted whole when it fits; else line by line (readline garbles a pasted buffer
            // taller than its screen), its last line waiting for the learner's Enter.
            if s.shell.tall_command.is_some() {
                assert!(!typed.starts_with("\x1b[200~"), "{typed:?}");
                assert_eq!(typed.matches('\r').count(), lines - 1, "{typed:?}");
                assert!(!typed.ends_with('\r'), "{typed:?}");
            } else {
                assert!(typed.starts_with("\x1b[200~"), "{typed:?}");
            }
            assert!(!s.ui.panes.zoom, "the lesson pane stays beside the shell");
            let rows = usize::from(s.shell.screen.screen().size().0);
            let screen = crate::tui::view::text_of_screen(&s, w, h);
            // The shell pane's top border (how to leave) and bottom border (the note).
            let screen_rows: Vec<&str> = screen.lines().collect();
            let top = screen_rows
                .iter()
                .position(|l| {
                    l.contains(&format!("{} ", Pane::Shell.title(s.session.lang)))
                        && l.contains(" · ")
                })
                .unwrap_or_default();
            let bottom = screen_rows[top..]
                .iter()
                .position(|l| l.contains('┗'))
                .map_or(top, |b| b + top);
            let title = format!("{}\n{}", screen_rows[top], screen_rows[bottom]);
            match s.shell.tall_command {
                None => {
                    assert!(
                        lines < rows,
                        "{w}x{h}: {lines} lines in {rows} rows:\n{screen}"
                    );
                    assert!(title.contains("typing"), "{title}");
                    seen.0 += 1;
                }
                Some(tall) => {
                    assert!(lines >= rows, "{w}x{h}: {lines} lines in {rows} rows");
                    assert_eq!(tall.lines, lines);
                    let said = format!("{lines} lines, typed line by line");
                    assert!(title.contains(&said), "{w}x{h}: {title}");
                    if tall.fits_zoomed {
                        seen.1 += 1;
                        assert!(title.contains("Ctrl-] z shows them all"), "{title}");
                        let leave = KeyEvent::new(KeyCode::Char(']'), KeyModifiers::CONTROL);
                        update(&mut s, Msg::Input(InputMsg::Key(leave)));
                        key(&mut s, KeyCode::Char('z'));
                        let zoomed = usize::from(s.shell.screen.screen().size().0);
                        assert!(lines < zoomed, "zoomed, {lines} lines fit {zoomed} rows");
                        assert_eq!(s.shell.tall_command, None);
                        key(&mut s, KeyCode::Char('z'));
                    } else {
                        seen.2 += 1;
                        assert!(title.contains("lesson pane"), "{title}");
                        key(&mut s, KeyCode::Enter);
                        assert_eq!(s.shell.tall_command, None, "Enter ran it");
                        let leave = KeyEvent::new(KeyCode::Char(']'), KeyModifiers::CONTROL);
                        update(&mut s, Msg::Input(InputMsg::Key(leave)));
                    }
                    continue;
                }
            }
            let leave = KeyEvent::new(KeyCode::Char(']'), KeyModifiers::CONTROL);
            update(&mut s, Msg::Input(InputMsg::Key(leave)));
        }
    }
    assert!(
        seen.0 > 0 && seen.1 > 0 && seen.2 > 0,
        "short, zoomable and taller-than-the-screen commands: {seen:?}"
    );
}

/// The header and the shell pane say the cluster's clock as it is: N× under `--speed`, and how
/// far ahead when a lab once run faster is reopened at real speed (it said "×1 clock" and "runs
/// 1× as fast as yours", and nothing of the hour between the shell's date and the cluster's).
#[test]
fn the_clock_is_said_as_it_runs_fast_or_ahead() {
    use crate::tui::state::ShellClock;
    for (clock, says, never) in [
        (
            ShellClock {
                speed: 5.0,
                ahead_seconds: None,
                follows: true,
            },
            ["×5 clock", "runs 5× as fast as yours"],
            "ahead",
        ),
        (
            ShellClock {
                speed: 1.0,
                ahead_seconds: Some(3_930),
                follows: true,
            },
            ["clock +1h 5m", "is 1h 5m ahead of yours"],
            "×1",
        ),
    ] {
        let mut s = builder().live().size(120, 40).build();
        s.shell.about.clock = Some(clock);
        s.ui.panes.focus = crate::tui::state::Pane::Shell;
        let screen = crate::tui::view::text_of_screen(&s, 120, 40);
        let unspaced: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        for said in says {
            assert!(unspaced.contains(said), "{said:?} not on screen:\n{screen}");
        }
        assert!(!screen.contains(never), "{never:?} on screen:\n{screen}");
    }
}
