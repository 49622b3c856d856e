//! kube-rs 5 against the embedded cluster: list, watcher (also across a restart with a state
//! dir), server-side apply and scale — what the tutor itself uses.

use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, Patch, PatchParams};
use kube::runtime::{WatchStreamExt, watcher};
use serde_json::json;

use crate::harness::{Lab, WEB, client_for};

fn cm(name: &str, value: &str) -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"greeting": value}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_apply_and_scale() {
    let lab = Lab::start().await;
    let client = lab.client().await;
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
    let pp = PatchParams::apply("capa-tui");
    let applied = cms
        .patch("greeting", &pp, &Patch::Apply(cm("greeting", "hello")))
        .await
        .unwrap();
    assert_eq!(applied.data.unwrap()["greeting"], "hello");
    let listed = cms.list(&ListParams::default().labels("")).await.unwrap();
    assert!(
        listed
            .items
            .iter()
            .any(|c| c.metadata.name.as_deref() == Some("greeting"))
    );
    let deploys: Api<Deployment> = Api::namespaced(client, "default");
    let web: serde_json::Value = serde_saphyr::from_str(WEB).unwrap();
    deploys.patch("web", &pp, &Patch::Apply(web)).await.unwrap();
    let scale = deploys
        .patch_scale(
            "web",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"replicas": 3}})),
        )
        .await
        .unwrap();
    assert_eq!(scale.spec.unwrap().replicas, Some(3));
    assert_eq!(
        deploys.get("web").await.unwrap().spec.unwrap().replicas,
        Some(3)
    );
}

type Watch = futures::stream::BoxStream<'static, Result<ConfigMap, watcher::Error>>;

/// Waits (30 s at most) until the watch delivers the named ConfigMap.
async fn seen(stream: &mut Watch, name: &str) -> Result<(), tokio::time::error::Elapsed> {
    let fut = async {
        loop {
            match stream.next().await {
                Some(Ok(c)) if c.metadata.name.as_deref() == Some(name) => return,
                Some(_) => continue,
                None => panic!("watch stream ended"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(30), fut).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_sees_changes_and_resumes_after_a_restart_with_a_state_dir() {
    let state = tempfile::tempdir().unwrap();
    let config = capa_tui::sim::Config {
        state_dir: Some(state.path().to_path_buf()),
        speed: 10.0,
        ..Default::default()
    };
    let lab = Lab::start_with(config.clone()).await;
    let addr = lab.handle.addr;
    let kubeconfig = lab.kubeconfig();
    let client = client_for(&kubeconfig).await;
    let cms: Api<ConfigMap> = Api::namespaced(client, "default");
    let pp = PatchParams::apply("capa-tui");
    cms.patch("before", &pp, &Patch::Apply(cm("before", "1")))
        .await
        .unwrap();

    let mut stream: Watch = watcher(cms.clone(), watcher::Config::default())
        .default_backoff()
        .applied_objects()
        .boxed();
    seen(&mut stream, "before")
        .await
        .expect("initial object seen");
    cms.patch("during", &pp, &Patch::Apply(cm("during", "2")))
        .await
        .unwrap();
    seen(&mut stream, "during").await.expect("live change seen");

    // Restart the cluster on the same address and state dir; the watcher must carry on.
    let Lab { handle, dir, .. } = lab;
    handle.shutdown().await;
    let restarted = capa_tui::sim::start(capa_tui::sim::Config {
        listen: addr,
        ..config
    })
    .await
    .expect("restart");
    let writer = client_for(&kubeconfig).await;
    let cms2: Api<ConfigMap> = Api::namespaced(writer, "default");
    assert!(
        cms2.get("during").await.is_ok(),
        "objects survived the restart"
    );
    cms2.patch("after", &pp, &Patch::Apply(cm("after", "3")))
        .await
        .unwrap();
    seen(&mut stream, "after")
        .await
        .expect("change after restart seen by the same watcher");
    restarted.shutdown().await;
    drop(dir);
}
