//! Benchmarks of the tutor (run: `cargo bench --bench tui`; results in README): first frame,
//! watch event → drawn frame latency beside `kubectl get -w` seeing the same change, an idle
//! minute (CPU, RSS, API requests by kind), and 5,000 unrelated objects. Reported, not asserted.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark stops at the first thing that goes wrong, saying what"
)]
// A benchmark is one scripted scenario, measured step by step in order.
#![allow(clippy::too_many_lines)]

use std::time::{Duration, Instant};

use capa_tui::cluster::watch::ObjectChange;
use capa_tui::i18n::Lang;
use capa_tui::lab::catalog::Catalog;
use capa_tui::lab::engine::{self, Runner};
use capa_tui::lab::paths::LabPaths;
use capa_tui::tui::state::State;
use capa_tui::tui::update::{Msg, update};
use capa_tui::tui::view::Screen;
use kube::api::{
    Api, ApiResource, DynamicObject, GroupVersionKind, Patch, PatchParams, PostParams,
};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;
use tokio::io::AsyncBufReadExt;

fn rss_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse::<f64>().ok())
        .unwrap_or(0.0)
        * 4096.0
        / 1048576.0
}

fn cpu_seconds() -> f64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let sim = capa_sim::start(capa_sim::Config::default()).await.unwrap();
    let kc = dir.path().join("kubeconfig");
    sim.write_kubeconfig(&kc).unwrap();
    let client = capa_tui::cluster::connect(Some(&kc), None).await.unwrap();
    // A lab in progress: lessons 1 and 2 done.
    let paths = LabPaths {
        src_dir: dir.path().join("capa-src"),
        bare_dir: sim.bare_dir().to_path_buf(),
    };
    let catalog = std::sync::Arc::new(Catalog::embedded().unwrap());
    let runner = Runner {
        client: client.clone(),
        catalog: catalog.clone(),
        commit_lang: Lang::FALLBACK,
        fit: capa_tui::lab::fit::Fit::for_paths(&paths),
        paths,
        kubeconfig: Some(kc.clone()),
        context: None,
        deadline: Duration::from_secs(120),
        clock: None,
    };
    for lesson in catalog.lessons().iter().take(2) {
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        runner
            .run(
                lesson.spec.number,
                &engine::plan(lesson).unwrap(),
                tx,
                tokio::sync::watch::channel(false).1,
            )
            .await
            .unwrap();
    }

    // First frame, and the first frame with the Applications loaded from the watch.
    let launched = Instant::now();
    let target = capa_tui::session::Target::Embedded {
        url: "https://127.0.0.1:6443".into(),
        state: "/tmp/capa-bench".into(),
        served_by: None,
    };
    let mut state = State::new(catalog.clone(), Lang::FALLBACK, target);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal
        .draw(|f| f.render_widget(&Screen(&state), f.area()))
        .unwrap();
    let first = launched.elapsed();
    let (wtx, mut wrx) = tokio::sync::mpsc::unbounded_channel();
    let _watches = capa_tui::cluster::watch::spawn(
        client.clone(),
        &capa_tui::cluster::watch::lab_streams(&catalog.apps(), &catalog.namespaces()),
        &std::sync::Arc::new(capa_tui::cluster::watch::Scope {
            apps: catalog.apps().into_iter().map(String::from).collect(),
            named: catalog.named_objects(),
        }),
        None,
        wtx,
    );
    while state.live().apps.is_empty() || !state.live().health.all_live() {
        let e = wrx.recv().await.unwrap();
        update(&mut state, to_msg(e));
    }
    terminal
        .draw(|f| f.render_widget(&Screen(&state), f.area()))
        .unwrap();
    println!(
        "first frame: {first:?}; first frame with the lab's Applications from the watch: {:?}",
        launched.elapsed()
    );

    // Watch event → drawn frame, beside kubectl get -w.
    let kubectl = capa_sim::tools::find("kubectl").expect("run scripts/install-tools");
    let mut kw = tokio::process::Command::new(kubectl)
        .args([
            "-n",
            "argocd",
            "get",
            "app",
            "src-helm",
            "-w",
            "-o",
            "jsonpath={.metadata.annotations.bench}{\"\\n\"}",
        ])
        .env("KUBECONFIG", &kc)
        .env("KUBECACHEDIR", dir.path().join("cache"))
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut kw_lines = tokio::io::BufReader::new(kw.stdout.take().unwrap()).lines();
    let _ = kw_lines.next_line().await;
    let ar = ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk("argoproj.io", "v1alpha1", "Application"),
        "applications",
    );
    let apps: Api<DynamicObject> = Api::namespaced_with(client.clone(), "argocd", &ar);
    let (mut tui_lat, mut kubectl_lat) = (Vec::new(), Vec::new());
    let (mut missed_tui, mut missed_kubectl) = (0, 0);
    for i in 0..20 {
        let mark = format!("b{i}");
        let sent = Instant::now();
        apps.patch(
            "src-helm",
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"annotations": {"bench": mark}}})),
        )
        .await
        .unwrap();
        let tui_seen = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                let Some(e) = wrx.recv().await else { return false };
                let msg = to_msg(e);
                let hit = matches!(&msg, Msg::Object(ObjectChange::Applied { key, object: a }) if key.is_app() && a["metadata"]["annotations"]["bench"] == mark.as_str());
                update(&mut state, msg);
                if hit {
                    terminal.draw(|f| f.render_widget(&Screen(&state), f.area())).unwrap();
                    return true;
                }
            }
        })
        .await;
        match tui_seen {
            Ok(true) => tui_lat.push(sent.elapsed()),
            _ => missed_tui += 1,
        }
        let kubectl_seen = tokio::time::timeout(Duration::from_secs(5), async {
            while let Ok(Some(line)) = kw_lines.next_line().await {
                if line.trim() == mark {
                    return true;
                }
            }
            false
        })
        .await;
        match kubectl_seen {
            Ok(true) => kubectl_lat.push(sent.elapsed()),
            _ => missed_kubectl += 1,
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let med = |v: &[Duration]| {
        if v.is_empty() {
            "n/a".to_string()
        } else {
            format!("{:?}", median(v.to_vec()))
        }
    };
    println!(
        "watch event → drawn frame: median {} over {} changes ({missed_tui} missed); kubectl get -w printing the same change: median {} ({missed_kubectl} missed)",
        med(&tui_lat),
        tui_lat.len(),
        med(&kubectl_lat)
    );
    drop(kw);

    // An idle minute.
    let (l0, w0, g0, _) = sim.requests().snapshot();
    let cpu0 = cpu_seconds();
    let idle = tokio::time::sleep(Duration::from_secs(60));
    tokio::pin!(idle);
    let mut frames = 0;
    loop {
        tokio::select! {
            _ = &mut idle => break,
            Some(e) = wrx.recv() => {
                update(&mut state, to_msg(e));
                terminal.draw(|f| f.render_widget(&Screen(&state), f.area())).unwrap();
                frames += 1;
            }
        }
    }
    let (l1, w1, g1, _) = sim.requests().snapshot();
    // The runtime ticks once a second only while the clock runs (a stale watch, a running plan).
    let clock = if state.clock_running() {
        "running"
    } else {
        "stopped"
    };
    println!(
        "idle minute: {:.2} s CPU (embedded cluster included), RSS {:.1} MiB, {frames} frames redrawn (clock {clock}), API requests: {} LIST, {} WATCH, {} GET",
        cpu_seconds() - cpu0,
        rss_mib(),
        l1 - l0,
        w1 - w0,
        g1 - g0
    );

    // 5,000 unrelated objects: none of them should reach the tutor.
    let ns: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(client.clone());
    ns.create(
        &PostParams::default(),
        &serde_json::from_value(json!({"metadata": {"name": "unrelated"}})).unwrap(),
    )
    .await
    .unwrap();
    let cms: Api<k8s_openapi::api::core::v1::ConfigMap> =
        Api::namespaced(client.clone(), "unrelated");
    let rss0 = rss_mib();
    let cpu0 = cpu_seconds();
    for i in 0..5000 {
        cms.create(
            &PostParams::default(),
            &serde_json::from_value(
                json!({"metadata": {"name": format!("cm-{i}")}, "data": {"i": i.to_string()}}),
            )
            .unwrap(),
        )
        .await
        .unwrap();
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut delivered = 0;
    while let Ok(e) = wrx.try_recv() {
        update(&mut state, to_msg(e));
        delivered += 1;
    }
    println!(
        "5,000 unrelated objects: {delivered} watch events reached the tutor; process RSS +{:.1} MiB and {:.2} s CPU while creating them (all of it the embedded cluster's)",
        rss_mib() - rss0,
        cpu_seconds() - cpu0
    );
    sim.shutdown().await;
}

fn to_msg(e: capa_tui::cluster::watch::WatchEvent) -> Msg {
    Msg::from(e)
}
