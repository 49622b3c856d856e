//! Our own survey, kept as tests (issue 24, part 5): kubectl 1.35's whole command tree, and
//! the read, write and watch surface of the real client libraries (Python `kubernetes`,
//! `lightkube`, `kr8s`; `@kubernetes/client-node`), against an embedded cluster with an Argo CD
//! app synced in it. Every kubectl command is classified here: run against the cluster and
//! expected to work, run and expected to fail as `docs/sim-fidelity.md` says, or local only; a
//! kubectl that grows a command fails the test until it is classified. The libraries come
//! from `scripts/install-clients` (pinned, into `.tools`).

use std::path::PathBuf;

use serde_json::Value;

use crate::common::{
    Lab, WEB, apply_app, cm, commit_and_push, lab_with_repo, synced_healthy, wait_app, wait_json,
    write,
};

/// kubectl's top-level commands and what a survey does with each.
enum Use {
    /// Run with these arguments; it must succeed.
    Works(&'static [&'static str]),
    /// Run with these arguments; it fails as documented, saying this.
    Documented(&'static [&'static str], &'static str),
    /// Acts on local files or kubeconfig only, or streams to a Pod (covered by `--help` alone).
    Local,
}

fn classify(command: &str) -> Option<Use> {
    use Use::*;
    Some(match command {
        "create" => Works(&["create", "cm", "survey-create", "--from-literal=a=1"]),
        "expose" => Works(&[
            "expose",
            "deploy",
            "web",
            "--port",
            "8080",
            "--name",
            "web-survey",
            "-n",
            "survey",
        ]),
        "run" => Works(&[
            "run",
            "survey-run",
            "--image",
            "busybox:1.36",
            "--restart=Never",
            "--",
            "true",
        ]),
        "set" => Works(&[
            "set",
            "image",
            "deploy/web",
            "web=nginx:1.28-alpine",
            "-n",
            "survey",
        ]),
        "explain" => Works(&["explain", "deployment.spec.replicas"]),
        "get" => Works(&["get", "all", "-A"]),
        "edit" => Local,
        "delete" => Works(&["delete", "cm", "survey-create"]),
        "rollout" => Works(&["rollout", "history", "deploy/web", "-n", "survey"]),
        "scale" => Works(&["scale", "deploy/web", "--replicas", "3", "-n", "survey"]),
        "autoscale" => Works(&[
            "autoscale",
            "deploy/web",
            "--min",
            "2",
            "--max",
            "5",
            "-n",
            "survey",
        ]),
        // CertificateSigningRequests are served; there is just none of that name.
        "certificate" => Documented(
            &["certificate", "approve", "nope"],
            "certificatesigningrequests.certificates.k8s.io \"nope\" not found",
        ),
        "cluster-info" => Works(&["cluster-info"]),
        "top" => Works(&["top", "pods", "-n", "argocd"]),
        "cordon" | "uncordon" => Works(&["uncordon", "capa-lab"]),
        "drain" | "taint" => Local,
        "describe" => Works(&["describe", "app", "survey", "-n", "argocd"]),
        "logs" => Works(&["logs", "argocd-application-controller-0", "-n", "argocd"]),
        "attach" | "exec" | "port-forward" | "cp" | "debug" => Documented(
            &[
                "exec",
                "-n",
                "argocd",
                "argocd-application-controller-0",
                "--",
                "true",
            ],
            "the server could not find the requested resource",
        ),
        "proxy" => Local,
        "auth" => Works(&["auth", "can-i", "get", "pods"]),
        "events" => Works(&["events", "-n", "argocd"]),
        "diff" => Local,
        "apply" => Works(&[
            "apply",
            "--server-side",
            "--field-manager",
            "survey",
            "-f",
            "-",
        ]),
        "patch" => Works(&[
            "patch",
            "cm",
            "argocd-cm",
            "-n",
            "argocd",
            "--type",
            "merge",
            "-p",
            "{\"metadata\":{\"labels\":{\"surveyed\":\"yes\"}}}",
        ]),
        "replace" | "wait" | "kustomize" => Local,
        "label" => Works(&["label", "ns", "survey", "surveyed=yes"]),
        "annotate" => Works(&["annotate", "ns", "survey", "surveyed=yes"]),
        "completion" | "alpha" | "config" | "plugin" => Local,
        "api-resources" => Works(&["api-resources"]),
        "api-versions" => Works(&["api-versions"]),
        "version" => Works(&["version"]),
        _ => return None,
    })
}

