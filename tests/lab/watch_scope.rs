//! The tutor's watches on a shared classroom cluster hear only the lab: another Application in
//! `argocd` never reaches them (the server's `metadata.name` field selector), nor does a
//! ConfigMap in a lab namespace that no lab Application deployed (the stream's scope).

use std::sync::Arc;
use std::time::Duration;

use capa_tui::cluster::Kind;
use capa_tui::cluster::watch::{self, ObjectChange, Scope, StreamChange, StreamId, WatchEvent};
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, PostParams};
use serde_json::json;

fn api(client: &kube::Client, ns: &str, kind: Kind) -> Api<DynamicObject> {
    let (group, version, plural) = kind.api();
    let gvk = GroupVersionKind::gvk(group, version, kind.name());
    Api::namespaced_with(
        client.clone(),
        ns,
        &ApiResource::from_gvk_with_plural(&gvk, plural),
    )
}

async fn create(api: &Api<DynamicObject>, json: serde_json::Value) {
    let o: DynamicObject = serde_json::from_value(json).unwrap();
    api.create(&PostParams::default(), &o).await.unwrap();
}

fn application(name: &str) -> serde_json::Value {
    json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
        "metadata": {"name": name, "namespace": "argocd"},
        "spec": {"project": "default",
            "source": {"repoURL": "git://gitd.gitsrv.svc.cluster.local:9418/none.git", "path": "."},
            "destination": {"server": "https://kubernetes.default.svc", "namespace": "class"}}})
}

fn configmap(name: &str, tracked_by: Option<&str>) -> serde_json::Value {
    let annotations = tracked_by.map_or(json!({}), |app| {
        json!({"argocd.argoproj.io/tracking-id": format!("{app}:/ConfigMap:src-helm/{name}")})
    });
    json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": "src-helm", "annotations": annotations},
        "data": {"k": "v"}})
}

/// The next event that is not a stream's health; fails after 20 s.
async fn next_change(
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<WatchEvent>,
) -> (String, WatchEvent) {
    loop {
        let e = tokio::time::timeout(Duration::from_secs(20), rx.recv())
            .await
            .expect("an event within 20 s")
            .expect("the watches run");
        if let WatchEvent::Object(
            ObjectChange::Applied { key, .. } | ObjectChange::Deleted { key },
        ) = &e
        {
            return (key.to_string(), e);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watches_hear_the_lab_apps_by_name_and_only_what_they_deployed() {
    let dir = tempfile::tempdir().unwrap();
    let sim = capa_sim::start(capa_sim::Config::default()).await.unwrap();
    let kc = dir.path().join("kubeconfig");
    sim.write_kubeconfig(&kc).unwrap();
    let client = capa_tui::cluster::connect(Some(&kc), None).await.unwrap();
    let ns_api: Api<DynamicObject> = Api::all_with(
        client.clone(),
        &ApiResource::from_gvk_with_plural(
            &GroupVersionKind::gvk("", "v1", "Namespace"),
            "namespaces",
        ),
    );
    let ns: DynamicObject = serde_json::from_value(
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "src-helm"}}),
    )
    .unwrap();
    let _ = ns_api.create(&PostParams::default(), &ns).await;

    let streams = watch::lab_streams(&["src-helm"], &["src-helm".to_string()]);
    assert!(
        streams.contains(&StreamId::app("src-helm"))
            && !streams.iter().any(|s| s.is_app() && s.name.is_none()),
        "one stream per lab app, none for every Application: {streams:?}"
    );
    assert_eq!(
        StreamId::app("src-helm").field_selector().as_deref(),
        Some("metadata.name=src-helm")
    );
    let scope = Arc::new(Scope {
        apps: ["src-helm".to_string()].into(),
        named: ["src-helm/ConfigMap/named-by-a-lesson".parse().unwrap()].into(),
    });
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let tasks = watch::spawn(client.clone(), &streams, &scope, None, tx);
    let mut listed = 0;
    while listed < streams.len() {
        if let Some(WatchEvent::Stream(StreamChange::Listed { .. })) = rx.recv().await {
            listed += 1;
        }
    }

    // Within one stream the server keeps the order: what is dropped would come first.
    let argo = api(&client, "argocd", Kind::Application);
    create(&argo, application("class-0001")).await;
    create(&argo, application("src-helm")).await;
    let cms = api(&client, "src-helm", Kind::ConfigMap);
    create(&cms, configmap("someone-elses", None)).await;
    create(&cms, configmap("theirs", Some("class-0001"))).await;
    create(&cms, configmap("named-by-a-lesson", None)).await;
    create(&cms, configmap("deployed", Some("src-helm"))).await;

    let mut heard = Vec::new();
    while !(heard.iter().any(|k: &String| k.ends_with("/deployed"))
        && heard.iter().any(|k| k == "argocd/Application/src-helm"))
    {
        heard.push(next_change(&mut rx).await.0);
    }
    heard.sort();
    heard.dedup();
    assert_eq!(
        heard,
        [
            "argocd/Application/src-helm",
            "src-helm/ConfigMap/deployed",
            "src-helm/ConfigMap/named-by-a-lesson",
        ],
        "only the lab's app and what it deployed or a lesson names"
    );
    for t in tasks {
        t.abort();
    }
}
