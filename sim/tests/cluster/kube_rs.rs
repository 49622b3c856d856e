//! kube-rs 5 against the embedded cluster: list, watcher (also across a restart with a state
//! dir), server-side apply and scale — what the tutor itself uses.

use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, Patch, PatchParams};
use kube::runtime::{WatchStreamExt, watcher};
use serde_json::json;

use crate::common::{Lab, WEB, client_for};

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
    let config = capa_sim::Config {
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
    let restarted = capa_sim::start(capa_sim::Config {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletes_honour_propagation_policies_and_finalizers() {
    use k8s_openapi::api::apps::v1::ReplicaSet;
    use kube::api::{DeleteParams, PropagationPolicy};
    let lab = Lab::start().await;
    let client = lab.client().await;
    let deploys: Api<Deployment> = Api::namespaced(client.clone(), "default");
    let sets: Api<ReplicaSet> = Api::namespaced(client.clone(), "default");
    let pp = PatchParams::apply("capa-tui");
    let web: serde_json::Value = serde_saphyr::from_str(WEB).unwrap();
    let wait_for = |f: Box<dyn Fn() -> futures::future::BoxFuture<'static, bool> + Send>| async move {
        for _ in 0..300 {
            if f().await {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        false
    };

    // Orphan: the Deployment goes, its ReplicaSet stays without an owner.
    deploys
        .patch("web", &pp, &Patch::Apply(web.clone()))
        .await
        .unwrap();
    let s2 = sets.clone();
    assert!(
        wait_for(Box::new(move || {
            let s = s2.clone();
            Box::pin(async move {
                !s.list(&ListParams::default())
                    .await
                    .unwrap()
                    .items
                    .is_empty()
            })
        }))
        .await
    );
    deploys
        .delete(
            "web",
            &DeleteParams {
                propagation_policy: Some(PropagationPolicy::Orphan),
                ..DeleteParams::default()
            },
        )
        .await
        .unwrap();
    let d2 = deploys.clone();
    assert!(
        wait_for(Box::new(move || {
            let d = d2.clone();
            Box::pin(async move { d.get_opt("web").await.unwrap().is_none() })
        }))
        .await,
        "the orphaning delete completes"
    );
    let left = sets.list(&ListParams::default()).await.unwrap().items;
    assert_eq!(left.len(), 1, "the ReplicaSet was orphaned, not deleted");
    assert!(
        left[0]
            .metadata
            .owner_references
            .as_ref()
            .is_none_or(|r| r.is_empty()),
        "{:?}",
        left[0].metadata.owner_references
    );

    // Foreground: the Deployment waits, marked, until its dependents are gone.
    let mut web2 = web.clone();
    web2["metadata"]["name"] = json!("web2");
    web2["spec"]["selector"]["matchLabels"]["app"] = json!("web2");
    web2["spec"]["template"]["metadata"]["labels"]["app"] = json!("web2");
    deploys
        .patch("web2", &pp, &Patch::Apply(web2))
        .await
        .unwrap();
    let s3 = sets.clone();
    assert!(
        wait_for(Box::new(move || {
            let s = s3.clone();
            Box::pin(async move {
                s.list(&ListParams::default().labels("app=web2"))
                    .await
                    .unwrap()
                    .items
                    .len()
                    == 1
            })
        }))
        .await
    );
    deploys
        .delete(
            "web2",
            &DeleteParams {
                propagation_policy: Some(PropagationPolicy::Foreground),
                ..DeleteParams::default()
            },
        )
        .await
        .unwrap();
    let d3 = deploys.clone();
    let s4 = sets.clone();
    assert!(
        wait_for(Box::new(move || {
            let (d, s) = (d3.clone(), s4.clone());
            Box::pin(async move {
                d.get_opt("web2").await.unwrap().is_none()
                    && s.list(&ListParams::default().labels("app=web2"))
                        .await
                        .unwrap()
                        .items
                        .is_empty()
            })
        }))
        .await,
        "foreground deletion removes the dependents, then the owner"
    );

    // A finalizer holds an object, marked for deletion, until it is removed.
    let cms: Api<ConfigMap> = Api::namespaced(client, "default");
    let mut held = cm("held", "x");
    held["metadata"]["finalizers"] = json!(["example.com/hold"]);
    cms.patch("held", &pp, &Patch::Apply(held)).await.unwrap();
    cms.delete("held", &DeleteParams::default()).await.unwrap();
    let still = cms.get("held").await.unwrap();
    assert!(
        still.metadata.deletion_timestamp.is_some(),
        "pending deletion"
    );
    cms.patch(
        "held",
        &PatchParams::default(),
        &Patch::Merge(json!({"metadata": {"finalizers": null}})),
    )
    .await
    .unwrap();
    assert!(
        cms.get_opt("held").await.unwrap().is_none(),
        "gone once the finalizer is removed"
    );
}
