//! How `update` turns keys and messages into state and effects, without a terminal.
use super::*;
use crate::i18n::Lang;
use crate::lab::catalog::Catalog;
use crate::tui::state::StateBuilder;
use ratatui::crossterm::event::{KeyCode, KeyEventState, KeyModifiers};
use strum::EnumCount;

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
    update(s, Msg::Key(KeyEvent::from(code)))
}

#[test]
fn presenter_keys_walk_sections_then_lessons() {
    let mut s = state();
    for _ in 0..Section::COUNT - 1 {
        key(&mut s, KeyCode::PageDown);
    }
    assert_eq!((s.ui.lesson, s.ui.section), (L(1), Section::LAST));
    // The last part's PgDn says what comes next first, and stays in the lesson.
    key(&mut s, KeyCode::PageDown);
    assert_eq!((s.ui.lesson, s.ui.section), (L(1), Section::LAST));
    assert!(s.ui.at_lesson_end);
    let screen = crate::tui::view::text_of_screen(&s, 120, 40);
    assert!(screen.contains("PgDn → lesson 2"), "{screen}");
    key(&mut s, KeyCode::PageDown);
    assert_eq!((s.ui.lesson, s.ui.section), (L(2), Section::Goal));
    assert!(!s.ui.at_lesson_end);
    key(&mut s, KeyCode::PageUp);
    assert_eq!((s.ui.lesson, s.ui.section), (L(1), Section::LAST));
}

#[test]
fn releases_are_ignored_and_help_swallows_other_keys() {
    let mut s = state();
    let release = KeyEvent {
        code: KeyCode::Char('r'),
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Release,
        state: KeyEventState::NONE,
    };
    assert!(update(&mut s, Msg::Key(release)).is_empty());
    key(&mut s, KeyCode::Char('?'));
    assert!(s.ui.help);
    assert!(key(&mut s, KeyCode::Char('r')).is_empty());
    key(&mut s, KeyCode::Esc);
    assert!(!s.ui.help);
    assert_eq!(key(&mut s, KeyCode::Char('r')), [Effect::RunLesson(L(1))]);
}

#[test]
fn quitting_cancels_a_running_plan_first() {
    let mut s = state();
    update(
        &mut s,
        Msg::JobSteps {
            lesson: L(1),
            steps: vec![PlanStep::todo("a", "b")],
        },
    );
    assert_eq!(
        key(&mut s, KeyCode::Char('q')),
        [Effect::Cancel, Effect::Quit]
    );
    assert!(s.ui.quit);
}

#[test]
fn a_finished_plan_is_graded_and_its_steps_tick_off() {
    let mut s = state();
    update(
        &mut s,
        Msg::JobSteps {
            lesson: L(2),
            steps: vec![PlanStep::todo("a", "$ a"), PlanStep::todo("b", "$ b")],
        },
    );
    update(
        &mut s,
        Msg::Job(Progress::Started {
            step: 1,
            title: "a".into(),
            command: "$ a".into(),
        }),
    );
    update(
        &mut s,
        Msg::Job(Progress::Blocker {
            step: 1,
            line: "waiting: wave 0".into(),
        }),
    );
    assert_eq!(s.run.job.as_ref().unwrap().blocker, "waiting: wave 0");
    update(
        &mut s,
        Msg::Job(Progress::Done {
            step: 1,
            summary: "ok".into(),
        }),
    );
    assert_eq!(s.run.job.as_ref().unwrap().steps[0].state, StepState::Done);
    assert_eq!(update(&mut s, Msg::JobEnded(Ok(()))), [Effect::Check(L(2))]);
}

#[test]
fn a_and_o_cycle_the_timelines_app_and_the_fields_object() {
    let mut s = state();
    for name in ["src-helm", "src-kust", "src-waves"] {
        update(
            &mut s,
            Msg::App(serde_json::json!({"metadata": {"name": name}})),
        );
    }
    assert_eq!(s.timeline_app(), "src-helm");
    key(&mut s, KeyCode::Char('a'));
    assert_eq!(s.timeline_app(), "src-kust");
    update(
        &mut s,
        Msg::Object(
            "src-helm/ConfigMap/src-helm-greeting".into(),
            serde_json::json!({}),
        ),
    );
    update(
        &mut s,
        Msg::Object("src-kust/Deployment/prod-api".into(), serde_json::json!({})),
    );
    key(&mut s, KeyCode::Char('o'));
    assert_eq!(
        s.fields_object(),
        "src-helm/ConfigMap/src-helm-greeting",
        "wraps around after prod-api"
    );
}

