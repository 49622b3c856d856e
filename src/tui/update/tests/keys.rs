//! Keys: sections and lessons, releases, the help, quitting, hints, the app and object cycles,
//! and the confirmation before a plan changes a real cluster.

use super::*;
use crate::cluster::Kind;
use crate::cluster::watch::ObjectChange;
use crate::tui::update::{DrawnMsg, InputMsg, LabMsg};

#[test]
fn presenter_keys_walk_sections_then_lessons() {
    let mut s = state();
    for _ in 0..Section::COUNT - 1 {
        key(&mut s, KeyCode::PageDown);
    }
    assert_eq!(
        (s.ui.place.lesson, s.ui.place.section),
        (L(1), Section::LAST)
    );
    // The last part's PgDn says what comes next first, and stays in the lesson.
    key(&mut s, KeyCode::PageDown);
    assert_eq!(
        (s.ui.place.lesson, s.ui.place.section),
        (L(1), Section::LAST)
    );
    assert!(s.ui.place.at_lesson_end);
    let screen = crate::tui::view::text_of_screen(&s, 120, 40);
    assert!(screen.contains("PgDn → lesson 2"), "{screen}");
    key(&mut s, KeyCode::PageDown);
    assert_eq!(
        (s.ui.place.lesson, s.ui.place.section),
        (L(2), Section::Goal)
    );
    assert!(!s.ui.place.at_lesson_end);
    key(&mut s, KeyCode::PageUp);
    assert_eq!(
        (s.ui.place.lesson, s.ui.place.section),
        (L(1), Section::LAST)
    );
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
    assert!(update(&mut s, Msg::Input(InputMsg::Key(release))).is_empty());
    key(&mut s, KeyCode::Char('?'));
    assert!(s.ui.panes.help);
    assert!(key(&mut s, KeyCode::Char('r')).is_empty());
    key(&mut s, KeyCode::Esc);
    assert!(!s.ui.panes.help);
    assert_eq!(key(&mut s, KeyCode::Char('r')), [Effect::RunLesson(L(1))]);
}

/// `q` while a plan runs asks first (quitting stops it); `q` again quits, cancelling the plan
/// first; any other key goes back, the plan still running.
#[test]
fn quitting_while_a_plan_runs_asks_then_cancels_it_first() {
    let mut s = state();
    s.run.job = Some(JobView::new(
        L(1),
        vec![PlanStep::todo("a")],
        jiff::Timestamp::now(),
    ));
    assert!(key(&mut s, KeyCode::Char('q')).is_empty());
    assert!(!s.ui.quit);
    let screen = crate::tui::view::text_of_screen(&s, 120, 40);
    assert!(
        screen.contains("q again quits") && screen.contains("Lesson 1's plan is running"),
        "{screen}"
    );
    assert!(key(&mut s, KeyCode::Char('j')).is_empty());
    assert!(s.ui.notice.is_none() && !s.ui.quit && s.run.running());
    key(&mut s, KeyCode::Char('q'));
    assert_eq!(
        key(&mut s, KeyCode::Char('q')),
        [Effect::Cancel, Effect::Quit]
    );
    assert!(s.ui.quit);
}

#[test]
fn a_and_o_cycle_the_timelines_app_and_the_fields_object() {
    let mut s = state();
    for name in ["src-helm", "src-kust", "src-waves"] {
        update(
            &mut s,
            Msg::Object(ObjectChange::applied(
                serde_json::json!({"metadata": {"name": name}}),
                Kind::Application,
            )),
        );
    }
    assert_eq!(s.timeline_app(), "src-helm");
    key(&mut s, KeyCode::Char('a'));
    assert_eq!(s.timeline_app(), "src-kust");
    update(
        &mut s,
        Msg::Object(ObjectChange::Applied {
            key: "src-helm/ConfigMap/src-helm-greeting".parse().unwrap(),
            object: serde_json::json!({}),
        }),
    );
    update(
        &mut s,
        Msg::Object(ObjectChange::Applied {
            key: "src-kust/Deployment/prod-api".parse().unwrap(),
            object: serde_json::json!({}),
        }),
    );
    key(&mut s, KeyCode::Char('o'));
    assert_eq!(
        s.fields_object().unwrap().to_string(),
        "src-helm/ConfigMap/src-helm-greeting",
        "wraps around after prod-api"
    );
}

#[test]
fn hints_come_one_at_a_time() {
    let mut s = state();
    key(&mut s, KeyCode::Char('h'));
    key(&mut s, KeyCode::Char('h'));
    assert_eq!(s.ui.place.hints_shown, 2);
    assert_eq!(s.ui.place.section, Section::Hints);
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
    assert!(s.ui.panes.help, "scrolling keeps the help open");
    key(&mut s, KeyCode::Esc);
    assert!(!s.ui.panes.help);
}

