//! The Kubernetes a learner pokes at around the lab, with the real kubectl 1.35: the node,
//! logs, Services and their endpoints, events, rollout history, metrics, errors kubectl reads
//! the details of. Each test is what k3s 1.35 shows for the same commands.

use crate::common::{Lab, wait_json};

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
    let pod = wait_json(
        &lab,
        &["get", "pod", "solo", "--show-managed-fields"],
        |p| p["status"]["phase"] == "Running",
    )
    .await;
    assert_eq!(pod["spec"]["nodeName"], "capa-lab");
    assert_eq!(pod["status"]["hostIP"], "10.0.2.15");
    // The binding is the server's doing: no field manager claims spec.nodeName.
    let owned = serde_json::to_string(&pod["metadata"]["managedFields"]).unwrap();
    assert!(owned.contains("f:containers"), "{owned}");
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
    let web = lab.file("web.yaml", crate::common::WEB);
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
        "echo one; sleep 20; echo two",
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
    // The Status itself, as a client reads it: details name the object, group and kind.
    let client = lab.client().await;
    let api: kube::Api<k8s_openapi::api::apps::v1::Deployment> =
        kube::Api::namespaced(client.clone(), "default");
    match api.get("nope").await {
        Err(kube::Error::Api(status)) => {
            let details = status.details.expect("a NotFound carries details");
            assert_eq!(
                (
                    details.name.as_str(),
                    details.group.as_str(),
                    details.kind.as_str()
                ),
                ("nope", "apps", "deployments")
            );
        }
        other => panic!("expected a NotFound Status, got {other:?}"),
    }
    // kubectl's own handling of the reasons: an existing object, a missing one ignored.
    lab.kubectl(&["create", "cm", "twice"]).await;
    let again = lab.kubectl_fails(&["create", "cm", "twice"]).await;
    // kubectl's create generators word it themselves around the server's message.
    assert!(
        again.contains("failed to create configmap: configmaps \"twice\" already exists"),
        "{again}"
    );
    let quiet = lab
        .kubectl(&["delete", "cm", "nope", "--ignore-not-found"])
        .await;
    assert_eq!(quiet, "");
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
    let web = lab.file("web.yaml", crate::common::WEB);
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
    let web = lab.file("web.yaml", crate::common::WEB);
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
