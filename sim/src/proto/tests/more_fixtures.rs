//! Objects of the rarer built-in kinds (`crate::kinds::more`), as the API server stores and
//! serves them, one each.

use serde_json::{Value, json};

fn meta(name: &str, namespace: Option<&str>) -> Value {
    let mut m = json!({"name": name, "uid": format!("u-{name}"), "resourceVersion": "31",
                       "creationTimestamp": "2026-07-01T12:00:00Z"});
    if let Some(ns) = namespace {
        m["namespace"] = json!(ns);
    }
    m
}

pub fn objects() -> Vec<Value> {
    let mut all = core_and_rbac();
    all.extend(cluster_kinds());
    all.extend(admission_and_resource());
    all
}

fn core_and_rbac() -> Vec<Value> {
    let ns = Some("demo");
    let rule = json!({"verbs": ["get", "list"], "apiGroups": [""], "resources": ["pods"]});
    let subject = json!({"kind": "ServiceAccount", "name": "default", "namespace": "demo"});
    vec![
        json!({"kind": "PodTemplate", "apiVersion": "v1", "metadata": meta("pt", ns),
               "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}),
        json!({"kind": "Binding", "apiVersion": "v1", "metadata": meta("web-0", ns),
               "target": {"kind": "Node", "name": "capa-lab"}}),
        json!({"kind": "ControllerRevision", "apiVersion": "apps/v1",
               "metadata": meta("db-5d8f7c9b6", ns),
               "data": {"spec": {"template": {"$patch": "replace", "metadata": {"labels": {"app": "db"}}}}},
               "revision": 2}),
        json!({"kind": "Role", "apiVersion": "rbac.authorization.k8s.io/v1", "metadata": meta("reader", ns),
               "rules": [rule]}),
        json!({"kind": "RoleBinding", "apiVersion": "rbac.authorization.k8s.io/v1", "metadata": meta("reader", ns),
               "subjects": [subject],
               "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "reader"}}),
        json!({"kind": "ClusterRole", "apiVersion": "rbac.authorization.k8s.io/v1", "metadata": meta("view", None),
               "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"rbac.authorization.k8s.io/aggregate-to-view": "true"}}]},
               "rules": [rule, {"verbs": ["get"], "nonResourceURLs": ["/healthz"]}]}),
        json!({"kind": "ClusterRoleBinding", "apiVersion": "rbac.authorization.k8s.io/v1", "metadata": meta("admins", None),
               "subjects": [{"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": "system:masters"}],
               "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "cluster-admin"}}),
        json!({"kind": "TokenReview", "apiVersion": "authentication.k8s.io/v1", "metadata": {},
               "spec": {"token": "abc"},
               "status": {"authenticated": true, "user": {"username": "system:serviceaccount:demo:default",
                          "groups": ["system:authenticated"], "extra": {"k": ["v"]}}, "audiences": ["k3s"]}}),
        json!({"kind": "SubjectAccessReview", "apiVersion": "authorization.k8s.io/v1", "metadata": {},
               "spec": {"resourceAttributes": {"namespace": "demo", "verb": "list", "resource": "pods"}, "user": "jane"},
               "status": {"allowed": false}}),
        json!({"kind": "LocalSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1", "metadata": {"namespace": "demo"},
               "spec": {"resourceAttributes": {"namespace": "demo", "verb": "get", "resource": "pods"}, "groups": ["devs"]},
               "status": {"allowed": true, "reason": "RBAC: allowed"}}),
    ]
}

fn cluster_kinds() -> Vec<Value> {
    let ns = Some("demo");
    vec![
        json!({"kind": "PriorityClass", "apiVersion": "scheduling.k8s.io/v1", "metadata": meta("system-node-critical", None),
               "value": 2_000_001_000, "description": "critical", "preemptionPolicy": "PreemptLowerPriority"}),
        json!({"kind": "CertificateSigningRequest", "apiVersion": "certificates.k8s.io/v1", "metadata": meta("jane", None),
               "spec": {"request": "LS0tLS1CRUdJTg==", "signerName": "kubernetes.io/kube-apiserver-client",
                        "expirationSeconds": 86400, "usages": ["client auth"], "username": "admin"},
               "status": {"conditions": [{"type": "Approved", "status": "True", "reason": "KubectlApprove",
                          "message": "This CSR was approved by kubectl certificate approve.",
                          "lastUpdateTime": "2026-07-01T12:01:00Z", "lastTransitionTime": "2026-07-01T12:01:00Z"}]}}),
        json!({"kind": "IngressClass", "apiVersion": "networking.k8s.io/v1", "metadata": meta("traefik", None),
               "spec": {"controller": "traefik.io/ingress-controller"}}),
        json!({"kind": "IPAddress", "apiVersion": "networking.k8s.io/v1", "metadata": meta("10.43.0.1", None),
               "spec": {"parentRef": {"resource": "services", "namespace": "default", "name": "kubernetes"}}}),
        json!({"kind": "ServiceCIDR", "apiVersion": "networking.k8s.io/v1", "metadata": meta("kubernetes", None),
               "spec": {"cidrs": ["10.43.0.0/16"]},
               "status": {"conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-07-01T12:00:00Z",
                          "reason": "", "message": "Kubernetes Service CIDR is ready"}]}}),
        json!({"kind": "RuntimeClass", "apiVersion": "node.k8s.io/v1", "metadata": meta("crun", None), "handler": "crun"}),
        json!({"kind": "CSIDriver", "apiVersion": "storage.k8s.io/v1", "metadata": meta("csi.example.com", None),
               "spec": {"attachRequired": true, "podInfoOnMount": false, "volumeLifecycleModes": ["Persistent"],
                        "fsGroupPolicy": "ReadWriteOnceWithFSType", "storageCapacity": false, "requiresRepublish": false,
                        "seLinuxMount": false}}),
        json!({"kind": "CSINode", "apiVersion": "storage.k8s.io/v1", "metadata": meta("capa-lab", None),
               "spec": {"drivers": [{"name": "csi.example.com", "nodeID": "capa-lab", "topologyKeys": ["kubernetes.io/hostname"]}]}}),
        json!({"kind": "CSIStorageCapacity", "apiVersion": "storage.k8s.io/v1", "metadata": meta("cap", ns),
               "storageClassName": "local-path", "capacity": "10Gi"}),
        json!({"kind": "VolumeAttachment", "apiVersion": "storage.k8s.io/v1", "metadata": meta("va", None),
               "spec": {"attacher": "csi.example.com", "source": {"persistentVolumeName": "pv1"}, "nodeName": "capa-lab"},
               "status": {"attached": true}}),
        json!({"kind": "VolumeAttributesClass", "apiVersion": "storage.k8s.io/v1", "metadata": meta("gold", None),
               "driverName": "csi.example.com", "parameters": {"iops": "1000"}}),
        json!({"kind": "FlowSchema", "apiVersion": "flowcontrol.apiserver.k8s.io/v1", "metadata": meta("exempt", None),
               "spec": {"priorityLevelConfiguration": {"name": "exempt"}, "matchingPrecedence": 1,
                        "distinguisherMethod": {"type": "ByUser"},
                        "rules": [{"subjects": [{"kind": "Group", "group": {"name": "system:masters"}}],
                                   "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "clusterScope": true, "namespaces": ["*"]}],
                                   "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]}]}}),
        json!({"kind": "PriorityLevelConfiguration", "apiVersion": "flowcontrol.apiserver.k8s.io/v1", "metadata": meta("global-default", None),
               "spec": {"type": "Limited", "limited": {"nominalConcurrencyShares": 20, "lendablePercent": 50,
                        "limitResponse": {"type": "Queue", "queuing": {"queues": 128, "handSize": 6, "queueLengthLimit": 50}}}}}),
    ]
}

fn admission_and_resource() -> Vec<Value> {
    let ns = Some("demo");
    let service = json!({"namespace": "demo", "name": "hook", "path": "/check", "port": 443});
    let rules = json!([{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"], "scope": "*"}]);
    vec![
        json!({"kind": "MutatingWebhookConfiguration", "apiVersion": "admissionregistration.k8s.io/v1", "metadata": meta("mutate", None),
               "webhooks": [{"name": "m.example.com", "clientConfig": {"service": service}, "rules": rules,
                             "failurePolicy": "Fail", "sideEffects": "None", "admissionReviewVersions": ["v1"],
                             "timeoutSeconds": 10, "reinvocationPolicy": "Never", "matchPolicy": "Equivalent"}]}),
        json!({"kind": "ValidatingWebhookConfiguration", "apiVersion": "admissionregistration.k8s.io/v1", "metadata": meta("validate", None),
               "webhooks": [{"name": "v.example.com", "clientConfig": {"service": service}, "rules": rules,
                             "failurePolicy": "Ignore", "sideEffects": "None", "admissionReviewVersions": ["v1"], "timeoutSeconds": 5}]}),
        json!({"kind": "ValidatingAdmissionPolicy", "apiVersion": "admissionregistration.k8s.io/v1", "metadata": meta("replicas", None),
               "spec": {"failurePolicy": "Fail",
                        "matchConstraints": {"resourceRules": [{"operations": ["CREATE"], "apiGroups": ["apps"], "apiVersions": ["v1"], "resources": ["deployments"]}]},
                        "validations": [{"expression": "object.spec.replicas <= 5"}]},
               "status": {"observedGeneration": 1}}),
        json!({"kind": "ValidatingAdmissionPolicyBinding", "apiVersion": "admissionregistration.k8s.io/v1", "metadata": meta("replicas", None),
               "spec": {"policyName": "replicas", "validationActions": ["Deny"]}}),
        json!({"kind": "APIService", "apiVersion": "apiregistration.k8s.io/v1", "metadata": meta("v1beta1.metrics.k8s.io", None),
               "spec": {"service": {"namespace": "kube-system", "name": "metrics-server", "port": 443},
                        "group": "metrics.k8s.io", "version": "v1beta1", "insecureSkipTLSVerify": true,
                        "groupPriorityMinimum": 100, "versionPriority": 100},
               "status": {"conditions": [{"type": "Available", "status": "True", "lastTransitionTime": "2026-07-01T12:00:00Z",
                          "reason": "Passed", "message": "all checks passed"}]}}),
        json!({"kind": "DeviceClass", "apiVersion": "resource.k8s.io/v1", "metadata": meta("gpu", None),
               "spec": {"selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}}]}}),
        json!({"kind": "ResourceClaim", "apiVersion": "resource.k8s.io/v1", "metadata": meta("claim", ns),
               "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu", "allocationMode": "ExactCount", "count": 1}}]}}}),
        json!({"kind": "ResourceClaimTemplate", "apiVersion": "resource.k8s.io/v1", "metadata": meta("tmpl", ns),
               "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}}),
        json!({"kind": "ResourceSlice", "apiVersion": "resource.k8s.io/v1", "metadata": meta("slice", None),
               "spec": {"driver": "gpu.example.com", "pool": {"name": "capa-lab", "generation": 1, "resourceSliceCount": 1},
                        "nodeName": "capa-lab", "devices": [{"name": "gpu-0"}]}}),
    ]
}
