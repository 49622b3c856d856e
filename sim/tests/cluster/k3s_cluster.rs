//! More of the Kubernetes around the lab with the real kubectl 1.35: Services and their
//! endpoints, the Metrics API, what the server stores, and the workload kinds
//! `kubectl cluster-info dump` reads.

use std::time::Duration;

use crate::common::Lab;
use crate::common::wait_json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn services_get_cluster_ips_and_endpoints_kept_by_their_controllers() {
    let lab = Lab::start().await;
    // The API server's own Service, as on every cluster.
    let table = lab.kubectl(&["get", "svc", "kubernetes"]).await;
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(
        &row[..5],
        ["kubernetes", "ClusterIP", "10.43.0.1", "<none>", "443/TCP"],
        "{table}"
    );
    let ep = lab
        .kubectl_output(&["get", "endpoints", "kubernetes"])
        .await;
    let (out, err) = (
        String::from_utf8_lossy(&ep.stdout),
        String::from_utf8_lossy(&ep.stderr),
    );
    assert!(out.contains("10.0.2.15:6443"), "{out}");
    assert!(
        err.contains(
            "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"
        ),
        "{err}"
    );

    let web = lab.file("web.yaml", crate::common::WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    // kubectl expose sends the Service in protobuf.
    lab.kubectl(&["expose", "deploy/web", "--port=8080", "--target-port=80"])
        .await;
    let svc = lab
        .kubectl_json(&["get", "svc", "web", "--show-managed-fields"])
        .await;
    let ip = svc["spec"]["clusterIP"].as_str().unwrap();
    assert!(ip.starts_with("10.43.") && ip != "10.43.0.1", "{svc:#}");
    assert_eq!(svc["spec"]["clusterIPs"][0], ip);
    // The allocation is the server's: no field manager owns it.
    let owned = serde_json::to_string(&svc["metadata"]["managedFields"]).unwrap();
    assert!(owned.contains("f:selector"), "{owned}");
    assert!(!owned.contains("f:clusterIP\""), "{owned}");

    let ep = wait_json(&lab, &["get", "endpoints", "web"], |e| {
        e["subsets"][0]["addresses"]
            .as_array()
            .is_some_and(|a| a.len() == 2)
    })
    .await;
    assert_eq!(ep["subsets"][0]["ports"][0]["port"], 80);
    assert_eq!(ep["subsets"][0]["addresses"][0]["targetRef"]["kind"], "Pod");
    let slices = lab
        .kubectl(&[
            "get",
            "endpointslices",
            "-l",
            "kubernetes.io/service-name=web",
        ])
        .await;
    let row: Vec<&str> = slices.lines().nth(1).unwrap().split_whitespace().collect();
    assert!(row[0].starts_with("web-"), "{slices}");
    assert_eq!(&row[1..3], ["IPv4", "80"], "{slices}");
    assert_eq!(row[3].split(',').count(), 2, "{slices}");
    let described = lab.kubectl(&["describe", "svc", "web"]).await;
    assert!(
        described.contains(&format!("IP:                       {ip}")),
        "{described}"
    );
    assert!(
        described.contains("Endpoints:                10.42.0."),
        "{described}"
    );

    // Scaled down, the endpoints follow; an apply without the address keeps it.
    lab.kubectl(&["scale", "deploy/web", "--replicas=1"]).await;
    wait_json(&lab, &["get", "endpoints", "web"], |e| {
        e["subsets"][0]["addresses"]
            .as_array()
            .is_some_and(|a| a.len() == 1)
    })
    .await;
    let svc_yaml = "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 8080, targetPort: 80}]\n";
    let file = lab.file("svc.yaml", svc_yaml);
    lab.kubectl(&["apply", "-f", file.to_str().unwrap()]).await;
    let again = lab.kubectl_json(&["get", "svc", "web"]).await;
    assert_eq!(again["spec"]["clusterIP"], ip);
    lab.kubectl(&["delete", "svc", "web"]).await;
    wait_json(&lab, &["get", "endpointslices"], |l| {
        l["items"].as_array().is_some_and(|i| i.len() == 1)
    })
    .await;
    lab.kubectl_fails(&["get", "endpoints", "web"]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_top_reads_the_metrics_api_as_metrics_server_serves_it() {
    let lab = Lab::start().await;
    let web = lab.file("web.yaml", crate::common::WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    let nodes = lab.kubectl(&["top", "node"]).await;
    let header: Vec<&str> = nodes.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(header[0], "NAME", "{nodes}");
    assert!(
        nodes.lines().nth(1).unwrap().starts_with("capa-lab "),
        "{nodes}"
    );
    // Pods have metrics once a scrape (15 s of cluster time) has seen them running.
    let mut pods = String::new();
    for _ in 0..100 {
        let out = lab.kubectl_output(&["top", "pod", "-l", "app=web"]).await;
        pods = String::from_utf8_lossy(&out.stdout).into_owned();
        if out.status.success() && pods.lines().count() == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let rows: Vec<Vec<&str>> = pods
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0], ["NAME", "CPU(cores)", "MEMORY(bytes)"], "{pods}");
    assert_eq!(rows.len(), 3, "{pods}");
    for row in &rows[1..] {
        assert!(row[1].ends_with('m') && row[2].ends_with("Mi"), "{pods}");
    }
    // Stable: the same figures on the next read.
    let again = lab
        .kubectl(&["top", "pod", "-l", "app=web", "--containers"])
        .await;
    assert!(again.contains(" web "), "{again}");
    let raw = lab
        .kubectl(&[
            "get",
            "--raw",
            "/apis/metrics.k8s.io/v1beta1/nodes/capa-lab",
        ])
        .await;
    let node: serde_json::Value = serde_json::from_str(&raw).unwrap();
    assert_eq!(node["kind"], "NodeMetrics");
    assert_eq!(node["window"], "15s");
    let refused = lab
        .kubectl_fails(&[
            "delete",
            "--raw",
            "/apis/metrics.k8s.io/v1beta1/nodes/capa-lab",
        ])
        .await;
    assert!(
        refused.contains("MethodNotAllowed") || refused.contains("not supported"),
        "{refused}"
    );
}

/// Where `v` holds a JSON `null`, as `a.b[].c` paths.
fn null_paths(v: &serde_json::Value, at: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Null => out.push(at.to_string()),
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                null_paths(x, &format!("{at}.{k}"), out);
            }
        }
        serde_json::Value::Array(items) => {
            for x in items {
                null_paths(x, &format!("{at}[]"), out);
            }
        }
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_objects_have_no_null_lists_the_real_server_would_leave_out() {
    let lab = Lab::start().await;
    // Protobuf bodies (create, run, expose) and a JSON apply.
    lab.kubectl(&["create", "deployment", "gen", "--image=nginx:1.27-alpine"])
        .await;
    lab.kubectl(&["run", "solo", "--image=busybox:1.36", "--", "sleep", "3600"])
        .await;
    lab.kubectl(&["expose", "deploy/gen", "--port=80"]).await;
    let web = lab.file("web.yaml", crate::common::WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    lab.kubectl(&["rollout", "status", "deploy/gen", "--timeout=60s"])
        .await;
    wait_json(&lab, &["get", "pod", "solo"], |p| {
        p["status"]["phase"] == "Running"
    })
    .await;
    // What admission adds to a Pod, owned by no field manager; defaulting's enableServiceLinks
    // is the creator's, as on a real server.
    let solo = lab
        .kubectl_json(&["get", "pod", "solo", "--show-managed-fields"])
        .await;
    let spec = &solo["spec"];
    assert_eq!(spec["enableServiceLinks"], true);
    assert_eq!(
        (
            spec["serviceAccountName"].as_str(),
            spec["priority"].as_i64()
        ),
        (Some("default"), Some(0))
    );
    assert_eq!(spec["preemptionPolicy"], "PreemptLowerPriority");
    let token = spec["volumes"][0]["name"].as_str().unwrap();
    assert!(token.starts_with("kube-api-access-"), "{spec:#}");
    assert_eq!(
        spec["containers"][0]["volumeMounts"][0]["mountPath"],
        "/var/run/secrets/kubernetes.io/serviceaccount"
    );
    assert_eq!(spec["tolerations"][0]["tolerationSeconds"], 300);
    let owned = serde_json::to_string(&solo["metadata"]["managedFields"]).unwrap();
    assert!(owned.contains("f:enableServiceLinks"), "{owned}");
    assert!(
        !owned.contains("f:tolerations") && !owned.contains("f:volumes"),
        "{owned}"
    );
    for kind in [
        "deploy",
        "rs",
        "pods",
        "svc",
        "endpoints",
        "endpointslices",
        "nodes",
    ] {
        let list = lab.kubectl_json(&["get", kind]).await;
        for item in list["items"].as_array().unwrap() {
            let mut nulls = Vec::new();
            null_paths(item, "", &mut nulls);
            // Go writes a zero metav1.Time that has no omitempty as null; nothing else here.
            nulls.retain(|p| p != ".status.conditions[].lastProbeTime");
            assert!(
                nulls.is_empty(),
                "{kind} {} has nulls at {nulls:?}",
                item["metadata"]["name"]
            );
        }
    }
}

const AGENT: &str = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: agent, image: \"busybox:1.36\", command: [sh, -c, \"echo watching; sleep 3600\"]}]\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn daemon_sets_and_replication_controllers_run_and_cluster_info_dump_reads_everything() {
    let lab = Lab::start().await;
    let file = lab.file("agent.yaml", AGENT);
    lab.kubectl(&["apply", "-f", file.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "ds/agent", "--timeout=60s"])
        .await;
    let table = lab.kubectl(&["get", "ds", "agent"]).await;
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(
        &row[..7],
        ["agent", "1", "1", "1", "1", "1", "<none>"],
        "{table}"
    );
    let pods = lab.kubectl_json(&["get", "pods", "-l", "app=agent"]).await;
    let pod = &pods["items"][0];
    assert_eq!(pod["spec"]["nodeName"], "capa-lab");
    assert!(
        pod["metadata"]["labels"]["controller-revision-hash"].is_string(),
        "{pod:#}"
    );
    assert_eq!(lab.kubectl(&["logs", "ds/agent"]).await, "watching\n");
    // A new template replaces the Pod.
    let old = pod["metadata"]["name"].as_str().unwrap().to_string();
    lab.kubectl(&["set", "image", "ds/agent", "agent=busybox:1.37"])
        .await;
    lab.kubectl(&["rollout", "status", "ds/agent", "--timeout=60s"])
        .await;
    let pods = wait_json(&lab, &["get", "pods", "-l", "app=agent"], |l| {
        l["items"]
            .as_array()
            .is_some_and(|i| i.len() == 1 && i[0]["metadata"]["name"] != old.as_str())
    })
    .await;
    assert_eq!(
        pods["items"][0]["spec"]["containers"][0]["image"],
        "busybox:1.37"
    );

    let rc = "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: legacy}\nspec:\n  replicas: 2\n  template:\n    metadata: {labels: {app: legacy}}\n    spec:\n      containers: [{name: web, image: \"nginx:1.27-alpine\"}]\n";
    let file = lab.file("rc.yaml", rc);
    lab.kubectl(&["apply", "-f", file.to_str().unwrap()]).await;
    let rc = wait_json(&lab, &["get", "rc", "legacy"], |r| {
        r["status"]["readyReplicas"] == 2
    })
    .await;
    assert_eq!(rc["spec"]["selector"]["app"], "legacy");
    lab.kubectl(&["scale", "rc/legacy", "--replicas=1"]).await;
    wait_json(&lab, &["get", "rc", "legacy"], |r| {
        r["status"]["replicas"] == 1
    })
    .await;

    let dump = lab
        .kubectl(&["cluster-info", "dump", "--namespaces", "default"])
        .await;
    for want in [
        "\"kind\": \"NodeList\"",
        "\"kind\": \"ReplicationControllerList\"",
        "\"kind\": \"DaemonSetList\"",
        "\"name\": \"capa-lab\"",
        "==== START logs for container agent of pod default/agent-",
        "watching",
    ] {
        assert!(dump.contains(want), "missing {want:?} in the dump");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_get_cs_shows_the_control_plane_healthy_with_the_deprecation_warning() {
    let lab = Lab::start().await;
    let out = lab.kubectl_output(&["get", "componentstatuses"]).await;
    assert!(out.status.success(), "{out:?}");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(
        stdout
            .lines()
            .next()
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["NAME", "STATUS", "MESSAGE", "ERROR"],
        "{stdout}"
    );
    let mut rows: Vec<Vec<&str>> = stdout
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    rows.sort();
    assert_eq!(
        rows,
        [
            ["controller-manager", "Healthy", "ok"],
            ["etcd-0", "Healthy", "ok"],
            ["scheduler", "Healthy", "ok"]
        ],
        "{stdout}"
    );
    assert!(
        stderr.contains("Warning: v1 ComponentStatus is deprecated in v1.19+"),
        "{stderr}"
    );
    let one = lab.kubectl_json(&["get", "cs", "etcd-0"]).await;
    assert_eq!(
        one,
        serde_json::json!({"apiVersion": "v1", "kind": "ComponentStatus", "metadata": {"name": "etcd-0"},
            "conditions": [{"type": "Healthy", "status": "True", "message": "ok"}]})
    );
    let missing = lab.kubectl_fails(&["get", "cs", "nope"]).await;
    assert!(
        missing.contains(r#"componentstatus "nope" not found"#),
        "{missing}"
    );
    let refused = lab.kubectl_fails(&["delete", "cs", "etcd-0"]).await;
    assert!(
        refused.contains("MethodNotAllowed") || refused.contains("not allowed"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kind_no_server_serves_gets_kubectls_mapping_error_not_an_openapi_one() {
    let lab = Lab::start().await;
    let odd = lab.file(
        "odd.yaml",
        "apiVersion: v1\nkind: ConfigMapp\nmetadata:\n  name: odd\n",
    );
    let err = lab
        .kubectl_fails(&["apply", "-f", odd.to_str().unwrap()])
        .await;
    assert!(
        err.contains(r#"resource mapping not found for name: "odd" namespace: "" from"#)
            && err.contains(r#"no matches for kind "ConfigMapp" in version "v1""#),
        "{err}"
    );
    let old = lab.file(
        "old.yaml",
        "apiVersion: apps/v1beta1\nkind: Deployment\nmetadata:\n  name: old\n",
    );
    let err = lab
        .kubectl_fails(&["apply", "-f", old.to_str().unwrap()])
        .await;
    assert!(
        err.contains(r#"no matches for kind "Deployment" in version "apps/v1beta1""#),
        "{err}"
    );
    assert!(!err.contains("openapi"), "{err}");
}
