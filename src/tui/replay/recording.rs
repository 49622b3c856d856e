//! A recorded session's messages (`--record FILE` writes them beside the cast as `FILE.replay`):
//! a header line saying how the tutor opened (its lab, lessons, progress), then one line per
//! message as `update` took it, with its time since the start. JSON lines, like the cast.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::lab::catalog::CatalogSource;
use crate::tui::state::{Opening, ShellAbout};
use crate::tui::update::Msg;

/// What the first line's `format` says: this is a capa-tui replay, not another JSON file.
const FORMAT: &str = "capa-tui replay";
/// The version of this layout; a replay of another version is refused, saying which.
pub const VERSION: u32 = 1;

/// How the recorded tutor opened: enough to open the same state again with no cluster.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
    /// The capa-tui that recorded it.
    pub tutor: String,
    /// The wall's time when the recording began: message times count from it.
    pub started: jiff::Timestamp,
    /// The terminal's size then.
    pub size: (u16, u16),
    /// The language it was recorded in (a replay may choose another).
    pub lang: String,
    pub present: bool,
    /// The lessons and templates (`None`: the built-in ones) and the learner.
    pub catalog: CatalogSource,
    pub opened: Opened,
}

/// The parts of the tutor's [`Opening`] that belong to the lab, not to who watches it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Opened {
    pub target: crate::session::Target,
    pub fit: crate::lab::fit::Fit,
    pub clock: Option<crate::cluster::clock::FastClock>,
    pub shell_about: ShellAbout,
    pub progress: crate::lab::progress::Progress,
    pub lesson: Option<crate::lab::spec::LessonId>,
}

impl Header {
    /// The header of a recording of a tutor that opens with `opening` on `catalog`.
    pub fn new(opening: &Opening, catalog: &crate::lab::catalog::Catalog, present: bool) -> Header {
        Header {
            format: FORMAT.into(),
            version: VERSION,
            tutor: env!("CARGO_PKG_VERSION").into(),
            started: jiff::Timestamp::now(),
            size: opening.size.unwrap_or((80, 24)),
            lang: opening.lang.code().into(),
            present,
            catalog: catalog.source().clone(),
            opened: Opened::of(opening),
        }
    }
}

impl Opened {
    pub fn of(o: &Opening) -> Opened {
        Opened {
            target: o.target.clone(),
            fit: o.fit.clone(),
            clock: o.clock.clone(),
            shell_about: o.shell_about.clone(),
            progress: o.progress.clone(),
            lesson: o.lesson,
        }
    }
}

/// Where the messages of a recording into `cast` go: beside it, named `.replay` (a cast named
/// `.replay` itself is written as `.cast`, so the two never share a path).
pub fn paths_for(record: &Path) -> (PathBuf, PathBuf) {
    let is_replay = record.extension().is_some_and(|e| e == "replay");
    match is_replay {
        true => (record.with_extension("cast"), record.to_path_buf()),
        false => (record.to_path_buf(), record.with_extension("replay")),
    }
}

/// The messages being recorded.
#[derive(Clone)]
pub struct MessageRecorder {
    file: Arc<Mutex<io::BufWriter<std::fs::File>>>,
    started: Instant,
}

impl MessageRecorder {
    /// A new recording at `path`, its header written.
    pub fn create(path: &Path, header: &Header) -> io::Result<MessageRecorder> {
        let mut file = io::BufWriter::new(std::fs::File::create(path)?);
        serde_json::to_writer(&mut file, header)?;
        writeln!(file)?;
        file.flush()?;
        Ok(MessageRecorder {
            file: Arc::new(Mutex::new(file)),
            started: Instant::now(),
        })
    }

