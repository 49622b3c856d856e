//! The state dir's durable form: a snapshot written atomically (temp file, fsync, rename) plus
//! an append-only journal of changes since it. A kill -9 can at worst leave a torn last
//! journal line, which loading ignores; so the store is never half-written.

use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde_json::{Value, json};

use super::key::Key;
use super::kinds::by_plural;

const SNAPSHOT: &str = "snapshot.json";
const JOURNAL: &str = "journal.jsonl";
/// Fold the journal into a new snapshot after this many records.
const COMPACT_AFTER: usize = 20_000;

#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("cannot use state dir {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "state dir {path} holds a snapshot that is not capa-tui's ({why}); move it away or pick another --state-dir"
    )]
    Corrupt { path: PathBuf, why: String },
}

/// One journal line. It carries the cluster time it was written at, so a cluster killed before
/// its next snapshot restarts no earlier than its last change: a sped-up clock runs ahead of the
/// wall, and a restart at the snapshot's older time would see objects from its own future.
pub struct Record(Value);

impl Record {
    pub fn put(rv: u64, key: &Key, object: &Value, at: Timestamp) -> Record {
        Record(json!({"rv": rv, "key": key_json(key), "object": object, "at": at.to_string()}))
    }

    pub fn delete(rv: u64, key: &Key, at: Timestamp) -> Record {
        Record(json!({"rv": rv, "key": key_json(key), "deleted": true, "at": at.to_string()}))
    }
}

/// What loading a state dir found.
#[derive(Default)]
pub struct Loaded {
    pub objects: Vec<(Key, Value)>,
    pub rv: u64,
    pub clock: Option<Timestamp>,
}

pub struct Journal {
    dir: PathBuf,
    file: File,
    records: usize,
}

impl Journal {
    /// Opens (creating if needed) the state dir, loads it, and starts a fresh journal on a new
    /// snapshot of what was loaded.
    pub fn open(dir: &Path) -> Result<(Journal, Loaded), JournalError> {
        fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        let mut loaded = load_snapshot(&dir.join(SNAPSHOT))?;
        replay_journal(&dir.join(JOURNAL), &mut loaded)?;
        let file = open_append(&dir.join(JOURNAL))?;
        let mut journal = Journal {
            dir: dir.to_path_buf(),
            file,
            records: 0,
        };
        let clock = loaded.clock.unwrap_or_else(Timestamp::now);
        journal.compact(loaded.objects.iter().map(|(k, v)| (k, v)), loaded.rv, clock)?;
        Ok((journal, loaded))
    }

    pub fn append(&mut self, record: &Record) -> Result<(), JournalError> {
        let mut line = serde_json::to_vec(&record.0).unwrap_or_default();
        line.push(b'\n');
        // One write call per record: a kill can only tear the last line, never interleave.
        self.file
            .write_all(&line)
            .map_err(|e| io(&self.dir.join(JOURNAL), e))?;
        self.records += 1;
        Ok(())
    }

    pub fn wants_compaction(&self) -> bool {
        self.records >= COMPACT_AFTER
    }

    /// Writes a new snapshot atomically, then empties the journal. A crash between the two
    /// steps is harmless: journal records at or below the snapshot's version are skipped.
    pub fn compact<'a>(
        &mut self,
        objects: impl Iterator<Item = (&'a Key, &'a Value)>,
        rv: u64,
        clock: Timestamp,
    ) -> Result<(), JournalError> {
        let items: Vec<Value> = objects
            .map(|(k, v)| json!({"key": key_json(k), "object": v}))
            .collect();
        let body =
            json!({"capaTuiStore": 1, "rv": rv, "clock": clock.to_string(), "objects": items});
        let path = self.dir.join(SNAPSHOT);
        let tmp = self.dir.join(format!("{SNAPSHOT}.tmp"));
        let write = || -> std::io::Result<()> {
            let mut f = File::create(&tmp)?;
            f.write_all(&serde_json::to_vec(&body).unwrap_or_default())?;
            f.sync_all()?;
            fs::rename(&tmp, &path)?;
            File::open(&self.dir)?.sync_all()
        };
        write().map_err(|e| io(&path, e))?;
        self.file
            .set_len(0)
            .map_err(|e| io(&self.dir.join(JOURNAL), e))?;
        self.records = 0;
        Ok(())
    }
}

fn load_snapshot(path: &Path) -> Result<Loaded, JournalError> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::default()),
        Err(e) => return Err(io(path, e)),
    };
    let corrupt = |why: &str| JournalError::Corrupt {
        path: path.to_path_buf(),
        why: why.into(),
    };
    let body: Value = serde_json::from_slice(&bytes).map_err(|e| corrupt(&e.to_string()))?;
    if body.get("capaTuiStore").is_none() {
        return Err(corrupt("no capaTuiStore marker"));
    }
    let mut loaded = Loaded {
        rv: body["rv"].as_u64().unwrap_or(0),
        clock: body["clock"].as_str().and_then(|s| s.parse().ok()),
        objects: Vec::new(),
    };
    for item in body["objects"].as_array().into_iter().flatten() {
        // A CRD's types are made as it is read, so the custom resources after it have a key.
        remember_crd(&item["object"]);
        if let Some(key) = parse_key(&item["key"]) {
            loaded.objects.push((key, item["object"].clone()));
        }
    }
    Ok(loaded)
}

