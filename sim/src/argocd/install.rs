//! The objects of Argo CD's `manifests/install.yaml` (v3.5) that a learner lists or reads in
//! `argocd` (docs/sim-behaviour.md §16.8): the application controller StatefulSet, the other
//! components' Deployments, their Services and ServiceAccounts, the ConfigMaps with the keys a
//! stock install ships, the Secrets the server and redis make at start-up; and in `gitsrv` the
//! lab's git daemon. The workloads' Pod specs are abridged (containers, ports, probes; no env,
//! volumes or security contexts), and only the application controller Pod logs anything.

use serde_json::{Value, json};

/// The Argo CD release the lab VM runs.
pub const IMAGE: &str = "quay.io/argoproj/argocd:v3.5.2";

/// The application controller's Pod and container, whose log is the controller's.
pub const CONTROLLER_POD: &str = "argocd-application-controller-0";
pub const CONTROLLER_CONTAINER: &str = "argocd-application-controller";

fn labels(name: &str, component: Option<&str>) -> Value {
    let mut l = json!({"app.kubernetes.io/name": name, "app.kubernetes.io/part-of": "argocd"});
    if let Some(c) = component {
        l["app.kubernetes.io/component"] = json!(c);
    }
    l
}

fn meta(name: &str, component: Option<&str>) -> Value {
    json!({"name": name, "labels": labels(name, component)})
}

/// One workload: its name, component, container (name, image, command, args), ports and
/// readiness probe `(path, port, initialDelaySeconds, periodSeconds)`.
struct Component {
    name: &'static str,
    component: &'static str,
    container: &'static str,
    image: &'static str,
    command: Option<&'static [&'static str]>,
    args: &'static [&'static str],
    ports: &'static [(Option<&'static str>, u16)],
    ready: Option<(&'static str, u16, u16, u16)>,
}

const COMPONENTS: &[Component] = &[
    Component {
        name: "argocd-application-controller",
        component: "application-controller",
        container: CONTROLLER_CONTAINER,
        image: IMAGE,
        command: None,
        args: &["/usr/local/bin/argocd-application-controller"],
        ports: &[(None, 8082)],
        ready: Some(("/healthz", 8082, 5, 10)),
    },
    Component {
        name: "argocd-applicationset-controller",
        component: "applicationset-controller",
        container: "argocd-applicationset-controller",
        image: IMAGE,
        command: None,
        args: &["/usr/local/bin/argocd-applicationset-controller"],
        ports: &[(Some("webhook"), 7000), (Some("metrics"), 8080)],
        ready: None,
    },
    Component {
        name: "argocd-dex-server",
        component: "dex-server",
        container: "dex",
        image: "ghcr.io/dexidp/dex:v2.45.0",
        command: Some(&["/shared/argocd-dex", "rundex"]),
        args: &[],
        ports: &[(None, 5556), (None, 5557), (None, 5558)],
        ready: None,
    },
    Component {
        name: "argocd-notifications-controller",
        component: "notifications-controller",
        container: "argocd-notifications-controller",
        image: IMAGE,
        command: None,
        args: &["/usr/local/bin/argocd-notifications"],
        ports: &[],
        ready: None,
    },
    Component {
        name: "argocd-redis",
        component: "redis",
        container: "redis",
        image: "public.ecr.aws/docker/library/redis:8.2.3-alpine",
        command: None,
        args: &[
            "--save",
            "",
            "--appendonly",
            "no",
            "--requirepass $(REDIS_PASSWORD)",
        ],
        ports: &[(None, 6379)],
        ready: None,
    },
    Component {
        name: "argocd-repo-server",
        component: "repo-server",
        container: "argocd-repo-server",
        image: IMAGE,
        command: None,
        args: &["/usr/local/bin/argocd-repo-server"],
        ports: &[(None, 8081), (None, 8084)],
        ready: Some(("/healthz", 8084, 5, 10)),
    },
    Component {
        name: "argocd-server",
        component: "server",
        container: "argocd-server",
        image: IMAGE,
        command: None,
        args: &["/usr/local/bin/argocd-server"],
        ports: &[(None, 8080), (None, 8083)],
        ready: Some(("/healthz", 8080, 3, 30)),
    },
];

