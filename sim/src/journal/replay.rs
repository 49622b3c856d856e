//! Reading a state dir back: the snapshot, then the journal's records after it. Only a torn
//! last line (a write cut off by a kill, never acknowledged, since a write is acknowledged only
//! once its whole line is synced) may be skipped. Any other line that cannot be read, or a
//! record of a kind this version does not know (written by a newer capa-tui), stops the load
//! with the file and line: skipping it would silently drop it and every record after it, and
//! the compaction that follows a load would then erase them (reliability review 4, D1 and D2).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde_json::Value;

use super::{JournalError, Loaded, io};
use crate::key::Key;
use crate::kinds::by_plural;

/// Why one journal line cannot be replayed.
#[derive(Debug)]
pub enum BadLine {
    /// Not JSON, or not a record (no `rv` or no `key`).
    Unreadable(String),
    /// A record of a type this version does not serve.
    UnknownKind(String),
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadLine::Unreadable(why) => write!(f, "not a record this version can read: {why}"),
            BadLine::UnknownKind(what) => write!(
                f,
                "a record of a kind this version does not know ({what}); was the state dir written by a newer capa-tui?"
            ),
        }
    }
}

/// One record as the journal holds it.
pub struct Entry {
    pub rv: u64,
    pub key: Key,
    pub at: Option<Timestamp>,
    /// `None` for a deletion.
    pub object: Option<Value>,
}

/// The journal's lines, split, with how the file ends: a last line without its newline is a
/// write that was cut off.
pub struct Lines<'a> {
    pub lines: Vec<&'a [u8]>,
    pub ends_torn: bool,
}

pub fn split_lines(bytes: &[u8]) -> Lines<'_> {
    let ends_torn = !bytes.is_empty() && !bytes.ends_with(b"\n");
    let mut lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    if !ends_torn {
        // `split` yields an empty piece after the final newline.
        lines.pop();
    }
    Lines { lines, ends_torn }
}

/// Reads one line as a record. A CRD's types are made as it is read, so the custom resources
/// after it have a key.
pub fn parse_line(line: &[u8]) -> Result<Entry, BadLine> {
    let record: Value =
        serde_json::from_slice(line).map_err(|e| BadLine::Unreadable(e.to_string()))?;
    let rv = record["rv"]
        .as_u64()
        .ok_or_else(|| BadLine::Unreadable("no resourceVersion".into()))?;
    let key = parse_key(&record["key"])?;
    // A journal written before records carried their time has no `at`: the snapshot's stands.
    let at = record["at"]
        .as_str()
        .and_then(|s| s.parse::<Timestamp>().ok());
    let object = if record.get("deleted").is_some() {
        None
    } else {
        let object = record.get("object").cloned().unwrap_or(Value::Null);
        if !object.is_object() {
            return Err(BadLine::Unreadable("no object".into()));
        }
        remember_crd(&object);
        Some(object)
    };
    Ok(Entry {
        rv,
        key,
        at,
        object,
    })
}

/// Replays the journal at `path` onto what the snapshot loaded.
pub fn replay_journal(path: &Path, loaded: &mut Loaded) -> Result<(), JournalError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io(path, e)),
    };
    let Lines { lines, ends_torn } = split_lines(&bytes);
    let mut objects: BTreeMap<Key, Value> = loaded.objects.drain(..).collect();
    let last = lines.len();
    for (index, line) in lines.into_iter().enumerate() {
        let entry = match parse_line(line) {
            Ok(entry) => entry,
            // Cut off mid-write: never acknowledged, so nothing is lost by leaving it out.
            Err(_) if ends_torn && index + 1 == last => {
                tracing::warn!(
                    "{}: left out line {} (cut off mid-write; it was never acknowledged)",
                    path.display(),
                    index + 1
                );
                break;
            }
            Err(why) => {
                return Err(JournalError::Damaged {
                    path: path.to_path_buf(),
                    line: index + 1,
                    why: why.to_string(),
                });
            }
        };
        if entry.rv <= loaded.rv {
            continue;
        }
        loaded.rv = entry.rv;
        if let Some(at) = entry.at {
            loaded.clock = Some(loaded.clock.map_or(at, |clock| clock.max(at)));
        }
        match entry.object {
            None => {
                objects.remove(&entry.key);
            }
            Some(object) => {
                objects.insert(entry.key, object);
            }
        }
    }
    loaded.objects = objects.into_iter().collect();
    Ok(())
}

/// Loads the snapshot at `path` (nothing there is an empty store).
pub fn load_snapshot(path: &Path) -> Result<Loaded, JournalError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::default()),
        Err(e) => return Err(io(path, e)),
    };
    let damaged = |why: String| JournalError::DamagedSnapshot {
        path: path.to_path_buf(),
        why,
    };
    // A file that starts as ours but does not parse is ours, damaged (review 4, U4).
    let ours = bytes
        .get(..64)
        .unwrap_or(&bytes)
        .windows(14)
        .any(|w| w == b"\"capaTuiStore\"");
    let body: Value = serde_json::from_slice(&bytes).map_err(|e| {
        if ours {
            damaged(e.to_string())
        } else {
            foreign(path, &e.to_string())
        }
    })?;
    if body.get("capaTuiStore").is_none() {
        return Err(foreign(path, "no capaTuiStore marker"));
    }
    let items = body["objects"]
        .as_array()
        .ok_or_else(|| damaged("its objects are not a list".into()))?;
    let mut loaded = Loaded {
        rv: body["rv"].as_u64().unwrap_or(0),
        clock: body["clock"].as_str().and_then(|s| s.parse().ok()),
        objects: Vec::new(),
    };
    for (index, item) in items.iter().enumerate() {
        remember_crd(&item["object"]);
        let key =
            parse_key(&item["key"]).map_err(|why| damaged(format!("object {index}: {why}")))?;
        loaded.objects.push((key, item["object"].clone()));
    }
    Ok(loaded)
}

fn foreign(path: &Path, why: &str) -> JournalError {
    JournalError::Foreign {
        path: PathBuf::from(path),
        why: why.into(),
    }
}

/// Makes the types a stored CRD defines, so the keys of its custom resources can be read.
fn remember_crd(object: &Value) {
    if object["kind"] == "CustomResourceDefinition"
        && object["apiVersion"] == "apiextensions.k8s.io/v1"
    {
        crate::kinds::custom::from_crd(object);
    }
}

pub fn key_json(key: &Key) -> Value {
    let ty = key.ty();
    serde_json::json!([ty.group, ty.version, ty.plural, key.namespace, key.name])
}

fn parse_key(v: &Value) -> Result<Key, BadLine> {
    let parts: Vec<&str> = v
        .as_array()
        .ok_or_else(|| BadLine::Unreadable("no key".into()))?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let [group, version, plural, namespace, name] = parts[..] else {
        return Err(BadLine::Unreadable("a key that is not five names".into()));
    };
    let ty = by_plural(group, version, plural)
        .or_else(|| crate::kinds::custom::stored(group, plural))
        .ok_or_else(|| {
            let gv = if group.is_empty() {
                version.to_string()
            } else {
                format!("{group}/{version}")
            };
            BadLine::UnknownKind(format!("{plural} in {gv}"))
        })?;
    Ok(Key::new(ty, namespace, name))
}
