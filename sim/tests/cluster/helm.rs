//! Helm 4 against the embedded cluster: its release storage is Secrets written in protobuf,
//! and `--wait` watches what it installed. Install, upgrade, history, rollback, list and
//! uninstall, with the release Secrets as k3s shows them.

use std::path::Path;

use serde_json::Value;

use crate::common::Lab;

const CHART: &str = "apiVersion: v2\nname: web\nversion: 0.1.0\n";
const VALUES: &str = "replicaCount: 1\ngreeting: hello\n";
const CONFIGMAP: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-greeting
data:
  greeting: {{ .Values.greeting | quote }}
"#;
const DEPLOYMENT: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-web
spec:
  replicas: {{ .Values.replicaCount }}
  selector:
    matchLabels: {app: {{ .Release.Name }}-web}
  template:
    metadata:
      labels: {app: {{ .Release.Name }}-web}
    spec:
      containers:
        - name: web
          image: nginx:1.27-alpine
          ports: [{containerPort: 80}]
"#;
const SERVICE: &str = r#"apiVersion: v1
kind: Service
metadata:
  name: {{ .Release.Name }}-web
spec:
  selector: {app: {{ .Release.Name }}-web}
  ports: [{port: 80, targetPort: 80}]
"#;

fn write_chart(dir: &Path) -> String {
    let chart = dir.join("chart");
    std::fs::create_dir_all(chart.join("templates")).unwrap();
    std::fs::write(chart.join("Chart.yaml"), CHART).unwrap();
    std::fs::write(chart.join("values.yaml"), VALUES).unwrap();
    for (name, text) in [
        ("configmap.yaml", CONFIGMAP),
        ("deployment.yaml", DEPLOYMENT),
        ("service.yaml", SERVICE),
    ] {
        std::fs::write(chart.join("templates").join(name), text).unwrap();
    }
    chart.to_string_lossy().into_owned()
}

/// The real helm with this cluster's kubeconfig and private cache/config/data folders.
async fn helm(lab: &Lab, args: &[&str]) -> String {
    let helm = capa_sim::tools::find("helm").expect(
        "helm not found: run scripts/install-tools (it installs kubectl and helm into .tools/bin)",
    );
    let home = lab.dir.path().join("helm-home");
    let out = tokio::process::Command::new(helm)
        .args(args)
        .env("KUBECONFIG", lab.kubeconfig())
        .env("HELM_CACHE_HOME", home.join("cache"))
        .env("HELM_CONFIG_HOME", home.join("config"))
        .env("HELM_DATA_HOME", home.join("data"))
        .kill_on_drop(true)
        .output()
        .await
        .expect("helm runs");
    assert!(
        out.status.success(),
        "helm {} failed ({}):\nstdout: {}\nstderr: {}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

async fn release_secrets(lab: &Lab) -> Vec<Value> {
    let list = lab
        .kubectl_json(&[
            "get",
            "secrets",
            "-n",
            "demo",
            "-l",
            "owner=helm",
            "--sort-by=.metadata.name",
        ])
        .await;
    list["items"].as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn install_upgrade_history_rollback_list_and_uninstall() {
    let lab = Lab::start().await;
    let chart = write_chart(lab.dir.path());
    let out = helm(
        &lab,
        &[
            "install",
            "demo",
            &chart,
            "-n",
            "demo",
            "--create-namespace",
            "--wait",
            "--timeout=90s",
        ],
    )
    .await;
    assert!(out.contains("STATUS: deployed"), "{out}");
    let d = lab
        .kubectl_json(&["get", "deploy", "demo-web", "-n", "demo"])
        .await;
    assert_eq!(d["status"]["readyReplicas"], 1);

    // The release Secret, as on k3s.
    let secrets = release_secrets(&lab).await;
    assert_eq!(secrets.len(), 1);
    let s = &secrets[0];
    assert_eq!(s["metadata"]["name"], "sh.helm.release.v1.demo.v1");
    assert_eq!(s["type"], "helm.sh/release.v1");
    let labels = &s["metadata"]["labels"];
    assert_eq!(
        (
            labels["name"].as_str(),
            labels["owner"].as_str(),
            labels["status"].as_str(),
            labels["version"].as_str()
        ),
        (Some("demo"), Some("helm"), Some("deployed"), Some("1"))
    );
    assert!(
        s["data"]["release"].as_str().is_some_and(|r| r.len() > 100),
        "{s}"
    );

    let out = helm(
        &lab,
        &[
            "upgrade",
            "demo",
            &chart,
            "-n",
            "demo",
            "--set",
            "replicaCount=2,greeting=hi",
            "--wait",
            "--timeout=90s",
        ],
    )
    .await;
    assert!(out.contains("REVISION: 2"), "{out}");
    let d = lab
        .kubectl_json(&["get", "deploy", "demo-web", "-n", "demo"])
        .await;
    assert_eq!(
        (
            d["spec"]["replicas"].as_i64(),
            d["status"]["readyReplicas"].as_i64()
        ),
        (Some(2), Some(2))
    );
    let cm = lab
        .kubectl_json(&["get", "cm", "demo-greeting", "-n", "demo"])
        .await;
    assert_eq!(cm["data"]["greeting"], "hi");

    let history = helm(&lab, &["history", "demo", "-n", "demo"]).await;
    let statuses: Vec<&str> = history
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(2))
        .map(str::trim)
        .collect();
    assert_eq!(statuses, ["superseded", "deployed"], "{history}");

    let out = helm(
        &lab,
        &[
            "rollback",
            "demo",
            "1",
            "-n",
            "demo",
            "--wait",
            "--timeout=90s",
        ],
    )
    .await;
    assert!(out.contains("Rollback was a success"), "{out}");
    let cm = lab
        .kubectl_json(&["get", "cm", "demo-greeting", "-n", "demo"])
        .await;
    assert_eq!(cm["data"]["greeting"], "hello");
    let versions: Vec<String> = release_secrets(&lab)
        .await
        .iter()
        .map(|s| {
            format!(
                "{}={}",
                s["metadata"]["labels"]["version"].as_str().unwrap(),
                s["metadata"]["labels"]["status"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(versions, ["1=superseded", "2=superseded", "3=deployed"]);

    let list = helm(&lab, &["list", "-n", "demo"]).await;
    let row: Vec<&str> = list
        .lines()
        .nth(1)
        .unwrap()
        .split('\t')
        .map(str::trim)
        .collect();
    assert_eq!(
        (row[0], row[2], row[4]),
        ("demo", "3", "deployed"),
        "{list}"
    );

    let out = helm(
        &lab,
        &["uninstall", "demo", "-n", "demo", "--wait", "--timeout=90s"],
    )
    .await;
    assert!(out.contains("release \"demo\" uninstalled"), "{out}");
    assert!(release_secrets(&lab).await.is_empty());
    let left = lab
        .kubectl(&["get", "deploy,svc,cm", "-n", "demo", "-o", "name"])
        .await;
    assert_eq!(left.trim(), "configmap/kube-root-ca.crt");
}
