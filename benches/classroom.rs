//! Benchmark of a shared classroom Argo CD (issue 23; run: `scripts/bench-classroom`, results in
//! README "Benchmarks"): `capa-tui sim serve` as its own process, lessons 1–2 done, N other
//! Applications in `argocd` and 5,000 ConfigMaps in `src-helm`; the tutor as its own release
//! process at 120×40 in tmux on lesson 2, beside `kubectl get -w` on the ConfigMap the values
//! pane shows. The greeting is patched `PATCHES` times and both screens are read through
//! `tmux capture-pane` until the new value shows. Then the tutor's RSS and its CPU over an idle
//! spell, and (in a fresh tutor) its first frame and the lesson's app on screen. Reported, never
//! asserted: a timing is a benchmark, not a test.
//!
//! Arguments (after `--`): `--apps 0,200,1000 --speeds 1,10 --patches 20 --idle 30
//! --learners 0`. With `--learners N` (issue 34), N learners (`l00`, `l01`, …) each do lessons
//! 1–2 with `--learner` on the one cluster first, and the tutor measured is the first one's.
//! `CAPA_BENCH_BIN` runs another build of the tutor (to compare before and after);
//! `CAPA_BENCH_PERF=PREFIX` profiles the idle spell with `perf record`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark stops at the first thing that goes wrong, saying what"
)]
// A benchmark is one scripted scenario, measured step by step in order.
#![allow(clippy::too_many_lines)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures::StreamExt;
use kube::api::{
    Api, ApiResource, DynamicObject, GroupVersionKind, Patch, PatchParams, PostParams,
};
use serde_json::json;

const CONFIGMAPS: usize = 5_000;
/// A value not seen within this long counts as missed (and is reported).
const PATCH_DEADLINE: Duration = Duration::from_secs(10);

struct Args {
    apps: Vec<usize>,
    speeds: Vec<f64>,
    patches: usize,
    idle: Duration,
    learners: usize,
}

fn args() -> Args {
    let mut a = Args {
        apps: vec![0, 200, 1000],
        speeds: vec![1.0, 10.0],
        patches: 20,
        idle: Duration::from_secs(30),
        learners: 0,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let list = |v: &str| -> Vec<String> { v.split(',').map(str::to_string).collect() };
    let mut it = argv.iter();
    while let Some(flag) = it.next() {
        let Some(v) = it.next() else { break };
        match flag.as_str() {
            "--apps" => a.apps = list(v).iter().map(|n| n.parse().unwrap()).collect(),
            "--speeds" => a.speeds = list(v).iter().map(|n| n.parse().unwrap()).collect(),
            "--patches" => a.patches = v.parse().unwrap(),
            "--idle" => a.idle = Duration::from_secs(v.parse().unwrap()),
            "--learners" => a.learners = v.parse().unwrap(),
            // cargo bench passes `--bench`; anything else is not ours
            _ => {}
        }
    }
    a
}

fn bin() -> PathBuf {
    std::env::var_os("CAPA_BENCH_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_capa-tui")),
        PathBuf::from,
    )
}

/// Where the sim finds helm and kubectl: this tree's `.tools/bin` (a build of the tutor from
/// elsewhere, `CAPA_BENCH_BIN`, would not look there).
fn tools_dir() -> PathBuf {
    std::env::var_os("CAPA_TOOLS_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/bin"),
        PathBuf::from,
    )
}

fn kubectl() -> PathBuf {
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/bin/kubectl");
    if local.exists() {
        local
    } else {
        PathBuf::from("kubectl")
    }
}

