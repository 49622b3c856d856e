//! Watches scoped to what the lab needs — each lab Application by name, and the Deployments,
//! ConfigMaps and Jobs in the lessons' namespaces that a lab Application deployed or a lesson
//! names — each a stream of its own that says when it is live (listed) and when it lost the
//! cluster, so the tutor can tell which pane is stale and why. Watch, never poll (see
//! `collection` for how each stream keeps in step).
//!
//! A classroom's shared Argo CD holds hundreds of other Applications, each refreshed every
//! 120 s: the server's field selector (`metadata.name=`) keeps their updates off the wire (the
//! API has no "name in (...)" selector, hence one stream per app). Objects in a lab namespace
//! cannot be selected by owner on the server (Argo CD tracks them by annotation), so the
//! stream drops the others (`scope`) before they become messages: they are never kept, and
//! their updates never reach `update`.

pub mod collection;
pub mod scope;

use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use serde_json::Value;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use self::collection::Change;
pub use self::scope::Scope;
use super::problem::Problem;
use super::{Kind, ObjectKey, argocd};

/// One watched collection: a kind in a namespace, or one object of it by name.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct StreamId {
    pub namespace: String,
    pub kind: Kind,
    /// Only the object of this name (a field selector on `metadata.name`).
    pub name: Option<String>,
}

impl StreamId {
    pub fn new(namespace: &str, kind: Kind) -> StreamId {
        StreamId {
            namespace: namespace.into(),
            kind,
            name: None,
        }
    }

    /// The lab Application `name` in `argocd`.
    pub fn app(name: &str) -> StreamId {
        StreamId {
            name: Some(name.into()),
            ..StreamId::new(argocd::NAMESPACE, Kind::Application)
        }
    }

    /// A stream of Applications.
    pub fn is_app(&self) -> bool {
        self.kind == Kind::Application
    }

    /// What the server is asked to send: only the object of this stream's name, and of
    /// Events only the deployment controller's record of a scale (`cluster::scaled`).
    pub fn field_selector(&self) -> Option<String> {
        match (&self.name, self.kind) {
            (Some(n), _) => Some(format!("metadata.name={n}")),
            (None, Kind::Event) => Some(super::scaled::SCALE_EVENTS_SELECTOR.to_string()),
            (None, _) => None,
        }
    }

    /// Whether an object of this key belongs to this stream.
    pub fn holds(&self, key: &ObjectKey) -> bool {
        key.namespace == self.namespace
            && key.kind == self.kind
            && self.name.as_ref().is_none_or(|name| *name == key.name)
    }
}

/// How the header names a stream: `Application src-helm`, `src-helm Deployments`.
impl crate::i18n::Say for StreamId {
    fn say(&self, lang: crate::i18n::Lang) -> String {
        if let (true, Some(name)) = (self.is_app(), &self.name) {
            return crate::t!(lang, "stream-application", name = name.as_str());
        }
        if self.is_app() {
            return crate::t!(lang, "stream-applications");
        }
        crate::t!(
            lang,
            "stream-of-kind",
            namespace = self.namespace.as_str(),
            kind = self.kind.name()
        )
    }
}

/// Every stream the lab watches: each of its Applications (`apps`) by name, and the workloads
/// of each lab namespace with the Events that date their scales.
pub fn lab_streams(apps: &[&str], namespaces: &[String]) -> Vec<StreamId> {
    let mut streams: Vec<StreamId> = apps.iter().map(|a| StreamId::app(a)).collect();
    for ns in namespaces {
        for kind in [Kind::Deployment, Kind::ConfigMap, Kind::Job, Kind::Event] {
            streams.push(StreamId::new(ns, kind));
        }
    }
    streams
}

/// What a watch saw: an object that came, changed or went, or news of its stream.
#[derive(Debug)]
pub enum WatchEvent {
    Object(ObjectChange),
    Stream(StreamChange),
}

/// One object as it is now, or gone.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum ObjectChange {
    Applied { key: ObjectKey, object: Value },
    Deleted { key: ObjectKey },
}

impl ObjectChange {
    /// An object as it is now, keyed as the watch of `kind` keys it.
    pub fn applied(object: Value, kind: Kind) -> ObjectChange {
        ObjectChange::Applied {
            key: ObjectKey::of(&object, kind),
            object,
        }
    }
}

/// A stream's news, stamped with when it came.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum StreamChange {
    /// Everything the stream holds now, by key: what is not here is gone.
    Listed {
        stream: StreamId,
        objects: Vec<(ObjectKey, Value)>,
        at: jiff::Timestamp,
    },
    /// The stream lost the cluster and will re-list when it is back.
    Lost {
        stream: StreamId,
        problem: Problem,
        at: jiff::Timestamp,
    },
    /// The server's history no longer reaches back to what the stream saw: it re-lists.
    Expired {
        stream: StreamId,
        at: jiff::Timestamp,
    },
}

/// An object as JSON with its kind filled in (items of a list come without it), and its key.
fn keyed(o: &DynamicObject, kind: Kind) -> (ObjectKey, Value) {
    let mut object = serde_json::to_value(o).unwrap_or(Value::Null);
    if object["kind"].is_null() {
        object["kind"] = Value::String(kind.name().into());
    }
    (ObjectKey::of(&object, kind), object)
}

/// The API of `kind` in `ns`.
pub fn api(client: &kube::Client, ns: &str, kind: Kind) -> Api<DynamicObject> {
    let (group, version, plural) = kind.api();
    let gvk = GroupVersionKind::gvk(group, version, kind.name());
    Api::namespaced_with(
        client.clone(),
        ns,
        &ApiResource::from_gvk_with_plural(&gvk, plural),
    )
}

/// What a stream's change means to the tutor.
fn event_of(stream: &StreamId, change: Change) -> WatchEvent {
    let at = jiff::Timestamp::now();
    let stream = stream.clone();
    match change {
        Change::Listed(items) => WatchEvent::Stream(StreamChange::Listed {
            objects: items.iter().map(|o| keyed(o, stream.kind)).collect(),
            stream,
            at,
        }),
        Change::Applied(o) => {
            let (key, object) = keyed(&o, stream.kind);
            WatchEvent::Object(ObjectChange::Applied { key, object })
        }
        Change::Deleted(o) => WatchEvent::Object(ObjectChange::Deleted {
            key: keyed(&o, stream.kind).0,
        }),
        Change::Lost(problem) => WatchEvent::Stream(StreamChange::Lost {
            stream,
            problem,
            at,
        }),
        Change::Expired => WatchEvent::Stream(StreamChange::Expired { stream, at }),
    }
}

/// Starts a watch of each of `streams`, passing on only what `scope` keeps; events go to `tx`
/// until it closes. `nudge` (the kubeconfig's changes) makes streams waiting to retry try at
/// once.
pub fn spawn(
    client: kube::Client,
    streams: &[StreamId],
    scope: &std::sync::Arc<Scope>,
    nudge: Option<watch::Receiver<u64>>,
    tx: mpsc::UnboundedSender<WatchEvent>,
) -> Vec<JoinHandle<()>> {
    streams
        .iter()
        .map(|stream| {
            let (tx, stream) = (tx.clone(), stream.clone());
            let api = api(&client, &stream.namespace, stream.kind);
            let mut kept = scope::Kept::of_kind(scope.clone(), stream.kind);
            tokio::spawn(collection::follow(
                api,
                stream.field_selector(),
                nudge.clone(),
                move |c| match kept.pass(c) {
                    Some(c) => tx.send(event_of(&stream, c)).is_ok(),
                    None => !tx.is_closed(),
                },
            ))
        })
        .collect()
}
