//! The tutor: snapshots of every pane at three sizes from recorded objects, a headless run of
//! the whole app driven by key events through lessons on the embedded cluster, and a real
//! terminal run in tmux.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]
use capa_tui::cluster::watch::StreamChange;
use capa_tui::tui::update::{DrawnMsg, InputMsg, LabMsg};

use std::time::Duration;

mod common;
use common::{scenes, svg, tmux};

use capa_tui::cluster::problem::Problem;

use capa_tui::i18n::Lang;
use capa_tui::lab::catalog::Section;
use capa_tui::tui::state::{Pane, State, StateBuilder};
use capa_tui::tui::theme::Theme;
use capa_tui::tui::update::{Msg, update};
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use serde_json::Value;
use strum::IntoEnumIterator;

use scenes::*;

macro_rules! snapshots {
    ($($name:ident: $lesson:expr, $edit:expr;)*) => {$(
        #[test]
        fn $name() {
            for (w, h) in [(80, 24), (120, 40), (200, 60)] {
                let s = state_with($lesson, $edit);
                insta::assert_snapshot!(format!("{}_{w}x{h}", stringify!($name)), draw(&s, w, h));
            }
        }
    )*};
}

snapshots! {
    screen_scaled_with_ignore_differences: 6, |_| {};
    screen_mid_wave: 4, mid_wave;
    screen_failed_hook: 5, failed_hook;
    screen_retry_blocked: 5, retry_blocked;
    lesson_1_layout: 0, |_| {};
    lesson_2_layout: 1, |_| {};
    lesson_3_layout: 2, |_| {};
    lesson_4_layout: 3, |_| {};
    lesson_5_layout: 4, |_| {};
    lesson_6_layout: 5, retry_blocked;
    lesson_7_layout: 6, |_| {};
    lesson_8_layout: 7, |_| {};
}

