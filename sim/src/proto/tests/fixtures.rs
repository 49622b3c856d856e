//! One object of each kind the codec serves, written as the API server stores them, using as
//! many kinds of field as possible: times, quantities, int-or-strings, bytes, maps, inlined
//! structs, managed fields, pointers set to zero, a CRD schema with every union.

use serde_json::{Value, json};

fn meta(name: &str, namespace: Option<&str>) -> Value {
    let mut m = json!({
        "name": name,
        "uid": "6b1f2c7e-0000-4000-8000-000000000001",
        "resourceVersion": "17",
        "generation": 2,
        "creationTimestamp": "2026-07-01T12:00:00Z",
        "labels": {"app": "web", "empty": ""},
        "annotations": {"note": "a\nmultiline\nvalue"},
        "managedFields": [{
            "manager": "kubectl",
            "operation": "Apply",
            "apiVersion": "v1",
            "time": "2026-07-01T12:00:00Z",
            "fieldsType": "FieldsV1",
            "fieldsV1": {"f:metadata": {"f:labels": {"f:app": {}}}}
        }]
    });
    if let Some(ns) = namespace {
        m["namespace"] = json!(ns);
    }
    m
}

fn pod_spec() -> Value {
    json!({
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 0,
        "serviceAccountName": "default",
        "automountServiceAccountToken": false,
        "volumes": [
            {"name": "config", "configMap": {"name": "web", "defaultMode": 420, "items": [{"key": "a", "path": "a.txt"}]}},
            {"name": "cache", "emptyDir": {"sizeLimit": "64Mi"}},
            {"name": "secret", "secret": {"secretName": "web", "optional": true}}
        ],
        "containers": [{
            "name": "web",
            "image": "nginx:1.27",
            "command": ["sh", "-c", "echo hi"],
            "ports": [{"name": "http", "containerPort": 80, "protocol": "TCP"}],
            "env": [
                {"name": "PLAIN", "value": "1"},
                {"name": "FROM_CM", "valueFrom": {"configMapKeyRef": {"name": "web", "key": "a", "optional": false}}}
            ],
            "envFrom": [{"secretRef": {"name": "web"}}],
            "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}, "requests": {"cpu": "100m"}},
            "readinessProbe": {"httpGet": {"path": "/", "port": "http", "scheme": "HTTP"}, "initialDelaySeconds": 2, "periodSeconds": 5},
            "livenessProbe": {"tcpSocket": {"port": 80}, "failureThreshold": 3},
            "volumeMounts": [{"name": "config", "mountPath": "/etc/web", "readOnly": true}],
            "securityContext": {"runAsUser": 0, "allowPrivilegeEscalation": false},
            "imagePullPolicy": "IfNotPresent",
            "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "File"
        }],
        "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 0}]
    })
}

fn template() -> Value {
    json!({"metadata": {"labels": {"app": "web"}, "creationTimestamp": null}, "spec": pod_spec()})
}

