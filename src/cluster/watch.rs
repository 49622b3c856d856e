//! Watches scoped to what the lab needs — the Applications in `argocd` and the Deployments,
//! ConfigMaps and Jobs in the lessons' namespaces — each a stream of its own that says when it
//! is live (listed) and when it lost the cluster, so the tutor can tell which pane is stale and
//! why. Watch, never poll (see `collection` for how each stream keeps in step).

pub mod collection;

use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use serde_json::Value;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use self::collection::Change;
use super::problem::Problem;
use super::{Kind, argocd};

/// One watched collection: a kind in a namespace.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamId {
    pub namespace: String,
    pub kind: Kind,
}

impl StreamId {
    pub fn new(namespace: &str, kind: Kind) -> StreamId {
        StreamId {
            namespace: namespace.into(),
            kind,
        }
    }

    /// The Applications in `argocd`.
    pub fn applications() -> StreamId {
        StreamId::new(argocd::NAMESPACE, Kind::Application)
    }

    /// How the header names it: `Applications`, `src-helm Deployments`.
    pub fn label(&self, lang: crate::i18n::Lang) -> String {
        if *self == StreamId::applications() {
            return crate::t!(lang, "stream-applications");
        }
        crate::t!(
            lang,
            "stream-of-kind",
            namespace = self.namespace.as_str(),
            kind = self.kind.name()
        )
    }

    /// The stream an object key (`namespace/Kind/name`) comes from.
    pub fn of_key(key: &str) -> Option<StreamId> {
        let mut parts = key.splitn(3, '/');
        let (ns, kind) = (parts.next()?, Kind::parse(parts.next()?)?);
        Some(StreamId::new(ns, kind))
    }

    /// Whether an object key belongs to this stream.
    pub fn holds(&self, key: &str) -> bool {
        StreamId::of_key(key).as_ref() == Some(self)
    }
}

/// Every stream the lab watches: the Applications, and the workloads of each lab namespace.
pub fn lab_streams(namespaces: &[String]) -> Vec<StreamId> {
    let mut streams = vec![StreamId::applications()];
    for ns in namespaces {
        for kind in [Kind::Deployment, Kind::ConfigMap, Kind::Job] {
            streams.push(StreamId::new(ns, kind));
        }
    }
    streams
}

/// What a watch saw, stamped with when it saw it where that matters.
#[derive(Debug)]
pub enum WatchEvent {
    /// Everything the stream holds now, by key (`namespace/Kind/name`): what is not here is gone.
    Listed {
        stream: StreamId,
        objects: Vec<(String, Value)>,
        at: jiff::Timestamp,
    },
    /// An object as it is now.
    Applied {
        key: String,
        object: Value,
    },
    Deleted {
        key: String,
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

fn key_of(obj: &Value) -> String {
    format!(
        "{}/{}/{}",
        obj["metadata"]["namespace"].as_str().unwrap_or_default(),
        obj["kind"].as_str().unwrap_or_default(),
        obj["metadata"]["name"].as_str().unwrap_or_default()
    )
}

/// An object as JSON with its kind filled in (items of a list come without it).
fn keyed(o: &DynamicObject, kind: Kind) -> (String, Value) {
    let mut object = serde_json::to_value(o).unwrap_or(Value::Null);
    if object["kind"].is_null() {
        object["kind"] = Value::String(kind.name().into());
    }
    (key_of(&object), object)
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
    match change {
        Change::Listed(items) => WatchEvent::Listed {
            stream: stream.clone(),
            objects: items.iter().map(|o| keyed(o, stream.kind)).collect(),
            at,
        },
        Change::Applied(o) => {
            let (key, object) = keyed(&o, stream.kind);
            WatchEvent::Applied { key, object }
        }
        Change::Deleted(o) => WatchEvent::Deleted {
            key: keyed(&o, stream.kind).0,
        },
        Change::Lost(problem) => WatchEvent::Lost {
            stream: stream.clone(),
            problem,
            at,
        },
        Change::Expired => WatchEvent::Expired {
            stream: stream.clone(),
            at,
        },
    }
}

/// Starts a watch of each of `streams`; events go to `tx` until it closes. `nudge` (the
/// kubeconfig's changes) makes streams waiting to retry try at once.
pub fn spawn(
    client: kube::Client,
    streams: &[StreamId],
    nudge: Option<watch::Receiver<u64>>,
    tx: mpsc::UnboundedSender<WatchEvent>,
) -> Vec<JoinHandle<()>> {
    streams
        .iter()
        .map(|stream| {
            let (tx, stream) = (tx.clone(), stream.clone());
            let api = api(&client, &stream.namespace, stream.kind);
            tokio::spawn(collection::follow(api, None, nudge.clone(), move |c| {
                tx.send(event_of(&stream, c)).is_ok()
            }))
        })
        .collect()
}
