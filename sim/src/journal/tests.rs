//! The state dir across restarts, kills, full disks and damaged files.

use super::*;
use crate::store::{Change, Store};
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

fn cm_key() -> Key {
    Key::new(&crate::kinds::CONFIG_MAP, "lab", "a")
}

#[test]
fn changes_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path(), 1.0).unwrap();
        let obj =
            json!({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"lab"}});
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
fn a_sped_up_cluster_killed_before_its_next_snapshot_restarts_no_earlier_than_its_last_change() {
    let dir = tempfile::tempdir().unwrap();
    let written_at = {
        // At speed 1000 a few wall milliseconds are many cluster seconds ahead of the wall.
        let store = Store::open(dir.path(), 1000.0).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        let before_the_change = store.clock.now();
        let obj =
            json!({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"lab"}});
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

fn cm(name: &str) -> Value {
    json!({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":name,"namespace":"lab"}})
}

fn put(store: &Store, name: &str) {
    let key = Key::new(&crate::kinds::CONFIG_MAP, "lab", name);
    store
        .write::<()>(&key, |_| Ok(Change::Put(cm(name))))
        .unwrap();
}

fn names(store: &Store) -> Vec<String> {
    let (items, _) = store.list(&crate::kinds::CONFIG_MAP, Some("lab"));
    items
        .iter()
        .map(|o| {
            o["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

/// A state dir with a journal of `count` ConfigMaps (j-1 …), as a kill leaves it.
fn lab_with_journal(count: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), 1.0).unwrap();
    for i in 1..=count {
        put(&store, &format!("j-{i}"));
    }
    dir
}

/// Review 4, D2: one bad line dropped every record after it, and the next start truncated
/// the journal. Now the start stops, names the line, and leaves the journal as it was.
#[test]
fn a_damaged_line_before_good_ones_stops_the_start_and_changes_nothing() {
    let dir = lab_with_journal(6);
    let path = dir.path().join(JOURNAL);
    let mut bytes = fs::read(&path).unwrap();
    let third = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .map(|(i, _)| i + 1)
        .unwrap();
    bytes[third] = b'X';
    fs::write(&path, &bytes).unwrap();
    let Err(e) = Store::open(dir.path(), 1.0) else {
        panic!("a damaged journal was loaded");
    };
    let said = e.to_string();
    assert!(
        said.contains("journal.jsonl is damaged at line 3") && said.contains("--repair-journal"),
        "{said}"
    );
    assert_eq!(fs::read(&path).unwrap(), bytes, "the journal was changed");
    // The repair keeps what came before the damage and the whole journal beside it.
    let repaired = repair_journal(dir.path()).unwrap().unwrap();
    assert_eq!(
        (repaired.kept, repaired.set_aside, repaired.damaged_line),
        (2, 4, 3)
    );
    assert_eq!(fs::read(&repaired.copy).unwrap(), bytes);
    assert_eq!(fs::metadata(&repaired.copy).unwrap().mode() & 0o777, 0o600);
    let store = Store::open(dir.path(), 1.0).unwrap();
    assert_eq!(names(&store), ["j-1", "j-2"]);
    assert!(repair_journal(dir.path()).unwrap().is_none());
}

/// Review 4, D2: a record of a kind this version does not know (after a downgrade) was
/// dropped with every record after it.
#[test]
fn a_record_of_an_unknown_kind_stops_the_start() {
    let dir = lab_with_journal(3);
    let path = dir.path().join(JOURNAL);
    let text = fs::read_to_string(&path).unwrap();
    let changed = text.replacen("\"configmaps\"", "\"configmapz\"", 1);
    fs::write(&path, &changed).unwrap();
    let said = Store::open(dir.path(), 1.0).err().unwrap().to_string();
    assert!(
        said.contains("line 1") && said.contains("does not know (configmapz in v1)"),
        "{said}"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), changed);
}

/// Review 4, U4: a damaged snapshot of ours was called a foreign one.
#[test]
fn a_damaged_snapshot_is_called_damaged() {
    let dir = lab_with_journal(1);
    let path = dir.path().join(SNAPSHOT);
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let said = Store::open(dir.path(), 1.0).err().unwrap().to_string();
    assert!(
        said.contains("snapshot") && said.contains("is damaged"),
        "{said}"
    );
    fs::write(&path, br#"{"capaTuiStore":1,"rv":3,"objects":"x"}"#).unwrap();
    let said = Store::open(dir.path(), 1.0).err().unwrap().to_string();
    assert!(said.contains("not a list"), "{said}");
}

/// Review 4, D1: on a full disk every create still got 201, and a torn record stopped the
/// replay of every later one. Now the append is refused (and cut back), the change is not
/// made, and changes after the disk has room again survive a restart.
#[test]
fn a_change_the_journal_cannot_take_is_refused_and_later_ones_survive() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), 1.0).unwrap();
    store.acknowledge_durably().unwrap();
    store.with_journal(|j| assert!(j.sync_each, "changes are acknowledged before a sync"));
    put(&store, "before");
    store.with_journal(|j| {
        j.file = OpenOptions::new().write(true).open("/dev/full").unwrap();
    });
    let key = Key::new(&crate::kinds::CONFIG_MAP, "lab", "lost");
    let logged = Logged::default();
    let refused = tracing::subscriber::with_default(logged.subscriber(), || {
        store.write::<crate::status::ApiError>(&key, |_| Ok(Change::Put(cm("lost"))))
    });
    // Review 4: on a full disk nothing was logged.
    let log = logged.text();
    assert!(
        log.contains("ERROR") && log.contains("could not be recorded"),
        "{log}"
    );
    let e = refused.unwrap_err();
    assert_eq!(e.code, 507, "{e:?}");
    assert!(
        e.message.contains("No space left on device"),
        "{}",
        e.message
    );
    assert!(store.get(&key).is_none(), "a refused change was made");
    // Space comes back: the journal is the real file again, with a half record at its end.
    store.with_journal(|j| {
        j.file = open_append(&dir.path().join(JOURNAL)).unwrap();
        j.file
            .write_all(br#"{"rv":99,"key":["","v1","conf"#)
            .unwrap();
        j.needs_cut = true;
    });
    put(&store, "after");
    drop(store);
    let store = Store::open(dir.path(), 1.0).unwrap();
    assert_eq!(names(&store), ["after", "before"]);
}

/// What a test's code logged, as the log file would have it.
#[derive(Clone, Default)]
struct Logged(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Logged {
    fn subscriber(&self) -> impl tracing::Subscriber + Send + Sync + use<> {
        let sink = self.clone();
        tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || sink.clone())
            .finish()
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl std::io::Write for Logged {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Review 4, S5: the snapshot and journal (every Secret) were 0644 in a 0755 folder.
#[test]
fn the_state_dir_is_0700_and_its_files_0600() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("lab");
    fs::create_dir(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    for name in [SNAPSHOT, JOURNAL] {
        fs::write(dir.join(name), "").unwrap();
        fs::set_permissions(dir.join(name), fs::Permissions::from_mode(0o644)).unwrap();
    }
    fs::remove_file(dir.join(SNAPSHOT)).unwrap();
    let store = Store::open(&dir, 1.0).unwrap();
    put(&store, "a");
    let mode = |p: &Path| fs::metadata(p).unwrap().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join(SNAPSHOT)), 0o600);
    assert_eq!(mode(&dir.join(JOURNAL)), 0o600);
    assert_eq!(mode(&dir.join(crate::clock::RUNS_FILE)), 0o600);
    // Nothing else: no temporary file is left behind.
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [crate::clock::RUNS_FILE, JOURNAL, SNAPSHOT],
        "{names:?}"
    );
}

/// The store's own refusal of a folder others may write carries the folder, found by
/// [`crate::SimError::unsafe_folder`] as the start's check is, so a front end says it in the
/// learner's words rather than as the store's English.
#[test]
fn a_state_dir_others_may_write_is_refused_by_the_store_as_an_unsafe_folder() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("lab");
    fs::create_dir(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
    let refused = crate::SimError::from(Store::open(&dir, 1.0).err().unwrap());
    assert!(
        matches!(
            refused.unsafe_folder(),
            Some(crate::UnsafeFolder::OthersMayWrite { .. })
        ),
        "{refused:?}"
    );
}