async fn surveyed_lab() -> Lab {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/web.yaml",
        &WEB.replace("  namespace: default\n", ""),
    );
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "web").await;
    apply_app(&lab, "survey", "app", "", "").await;
    wait_app(&lab, "survey", "Synced and Healthy", synced_healthy).await;
    wait_json(&lab, &["-n", "argocd", "get", "pods"], |l| {
        l["items"]
            .as_array()
            .is_some_and(|i| i.len() == 7 && i.iter().all(|p| p["status"]["phase"] == "Running"))
    })
    .await;
    lab
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kubectl_command_is_classified_and_behaves_as_documented() {
    let lab = surveyed_lab().await;
    let help = lab.kubectl(&["--help"]).await;
    let commands: Vec<&str> = help
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-'))
        // The usage line (`kubectl [flags] [options]`) is no command.
        .filter(|c| *c != "kubectl")
        .collect();
    assert!(commands.len() > 40, "{help}");
    for command in &commands {
        let Some(use_) = classify(command) else {
            panic!("kubectl {command} is not classified in the survey: add it to classify()");
        };
        let help = lab.kubectl_output(&[command, "--help"]).await;
        assert!(help.status.success(), "kubectl {command} --help");
        match use_ {
            Use::Works(args) if args.contains(&"-") => {
                let file = lab.file("survey-apply.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: survey-apply, namespace: default}\ndata: {a: '1'}\n");
                let mut all: Vec<&str> = args.iter().copied().filter(|a| *a != "-").collect();
                let path = file.to_string_lossy().to_string();
                all.push(&path);
                lab.kubectl(&all).await;
            }
            Use::Works(args) => {
                lab.kubectl(args).await;
            }
            Use::Documented(args, says) => {
                let out = lab.kubectl_output(args).await;
                let text = format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                assert!(
                    !out.status.success() && text.contains(says),
                    "kubectl {args:?} (documented to fail): {text}"
                );
            }
            Use::Local => {}
        }
    }
}

fn tool(rel: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(".tools")
        .join(rel);
    assert!(
        root.exists(),
        "{} missing: run scripts/install-clients (scripts/test runs it)",
        root.display()
    );
    root
}

async fn run_script(
    lab: &Lab,
    program: PathBuf,
    script: &str,
    node_path: Option<PathBuf>,
) -> Value {
    let mut cmd = tokio::process::Command::new(program);
    cmd.arg(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/cluster/survey")
            .join(script),
    )
    .env("KUBECONFIG", lab.kubeconfig())
    .kill_on_drop(true);
    if let Some(p) = node_path {
        cmd.env("NODE_PATH", p);
    }
    let out = cmd.output().await.expect("the client script runs");
    assert!(
        out.status.success(),
        "{script}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{script}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_and_node_clients_read_write_and_watch_the_cluster() {
    let lab = surveyed_lab().await;
    let py = run_script(&lab, tool("py/bin/python"), "clients.py", None).await;
    assert_eq!(py["argocd_cm_keys"], 9);
    assert_eq!(py["patched"], "2");
    assert!(
        py["watch_types"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "ADDED"),
        "{py}"
    );
    assert_eq!(py["apps"], serde_json::json!([["survey", "Synced"]]));
    assert_eq!(py["not_found"], serde_json::json!([404, "NotFound"]));
    assert!(py["version"].as_str().unwrap().ends_with("+k3s1"));
    assert!(
        py["argocd_pods"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p == "argocd-application-controller-0"),
        "{py}"
    );
    assert_eq!(py["lightkube_pods"], 7);
    assert_eq!(py["lightkube_services"], serde_json::json!(["gitd"]));
    assert_eq!(
        py["kr8s_sts"],
        serde_json::json!(["argocd-application-controller"])
    );
    assert_eq!(py["kr8s_apps"], serde_json::json!(["survey"]));
    let node = run_script(
        &lab,
        PathBuf::from("node"),
        "client-node.js",
        Some(tool("node/node_modules")),
    )
    .await;
    assert_eq!(node["argocd_pods"], 7);
    assert_eq!(node["argocd_cm_keys"], 9);
    assert_eq!(node["patched"], "2");
    assert!(
        node["watch_types"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "ADDED"),
        "{node}"
    );
    assert_eq!(node["apps"], serde_json::json!([["survey", "Synced"]]));
    assert_eq!(
        node["statefulsets"],
        serde_json::json!(["argocd-application-controller"])
    );
    assert_eq!(node["not_found"], 404);
}
