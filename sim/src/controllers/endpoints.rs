//! The Endpoints and EndpointSlice controllers (docs/sim-behaviour.md §15.8): for every Service
//! with a selector, an Endpoints object of the same name and one EndpointSlice
//! (`<service>-<random>`, owned by the Service) listing the selected Pods that have an address,
//! ready or not, with the Service's ports resolved against each Pod's containers. k3s's
//! ServiceLB gives a LoadBalancer Service the node's address. The `kubernetes` Service and its
//! endpoints (the API server on the node, port 6443) exist from the start.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::node::NODE_IP;
use super::queue::{Controller, Next};
use super::{Env, MANAGER};
use crate::api::selector::LabelSelector;
use crate::objects;
use crate::ops::{self, Actor, DeleteOptions, Part, service::KUBERNETES_CLUSTER_IP};
use crate::store::{Event, Key, Store};

const SERVICE_NAME_LABEL: &str = "kubernetes.io/service-name";
const SLICE_MANAGED_BY: &str = "endpointslice.kubernetes.io/managed-by";
const SLICE_CONTROLLER: &str = "endpointslice-controller.k8s.io";
const ENDPOINTS_MANAGED_BY: &str = "endpoints.kubernetes.io/managed-by";
const TRIGGER_TIME: &str = "endpoints.kubernetes.io/last-change-trigger-time";

/// The `kubernetes` Service in `default` and its endpoints, as the API server keeps them.
pub fn seed(store: &Store) {
    let actor = Actor::new(MANAGER);
    let (svc_ty, ep_ty, slice_ty) = types();
    let https = json!({"name": "https", "port": 6443, "protocol": "TCP"});
    let objects = [
        (
            svc_ty,
            json!({"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": "kubernetes", "labels": {"component": "apiserver", "provider": "kubernetes"}},
            "spec": {"clusterIP": KUBERNETES_CLUSTER_IP, "clusterIPs": [KUBERNETES_CLUSTER_IP],
                     "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": 6443}]}}),
        ),
        (
            ep_ty,
            json!({"apiVersion": "v1", "kind": "Endpoints",
            "metadata": {"name": "kubernetes", "labels": {"endpointslice.kubernetes.io/skip-mirror": "true"}},
            "subsets": [{"addresses": [{"ip": NODE_IP}], "ports": [https]}]}),
        ),
        (
            slice_ty,
            json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": {"name": "kubernetes", "labels": {SERVICE_NAME_LABEL: "kubernetes"}},
            "addressType": "IPv4",
            "endpoints": [{"addresses": [NODE_IP], "conditions": {"ready": true}}],
            "ports": [https]}),
        ),
    ];
    for (ty, body) in objects {
        if store
            .get(&Key::new(ty, "default", objects::name(&body)))
            .is_none()
        {
            let _ = ops::create(store, ty, "default", body, &actor);
        }
    }
}

fn types() -> (
    &'static crate::kinds::ResourceType,
    &'static crate::kinds::ResourceType,
    &'static crate::kinds::ResourceType,
) {
    (
        &crate::kinds::SERVICE,
        &crate::kinds::ENDPOINTS,
        &crate::kinds::ENDPOINT_SLICE,
    )
}

pub struct Endpoints;

