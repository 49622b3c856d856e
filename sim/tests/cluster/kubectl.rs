//! Real kubectl 1.35 against the embedded cluster: the verbs a learner uses in the lab.

use crate::common::{Lab, WEB};

mod real_server_rules;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_in_json_yaml_and_the_default_table() {
    let lab = Lab::start().await;
    let ns = lab.kubectl_json(&["get", "namespace", "default"]).await;
    assert_eq!(ns["status"]["phase"], "Active");
    let yaml = lab
        .kubectl(&["get", "ns", "kube-system", "-o", "yaml"])
        .await;
    assert!(yaml.contains("name: kube-system"), "{yaml}");
    let table = lab.kubectl(&["get", "namespaces"]).await;
    let header = table.lines().next().unwrap();
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["NAME", "STATUS", "AGE"]
    );
    let crds = lab.kubectl(&["get", "crd"]).await;
    assert!(crds.contains("applications.argoproj.io"), "{crds}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_twice_with_a_change_then_rollout_status_and_the_deployment_table() {
    let lab = Lab::start().await;
    let web = lab.file("web.yaml", WEB);
    let out = lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    assert_eq!(out.trim(), "deployment.apps/web created");
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    let changed = lab.file("web2.yaml", &WEB.replace("replicas: 2", "replicas: 3"));
    let out = lab
        .kubectl(&["apply", "-f", changed.to_str().unwrap()])
        .await;
    assert_eq!(out.trim(), "deployment.apps/web configured");
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    let table = lab.kubectl(&["get", "deploy", "web"]).await;
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(&row[..4], ["web", "3/3", "3", "3"], "{table}");
    let d = lab.kubectl_json(&["get", "deploy", "web"]).await;
    assert_eq!(d["metadata"]["generation"], 2);
    assert_eq!(d["status"]["observedGeneration"], 2);
    let conditions: Vec<(&str, &str)> = d["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["type"].as_str().unwrap(), c["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        conditions,
        [
            ("Available", "MinimumReplicasAvailable"),
            ("Progressing", "NewReplicaSetAvailable")
        ]
    );
    let unchanged = lab
        .kubectl(&["apply", "-f", changed.to_str().unwrap()])
        .await;
    assert_eq!(unchanged.trim(), "deployment.apps/web unchanged");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_side_apply_conflicts_until_forced() {
    let lab = Lab::start().await;
    let web = lab.file("web.yaml", WEB);
    lab.kubectl(&["apply", "--server-side", "-f", web.to_str().unwrap()])
        .await;
    lab.kubectl(&["scale", "deploy/web", "--replicas=5"]).await;
    let err = lab
        .kubectl_fails(&["apply", "--server-side", "-f", web.to_str().unwrap()])
        .await;
    assert!(err.contains("Apply failed with 1 conflict"), "{err}");
    assert!(err.contains(".spec.replicas"), "{err}");
    lab.kubectl(&[
        "apply",
        "--server-side",
        "--force-conflicts",
        "-f",
        web.to_str().unwrap(),
    ])
    .await;
    let d = lab.kubectl_json(&["get", "deploy", "web"]).await;
    assert_eq!(d["spec"]["replicas"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diff_shows_a_change_and_persists_nothing() {
    let lab = Lab::start().await;
    let web = lab.file("web.yaml", WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    let changed = lab.file("web2.yaml", &WEB.replace("replicas: 2", "replicas: 7"));
    let out = lab
        .kubectl_output(&["diff", "-f", changed.to_str().unwrap()])
        .await;
    assert_eq!(
        out.status.code(),
        Some(1),
        "kubectl diff exits 1 when there are differences"
    );
    let diff = String::from_utf8_lossy(&out.stdout);
    assert!(
        diff.contains("-  replicas: 2") && diff.contains("+  replicas: 7"),
        "{diff}"
    );
    let d = lab.kubectl_json(&["get", "deploy", "web"]).await;
    assert_eq!(d["spec"]["replicas"], 2, "a dry run must not be stored");
    assert_eq!(d["metadata"]["generation"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn annotate_label_and_the_three_patch_types() {
    let lab = Lab::start().await;
    lab.kubectl(&["apply", "-f", lab.file("web.yaml", WEB).to_str().unwrap()])
        .await;
    lab.kubectl(&["annotate", "deploy", "web", "note=hello", "--overwrite"])
        .await;
    lab.kubectl(&["label", "deploy", "web", "tier=front"]).await;
    lab.kubectl(&[
        "patch",
        "deploy",
        "web",
        "--type=json",
        "-p",
        r#"[{"op":"replace","path":"/spec/replicas","value":1}]"#,
    ])
    .await;
    lab.kubectl(&[
        "patch",
        "deploy",
        "web",
        "--type=merge",
        "-p",
        r#"{"metadata":{"labels":{"merged":"yes"}}}"#,
    ])
    .await;
    lab.kubectl(&["patch", "deploy", "web", "-p", r#"{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"MODE","value":"blue"}]}]}}}}"#]).await;
    let d = lab.kubectl_json(&["get", "deploy", "web"]).await;
    assert_eq!(d["metadata"]["annotations"]["note"], "hello");
    assert_eq!(d["metadata"]["labels"]["tier"], "front");
    assert_eq!(d["metadata"]["labels"]["merged"], "yes");
    assert_eq!(d["spec"]["replicas"], 1);
    let c = &d["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(
        (c["name"].as_str(), c["image"].as_str()),
        (Some("web"), Some("nginx:1.27-alpine")),
        "strategic merge keeps the container"
    );
    assert_eq!(c["env"][0]["value"], "blue");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scale_and_set_image_roll_out() {
    let lab = Lab::start().await;
    lab.kubectl(&["apply", "-f", lab.file("web.yaml", WEB).to_str().unwrap()])
        .await;
    lab.kubectl(&["scale", "deploy/web", "--replicas=4"]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    lab.kubectl(&["set", "image", "deploy/web", "web=nginx:1.28-alpine"])
        .await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    let pods = lab.kubectl_json(&["get", "pods", "-l", "app=web"]).await;
    let images: Vec<&str> = pods["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["spec"]["containers"][0]["image"].as_str().unwrap())
        .collect();
    assert_eq!(images, ["nginx:1.28-alpine"; 4]);
    let rs = lab.kubectl_json(&["get", "rs", "-l", "app=web"]).await;
    let mut replicas: Vec<i64> = rs["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["spec"]["replicas"].as_i64().unwrap())
        .collect();
    replicas.sort();
    assert_eq!(
        replicas,
        [0, 4],
        "the old ReplicaSet is scaled to zero and kept for history"
    );
}

const JOBS: &str = r#"apiVersion: v1
kind: Namespace
metadata: {name: lab}
---
apiVersion: batch/v1
kind: Job
metadata: {name: smoke, namespace: lab}
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: smoke, image: "busybox:1.36", command: ["sh", "-c", "echo smoke ok; sleep 1; echo done"]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: migrate, namespace: lab}
spec:
  backoffLimit: 1
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: migrate, image: "busybox:1.36", command: ["sh", "-c", "echo migrate failed; exit 1"]}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jobs_complete_or_fail_and_wait_and_logs_see_it() {
    let lab = Lab::start().await;
    lab.kubectl(&["apply", "-f", lab.file("jobs.yaml", JOBS).to_str().unwrap()])
        .await;
    lab.kubectl(&[
        "-n",
        "lab",
        "wait",
        "--for=condition=complete",
        "job/smoke",
        "--timeout=60s",
    ])
    .await;
    lab.kubectl(&[
        "-n",
        "lab",
        "wait",
        "--for=jsonpath={.status.succeeded}=1",
        "job/smoke",
        "--timeout=10s",
    ])
    .await;
    assert_eq!(
        lab.kubectl(&["-n", "lab", "logs", "job/smoke"]).await,
        "smoke ok\ndone\n"
    );
    lab.kubectl(&[
        "-n",
        "lab",
        "wait",
        "--for=condition=failed",
        "job/migrate",
        "--timeout=60s",
    ])
    .await;
    let job = lab
        .kubectl_json(&["-n", "lab", "get", "job", "migrate"])
        .await;
    assert_eq!(
        job["status"]["failed"], 2,
        "backoffLimit 1 allows one retry"
    );
    let failed = job["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Failed")
        .unwrap();
    assert_eq!(failed["reason"], "BackoffLimitExceeded");
    assert_eq!(
        failed["message"],
        "Job has reached the specified backoff limit"
    );
    let table = lab.kubectl(&["-n", "lab", "get", "jobs"]).await;
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("smoke") && l.contains("Complete") && l.contains("1/1")),
        "{table}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsupported_command_fails_the_pod_and_says_why() {
    let lab = Lab::start().await;
    let job = JOBS
        .split("---")
        .take(2)
        .collect::<Vec<_>>()
        .join("---")
        .replace("echo smoke ok; sleep 1; echo done", "curl http://example");
    lab.kubectl(&["apply", "-f", lab.file("job.yaml", &job).to_str().unwrap()])
        .await;
    lab.kubectl(&[
        "-n",
        "lab",
        "wait",
        "--for=condition=failed",
        "job/smoke",
        "--timeout=60s",
    ])
    .await;
    let log = lab.kubectl(&["-n", "lab", "logs", "job/smoke"]).await;
    assert!(
        log.contains("curl"),
        "the log names the unsupported command: {log}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_watch_prints_changes_as_they_happen() {
    let lab = Lab::start().await;
    let kubeconfig = lab.kubeconfig();
    let cache = lab.dir.path().join("cache-watch");
    let watch = tokio::process::Command::new(crate::common::kubectl_path())
        .args(["get", "configmaps", "-w", "--request-timeout=5s"])
        .env("KUBECONFIG", &kubeconfig)
        .env("KUBECACHEDIR", &cache)
        .kill_on_drop(true)
        .output();
    let writer = async {
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: greeting}\ndata: {greeting: hello}\n";
        lab.kubectl(&["apply", "-f", lab.file("cm.yaml", cm).to_str().unwrap()])
            .await;
        lab.kubectl(&["delete", "configmap", "greeting"]).await;
    };
    let (out, ()) = tokio::join!(watch, writer);
    let text = String::from_utf8_lossy(&out.expect("kubectl get -w ran").stdout).into_owned();
    assert!(
        text.lines().filter(|l| l.starts_with("greeting")).count() >= 2,
        "the watch printed the new and deleted ConfigMap:\n{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("NAME")).count(),
        1,
        "one header:\n{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_deployment_cascades_and_a_namespace_takes_its_content_along() {
    let lab = Lab::start().await;
    lab.kubectl(&["apply", "-f", lab.file("jobs.yaml", JOBS).to_str().unwrap()])
        .await;
    let web = WEB.replace("namespace: default", "namespace: lab");
    lab.kubectl(&["apply", "-f", lab.file("web.yaml", &web).to_str().unwrap()])
        .await;
    lab.kubectl(&[
        "-n",
        "lab",
        "rollout",
        "status",
        "deploy/web",
        "--timeout=60s",
    ])
    .await;
    lab.kubectl(&["-n", "lab", "delete", "deploy", "web", "--wait=true"])
        .await;
    lab.kubectl(&[
        "-n",
        "lab",
        "wait",
        "--for=delete",
        "pods",
        "-l",
        "app=web",
        "--timeout=30s",
    ])
    .await;
    let rs = lab.kubectl_json(&["-n", "lab", "get", "rs"]).await;
    assert_eq!(
        rs["items"].as_array().unwrap().len(),
        0,
        "the ReplicaSets went with the Deployment"
    );
    lab.kubectl(&["delete", "namespace", "lab", "--timeout=60s"])
        .await;
    let err = lab.kubectl_fails(&["get", "namespace", "lab"]).await;
    assert!(err.contains("not found"), "{err}");
    let pods = lab.kubectl_json(&["get", "pods", "-A"]).await;
    assert!(
        pods["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["metadata"]["namespace"] != "lab")
    );
}
