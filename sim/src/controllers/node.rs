//! The cluster's one Node, `capa-lab`, as a k3s single-node server registers it, and its
//! heartbeat: the kubelet renews its Lease in `kube-node-lease` every 10 s and re-posts the
//! node's conditions every 5 minutes when nothing changed (docs/sim-behaviour.md §15.1).

use std::time::Duration;

use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::{Env, MANAGER};
use crate::clock::{rfc3339, rfc3339_micro};
use crate::objects;
use crate::ops::{self, Actor, Part};
use crate::store::{Event, Key, Store};

/// The one node of the embedded cluster.
pub const NODE_NAME: &str = "capa-lab";
/// The VM's address, which k3s reports as the node's InternalIP and every Pod's hostIP.
pub const NODE_IP: &str = "10.0.2.15";
/// The node's share of k3s's cluster CIDR (10.42.0.0/16): its Pods' addresses.
const POD_CIDR: &str = "10.42.0.0/24";
const NODE_LEASE_NAMESPACE: &str = "kube-node-lease";
/// The kubelet renews its lease every quarter of the lease's 40 s duration.
const LEASE_DURATION_SECS: u64 = 40;
const RENEW_EVERY: Duration = Duration::from_secs(10);
/// `nodeStatusReportFrequency`: how often an unchanged status is posted again.
const REPORT_EVERY: Duration = Duration::from_secs(300);
/// Images the node holds from the start: k3s's pause image.
const PAUSE_IMAGE: &str = "docker.io/rancher/mirrored-pause:3.6";

/// Registers the node and its lease if they are missing (a restarted state dir keeps them).
/// `kubelet_version` is what `/version` reports (`v1.35.2+k3s1`).
pub fn seed(store: &Store, kubelet_version: &str) {
    let actor = Actor::new(MANAGER);
    let node_ty = &crate::kinds::NODE;
    let node = match store.get(&Key::new(node_ty, "", NODE_NAME)) {
        Some(n) => n,
        None => match ops::create(store, node_ty, "", node_object(), &actor) {
            Ok(n) => n,
            Err(e) => {
                tracing::error!("node not registered: {}", e.message);
                return;
            }
        },
    };
    let now = store.clock.now();
    let key = Key::new(node_ty, "", NODE_NAME);
    let info = &node["status"]["nodeInfo"];
    if info["kubeletVersion"] != kubelet_version || info["kubeProxyVersion"].is_null() {
        let status = json!({"status": node_status(kubelet_version, &rfc3339(now), &[])});
        let _ = ops::merge(store, &key, &status, Part::Status, MANAGER);
    }
    let lease_ty = &crate::kinds::LEASE;
    if store
        .get(&Key::new(lease_ty, NODE_LEASE_NAMESPACE, NODE_NAME))
        .is_none()
    {
        let lease = json!({
            "apiVersion": "coordination.k8s.io/v1",
            "kind": "Lease",
            "metadata": {
                "name": NODE_NAME,
                "namespace": NODE_LEASE_NAMESPACE,
                "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": NODE_NAME, "uid": objects::uid(&node)}],
            },
            "spec": {
                "holderIdentity": NODE_NAME,
                "leaseDurationSeconds": LEASE_DURATION_SECS,
                "renewTime": rfc3339_micro(now),
            },
        });
        let _ = ops::create(store, lease_ty, NODE_LEASE_NAMESPACE, lease, &actor);
    }
}

/// Labels, annotations and spec as k3s writes them when the server registers its node.
fn node_object() -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": NODE_NAME,
            "labels": {
                "beta.kubernetes.io/arch": "amd64",
                "beta.kubernetes.io/instance-type": "k3s",
                "beta.kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
                "kubernetes.io/hostname": NODE_NAME,
                "kubernetes.io/os": "linux",
                "node-role.kubernetes.io/control-plane": "true",
                "node-role.kubernetes.io/master": "true",
                "node.kubernetes.io/instance-type": "k3s",
            },
            "annotations": {
                "alpha.kubernetes.io/provided-node-ip": NODE_IP,
                "flannel.alpha.coreos.com/backend-data": "{\"VNI\":1,\"VtepMAC\":\"6a:1c:3e:9b:52:0d\"}",
                "flannel.alpha.coreos.com/backend-type": "vxlan",
                "flannel.alpha.coreos.com/kube-subnet-manager": "true",
                "flannel.alpha.coreos.com/public-ip": NODE_IP,
                "k3s.io/hostname": NODE_NAME,
                "k3s.io/internal-ip": NODE_IP,
                "k3s.io/node-args": "[\"server\"]",
                "k3s.io/node-env": "{}",
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true",
            },
        },
        "spec": {
            "podCIDR": POD_CIDR,
            "podCIDRs": [POD_CIDR],
            "providerID": format!("k3s://{NODE_NAME}"),
        },
    })
}

