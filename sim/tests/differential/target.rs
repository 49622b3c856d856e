//! The two clusters a probe runs on: the embedded one, started in-process at speed 1 (so every
//! timing rule keeps its real length), and the real lab `scripts/real-lab up` brought up (found
//! through `CAPA_REAL_LAB_KUBECONFIG` and `CAPA_REAL_LAB_BARE_DIR`, which `scripts/test` sets).

use std::path::{Path, PathBuf};
use std::time::Duration;

use capa_sim as sim;

use crate::common::Lab;

/// What one script printed and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Answer {
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// The whole answer as one text, to mask and compare.
    pub fn text(&self) -> String {
        let code = self
            .code
            .map_or_else(|| "timed out".to_string(), |c| c.to_string());
        format!(
            "{}\n--- stderr\n{}\n--- exit {code}",
            self.stdout.trim_end(),
            self.stderr.trim_end()
        )
    }
}

pub struct Target {
    pub name: &'static str,
    kubeconfig: PathBuf,
    bare: PathBuf,
    work: tempfile::TempDir,
    /// Keeps the embedded cluster running as long as the target lives.
    _lab: Option<Lab>,
}

const GIT: &str = "git://gitd.gitsrv.svc.cluster.local:9418";

impl Target {
    pub async fn embedded() -> Target {
        let lab = Lab::start_with(sim::Config {
            speed: 1.0,
            ..sim::Config::default()
        })
        .await;
        Target {
            name: "embedded",
            kubeconfig: lab.kubeconfig(),
            bare: lab.handle.bare_dir().to_path_buf(),
            work: tempfile::tempdir().unwrap(),
            _lab: Some(lab),
        }
    }

    /// The real lab, or a failure that says how to bring it up (never a skip).
    pub fn real() -> Target {
        let var =
            |name: &str| {
                std::env::var_os(name).map(PathBuf::from).unwrap_or_else(|| {
                panic!(
                    "{name} is not set: the real lab is not up. Run scripts/real-lab up, then \
                     scripts/test (it sets CAPA_REAL_LAB_KUBECONFIG and CAPA_REAL_LAB_BARE_DIR \
                     and runs this suite)"
                )
            })
            };
        Target {
            name: "real",
            kubeconfig: var("CAPA_REAL_LAB_KUBECONFIG"),
            bare: var("CAPA_REAL_LAB_BARE_DIR"),
            work: tempfile::tempdir().unwrap(),
            _lab: None,
        }
    }

    /// Runs `script` (after the prelude) with bash in the group's own folder, as a learner's
    /// shell would on this cluster, for at most `timeout`.
    pub async fn run(&self, group_dir: &str, ns: &str, script: &str, timeout: Duration) -> Answer {
        let work = self.work.path().join(group_dir);
        std::fs::create_dir_all(work.join("home")).unwrap();
        let prelude = super::corpus::dir().join("prelude.sh");
        let tools = tools_dir();
        let path = format!(
            "{}:{}",
            tools.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let full = format!(". '{}'\ncd \"$WORK\"\n{script}", prelude.display());
        let child = tokio::process::Command::new("bash")
            .arg("-c")
            .arg(full)
            .current_dir(&work)
            .env("KUBECONFIG", &self.kubeconfig)
            .env("KUBECACHEDIR", self.work.path().join("kube-cache"))
            .env("HOME", work.join("home"))
            .env("PATH", path)
            .env("NS", ns)
            .env("BARE", &self.bare)
            .env("WORK", &work)
            .env("GIT", GIT)
            .env_remove("KUBECTL_EXTERNAL_DIFF")
            .kill_on_drop(true)
            .output();
        match tokio::time::timeout(timeout, child).await {
            Ok(Ok(out)) => Answer {
                code: out.status.code(),
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            },
            Ok(Err(e)) => panic!("bash cannot run: {e}"),
            Err(_) => Answer {
                code: None,
                stdout: String::new(),
                stderr: format!("(no answer within {} s)", timeout.as_secs()),
            },
        }
    }
}

/// The folder of the real kubectl and helm (`scripts/install-tools`).
fn tools_dir() -> PathBuf {
    crate::common::kubectl_path()
        .parent()
        .map(Path::to_path_buf)
        .unwrap()
}
