//! Benchmarks of the embedded lab cluster (run: `cargo bench --bench sim`; results in README):
//! apply latency p50/p99, watch fan-out to 50 watchers over 10,000 objects, and memory for
//! 10,000 objects. A bench binary, not a timed test: numbers are reported, never asserted.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark stops at the first thing that goes wrong, saying what"
)]

use std::time::{Duration, Instant};

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams, WatchEvent, WatchParams};
use serde_json::json;

const OBJECTS: usize = 10_000;
const WATCHERS: usize = 50;
const APPLIES: usize = 1_000;

fn rss_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn cm(name: &str, i: usize) -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "labels": {"bench": "yes"}}, "data": {"i": i.to_string(), "greeting": "hello from the bench"}})
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let handle = capa_sim::start(capa_sim::Config::default()).await.unwrap();
    let kc = dir.path().join("kubeconfig");
    handle.write_kubeconfig(&kc).unwrap();
    let text = std::fs::read_to_string(&kc).unwrap();
    let config = kube::Config::from_custom_kubeconfig(
        kube::config::Kubeconfig::from_yaml(&text).unwrap(),
        &Default::default(),
    )
    .await
    .unwrap();
    let client = kube::Client::try_from(config).unwrap();
    let cms: Api<ConfigMap> = Api::namespaced(client, "default");
    let pp = PatchParams::apply("bench");

    // Apply latency: server-side apply of a ConfigMap, half creates and half updates.
    let mut latencies = Vec::with_capacity(APPLIES);
    for i in 0..APPLIES {
        let name = format!("apply-{}", i % (APPLIES / 2));
        let started = Instant::now();
        cms.patch(&name, &pp, &Patch::Apply(cm(&name, i)))
            .await
            .unwrap();
        latencies.push(started.elapsed());
    }
    latencies.sort();
    println!(
        "apply latency (server-side apply over HTTPS, {APPLIES} applies): p50 {:?}, p99 {:?}",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99)
    );

    // Memory for 10,000 objects.
    let rss_before = rss_mib();
    let started = Instant::now();
    futures::stream::iter(0..OBJECTS)
        .map(|i| {
            let (cms, pp) = (cms.clone(), pp.clone());
            async move {
                let name = format!("obj-{i}");
                cms.patch(&name, &pp, &Patch::Apply(cm(&name, i)))
                    .await
                    .map(|_| ())
            }
        })
        .buffer_unordered(8)
        .try_collect::<Vec<()>>()
        .await
        .unwrap();
    let rss_after = rss_mib();
    println!(
        "created {OBJECTS} ConfigMaps in {:?}; process RSS {rss_before:.1} MiB -> {rss_after:.1} MiB (+{:.1} MiB, {:.1} KiB per object, client included)",
        started.elapsed(),
        rss_after - rss_before,
        (rss_after - rss_before) * 1024.0 / OBJECTS as f64
    );

    // Watch fan-out: 50 watchers each receive all 10,000 objects, then one change reaches all.
    let started = Instant::now();
    let mut streams = Vec::new();
    for _ in 0..WATCHERS {
        let s = cms
            .watch(&WatchParams::default().labels("bench=yes"), "0")
            .await
            .unwrap()
            .boxed();
        streams.push(s);
    }
    let total = OBJECTS + APPLIES / 2;
    let initial = futures::future::join_all(streams.iter_mut().map(|s| async move {
        let mut n = 0;
        while n < total {
            match s.try_next().await.unwrap() {
                Some(WatchEvent::Added(_)) => n += 1,
                Some(_) => {}
                None => panic!("watch ended early"),
            }
        }
    }));
    initial.await;
    println!(
        "watch fan-out: {WATCHERS} watchers each received {total} initial objects in {:?}",
        started.elapsed()
    );
    let changed = Instant::now();
    cms.patch("obj-0", &pp, &Patch::Apply(cm("obj-0", 999_999)))
        .await
        .unwrap();
    futures::future::join_all(streams.iter_mut().map(|s| async move {
        loop {
            if let Some(WatchEvent::Modified(_)) = s.try_next().await.unwrap() {
                return;
            }
        }
    }))
    .await;
    println!(
        "watch fan-out: one change reached all {WATCHERS} watchers in {:?}",
        changed.elapsed()
    );
    println!("objects in the store: {}", handle.object_count());
    handle.shutdown().await;
}