/// The status the kubelet posts: capacity of a 2-CPU, 4 GiB VM, healthy conditions last
/// heard from at `heartbeat`, and the images it holds.
fn node_status(kubelet_version: &str, heartbeat: &str, images: &[String]) -> Value {
    let condition = |kind: &str, status: &str, reason: &str, message: &str| {
        json!({"type": kind, "status": status, "lastHeartbeatTime": heartbeat,
               "lastTransitionTime": heartbeat, "reason": reason, "message": message})
    };
    let mut held: Vec<String> = images.to_vec();
    if !held.iter().any(|i| i == PAUSE_IMAGE) {
        held.push(PAUSE_IMAGE.to_string());
    }
    let images: Vec<Value> = held
        .iter()
        .map(|name| json!({"names": [name], "sizeBytes": image_size(name)}))
        .collect();
    json!({
        "capacity": {"cpu": "2", "ephemeral-storage": "31811408Ki", "hugepages-1Gi": "0",
                     "hugepages-2Mi": "0", "memory": "4015140Ki", "pods": "110"},
        "allocatable": {"cpu": "2", "ephemeral-storage": "30945583086", "hugepages-1Gi": "0",
                        "hugepages-2Mi": "0", "memory": "4015140Ki", "pods": "110"},
        "conditions": [
            condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
            condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
            condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
            condition("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
        ],
        "addresses": [{"type": "InternalIP", "address": NODE_IP}, {"type": "Hostname", "address": NODE_NAME}],
        "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
        "nodeInfo": {
            "machineID": "4c4c4544003559108036b2c04f4a3332",
            "systemUUID": "8f1e2a6c-3b4d-4e5f-9a0b-1c2d3e4f5a6b",
            "bootID": "1e0d7c53-92a4-4b8e-b1f6-0c9d2a7e4f11",
            "kernelVersion": "6.8.0-85-generic",
            "osImage": "Ubuntu 24.04.3 LTS",
            "containerRuntimeVersion": "containerd://2.1.5-k3s1",
            "kubeletVersion": kubelet_version,
            // Deprecated and no longer set by the kubelet (1.33+), but Go writes the empty
            // string: a field without omitempty is always there, and the Python client's
            // model requires it (it failed to read this Node before).
            "kubeProxyVersion": "",
            "operatingSystem": "linux",
            "architecture": "amd64",
        },
        "images": images,
        "features": {"supplementalGroupsPolicy": true},
        "runtimeHandlers": [
            {"name": "runc", "features": {"recursiveReadOnlyMounts": true, "userNamespaces": true}},
            {"name": "", "features": {"recursiveReadOnlyMounts": true, "userNamespaces": true}},
        ],
    })
}

/// A plausible compressed size for an image the lab uses (stable for a name).
fn image_size(name: &str) -> u64 {
    let base = if name.contains("nginx") {
        20_000_000
    } else if name.contains("busybox") {
        2_150_000
    } else {
        300_000
    };
    base + name.bytes().map(u64::from).sum::<u64>() * 997
}

/// Keeps the node's heartbeat: lease renewals, and the status re-posted when it is due or the
/// images on the node changed.
pub struct Heartbeat {
    pub kubelet_version: String,
    /// When the next timed look is already due, so Pod events do not pile up timers.
    next_look: Option<jiff::Timestamp>,
}

impl Heartbeat {
    pub fn new(kubelet_version: &str) -> Heartbeat {
        Heartbeat {
            kubelet_version: kubelet_version.to_string(),
            next_look: None,
        }
    }
}

impl Controller for Heartbeat {
    fn keys_for(&self, _env: &Env, event: &Event) -> Vec<Key> {
        // A Pod with an image the node has not held yet changes the node's image list.
        if event.key.ty().kind == "Pod" {
            return vec![node_key()];
        }
        Vec::new()
    }

    fn all_keys(&self, _env: &Env) -> Vec<Key> {
        vec![node_key()]
    }

    fn reconcile(&mut self, env: &Env, _key: &Key) -> Next {
        let now = env.store.clock.now();
        let lease_key = Key::new(&crate::kinds::LEASE, NODE_LEASE_NAMESPACE, NODE_NAME);
        let renewed = env.store.get(&lease_key).and_then(|l| {
            l["spec"]["renewTime"]
                .as_str()
                .and_then(crate::clock::parse)
        });
        let lease_due = renewed.is_none_or(|t| now.duration_since(t).unsigned_abs() >= RENEW_EVERY);
        if lease_due {
            let patch = json!({"spec": {"renewTime": rfc3339_micro(now)}});
            let _ = ops::merge(&env.store, &lease_key, &patch, Part::Main, MANAGER);
        }
        if let Some(node) = env.store.get(&node_key()) {
            self.post_status(env, &node, now);
        }
        if self.next_look.is_some_and(|t| t > now) {
            return Next::Done;
        }
        self.next_look = Some(now + RENEW_EVERY);
        Next::After(RENEW_EVERY)
    }
}

impl Heartbeat {
    fn post_status(&self, env: &Env, node: &Value, now: jiff::Timestamp) {
        let last = node["status"]["conditions"][0]["lastHeartbeatTime"]
            .as_str()
            .and_then(crate::clock::parse);
        let mut images: Vec<String> = node["status"]["images"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["names"][0].as_str().map(String::from))
            .collect();
        let before = images.len();
        for pod in env.store.list(&crate::kinds::POD, None).0 {
            for c in pod["spec"]["containers"].as_array().into_iter().flatten() {
                if let Some(image) = c["image"].as_str().map(qualified_image)
                    && !images.contains(&image)
                {
                    images.push(image);
                }
            }
        }
        let due = last.is_none_or(|t| now.duration_since(t).unsigned_abs() >= REPORT_EVERY);
        if !due && images.len() == before {
            return;
        }
        let heartbeat = if due {
            rfc3339(now)
        } else {
            node["status"]["conditions"][0]["lastHeartbeatTime"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        };
        let mut status = node_status(&self.kubelet_version, &heartbeat, &images);
        // Conditions keep the time they last changed; only the heartbeat moves.
        if let (Some(new), Some(old)) = (
            status["conditions"].as_array_mut(),
            node["status"]["conditions"].as_array(),
        ) {
            for c in new {
                if let Some(o) = old
                    .iter()
                    .find(|o| o["type"] == c["type"] && o["status"] == c["status"])
                {
                    c["lastTransitionTime"] = o["lastTransitionTime"].clone();
                }
            }
        }
        let _ = ops::merge(
            &env.store,
            &node_key(),
            &json!({"status": status}),
            Part::Status,
            MANAGER,
        );
    }
}

fn node_key() -> Key {
    Key::new(&crate::kinds::NODE, "", NODE_NAME)
}

/// `nginx:1.27-alpine` → `docker.io/library/nginx:1.27-alpine`, as containerd names images.
pub fn qualified_image(image: &str) -> String {
    let (repo, _) = image.split_once([':', '@']).unwrap_or((image, ""));
    match repo.split('/').count() {
        1 => format!("docker.io/library/{image}"),
        2 if !repo
            .split('/')
            .next()
            .is_some_and(|h| h.contains(['.', ':'])) =>
        {
            format!("docker.io/{image}")
        }
        _ => image.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything the cluster writes of its own declares only fields the Kubernetes types
    /// have: the protobuf form (which has no place for anything else) reads back the same.
    #[test]
    fn the_seeded_objects_have_only_declared_fields() {
        let store = Store::in_memory(1.0);
        crate::bootstrap::seed(&store);
        seed(&store, "v1.35.2+k3s1");
        super::super::endpoints::seed(&store);
        let mut checked = 0;
        for (_, obj) in store.all() {
            if !matches!(
                obj["kind"].as_str(),
                Some("Node" | "Lease" | "Service" | "Endpoints" | "EndpointSlice")
            ) {
                continue;
            }
            let back = crate::proto::decode(&crate::proto::encode(&obj).unwrap()).unwrap();
            assert_eq!(back, *obj, "{}", obj["kind"]);
            checked += 1;
        }
        assert_eq!(checked, 5);
    }

    #[test]
    fn images_are_named_as_containerd_names_them() {
        assert_eq!(
            qualified_image("nginx:1.27-alpine"),
            "docker.io/library/nginx:1.27-alpine"
        );
        assert_eq!(
            qualified_image("bitnami/kubectl:1"),
            "docker.io/bitnami/kubectl:1"
        );
        assert_eq!(qualified_image("ghcr.io/a/b:1"), "ghcr.io/a/b:1");
    }

    #[test]
    fn a_seeded_node_is_ready_with_its_lease() {
        let store = Store::in_memory(1.0);
        crate::bootstrap::seed(&store);
        seed(&store, "v1.35.2+k3s1");
        let node = store.get(&node_key()).unwrap();
        let ready = node["status"]["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["type"] == "Ready")
            .unwrap();
        assert_eq!(ready["status"], "True");
        assert_eq!(node["status"]["nodeInfo"]["kubeletVersion"], "v1.35.2+k3s1");
        assert_eq!(node["spec"]["podCIDR"], POD_CIDR);
        let lease = store
            .get(&Key::new(
                &crate::kinds::LEASE,
                NODE_LEASE_NAMESPACE,
                NODE_NAME,
            ))
            .unwrap();
        assert_eq!(lease["spec"]["holderIdentity"], NODE_NAME);
        assert_eq!(
            lease["metadata"]["ownerReferences"][0]["uid"],
            objects::uid(&node)
        );
    }
}