    /// Keeps `msg` as `update` is about to take it. What a frame drew is not kept: a replay
    /// draws its own frames, at its own size.
    pub fn keep(&self, msg: &Msg) {
        if matches!(msg, Msg::Drawn(_) | Msg::Replaying(_)) {
            return;
        }
        let at = crate::tui::cast::in_micros(self.started.elapsed().as_secs_f64());
        let msg = without_secrets(msg);
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        let written = serde_json::to_writer(&mut *file, &(at, msg.as_ref()))
            .map_err(io::Error::from)
            .and_then(|()| writeln!(file));
        if let Err(e) = written {
            tracing::warn!("a message could not be recorded: {e}");
        }
    }

    /// Writes out what is buffered (after each burst of messages, so a tutor that is killed
    /// leaves a recording that replays up to then).
    pub fn flush(&self) {
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = file.flush() {
            tracing::warn!("the recording could not be written: {e}");
        }
    }
}

/// `msg` with every Secret's values left out: a recording is made to be shared, and nothing on
/// screen shows them (a Secret the lab reads is counted, never read out).
fn without_secrets(msg: &Msg) -> std::borrow::Cow<'_, Msg> {
    use crate::cluster::Kind;
    use crate::cluster::watch::{ObjectChange, StreamChange};
    let hide = |object: &mut serde_json::Value| {
        for field in ["data", "stringData"] {
            if let Some(values) = object.get_mut(field).and_then(|v| v.as_object_mut()) {
                for value in values.values_mut() {
                    *value = serde_json::Value::String(HIDDEN.into());
                }
            }
        }
    };
    match msg {
        Msg::Object(ObjectChange::Applied { key, .. }) if key.kind == Kind::Secret => {
            let mut msg = msg.clone();
            if let Msg::Object(ObjectChange::Applied { object, .. }) = &mut msg {
                hide(object);
            }
            std::borrow::Cow::Owned(msg)
        }
        Msg::Stream(StreamChange::Listed { stream, .. }) if stream.kind == Kind::Secret => {
            let mut msg = msg.clone();
            if let Msg::Stream(StreamChange::Listed { objects, .. }) = &mut msg {
                objects.iter_mut().for_each(|(_, o)| hide(o));
            }
            std::borrow::Cow::Owned(msg)
        }
        _ => std::borrow::Cow::Borrowed(msg),
    }
}

/// What a Secret's value is recorded as.
const HIDDEN: &str = "(not recorded)";

/// A recording read back: its header and its messages, each at its time since the start.
pub struct Recording {
    pub header: Header,
    pub messages: Vec<(f64, Msg)>,
}

/// Why a recording cannot be replayed.
#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    #[error("{}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The file is an asciicast whose messages are not beside it.
    #[error("{} is a cast; its messages ({}) are not there", .cast.display(), .replay.display())]
    CastWithout { cast: PathBuf, replay: PathBuf },
    #[error("{} is not a capa-tui replay", .path.display())]
    NotAReplay { path: PathBuf },
    #[error("{} is a replay of version {found}; this capa-tui reads version {VERSION}", .path.display())]
    Version { path: PathBuf, found: u32 },
    #[error("{}:{line}: {source}", .path.display())]
    Line {
        path: PathBuf,
        line: usize,
        #[source]
        source: serde_json::Error,
    },
}

impl crate::i18n::Say for RecordingError {
    fn say(&self, lang: crate::i18n::Lang) -> String {
        use crate::t;
        match self {
            RecordingError::Read { path, source } => t!(
                lang,
                "replay-error-read",
                path = path.display().to_string(),
                why = source.to_string()
            ),
            RecordingError::CastWithout { cast, replay } => t!(
                lang,
                "replay-error-cast-without",
                cast = cast.display().to_string(),
                replay = replay.display().to_string()
            ),
            RecordingError::NotAReplay { path } => t!(
                lang,
                "replay-error-not-a-replay",
                path = path.display().to_string()
            ),
            RecordingError::Version { path, found } => t!(
                lang,
                "replay-error-version",
                path = path.display().to_string(),
                found = i64::from(*found),
                reads = i64::from(VERSION)
            ),
            RecordingError::Line { path, line, source } => t!(
                lang,
                "replay-error-line",
                path = path.display().to_string(),
                line = i64::try_from(*line).unwrap_or(i64::MAX),
                why = source.to_string()
            ),
        }
    }
}