#[test]
fn hints_come_one_at_a_time() {
    let mut s = state();
    key(&mut s, KeyCode::Char('h'));
    key(&mut s, KeyCode::Char('h'));
    assert_eq!(s.ui.hints_shown, 2);
    assert_eq!(s.ui.section, Section::Hints);
}

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
fn a_checklist_ticks_in_order_and_unticks_with_the_reason_when_the_facts_change() {
    use crate::lab::eval::GitFacts;
    let mut s = state();
    // The Application and the chart exactly as lesson 1 writes them.
    let files = catalog().template_files("01-helm-chart");
    let manifest = &files
        .iter()
        .find(|(p, _)| p == "app-src-helm.yaml")
        .unwrap()
        .1;
    let mut app: serde_json::Value = serde_saphyr::from_str(manifest).unwrap();
    app["status"] = serde_json::json!({"sync": {"status": "Synced", "revision": "abc"}, "health": {"status": "Healthy"}});
    // The Application alone ticks nothing: the steps before it are not done.
    update(&mut s, Msg::App(app.clone()));
    assert!(!s.lab.ticks.contains_key(&L(1)));
    let mut git = GitFacts::default();
    git.repos.insert("src".into(), Some("abc".into()));
    git.cloned.push("src".into());
    update(&mut s, Msg::Git(git.clone()));
    assert_eq!(
        s.lab.ticks[&L(1)].len(),
        2,
        "bare repo and clone; nothing pushed yet"
    );
    for (path, text) in &files {
        if let Some(in_repo) = path.strip_prefix("repo/") {
            git.files
                .insert(("src".into(), in_repo.to_string()), text.clone());
        }
    }
    update(&mut s, Msg::Git(git.clone()));
    assert_eq!(
        s.lab.ticks[&L(1)].len(),
        5,
        "pushed, applied and synced at main"
    );
    // A new push moves main on: the app is no longer synced at main, and the step says so; what
    // still holds stays done, with the time it was done.
    let first_done = s.lab.ticks[&L(1)].clone();
    git.repos.insert("src".into(), Some("def".into()));
    update(&mut s, Msg::Git(git.clone()));
    let states = &s.lab.checklists[&L(1)];
    assert!(
        matches!(&states[4], crate::tui::state::ItemState::Undone { why, .. } if why.to_string().contains("main is at def")),
        "{states:?}"
    );
    assert_eq!(s.lab.ticks[&L(1)].len(), 4, "the undone step lost its tick");
    assert_eq!(s.lab.ticks[&L(1)][&0], first_done[&0]);
    // Argo CD catches up: done again.
    app["status"]["sync"]["revision"] = serde_json::json!("def");
    update(&mut s, Msg::App(app));
    assert!(s.lab.checklists[&L(1)][4].done());
}

#[test]
fn progress_taken_from_the_tutor_resumes_the_same_place() {
    let mut s = state();
    let mut earlier = crate::lab::progress::Progress::default();
    earlier
        .ticks
        .entry(L(1))
        .or_default()
        .insert(0, "2026-12-01T03:00:00Z".parse().unwrap());
    s.resume(earlier);
    key(&mut s, KeyCode::Char('n'));
    key(&mut s, KeyCode::Char('h'));
    let kept = s.progress();
    assert_eq!(kept.lesson, Some(L(2)));
    let mut again = state();
    again.resume(kept);
    assert_eq!(
        (again.ui.lesson, again.ui.section, again.ui.hints_shown),
        (L(2), Section::Hints, 1)
    );
    assert_eq!(again.lab.ticks[&L(1)].len(), 1);
}

