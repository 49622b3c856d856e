//! Objects of the cluster's own kinds and of Service networking, as the API server stores them
//! (the node, its lease, Endpoints, EndpointSlices) and as metrics-server serves them.

use serde_json::{Value, json};

pub fn objects() -> Vec<Value> {
    vec![
        json!({"kind": "Node", "apiVersion": "v1",
               "metadata": {"name": "capa-lab", "uid": "u-node", "resourceVersion": "5", "creationTimestamp": "2026-07-01T12:00:00Z",
                            "labels": {"kubernetes.io/hostname": "capa-lab", "node-role.kubernetes.io/control-plane": "true"},
                            "annotations": {"k3s.io/node-args": "[\"server\"]"}},
               "spec": {"podCIDR": "10.42.0.0/24", "podCIDRs": ["10.42.0.0/24"], "providerID": "k3s://capa-lab"},
               "status": {"capacity": {"cpu": "2", "memory": "4015140Ki", "pods": "110"},
                          "allocatable": {"cpu": "2", "ephemeral-storage": "30945583086", "memory": "4015140Ki", "pods": "110"},
                          "conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "2026-07-01T12:05:00Z",
                                          "lastTransitionTime": "2026-07-01T12:00:00Z", "reason": "KubeletReady", "message": "kubelet is posting ready status"}],
                          "addresses": [{"type": "InternalIP", "address": "10.0.2.15"}, {"type": "Hostname", "address": "capa-lab"}],
                          "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
                          "nodeInfo": {"machineID": "m", "systemUUID": "s", "bootID": "b", "kernelVersion": "6.8.0-85-generic",
                                       "osImage": "Ubuntu 24.04.3 LTS", "containerRuntimeVersion": "containerd://2.1.5-k3s1",
                                       "kubeletVersion": "v1.35.2+k3s1", "kubeProxyVersion": "", "operatingSystem": "linux", "architecture": "amd64"},
                          "images": [{"names": ["docker.io/library/nginx:1.27-alpine"], "sizeBytes": 20_123_456}],
                          "features": {"supplementalGroupsPolicy": true},
                          "runtimeHandlers": [{"name": "runc", "features": {"recursiveReadOnlyMounts": true, "userNamespaces": true}}]}}),
        json!({"kind": "Lease", "apiVersion": "coordination.k8s.io/v1",
               "metadata": {"name": "capa-lab", "namespace": "kube-node-lease", "uid": "u-lease", "resourceVersion": "6",
                            "creationTimestamp": "2026-07-01T12:00:00Z",
                            "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "capa-lab", "uid": "u-node"}]},
               "spec": {"holderIdentity": "capa-lab", "leaseDurationSeconds": 40, "renewTime": "2026-07-01T12:05:10.250000Z"}}),
        json!({"kind": "Endpoints", "apiVersion": "v1",
               "metadata": {"name": "web", "namespace": "demo", "uid": "u-ep", "resourceVersion": "8", "creationTimestamp": "2026-07-01T12:00:00Z",
                            "labels": {"endpoints.kubernetes.io/managed-by": "endpoint-controller"},
                            "annotations": {"endpoints.kubernetes.io/last-change-trigger-time": "2026-07-01T12:00:03Z"}},
               "subsets": [{"addresses": [{"ip": "10.42.0.9", "nodeName": "capa-lab",
                                           "targetRef": {"kind": "Pod", "namespace": "demo", "name": "web-1", "uid": "u-1"}}],
                            "notReadyAddresses": [{"ip": "10.42.0.10", "nodeName": "capa-lab",
                                           "targetRef": {"kind": "Pod", "namespace": "demo", "name": "web-2", "uid": "u-2"}}],
                            "ports": [{"name": "http", "port": 8080, "protocol": "TCP"}]}]}),
        json!({"kind": "EndpointSlice", "apiVersion": "discovery.k8s.io/v1",
               "metadata": {"name": "web-x7k2p", "namespace": "demo", "uid": "u-eps", "resourceVersion": "9", "creationTimestamp": "2026-07-01T12:00:00Z",
                            "generateName": "web-",
                            "labels": {"kubernetes.io/service-name": "web", "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"},
                            "ownerReferences": [{"apiVersion": "v1", "kind": "Service", "name": "web", "uid": "u-svc", "controller": true, "blockOwnerDeletion": true}]},
               "addressType": "IPv4",
               "endpoints": [{"addresses": ["10.42.0.9"], "conditions": {"ready": true, "serving": true, "terminating": false},
                              "nodeName": "capa-lab", "targetRef": {"kind": "Pod", "namespace": "demo", "name": "web-1", "uid": "u-1"}}],
               "ports": [{"name": "", "port": 8080, "protocol": "TCP"}]}),
    ]
}
