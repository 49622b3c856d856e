//! Benchmark of `capa-tui replay` (issue 34; run: `cargo bench --bench replay`, results in README
//! "Benchmarks"): lesson 6's shipped demo, and a class-long recording made of it (its messages
//! repeated one after another for an hour of recorded time). For each: reading the file, opening
//! the state, playing to the end, seeking back to the middle (which opens the state again and
//! replays forwards: the cost a `←` pays), and drawing one frame at 120×40. Reported, never
//! asserted: a timing is a benchmark, not a test.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark stops at the first thing that goes wrong, saying what"
)]

use std::path::Path;
use std::time::{Duration, Instant};

use capa_tui::i18n::Lang;
use capa_tui::tui::replay::{Controls, Recording, Replay, Watching, draw};
use capa_tui::tui::theme::Theme;

/// How many runs of each measure; the median is reported.
const RUNS: usize = 5;

fn watching() -> Watching {
    Watching {
        lang: Lang::FALLBACK,
        present: false,
        theme: Theme::Default,
        size: (120, 40),
    }
}

fn median(mut d: Vec<Duration>) -> Duration {
    d.sort();
    d[d.len() / 2]
}

/// The recording at `demo`, its messages repeated until they cover `seconds` of recorded time.
fn lengthened(demo: &Path, seconds: f64) -> Recording {
    let mut r = Recording::read(demo).unwrap();
    let one = r.messages.clone();
    let span = one.last().map_or(1.0, |(t, _)| *t) + 1.0;
    let mut at = span;
    while at < seconds {
        r.messages
            .extend(one.iter().map(|(t, m)| (t + at, m.clone())));
        at += span;
    }
    r
}

fn measure(name: &str, make: impl Fn() -> Recording) {
    let messages = make().messages.len();
    let (mut read, mut open, mut to_end, mut back, mut frame) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let t = Instant::now();
        let recording = make();
        read.push(t.elapsed());
        let t = Instant::now();
        let mut replay = Replay::new(recording, watching()).unwrap();
        open.push(t.elapsed());
        let t = Instant::now();
        replay.seek(replay.duration());
        to_end.push(t.elapsed());
        let t = Instant::now();
        replay.seek(replay.duration() / 2.0);
        back.push(t.elapsed());
        let controls = Controls::new(1.0, true);
        let mut buffer = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 120, 40));
        let t = Instant::now();
        draw(&mut replay, &controls, buffer.area, &mut buffer);
        frame.push(t.elapsed());
    }
    let ms = |d: Vec<Duration>| format!("{:.1}", median(d).as_secs_f64() * 1e3);
    println!(
        "| {name} | {messages} | {} | {} | {} | {} | {} |",
        ms(read),
        ms(open),
        ms(to_end),
        ms(back),
        ms(frame)
    );
}

fn main() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/06-failed-hook/demo.replay");
    println!(
        "| recording | messages | read ms | open ms | play to the end ms | seek back to the middle ms | one frame 120×40 ms |"
    );
    println!("|---|---|---|---|---|---|---|");
    measure("lesson 6's demo", || Recording::read(&demo).unwrap());
    measure("an hour (lesson 6's demo over and over)", || {
        lengthened(&demo, 3600.0)
    });
}