#[test]
fn on_a_real_cluster_r_asks_first_and_only_y_goes_ahead() {
    let mut s = builder()
        .target(crate::session::Target::Context {
            context: Some("a-real-cluster".into()),
            kubeconfig: None,
        })
        .build();
    assert!(key(&mut s, KeyCode::Char('r')).is_empty());
    assert_eq!(s.ui.confirm, Some(L(1)));
    assert!(
        key(&mut s, KeyCode::Char('q')).is_empty(),
        "q leaves the question"
    );
    assert!(!s.ui.quit && s.ui.confirm.is_none());
    key(&mut s, KeyCode::Char('r'));
    assert!(
        key(&mut s, KeyCode::Char('x')).is_empty(),
        "other keys wait"
    );
    assert_eq!(key(&mut s, KeyCode::Char('y')), [Effect::RunLesson(L(1))]);
    let mut sim = state();
    assert_eq!(key(&mut sim, KeyCode::Char('r')), [Effect::RunLesson(L(1))]);
}

#[test]
fn step_mode_shows_each_action_then_runs_it_one_at_a_time() {
    let mut s = builder().lesson(6).build();
    assert!(
        key(&mut s, KeyCode::Char('g')).is_empty(),
        "the first g only shows the plan"
    );
    let m = s.run.step_mode.clone().unwrap();
    assert_eq!((m.lesson, m.next, m.total), (L(6), 0, 9));
    assert_eq!(
        key(&mut s, KeyCode::Char('g')),
        [Effect::RunStep {
            lesson: L(6),
            action: 0
        }]
    );
    assert!(
        key(&mut s, KeyCode::Char('g')).is_empty(),
        "one action at a time"
    );
    update(&mut s, Msg::JobEnded(Ok(())));
    assert_eq!(s.run.step_mode.as_ref().unwrap().next, 1);
    // Presenting, the clicker's next key runs the next action.
    let mut p = builder().lesson(6).present(true).build();
    key(&mut p, KeyCode::Char('g'));
    assert_eq!(
        key(&mut p, KeyCode::PageDown),
        [Effect::RunStep {
            lesson: L(6),
            action: 0
        }]
    );
    assert_eq!(p.ui.last_key, "PgDn");
    // A failed action stays next, to be run again.
    update(
        &mut p,
        Msg::JobEnded(Err(crate::tui::state::JobFailure::new(
            crate::lab::engine::RunError::NoActions("boom".into()),
        ))),
    );
    assert_eq!(p.run.step_mode.as_ref().unwrap().next, 0);
}

#[test]
fn a_prediction_is_asked_before_the_action_and_answered_by_a_digit() {
    let mut s = builder().lesson(2).build();
    key(&mut s, KeyCode::Char('g'));
    let (answer_key, ask) = s.pending_question().map(|(k, a)| (k, a.clone())).unwrap();
    assert_eq!(answer_key, "2:1");
    assert!(ask.question.get(Lang::FALLBACK).contains("replicas"));
    assert!(
        key(&mut s, KeyCode::Char('g')).is_empty(),
        "not before the room answers"
    );
    assert!(key(&mut s, KeyCode::Char('9')).is_empty(), "no 9th choice");
    assert!(s.pending_question().is_some());
    key(&mut s, KeyCode::Char('3'));
    assert_eq!(s.lab.answers["2:1"], "3");
    assert_eq!(
        key(&mut s, KeyCode::Char('g')),
        [Effect::RunStep {
            lesson: L(2),
            action: 0
        }]
    );
    assert_eq!(s.progress().answers["2:1"], "3", "kept with the progress");
    // After the action, the live value is shown beside the prediction.
    update(&mut s, Msg::JobEnded(Ok(())));
    update(
        &mut s,
        Msg::Object(
            "src-helm/Deployment/src-helm-web".into(),
            serde_json::json!({"spec": {"replicas": 3}}),
        ),
    );
    let shown = crate::tui::view::prediction_text(&s);
    assert!(shown.contains("you said: 3 · live: 3"), "{shown}");
}

