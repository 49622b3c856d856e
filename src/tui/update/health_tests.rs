//! The watches' health as the learner reads it: per-stream errors, a resumed watch, a re-list,
//! a 410, and what the header, the panes and the keys then say.

use super::*;
use crate::cluster::problem::Problem;
use crate::cluster::watch::{ObjectChange, StreamChange};
use crate::cluster::watch::{StreamId, lab_streams};
use crate::cluster::{Kind, ObjectKey};
use crate::lab::catalog::Catalog;
use crate::tui::state::Notice;
use crate::tui::update::{InputMsg, JobMsg, LabMsg};
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use serde_json::{Value, json};

fn at(t: &str) -> jiff::Timestamp {
    t.parse().unwrap()
}

fn catalog() -> std::sync::Arc<Catalog> {
    std::sync::Arc::new(Catalog::embedded().unwrap())
}

fn streams() -> Vec<StreamId> {
    lab_streams(&catalog().apps(), &catalog().namespaces())
}

fn state() -> State {
    State::builder(catalog()).build()
}

fn app(name: &str) -> (ObjectKey, Value) {
    (
        ObjectKey::app(name),
        json!({"kind": "Application", "metadata": {"name": name, "namespace": "argocd"}}),
    )
}

fn listed(
    s: &mut State,
    stream: &StreamId,
    objects: Vec<(ObjectKey, Value)>,
    t: &str,
) -> Vec<Effect> {
    update(
        s,
        Msg::Stream(StreamChange::Listed {
            stream: stream.clone(),
            objects,
            at: at(t),
        }),
    )
}

fn lost(s: &mut State, stream: &StreamId, t: &str) {
    let problem = Problem::no_answer(
        "https://127.0.0.1:18443",
        crate::cluster::problem::Why::Refused,
    );
    update(
        s,
        Msg::Stream(StreamChange::Lost {
            stream: stream.clone(),
            problem,
            at: at(t),
        }),
    );
}

/// The screen's first two rows (the header), and the whole screen.
fn screen(s: &State) -> (String, String) {
    let all = crate::tui::view::text_of_screen(s, 160, 40);
    let header: Vec<&str> = all.lines().take(2).collect();
    (header.join("\n"), all)
}

fn key(s: &mut State, c: char) -> Vec<Effect> {
    update(
        s,
        Msg::Input(InputMsg::Key(KeyEvent::from(KeyCode::Char(c)))),
    )
}

