//! Objects of the policy kinds (HPA in both versions, PDB, NetworkPolicy, StorageClass,
//! ResourceQuota, LimitRange, events.k8s.io Events), as the API server stores and serves them.

use serde_json::{Value, json};

fn meta(name: &str) -> Value {
    json!({"name": name, "namespace": "demo", "uid": format!("u-{name}"), "resourceVersion": "21",
           "creationTimestamp": "2026-07-01T12:00:00Z"})
}

pub fn objects() -> Vec<Value> {
    let target = json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"});
    vec![
        json!({"kind": "HorizontalPodAutoscaler", "apiVersion": "autoscaling/v2", "metadata": meta("web"),
               "spec": {"scaleTargetRef": target, "minReplicas": 1, "maxReplicas": 5,
                        "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}}}],
                        "behavior": {"scaleUp": {"stabilizationWindowSeconds": 0, "selectPolicy": "Max",
                                     "policies": [{"type": "Pods", "value": 4, "periodSeconds": 15}]}}},
               "status": {"currentReplicas": 2, "desiredReplicas": 3, "lastScaleTime": "2026-07-01T12:01:00Z",
                          "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 90, "averageValue": "90m"}}}],
                          "conditions": [{"type": "AbleToScale", "status": "True", "lastTransitionTime": "2026-07-01T12:00:30Z",
                                          "reason": "SucceededRescale", "message": "the HPA controller was able to update the target scale to 3"}]}}),
        json!({"kind": "HorizontalPodAutoscaler", "apiVersion": "autoscaling/v1", "metadata": meta("old"),
               "spec": {"scaleTargetRef": target, "minReplicas": 1, "maxReplicas": 3, "targetCPUUtilizationPercentage": 80},
               "status": {"currentReplicas": 1, "desiredReplicas": 1, "currentCPUUtilizationPercentage": 2}}),
        json!({"kind": "PodDisruptionBudget", "apiVersion": "policy/v1", "metadata": meta("web"),
               "spec": {"minAvailable": "50%", "selector": {"matchLabels": {"app": "web"}}},
               "status": {"currentHealthy": 2, "desiredHealthy": 1, "disruptionsAllowed": 1, "expectedPods": 2, "observedGeneration": 1}}),
        json!({"kind": "NetworkPolicy", "apiVersion": "networking.k8s.io/v1", "metadata": meta("deny"),
               "spec": {"podSelector": {"matchLabels": {"app": "web"}}, "policyTypes": ["Ingress"],
                        "ingress": [{"from": [{"podSelector": {}}], "ports": [{"protocol": "TCP", "port": 80}, {"protocol": "TCP", "port": "http"}]}]}}),
        json!({"kind": "StorageClass", "apiVersion": "storage.k8s.io/v1",
               "metadata": {"name": "local-path", "uid": "u-sc", "resourceVersion": "3", "creationTimestamp": "2026-07-01T12:00:00Z",
                            "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
               "provisioner": "rancher.io/local-path", "reclaimPolicy": "Delete", "volumeBindingMode": "WaitForFirstConsumer"}),
        json!({"kind": "ResourceQuota", "apiVersion": "v1", "metadata": meta("counts"),
               "spec": {"hard": {"pods": "10", "configmaps": "5", "requests.cpu": "2"}},
               "status": {"hard": {"pods": "10", "configmaps": "5", "requests.cpu": "2"}, "used": {"pods": "1", "configmaps": "1", "requests.cpu": "100m"}}}),
        json!({"kind": "LimitRange", "apiVersion": "v1", "metadata": meta("defaults"),
               "spec": {"limits": [{"type": "Container", "default": {"cpu": "500m"}, "defaultRequest": {"cpu": "100m", "memory": "64Mi"}, "max": {"cpu": "1"}}]}}),
        json!({"kind": "Event", "apiVersion": "events.k8s.io/v1", "metadata": meta("web.1"),
               "eventTime": "2026-07-01T12:00:00.123456Z", "reportingController": "default-scheduler", "reportingInstance": "default-scheduler-capa-lab",
               "action": "Binding", "reason": "Scheduled", "regarding": {"kind": "Pod", "namespace": "demo", "name": "web-1", "uid": "u-1", "apiVersion": "v1", "resourceVersion": "5"},
               "note": "Successfully assigned demo/web-1 to capa-lab", "type": "Normal",
               "deprecatedFirstTimestamp": null, "deprecatedLastTimestamp": null, "deprecatedSource": {}}),
    ]
}