/// The README's pictures of the tutor, drawn by its own code from recorded objects. They must
/// match what the code draws today; `CAPA_UPDATE_SCREENSHOTS=1 cargo test --test tui
/// screenshots` redraws them after a deliberate change.
#[test]
fn screenshots_in_assets_are_what_the_tutor_draws_today() {
    /// (file name, lesson index, how the recorded lab is changed, terminal size).
    type Shot = (&'static str, usize, fn(&mut Value), (u16, u16));
    let shots: [Shot; 3] = [
        ("lesson-6-retry-trap-120x40", 5, retry_blocked, (120, 40)),
        ("lesson-5-mid-wave-120x40", 4, mid_wave, (120, 40)),
        ("lesson-7-ignore-differences-80x24", 6, |_| {}, (80, 24)),
    ];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/screenshots");
    let update_wanted = std::env::var_os("CAPA_UPDATE_SCREENSHOTS").is_some();
    let mut stale = Vec::new();
    for (name, lesson, edit, (w, h)) in shots {
        let s = state_with(lesson, edit);
        let backend = draw(&s, w, h);
        let picture = svg::render(backend.buffer(), &format!("capa-tui: {name}"));
        assert!(picture.contains("<svg") && picture.contains("capa-tui"));
        let path = dir.join(format!("{name}.svg"));
        if update_wanted {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &picture).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(picture.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "these screenshots are stale or missing: {stale:?}. If the change is meant, run CAPA_UPDATE_SCREENSHOTS=1 cargo test --test tui screenshots and commit them"
    );
}

#[test]
fn scrolling_reaches_the_last_line_of_lesson_ones_by_hand_at_80x24() {
    let mut s = scene(0, |_| {})
        .section(Section::ByHand)
        .size(80, 24)
        .build();
    let area = ratatui::layout::Rect::new(0, 0, 80, 24);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    let limits = capa_tui::tui::view::draw(&s, area, &mut buf).limits;
    assert!(
        limits[&capa_tui::tui::state::Pane::Lesson].max > 20,
        "{limits:?}"
    );
    // The focused lesson pane has the thick border: its bottom edge carries the marker.
    let lesson_bottom = |screen: &str| {
        screen
            .lines()
            .find(|l| l.contains('┗'))
            .unwrap_or_default()
            .to_string()
    };
    let first = format!("{}", draw(&s, 80, 24));
    assert!(
        lesson_bottom(&first).contains('↓'),
        "the cut is marked:\n{first}"
    );
    assert!(!first.contains("deploy,configmap"));
    update(&mut s, Msg::Drawn(DrawnMsg::ScrollLimits(limits)));
    update(
        &mut s,
        Msg::Input(InputMsg::Key(KeyEvent::from(KeyCode::End))),
    );
    let last = format!("{}", draw(&s, 80, 24));
    // The last command of the part (wrapped at this width) is on screen.
    assert!(last.contains("deploy,configmap"), "{last}");
    // The marker reads "from–to/total" with to == total: the end of the part is in view.
    let marker = lesson_bottom(&last);
    let span = marker
        .split_whitespace()
        .find(|w| w.contains('–') && w.contains('/'))
        .unwrap_or_default()
        .to_string();
    let (shown_to, total) = span
        .split_once('–')
        .and_then(|(_, rest)| rest.split_once('/'))
        .unwrap_or_default();
    assert!(!total.is_empty() && shown_to == total, "{marker}");
    assert!(!lesson_bottom(&last).contains('↓'), "{last}");
    // One line up and back: the arrows move a line at a time within the text.
    update(
        &mut s,
        Msg::Input(InputMsg::Key(KeyEvent::from(KeyCode::Up))),
    );
    update(
        &mut s,
        Msg::Input(InputMsg::Key(KeyEvent::from(KeyCode::Down))),
    );
    assert_eq!(format!("{}", draw(&s, 80, 24)), last);
    update(
        &mut s,
        Msg::Input(InputMsg::Key(KeyEvent::from(KeyCode::Down))),
    );
    assert_eq!(
        format!("{}", draw(&s, 80, 24)),
        last,
        "no scrolling past the end"
    );
}

/// What each lesson is about is on screen at 80×24, 120×40 and 200×60 without zooming: its
/// Application, lesson 6's retry banner, every resource of lesson 5's sync.
#[test]
fn every_lessons_point_is_on_screen_at_every_size() {
    // Each lesson's Application; lesson 8's point is the report itself.
    let apps = [
        "src-helm",
        "src-helm",
        "src-helm",
        "src-kust",
        "src-waves",
        "src-waves",
        "src-kust",
        "report.json",
    ];
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        for (lesson, app) in apps.iter().enumerate() {
            let edit: fn(&mut Value) = if lesson == 5 { retry_blocked } else { |_| {} };
            let screen = format!("{}", draw(&state_with(lesson, edit), w, h));
            assert!(
                screen.contains(app),
                "lesson {} at {w}x{h}:\n{screen}",
                lesson + 1
            );
        }
        let six = format!("{}", draw(&state_with(5, retry_blocked), w, h));
        assert!(
            six.contains("An operation is still retrying") && six.contains("terminate-op"),
            "lesson 6's banner at {w}x{h}:\n{six}"
        );
        let five = format!("{}", draw(&state_with(4, |_| {}), w, h));
        for resource in [
            "Job/migrate-",
            "ConfigMap/settings",
            "Deployment/app",
            "Job/smoke",
        ] {
            assert!(
                five.contains(resource),
                "lesson 5's {resource} at {w}x{h}:\n{five}"
            );
        }
    }
}

#[test]
fn the_retry_trap_is_said_in_plain_words_with_its_key() {
    let s = state_with(5, retry_blocked);
    let screen = format!("{}", draw(&s, 200, 60));
    assert!(
        screen.contains("An operation is still retrying"),
        "{screen}"
    );
    assert!(screen.contains("terminate-op src-waves"), "{screen}");
}

#[test]
fn every_pane_survives_tiny_and_odd_sizes() {
    for (w, h) in [(80, 24), (20, 5), (1, 1), (300, 3), (81, 25)] {
        for zoom in [false, true] {
            for pane in Pane::iter() {
                draw(&scene(4, mid_wave).zoom(zoom).focus(pane).build(), w, h);
            }
        }
        draw(&scene(4, mid_wave).help(true).build(), w, h);
    }
}

#[test]
fn status_is_never_colour_alone() {
    let s = scene(5, failed_hook).theme(Theme::Mono).build();
    let screen = format!("{}", draw(&s, 200, 60));
    assert!(
        screen.contains("✗ Failed") || screen.contains("… Running"),
        "{screen}"
    );
    assert!(screen.contains("✓ Synced"), "{screen}");
}

#[test]
fn every_pane_zoomed_at_every_size() {
    for pane in Pane::iter() {
        for (w, h) in [(80, 24), (120, 40), (200, 60)] {
            let s = scene(6, |_| {}).focus(pane).zoom(true).build();
            let name = format!("pane_{pane:?}_{w}x{h}").to_lowercase();
            let screen = format!("{}", draw(&s, w, h));
            if pane == Pane::Fields {
                // A manager's fields cut at six say how many more there are.
                assert!(screen.contains(" more "), "{screen}");
            }
            insta::assert_snapshot!(name, draw(&s, w, h));
        }
    }
}

#[test]
fn a_stale_watch_says_since_when_and_marks_its_panes() {
    let mut s = state_with(2, |_| {});
    let refused = Problem::no_answer(
        "https://127.0.0.1:6443",
        capa_tui::cluster::problem::Why::Refused,
    );
    for stream in all_streams() {
        update(
            &mut s,
            Msg::Stream(StreamChange::Lost {
                stream,
                problem: refused.clone(),
                at: at("2026-03-01T10:02:11Z"),
            }),
        );
    }
    update(&mut s, Msg::Tick(at("2026-03-01T10:02:34Z")));
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = format!("{}", draw(&s, w, h));
        assert!(
            screen.contains("✗ stale since 10:02:11 (23 s ago) · reconnecting"),
            "{screen}"
        );
        assert!(
            screen.contains("all watches: cannot reach https://127.0.0.1:6443: connection refused"),
            "{screen}"
        );
        assert!(
            screen.contains("managedFields · as of 10:02:11"),
            "{screen}"
        );
    }
    update(&mut s, Msg::Tick(at("2026-03-01T10:04:00Z")));
    let screen = format!("{}", draw(&s, 120, 40));
    assert!(
        screen.contains("(1 min 49 s ago)"),
        "the age moves: {screen}"
    );
}

