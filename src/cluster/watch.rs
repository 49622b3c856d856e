//! Watches scoped to what the lab needs — the Applications in `argocd` and the Deployments,
//! ConfigMaps and Jobs in the lessons' namespaces — merged into one stream of plain events, so a busy
//! cluster costs the tutor nothing. Watch, never poll: kube-runtime's watcher with backoff.

use futures::StreamExt;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use kube::runtime::{WatchStreamExt, watcher};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::{Kind, argocd};

/// What a watch saw.
#[derive(Debug)]
pub enum WatchEvent {
    /// An object as it is now; `key` is `namespace/Kind/name`.
    Applied {
        key: String,
        object: Value,
    },
    Deleted {
        key: String,
    },
    /// The watch's connection: `None` when live, else why it is reconnecting.
    Connection(Option<String>),
}

fn key_of(obj: &Value) -> String {
    format!(
        "{}/{}/{}",
        obj["metadata"]["namespace"].as_str().unwrap_or_default(),
        obj["kind"].as_str().unwrap_or_default(),
        obj["metadata"]["name"].as_str().unwrap_or_default()
    )
}

fn api(client: &kube::Client, ns: &str, kind: Kind) -> Api<DynamicObject> {
    let (group, version, plural) = kind.api();
    let gvk = GroupVersionKind::gvk(group, version, kind.name());
    Api::namespaced_with(
        client.clone(),
        ns,
        &ApiResource::from_gvk_with_plural(&gvk, plural),
    )
}

/// Starts the lab's watches (Applications, and the workloads in `namespaces`); events go to `tx`
/// until it closes.
pub fn spawn(
    client: kube::Client,
    namespaces: &[String],
    tx: mpsc::UnboundedSender<WatchEvent>,
) -> Vec<JoinHandle<()>> {
    let mut apis = vec![(
        api(&client, argocd::NAMESPACE, Kind::Application),
        Kind::Application,
    )];
    for ns in namespaces {
        for kind in [Kind::Deployment, Kind::ConfigMap, Kind::Job] {
            apis.push((api(&client, ns, kind), kind));
        }
    }
    apis.into_iter()
        .map(|(api, kind)| {
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut stream = watcher(api, watcher::Config::default())
                    .default_backoff()
                    .boxed();
                while let Some(event) = stream.next().await {
                    let sent = match event {
                        Ok(watcher::Event::Apply(o) | watcher::Event::InitApply(o)) => {
                            let mut object = serde_json::to_value(&o).unwrap_or(Value::Null);
                            if object["kind"].is_null() {
                                object["kind"] = Value::String(kind.name().into());
                            }
                            tx.send(WatchEvent::Applied {
                                key: key_of(&object),
                                object,
                            })
                        }
                        Ok(watcher::Event::Delete(o)) => {
                            let mut object = serde_json::to_value(&o).unwrap_or(Value::Null);
                            if object["kind"].is_null() {
                                object["kind"] = Value::String(kind.name().into());
                            }
                            tx.send(WatchEvent::Deleted {
                                key: key_of(&object),
                            })
                        }
                        Ok(watcher::Event::InitDone) => tx.send(WatchEvent::Connection(None)),
                        Ok(watcher::Event::Init) => Ok(()),
                        Err(e) => tx.send(WatchEvent::Connection(Some(e.to_string()))),
                    };
                    if sent.is_err() {
                        return;
                    }
                }
            })
        })
        .collect()
}
