//! `capa-tui replay`: a recorded session played again with no cluster. Each lesson's shipped
//! demo replays to its evidence passing; lesson 6 steps through, moment by moment and back, in
//! zh at 80×24 and in en at 160×45; a damaged or half recording says what to do; a projector
//! plays a lesson's demo. (A fresh recording replayed: `tests/recording.rs`.)

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use capa_tui::i18n::Lang;
use capa_tui::tui::replay::{Controls, Recording, Replay, Watching, draw};
use capa_tui::tui::theme::Theme;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

mod common;
use common::scenes::text_of;
use common::tmux::Tmux;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn demo(folder: &str) -> PathBuf {
    repo().join("lessons").join(folder).join("demo.replay")
}

fn replayer(path: &Path, lang: &str, size: (u16, u16)) -> Replay {
    let recording = Recording::read(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run scripts/record-demos when the recording's format changed)",
            path.display()
        )
    });
    Replay::new(
        recording,
        Watching {
            lang: Lang::parse(lang).unwrap(),
            present: false,
            theme: Theme::Default,
            size,
        },
    )
    .unwrap()
}

/// The screen the player draws now, as text (a wide character's cell is followed by a blank).
fn screen(replay: &mut Replay, controls: &Controls, (w, h): (u16, u16)) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    terminal
        .draw(|f| draw(replay, controls, f.area(), f.buffer_mut()))
        .unwrap();
    text_of(terminal.backend())
}