#[test]
fn chinese_lessons_are_shown_with_chinese_section_names() {
    let zh = Lang::parse("zh").unwrap();
    let chinese = || scene(0, |_| {}).lang(zh).section(Section::Why);
    let s = chinese().build();
    let screen = format!("{}", draw(&s, 120, 40));
    assert!(screen.contains("为什么重要（2/6）"), "{screen}");
    assert!(
        screen.contains(" 课程 ") && screen.contains("替我做"),
        "pane titles and keys follow the language: {screen}"
    );
    // Argo CD's own words stay, with their meaning beside them; the chrome is Chinese too.
    assert!(screen.contains("✓ Synced 已同步"), "{screen}");
    assert!(screen.contains("✓ 实时"), "{screen}");
    let help = format!("{}", draw(&chinese().help(true).build(), 120, 40));
    assert!(help.contains("自检本课的证据文件"), "{help}");
    assert!(help.contains("按键 · Esc 关闭"), "{help}");
    assert!(screen.contains("Argo CD"), "{screen}");
}

#[test]
fn a_failed_self_check_shows_what_is_wrong_and_the_hint_that_helps() {
    use capa_tui::lab::eval::check::{Finding, Grade};
    let mut s = state_with(1, |_| {});
    let bad = Finding {
        ok: false,
        what: "replicas must be a number, found \"3\"".into(),
        hint: Some(1),
        help: None,
        live: false,
    };
    update(
        &mut s,
        Msg::Lab(LabMsg::Graded(vec![Grade {
            file: "precedence.json".into(),
            lesson: capa_tui::lab::spec::LessonId(2),
            findings: vec![bad],
            checked_at: None,
            changed_since: Vec::new(),
        }])),
    );
    let screen = format!("{}", draw(&s, 200, 60));
    assert!(
        screen.contains("✗ precedence.json fails the self-check:"),
        "{screen}"
    );
    assert!(screen.contains("replicas must be a number"), "{screen}");
    assert!(screen.contains("hint 1:"), "{screen}");
    // The hint is Markdown: its `greeting` is drawn as code, not with its backticks (a walk).
    let hint = screen
        .lines()
        .find(|l| l.contains("hint 1:"))
        .unwrap_or_default();
    assert!(
        hint.contains("Four layers set greeting,") && !hint.contains('`'),
        "{hint}"
    );
}

#[test]
fn a_click_focuses_the_pane_under_it() {
    let mut s = state_with(0, |_| {});
    update(&mut s, Msg::Input(InputMsg::Resize(120, 40)));
    update(
        &mut s,
        Msg::Input(InputMsg::Click {
            column: 100,
            row: 3,
        }),
    );
    assert_eq!(s.ui().panes.focus, Pane::Apps);
}

