//! The Kubernetes a learner pokes at around the lab, with the real kubectl 1.35: the node,
//! logs, Services and their endpoints, events, rollout history, metrics, errors kubectl reads
//! the details of. Each test is what k3s 1.35 shows for the same commands.

use std::time::Duration;

use crate::harness::Lab;

/// Polls `kubectl args -o json` until `ok` holds for it (or fails after ~60 s of real time).
async fn wait_json(
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
