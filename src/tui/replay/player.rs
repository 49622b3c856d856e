//! `capa-tui replay FILE`: the recorded tutor on this terminal, with a band at the bottom that
//! says where in the recording it is and the keys that move it: space plays and pauses, PgDn
//! and PgUp step a moment, ← and → seek ten seconds, Home and End, + and − the speed, L the
//! language, q quits. The tutor's own keys were the learner's: they come from the recording.

use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthStr;

use super::replayer::Replay;
use crate::i18n::Lang;
use crate::t;

/// The speeds `+` and `−` move through.
const SPEEDS: [f64; 8] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0];
/// How far ← and → seek, in recorded seconds.
const SEEK: f64 = 10.0;

/// How the watcher is playing the recording.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Controls {
    pub playing: bool,
    pub speed: f64,
    pub quit: bool,
}

impl Controls {
    pub fn new(speed: f64, paused: bool) -> Controls {
        Controls {
            playing: !paused,
            speed,
            quit: false,
        }
    }

    /// What a key of the watcher's does.
    pub fn on_key(&mut self, replay: &mut Replay, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Char(' ') => {
                // Played to the end: play starts it again.
                if replay.ended() && !self.playing {
                    replay.seek(0.0);
                }
                self.playing = !self.playing;
            }
            KeyCode::PageDown | KeyCode::Char('n') => {
                self.playing = false;
                replay.step();
            }
            KeyCode::PageUp | KeyCode::Char('p') => {
                self.playing = false;
                replay.step_back();
            }
            KeyCode::Right => replay.seek(replay.at() + SEEK),
            KeyCode::Left => replay.seek(replay.at() - SEEK),
            KeyCode::Home => replay.seek(0.0),
            KeyCode::End => replay.seek(replay.duration()),
            KeyCode::Char('+' | '=') => self.speed = next_speed(self.speed, true),
            KeyCode::Char('-' | '_') => self.speed = next_speed(self.speed, false),
            KeyCode::Char('L') => {
                let all = Lang::all();
                let now = replay.watching().lang;
                let at = all.iter().position(|l| *l == now).unwrap_or(0);
                replay.set_lang(all[(at + 1) % all.len()]);
            }
            _ => {}
        }
    }
}

/// The speed after `speed`, faster or slower, within [`SPEEDS`].
fn next_speed(speed: f64, faster: bool) -> f64 {
    let at = SPEEDS
        .iter()
        .position(|s| *s >= speed)
        .unwrap_or(SPEEDS.len() - 1);
    match faster {
        true => SPEEDS[(at + 1).min(SPEEDS.len() - 1)],
        false => SPEEDS[at.saturating_sub(1)],
    }
}

/// `m:ss`.
fn clock(seconds: f64) -> String {
    // Seconds of a recording: small and never negative.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let s = seconds.max(0.0) as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// The band: where the replay is, and as many of its keys as fit in `width`, in the watcher's
/// language.
pub fn band(replay: &Replay, controls: &Controls, width: u16) -> Line<'static> {
    let lang = replay.watching().lang;
    let theme = replay.state().ui().theme;
    let state = match (controls.playing, replay.ended()) {
        (_, true) => t!(lang, "replay-ended"),
        (true, false) => t!(lang, "replay-playing"),
        (false, false) => t!(lang, "replay-paused"),
    };
    let (step, steps) = replay.moments();
    let position = t!(
        lang,
        "replay-position",
        at = clock(replay.at()),
        total = clock(replay.duration()),
        speed = format!("{}", controls.speed),
        step = step,
        steps = steps
    );
    let mut line = Line::from(vec![
        Span::styled(format!(" {state} "), theme.title()),
        Span::raw(position),
    ]);
    // Whole keys only (a key cut in half reads as another), in the order they are said; one
    // that does not fit leaves its room to a shorter one after it.
    let keys = t!(lang, "replay-keys");
    for key in keys.split(" · ") {
        let room = usize::from(width).saturating_sub(line.width());
        if key.width() + 3 <= room {
            line.push_span(Span::styled(format!(" · {key}"), theme.dim()));
        }
    }
    line
}

/// The tutor as the replay holds it in `area`, and the band over its last row: there the
/// tutor lists its own keys, which do nothing in a replay.
pub fn draw(replay: &mut Replay, controls: &Controls, area: Rect, buf: &mut Buffer) {
    if (area.width, area.height) != replay.watching().size {
        replay.resize((area.width, area.height));
    }
    let frame = crate::tui::view::draw(replay.state(), area, buf);
    replay.after_frame(frame);
    let row = Rect {
        y: area.y + area.height.saturating_sub(1),
        height: area.height.min(1),
        ..area
    };
    ratatui::widgets::Clear.render(row, buf);
    band(replay, controls, row.width).render(row, buf);
}

/// Plays `replay` on this terminal until the watcher quits; returns the exit code.
pub fn play(mut replay: Replay, mut controls: Controls) -> i32 {
    let mut terminal = ratatui::init();
    let mut code = 0;
    let mut last = Instant::now();
    loop {
        if let Err(e) = terminal.draw(|f| draw(&mut replay, &controls, f.area(), f.buffer_mut())) {
            tracing::error!("drawing failed: {e}");
            code = 1;
            break;
        }
        // Wake for the next message when playing (at most a second away, so the band's clock
        // moves), else only for a key.
        let wait = match (controls.playing, replay.next_at()) {
            (true, Some(next)) => {
                Duration::from_secs_f64(((next - replay.at()) / controls.speed).clamp(0.0, 1.0))
            }
            (true, None) => Duration::ZERO,
            (false, _) => Duration::from_secs(3600),
        };
        match event::poll(wait) {
            Ok(true) => match event::read() {
                Ok(Event::Key(key)) => controls.on_key(&mut replay, key),
                Ok(_) => {}
                Err(_) => break,
            },
            Ok(false) => {}
            Err(_) => break,
        }
        let now = Instant::now();
        if controls.playing {
            let to = replay.at() + now.duration_since(last).as_secs_f64() * controls.speed;
            replay.seek(to);
            if replay.ended() {
                controls.playing = false;
            }
        }
        last = now;
        if controls.quit {
            break;
        }
    }
    ratatui::restore();
    code
}