/// (name, component, selected app, ports as (name, port, targetPort)).
type ServiceSpec = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, u16, u16)],
);

const SERVICES: &[ServiceSpec] = &[
    (
        "argocd-applicationset-controller",
        "applicationset-controller",
        "argocd-applicationset-controller",
        &[("webhook", 7000, 7000), ("metrics", 8080, 8080)],
    ),
    (
        "argocd-dex-server",
        "dex-server",
        "argocd-dex-server",
        &[
            ("http", 5556, 5556),
            ("grpc", 5557, 5557),
            ("metrics", 5558, 5558),
        ],
    ),
    (
        "argocd-metrics",
        "metrics",
        "argocd-application-controller",
        &[("metrics", 8082, 8082)],
    ),
    (
        "argocd-notifications-controller-metrics",
        "notifications-controller",
        "argocd-notifications-controller",
        &[("metrics", 9001, 9001)],
    ),
    (
        "argocd-redis",
        "redis",
        "argocd-redis",
        &[("tcp-redis", 6379, 6379)],
    ),
    (
        "argocd-repo-server",
        "repo-server",
        "argocd-repo-server",
        &[("server", 8081, 8081), ("metrics", 8084, 8084)],
    ),
    (
        "argocd-server",
        "server",
        "argocd-server",
        &[("http", 80, 8080), ("https", 443, 8080)],
    ),
    (
        "argocd-server-metrics",
        "server",
        "argocd-server",
        &[("metrics", 8083, 8083)],
    ),
];

fn workload(c: &Component) -> Value {
    let mut container = json!({"name": c.container, "image": c.image, "imagePullPolicy": "Always",
        "ports": c.ports.iter().map(|(name, port)| {
            let mut p = json!({"containerPort": port});
            if let Some(n) = name { p["name"] = json!(n); }
            p
        }).collect::<Vec<_>>()});
    if let Some(command) = c.command {
        container["command"] = json!(command);
    }
    if !c.args.is_empty() {
        container["args"] = json!(c.args);
    }
    if let Some((path, port, delay, period)) = c.ready {
        container["readinessProbe"] = json!({"httpGet": {"path": path, "port": port}, "initialDelaySeconds": delay, "periodSeconds": period});
    }
    let template = json!({"metadata": {"labels": {"app.kubernetes.io/name": c.name}},
        "spec": {"serviceAccountName": c.name, "containers": [container]}});
    let mut spec = json!({"selector": {"matchLabels": {"app.kubernetes.io/name": c.name}}, "template": template});
    let kind = if c.name == "argocd-application-controller" {
        spec["replicas"] = json!(1);
        spec["serviceName"] = json!(c.name);
        ("apps/v1", "StatefulSet")
    } else {
        spec["strategy"] = json!({"type": "Recreate"});
        ("apps/v1", "Deployment")
    };
    json!({"apiVersion": kind.0, "kind": kind.1, "metadata": meta(c.name, Some(c.component)), "spec": spec})
}

