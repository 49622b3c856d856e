//! `capa-tui sim serve` as a process: the kubeconfig appears only once the cluster serves,
//! SIGTERM stops it cleanly, non-loopback addresses are refused, and a kill -9 loses nothing
//! that was acknowledged.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

async fn serve(kubeconfig: &Path, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["sim", "serve", "--speed", "10", "--kubeconfig-out"])
        .arg(kubeconfig)
        // Its own lab: never the learner's default state dir.
        .arg("--state-dir")
        .arg(kubeconfig.with_file_name("state"))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("capa-tui runs")
}

/// The processes whose command line holds `arg`, from /proc.
fn daemons_serving(arg: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let line = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if line.contains("daemon") && line.contains(arg) {
            out.push(line);
        }
    }
    out
}

async fn wait_for_file(path: &Path) {
    for _ in 0..200 {
        if path.exists() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{} never appeared", path.display());
}

async fn kubectl(kubeconfig: &Path, cache: &Path, args: &[&str]) -> std::process::Output {
    Command::new(crate::common::kubectl_path())
        .args(args)
        .env("KUBECONFIG", kubeconfig)
        .env("KUBECACHEDIR", cache)
        .output()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_kubeconfig_is_written_once_serving_and_sigterm_stops_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    let mut child = serve(&kc, &[]).await;
    wait_for_file(&kc).await;
    // Written only once serving: the very first request must succeed.
    let out = kubectl(
        &kc,
        &dir.path().join("cache"),
        &["get", "ns", "default", "-o", "name"],
    )
    .await;
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "namespace/default",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&kc).unwrap().permissions().mode() & 0o777,
        0o600,
        "the token is private"
    );
    let pid = child.id().unwrap() as i32;
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("stops promptly")
        .unwrap();
    assert!(status.success(), "{status}");
    // It logged in its state dir, privately.
    let log = kc.with_file_name("state").join("serve.log");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("serving at https://127.0.0.1:"), "{text}");
    assert_eq!(
        std::fs::metadata(&log).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_loopback_address_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    let out = serve(&kc, &["--listen", "0.0.0.0:0"])
        .await
        .wait_with_output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("loopback") && err.contains("127.0.0.1"),
        "{err}"
    );
    assert!(
        !kc.exists(),
        "no kubeconfig for a cluster that never served"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_dash_nine_loses_nothing_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    let cache = dir.path().join("cache");
    let mut child = serve(&kc, &[]).await;
    wait_for_file(&kc).await;
    let cm = dir.path().join("cm.yaml");
    for i in 0..5 {
        std::fs::write(&cm, format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cm-{i}}}\ndata: {{n: \"{i}\"}}\n")).unwrap();
        let out = kubectl(&kc, &cache, &["apply", "-f", cm.to_str().unwrap()]).await;
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    child.kill().await.unwrap(); // SIGKILL
    // Its git daemon goes with it: a killed cluster leaves nothing serving the lab's repos.
    let bare = format!("--base-path={}", dir.path().join("state/bare").display());
    let mut left = daemons_serving(&bare);
    for _ in 0..100 {
        if left.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        left = daemons_serving(&bare);
    }
    assert!(left.is_empty(), "git daemons outlived kill -9: {left:?}");
    std::fs::remove_file(&kc).unwrap();
    // The same state dir (`serve` puts it beside the kubeconfig).
    let mut child = serve(&kc, &[]).await;
    wait_for_file(&kc).await;
    let out = kubectl(&kc, &cache, &["get", "cm", "-o", "name"]).await;
    let names = String::from_utf8_lossy(&out.stdout);
    for i in 0..5 {
        assert!(names.contains(&format!("configmap/cm-{i}")), "{names}");
    }
    child.kill().await.unwrap();
}