#[test]
fn moments_that_are_over_tick_once_the_evidence_that_proves_them_passes() {
    use crate::lab::eval::check::{Finding, Grade};
    let mut s = state();
    // Lesson 6 done elsewhere: the broken push and the failed sync are long gone.
    update(
        &mut s,
        Msg::Evidence(vec![(
            "failed-hook.json".into(),
            Some(jiff::Timestamp::now()),
        )]),
    );
    update(
        &mut s,
        Msg::Graded(vec![Grade {
            file: "failed-hook.json".into(),
            lesson: L(6),
            findings: vec![Finding {
                ok: true,
                what: "commit is the broken one".into(),
                hint: None,
                help: None,
            }],
            checked_at: None,
        }]),
    );
    let ticked: Vec<usize> = s.lab.ticks[&L(6)].keys().copied().collect();
    assert_eq!(ticked, [0, 1, 2], "the two moments, and the file is there");
    let failing = Grade {
        file: "waves.json".into(),
        lesson: L(5),
        findings: vec![Finding {
            ok: false,
            what: "hook_job".into(),
            hint: Some(3),
            help: None,
        }],
        checked_at: None,
    };
    update(&mut s, Msg::Graded(vec![failing]));
    assert!(
        !s.lab.ticks.contains_key(&L(5)),
        "a failing file proves nothing"
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

#[test]
fn the_help_lists_every_binding_and_scrolls_to_the_last_one() {
    use crate::tui::keymap::BINDINGS;
    let mut s = builder().size(80, 24).help(true).build();
    let first = crate::tui::view::text_of_screen(&s, 80, 24);
    assert!(
        first.contains(" ↓ "),
        "a cut help says there is more:\n{first}"
    );
    let mut seen = first.clone();
    for _ in 0..BINDINGS.len() {
        key(&mut s, KeyCode::Down);
        seen.push_str(&crate::tui::view::text_of_screen(&s, 80, 24));
    }
    for b in BINDINGS {
        assert!(seen.contains(b.label), "{} is in the help", b.label);
    }
    let last = crate::tui::view::text_of_screen(&s, 80, 24);
    assert!(
        last.contains(&(BINDINGS.last().unwrap().help)(s.lang())),
        "scrolled to the end:\n{last}"
    );
    assert!(s.ui.help, "scrolling keeps the help open");
    key(&mut s, KeyCode::Esc);
    assert!(!s.ui.help);
}

#[test]
fn a_new_run_through_a_lesson_asks_the_room_again() {
    let mut s = builder().lesson(6).present(true).build();
    s.lab.answers.insert("6:4".into(), "mode: green".into());
    s.lab.answers.insert("2:1".into(), "3".into());
    key(&mut s, KeyCode::Char('g'));
    assert!(!s.lab.answers.contains_key("6:4"), "lesson 6 asks again");
    assert_eq!(
        s.lab.answers.get("2:1").map(String::as_str),
        Some("3"),
        "other lessons keep theirs"
    );
}

#[test]
fn a_lesson_shows_its_own_plan_and_choices_never_another_lessons() {
    let mut s = builder()
        .lesson(6)
        .object("src-waves/ConfigMap/settings", serde_json::json!({}))
        .object("src-kust/Deployment/prod-api", serde_json::json!({}))
        .object("src-waves/Deployment/app", serde_json::json!({}))
        .build();
    let steps = vec![PlanStep::todo("write the files", "git add")];
    update(
        &mut s,
        Msg::JobSteps {
            lesson: L(6),
            steps,
        },
    );
    update(&mut s, Msg::JobEnded(Ok(())));
    let six = crate::tui::view::text_of_screen(&s, 120, 40);
    assert!(six.contains("Do it for me · lesson 6"), "{six}");
    assert!(
        !six.contains("write the files"),
        "an ended plan is one line:\n{six}"
    );
    // `a` and `o` choose for this lesson only.
    key(&mut s, KeyCode::Char('o'));
    let chosen = s.fields_object();
    key(&mut s, KeyCode::Char('n'));
    assert_eq!(s.ui.lesson, L(7));
    let seven = crate::tui::view::text_of_screen(&s, 120, 40);
    assert!(
        !seven.contains("lesson 6"),
        "lesson 7 shows no plan of lesson 6:\n{seven}"
    );
    let focus = s.current().unwrap().spec.focus.as_ref().unwrap().key();
    assert_eq!(s.fields_object(), focus, "lesson 7 follows its own focus");
    assert_ne!(chosen, focus);
    key(&mut s, KeyCode::Char('p'));
    assert_eq!(s.fields_object(), chosen, "back in lesson 6, its choice");
}