/// The whole app, headless: key presses drive update, effects run against the embedded
/// cluster, and the messages they send come back through update — until lesson 2's evidence
/// passes its self-check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn key_presses_run_lessons_and_their_evidence_passes() {
    let dir = tempfile::tempdir().unwrap();
    let options = capa_tui::session::Options {
        sim: true,
        speed: 10.0,
        state_dir: Some(dir.path()),
        kubeconfig: None,
        context: None,
        src_dir: None,
        bare_dir: None,
        fresh: false,
        learner: None,
    };
    let session = capa_tui::session::Session::open(options).await.unwrap();
    let catalog = catalog();
    let mut s = State::new(catalog.clone(), Lang::FALLBACK, session.target.clone());
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut exec = capa_tui::tui::Executor::new(&session, catalog, Lang::FALLBACK, tx);
    let press = |s: &mut State, exec: &mut capa_tui::tui::Executor, code: KeyCode| {
        for e in update(s, Msg::Input(InputMsg::Key(KeyEvent::from(code)))) {
            exec.run(e);
        }
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    for lesson in [1u8, 2] {
        press(&mut s, &mut exec, KeyCode::Char('r'));
        loop {
            let msg = tokio::time::timeout_at(deadline, rx.recv())
                .await
                .expect("the lesson finishes")
                .unwrap();
            for e in update(&mut s, msg) {
                exec.run(e);
            }
            let job = s.run().job.as_ref().unwrap();
            if let Some(result) = &job.finished {
                assert!(
                    result.is_ok(),
                    "lesson {lesson}: {result:?}\n{}",
                    job.log
                        .iter()
                        .map(|l| l.to_string())
                        .collect::<Vec<_>>()
                        .join("\n")
                );
                break;
            }
        }
        assert_eq!(s.run().job.as_ref().unwrap().lesson.0, lesson);
        press(&mut s, &mut exec, KeyCode::Char('n'));
    }
    while !s.lab().grades.contains_key("precedence.json") {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .expect("graded")
            .unwrap();
        update(&mut s, msg);
    }
    assert!(
        s.lab().grades["precedence.json"].passed(),
        "{:?}",
        s.lab().grades["precedence.json"]
    );
    press(&mut s, &mut exec, KeyCode::Char('p'));
    let screen = format!("{}", draw(&s, 120, 40));
    assert!(
        screen.contains("precedence.json passes the self-check"),
        "{screen}"
    );
    session.close().await;
}

/// A real terminal: tmux runs `capa-tui --sim`, keys are sent, the screen read back.
#[test]
fn the_tutor_runs_in_a_real_terminal_and_quits_cleanly() {
    let t = tmux::Tmux {
        socket: format!("capa-test-{}", std::process::id()),
    };
    let dir = tempfile::tempdir().unwrap();
    let exit_file = dir.path().join("exit");
    let cmd = format!(
        "{} --sim --speed 10 --state-dir {}; echo $? > {}",
        env!("CARGO_BIN_EXE_capa-tui"),
        dir.path().join("state").display(),
        exit_file.display()
    );
    t.start(120, 40, &cmd);
    let screen = |want: &str| t.wait_for(want, Duration::from_secs(10));
    screen("SIM");
    screen("✓ live");
    t.keys(&["?"]);
    screen("Keys · Esc closes");
    // Sent apart (the helper waits between keys): an Esc right before another key's sequence
    // reads as Alt+key.
    t.keys(&["Escape", "PageDown"]);
    screen("Why it matters (2/6)");
    t.keys(&["q"]);
    // The shell creates the file before `echo` writes to it: wait for the code itself.
    let code = || std::fs::read_to_string(&exit_file).unwrap_or_default();
    let asked = std::time::Instant::now();
    while code().trim().is_empty() && asked.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(code().trim(), "0", "q quits with exit code 0");
}

/// The pane's rows at 200×60 with `pane` zoomed.
fn zoomed(s: StateBuilder, pane: Pane) -> String {
    format!("{}", draw(&s.zoom(true).focus(pane).build(), 200, 60))
}

