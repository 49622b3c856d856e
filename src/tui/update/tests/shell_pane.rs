//! The shell pane: keys go to it until Ctrl-], it restarts after it exits, its terminal follows
//! the pane, and "type it for me" pastes the chosen command once the prompt is there.
use super::*;

#[test]
fn in_the_shell_every_key_is_the_shells_until_ctrl_close_bracket() {
    let mut s = builder().size(120, 40).build();
    let started = key(&mut s, KeyCode::Char('s'));
    assert!(matches!(started[..], [Effect::StartShell { rows, cols }] if rows > 5 && cols > 40));
    assert_eq!((s.ui.focus, s.shell.typing), (Pane::Shell, true));
    assert_eq!(
        key(&mut s, KeyCode::Char('q')),
        [Effect::ShellInput(b"q".to_vec())]
    );
    assert!(!s.ui.quit, "q in the shell types q");
    let leave = KeyEvent::new(KeyCode::Char(']'), KeyModifiers::CONTROL);
    assert!(update(&mut s, Msg::Key(leave)).is_empty());
    assert!(!s.shell.typing);
    assert_eq!(key(&mut s, KeyCode::Char('q')), [Effect::Quit]);
}

#[test]
fn a_shell_that_exited_says_so_and_enter_starts_another() {
    let mut s = builder().size(120, 40).build();
    key(&mut s, KeyCode::Char('s'));
    update(&mut s, Msg::ShellOutput(b"hello\r\n".to_vec()));
    assert!(s.shell.screen.screen().contents().contains("hello"));
    update(&mut s, Msg::ShellExited(Some(0)));
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
    let resized = update(&mut s, Msg::Resize(200, 60));
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
    update(&mut s, Msg::Key(leave));
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
        s.ui.section,
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
        Msg::ShellOutput(b"\x1b[?2004h(capa:sim) $ ".to_vec()),
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
    update(&mut s, Msg::Key(leave));
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
            let text = s.session.fit.render(&chosen.text);
            let screen = crate::tui::view::text_of_screen(&s, w, h);
            // Tell update where the lesson was drawn from, as the runtime does.
            let area = ratatui::layout::Rect::new(0, 0, w, h);
            let mut buf = ratatui::buffer::Buffer::empty(area);
            if let Some(at) = crate::tui::view::draw(&s, area, &mut buf).lesson_at {
                update(&mut s, Msg::LessonShownAt(at));
            }
            let marked: Vec<&str> = screen
                .lines()
                .filter_map(|l| {
                    l.split_once('▌')
                        .and_then(|(_, rest)| rest.split(['┃', '│']).next())
                })
                .collect();
            let shown: String = marked
                .iter()
                .map(|l| l.trim())
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
            update(s, Msg::LessonShownAt(at));
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
    s.ui.focus = Pane::Lesson;
    key(&mut s, KeyCode::Home);
    shown_at(&mut s);
    let screen = crate::tui::view::text_of_screen(&s, w, h);
    assert!(screen.contains(title), "Home reaches the top:\n{screen}");
    assert!(s.selected_command().is_some(), "scrolling keeps the choice");
    key(&mut s, KeyCode::Esc);
    assert!(s.selected_command().is_none(), "Esc lets go of the command");
}

/// A command taller than the shell pane is typed into the zoomed shell, and the pane says why;
/// one taller than even the zoomed pane says where to read it whole. Enter puts the note away.
#[test]
fn a_command_taller_than_the_shell_pane_is_typed_into_the_zoomed_shell() {
    let (w, h) = (80, 24);
    let mut s = builder().size(w, h).build();
    let count = {
        key(&mut s, KeyCode::Char(']'));
        s.snippets().len()
    };
    let lines_of = |s: &State| {
        s.session
            .fit
            .render(&s.selected_command().unwrap().text)
            .lines()
            .count()
    };
    let mut seen = (false, false, false);
    for i in 0..count {
        if i > 0 {
            let leave = KeyEvent::new(KeyCode::Char(']'), KeyModifiers::CONTROL);
            update(&mut s, Msg::Key(leave));
            key(&mut s, KeyCode::Esc);
            assert!(!s.ui.zoom, "Esc unzooms");
            for _ in 0..=i {
                key(&mut s, KeyCode::Char(']'));
            }
        }
        let lines = lines_of(&s);
        key(&mut s, KeyCode::Char('y'));
        update(
            &mut s,
            Msg::ShellOutput(b"\x1b[?2004h(capa:sim) $ ".to_vec()),
        );
        let rows = usize::from(s.shell.screen.screen().size().0);
        let screen = crate::tui::view::text_of_screen(&s, w, h);
        match s.shell.tall_command {
            None => {
                assert!(
                    lines < rows,
                    "{lines} lines typed into {rows} rows:\n{screen}"
                );
                assert!(!s.ui.zoom);
                seen.0 = true;
            }
            Some(tall) => {
                assert!(s.ui.zoom, "zoomed for {lines} lines");
                assert_eq!(tall.lines, lines);
                assert_eq!(tall.fits, lines < rows, "{lines} lines, {rows} rows");
                let said = if tall.fits {
                    "zoomed for this"
                } else {
                    "taller than the screen"
                };
                assert!(screen.contains(said), "{screen}");
                if tall.fits {
                    seen.1 = true;
                } else {
                    seen.2 = true;
                }
                key(&mut s, KeyCode::Enter);
                assert_eq!(s.shell.tall_command, None, "Enter ran it");
            }
        }
    }
    assert!(
        seen.0 && (seen.1 || seen.2),
        "lesson 1 has short and tall commands: {seen:?}"
    );
}