#[test]
fn the_header_is_live_only_when_every_stream_has_listed_since_its_last_error() {
    let mut s = state();
    let apps = StreamId::app("src-helm");
    let configmaps = StreamId::new("src-helm", Kind::ConfigMap);
    assert!(screen(&s).0.contains("… connecting"));
    assert_eq!(
        key(&mut s, 'r'),
        [Effect::RunLesson(crate::lab::spec::LessonId(1))],
        "connecting is not unreachable"
    );
    // The plan it asked for is on screen and counts its time until it ends.
    assert!(s.clock_running());
    update(&mut s, Msg::Job(JobMsg::Ended(Ok(()))));

    for stream in streams() {
        let objects = if stream == apps {
            vec![app("src-helm")]
        } else {
            Vec::new()
        };
        listed(&mut s, &stream, objects, "2026-03-01T10:00:00Z");
    }
    let (header, whole) = screen(&s);
    assert!(header.contains("✓ live"), "{header}");
    assert!(!whole.contains("as of"), "{whole}");
    assert!(!s.clock_running(), "all live: no clock, no redraws");

    // Two streams lose the cluster; the others are still live.
    lost(&mut s, &configmaps, "2026-03-01T10:00:05Z");
    lost(&mut s, &apps, "2026-03-01T10:00:06Z");
    lost(&mut s, &configmaps, "2026-03-01T10:00:07Z");
    update(&mut s, Msg::Tick(at("2026-03-01T10:00:17Z")));
    let (header, whole) = screen(&s);
    assert!(
        header.contains("✗ stale since 10:00:05 (12 s ago) · reconnecting"),
        "the first moment is kept: {header}"
    );
    assert!(
        header.contains(
            "Application src-helm, src-helm ConfigMaps: cannot reach https://127.0.0.1:18443: connection refused"
        ),
        "{header}"
    );
    assert!(whole.contains("Applications · as of 10:00:06"), "{whole}");
    assert!(s.clock_running(), "the age moves once a second");

    // An action that needs the cluster says so now; the next key puts the notice away.
    assert!(key(&mut s, 'r').is_empty());
    assert!(matches!(
        s.ui.notice,
        Some(Notice::ClusterUnreachable { ref problem, .. }) if problem.unreachable()
    ));
    assert!(screen(&s).1.contains("The cluster does not answer"));
    assert!(key(&mut s, 'c').is_empty(), "closes the notice only");
    assert_eq!(s.ui.notice, None);
    assert!(key(&mut s, 'c').is_empty());
    assert!(s.ui.notice.is_some());
    key(&mut s, 'x');
    // Evidence that changes meanwhile is graded once the cluster is back, not against nothing.
    let evidence = s
        .lessons()
        .iter()
        .find_map(|l| l.evidence_file())
        .unwrap()
        .to_string();
    assert!(update(&mut s, Msg::Lab(LabMsg::EvidenceChanged(vec![evidence]))).is_empty());

    // A watch event on a stale stream proves nothing about what was missed: still stale.
    update(
        &mut s,
        Msg::Object(ObjectChange::applied(app("src-helm").1, Kind::Application)),
    );
    assert!(!s.live.health.is_live(&apps));
    // The re-list is the whole truth: src-helm was deleted while away.
    listed(&mut s, &apps, vec![], "2026-03-01T10:00:20Z");
    assert!(s.live.apps.is_empty(), "{:?}", s.live.apps.keys());
    let (header, whole) = screen(&s);
    assert!(
        header.contains("src-helm ConfigMaps: cannot reach"),
        "{header}"
    );
    assert!(!header.contains("Application src-helm,"), "{header}");
    assert!(!whole.contains("Applications · as of"), "{whole}");

    // 410 Gone on the Applications: stale until it re-lists, but the cluster does answer.
    update(
        &mut s,
        Msg::Stream(StreamChange::Expired {
            stream: apps.clone(),
            at: at("2026-03-01T10:00:21Z"),
        }),
    );
    assert!(
        screen(&s)
            .0
            .contains("Application src-helm: the server's history")
    );
    let effects = listed(&mut s, &configmaps, Vec::new(), "2026-03-01T10:00:22Z");
    assert!(effects.is_empty(), "not every stream is live yet");
    assert!(key(&mut s, 'r').len() == 1, "the cluster answers: r runs");
    let effects = listed(&mut s, &apps, vec![app("alpha")], "2026-03-01T10:00:22Z");
    assert_eq!(
        effects.len(),
        1,
        "the deferred self-check runs now: {effects:?}"
    );
    assert!(matches!(effects[0], Effect::Check(_)));
    let (header, whole) = screen(&s);
    assert!(header.contains("✓ live"), "{header}");
    assert!(!header.contains("stale"), "{header}");
    assert!(!whole.contains("as of"), "{whole}");
    assert_eq!(s.header_rows(), 1);
}

#[test]
fn a_stream_that_never_listed_says_not_loaded_instead_of_empty() {
    let mut s = state();
    let apps = StreamId::app("src-helm");
    update(
        &mut s,
        Msg::Input(InputMsg::Key(KeyEvent::from(KeyCode::Tab))),
    );
    update(
        &mut s,
        Msg::Input(InputMsg::Key(KeyEvent::from(KeyCode::Tab))),
    );
    assert_eq!(s.ui.panes.focus, crate::tui::state::Pane::Apps);
    lost(&mut s, &apps, "2026-03-01T10:00:00Z");
    let (header, whole) = screen(&s);
    assert!(
        header.contains("✗ not loaded yet · reconnecting"),
        "{header}"
    );
    assert!(whole.contains("Applications · not loaded"), "{whole}");
    assert!(
        whole.contains("The Applications are not loaded yet"),
        "never 'no Applications': {whole}"
    );
}

