//! `--record FILE`: the tutor's session as an asciicast v2 file, and its messages beside it.
//! Played back into a terminal of the size its header says, the cast ends on the screen the
//! person saw last; and so does the tutor drawn again from the messages (`capa-tui replay
//! --export cast`), played by `asciinema play` itself.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

use std::time::Duration;

use serde_json::Value;

mod common;
use common::tmux::Tmux;

/// The screen's rows, each without its trailing blanks, and no blank rows at the end.
fn rows(text: &str) -> Vec<String> {
    let mut rows: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
    while rows.last().is_some_and(String::is_empty) {
        rows.pop();
    }
    rows
}

#[test]
fn a_recorded_session_plays_back_to_the_screen_seen_last() {
    let dir = tempfile::tempdir().unwrap();
    let (state, cast) = (dir.path().join("state"), dir.path().join("lesson.cast"));
    let t = Tmux {
        socket: format!("record-{}", std::process::id()),
    };
    t.start(
        100,
        30,
        &format!(
            "env LANG=en_US.UTF-8 CAPA_LANG=en SHELL=/bin/bash {} --sim --speed 10 --state-dir {} --record {}; sleep 600",
            env!("CARGO_BIN_EXE_capa-tui"),
            state.display(),
            cast.display()
        ),
    );
    t.wait_for("✓ live", Duration::from_secs(60));
    t.keys(&["PageDown", "PageDown", "n", "Tab"]);
    std::thread::sleep(Duration::from_secs(1));
    let seen = t.screen();
    t.keys(&["q"]);
    t.wait_until("the tutor gone", Duration::from_secs(30), |s| {
        !s.contains("capa-tui ")
    });

    let text = std::fs::read_to_string(&cast).unwrap();
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(
        (&header["version"], &header["width"], &header["height"]),
        (&Value::from(2), &Value::from(100), &Value::from(30)),
        "{header}"
    );
    let mut screen = vt100::Parser::new(30, 100, 0);
    let mut last = 0.0;
    let mut outputs = 0;
    for line in lines {
        let event: Value = serde_json::from_str(line).unwrap();
        let at = event[0].as_f64().unwrap();
        assert!(at >= last, "events in time order: {line}");
        last = at;
        match event[1].as_str() {
            Some("o") => {
                screen.process(event[2].as_str().unwrap().as_bytes());
                outputs += 1;
            }
            Some("r") => {}
            other => panic!("an event of kind {other:?}"),
        }
    }
    assert!(outputs > 3, "{outputs} frames");
    assert_eq!(
        rows(&screen.screen().contents()),
        rows(&seen),
        "the recording's last screen is the one seen"
    );

    // Drawn again from the messages at the recorded size: the last frame is what was seen.
    assert!(
        dir.path().join("lesson.replay").exists(),
        "the messages beside the cast"
    );
    let again = dir.path().join("again.cast");
    let export = std::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["replay", "--export", "cast", "--size", "100x30", "--out"])
        .arg(&again)
        .arg(&cast)
        .env("CAPA_LANG", "en")
        .output()
        .unwrap();
    assert!(export.status.success(), "{export:?}");
    let said = String::from_utf8_lossy(&export.stdout);
    assert!(said.contains("asciinema play"), "{said}");
    // Played by asciinema itself in a terminal of that size, it ends on that screen too.
    let player = Tmux {
        socket: format!("record-play-{}", std::process::id()),
    };
    player.start(
        100,
        30,
        &format!("asciinema play -i 0.2 -s 20 {}; sleep 600", again.display()),
    );
    // All but the header, which says it is a replay, and of when.
    let want = rows(&seen)[1..].to_vec();
    let replayed = player.wait_until(
        "the replay's last screen, as seen",
        Duration::from_secs(60),
        |s| rows(s).get(1..) == Some(&want[..]),
    );
    assert!(
        replayed
            .lines()
            .next()
            .is_some_and(|h| h.contains("REPLAY of")),
        "{replayed}"
    );
}
