//! What the tutor's integration tests share: an embedded lab cluster started in-process and
//! driven with the real kubectl from `.tools/bin` (installed by `scripts/install-tools`) and
//! kube-rs, `capa-tui sim serve` as an independent reader, and the git and Argo CD steps of the
//! lab, and the terminal (`tmux`) and picture (`svg`) drivers of the tutor's own tests. The
//! embedded cluster's own tests keep their harness in `sim/tests/common`.
// Every test binary compiles all of this and uses the part it needs.
#![allow(dead_code, unused_imports)]

pub mod argocd;
pub mod english;
pub mod git;
pub mod lab_cli;
pub mod scenes;
pub mod svg;
pub mod tmux;

pub use argocd::{app_yaml, apply_app, cm, lab_with_repo, synced_healthy, wait_app};
pub use git::{commit_and_push, git, src_repo, write};

use std::path::{Path, PathBuf};
use std::process::Output;

use capa_sim as sim;
use serde_json::Value;

pub struct Lab {
    pub handle: sim::Handle,
    pub dir: tempfile::TempDir,
    pub speed: f64,
}

/// The real kubectl. A missing one fails the test with what to do, never skips it.
pub fn kubectl_path() -> PathBuf {
    sim::tools::find("kubectl").unwrap_or_else(|| {
        panic!("kubectl not found: run scripts/install-tools (it installs kubectl and helm into .tools/bin)")
    })
}

impl Lab {
    pub async fn start() -> Lab {
        Lab::start_with(sim::Config {
            speed: 10.0,
            ..sim::Config::default()
        })
        .await
    }

    pub async fn start_with(config: sim::Config) -> Lab {
        let dir = tempfile::tempdir().expect("temp dir");
        let speed = config.speed;
        let handle = sim::start(config).await.expect("embedded cluster starts");
        handle
            .write_kubeconfig(&dir.path().join("kubeconfig"))
            .expect("kubeconfig written");
        Lab { handle, dir, speed }
    }

    pub fn kubeconfig(&self) -> PathBuf {
        self.dir.path().join("kubeconfig")
    }

    /// Writes a file into the test's directory and returns its path.
    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::write(&p, text).expect("write test file");
        p
    }

    /// Runs kubectl with this cluster's kubeconfig and a private discovery cache.
    pub async fn kubectl_output(&self, args: &[&str]) -> Output {
        tokio::process::Command::new(kubectl_path())
            .args(args)
            .env("KUBECONFIG", self.kubeconfig())
            .env("KUBECACHEDIR", self.dir.path().join("cache"))
            .env_remove("KUBECTL_EXTERNAL_DIFF")
            .kill_on_drop(true)
            .output()
            .await
            .expect("kubectl runs")
    }

    /// kubectl that must succeed; returns stdout.
    pub async fn kubectl(&self, args: &[&str]) -> String {
        let out = self.kubectl_output(args).await;
        assert!(
            out.status.success(),
            "kubectl {} failed ({}):\nstdout: {}\nstderr: {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub async fn kubectl_json(&self, args: &[&str]) -> serde_json::Value {
        let mut all = args.to_vec();
        all.extend(["-o", "json"]);
        serde_json::from_str(&self.kubectl(&all).await).expect("kubectl printed JSON")
    }

    /// How long `cluster` seconds take in real time on this cluster's clock.
    pub fn handle_real(&self, cluster: std::time::Duration) -> std::time::Duration {
        cluster.div_f64(self.speed)
    }

    pub async fn client(&self) -> kube::Client {
        client_for(&self.kubeconfig()).await
    }
}

/// Serves the state dir with `sim serve` and reads the cluster with kubectl, independently of
/// the commands under test.
pub struct Independent {
    /// Kept so the server runs as long as this value lives (killed on drop).
    _server: tokio::process::Child,
    pub kubeconfig: PathBuf,
    cache: PathBuf,
}

impl Independent {
    pub async fn start(state: &Path, dir: &Path) -> Independent {
        let kubeconfig = dir.join("independent.kubeconfig");
        let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
            .args(["sim", "serve", "--speed", "10", "--state-dir"])
            .arg(state)
            .arg("--kubeconfig-out")
            .arg(&kubeconfig)
            .stdout(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        for _ in 0..200 {
            if kubeconfig.exists() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        Independent {
            _server: child,
            kubeconfig,
            cache: dir.join("independent-cache"),
        }
    }

    /// kubectl against this server that must succeed; returns stdout.
    pub async fn kubectl(&self, args: &[&str]) -> Vec<u8> {
        let out = tokio::process::Command::new(kubectl_path())
            .args(args)
            .env("KUBECONFIG", &self.kubeconfig)
            .env("KUBECACHEDIR", &self.cache)
            .output()
            .await
            .unwrap();
        assert!(
            out.status.success(),
            "kubectl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    pub async fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.extend(["-o", "json"]);
        serde_json::from_slice(&self.kubectl(&all).await).unwrap()
    }
}

pub async fn client_for(kubeconfig: &Path) -> kube::Client {
    let text = std::fs::read_to_string(kubeconfig).expect("read kubeconfig");
    let kc = kube::config::Kubeconfig::from_yaml(&text).expect("parse kubeconfig");
    let config =
        kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default())
            .await
            .expect("kube config");
    kube::Client::try_from(config).expect("kube client")
}

/// (manager, operation, subresource) of each managedFields entry, optionally only those that
/// own `.spec.replicas`.
pub fn entries_where(obj: &Value, owns_replicas: bool) -> Vec<(String, String, String)> {
    obj["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !owns_replicas || m["fieldsV1"]["f:spec"]["f:replicas"].is_object())
        .map(|m| {
            (
                m["manager"].as_str().unwrap().to_string(),
                m["operation"].as_str().unwrap().to_string(),
                m["subresource"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}