/// A narrow timeline spends the rows it has to spare on the words that did not fit, from the
/// first resource down, and never at the cost of a resource: every resource is on screen at
/// every height, the cut rows get fewer as the pane grows, and a tall pane cuts none.
#[test]
fn a_narrow_timeline_continues_words_in_the_rows_it_can_spare() {
    let mut cut_before = usize::MAX;
    let mut counts = std::collections::BTreeSet::<usize>::new();
    for height in 15..=30 {
        let screen = format!(
            "{}",
            draw(
                &scene(4, |_| {}).zoom(true).focus(Pane::Timeline).build(),
                56,
                height
            )
        );
        for resource in [
            "Job/migrat",
            "ConfigMap/settings",
            "Deployment/app",
            "Job/smoke",
        ] {
            assert!(
                screen.contains(resource),
                "{resource} at 56x{height}:\n{screen}"
            );
        }
        // The heading is one row, as every row is: the first resource follows it.
        let after_heading = screen
            .lines()
            .skip_while(|l| !l.contains("phase wave"))
            .nth(1)
            .unwrap_or_default();
        assert!(
            after_heading.contains("PreSync"),
            "the heading wrapped at 56x{height}:\n{screen}"
        );
        let cut = screen
            .lines()
            .filter(|l| {
                l.contains("│ ✓") && l.trim_end_matches(['"', '│', '┃', ' ']).ends_with('…')
            })
            .count();
        assert!(
            cut <= cut_before,
            "56x{height} cut more than a shorter pane:\n{screen}"
        );
        cut_before = cut;
        counts.insert(cut);
    }
    assert_eq!(cut_before, 0, "a tall pane cuts no words");
    // Row by row, not all or nothing: some height continues some rows and cuts others.
    assert!(counts.len() > 2, "cut rows by height: {counts:?}");
}

/// A failed sync never reaches history: the Applications pane names the revision that last
/// synced successfully, and says the new one is retrying, not that it synced.
#[test]
fn applications_name_the_last_good_revision_and_the_one_retrying() {
    // An Application's first `n` rows on the zoomed pane.
    let rows_of = |screen: &str, app: &str, n: usize| {
        screen
            .lines()
            .skip_while(|l| !l.contains(&format!("{app} ")))
            .take(n)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let screen = zoomed(scene(5, retry_blocked), Pane::Apps);
    let waves = rows_of(&screen, "src-waves", 3);
    assert!(waves.contains("git f1x0000"), "{waves}");
    assert!(waves.contains("last synced OK 73883e3"), "{waves}");
    // How many retries are left: once they run out, the next commit syncs by itself.
    assert!(
        waves.contains("⧗ retrying d845f08 (retry #1 of 5)"),
        "{waves}"
    );
    assert!(!waves.contains("synced d845f08"), "{waves}");
    // The timeline counts the same retries the same way.
    let timeline = zoomed(scene(5, retry_blocked), Pane::Timeline);
    assert!(timeline.contains("Running · retry 1 of 5"), "{timeline}");
    // Where Git's commit is the one that last synced OK (the recorded lab as it was), it is
    // named once.
    let before = zoomed(scene(5, |_| {}), Pane::Apps);
    let here = rows_of(&before, "src-waves", 2);
    assert!(
        here.contains("git d845f08") && here.contains("last synced OK: this commit"),
        "{here}"
    );
    // Synced at Git's commit, which changed nothing src-helm deploys: not drift, nothing to do.
    let helm = rows_of(&before, "src-helm", 2);
    assert!(
        helm.contains("git d845f08") && helm.contains("nothing to apply since 09cead0"),
        "{helm}"
    );
    assert!(!helm.contains("last synced OK"), "{helm}");
}

/// Once an operation has ended no row of its timeline is left running, and no time printed is
/// beyond the axis.
#[test]
fn an_ended_operation_has_final_rows_and_an_axis_that_covers_them() {
    let screen = zoomed(scene(4, |_| {}), Pane::Timeline);
    let axis: i64 = screen
        .lines()
        .find(|l| l.contains("phase wave"))
        .and_then(|l| l.split('│').nth(1))
        .and_then(|a| a.split_whitespace().last())
        .and_then(|s| s.trim_end_matches('s').parse().ok())
        .unwrap_or_else(|| panic!("an axis:\n{screen}"));
    for row in screen
        .lines()
        .filter(|l| l.contains("Job/") || l.contains("/app"))
    {
        assert!(!row.contains(" … "), "an ended operation's row: {row}");
        for time in row.split('+').skip(1) {
            let secs: i64 = time
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap_or(0);
            assert!(secs <= axis, "+{secs}s beyond a {axis}s axis: {row}");
        }
    }
}