/// A journal damaged in the middle stops `sim serve` with the line and what to do, and changes
/// nothing; `sim serve --repair-journal` keeps what came before the damage (and a copy of the
/// whole journal) and serves again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_journal_stops_the_server_until_it_is_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    // Changes journaled and never compacted: the server is killed, not stopped.
    let mut server = Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["sim", "serve", "--state-dir"])
        .arg(&state)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !state.join("serving.json").exists() {
        assert!(start.elapsed() < Duration::from_secs(30), "never served");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for n in 0..8 {
        let out = crate::common::lab_cli::kubectl(
            &state,
            &[
                "create",
                "configmap",
                &format!("c{n}"),
                "--from-literal=n=1",
            ],
        );
        assert!(out.status.success(), "{}", super::lessons::text(&out));
    }
    server.kill().await.unwrap();
    let journal = state.join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() > 4,
        "a journal with a few records: {}",
        lines.len()
    );
    let damaged = lines.len() / 2;
    lines[damaged] = "{\"torn\": ";
    let broken = lines.join("\n") + "\n";
    std::fs::write(&journal, &broken).unwrap();
    let run = |extra: &'static [&'static str]| {
        let state = state.clone();
        async move {
            tokio::time::timeout(
                Duration::from_secs(20),
                Command::new(env!("CARGO_BIN_EXE_capa-tui"))
                    .args(["sim", "serve", "--state-dir"])
                    .arg(&state)
                    .args(extra)
                    .env("LANG", "en_US.UTF-8")
                    .kill_on_drop(true)
                    .output(),
            )
            .await
        }
    };
    let refused = run(&[])
        .await
        .expect("a damaged journal stops the start at once")
        .unwrap();
    let said = String::from_utf8_lossy(&refused.stderr).to_string();
    assert!(!refused.status.success(), "{said}");
    assert!(
        said.contains(&format!("damaged at line {}", damaged + 1))
            && said.contains("--repair-journal"),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap(),
        broken,
        "nothing changed"
    );
    // Repaired, it serves (until the timeout stops it).
    let served = run(&["--repair-journal"]).await;
    assert!(served.is_err(), "it serves after the repair");
    assert!(state.join("serving.json").exists() || state.join("kubeconfig").exists());
    let kept = std::fs::read_to_string(&journal).unwrap();
    assert!(!kept.contains("\"torn\""), "the damage is left out");
    let copies: Vec<_> = std::fs::read_dir(&state)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("journal.jsonl.damaged-")
        })
        .collect();
    assert_eq!(copies.len(), 1, "the whole journal kept beside it");
}

/// A client for the cluster `kubeconfig` names, read afresh (each start serves on a new port).
async fn client_for(kubeconfig: &Path) -> kube::Client {
    let config = kube::config::Kubeconfig::read_from(kubeconfig).unwrap();
    let config = kube::Config::from_custom_kubeconfig(config, &Default::default())
        .await
        .unwrap();
    kube::Client::try_from(config).unwrap()
}

/// The names of every ConfigMap in `default`.
async fn configmap_names(client: &kube::Client) -> std::collections::BTreeSet<String> {
    let api: kube::Api<k8s_openapi::api::core::v1::ConfigMap> =
        kube::Api::namespaced(client.clone(), "default");
    api.list(&Default::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|c| c.metadata.name)
        .collect()
}

/// reliability-4's fault suite, for kills: four writers create ConfigMaps as fast as the
/// cluster answers, and `sim serve` is killed with SIGKILL at a random moment among them, six
/// times over the same state dir. Every create that was answered must be there after each
/// restart; an unanswered one may or may not be. The figures (writes, kills, losses) are printed
/// for the README, with the seed that placed the kills.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_dash_nine_at_random_moments_under_writers_loses_nothing_acknowledged() {
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    // A small xorshift: the moments only need to differ between runs and be reproducible.
    let mut state = seed | 1;
    let mut next_delay = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        Duration::from_millis(200 + state % 1300)
    };
    let acknowledged: Arc<Mutex<Vec<String>>> = Arc::default();
    let kills = 6;
    for round in 0..=kills {
        let _ = std::fs::remove_file(&kc);
        let mut server = serve(&kc, &[]).await;
        wait_for_file(&kc).await;
        let client = client_for(&kc).await;
        let present = configmap_names(&client).await;
        let lost: Vec<String> = acknowledged
            .lock()
            .unwrap()
            .iter()
            .filter(|n| !present.contains(*n))
            .cloned()
            .collect();
        assert!(
            lost.is_empty(),
            "seed {seed}, after kill {round}: {} acknowledged creates lost: {lost:?}",
            lost.len()
        );
        if round == kills {
            server.kill().await.unwrap();
            break;
        }
        let writers: Vec<_> = (0..4)
            .map(|w| {
                let api: kube::Api<k8s_openapi::api::core::v1::ConfigMap> =
                    kube::Api::namespaced(client.clone(), "default");
                let acknowledged = acknowledged.clone();
                tokio::spawn(async move {
                    for i in 0.. {
                        let name = format!("r{round}-w{w}-{i}");
                        let cm = k8s_openapi::api::core::v1::ConfigMap {
                            metadata: kube::api::ObjectMeta {
                                name: Some(name.clone()),
                                ..Default::default()
                            },
                            data: Some([("n".to_string(), i.to_string())].into()),
                            ..Default::default()
                        };
                        let answered = tokio::time::timeout(
                            Duration::from_secs(5),
                            api.create(&Default::default(), &cm),
                        )
                        .await;
                        match answered {
                            Ok(Ok(_)) => acknowledged.lock().unwrap().push(name),
                            _ => return,
                        }
                    }
                })
            })
            .collect();
        tokio::time::sleep(next_delay()).await;
        server.kill().await.unwrap(); // SIGKILL, among the writes
        for w in writers {
            w.await.unwrap();
        }
    }
    let written = acknowledged.lock().unwrap().len();
    assert!(
        written > 50,
        "the writers wrote: {written} creates answered"
    );
    println!(
        "fault suite: {kills} kills -9 among 4 writers, {written} creates acknowledged, 0 lost (seed {seed})"
    );
}
