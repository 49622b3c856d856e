//! Watches scoped to what the lab needs — the Applications in `argocd` and the Deployments,
//! ConfigMaps and Jobs in the three lab namespaces — merged into one stream of plain events, so a busy
//! cluster costs the tutor nothing. Watch, never poll: kube-runtime's watcher with backoff.

use futures::StreamExt;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use kube::runtime::{WatchStreamExt, watcher};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

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

const LAB_NAMESPACES: [&str; 3] = ["src-helm", "src-kust", "src-waves"];

fn key_of(obj: &Value) -> String {
    format!(
        "{}/{}/{}",
        obj["metadata"]["namespace"].as_str().unwrap_or_default(),
        obj["kind"].as_str().unwrap_or_default(),
        obj["metadata"]["name"].as_str().unwrap_or_default()
    )
}

fn api(
    client: &kube::Client,
    ns: &str,
    group: &str,
    version: &str,
    kind: &str,
    plural: &str,
) -> Api<DynamicObject> {
    let ar =
        ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(group, version, kind), plural);
    Api::namespaced_with(client.clone(), ns, &ar)
}

/// Starts the lab's watches; events go to `tx` until it closes.
pub fn spawn(client: kube::Client, tx: mpsc::UnboundedSender<WatchEvent>) -> Vec<JoinHandle<()>> {
    let mut apis = vec![api(
        &client,
        "argocd",
        "argoproj.io",
        "v1alpha1",
        "Application",
        "applications",
    )];
    for ns in LAB_NAMESPACES {
        apis.push(api(&client, ns, "apps", "v1", "Deployment", "deployments"));
        apis.push(api(&client, ns, "", "v1", "ConfigMap", "configmaps"));
        apis.push(api(&client, ns, "batch", "v1", "Job", "jobs"));
    }
    apis.into_iter()
        .map(|api| {
            let tx = tx.clone();
            let kind = api
                .resource_url()
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_string();
            tokio::spawn(async move {
                let mut stream = watcher(api, watcher::Config::default())
                    .default_backoff()
                    .boxed();
                while let Some(event) = stream.next().await {
                    let sent = match event {
                        Ok(watcher::Event::Apply(o) | watcher::Event::InitApply(o)) => {
                            let mut object = serde_json::to_value(&o).unwrap_or(Value::Null);
                            if object["kind"].is_null() {
                                object["kind"] = Value::String(kind_name(&kind).into());
                            }
                            tx.send(WatchEvent::Applied {
                                key: key_of(&object),
                                object,
                            })
                        }
                        Ok(watcher::Event::Delete(o)) => {
                            let mut object = serde_json::to_value(&o).unwrap_or(Value::Null);
                            if object["kind"].is_null() {
                                object["kind"] = Value::String(kind_name(&kind).into());
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

fn kind_name(plural: &str) -> &'static str {
    match plural {
        "applications" => "Application",
        "deployments" => "Deployment",
        "jobs" => "Job",
        _ => "ConfigMap",
    }
}
