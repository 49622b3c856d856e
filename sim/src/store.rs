//! The embedded cluster's object store: every object by (type, namespace, name), one global
//! resourceVersion counter, a bounded event history for watch replay, and a broadcast channel
//! that feeds live watches. Optionally journalled to a state dir (see `journal`).
//!
//! Every change goes through [`Store::write`], an atomic read-modify-write under one lock, so
//! the API handlers and the controllers share one consistent view and one change stream.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use jiff::Timestamp;
use serde_json::Value;
use tokio::sync::broadcast;

use super::clock::Clock;
use super::journal::{Journal, JournalError, Record};
pub use super::key::Key;
use super::kinds::{Catalog, ResourceType};

mod unrecorded;
pub use unrecorded::Unrecorded;

/// How many past events a watch can resume from; older resourceVersions get 410 Gone.
const HISTORY_EVENTS: usize = 20_000;
/// How many events may queue for a slow watcher before it is cut off (it then resumes).
const BROADCAST_CAPACITY: usize = 16_384;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    Added,
    Modified,
    Deleted,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
        }
    }
}

/// One change, as watches see it.
#[derive(Debug)]
pub struct Event {
    pub rv: u64,
    pub kind: EventType,
    pub key: Key,
    pub object: Arc<Value>,
    /// The object before this change (none for ADDED), so a filtered watch can tell that an
    /// object stopped or started matching its selector.
    pub previous: Option<Arc<Value>>,
}

/// What a write decided to do with the object it read.
pub enum Change {
    Put(Value),
    Delete,
    Keep,
}

/// The start of a watch: what happened since the asked-for version (or the current state),
/// and the live stream from there on, taken under one lock so nothing falls between them.
pub struct WatchStart {
    pub replay: Vec<Arc<Event>>,
    pub current: Vec<Arc<Value>>,
    pub rv: u64,
    pub live: broadcast::Receiver<Arc<Event>>,
}

/// The asked-for resourceVersion is older than the history we keep.
#[derive(Debug)]
pub struct Expired {
    pub oldest: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Journal(#[from] JournalError),
}

pub struct Store {
    inner: Mutex<Inner>,
    events: broadcast::Sender<Arc<Event>>,
    pub clock: Clock,
    /// The custom types this cluster serves (its CRDs'), beside the built-in table.
    pub kinds: Catalog,
}

struct Inner {
    objects: BTreeMap<Key, Arc<Value>>,
    rv: u64,
    history: VecDeque<Arc<Event>>,
    journal: Option<Journal>,
}

impl Store {
    /// A store that lives in memory only.
    pub fn in_memory(speed: f64) -> Arc<Store> {
        Store::build(BTreeMap::new(), 0, None, Clock::new(speed, None))
    }

    /// A store kept in `dir`, loaded from what is there (created if empty).
    pub fn open(dir: &Path, speed: f64) -> Result<Arc<Store>, StoreError> {
        let (journal, loaded) = Journal::open(dir)?;
        let clock = Clock::new(speed, loaded.clock);
        // Kept so that a time read off the wall (a file's) can be said on this cluster's clock
        // later, whatever process served it then.
        if let Err(e) = crate::clock::record_run(dir, clock.run()) {
            tracing::warn!("the clock's run is not kept in {}: {e}", dir.display());
        }
        let objects = loaded
            .objects
            .into_iter()
            .map(|(k, v)| (k, Arc::new(v)))
            .collect();
        Ok(Store::build(objects, loaded.rv, Some(journal), clock))
    }