/// `argocd-cm` as v3.5 ships it: resource-update ignores and exclusions, and no
/// `application.resourceTrackingMethod` (annotation tracking is the default).
fn argocd_cm() -> Value {
    let data = json!({
        "resource.customizations.ignoreResourceUpdates.ConfigMap": "jqPathExpressions:\n  # Ignore the cluster-autoscaler status\n  - '.metadata.annotations.\"cluster-autoscaler.kubernetes.io/last-updated\"'\n  # Ignore the annotation of the legacy Leases election\n  - '.metadata.annotations.\"control-plane.alpha.kubernetes.io/leader\"'\n",
        "resource.customizations.ignoreResourceUpdates.Endpoints": "jsonPointers:\n  - /metadata\n  - /subsets\n",
        "resource.customizations.ignoreResourceUpdates.all": "jsonPointers:\n  - /status\n",
        "resource.customizations.ignoreResourceUpdates.apps_ReplicaSet": "jqPathExpressions:\n  - '.metadata.annotations.\"deployment.kubernetes.io/desired-replicas\"'\n  - '.metadata.annotations.\"deployment.kubernetes.io/max-replicas\"'\n  - '.metadata.annotations.\"rollout.argoproj.io/desired-replicas\"'\n",
        "resource.customizations.ignoreResourceUpdates.argoproj.io_Application": "jqPathExpressions:\n  - '.metadata.annotations.\"notified.notifications.argoproj.io\"'\n  - '.metadata.annotations.\"argocd.argoproj.io/refresh\"'\n  - '.metadata.annotations.\"argocd.argoproj.io/hydrate\"'\n  - '.operation'\n",
        "resource.customizations.ignoreResourceUpdates.argoproj.io_Rollout": "jqPathExpressions:\n  - '.metadata.annotations.\"notified.notifications.argoproj.io\"'\n",
        "resource.customizations.ignoreResourceUpdates.autoscaling_HorizontalPodAutoscaler": "jqPathExpressions:\n  - '.metadata.annotations.\"autoscaling.alpha.kubernetes.io/behavior\"'\n  - '.metadata.annotations.\"autoscaling.alpha.kubernetes.io/conditions\"'\n  - '.metadata.annotations.\"autoscaling.alpha.kubernetes.io/metrics\"'\n  - '.metadata.annotations.\"autoscaling.alpha.kubernetes.io/current-metrics\"'\n",
        "resource.customizations.ignoreResourceUpdates.discovery.k8s.io_EndpointSlice": "jsonPointers:\n  - /metadata\n  - /endpoints\n  - /ports\n",
        "resource.exclusions": "### Network resources created by the Kubernetes control plane and excluded to reduce the number of watched events and UI clutter\n- apiGroups:\n  - ''\n  - discovery.k8s.io\n  kinds:\n  - Endpoints\n  - EndpointSlice\n### Internal Kubernetes resources excluded reduce the number of watched events\n- apiGroups:\n  - coordination.k8s.io\n  kinds:\n  - Lease\n### Internal Kubernetes Authz/Authn resources excluded reduce the number of watched events\n- apiGroups:\n  - authentication.k8s.io\n  - authorization.k8s.io\n  kinds:\n  - SelfSubjectReview\n  - TokenReview\n  - LocalSubjectAccessReview\n  - SelfSubjectAccessReview\n  - SelfSubjectRulesReview\n  - SubjectAccessReview\n### Intermediate Certificate Request excluded reduce the number of watched events\n- apiGroups:\n  - certificates.k8s.io\n  kinds:\n  - CertificateSigningRequest\n- apiGroups:\n  - cert-manager.io\n  kinds:\n  - CertificateRequest\n### Cilium internal resources excluded reduce the number of watched events and UI Clutter\n- apiGroups:\n  - cilium.io\n  kinds:\n  - CiliumIdentity\n  - CiliumEndpoint\n  - CiliumEndpointSlice\n### Kyverno intermediate and reporting resources excluded reduce the number of watched events and improve performance\n- apiGroups:\n  - kyverno.io\n  - reports.kyverno.io\n  - wgpolicyk8s.io\n  kinds:\n  - PolicyReport\n  - ClusterPolicyReport\n  - EphemeralReport\n  - ClusterEphemeralReport\n  - AdmissionReport\n  - ClusterAdmissionReport\n  - BackgroundScanReport\n  - ClusterBackgroundScanReport\n  - UpdateRequest\n",
    });
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("argocd-cm", None), "data": data})
}

fn config_map(name: &str, label_name: &str, component: Option<&str>, data: Option<Value>) -> Value {
    let mut cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "labels": labels(label_name, component)}});
    if let Some(d) = data {
        cm["data"] = d;
    }
    cm
}

