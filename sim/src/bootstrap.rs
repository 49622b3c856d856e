//! What a fresh embedded cluster holds before anyone writes: the namespaces k3s starts with, its
//! `local-path` StorageClass, and the CustomResourceDefinitions of Argo CD's Application and
//! AppProject.

mod defaults;
mod rbac;

use std::borrow::Cow;

use serde_json::{Value, json};

use super::kinds::{ResourceType, TYPES};
use super::ops::{self, Actor};
use super::store::{Key, Store};

const NAMESPACES: &[&str] = &["default", "kube-system", "kube-public", "kube-node-lease"];

/// Creates whatever of the initial objects is missing (a restarted state dir keeps the rest).
pub fn seed(store: &Store) {
    let actor = Actor::new("k3s");
    let ns_ty = &crate::kinds::NAMESPACE;
    for name in NAMESPACES {
        if store.get(&Key::new(ns_ty, "", name)).is_none() {
            let body = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}});
            let _ = ops::create(store, ns_ty, "", body, &actor);
        }
    }
    let sc_ty = &crate::kinds::STORAGE_CLASS;
    if store.get(&Key::new(sc_ty, "", "local-path")).is_none() {
        let _ = ops::create(store, sc_ty, "", local_path_class(), &actor);
    }
    seed_server_defaults(store, &actor);
    let crd_ty = &crate::kinds::CUSTOM_RESOURCE_DEFINITION;
    for crd in crds() {
        let name = crd["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if store.get(&Key::new(crd_ty, "", &name)).is_none() {
            let _ = ops::create(
                store,
                crd_ty,
                "",
                crd,
                &Actor::new("kubectl-client-side-apply"),
            );
        }
    }
}

/// What the API server bootstraps for itself: RBAC's defaults, the system PriorityClasses,
/// the `kubernetes` ServiceCIDR and API Priority and Fairness's configuration.
fn seed_server_defaults(store: &Store, actor: &Actor) {
    use crate::kinds::{
        CLUSTER_ROLE, CLUSTER_ROLE_BINDING, FLOW_SCHEMA, PRIORITY_CLASS,
        PRIORITY_LEVEL_CONFIGURATION, SERVICE_CIDR,
    };
    let sets = [
        (&CLUSTER_ROLE, rbac::cluster_roles()),
        (&CLUSTER_ROLE_BINDING, rbac::cluster_role_bindings()),
        (&PRIORITY_CLASS, defaults::priority_classes()),
        (&SERVICE_CIDR, vec![defaults::service_cidr()]),
        (&PRIORITY_LEVEL_CONFIGURATION, defaults::priority_levels()),
        (&FLOW_SCHEMA, defaults::flow_schemas()),
    ];
    for (ty, objects) in sets {
        for obj in objects {
            let name = obj["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            if store.get(&Key::new(ty, "", &name)).is_none() {
                let _ = ops::create(store, ty, "", obj, actor);
            }
        }
    }
}

/// The StorageClass k3s ships (`manifests/local-storage.yaml`, applied by its deploy controller
/// as the `local-storage` Addon): the default class, provisioned by local-path-provisioner.
fn local_path_class() -> Value {
    json!({
        "apiVersion": "storage.k8s.io/v1",
        "kind": "StorageClass",
        "metadata": {
            "name": "local-path",
            "annotations": {
                "objectset.rio.cattle.io/id": "",
                "objectset.rio.cattle.io/owner-gvk": "k3s.cattle.io/v1, Kind=Addon",
                "objectset.rio.cattle.io/owner-name": "local-storage",
                "objectset.rio.cattle.io/owner-namespace": "kube-system",
                "storageclass.kubernetes.io/is-default-class": "true",
            },
            "labels": {"objectset.rio.cattle.io/hash": "183f35c65ffbc3064603f43f1580d8c68a2dabd4"},
        },
        "provisioner": "rancher.io/local-path",
        "reclaimPolicy": "Delete",
        "volumeBindingMode": "WaitForFirstConsumer",
    })
}

/// CRDs for every custom type in the kinds table.
fn crds() -> Vec<Value> {
    TYPES
        .iter()
        .filter(|t| !t.builtin)
        .map(|t| crd_of(t).into_owned())
        .collect()
}

/// The CRD the cluster installs for one of its own custom types: Argo CD's own where vendored
/// (Application, AppProject), else one written from the kinds table that keeps any field.
/// Borrowed when vendored: Argo CD's Application CRD is 350 KB.
pub(crate) fn crd_of(t: &ResourceType) -> Cow<'static, Value> {
    if let Some(crd) = crate::validation::argocd_crd(t) {
        return Cow::Borrowed(crd);
    }
    Cow::Owned(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {
            "name": format!("{}.{}", t.plural, t.group),
            "labels": {"app.kubernetes.io/name": format!("{}.{}", t.plural, t.group), "app.kubernetes.io/part-of": "argocd"},
        },
        "spec": {
            "group": t.group,
            "names": {"kind": t.kind, "listKind": format!("{}List", t.kind), "plural": t.plural, "singular": t.singular, "shortNames": t.short_names},
            "scope": "Namespaced",
            "versions": [{
                "name": t.version,
                "served": true,
                "storage": true,
                "additionalPrinterColumns": [],
                "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
                "subresources": {},
            }],
        },
    }))
}
