//! The rarer built-in kinds and subresources a Kubernetes 1.35 server serves, as the real
//! kubectl meets them: RBAC with its default roles, PriorityClasses, flow control, discovery of
//! every group, `create token`, `auth can-i --as`, `certificate approve`, drain's evictions,
//! PodDisruptionBudget status and StatefulSet revisions.

use crate::common::{Lab, wait_json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_group_a_1_35_server_serves_is_discovered() {
    let lab = Lab::start().await;
    let versions = lab.kubectl(&["api-versions"]).await;
    for gv in [
        "admissionregistration.k8s.io/v1",
        "apiregistration.k8s.io/v1",
        "certificates.k8s.io/v1",
        "flowcontrol.apiserver.k8s.io/v1",
        "node.k8s.io/v1",
        "rbac.authorization.k8s.io/v1",
        "resource.k8s.io/v1",
        "scheduling.k8s.io/v1",
    ] {
        assert!(versions.lines().any(|l| l == gv), "{gv} in:\n{versions}");
    }
    let cluster = lab
        .kubectl(&["api-resources", "--namespaced=false", "-o", "name"])
        .await;
    for name in [
        "clusterroles.rbac.authorization.k8s.io",
        "priorityclasses.scheduling.k8s.io",
        "csidrivers.storage.k8s.io",
        "tokenreviews.authentication.k8s.io",
        "apiservices.apiregistration.k8s.io",
    ] {
        assert!(cluster.lines().any(|l| l == name), "{name} in:\n{cluster}");
    }
    let apps = lab
        .kubectl(&[
            "api-resources",
            "--verbs=deletecollection",
            "--api-group=apps",
            "-o",
            "name",
        ])
        .await;
    assert_eq!(
        apps.lines().next(),
        Some("controllerrevisions.apps"),
        "{apps}"
    );
    for kind in [
        "priorityclasses",
        "ingressclasses",
        "runtimeclasses",
        "csinodes",
        "volumeattachments",
        "flowschemas",
        "certificatesigningrequests",
        "clusterrolebindings",
        "apiservices",
        "validatingadmissionpolicies",
        "deviceclasses",
    ] {
        lab.kubectl(&["get", kind, "-A", "-o", "name"]).await;
    }
    for kind in [
        "roles",
        "rolebindings",
        "csistoragecapacities",
        "podtemplates",
    ] {
        lab.kubectl(&["-n", "default", "get", kind, "-o", "name"])
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_starts_with_its_default_objects() {
    let lab = Lab::start().await;
    let classes = lab.kubectl(&["get", "priorityclasses", "-o", "name"]).await;
    assert_eq!(
        classes,
        "priorityclass.scheduling.k8s.io/system-cluster-critical\npriorityclass.scheduling.k8s.io/system-node-critical\n"
    );
    let cidrs = lab.kubectl(&["get", "servicecidrs", "-o", "name"]).await;
    assert_eq!(cidrs, "servicecidr.networking.k8s.io/kubernetes\n");
    let schemas = lab.kubectl(&["get", "flowschemas", "-o", "name"]).await;
    let first: Vec<&str> = schemas.lines().take(3).collect();
    assert_eq!(
        first,
        [
            "flowschema.flowcontrol.apiserver.k8s.io/catch-all",
            "flowschema.flowcontrol.apiserver.k8s.io/exempt",
            "flowschema.flowcontrol.apiserver.k8s.io/global-default"
        ]
    );
    let view = lab.kubectl_json(&["get", "clusterrole", "view"]).await;
    assert!(
        view["rules"]
            .as_array()
            .is_some_and(|r| r.iter().any(|r| r["resources"][0] == "pods")),
        "{view}"
    );
    lab.kubectl(&["get", "clusterrolebinding", "cluster-admin"])
        .await;
    let made = lab
        .kubectl_json(&[
            "create",
            "priorityclass",
            "high",
            "--value=1000",
            "--dry-run=server",
        ])
        .await;
    assert_eq!(made["preemptionPolicy"], "PreemptLowerPriority");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roles_and_bindings_are_created_and_decide_can_i_as() {
    let lab = Lab::start().await;
    let sa = "system:serviceaccount:default:default";
    let before = lab
        .kubectl_output(&["auth", "can-i", "list", "pods", "-n", "default", "--as", sa])
        .await;
    assert_eq!(String::from_utf8_lossy(&before.stdout), "no\n");
    assert_eq!(before.status.code(), Some(1));
    let rules = lab
        .kubectl_json(&[
            "-n",
            "default",
            "create",
            "role",
            "reader",
            "--verb=get,list",
            "--resource=pods,configmaps",
        ])
        .await;
    assert_eq!(
        rules["rules"],
        serde_json::json!([{"verbs": ["get", "list"], "apiGroups": [""], "resources": ["pods", "configmaps"]}])
    );
    let binding = lab
        .kubectl_json(&[
            "-n",
            "default",
            "create",
            "rolebinding",
            "reader",
            "--role=reader",
            "--serviceaccount=default:default",
        ])
        .await;
    assert_eq!(binding["roleRef"]["kind"], "Role");
    assert_eq!(binding["subjects"][0]["kind"], "ServiceAccount");
    let after = lab
        .kubectl(&["auth", "can-i", "list", "pods", "-n", "default", "--as", sa])
        .await;
    assert_eq!(after, "yes\n");
    let delete = lab
        .kubectl_output(&[
            "auth", "can-i", "delete", "pods", "-n", "default", "--as", sa,
        ])
        .await;
    assert_eq!(String::from_utf8_lossy(&delete.stdout), "no\n");
    // The cluster's own user stays the all-powerful admin.
    assert_eq!(
        lab.kubectl(&["auth", "can-i", "delete", "nodes"]).await,
        "yes\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_token_issues_a_service_account_jwt() {
    use base64::Engine;
    let lab = Lab::start().await;
    let token = lab
        .kubectl(&[
            "-n",
            "default",
            "create",
            "token",
            "default",
            "--duration=10m",
        ])
        .await;
    let claims = token.trim().split('.').nth(1).unwrap();
    let claims: serde_json::Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(claims)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        claims["aud"],
        serde_json::json!(["https://kubernetes.default.svc.cluster.local", "k3s"])
    );
    assert_eq!(claims["sub"], "system:serviceaccount:default:default");
    assert_eq!(
        claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(),
        600
    );
    let short = lab
        .kubectl_fails(&[
            "-n",
            "default",
            "create",
            "token",
            "default",
            "--duration=1m",
        ])
        .await;
    assert!(short.contains("less than 10 minutes"), "{short}");
    let missing = lab
        .kubectl_fails(&["-n", "default", "create", "token", "nobody"])
        .await;
    assert!(
        missing.contains("serviceaccounts \"nobody\" not found"),
        "{missing}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn certificate_approve_of_a_missing_request_is_not_found() {
    let lab = Lab::start().await;
    let out = lab
        .kubectl_fails(&["certificate", "approve", "nothing"])
        .await;
    assert_eq!(
        out.trim(),
        "Error from server (NotFound): certificatesigningrequests.certificates.k8s.io \"nothing\" not found"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pod_template_is_applied_and_listed() {
    let lab = Lab::start().await;
    let file = lab.file(
        "pt.yaml",
        "apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: pt\ntemplate:\n  spec:\n    containers: [{name: c, image: nginx}]\n",
    );
    let out = lab
        .kubectl(&["-n", "default", "apply", "-f", file.to_str().unwrap()])
        .await;
    assert_eq!(out, "podtemplate/pt created\n");
    assert_eq!(
        lab.kubectl(&["-n", "default", "get", "podtemplates", "-o", "name"])
            .await,
        "podtemplate/pt\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_counts_its_pods_and_guards_evictions() {
    let lab = Lab::start().await;
    let ns = ["-n", "default"];
    lab.kubectl(
        &[
            &ns[..],
            &["create", "deployment", "web", "--image=nginx:1.27-alpine"],
        ]
        .concat(),
    )
    .await;
    lab.kubectl(
        &[
            &ns[..],
            &["rollout", "status", "deploy/web", "--timeout=60s"],
        ]
        .concat(),
    )
    .await;
    lab.kubectl(
        &[
            &ns[..],
            &[
                "create",
                "pdb",
                "pdb",
                "--selector=app=web",
                "--min-available=1",
            ],
        ]
        .concat(),
    )
    .await;
    let pdb = wait_json(&lab, &["-n", "default", "get", "pdb", "pdb"], |p| {
        p["status"]["expectedPods"] == 1
    })
    .await;
    assert_eq!(pdb["status"]["currentHealthy"], 1, "{pdb}");
    assert_eq!(pdb["status"]["desiredHealthy"], 1, "{pdb}");
    assert_eq!(pdb["status"]["disruptionsAllowed"], 0, "{pdb}");
    assert_eq!(pdb["status"]["conditions"][0]["reason"], "InsufficientPods");
    let describe = lab
        .kubectl(&[&ns[..], &["describe", "pdb", "pdb"]].concat())
        .await;
    assert!(describe.contains("  Current:              1"), "{describe}");
    // Draining would take the only Pod: the eviction is refused, and drain says why.
    let pod = lab
        .kubectl(&[&ns[..], &["get", "pod", "-l", "app=web", "-o", "name"]].concat())
        .await;
    let evicted = lab
        .kubectl_output(&[
            "drain",
            "capa-lab",
            "--dry-run=server",
            "--pod-selector=app=web",
            "--ignore-daemonsets",
            "--timeout=3s",
        ])
        .await;
    let stderr = String::from_utf8_lossy(&evicted.stderr);
    assert!(
        stderr.contains("Cannot evict pod as it would violate the pod's disruption budget."),
        "{stderr}"
    );
    assert_eq!(
        lab.kubectl(&[&ns[..], &["get", "pod", "-l", "app=web", "-o", "name"]].concat())
            .await,
        pod
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_dry_run_drain_evicts_nothing() {
    let lab = Lab::start().await;
    lab.kubectl(&[
        "-n",
        "default",
        "run",
        "drainme",
        "--image=nginx:1.27-alpine",
        "--labels=drain=me",
    ])
    .await;
    lab.kubectl(&[
        "-n",
        "default",
        "wait",
        "--for=condition=Ready",
        "pod/drainme",
        "--timeout=30s",
    ])
    .await;
    let out = lab
        .kubectl_output(&[
            "drain",
            "capa-lab",
            "--dry-run=server",
            "--pod-selector=drain=me",
            "--ignore-daemonsets",
            "--delete-emptydir-data",
            "--force",
            "--timeout=15s",
        ])
        .await;
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains("evicting pod default/drainme (server dry run)"),
        "{all}"
    );
    assert!(
        all.contains("node/capa-lab drained (server dry run)"),
        "{all}"
    );
    let phase = lab
        .kubectl(&[
            "-n",
            "default",
            "get",
            "pod",
            "drainme",
            "-o",
            "jsonpath={.status.phase}",
        ])
        .await;
    assert_eq!(phase, "Running");
    assert_eq!(
        lab.kubectl(&[
            "get",
            "node",
            "capa-lab",
            "-o",
            "jsonpath={.spec.unschedulable}"
        ])
        .await,
        ""
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_statefulset_keeps_its_revisions_for_rollout_history() {
    let lab = Lab::start().await;
    let file = lab.file(
        "db.yaml",
        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  serviceName: db\n  replicas: 1\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: db, image: busybox:1.36}]\n",
    );
    lab.kubectl(&["-n", "default", "apply", "-f", file.to_str().unwrap()])
        .await;
    let revisions = wait_json(
        &lab,
        &["-n", "default", "get", "controllerrevisions"],
        |l| l["items"].as_array().is_some_and(|i| i.len() == 1),
    )
    .await;
    let first = &revisions["items"][0];
    assert_eq!(first["revision"], 1);
    assert_eq!(
        first["metadata"]["ownerReferences"][0]["kind"],
        "StatefulSet"
    );
    let history = lab
        .kubectl(&["-n", "default", "rollout", "history", "sts/db"])
        .await;
    assert_eq!(
        history.split_whitespace().collect::<Vec<_>>(),
        [
            "statefulset.apps/db",
            "REVISION",
            "CHANGE-CAUSE",
            "1",
            "<none>"
        ],
        "{history}"
    );
    lab.kubectl(&["-n", "default", "set", "image", "sts/db", "db=busybox:1.37"])
        .await;
    wait_json(
        &lab,
        &["-n", "default", "get", "controllerrevisions"],
        |l| {
            l["items"]
                .as_array()
                .is_some_and(|i| i.iter().any(|r| r["revision"] == 2))
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn argo_cd_reconciles_a_role_before_applying_it() {
    use crate::common::{apply_app, commit_and_push, lab_with_repo, op_state, wait_app, write};
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "rbac/role.yaml",
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: reader\nrules:\n  - apiGroups: [\"\"]\n    resources: [configmaps]\n    verbs: [get]\n",
    );
    commit_and_push(&repo, "a role").await;
    apply_app(&lab, "rbac", "rbac", "", "").await;
    // The comparison after the operation says Synced (the operation ends first).
    let app = wait_app(&lab, "rbac", "synced", |a| {
        op_state(a)["phase"] == "Succeeded" && a["status"]["sync"]["status"] == "Synced"
    })
    .await;
    let results = op_state(&app)["syncResult"]["resources"]
        .as_array()
        .unwrap();
    let result = results.iter().find(|r| r["kind"] == "Role").unwrap();
    assert_eq!(
        result["message"],
        "role.rbac.authorization.k8s.io/reader reconciled. reconciliation required create\n\tmissing rules added:\n\t\t{Verbs:[get] APIGroups:[] Resources:[configmaps] ResourceNames:[] NonResourceURLs:[]}role.rbac.authorization.k8s.io/reader configured. Warning: resource roles/reader is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by  apply.  apply should only be used on resources created declaratively by either  create --save-config or  apply. The missing annotation will be patched automatically."
    );
    let role = lab
        .kubectl_json(&["-n", "rbac", "get", "role", "reader"])
        .await;
    assert_eq!(role["rules"][0]["verbs"], serde_json::json!(["get"]));
}