fn squeezed(text: &str) -> String {
    text.chars().filter(|c| *c != ' ').collect()
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

#[test]
fn every_lessons_demo_replays_to_its_evidence_passing() {
    let catalog = capa_tui::lab::catalog::Catalog::embedded().unwrap();
    for lesson in catalog.lessons() {
        let path = demo(&lesson.folder);
        assert!(
            path.exists(),
            "{} has no demo: run scripts/record-demos {}",
            lesson.folder,
            lesson.spec.number
        );
        for (lang, passes) in [
            ("en", "self-check"),
            ("zh", "通过自检"),
            ("ko", "자가 점검 통과"),
        ] {
            let mut replay = replayer(&path, lang, (120, 40));
            let mut controls = Controls::new(1.0, true);
            controls.on_key(&mut replay, key(KeyCode::End));
            assert!(replay.ended(), "{}: End shows the end", lesson.folder);
            let text = squeezed(&screen(&mut replay, &controls, (120, 40)));
            // The title's start: the rest may wrap in the lesson pane.
            let title: String = squeezed(lesson.spec.title.get(Lang::parse(lang).unwrap()))
                .chars()
                .take(10)
                .collect();
            assert!(
                text.contains(&title),
                "{} in {lang}: its title {title:?} on screen:\n{text}",
                lesson.folder
            );
            assert!(
                text.contains(&squeezed(passes)) && text.contains('✓'),
                "{} in {lang}: its evidence passes at the end:\n{text}",
                lesson.folder
            );
        }
    }
}

/// Steps lesson 6's demo from its start to its end, then back to the start, at `size` in
/// `lang`; the screens going forward, and each screen stepping back equals the one forward.
fn steps_of_lesson_6(lang: &str, size: (u16, u16)) -> Vec<String> {
    let mut replay = replayer(&demo("06-failed-hook"), lang, size);
    let mut controls = Controls::new(1.0, true);
    let mut forward = vec![screen(&mut replay, &controls, size)];
    while !replay.ended() {
        let before = replay.moments().0;
        controls.on_key(&mut replay, key(KeyCode::PageDown));
        assert!(
            replay.moments().0 > before || replay.ended(),
            "PgDn moves on a moment"
        );
        assert!(!controls.playing, "stepping pauses");
        forward.push(screen(&mut replay, &controls, size));
        assert!(forward.len() < 500, "the steps end");
    }
    // Back: each moment looks as it did on the way forward (the band's clock aside).
    let body = |s: &str| {
        s.lines()
            .take(usize::from(size.1) - 1)
            .collect::<Vec<_>>()
            .join("\n")
    };
    for seen in forward.iter().rev().skip(1).take(5) {
        controls.on_key(&mut replay, key(KeyCode::PageUp));
        let again = screen(&mut replay, &controls, size);
        assert_eq!(
            body(&again),
            body(seen),
            "a step back shows the moment as it was"
        );
    }
    forward
}

#[test]
fn lesson_6_steps_through_in_zh_at_80x24() {
    let screens = steps_of_lesson_6("zh", (80, 24));
    let all: Vec<String> = screens.iter().map(|s| squeezed(s)).collect();
    let total = screens.len() - 1;
    assert!(total >= 5, "lesson 6 has moments to step through: {total}");
    assert!(all[0].contains("⏸已暂停") && all[0].contains(&format!("第0/{total}步")));
    assert!(
        all.iter().any(|s| s.contains("替我做·第6课…执行中")),
        "the plan is seen running"
    );
    assert!(
        all.iter().any(|s| s.contains("✗") || s.contains("失败")),
        "the failed hook is seen failing"
    );
    let last = all.last().unwrap();
    assert!(last.contains("■结束") && last.contains(&format!("第{total}/{total}步")));
    assert!(
        last.contains("✓完成") && last.contains("failed-hook.json通过自检"),
        "{last}"
    );
    // The band fits 80 columns with whole keys only: playing, stepping and quitting among them.
    let band = squeezed(screens.last().unwrap().lines().last().unwrap());
    assert!(
        band.contains("空格播放") && band.contains("PgDn/PgUp单步") && band.contains("q退出"),
        "{band}"
    );
    let keys = "空格播放·PgDn/PgUp单步·q退出·←/→10秒·+/−速度·L语言";
    assert!(
        keys.split('·').any(|k| band.ends_with(k)),
        "a key cut in half: {band}"
    );
}

#[test]
fn lesson_6_steps_through_in_en_at_160x45() {
    let screens = steps_of_lesson_6("en", (160, 45));
    let last = screens.last().unwrap();
    assert!(last.contains("■ end"), "{last}");
    assert!(
        screens
            .iter()
            .any(|s| s.contains("Do it for me · lesson 6 … running")),
        "the plan is seen running"
    );
    assert!(last.contains("✓ done in") && last.contains("failed-hook.json passes the self-check"));
    // At 160 columns every key of the band is said.
    assert!(
        last.contains("q quit · ←/→ 10 s · +/− speed · L language"),
        "{last}"
    );
    // The wide layout: the timeline beside the lesson shows the sync's waves.
    assert!(last.contains("Timeline") || last.contains("Sync"), "{last}");
}

#[test]
fn the_language_changes_while_watching_and_nothing_runs_again() {
    let mut replay = replayer(&demo("06-failed-hook"), "en", (100, 30));
    let mut controls = Controls::new(1.0, true);
    controls.on_key(&mut replay, key(KeyCode::End));
    let en = screen(&mut replay, &controls, (100, 30));
    let at = replay.at();
    controls.on_key(&mut replay, key(KeyCode::Char('L')));
    let next = squeezed(&screen(&mut replay, &controls, (100, 30)));
    assert_eq!(replay.at(), at, "L changes no time");
    assert!(
        !next.contains("passestheself-check"),
        "no longer English:\n{next}"
    );
    for _ in 1..Lang::all().len() {
        controls.on_key(&mut replay, key(KeyCode::Char('L')));
    }
    assert_eq!(
        screen(&mut replay, &controls, (100, 30)),
        en,
        "back in English as it was"
    );
}

#[test]
fn a_replay_that_cannot_be_read_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_capa-tui");
    let run = |file: &Path| {
        std::process::Command::new(bin)
            .args(["replay", "--export", "cast", "--out"])
            .arg(dir.path().join("out.cast"))
            .arg(file)
            .env("CAPA_LANG", "en")
            .output()
            .unwrap()
    };
    // A cast whose messages were not kept beside it.
    let cast = dir.path().join("alone.cast");
    std::fs::write(&cast, "{\"version\": 2, \"width\": 80, \"height\": 24}\n").unwrap();
    let out = run(&cast);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("alone.replay") && err.contains("--record"),
        "{err}"
    );
    // Not a recording at all.
    let other = dir.path().join("notes.json");
    std::fs::write(&other, "{\"hello\": 1}\n").unwrap();
    let err = String::from_utf8_lossy(&run(&other).stderr).into_owned();
    assert!(err.contains("not a capa-tui recording"), "{err}");
    // A line changed in the middle: which line, and that the file must be whole.
    let text = std::fs::read_to_string(demo("06-failed-hook")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3] = "[1.0, {\"Nonsense\": 1}]";
    let damaged = dir.path().join("damaged.replay");
    std::fs::write(&damaged, lines.join("\n")).unwrap();
    let err = String::from_utf8_lossy(&run(&damaged).stderr).into_owned();
    assert!(err.contains("line 4") && err.contains("whole"), "{err}");
    // An export into a folder that is not there: what could not be written, and what to do.
    let demo6 = demo("06-failed-hook");
    let nowhere = std::process::Command::new(bin)
        .args(["replay", "--export", "cast", "--out"])
        .arg(dir.path().join("no-such-folder/out.cast"))
        .arg(&demo6)
        .env("CAPA_LANG", "en")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&nowhere.stderr);
    assert!(!nowhere.status.success());
    assert!(
        err.contains("cannot write") && err.contains("--out"),
        "{err}"
    );
    // A tutor killed mid-write: the half line at the end is left off, the rest replays.
    let cut = dir.path().join("cut.replay");
    std::fs::write(&cut, &text[..text.len() - 40]).unwrap();
    let out = run(&cut);
    assert!(out.status.success(), "{out:?}");
    let full = Recording::read(&demo("06-failed-hook")).unwrap();
    let half = Recording::read(&cut).unwrap();
    assert_eq!(half.messages.len() + 1, full.messages.len());
}

