//! Running `capa-tui` on an embedded lab as a learner would: the real kubectl and helm on PATH,
//! in English, the cluster sped up ten times.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `.tools/bin` (the real kubectl and helm) first on PATH.
pub fn tools_path() -> String {
    let kubectl = capa_sim::tools::find("kubectl")
        .expect("kubectl not found: run scripts/install-tools (it installs kubectl and helm)");
    format!(
        "{}:{}",
        kubectl.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// `capa-tui ARGS --sim --speed 10 --state-dir STATE`, in English, kubectl on PATH.
pub fn capa(state: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(args)
        .args(["--sim", "--speed", "10", "--state-dir"])
        .arg(state)
        .env("PATH", tools_path())
        .env("LANG", "en_US.UTF-8")
        .env_remove("CAPA_LANG")
        .stdin(Stdio::null())
        .output()
        .expect("capa-tui runs")
}

/// kubectl on the lab's cluster (its kubeconfig in the state dir).
pub fn kubectl(state: &Path, args: &[&str]) -> Output {
    Command::new(capa_sim::tools::find("kubectl").unwrap())
        .args(args)
        .env("KUBECONFIG", state.join("kubeconfig"))
        .env("KUBECACHEDIR", state.join("kube-cache"))
        .output()
        .expect("kubectl runs")
}

/// The tutor's command line on `state`, for a tmux session.
pub fn tutor_command(state: &Path, lang: &str) -> String {
    format!(
        "env LANG={lang} PATH={} {} --sim --speed 10 --state-dir {}",
        tools_path(),
        env!("CARGO_BIN_EXE_capa-tui"),
        state.display()
    )
}

pub fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