fn replay_journal(path: &Path, loaded: &mut Loaded) -> Result<(), JournalError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io(path, e)),
    };
    let mut objects: std::collections::BTreeMap<Key, Value> = loaded.objects.drain(..).collect();
    for line in BufReader::new(file).split(b'\n') {
        let line = line.map_err(|e| io(path, e))?;
        // A torn last line (killed mid-write) does not parse; everything before it is whole.
        let Ok(record) = serde_json::from_slice::<Value>(&line) else {
            break;
        };
        let (Some(rv), Some(key)) = (record["rv"].as_u64(), parse_key(&record["key"])) else {
            break;
        };
        if rv <= loaded.rv {
            continue;
        }
        loaded.rv = rv;
        // A journal written before records carried their time has no `at`: the snapshot's stands.
        if let Some(at) = record["at"]
            .as_str()
            .and_then(|s| s.parse::<Timestamp>().ok())
        {
            loaded.clock = Some(loaded.clock.map_or(at, |clock| clock.max(at)));
        }
        if record.get("deleted").is_some() {
            objects.remove(&key);
        } else {
            remember_crd(&record["object"]);
            objects.insert(key, record["object"].clone());
        }
    }
    loaded.objects = objects.into_iter().collect();
    Ok(())
}

fn open_append(path: &Path) -> Result<File, JournalError> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| io(path, e))
}

/// Makes the types a stored CRD defines, so the keys of its custom resources can be read.
fn remember_crd(object: &Value) {
    if object["kind"] == "CustomResourceDefinition"
        && object["apiVersion"] == "apiextensions.k8s.io/v1"
    {
        crate::kinds::custom::from_crd(object);
    }
}

fn key_json(key: &Key) -> Value {
    let ty = key.ty();
    json!([ty.group, ty.version, ty.plural, key.namespace, key.name])
}

fn parse_key(v: &Value) -> Option<Key> {
    let parts: Vec<&str> = v.as_array()?.iter().filter_map(Value::as_str).collect();
    let [group, version, plural, namespace, name] = parts[..] else {
        return None;
    };
    let ty = by_plural(group, version, plural)
        .or_else(|| crate::kinds::custom::stored(group, plural))?;
    Some(Key::new(ty, namespace, name))
}

fn io(path: &Path, source: std::io::Error) -> JournalError {
    JournalError::Io {
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Change, Store};

    fn cm_key() -> Key {
        Key::new(&crate::kinds::CONFIG_MAP, "lab", "a")
    }

    #[test]
    fn changes_survive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = Store::open(dir.path(), 1.0).unwrap();
            let obj = json!({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"lab"}});
            store
                .write::<()>(&cm_key(), |_| Ok(Change::Put(obj)))
                .unwrap();
        }
        let store = Store::open(dir.path(), 1.0).unwrap();
        assert_eq!(
            store.get(&cm_key()).unwrap()["metadata"]["resourceVersion"],
            "1"
        );
        assert_eq!(store.resource_version(), 1);
    }

    #[test]
    fn a_torn_last_line_is_ignored_and_earlier_changes_kept() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = Store::open(dir.path(), 1.0).unwrap();
            for data in ["1", "2"] {
                let obj = json!({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"lab"},"data":{"k":data}});
                store
                    .write::<()>(&cm_key(), |_| Ok(Change::Put(obj)))
                    .unwrap();
            }
        }
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.path().join(JOURNAL))
            .unwrap();
        f.write_all(br#"{"rv":3,"key":["","v1","configmaps","lab","a"],"obj"#)
            .unwrap();
        let store = Store::open(dir.path(), 1.0).unwrap();
        assert_eq!(store.get(&cm_key()).unwrap()["data"]["k"], "2");
        assert_eq!(store.resource_version(), 2);
    }

    #[test]
    fn a_foreign_snapshot_is_refused_with_a_clear_message() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(SNAPSHOT), "{\"hello\":1}").unwrap();
        let err = Store::open(dir.path(), 1.0).err().unwrap().to_string();
        assert!(err.contains("pick another --state-dir"), "{err}");
    }

    #[test]
    fn a_sped_up_cluster_killed_before_its_next_snapshot_restarts_no_earlier_than_its_last_change()
    {
        let dir = tempfile::tempdir().unwrap();
        let written_at = {
            // At speed 1000 a few wall milliseconds are many cluster seconds ahead of the wall.
            let store = Store::open(dir.path(), 1000.0).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(50));
            let before_the_change = store.clock.now();
            let obj = json!({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"lab"}});
            store
                .write::<()>(&cm_key(), |_| Ok(Change::Put(obj)))
                .unwrap();
            // Dropped without a flush, as a kill -9 leaves it: only the journal has the change.
            before_the_change
        };
        assert!(written_at > Timestamp::now() + jiff::SignedDuration::from_secs(30));
        let store = Store::open(dir.path(), 1.0).unwrap();
        assert!(
            store.clock.now() >= written_at,
            "restarted at {} though its last change was after {written_at}",
            store.clock.now()
        );
    }
}
