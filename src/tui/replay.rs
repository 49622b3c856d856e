//! Record and replay: `--record FILE` keeps, beside the cast, every message the tutor's state
//! was built from; `capa-tui replay FILE` builds the state again from them, with no cluster, in
//! any language and at any size, paused, stepped, sped up or sought; `--export cast` draws it
//! into a cast at a chosen size.

mod export;
mod player;
mod recording;
mod replayer;

pub use export::export_cast;
pub use player::{Controls, band, draw, play};
pub use recording::{Header, MessageRecorder, Opened, Recording, RecordingError, paths_for};
pub use replayer::{Replay, Watching};
