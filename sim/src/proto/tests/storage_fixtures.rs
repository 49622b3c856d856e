//! Objects of the kinds `kubectl apply --prune` looks after (PersistentVolumeClaim,
//! PersistentVolume, CronJob, Ingress) and the reviews (`kubectl auth can-i`, `whoami`), as
//! the API server stores or answers them.

use serde_json::{Value, json};

fn meta(name: &str, namespace: Option<&str>) -> Value {
    let mut m = json!({"name": name, "uid": format!("u-{name}"), "resourceVersion": "31",
           "creationTimestamp": "2026-07-01T12:00:00Z", "finalizers": ["kubernetes.io/pvc-protection"]});
    if let Some(ns) = namespace {
        m["namespace"] = json!(ns);
    }
    m
}

pub fn objects() -> Vec<Value> {
    vec![
        json!({"kind": "PersistentVolumeClaim", "apiVersion": "v1", "metadata": meta("data", Some("demo")),
               "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                        "storageClassName": "local-path", "volumeMode": "Filesystem"},
               "status": {"phase": "Pending"}}),
        json!({"kind": "PersistentVolume", "apiVersion": "v1", "metadata": meta("pv-1", None),
               "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
                        "hostPath": {"path": "/tmp/x", "type": ""}, "persistentVolumeReclaimPolicy": "Retain",
                        "volumeMode": "Filesystem",
                        "claimRef": {"kind": "PersistentVolumeClaim", "namespace": "demo", "name": "data"}},
               "status": {"phase": "Available", "lastPhaseTransitionTime": "2026-07-01T12:00:00Z"}}),
        json!({"kind": "CronJob", "apiVersion": "batch/v1", "metadata": meta("nightly", Some("demo")),
               "spec": {"schedule": "*/5 * * * *", "concurrencyPolicy": "Allow", "suspend": false,
                        "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1,
                        "jobTemplate": {"metadata": {}, "spec": {"template": {"metadata": {}, "spec": {
                            "restartPolicy": "OnFailure",
                            "containers": [{"name": "c", "image": "busybox", "imagePullPolicy": "Always"}]}}}}},
               "status": {"lastScheduleTime": "2026-07-01T12:05:00Z"}}),
        json!({"kind": "Ingress", "apiVersion": "networking.k8s.io/v1", "metadata": meta("web", Some("demo")),
               "spec": {"ingressClassName": "traefik", "tls": [{"hosts": ["a.example.com"], "secretName": "tls"}],
                        "rules": [{"host": "a.example.com", "http": {"paths": [{"path": "/", "pathType": "Prefix",
                            "backend": {"service": {"name": "web", "port": {"number": 80}}}}]}}]},
               "status": {"loadBalancer": {"ingress": [{"ip": "10.0.0.5"}]}}}),
        json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
               "metadata": {"managedFields": [{"manager": "kubectl", "operation": "Update",
                    "apiVersion": "authorization.k8s.io/v1", "time": "2026-07-01T12:00:00Z", "fieldsType": "FieldsV1",
                    "fieldsV1": {"f:spec": {"f:resourceAttributes": {".": {}, "f:verb": {}}}}}]},
               "spec": {"resourceAttributes": {"namespace": "demo", "verb": "create", "group": "apps", "resource": "deployments"}},
               "status": {"allowed": true}}),
        json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1", "metadata": {},
               "spec": {"nonResourceAttributes": {"path": "/healthz", "verb": "get"}},
               "status": {"allowed": false, "denied": true, "reason": "no"}}),
        json!({"kind": "SelfSubjectRulesReview", "apiVersion": "authorization.k8s.io/v1", "metadata": {},
               "spec": {}, "status": {"resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]}],
                    "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/healthz"]}], "incomplete": false}}),
        json!({"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
               "metadata": {"creationTimestamp": "2026-07-01T12:00:00Z"},
               "status": {"userInfo": {"username": "system:admin", "groups": ["system:masters", "system:authenticated"],
                    "extra": {"authentication.kubernetes.io/credential-id": ["X509SHA256=ab"]}}}}),
    ]
}
