//! The Kubernetes a learner pokes at around the lab, with the real kubectl 1.35: the node,
//! logs, Services and their endpoints, events, rollout history, metrics, errors kubectl reads
//! the details of. Each test is what k3s 1.35 shows for the same commands.

use std::time::Duration;

use crate::harness::Lab;

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_node_is_listed_described_and_every_pod_is_bound_to_it() {
    let lab = Lab::start().await;
    let table = lab.kubectl(&["get", "nodes"]).await;
    let lines: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        lines[0],
        ["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
        "{table}"
    );
    assert_eq!(lines.len(), 2, "{table}");
    let row = &lines[1];
    assert_eq!(
        (row[0], row[1], row[2]),
        ("capa-lab", "Ready", "control-plane,master"),
        "{table}"
    );
    assert!(
        row[4].starts_with("v1.35.") && row[4].ends_with("+k3s1"),
        "{table}"
    );
    let wide = lab.kubectl(&["get", "no", "-o", "wide"]).await;
    assert!(
        wide.contains("10.0.2.15") && wide.contains("containerd://"),
        "{wide}"
    );

    // A Pod nobody owns (kubectl run sends it in protobuf) is scheduled like any other.
    lab.kubectl(&["run", "solo", "--image=nginx:1.27-alpine"])
        .await;
    let pod = wait_json(&lab, &["get", "pod", "solo"], |p| {
        p["status"]["phase"] == "Running"
    })
    .await;
    assert_eq!(pod["spec"]["nodeName"], "capa-lab");
    assert_eq!(pod["status"]["hostIP"], "10.0.2.15");
    // The binding is the server's doing: no field manager claims spec.nodeName.
    let owned = serde_json::to_string(&pod["metadata"]["managedFields"]).unwrap();
    assert!(!owned.contains("f:nodeName"), "{owned}");
    let scheduled = lab
        .kubectl(&[
            "get",
            "events",
            "--field-selector",
            "reason=Scheduled",
            "-o",
            "wide",
        ])
        .await;
    assert!(
        scheduled.contains("Successfully assigned default/solo to capa-lab"),
        "{scheduled}"
    );

    // describe reads the node, its lease and the Pods on it through typed (protobuf) clients.
    let described = lab.kubectl(&["describe", "node", "capa-lab"]).await;
    for want in [
        "Roles:              control-plane,master",
        "HolderIdentity:  capa-lab",
        "KubeletReady",
        "InternalIP:  10.0.2.15",
        "Kubelet Version:",
        "PodCIDR:                      10.42.0.0/24",
        "default                     solo",
    ] {
        assert!(
            described.contains(want),
            "missing {want:?} in:\n{described}"
        );
    }
    assert!(!described.contains("Failed to get lease"), "{described}");
    let leases = lab
        .kubectl(&["get", "lease", "-n", "kube-node-lease"])
        .await;
    assert!(
        leases
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("capa-lab")),
        "{leases}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_running_container_has_a_log_read_as_the_kubelet_reads_it() {
    let lab = Lab::start().await;
    let web = lab.file("web.yaml", crate::harness::WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;

    // nginx's entrypoint and master process, as the image prints them on k3s.
    let log = lab.kubectl(&["logs", "deploy/web"]).await;
    assert!(
        log.starts_with("/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty"),
        "{log}"
    );
    assert!(log.contains("[notice] 1#1: nginx/1.27.5\n"), "{log}");
    // nginx logs every readiness probe the kubelet sends (WEB probes / every 2 s).
    let probe = "\"GET / HTTP/1.1\" 200 615 \"-\" \"kube-probe/1.35\" \"-\"";
    let tail = lab.kubectl(&["logs", "deploy/web", "--tail=1"]).await;
    assert!(
        tail.starts_with("10.42.0.1 - - [") && tail.trim_end().ends_with(probe),
        "{tail}"
    );
    let stamped = lab
        .kubectl(&["logs", "deploy/web", "--timestamps", "--tail=1"])
        .await;
    let (stamp, rest) = stamped.split_once(' ').unwrap();
    assert!(
        stamp.parse::<jiff::Timestamp>().is_ok() && stamp.len() == 30,
        "{stamped}"
    );
    assert!(rest.contains(probe), "{stamped}");
    // The start-up lines were written when the container started, a while ago.
    let recent = lab.kubectl(&["logs", "deploy/web", "--since=1s"]).await;
    assert!(
        !recent.contains("docker-entrypoint") && recent.lines().count() <= 1,
        "{recent}"
    );
    let all = lab.kubectl(&["logs", "deploy/web", "--since=1h"]).await;
    assert!(all.starts_with("/docker-entrypoint.sh:"), "{all}");
    // Following, the next probes arrive as they happen (the byte limit ends the stream).
    let followed = lab
        .kubectl(&["logs", "-f", "deploy/web", "--tail=0", "--limit-bytes=200"])
        .await;
    assert_eq!(followed.len(), 200, "{followed}");
    assert!(followed.starts_with("10.42.0.1 - - ["), "{followed}");
    // With a selector kubectl asks for the last 10 lines of each Pod unless told otherwise.
    let both = lab
        .kubectl(&["logs", "-l", "app=web", "--prefix", "--tail=-1"])
        .await;
    assert_eq!(both.matches("nginx/1.27.5").count(), 2, "{both}");
    let err = lab
        .kubectl_fails(&["logs", "deploy/web", "--previous"])
        .await;
    assert!(
        err.contains("previous terminated container \"web\" in pod") && err.contains("not found"),
        "{err}"
    );

    // A command's output, while its Pod runs; and -f follows a Job to its end.
    lab.kubectl(&[
        "run",
        "talk",
        "--image=busybox:1.36",
        "--",
        "sh",
        "-c",
        "echo hello; sleep 3600",
    ])
    .await;
    wait_json(&lab, &["get", "pod", "talk"], |p| {
        p["status"]["phase"] == "Running"
    })
    .await;
    assert_eq!(lab.kubectl(&["logs", "talk"]).await, "hello\n");
    lab.kubectl(&[
        "create",
        "job",
        "count",
        "--image=busybox:1.36",
        "--",
        "sh",
        "-c",
        "echo one; sleep 3; echo two",
    ])
    .await;
    wait_json(&lab, &["get", "pod", "-l", "job-name=count"], |l| {
        l["items"][0]["status"]["phase"] == "Running"
    })
    .await;
    assert_eq!(
        lab.kubectl(&["logs", "-f", "job/count"]).await,
        "one\ntwo\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_carry_details_so_kubectl_never_crashes_on_them() {
    let lab = Lab::start().await;
    lab.kubectl(&["run", "solo", "--image=nginx:1.27-alpine"])
        .await;
    wait_json(&lab, &["get", "pod", "solo"], |p| {
        p["status"]["phase"] == "Running"
    })
    .await;
    // kubectl debug reads details.name of the 404 it gets for /ephemeralcontainers.
    let out = lab
        .kubectl_output(&["debug", "solo", "-it", "--image=busybox:1.36", "--", "sh"])
        .await;
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        !err.contains("panic") && !err.contains("nil pointer"),
        "{err}"
    );
    assert!(
        err.contains("ephemeral containers are disabled for this cluster"),
        "{err}"
    );
    let raw = lab
        .kubectl_fails(&[
            "get",
            "--raw",
            "/api/v1/namespaces/default/pods/solo/nothing",
        ])
        .await;
    assert!(
        raw.contains("the server could not find the requested resource"),
        "{raw}"
    );

    // Object errors name the object, its group and its kind, as the real server's do.
    let gone = lab
        .kubectl_output(&["get", "deploy", "nope", "-o", "json"])
        .await;
    let err = String::from_utf8_lossy(&gone.stderr);
    assert!(err.contains("deployments.apps \"nope\" not found"), "{err}");
    let status = lab
        .kubectl_output(&[
            "get",
            "--raw",
            "/apis/apps/v1/namespaces/default/deployments/nope",
        ])
        .await;
    let body = String::from_utf8_lossy(&status.stderr);
    assert!(body.contains("NotFound"), "{body}");
    lab.kubectl(&["create", "namespace", "going"]).await;
    lab.kubectl(&["create", "cm", "held", "-n", "going"]).await;
    lab.kubectl(&[
        "patch",
        "cm",
        "held",
        "-n",
        "going",
        "--type=merge",
        "-p",
        r#"{"metadata":{"finalizers":["example.com/hold"]}}"#,
    ])
    .await;
    lab.kubectl(&["delete", "ns", "going", "--wait=false"])
        .await;
    let refused = lab
        .kubectl_fails(&["create", "cm", "late", "-n", "going"])
        .await;
    assert!(
        refused.contains("configmaps \"late\" is forbidden: unable to create new content in namespace going because it is being terminated"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rollout_undo_gives_the_reused_replica_set_the_next_revision_so_undo_twice_toggles() {
    let lab = Lab::start().await;
    let web = lab.file("web.yaml", crate::harness::WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    lab.kubectl(&["set", "image", "deploy/web", "web=nginx:1.28-alpine"])
        .await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    let out = lab.kubectl(&["rollout", "undo", "deploy/web"]).await;
    assert_eq!(out.trim(), "deployment.apps/web rolled back");
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;

    let history = lab.kubectl(&["rollout", "history", "deploy/web"]).await;
    let revisions: Vec<&str> = history
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
        .collect();
    assert_eq!(revisions, ["2", "3"], "{history}");
    let sets = lab.kubectl_json(&["get", "rs", "-l", "app=web"]).await;
    let reused = sets["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|rs| rs["spec"]["template"]["spec"]["containers"][0]["image"] == "nginx:1.27-alpine")
        .unwrap();
    let annotations = &reused["metadata"]["annotations"];
    assert_eq!(annotations["deployment.kubernetes.io/revision"], "3");
    assert_eq!(
        annotations["deployment.kubernetes.io/revision-history"],
        "1"
    );
    let d = lab.kubectl_json(&["get", "deploy", "web"]).await;
    assert_eq!(
        d["metadata"]["annotations"]["deployment.kubernetes.io/revision"],
        "3"
    );

    // The second undo goes back to revision 2, the newer image, as on k3s.
    let out = lab.kubectl(&["rollout", "undo", "deploy/web"]).await;
    assert_eq!(out.trim(), "deployment.apps/web rolled back", "{out}");
    let d = wait_json(&lab, &["get", "deploy", "web"], |d| {
        d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == "4"
    })
    .await;
    assert_eq!(
        d["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.28-alpine"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_list_in_time_order_name_their_container_and_count_repeats() {
    let lab = Lab::start().await;
    let web = lab.file("web.yaml", crate::harness::WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    let pods = lab.kubectl_json(&["get", "pods", "-l", "app=web"]).await;
    let pod = pods["items"][0]["metadata"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let listed = lab
        .kubectl(&[
            "get",
            "events",
            "--field-selector",
            &format!("involvedObject.name={pod}"),
            "-o",
            "wide",
        ])
        .await;
    let reasons: Vec<&str> = listed
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(2).unwrap())
        .collect();
    assert_eq!(
        reasons,
        ["Scheduled", "Pulled", "Created", "Started"],
        "{listed}"
    );
    assert!(
        listed.contains("spec.containers{web}") && listed.contains("kubelet, capa-lab"),
        "{listed}"
    );
    let events = lab
        .kubectl_json(&[
            "get",
            "events",
            "--field-selector",
            &format!("involvedObject.name={pod}"),
        ])
        .await;
    for e in events["items"].as_array().unwrap() {
        let name = e["metadata"]["name"].as_str().unwrap();
        let (object, hex) = name.rsplit_once('.').unwrap();
        assert_eq!(object, pod);
        let nanos = i128::from_str_radix(hex, 16).expect("the time in hex");
        let at = jiff::Timestamp::from_nanosecond(nanos).unwrap();
        // The scheduler's Event (events.k8s.io) has an eventTime instead of firstTimestamp.
        let written = e["firstTimestamp"]
            .as_str()
            .or(e["eventTime"].as_str())
            .unwrap();
        let first: jiff::Timestamp = written.parse().unwrap();
        assert_eq!(at.as_second(), first.as_second(), "{name}");
        if e["reason"] == "Scheduled" {
            assert_eq!(e["action"], "Binding");
            assert_eq!(e["reportingComponent"], "default-scheduler");
        }
    }

    // The same scaling twice is one Event counted twice, as the recorder correlates it.
    for n in ["3", "2", "3"] {
        lab.kubectl(&["scale", "deploy/web", &format!("--replicas={n}")])
            .await;
        lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
            .await;
    }
    let scaled = lab
        .kubectl_json(&[
            "get",
            "events",
            "--field-selector",
            "involvedObject.kind=Deployment,reason=ScalingReplicaSet",
        ])
        .await;
    let up: Vec<&serde_json::Value> = scaled["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["message"].as_str().unwrap().ends_with("from 2 to 3"))
        .collect();
    assert_eq!(up.len(), 1, "{scaled:#}");
    assert_eq!(up[0]["count"], 2);
    assert_ne!(up[0]["firstTimestamp"], up[0]["lastTimestamp"]);
}

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

    let web = lab.file("web.yaml", crate::harness::WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    // kubectl expose sends the Service in protobuf.
    lab.kubectl(&["expose", "deploy/web", "--port=8080", "--target-port=80"])
        .await;
    let svc = lab.kubectl_json(&["get", "svc", "web"]).await;
    let ip = svc["spec"]["clusterIP"].as_str().unwrap();
    assert!(ip.starts_with("10.43.") && ip != "10.43.0.1", "{svc:#}");
    assert_eq!(svc["spec"]["clusterIPs"][0], ip);
    // The allocation is the server's: no field manager owns it.
    let owned = serde_json::to_string(&svc["metadata"]["managedFields"]).unwrap();
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
    let web = lab.file("web.yaml", crate::harness::WEB);
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
    let web = lab.file("web.yaml", crate::harness::WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    lab.kubectl(&["rollout", "status", "deploy/gen", "--timeout=60s"])
        .await;
    wait_json(&lab, &["get", "pod", "solo"], |p| {
        p["status"]["phase"] == "Running"
    })
    .await;
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