/// Attached to an embedded cluster whose serving process was replaced: the header names the
/// new address and process, not the old ones (issue 31).
#[test]
fn the_header_follows_the_process_now_serving_the_lab() {
    use crate::session::Target;
    let at = |url: &str, pid: u32| Target::Embedded {
        url: url.into(),
        state: "/tmp/lab".into(),
        served_by: Some(pid),
    };
    let mut s = State::builder(catalog())
        .target(at("https://127.0.0.1:1111", 41))
        .size(200, 40)
        .live()
        .build();
    let (header, _) = screen(&s);
    assert!(
        header.contains("127.0.0.1:1111") && header.contains("41"),
        "{header}"
    );
    update(&mut s, Msg::Retargeted(at("https://127.0.0.1:2222", 42)));
    let (header, _) = screen(&s);
    assert!(
        header.contains("127.0.0.1:2222") && header.contains("process 42"),
        "{header}"
    );
    assert!(!header.contains("1111"), "{header}");
    // That process ended and this tutor serves the lab itself: it says so.
    let here = Target::Embedded {
        url: "https://127.0.0.1:3333".into(),
        state: "/tmp/lab".into(),
        served_by: None,
    };
    update(&mut s, Msg::Retargeted(here));
    let (header, body) = screen(&s);
    assert!(
        header.contains("127.0.0.1:3333") && !header.contains("process 42"),
        "{header}"
    );
    assert!(
        body.contains("The process that served this lab before (42) is gone"),
        "{body}"
    );
}

#[test]
fn damaged_progress_kept_aside_is_said_on_screen_in_the_learners_language() {
    let kept = std::path::PathBuf::from("/lab/capa-src/.capa-tui/tutor.json.damaged");
    for (lang, words) in [
        ("en", "did not read"),
        ("zh", "无法读取"),
        ("ko", "읽을 수 없어"),
    ] {
        let s = State::builder(catalog())
            .lang(crate::i18n::Lang::parse(lang).unwrap())
            .size(120, 40)
            .notice(Notice::ProgressKeptAside(kept.clone()))
            .build();
        let screen = crate::tui::view::text_of_screen(&s, 120, 40);
        let flat = unspaced(&screen);
        assert!(flat.contains(&words.replace(' ', "")), "{lang}:\n{screen}");
        assert!(flat.contains("tutor.json.damaged"), "{screen}");
    }
}

/// A lab set up with other lessons says so first, in the learner's language, with where they
/// come from and how to go back (issue 35: a command without the flags used to grade the
/// original lab).
#[test]
fn an_adapted_lab_says_on_screen_where_its_lessons_come_from() {
    let kept = crate::lab::setup::KeptIn {
        setup: crate::lab::setup::LabSetup {
            learner: None,
            lessons: Some("/class/lessons".into()),
            templates: None,
        },
        file: "/lab/capa-src/capa-lab.json".into(),
    };
    for (lang, words) in [
        ("en", "capa-tui's own templates"),
        ("zh", "capa-tui自带的模板"),
        ("ko", "capa-tui기본제공템플릿"),
    ] {
        let s = State::builder(catalog())
            .lang(crate::i18n::Lang::parse(lang).unwrap())
            .size(120, 40)
            .notice(Notice::SetupOfTheLab(kept.clone()))
            .build();
        let screen = crate::tui::view::text_of_screen(&s, 120, 40);
        let flat = unspaced(&screen);
        assert!(flat.contains(&words.replace(' ', "")), "{lang}:\n{screen}");
        assert!(
            flat.contains("/class/lessons") && flat.contains("capa-lab.json"),
            "{screen}"
        );
        assert!(flat.contains("--lessonsbuiltin"), "{screen}");
    }
}

/// The screen's words run together: wide characters are drawn with a blank after each, and
/// lines wrap, so a notice is compared unspaced.
fn unspaced(screen: &str) -> String {
    screen
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '│')
        .collect()
}

/// With no Applications yet, the pane says what `r` does in the lesson shown: a lesson that
/// builds on another changes nothing until that one is done (it had promised "r … creates what
/// it needs" on lesson 6 of a new lab, and `r` then refused).
#[test]
fn no_applications_yet_promises_r_only_where_it_will_create_them() {
    let catalog = catalog();
    for lesson in catalog.lessons() {
        let mut s = state();
        s.open_lesson(lesson.id());
        for stream in streams().iter().filter(|st| st.is_app()) {
            listed(&mut s, stream, Vec::new(), "2026-03-01T10:00:00Z");
        }
        s.ui.panes.focus = crate::tui::state::Pane::Apps;
        s.ui.panes.zoom = true;
        let (_, whole) = screen(&s);
        let whole: String = whole.split_whitespace().collect::<Vec<_>>().join(" ");
        match lesson.spec.requires.first() {
            Some(needs) => {
                assert!(
                    whole.contains(&format!("builds on lesson {}", needs.lesson)),
                    "lesson {}: {whole}",
                    lesson.id()
                );
                assert!(!whole.contains("creates what it needs"), "{whole}");
            }
            None => assert!(
                whole.contains("creates what it needs"),
                "lesson {}: {whole}",
                lesson.id()
            ),
        }
    }
}