/// Draws `s` at `width`×`height` and reports what the frame says back, as the runtime does.
fn drawn_at(s: &mut State, width: u16, height: u16) -> String {
    let area = ratatui::layout::Rect::new(0, 0, width, height);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    let frame = crate::tui::view::draw(s, area, &mut buf);
    update(s, Msg::Drawn(DrawnMsg::ScrollLimits(frame.limits)));
    if let Some(at) = frame.lesson_at {
        update(s, Msg::Drawn(DrawnMsg::LessonShownAt(at)));
    }
    crate::tui::view::text_of_screen(s, width, height)
}

/// At 80×24 a part is taller than the pane: PgDn pages through it before turning the part, so
/// every line of it is read, and PgUp turns back to the previous part's last page.
#[test]
fn page_down_reads_a_tall_part_whole_before_turning_it() {
    let mut s = state();
    s.ui.panes.size = (80, 24);
    key(&mut s, KeyCode::PageDown);
    assert_eq!(s.ui.place.section, Section::Why);
    let mut seen = drawn_at(&mut s, 80, 24);
    assert!(
        !seen.contains("gitd.gitsrv"),
        "the part is cut at 80×24:\n{seen}"
    );
    let mut pages = 0;
    while s.ui.place.section == Section::Why {
        key(&mut s, KeyCode::PageDown);
        seen.push_str(&drawn_at(&mut s, 80, 24));
        pages += 1;
        assert!(pages < 10, "PgDn never left the part");
    }
    assert!(pages > 1, "the part took one PgDn: nothing was paged");
    assert!(
        seen.contains("gitd.gitsrv"),
        "the part's last line was never shown"
    );
    assert_eq!(s.ui.place.section, Section::Steps);
    key(&mut s, KeyCode::PageUp);
    assert_eq!(s.ui.place.section, Section::Why);
    let back = drawn_at(&mut s, 80, 24);
    assert!(
        back.contains("gitd.gitsrv"),
        "PgUp lands on the last page:\n{back}"
    );
}

/// `c` with a command chosen far down "By hand" at 80×24 (the checklist and verdict scrolled
/// away above it): the pane goes back to its top, so the verdict the learner asked for is read.
#[test]
fn a_self_check_asked_for_is_shown_even_from_deep_in_the_commands() {
    let mut s = state();
    s.ui.panes.size = (80, 24);
    for _ in 0..12 {
        key(&mut s, KeyCode::Char(']'));
        drawn_at(&mut s, 80, 24);
    }
    assert_eq!(s.ui.place.section, Section::ByHand);
    assert!(!drawn_at(&mut s, 80, 24).contains("Checklist"));
    assert_eq!(key(&mut s, KeyCode::Char('c')), [Effect::Check(L(1))]);
    update(
        &mut s,
        Msg::Lab(LabMsg::Graded(vec![crate::lab::eval::check::Grade {
            file: String::new(),
            lesson: L(1),
            findings: vec![crate::lab::eval::check::Finding {
                ok: true,
                what: "src-helm is Synced and Healthy".into(),
                hint: None,
                help: None,
                live: true,
            }],
            checked_at: None,
            changed_since: Vec::new(),
        }])),
    );
    let screen = drawn_at(&mut s, 80, 24);
    assert!(
        screen.contains("lesson 1's steps pass the self-check"),
        "{screen}"
    );
    // The command stays chosen: `y` types it, `]` goes on from it.
    assert!(s.selected_command().is_some());
}

/// At 80×24 the last part of lesson 2 is taller than the pane: PgDn pages to its end, says
/// which lesson comes next below the last line, and the next PgDn goes there (a walk found the
/// end's own line re-opening the page, so PgDn went back and forth for ever).
#[test]
fn page_down_through_a_tall_last_part_reaches_the_next_lesson() {
    let mut s = state();
    s.ui.panes.size = (80, 24);
    key(&mut s, KeyCode::Char('n'));
    drawn_at(&mut s, 80, 24);
    let mut presses = 0;
    let mut said = false;
    while s.ui.place.lesson == L(2) {
        key(&mut s, KeyCode::PageDown);
        let screen = drawn_at(&mut s, 80, 24);
        said |= s.ui.place.at_lesson_end && screen.contains("PgDn → lesson 3");
        presses += 1;
        assert!(presses < 60, "PgDn never left lesson 2:\n{screen}");
    }
    assert!(said, "the end of the lesson was never on screen");
    assert_eq!(
        (s.ui.place.lesson, s.ui.place.section),
        (L(3), Section::Goal)
    );
}