#[test]
fn present_mode_replays_a_lessons_demo_with_no_cluster() {
    let t = Tmux {
        socket: format!("replay-present-{}", std::process::id()),
    };
    let folder = repo().join("lessons/06-failed-hook");
    t.start(
        80,
        24,
        &format!(
            "env LANG=en_US.UTF-8 CAPA_LANG=zh KUBECONFIG=/nonexistent {} --present --replay {} --speed 4; sleep 600",
            env!("CARGO_BIN_EXE_capa-tui"),
            folder.display()
        ),
    );
    // Presenting, it waits for the presenter; then plays at ×4 to its end, with nothing to
    // connect to.
    t.wait_for("已暂停", Duration::from_secs(10));
    t.keys(&["Space"]);
    let end = t.wait_until("the replay's end", Duration::from_secs(60), |s| {
        squeezed(s).contains("■结束")
    });
    assert!(squeezed(&end).contains("×4"), "{end}");
    assert!(
        squeezed(&end).starts_with("capa-tui回放"),
        "the header says it is a replay: {end}"
    );
    // PgUp, the clicker's other key, steps back a moment.
    t.keys(&["PageUp"]);
    let back = t.wait_for("已暂停", Duration::from_secs(5));
    assert!(squeezed(&back).contains("第"), "{back}");
    t.keys(&["q"]);
    t.wait_until("the player gone", Duration::from_secs(10), |s| {
        !s.contains("已暂停")
    });
}

/// The tutor as `replay` holds it now, drawn alone (no band) until what it drew moves nothing.
fn tutor_screen(replay: &mut Replay, (w, h): (u16, u16)) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    for _ in 0..3 {
        terminal
            .draw(|f| {
                let frame = capa_tui::tui::view::draw(replay.state(), f.area(), f.buffer_mut());
                // As the player and the export do: the frame's scroll reach goes back in.
                replay.after_frame(frame);
            })
            .unwrap();
    }
    text_of(terminal.backend())
}

#[test]
fn lesson_6s_demo_plays_in_asciinema_in_zh_at_80x24_and_steps_in_the_player_in_en_at_160x45() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_capa-tui");
    let cast = dir.path().join("lesson-6.zh.80x24.cast");
    let folder = repo().join("lessons/06-failed-hook");
    let out = std::process::Command::new(bin)
        .args([
            "replay", "--export", "cast", "--size", "80x24", "--lang", "zh", "--out",
        ])
        .arg(&cast)
        .arg(&folder)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // asciinema itself plays it to the screen the replay ends on.
    let mut replay = replayer(&demo("06-failed-hook"), "zh", (80, 24));
    replay.seek(replay.duration());
    let want: Vec<String> = tutor_screen(&mut replay, (80, 24))
        .lines()
        .map(squeezed)
        .collect();
    assert!(
        want.iter().any(|l| l.contains("failed-hook.json通过自检")),
        "{want:#?}"
    );
    let player = Tmux {
        socket: format!("replay-asciinema-{}", std::process::id()),
    };
    player.start(
        80,
        24,
        &format!("asciinema play -i 0.1 -s 20 {}; sleep 600", cast.display()),
    );
    player.wait_until("lesson 6's last screen", Duration::from_secs(60), |s| {
        s.lines().map(squeezed).collect::<Vec<_>>() == want
    });

    // The player, in a terminal of 160×45, in English: PgDn steps to the end, moment by moment.
    let t = Tmux {
        socket: format!("replay-player-{}", std::process::id()),
    };
    t.start(
        160,
        45,
        &format!(
            "env LANG=en_US.UTF-8 CAPA_LANG=en {bin} replay {} --paused; sleep 600",
            folder.display()
        ),
    );
    let first = t.wait_for("⏸ paused", Duration::from_secs(10));
    let total: usize = first
        .split("step 0/")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the band counts the steps: {first}"));
    for step in 1..=total {
        t.keys(&["PageDown"]);
        t.wait_for(&format!("step {step}/{total}"), Duration::from_secs(10));
    }
    let end = t.wait_for("■ end", Duration::from_secs(10));
    assert!(
        end.contains("failed-hook.json passes the self-check"),
        "{end}"
    );
    assert!(end.contains("REPLAY of"), "{end}");
    t.keys(&["q"]);
}

#[test]
fn the_band_shows_play_step_and_quit_at_80_columns_in_every_language() {
    for (lang, want) in [
        ("en", ["space play", "PgDn/PgUp step", "q quit"]),
        ("zh", ["空格播放", "PgDn/PgUp单步", "q退出"]),
        ("ko", ["Space재생", "PgDn/PgUp단계", "q종료"]),
    ] {
        let mut replay = replayer(&demo("06-failed-hook"), lang, (80, 24));
        let mut controls = Controls::new(1.0, true);
        // The longest the position gets: the last step of the recording.
        controls.on_key(&mut replay, key(KeyCode::End));
        let text = screen(&mut replay, &controls, (80, 24));
        let band = squeezed(text.lines().last().unwrap());
        for key in want {
            assert!(
                band.contains(&squeezed(key)),
                "{lang}: no {key:?} in {band}"
            );
        }
    }
}
