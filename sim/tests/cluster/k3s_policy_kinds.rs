//! The policy kinds a k3s server serves and an Argo CD lab touches (PodDisruptionBudget,
//! NetworkPolicy, StorageClass, ResourceQuota, LimitRange, events.k8s.io Events), with the
//! real kubectl 1.35: discovery with their short names, `get` tables as k3s prints them,
//! `apply`, `delete`, watches, and protobuf (kubectl's `create` speaks it).

use crate::common::Lab;

/// `kubectl api-resources` rows: (name, shortnames, apiversion, namespaced, kind).
fn resource_row<'a>(table: &'a str, name: &str, version: &str) -> Vec<&'a str> {
    table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|cols| cols.first() == Some(&name) && cols.contains(&version))
        .unwrap_or_else(|| panic!("no {name} {version} in:\n{table}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_lists_the_kinds_with_their_short_names() {
    let lab = Lab::start().await;
    let table = lab.kubectl(&["api-resources"]).await;
    for (name, short, version, namespaced, kind) in [
        (
            "horizontalpodautoscalers",
            "hpa",
            "autoscaling/v2",
            "true",
            "HorizontalPodAutoscaler",
        ),
        (
            "poddisruptionbudgets",
            "pdb",
            "policy/v1",
            "true",
            "PodDisruptionBudget",
        ),
        (
            "networkpolicies",
            "netpol",
            "networking.k8s.io/v1",
            "true",
            "NetworkPolicy",
        ),
        (
            "storageclasses",
            "sc",
            "storage.k8s.io/v1",
            "false",
            "StorageClass",
        ),
        ("resourcequotas", "quota", "v1", "true", "ResourceQuota"),
        ("limitranges", "limits", "v1", "true", "LimitRange"),
        ("events", "ev", "events.k8s.io/v1", "true", "Event"),
    ] {
        assert_eq!(
            resource_row(&table, name, version),
            [name, short, version, namespaced, kind],
            "{table}"
        );
    }
    // autoscaling prefers v2 and still serves v1, as k3s 1.35 does.
    let group = lab.kubectl(&["get", "--raw", "/apis/autoscaling"]).await;
    let group: serde_json::Value = serde_json::from_str(&group).unwrap();
    assert_eq!(group["preferredVersion"]["version"], "v2", "{group}");
    assert_eq!(group["versions"][1]["version"], "v1", "{group}");
    let wide = lab.kubectl(&["api-resources", "-o", "wide"]).await;
    let hpa = resource_row(&wide, "horizontalpodautoscalers", "autoscaling/v2");
    assert_eq!(
        hpa[5..],
        [
            "create,delete,deletecollection,get,list,patch,update,watch",
            "all"
        ],
        "{wide}"
    );
    let versions = lab.kubectl(&["api-versions"]).await;
    for v in [
        "autoscaling/v1",
        "autoscaling/v2",
        "policy/v1",
        "networking.k8s.io/v1",
        "storage.k8s.io/v1",
        "events.k8s.io/v1",
    ] {
        assert!(
            versions.lines().any(|l| l == v),
            "{v} missing from:\n{versions}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn k3s_starts_with_local_path_as_the_default_storage_class() {
    let lab = Lab::start().await;
    let table = lab.kubectl(&["get", "sc"]).await;
    let lines: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        lines[0],
        [
            "NAME",
            "PROVISIONER",
            "RECLAIMPOLICY",
            "VOLUMEBINDINGMODE",
            "ALLOWVOLUMEEXPANSION",
            "AGE"
        ],
        "{table}"
    );
    assert_eq!(
        lines[1][..6],
        [
            "local-path",
            "(default)",
            "rancher.io/local-path",
            "Delete",
            "WaitForFirstConsumer",
            "false"
        ],
        "{table}"
    );
    let sc = lab
        .kubectl_json(&["get", "storageclass", "local-path"])
        .await;
    assert_eq!(
        sc["metadata"]["annotations"]["storageclass.kubernetes.io/is-default-class"],
        "true"
    );
    // A class of one's own gets the server's defaults.
    let mine = lab.file(
        "sc.yaml",
        "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: fast\nprovisioner: example.com/fast\n",
    );
    lab.kubectl(&["apply", "-f", mine.to_str().unwrap()]).await;
    let fast = lab.kubectl_json(&["get", "sc", "fast"]).await;
    assert_eq!(
        (
            fast["reclaimPolicy"].as_str(),
            fast["volumeBindingMode"].as_str()
        ),
        (Some("Delete"), Some("Immediate"))
    );
    lab.kubectl(&["delete", "sc", "fast"]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdbs_and_network_policies_apply_print_and_delete() {
    let lab = Lab::start().await;
    let manifest = lab.file(
        "policies.yaml",
        "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: web\n---\n\
         apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: deny\nspec:\n  podSelector:\n    matchLabels:\n      app: web\n  ingress:\n  - ports:\n    - port: 80\n",
    );
    let out = lab
        .kubectl(&["apply", "-f", manifest.to_str().unwrap()])
        .await;
    assert!(
        out.contains("poddisruptionbudget.policy/web created"),
        "{out}"
    );
    assert!(
        out.contains("networkpolicy.networking.k8s.io/deny created"),
        "{out}"
    );
    let pdb = lab.kubectl(&["get", "pdb"]).await;
    let rows: Vec<Vec<&str>> = pdb
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows[0],
        [
            "NAME",
            "MIN",
            "AVAILABLE",
            "MAX",
            "UNAVAILABLE",
            "ALLOWED",
            "DISRUPTIONS",
            "AGE"
        ],
        "{pdb}"
    );
    assert_eq!(rows[1][..4], ["web", "1", "N/A", "0"], "{pdb}");
    let netpol = lab.kubectl(&["get", "netpol"]).await;
    assert!(netpol.starts_with("NAME   POD-SELECTOR   AGE"), "{netpol}");
    assert!(netpol.contains("deny   app=web"), "{netpol}");
    let np = lab.kubectl_json(&["get", "networkpolicy", "deny"]).await;
    assert_eq!(
        np["spec"]["policyTypes"],
        serde_json::json!(["Ingress"]),
        "{np}"
    );
    assert_eq!(
        np["spec"]["ingress"][0]["ports"][0]["protocol"], "TCP",
        "{np}"
    );
    // kubectl create speaks protobuf for built-in kinds.
    let created = lab
        .kubectl(&[
            "create",
            "pdb",
            "api",
            "--selector=app=api",
            "--max-unavailable=1",
        ])
        .await;
    assert!(
        created.contains("poddisruptionbudget.policy/api created"),
        "{created}"
    );
    let api = lab.kubectl_json(&["get", "pdb", "api"]).await;
    assert_eq!(api["spec"]["maxUnavailable"], 1, "{api}");
    let gone = lab
        .kubectl(&["delete", "-f", manifest.to_str().unwrap()])
        .await;
    assert!(
        gone.contains("networkpolicy.networking.k8s.io \"deny\" deleted"),
        "{gone}"
    );
    lab.kubectl_fails(&["get", "netpol", "deny"]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_are_served_in_both_versions_as_one_object() {
    let lab = Lab::start().await;
    lab.kubectl(&["create", "configmap", "x"]).await;
    lab.kubectl(&["run", "p", "--image=nginx:1.27-alpine"])
        .await;
    let core = crate::common::wait_json(
        &lab,
        &["get", "events", "--field-selector", "involvedObject.name=p"],
        |l| l["items"].as_array().is_some_and(|i| !i.is_empty()),
    )
    .await;
    let name = core["items"][0]["metadata"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let new = lab
        .kubectl_json(&["get", "events.events.k8s.io", &name])
        .await;
    assert_eq!(new["apiVersion"], "events.k8s.io/v1", "{new}");
    assert_eq!(new["regarding"]["name"], "p", "{new}");
    assert_eq!(new["note"], core["items"][0]["message"], "{new}");
    let table = lab.kubectl(&["get", "events.events.k8s.io"]).await;
    assert!(table.starts_with("LAST SEEN"), "{table}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quota_counts_what_the_namespace_holds_and_refuses_one_more() {
    let lab = Lab::start().await;
    lab.kubectl(&["create", "namespace", "q"]).await;
    lab.kubectl(&[
        "-n",
        "q",
        "create",
        "quota",
        "counts",
        "--hard=configmaps=2,pods=5",
    ])
    .await;
    lab.kubectl(&["-n", "q", "create", "configmap", "one"])
        .await;
    // kube-root-ca.crt and "one": the quota is full.
    let quota = crate::common::wait_json(&lab, &["-n", "q", "get", "quota", "counts"], |q| {
        q["status"]["used"]["configmaps"] == "2"
    })
    .await;
    assert_eq!(quota["status"]["hard"]["pods"], "5", "{quota:#}");
    assert_eq!(quota["status"]["used"]["pods"], "0", "{quota:#}");
    let refused = lab
        .kubectl_fails(&["-n", "q", "create", "configmap", "two"])
        .await;
    assert!(
        refused.contains("configmaps \"two\" is forbidden: exceeded quota: counts, requested: configmaps=1, used: configmaps=2, limited: configmaps=2"),
        "{refused}"
    );
    let table = lab.kubectl(&["-n", "q", "get", "quota"]).await;
    assert!(table.starts_with("NAME     AGE"), "{table}");
    assert!(table.contains("configmaps: 2/2, pods: 0/5"), "{table}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_limit_range_defaults_the_resources_of_new_pods() {
    let lab = Lab::start().await;
    let lr = lab.file(
        "limits.yaml",
        "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: defaults\nspec:\n  limits:\n  - type: Container\n    default: {cpu: 500m}\n    defaultRequest: {cpu: 100m, memory: 64Mi}\n",
    );
    lab.kubectl(&["apply", "-f", lr.to_str().unwrap()]).await;
    let table = lab.kubectl(&["get", "limits"]).await;
    assert!(table.starts_with("NAME       CREATED AT"), "{table}");
    lab.kubectl(&["run", "p", "--image=nginx:1.27-alpine"])
        .await;
    let pod = lab.kubectl_json(&["get", "pod", "p"]).await;
    let resources = &pod["spec"]["containers"][0]["resources"];
    assert_eq!(
        resources["requests"],
        serde_json::json!({"cpu": "100m", "memory": "64Mi"}),
        "{pod:#}"
    );
    assert_eq!(
        resources["limits"],
        serde_json::json!({"cpu": "500m"}),
        "{pod:#}"
    );
    assert_eq!(
        pod["metadata"]["annotations"]["kubernetes.io/limit-ranger"],
        "LimitRanger plugin set: cpu, memory request for container p; cpu limit for container p",
        "{pod:#}"
    );
}