impl Controller for Endpoints {
    fn keys_for(&self, env: &Env, event: &Event) -> Vec<Key> {
        let svc_ty = &crate::kinds::SERVICE;
        match event.key.ty().kind {
            "Service" => vec![event.key.clone()],
            // A Pod (or its readiness) changed: every Service of its namespace looks again.
            "Pod" => env
                .store
                .list(svc_ty, Some(&event.key.namespace))
                .0
                .iter()
                .map(|s| Key::new(svc_ty, &event.key.namespace, objects::name(s)))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        let svc_ty = &crate::kinds::SERVICE;
        env.store
            .list(svc_ty, None)
            .0
            .iter()
            .map(|s| Key::new(svc_ty, objects::namespace(s), objects::name(s)))
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let (_, ep_ty, _) = types();
        let Some(svc) = env.store.get(key).filter(|s| !objects::is_deleting(s)) else {
            // The Endpoints go with their Service; the slices by garbage collection.
            let _ = ops::delete(
                &env.store,
                ep_ty,
                &key.namespace,
                &key.name,
                &DeleteOptions::default(),
            );
            return Next::Done;
        };
        let Some(selector) = svc["spec"]["selector"]
            .as_object()
            .filter(|s| !s.is_empty())
        else {
            return Next::Done;
        };
        let selector = selector
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(",");
        let Ok(selector) = LabelSelector::parse(&selector) else {
            return Next::Done;
        };
        let pods: Vec<_> = env
            .store
            .list(&crate::kinds::POD, Some(&key.namespace))
            .0
            .into_iter()
            .filter(|p| selector.matches(p) && !objects::is_deleting(p))
            .filter(|p| p["status"]["podIP"].is_string())
            .filter(|p| !matches!(p["status"]["phase"].as_str(), Some("Succeeded" | "Failed")))
            .collect();
        write_endpoints(env, &svc, &pods);
        write_slice(env, &svc, &pods);
        if svc["spec"]["type"] == "LoadBalancer" {
            let ingress = json!({"loadBalancer": {"ingress": [{"ip": NODE_IP, "ipMode": "VIP"}]}});
            if svc["status"] != ingress {
                let _ = ops::merge(
                    &env.store,
                    key,
                    &json!({"status": ingress}),
                    Part::Status,
                    MANAGER,
                );
            }
        }
        Next::Done
    }
}

fn ready(pod: &Value) -> bool {
    pod["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Ready" && c["status"] == "True")
}

/// A Service port's target on `pod`: a number, or the container port of that name.
fn target_port(port: &Value, pod: &Value) -> Option<i64> {
    match &port["targetPort"] {
        Value::Number(n) => n.as_i64(),
        Value::String(name) => pod["spec"]["containers"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|c| c["ports"].as_array().into_iter().flatten())
            .find(|p| p["name"] == name.as_str())
            .and_then(|p| p["containerPort"].as_i64()),
        _ => port["port"].as_i64(),
    }
}

fn target_ref(pod: &Value) -> Value {
    json!({"kind": "Pod", "namespace": objects::namespace(pod), "name": objects::name(pod), "uid": objects::uid(pod)})
}

fn labels(svc: &Value, extra: (&str, &str)) -> Value {
    let mut labels = svc["metadata"]["labels"].clone();
    if !labels.is_object() {
        labels = json!({});
    }
    labels[extra.0] = json!(extra.1);
    labels
}

/// Subsets group addresses by the ports they resolve to; ready and not-ready apart.
fn write_endpoints(env: &Env, svc: &Value, pods: &[std::sync::Arc<Value>]) {
    let (_, ep_ty, _) = types();
    let mut subsets: BTreeMap<String, (Value, Vec<Value>, Vec<Value>)> = BTreeMap::new();
    for pod in pods {
        let ports: Vec<Value> = svc["spec"]["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| {
                let mut out = json!({"port": target_port(p, pod)?, "protocol": p["protocol"].as_str().unwrap_or("TCP")});
                if let Some(name) = p["name"].as_str().filter(|n| !n.is_empty()) {
                    out["name"] = json!(name);
                }
                Some(out)
            })
            .collect();
        let address = json!({"ip": pod["status"]["podIP"], "nodeName": pod["spec"]["nodeName"], "targetRef": target_ref(pod)});
        let entry = subsets
            .entry(Value::Array(ports.clone()).to_string())
            .or_insert_with(|| (Value::Array(ports), Vec::new(), Vec::new()));
        if ready(pod) {
            entry.1.push(address);
        } else {
            entry.2.push(address);
        }
    }
    let subsets: Vec<Value> = subsets
        .into_values()
        .map(|(ports, ready, not_ready)| {
            let mut s = json!({"ports": ports});
            if !ready.is_empty() {
                s["addresses"] = json!(ready);
            }
            if !not_ready.is_empty() {
                s["notReadyAddresses"] = json!(not_ready);
            }
            s
        })
        .collect();
    let (ns, name) = (objects::namespace(svc), objects::name(svc));
    let key = Key::new(ep_ty, ns, name);
    let now = env.store.clock.now_rfc3339();
    let labels = labels(svc, (ENDPOINTS_MANAGED_BY, "endpoint-controller"));
    match env.store.get(&key) {
        Some(old)
            if old["subsets"] == json!(subsets)
                || (old["subsets"].is_null() && subsets.is_empty()) => {}
        Some(_) => {
            let body = if subsets.is_empty() {
                Value::Null
            } else {
                json!(subsets)
            };
            let patch = json!({"metadata": {"labels": labels, "annotations": {TRIGGER_TIME: now}}, "subsets": body});
            let _ = ops::merge(&env.store, &key, &patch, Part::Main, MANAGER);
        }
        None => {
            let mut body = json!({"apiVersion": "v1", "kind": "Endpoints",
                "metadata": {"name": name, "labels": labels, "annotations": {TRIGGER_TIME: now}}});
            if !subsets.is_empty() {
                body["subsets"] = json!(subsets);
            }
            let _ = ops::create(&env.store, ep_ty, ns, body, &Actor::new(MANAGER));
        }
    }
}

