//! What the tutor's integration tests share: an embedded lab cluster started in-process and
//! driven with the real kubectl from `.tools/bin` (installed by `scripts/install-tools`) and
//! kube-rs, `capa-tui sim serve` as an independent reader, and the git and Argo CD steps of the
//! lab, and the terminal (`tmux`) and picture (`svg`) drivers of the tutor's own tests. The lab,
//! git and Argo CD helpers are the embedded cluster's own (`sim/tests/common`), included here.
// Every test binary compiles all of this and uses the part it needs.
#![allow(dead_code, unused_imports)]

// The cluster, git and Argo CD helpers are the embedded cluster's own harness: one for both.
#[path = "../../sim/tests/common/argocd.rs"]
pub mod argocd;
pub mod english;
#[path = "../../sim/tests/common/git.rs"]
pub mod git;
#[path = "../../sim/tests/common/lab.rs"]
mod lab;
pub mod lab_cli;
pub mod scenes;
pub mod svg;
pub mod tmux;

pub use argocd::{app_yaml, apply_app, cm, lab_with_repo, synced_healthy, wait_app};
pub use git::{commit_and_push, git, src_repo, write};
pub use lab::*;

use std::path::{Path, PathBuf};
use std::process::Output;

use capa_sim as sim;
use serde_json::Value;

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