fn random_text(len: usize) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

fn secret(name: &str, labels: Value, data: Value) -> Value {
    use base64::Engine;
    let encoded: serde_json::Map<String, Value> = data
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            let text = v.as_str().unwrap_or_default();
            (
                k.clone(),
                json!(base64::engine::general_purpose::STANDARD.encode(text)),
            )
        })
        .collect();
    let mut s = json!({"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "metadata": {"name": name, "labels": labels}});
    if !encoded.is_empty() {
        s["data"] = Value::Object(encoded);
    }
    s
}

/// Every object of the install, in the order `kubectl apply -f install.yaml` creates them
/// (the Secrets the server and redis write when they start last).
pub fn objects() -> Vec<Value> {
    let mut all = Vec::new();
    for c in COMPONENTS {
        all.push(json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta(c.name, Some(c.component))}));
    }
    all.push(argocd_cm());
    for (name, label, component, data) in [
        ("argocd-cmd-params-cm", "argocd-cmd-params-cm", None, None),
        ("argocd-gpg-keys-cm", "argocd-gpg-keys-cm", None, None),
        (
            "argocd-notifications-cm",
            "argocd-notifications-controller",
            Some("notifications-controller"),
            None,
        ),
        ("argocd-rbac-cm", "argocd-rbac-cm", None, None),
        (
            "argocd-ssh-known-hosts-cm",
            "argocd-ssh-known-hosts-cm",
            None,
            Some(
                json!({"ssh_known_hosts": "# This file was automatically generated by hack/update-ssh-known-hosts.sh. DO NOT EDIT\n"}),
            ),
        ),
        ("argocd-tls-certs-cm", "argocd-tls-certs-cm", None, None),
    ] {
        all.push(config_map(name, label, component, data));
    }
    all.push(secret(
        "argocd-notifications-secret",
        labels(
            "argocd-notifications-controller",
            Some("notifications-controller"),
        ),
        json!({}),
    ));
    all.push(secret(
        "argocd-secret",
        labels("argocd-secret", None),
        json!({
            "admin.password": format!("$2a$10${}", random_text(53)),
            "admin.passwordMtime": crate::clock::rfc3339(jiff::Timestamp::now()),
            "server.secretkey": random_text(44),
        }),
    ));
    for (name, component, app, ports) in SERVICES {
        let ports: Vec<Value> = ports
            .iter()
            .map(|(n, port, target)| json!({"name": n, "port": port, "protocol": "TCP", "targetPort": target}))
            .collect();
        all.push(
            json!({"apiVersion": "v1", "kind": "Service", "metadata": meta(name, Some(component)),
            "spec": {"selector": {"app.kubernetes.io/name": app}, "ports": ports}}),
        );
    }
    all.extend(COMPONENTS.iter().map(workload));
    all.push(secret(
        "argocd-redis",
        json!({}),
        json!({"auth": random_text(16)}),
    ));
    all.push(secret(
        "argocd-initial-admin-secret",
        json!({}),
        json!({"password": random_text(16)}),
    ));
    all
}

/// The lab's git daemon in `gitsrv`: how the VM serves `/srv/bare` as `gitd.gitsrv`.
pub fn gitsrv_objects() -> Vec<Value> {
    let labels = json!({"app": "gitd"});
    vec![
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "gitsrv"}}),
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "gitd", "namespace": "gitsrv", "labels": labels},
            "spec": {"selector": labels, "ports": [{"name": "git", "port": 9418, "protocol": "TCP", "targetPort": 9418}]}}),
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "gitd", "namespace": "gitsrv", "labels": labels},
            "spec": {"replicas": 1, "selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels},
                "spec": {"containers": [{"name": "gitd", "image": "alpine/git:2.47.2",
                    "command": ["git", "daemon", "--reuseaddr", "--export-all", "--enable=receive-pack", "--base-path=/srv/bare", "/srv/bare"],
                    "ports": [{"name": "git", "containerPort": 9418}]}]}}}}),
    ]
}