fn write_slice(env: &Env, svc: &Value, pods: &[std::sync::Arc<Value>]) {
    let (_, _, slice_ty) = types();
    let (ns, name) = (objects::namespace(svc), objects::name(svc));
    let endpoints: Vec<Value> = pods
        .iter()
        .map(|pod| {
            let ok = ready(pod);
            json!({"addresses": [pod["status"]["podIP"]],
                   "conditions": {"ready": ok, "serving": ok, "terminating": false},
                   "nodeName": pod["spec"]["nodeName"], "targetRef": target_ref(pod)})
        })
        .collect();
    // Ports as the first Pod resolves them (one slice; the real controller splits by ports).
    let ports: Vec<Value> = svc["spec"]["ports"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let port = pods.first().and_then(|pod| target_port(p, pod));
            json!({"name": p["name"].as_str().unwrap_or_default(), "port": port,
                   "protocol": p["protocol"].as_str().unwrap_or("TCP")})
        })
        .collect();
    let existing = env.store.list(slice_ty, Some(ns)).0.into_iter().find(|s| {
        s["metadata"]["labels"][SERVICE_NAME_LABEL] == name
            && objects::controller_of(s).is_some_and(|o| o["uid"] == objects::uid(svc))
    });
    let now = env.store.clock.now_rfc3339();
    let mut labels = labels(svc, (SERVICE_NAME_LABEL, name));
    labels[SLICE_MANAGED_BY] = json!(SLICE_CONTROLLER);
    // No Pods: the placeholder slice, whose lists are nil (`null`, as Go writes them).
    let ports = if pods.is_empty() {
        Value::Null
    } else {
        json!(ports)
    };
    let endpoints = if endpoints.is_empty() {
        Value::Null
    } else {
        json!(endpoints)
    };
    match existing {
        Some(old) if old["endpoints"] == endpoints && old["ports"] == ports => {}
        Some(old) => {
            let key = Key::new(slice_ty, ns, objects::name(&old));
            let patch = json!({"metadata": {"annotations": {TRIGGER_TIME: now}}, "endpoints": endpoints, "ports": ports});
            let _ = ops::merge(&env.store, &key, &patch, Part::Main, MANAGER);
        }
        None => {
            let body = json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
                "metadata": {"generateName": format!("{name}-"), "labels": labels,
                             "annotations": {TRIGGER_TIME: now},
                             "ownerReferences": [objects::owner_reference(svc, true)]},
                "addressType": "IPv4", "endpoints": endpoints, "ports": ports});
            let _ = ops::create(&env.store, slice_ty, ns, body, &Actor::new(MANAGER));
        }
    }
}
