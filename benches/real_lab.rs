//! The embedded cluster beside the real control plane, on the same work in one run (results and
//! ratios in the README): server-side apply latency, a LIST of 5,000 ConfigMaps, one change
//! reaching 50 watchers, and the servers' memory. Run `scripts/real-lab up`, then
//! `cargo bench --bench real_lab`. The embedded cluster runs as its own process
//! (`capa-tui sim serve`, state on disk like kine's), so both are measured the same way, from a
//! kube-rs client in this process. Numbers are reported, never asserted.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark stops at the first thing that goes wrong, saying what"
)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, WatchEvent, WatchParams};
use serde_json::json;

const APPLIES: usize = 1_000;
const LISTED: usize = 5_000;
const LISTS: usize = 5;
const WATCHERS: usize = 50;
const CHANGES: usize = 20;

struct Measured {
    apply_p50: Duration,
    apply_p99: Duration,
    list_median: Duration,
    fanout_median: Duration,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

async fn client(kubeconfig: &Path) -> kube::Client {
    let text = std::fs::read_to_string(kubeconfig).unwrap();
    let config = kube::Config::from_custom_kubeconfig(
        kube::config::Kubeconfig::from_yaml(&text).unwrap(),
        &Default::default(),
    )
    .await
    .unwrap();
    kube::Client::try_from(config).unwrap()
}

fn cm(name: &str, i: usize) -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name},
           "data": {"i": i.to_string(), "greeting": "hello from the bench"}})
}

/// The same work on one cluster, in a namespace of its own that is deleted afterwards.
async fn measure(client: kube::Client) -> Measured {
    let ns = format!("bench-{}", std::process::id());
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let _ = namespaces
        .patch(
            &ns,
            &PatchParams::apply("bench"),
            &Patch::Apply(
                json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}),
            ),
        )
        .await
        .unwrap();
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), &ns);
    let pp = PatchParams::apply("bench");

    // Apply latency: half creates, half updates.
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

    // A LIST of 5,000 ConfigMaps (500 are there from the applies).
    futures::stream::iter(APPLIES / 2..LISTED)
        .map(|i| {
            let (cms, pp) = (cms.clone(), pp.clone());
            async move {
                let name = format!("list-{i}");
                cms.patch(&name, &pp, &Patch::Apply(cm(&name, i))).await
            }
        })
        .buffer_unordered(8)
        .try_collect::<Vec<_>>()
        .await
        .unwrap();
    let mut lists = Vec::new();
    for _ in 0..LISTS {
        let started = Instant::now();
        let got = cms.list(&ListParams::default()).await.unwrap();
        lists.push(started.elapsed());
        // and kube-root-ca.crt, which the controller-manager puts in every namespace
        assert!(got.items.len() >= LISTED, "{}", got.items.len());
    }
    lists.sort();

    // One change reaching 50 watchers: each watch from the current resourceVersion, one
    // ConfigMap patched, the time until the last watcher has it.
    let mut fanouts = Vec::new();
    for change in 0..CHANGES {
        let rv = cms
            .list_metadata(&ListParams::default().limit(1))
            .await
            .unwrap()
            .metadata
            .resource_version
            .unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut tasks = Vec::new();
        for _ in 0..WATCHERS {
            let (cms, rv, tx) = (cms.clone(), rv.clone(), tx.clone());
            tasks.push(tokio::spawn(async move {
                let wp = WatchParams::default().fields("metadata.name=apply-0");
                let mut stream = cms.watch(&wp, &rv).await.unwrap().boxed();
                while let Some(ev) = stream.next().await {
                    if let Ok(WatchEvent::Modified(_)) = ev {
                        let _ = tx.send(Instant::now());
                        return;
                    }
                }
            }));
        }
        // Let every watch reach the server before the change.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let started = Instant::now();
        cms.patch(
            "apply-0",
            &pp,
            &Patch::Apply(cm("apply-0", 1_000_000 + change)),
        )
        .await
        .unwrap();
        let mut last = started;
        for _ in 0..WATCHERS {
            last = rx.recv().await.unwrap();
        }
        fanouts.push(last.duration_since(started));
        for t in tasks {
            t.abort();
        }
    }
    fanouts.sort();

    namespaces
        .delete(&ns, &DeleteParams::default())
        .await
        .unwrap();
    Measured {
        apply_p50: percentile(&latencies, 0.5),
        apply_p99: percentile(&latencies, 0.99),
        list_median: percentile(&lists, 0.5),
        fanout_median: percentile(&fanouts, 0.5),
    }
}

fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}

/// The real lab's parts and their pids (`scripts/real-lab`'s pid files).
fn real_parts(run: &Path) -> Vec<(String, u32)> {
    let mut parts = Vec::new();
    for entry in std::fs::read_dir(run.join("pids")).unwrap().flatten() {
        let name = entry
            .path()
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let pid = std::fs::read_to_string(entry.path())
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        parts.push((name, pid));
    }
    parts.sort();
    parts
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn ratio(sim: Duration, real: Duration) -> String {
    format!("{:.2}×", sim.as_secs_f64() / real.as_secs_f64())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = root.join(".tools/real-lab/run");
    let real_kubeconfig = std::env::var_os("CAPA_REAL_LAB_KUBECONFIG")
        .map_or_else(|| run.join("kubeconfig"), PathBuf::from);
    assert!(
        real_kubeconfig.exists(),
        "the real lab is not up: scripts/real-lab up, then cargo bench --bench real_lab"
    );

    // The embedded cluster as its own process, its state on disk.
    let dir = tempfile::tempdir().unwrap();
    let sim_kubeconfig = dir.path().join("kubeconfig");
    let mut sim = std::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["sim", "serve", "--kubeconfig-out"])
        .arg(&sim_kubeconfig)
        .arg("--state-dir")
        .arg(dir.path().join("state"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !sim_kubeconfig.exists() {
        assert!(Instant::now() < deadline, "sim serve did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let real = measure(client(&real_kubeconfig).await).await;
    let embedded = measure(client(&sim_kubeconfig).await).await;

    let parts = real_parts(&run);
    let rss = |names: &[&str]| -> f64 {
        parts
            .iter()
            .filter(|(n, _)| names.contains(&n.as_str()))
            .map(|(_, pid)| rss_mib(*pid))
            .sum()
    };
    let control_plane = rss(&[
        "kine",
        "kube-apiserver",
        "kube-controller-manager",
        "kube-scheduler",
    ]);
    let whole = rss(&[
        "kine",
        "kube-apiserver",
        "kube-controller-manager",
        "kube-scheduler",
        "kwok",
        "redis",
        "repo-server",
        "controller",
        "git-daemon",
    ]);
    let sim_rss = rss_mib(sim.id());

    println!("| measure | embedded cluster | real lab | embedded / real |");
    println!("|---|---|---|---|");
    println!(
        "| server-side apply, p50 ({APPLIES} applies) | {} | {} | {} |",
        ms(embedded.apply_p50),
        ms(real.apply_p50),
        ratio(embedded.apply_p50, real.apply_p50)
    );
    println!(
        "| server-side apply, p99 | {} | {} | {} |",
        ms(embedded.apply_p99),
        ms(real.apply_p99),
        ratio(embedded.apply_p99, real.apply_p99)
    );
    println!(
        "| LIST of {LISTED} ConfigMaps, median of {LISTS} | {} | {} | {} |",
        ms(embedded.list_median),
        ms(real.list_median),
        ratio(embedded.list_median, real.list_median)
    );
    println!(
        "| one change reaching {WATCHERS} watchers, median of {CHANGES} | {} | {} | {} |",
        ms(embedded.fanout_median),
        ms(real.fanout_median),
        ratio(embedded.fanout_median, real.fanout_median)
    );
    println!(
        "| RSS after the run | {sim_rss:.0} MiB (API server, controllers, Argo CD, git daemon: one process) | {control_plane:.0} MiB control plane (kine, kube-apiserver, controller-manager, scheduler); {whole:.0} MiB with kwok, Redis, Argo CD and git daemon | {:.2}× of the control plane, {:.2}× of the whole |",
        sim_rss / control_plane,
        sim_rss / whole
    );
    for (name, pid) in &parts {
        eprintln!("  real lab {name}: {:.0} MiB", rss_mib(*pid));
    }
    let _ = sim.kill();
    let _ = sim.wait();
}