struct Tmux(String);

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.0)
            .args(args)
            .output()
            .expect("tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self, target: &str) -> String {
        self.run(&["capture-pane", "-p", "-t", target])
    }

    /// Two panes' screens, read in one tmux command.
    fn both(&self, a: &str, b: &str) -> (String, String) {
        const SPLIT: &str = "CAPA-BENCH-SPLIT";
        let out = self.run(&[
            "capture-pane",
            "-p",
            "-t",
            a,
            ";",
            "display-message",
            "-p",
            SPLIT,
            ";",
            "capture-pane",
            "-p",
            "-t",
            b,
        ]);
        let (first, second) = out.split_once(SPLIT).unwrap_or((&out, ""));
        (first.to_string(), second.to_string())
    }

    fn wait_for(&self, target: &str, want: &str, within: Duration) -> Option<Duration> {
        let start = Instant::now();
        while !self.screen(target).contains(want) {
            if start.elapsed() > within {
                return None;
            }
        }
        Some(start.elapsed())
    }

    fn start(&self, session: &str, cmd: &str) {
        self.run(&[
            "new-session",
            "-d",
            "-s",
            session,
            "-x",
            "120",
            "-y",
            "40",
            cmd,
        ]);
    }

    fn pid(&self, target: &str) -> u32 {
        self.run(&["display", "-p", "-t", target, "#{pane_pid}"])
            .trim()
            .parse()
            .expect("pane pid")
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

/// The sim served as its own process; stopped (SIGTERM) when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let pid = libc::pid_t::try_from(self.0.id()).unwrap_or(0);
        // SAFETY: a signal to the child this benchmark started.
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

/// A `/proc/PID/status` figure in MiB.
fn status_mib(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1024.0
}

/// (resident MiB, user+system CPU seconds) of a process, from /proc.
fn rss_and_cpu(pid: u32) -> (f64, f64) {
    let rss_kib = status_mib(pid, "VmRSS:") * 1024.0;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = after
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let cpu = (f.get(11).copied().unwrap_or(0.0) + f.get(12).copied().unwrap_or(0.0)) / hz;
    (rss_kib / 1024.0, cpu)
}

fn api(
    client: &kube::Client,
    ns: &str,
    group: &str,
    version: &str,
    kind: &str,
    plural: &str,
) -> Api<DynamicObject> {
    let gvk = GroupVersionKind::gvk(group, version, kind);
    Api::namespaced_with(
        client.clone(),
        ns,
        &ApiResource::from_gvk_with_plural(&gvk, plural),
    )
}

fn pct(d: &[Duration], q: f64) -> f64 {
    if d.is_empty() {
        return f64::NAN;
    }
    d[((d.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1e3
}

/// The figures of one run.
struct Figures {
    apps: usize,
    learners: usize,
    speed: f64,
    tutor: Vec<Duration>,
    kubectl: Vec<Duration>,
    missed: (usize, usize),
    rss_mib: f64,
    /// Of it, heap and stacks (the rest is the binary's own pages and mapped files).
    anon_mib: f64,
    idle_cpu_s: f64,
    first_frame: Option<Duration>,
    app_on_screen: Option<Duration>,
}

async fn one_run(
    apps: usize,
    speed: f64,
    patches: usize,
    idle: Duration,
    learners: usize,
) -> Figures {
    // The measured learner's names (`l00-src-helm`), or the lab's own when the class is one.
    let me = (learners > 0).then(|| "l00".to_string());
    let own = |name: &str| {
        me.as_ref()
            .map_or(name.to_string(), |l| format!("{l}-{name}"))
    };
    let as_me: Vec<String> = me
        .iter()
        .flat_map(|l| ["--learner".to_string(), l.clone()])
        .collect();
    let dir = tempfile::tempdir().expect("temp dir");
    let state = dir.path().join("state");
    let kc = dir.path().join("kubeconfig");
    let bin = bin();
    let served = Served(
        Command::new(&bin)
            .args(["sim", "serve", "--speed", &speed.to_string()])
            .env("CAPA_TOOLS_DIR", tools_dir())
            .arg("--state-dir")
            .arg(&state)
            .arg("--kubeconfig-out")
            .arg(&kc)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("sim serve"),
    );
    let start = Instant::now();
    while !kc.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "sim serve never served"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let class: Vec<Option<String>> = match learners {
        0 => vec![None],
        n => (0..n).map(|i| Some(format!("l{i:02}"))).collect(),
    };
    for learner in &class {
        for lesson in ["1", "2"] {
            let ok = Command::new(&bin)
                .env("CAPA_TOOLS_DIR", tools_dir())
                .args(["--sim", "--state-dir"])
                .arg(&state)
                .args(["do", lesson, "--yes"])
                .args(learner.iter().flat_map(|l| ["--learner", l.as_str()]))
                .stdout(Stdio::null())
                .status()
                .expect("capa-tui do")
                .success();
            assert!(ok, "capa-tui do {lesson} ({learner:?}) failed");
        }
    }
    let client = capa_tui::cluster::connect(Some(&kc), None)
        .await
        .expect("client");
    // The class's other Applications: each renders nothing (a directory source whose include
    // matches no file), so the controller's periodic refresh (120 s + jitter) is their only cost.
    let argo = api(
        &client,
        "argocd",
        "argoproj.io",
        "v1alpha1",
        "Application",
        "applications",
    );
    futures::stream::iter(0..apps)
        .map(|i| {
            let argo = argo.clone();
            async move {
                let app: DynamicObject = serde_json::from_value(json!({
                    "apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
                    "metadata": {"name": format!("class-{i:04}"), "namespace": "argocd"},
                    "spec": {"project": "default",
                        "source": {"repoURL": "git://gitd.gitsrv.svc.cluster.local:9418/src.git",
                            "targetRevision": "main", "path": ".",
                            "directory": {"include": "nothing-here.yaml"}},
                        "destination": {"server": "https://kubernetes.default.svc", "namespace": "class"}}
                }))
                .unwrap();
                argo.create(&PostParams::default(), &app).await.expect("create Application");
            }
        })
        .buffer_unordered(8)
        .collect::<Vec<()>>()
        .await;
    let cms = api(
        &client,
        &own("src-helm"),
        "",
        "v1",
        "ConfigMap",
        "configmaps",
    );
    futures::stream::iter(0..CONFIGMAPS)
        .map(|i| {
            let cms = cms.clone();
            async move {
                let cm: DynamicObject = serde_json::from_value(json!({
                    "apiVersion": "v1", "kind": "ConfigMap",
                    "metadata": {"name": format!("other-{i:05}"), "namespace": own("src-helm")},
                    "data": {"k": format!("value {i}")}
                }))
                .unwrap();
                cms.create(&PostParams::default(), &cm)
                    .await
                    .expect("create ConfigMap");
            }
        })
        .buffer_unordered(8)
        .collect::<Vec<()>>()
        .await;

    let t = Tmux(format!("capa-bench-class-{}", std::process::id()));
    let tutor_cmd = format!(
        "env CAPA_LANG=en CAPA_TOOLS_DIR={} {} --sim --state-dir {} --lesson 2 {}",
        tools_dir().display(),
        bin.display(),
        state.display(),
        as_me.join(" ")
    );
    // First frame and the lesson's app on screen, from launch.
    let launched = Instant::now();
    t.start("tutor", &tutor_cmd);
    let first_frame = t
        .wait_for("tutor", "capa", Duration::from_secs(20))
        .map(|_| launched.elapsed());
    // On lesson 2 (`--lesson 2`), whatever a learner's progress says.
    t.wait_for("tutor", "✓ live", Duration::from_secs(60))
        .expect("tutor never live");
    t.wait_for("tutor", "2 · ", Duration::from_secs(10))
        .expect("never on lesson 2");
    t.wait_for("tutor", "from-parameter", Duration::from_secs(30))
        .expect("the values pane never showed the greeting");
    t.run(&["send-keys", "-t", "tutor", "q"]);
    std::thread::sleep(Duration::from_millis(500));
    // A fresh tutor on lesson 2: time the lesson's app (src-helm) on screen.
    let launched = Instant::now();
    t.start("tutor2", &tutor_cmd);
    let app_on_screen = t
        .wait_for("tutor2", &own("src-helm"), Duration::from_secs(20))
        .map(|_| launched.elapsed());
    t.wait_for("tutor2", "from-parameter", Duration::from_secs(30))
        .expect("the values pane never showed the greeting");
    t.start(
        "kubectl",
        &format!(
            "env KUBECONFIG={} {} -n {} get cm {} -w -o custom-columns=G:.data.greeting",
            kc.display(),
            kubectl().display(),
            own("src-helm"),
            own("src-helm-greeting")
        ),
    );
    t.wait_for("kubectl", "from-parameter", Duration::from_secs(30))
        .expect("kubectl -w");
    std::thread::sleep(Duration::from_secs(2));

    let greeting = api(
        &client,
        &own("src-helm"),
        "",
        "v1",
        "ConfigMap",
        "configmaps",
    );
    let (mut tutor, mut kube_w, mut missed) = (Vec::new(), Vec::new(), (0, 0));
    for i in 0..patches {
        let value = format!("patched-{i:02}-{}", std::process::id() % 1000);
        let patch = json!({"data": {"greeting": value}});
        let sent = Instant::now();
        greeting
            .patch(
                &own("src-helm-greeting"),
                &PatchParams::default(),
                &Patch::Merge(&patch),
            )
            .await
            .expect("patch");
        let (mut seen_t, mut seen_k) = (None, None);
        while (seen_t.is_none() || seen_k.is_none()) && sent.elapsed() < PATCH_DEADLINE {
            // Both screens in one tmux call, so neither is read a capture later than the other.
            let (kube_screen, tutor_screen) = t.both("kubectl", "tutor2");
            let at = sent.elapsed();
            if seen_k.is_none() && kube_screen.contains(&value) {
                seen_k = Some(at);
            }
            if seen_t.is_none() && tutor_screen.contains(&value) {
                seen_t = Some(at);
            }
        }
        match seen_t {
            Some(d) => tutor.push(d),
            None => missed.0 += 1,
        }
        match seen_k {
            Some(d) => kube_w.push(d),
            None => missed.1 += 1,
        }
        tokio::time::sleep(Duration::from_millis(700)).await;
    }
    tutor.sort();
    kube_w.sort();
    let pid = t.pid("tutor2");
    let (_, cpu0) = rss_and_cpu(pid);
    // With CAPA_BENCH_PERF=PREFIX the idle spell is also profiled (perf's own cost is counted in
    // the CPU figure then): PREFIX-<speed>x-<apps>.data, for `perf report`.
    match std::env::var("CAPA_BENCH_PERF") {
        Ok(prefix) => {
            let out = format!("{prefix}-{speed}x-{apps}.data");
            let recorded = Command::new("perf")
                .args([
                    "record",
                    "-F",
                    "999",
                    "-g",
                    "-o",
                    &out,
                    "-p",
                    &pid.to_string(),
                    "--",
                ])
                .args(["sleep", &idle.as_secs().to_string()])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            println!(
                "perf record into {out}: {}",
                if recorded { "ok" } else { "failed" }
            );
        }
        Err(_) => tokio::time::sleep(idle).await,
    }
    let (rss_mib, cpu1) = rss_and_cpu(pid);
    let anon_mib = status_mib(pid, "RssAnon:");
    drop(t);
    drop(served);
    Figures {
        apps,
        learners,
        speed,
        tutor,
        kubectl: kube_w,
        missed,
        rss_mib,
        anon_mib,
        idle_cpu_s: cpu1 - cpu0,
        first_frame,
        app_on_screen,
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let a = args();
    println!("binary: {}", bin().display());
    println!(
        "| speed | apps | learners | tutor p50 / p90 / max (ms) | kubectl -w p50 / p90 / max (ms) | p50 ratio | missed (tutor, kubectl) | RSS (anon) MiB | CPU in {} s idle | first frame | lesson app on screen |",
        a.idle.as_secs()
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for &speed in &a.speeds {
        for &apps in &a.apps {
            let f = one_run(apps, speed, a.patches, a.idle, a.learners).await;
            let ms =
                |d: Option<Duration>| d.map_or("-".into(), |d| format!("{} ms", d.as_millis()));
            println!(
                "| {} | {} | {} | {:.1} / {:.1} / {:.1} | {:.1} / {:.1} / {:.1} | {:.2} | {}, {} | {:.1} ({:.1}) | {:.2} s | {} | {} |",
                f.speed,
                f.apps,
                f.learners,
                pct(&f.tutor, 0.5),
                pct(&f.tutor, 0.9),
                pct(&f.tutor, 1.0),
                pct(&f.kubectl, 0.5),
                pct(&f.kubectl, 0.9),
                pct(&f.kubectl, 1.0),
                pct(&f.tutor, 0.5) / pct(&f.kubectl, 0.5),
                f.missed.0,
                f.missed.1,
                f.rss_mib,
                f.anon_mib,
                f.idle_cpu_s,
                ms(f.first_frame),
                ms(f.app_on_screen),
            );
        }
    }
}