fn crd() -> Value {
    let schema = json!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "required": ["spec"],
        "properties": {
            "spec": {
                "type": "object",
                "properties": {
                    "replicas": {"type": "integer", "minimum": 0, "default": 1},
                    "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                    "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "strict": {"type": "object", "additionalProperties": false},
                    "mode": {"type": "string", "enum": ["a", "b"], "pattern": "^[ab]$"}
                },
                "dependencies": {"port": ["replicas"]}
            }
        }
    });
    json!({
        "kind": "CustomResourceDefinition",
        "apiVersion": "apiextensions.k8s.io/v1",
        "metadata": meta("widgets.example.com", None),
        "spec": {
            "group": "example.com",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList", "shortNames": ["wd"]},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema},
                          "subresources": {"status": {}},
                          "additionalPrinterColumns": [{"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}]}]
        },
        "status": {"acceptedNames": {"plural": "widgets", "kind": "Widget"}, "storedVersions": ["v1"],
                   "conditions": [{"type": "Established", "status": "True", "lastTransitionTime": "2026-07-01T12:00:01Z", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted"}]}
    })
}

pub fn objects() -> Vec<Value> {
    let ns = Some("demo");
    let mut all = vec![
        json!({"kind": "Namespace", "apiVersion": "v1", "metadata": meta("demo", None),
               "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}),
        json!({"kind": "ConfigMap", "apiVersion": "v1", "metadata": meta("web", ns),
               "data": {"a": "b", "empty": ""}, "binaryData": {"bin": "AAEC/w=="}, "immutable": false}),
        json!({"kind": "Secret", "apiVersion": "v1", "type": "helm.sh/release.v1",
               "metadata": meta("sh.helm.release.v1.demo.v1", ns),
               "data": {"release": "SDRzSUFBQUFBQUFDLzZ5Uw=="}}),
        json!({"kind": "Pod", "apiVersion": "v1", "metadata": {
                   "name": "web-1", "namespace": "demo", "uid": "u-1", "resourceVersion": "9",
                   "creationTimestamp": "2026-07-01T12:00:00Z",
                   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-5d", "uid": "u-rs", "controller": true, "blockOwnerDeletion": true}]},
               "spec": pod_spec(),
               "status": {"phase": "Running", "podIP": "10.42.0.9", "startTime": "2026-07-01T12:00:01Z",
                          "conditions": [{"type": "Ready", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2026-07-01T12:00:03Z"}],
                          "containerStatuses": [{"name": "web", "ready": true, "restartCount": 0, "image": "nginx:1.27", "imageID": "", "started": true,
                                                 "state": {"running": {"startedAt": "2026-07-01T12:00:02Z"}}, "lastState": {}}]}}),
        json!({"kind": "Event", "apiVersion": "v1", "metadata": meta("web.1", ns),
               "involvedObject": {"kind": "Pod", "namespace": "demo", "name": "web-1", "uid": "u-1", "apiVersion": "v1"},
               "reason": "Started", "message": "Started container web", "type": "Normal", "count": 1,
               "source": {"component": "kubelet", "host": "capa-lab"},
               "firstTimestamp": "2026-07-01T12:00:02Z", "lastTimestamp": "2026-07-01T12:00:02Z",
               "eventTime": "2026-07-01T12:00:02.123456Z", "reportingComponent": "kubelet", "reportingInstance": "capa-lab"}),
        json!({"kind": "Service", "apiVersion": "v1", "metadata": meta("web", ns),
               "spec": {"type": "ClusterIP", "selector": {"app": "web"}, "clusterIP": "10.43.0.10", "clusterIPs": ["10.43.0.10"],
                        "ports": [{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"},
                                  {"name": "named", "port": 81, "targetPort": "http", "protocol": "TCP"}],
                        "sessionAffinity": "None", "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack", "internalTrafficPolicy": "Cluster"},
               "status": {"loadBalancer": {}}}),
        json!({"kind": "ServiceAccount", "apiVersion": "v1", "metadata": meta("default", ns),
               "automountServiceAccountToken": true, "secrets": [{"name": "t"}], "imagePullSecrets": [{"name": "regcred"}]}),
        json!({"kind": "Deployment", "apiVersion": "apps/v1", "metadata": meta("web", ns),
               "spec": {"replicas": 2, "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
                        "selector": {"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}]},
                        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
                        "template": template()},
               "status": {"observedGeneration": 2, "replicas": 2, "updatedReplicas": 2, "readyReplicas": 2, "availableReplicas": 2,
                          "conditions": [{"type": "Available", "status": "True", "lastUpdateTime": "2026-07-01T12:00:05Z",
                                          "lastTransitionTime": "2026-07-01T12:00:05Z", "reason": "MinimumReplicasAvailable", "message": "ok"}]}}),
        json!({"kind": "ReplicaSet", "apiVersion": "apps/v1", "metadata": meta("web-5d", ns),
               "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "web"}}, "template": template()},
               "status": {"replicas": 0, "observedGeneration": 1}}),
        json!({"kind": "Job", "apiVersion": "batch/v1", "metadata": meta("migrate", ns),
               "spec": {"backoffLimit": 0, "completions": 1, "parallelism": 1, "ttlSecondsAfterFinished": 60, "suspend": false,
                        "completionMode": "NonIndexed", "manualSelector": false,
                        "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "u-job"}},
                        "template": {"metadata": {"creationTimestamp": null}, "spec": {"restartPolicy": "Never", "containers": [{"name": "m", "image": "busybox", "resources": {}}]}}},
               "status": {"succeeded": 1, "startTime": "2026-07-01T12:00:00Z", "completionTime": "2026-07-01T12:00:09Z",
                          "uncountedTerminatedPods": {}, "ready": 0, "terminating": 0,
                          "conditions": [{"type": "Complete", "status": "True", "lastProbeTime": "2026-07-01T12:00:09Z", "lastTransitionTime": "2026-07-01T12:00:09Z"}]}}),
        crd(),
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
               "message": "deployments.apps \"x\" not found", "reason": "NotFound",
               "details": {"name": "x", "group": "apps", "kind": "deployments", "causes": [{"reason": "FieldValueInvalid", "message": "m", "field": "spec"}]},
               "code": 404}),
        json!({"kind": "DeleteOptions", "apiVersion": "meta.k8s.io/v1", "propagationPolicy": "Foreground",
               "gracePeriodSeconds": 0, "preconditions": {"uid": "u-1", "resourceVersion": "9"}, "dryRun": ["All"]}),
        json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": meta("web", ns)}),
        json!({"kind": "Scale", "apiVersion": "autoscaling/v1", "metadata": meta("web", ns),
               "spec": {"replicas": 3}, "status": {"replicas": 2, "selector": "app=web"}}),
    ];
    all.extend(super::cluster_fixtures::objects());
    all.extend(super::policy_fixtures::objects());
    all.extend(super::storage_fixtures::objects());
    all.extend(super::more_fixtures::objects());
    all
}
