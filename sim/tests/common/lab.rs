//! A lab cluster started in-process for a test, driven with the real kubectl and kube-rs, and
//! the small readers its tests share (a kubeconfig's client, managedFields entries, JSON waits).
//! The tutor's tests include this file too (`tests/common/mod.rs`): one harness for both.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

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

    /// kubectl that must fail; returns stderr.
    pub async fn kubectl_fails(&self, args: &[&str]) -> String {
        let out = self.kubectl_output(args).await;
        assert!(
            !out.status.success(),
            "kubectl {} should have failed but printed:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
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

pub async fn client_for(kubeconfig: &Path) -> kube::Client {
    let text = std::fs::read_to_string(kubeconfig).expect("read kubeconfig");
    let kc = kube::config::Kubeconfig::from_yaml(&text).expect("parse kubeconfig");
    let config =
        kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default())
            .await
            .expect("kube config");
    kube::Client::try_from(config).expect("kube client")
}

pub const WEB: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels: {app: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27-alpine
        ports: [{containerPort: 80}]
        readinessProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 2, periodSeconds: 2}
"#;

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

/// Polls `kubectl args -o json` until `ok` holds for it (or fails after ~60 s of real time).
pub async fn wait_json(
    lab: &Lab,
    args: &[&str],
    ok: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let mut last = serde_json::Value::Null;
    for _ in 0..300 {
        let out = lab.kubectl_output(&[args, &["-o", "json"]].concat()).await;
        if out.status.success() {
            last = serde_json::from_slice(&out.stdout).expect("kubectl printed JSON");
            if ok(&last) {
                return last;
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("kubectl {args:?} never got there; last seen:\n{last:#}");
}