    fn build(
        objects: BTreeMap<Key, Arc<Value>>,
        rv: u64,
        journal: Option<Journal>,
        clock: Clock,
    ) -> Arc<Store> {
        let (events, _) = broadcast::channel(BROADCAST_CAPACITY);
        Arc::new(Store {
            inner: Mutex::new(Inner {
                objects,
                rv,
                history: VecDeque::new(),
                journal,
            }),
            events,
            clock,
            kinds: Catalog::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave half a write behind (writes are
        // prepared before they are stored), so a poisoned lock is safe to keep using.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn get(&self, key: &Key) -> Option<Arc<Value>> {
        self.lock().objects.get(key).cloned()
    }

    /// Objects of a type, in one namespace or all, with the resourceVersion of the list.
    pub fn list(
        &self,
        ty: &'static ResourceType,
        namespace: Option<&str>,
    ) -> (Vec<Arc<Value>>, u64) {
        let inner = self.lock();
        let items = range_of(&inner.objects, ty, namespace)
            .map(|(_, v)| v.clone())
            .collect();
        (items, inner.rv)
    }

    /// Objects of a type as they were at resourceVersion `at` (a list with
    /// `resourceVersionMatch=Exact`), rebuilt by undoing the kept history's later events;
    /// `Expired` when the history no longer reaches back that far.
    pub fn list_at(
        &self,
        ty: &'static ResourceType,
        namespace: Option<&str>,
        at: u64,
    ) -> Result<Vec<Arc<Value>>, Expired> {
        let inner = self.lock();
        let oldest_kept = inner.history.front().map_or(inner.rv + 1, |e| e.rv);
        if at < inner.rv && at + 1 < oldest_kept {
            return Err(Expired {
                oldest: oldest_kept,
            });
        }
        let mut objects: BTreeMap<Key, Arc<Value>> = range_of(&inner.objects, ty, namespace)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let probe = Key::new(ty, "", "");
        for event in inner.history.iter().rev().take_while(|e| e.rv > at) {
            if event.key.ty != probe.ty || namespace.is_some_and(|ns| event.key.namespace != ns) {
                continue;
            }
            match (event.kind, &event.previous) {
                (EventType::Added, _) => {
                    objects.remove(&event.key);
                }
                (EventType::Deleted, _) => {
                    objects.insert(event.key.clone(), event.object.clone());
                }
                (_, Some(previous)) => {
                    objects.insert(event.key.clone(), previous.clone());
                }
                (_, None) => {}
            }
        }
        Ok(objects.into_values().collect())
    }

    /// Every future change, for the controllers (a lagging receiver must resync with `list`).
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Event>> {
        self.events.subscribe()
    }

    /// Every object of every type (for the garbage collector's sweep).
    pub fn all(&self) -> Vec<(Key, Arc<Value>)> {
        self.lock()
            .objects
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    pub fn count(&self) -> usize {
        self.lock().objects.len()
    }

    /// Lets a test reach the journal (to make its disk fail, say).
    #[cfg(test)]
    pub fn with_journal(&self, f: impl FnOnce(&mut Journal)) {
        if let Some(journal) = &mut self.lock().journal {
            f(journal);
        }
    }

    #[cfg(test)]
    pub fn resource_version(&self) -> u64 {
        self.lock().rv
    }

    /// Atomic read-modify-write of one object. `decide` sees the current object and says what
    /// to store; a `Put` equal to what is stored is not a change (no new resourceVersion, no
    /// event), as on a real API server. Returns what is stored afterwards (for a delete, the
    /// deleted object with its final resourceVersion).
    /// With a state dir, the change is in the journal (synced) before it is made in memory or
    /// seen by any watch; a change the journal refuses is not made at all.
    pub fn write<E: From<Unrecorded>>(
        &self,
        key: &Key,
        decide: impl FnOnce(Option<&Value>) -> Result<Change, E>,
    ) -> Result<Option<Arc<Value>>, E> {
        let mut inner = self.lock();
        let old = inner.objects.get(key).cloned();
        match decide(old.as_deref())? {
            Change::Keep => Ok(old),
            Change::Put(mut new) => {
                if let Some(old) = &old
                    && same_apart_from_version(old, &new)
                {
                    return Ok(Some(old.clone()));
                }
                let rv = inner.rv + 1;
                set_resource_version(&mut new, rv);
                let now = self.clock.now();
                inner.journal(&Record::put(rv, key, &new, now))?;
                inner.rv = rv;
                let new = Arc::new(new);
                inner.objects.insert(key.clone(), new.clone());
                let kind = if old.is_some() {
                    EventType::Modified
                } else {
                    EventType::Added
                };
                inner.publish(
                    &self.events,
                    Event {
                        rv,
                        kind,
                        key: key.clone(),
                        object: new.clone(),
                        previous: old,
                    },
                    now,
                );
                Ok(Some(new))
            }
            Change::Delete => {
                let Some(old) = old else {
                    return Ok(None);
                };
                let rv = inner.rv + 1;
                let now = self.clock.now();
                inner.journal(&Record::delete(rv, key, now))?;
                inner.objects.remove(key);
                inner.rv = rv;
                let mut last = (*old).clone();
                set_resource_version(&mut last, rv);
                let last = Arc::new(last);
                inner.publish(
                    &self.events,
                    Event {
                        rv,
                        kind: EventType::Deleted,
                        key: key.clone(),
                        object: last.clone(),
                        previous: Some(old),
                    },
                    now,
                );
                Ok(Some(last))
            }
        }
    }

    /// Starts a watch of a type. `from` is the client's resourceVersion: `None` means "from the
    /// current state" (the caller sends it as ADDED events), `Some(n)` replays what came after n.
    pub fn watch(
        &self,
        ty: &'static ResourceType,
        namespace: Option<&str>,
        from: Option<u64>,
    ) -> Result<WatchStart, Expired> {
        let inner = self.lock();
        let live = self.events.subscribe();
        let rv = inner.rv;
        match from {
            None => Ok(WatchStart {
                replay: Vec::new(),
                current: range_of(&inner.objects, ty, namespace)
                    .map(|(_, v)| v.clone())
                    .collect(),
                rv,
                live,
            }),
            Some(from) => {
                let oldest_kept = inner.history.front().map_or(rv + 1, |e| e.rv);
                // Every event after `from` must still be in the history.
                if from < rv && from + 1 < oldest_kept {
                    return Err(Expired {
                        oldest: oldest_kept,
                    });
                }
                let replay = inner
                    .history
                    .iter()
                    .filter(|e| e.rv > from)
                    .cloned()
                    .collect();
                Ok(WatchStart {
                    replay,
                    current: Vec::new(),
                    rv,
                    live,
                })
            }
        }
    }

    /// Starts the watch window where the real server's watch cache starts: at the state the
    /// cluster came up with. A watch from an older resourceVersion (what the bootstrap wrote)
    /// is told `410 Expired`, as the cacher, which never saw those events, tells it.
    pub fn open_watch_window(&self) {
        self.lock().history.clear();
    }

    /// From now on a change returns only once the journal has synced it (see `journal`);
    /// what was written before (the bootstrap, written again at every start) is synced now.
    pub fn acknowledge_durably(&self) -> Result<(), StoreError> {
        if let Some(journal) = &mut self.lock().journal {
            journal.sync_from_now_on()?;
        }
        Ok(())
    }

    /// The clock time a stored state was last written, for restarts of a sped-up cluster.
    pub fn flush(&self) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let now = self.clock.now();
        let Inner {
            objects,
            rv,
            journal,
            ..
        } = &mut *inner;
        if let Some(journal) = journal {
            journal.compact(objects.iter().map(|(k, v)| (k, &**v)), *rv, now)?;
        }
        Ok(())
    }
}

impl Inner {
    /// Records a change in the journal (when there is one) before it is made.
    fn journal(&mut self, record: &Record) -> Result<(), Unrecorded> {
        let Some(journal) = &mut self.journal else {
            return Ok(());
        };
        journal.append(record).map_err(|e| {
            tracing::error!(
                "state dir: a change was refused because it could not be recorded: {e}"
            );
            Unrecorded::from(&e)
        })
    }

    /// Makes a recorded change visible: the watch history, live watches, and a compaction
    /// when the journal has grown long.
    fn publish(&mut self, events: &broadcast::Sender<Arc<Event>>, event: Event, now: Timestamp) {
        let event = Arc::new(event);
        if let Some(journal) = &mut self.journal
            && journal.wants_compaction()
            && let Err(e) =
                journal.compact(self.objects.iter().map(|(k, v)| (k, &**v)), self.rv, now)
        {
            // The journal still holds every change; only its folding into the snapshot waits.
            tracing::error!("state dir: could not compact the journal: {e}");
        }
        if self.history.len() >= HISTORY_EVENTS {
            self.history.pop_front();
        }
        self.history.push_back(event.clone());
        // No receivers is normal (no watch open).
        let _ = events.send(event);
    }
}

fn range_of<'a>(
    objects: &'a BTreeMap<Key, Arc<Value>>,
    ty: &'static ResourceType,
    namespace: Option<&'a str>,
) -> impl Iterator<Item = (&'a Key, &'a Arc<Value>)> + 'a {
    let probe = Key::new(ty, "", "");
    let ty_index = probe.ty;
    objects
        .range(probe..)
        .take_while(move |(k, _)| k.ty == ty_index)
        .filter(move |(k, _)| namespace.is_none_or(|ns| k.namespace == ns))
}

fn set_resource_version(obj: &mut Value, rv: u64) {
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert("resourceVersion".into(), Value::String(rv.to_string()));
    }
}

fn same_apart_from_version(old: &Value, new: &Value) -> bool {
    let (Some(old_obj), Some(new_obj)) = (old.as_object(), new.as_object()) else {
        return old == new;
    };
    if old_obj.len() != new_obj.len() {
        return false;
    }
    old_obj.iter().all(|(k, v)| {
        let Some(n) = new_obj.get(k) else {
            return false;
        };
        if k != "metadata" {
            return v == n;
        }
        let (Some(om), Some(nm)) = (v.as_object(), n.as_object()) else {
            return v == n;
        };
        om.iter()
            .filter(|(mk, _)| *mk != "resourceVersion")
            .all(|(mk, mv)| nm.get(mk) == Some(mv))
            && nm.keys().filter(|mk| *mk != "resourceVersion").count()
                == om.keys().filter(|mk| *mk != "resourceVersion").count()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn cm(name: &str, data: &str) -> Value {
        json!({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":name,"namespace":"lab"},"data":{"k":data}})
    }

    fn put(store: &Store, name: &str, data: &str) -> Arc<Value> {
        let ty = &crate::kinds::CONFIG_MAP;
        store
            .write::<()>(&Key::new(ty, "lab", name), |_| {
                Ok(Change::Put(cm(name, data)))
            })
            .unwrap()
            .unwrap()
    }

    #[test]
    fn each_change_gets_the_next_resource_version_and_no_ops_get_none() {
        let store = Store::in_memory(1.0);
        assert_eq!(put(&store, "a", "1")["metadata"]["resourceVersion"], "1");
        assert_eq!(put(&store, "a", "2")["metadata"]["resourceVersion"], "2");
        assert_eq!(put(&store, "a", "2")["metadata"]["resourceVersion"], "2");
        assert_eq!(store.resource_version(), 2);
    }

    #[test]
    fn a_watch_replays_what_came_after_its_version_then_goes_live() {
        let store = Store::in_memory(1.0);
        put(&store, "a", "1");
        put(&store, "b", "1");
        let ty = &crate::kinds::CONFIG_MAP;
        let mut start = store.watch(ty, Some("lab"), Some(1)).unwrap();
        assert_eq!(start.replay.len(), 1);
        assert_eq!(start.replay[0].key.name, "b");
        put(&store, "c", "1");
        let live = start.live.try_recv().unwrap();
        assert_eq!((live.rv, live.kind), (3, EventType::Added));
    }

    #[test]
    fn a_version_older_than_the_history_has_expired() {
        let store = Store::in_memory(1.0);
        for i in 0..(HISTORY_EVENTS + 5) {
            put(&store, "a", &i.to_string());
        }
        let ty = &crate::kinds::CONFIG_MAP;
        assert!(store.watch(ty, None, Some(2)).is_err());
        assert!(
            store
                .watch(ty, None, Some(store.resource_version()))
                .is_ok()
        );
    }

    #[test]
    fn the_watch_window_opens_after_what_the_cluster_started_with() {
        let store = Store::in_memory(1.0);
        put(&store, "a", "1");
        put(&store, "b", "1");
        store.open_watch_window();
        let ty = &crate::kinds::CONFIG_MAP;
        let started = store.resource_version();
        let Err(expired) = store.watch(ty, None, Some(1)) else {
            panic!("a watch from before the start is not expired");
        };
        assert_eq!(expired.oldest, started + 1);
        assert!(store.watch(ty, None, Some(started)).is_ok());
        put(&store, "c", "1");
        assert!(store.watch(ty, None, Some(started)).unwrap().replay.len() == 1);
        assert!(store.watch(ty, None, Some(1)).is_err());
    }

    #[test]
    fn a_list_at_an_earlier_version_undoes_what_came_after() {
        let store = Store::in_memory(1.0);
        put(&store, "a", "1");
        let before = store.resource_version();
        put(&store, "a", "2");
        put(&store, "b", "1");
        let ty = &crate::kinds::CONFIG_MAP;
        let then = store.list_at(ty, None, before).unwrap();
        assert_eq!(then.len(), 1);
        assert_eq!(then[0]["metadata"]["resourceVersion"], before.to_string());
        assert_eq!(
            store
                .list_at(ty, None, store.resource_version())
                .unwrap()
                .len(),
            2
        );
        store.open_watch_window();
        assert!(store.list_at(ty, None, before).is_err());
    }

    #[test]
    fn lists_are_scoped_by_type_and_namespace() {
        let store = Store::in_memory(1.0);
        put(&store, "a", "1");
        let ty = &crate::kinds::CONFIG_MAP;
        assert_eq!(store.list(ty, Some("lab")).0.len(), 1);
        assert_eq!(store.list(ty, Some("other")).0.len(), 0);
        let secrets = &crate::kinds::SECRET;
        assert_eq!(store.list(secrets, None).0.len(), 0);
    }
}