impl Recording {
    /// Reads the recording at `path`: its `.replay` file, or a cast with one beside it.
    pub fn read(path: &Path) -> Result<Recording, RecordingError> {
        let unreadable = |source| RecordingError::Read {
            path: path.to_path_buf(),
            source,
        };
        let mut lines = io::BufReader::new(std::fs::File::open(path).map_err(unreadable)?).lines();
        let first = lines.next().transpose().map_err(unreadable)?;
        let first: serde_json::Value = first
            .and_then(|l| serde_json::from_str(&l).ok())
            .unwrap_or_default();
        if first["version"] == 2 && first["width"].is_u64() {
            let (cast, replay) = paths_for(path);
            if replay == path || !replay.exists() {
                return Err(RecordingError::CastWithout { cast, replay });
            }
            return Recording::read(&replay);
        }
        if first["format"] != FORMAT {
            return Err(RecordingError::NotAReplay {
                path: path.to_path_buf(),
            });
        }
        let found = first["version"].as_u64().unwrap_or_default();
        if found != u64::from(VERSION) {
            return Err(RecordingError::Version {
                path: path.to_path_buf(),
                found: u32::try_from(found).unwrap_or(u32::MAX),
            });
        }
        let line_error = |line: usize| {
            let path = path.to_path_buf();
            move |source| RecordingError::Line { path, line, source }
        };
        let header: Header = serde_json::from_value(first).map_err(line_error(1))?;
        let mut messages = Vec::new();
        for (i, line) in lines.enumerate() {
            let line = line.map_err(unreadable)?;
            if line.trim().is_empty() {
                continue;
            }
            // A tutor killed mid-write leaves half a last line: the replay ends before it.
            match serde_json::from_str::<(f64, Msg)>(&line) {
                Ok(m) => messages.push(m),
                Err(e) if e.is_eof() => break,
                Err(e) => return Err(line_error(i + 2)(e)),
            }
        }
        Ok(Recording { header, messages })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::watch::{ObjectChange, StreamChange, StreamId};
    use crate::cluster::{Kind, ObjectKey};
    use serde_json::json;

    #[test]
    fn a_secrets_values_are_never_recorded_and_other_objects_are_kept_whole() {
        let secret = json!({"kind": "Secret", "metadata": {"name": "s", "namespace": "n"},
            "type": "Opaque", "data": {"password": "aHVudGVyMg=="}, "stringData": {"token": "t0k"}});
        let config = json!({"kind": "ConfigMap", "metadata": {"name": "c", "namespace": "n"},
            "data": {"greeting": "hello"}});
        let applied = Msg::Object(ObjectChange::Applied {
            key: ObjectKey::new("n", Kind::Secret, "s"),
            object: secret.clone(),
        });
        let listed = Msg::Stream(StreamChange::Listed {
            stream: StreamId::new("n", Kind::Secret),
            objects: vec![(ObjectKey::new("n", Kind::Secret, "s"), secret)],
            at: jiff::Timestamp::UNIX_EPOCH,
        });
        for msg in [applied, listed] {
            let kept = serde_json::to_string(without_secrets(&msg).as_ref()).unwrap();
            assert!(
                !kept.contains("aHVudGVyMg") && !kept.contains("t0k"),
                "{kept}"
            );
            assert!(kept.contains("password") && kept.contains(HIDDEN), "{kept}");
        }
        let config = Msg::Object(ObjectChange::Applied {
            key: ObjectKey::new("n", Kind::ConfigMap, "c"),
            object: config,
        });
        let kept = serde_json::to_string(without_secrets(&config).as_ref()).unwrap();
        assert!(kept.contains("hello"), "{kept}");
    }
}
