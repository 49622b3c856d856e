//! `capa-tui replay FILE --export cast`: the recording drawn at a chosen size and language into
//! an asciicast v2 file, one frame each time what the tutor held changed, at the time it
//! changed, for people who were not there (`asciinema play`, its web player).

use std::io::{self, Write};
use std::path::Path;

use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use serde_json::json;

use super::replayer::Replay;
use crate::tui::cast;

/// Messages closer together than this are one frame (a burst of watch events).
const FRAME: f64 = 1.0 / 30.0;

/// Draws `replay` from its start into a cast at `out`, at the size it is watched at.
pub fn export_cast(mut replay: Replay, out: &Path) -> io::Result<()> {
    let (width, height) = replay.watching().size;
    let mut file = io::BufWriter::new(std::fs::File::create(out)?);
    let title = format!("capa-tui replay ({})", replay.watching().lang.code());
    let mut header = cast::header(
        (width, height),
        replay.header().started,
        &title,
        "xterm-256color",
    );
    header["duration"] = json!(replay.duration());
    writeln!(file, "{header}")?;
    let area = Rect::new(0, 0, width, height);
    let written = Written::default();
    let mut terminal = Terminal::with_options(
        CrosstermBackend::new(written.clone()),
        TerminalOptions {
            viewport: Viewport::Fixed(area),
        },
    )?;
    // The screen starts cleared, the cursor hidden, as the tutor's alternate screen does.
    let mut frame_at = 0.0;
    let mut pending = b"\x1b[?25l\x1b[2J\x1b[H".to_vec();
    let mut drawn_version = None;
    loop {
        // What a frame drew can move the next one (a pane's scroll reach): drawn until still.
        for _ in 0..3 {
            let version = replay.state().version();
            if drawn_version == Some(version) {
                break;
            }
            drawn_version = Some(version);
            terminal.draw(|f| {
                let frame = crate::tui::view::draw(replay.state(), f.area(), f.buffer_mut());
                replay.after_frame(frame);
            })?;
            pending.append(&mut written.0.borrow_mut());
        }
        if !pending.is_empty() {
            let line = cast::event(frame_at, "o", &String::from_utf8_lossy(&pending));
            writeln!(file, "{line}")?;
            pending.clear();
        }
        // Everything due within one frame of the next message is given before drawing again.
        let Some(next) = replay.next_at() else {
            break;
        };
        frame_at = next;
        while replay.next_at().is_some_and(|t| t < next + FRAME) {
            replay.apply_next();
        }
    }
    file.flush()
}

/// What the terminal wrote since it was last taken: the frame's bytes.
#[derive(Clone, Default)]
struct Written(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl Write for Written {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
