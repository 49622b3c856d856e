//! What an Argo CD install leaves in the cluster that the lab reads: the `argocd` namespace,
//! the `argocd-cm` ConfigMap (no `application.resourceTrackingMethod`: the 3.x default,
//! annotation tracking, applies) and the `default` AppProject.

use serde_json::json;

use crate::kinds::by_kind;
use crate::ops::{self, Actor};
use crate::store::{Key, Store};

pub const NAMESPACE: &str = "argocd";

pub fn seed(store: &Store) {
    let actor = Actor::new("kubectl-client-side-apply");
    let objects = [
        (
            "v1",
            "Namespace",
            "",
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE}}),
        ),
        (
            "v1",
            "ConfigMap",
            NAMESPACE,
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "argocd-cm", "labels": {"app.kubernetes.io/name": "argocd-cm", "app.kubernetes.io/part-of": "argocd"}}}),
        ),
        (
            "argoproj.io/v1alpha1",
            "AppProject",
            NAMESPACE,
            json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "AppProject", "metadata": {"name": "default"},
                   "spec": {"sourceRepos": ["*"], "destinations": [{"namespace": "*", "server": "*"}], "clusterResourceWhitelist": [{"group": "*", "kind": "*"}]}}),
        ),
    ];
    for (api_version, kind, ns, body) in objects {
        let Some(ty) = by_kind(api_version, kind) else {
            continue;
        };
        let name = body["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if store.get(&Key::new(ty, ns, &name)).is_none() {
            let _ = ops::create(store, ty, ns, body, &actor);
        }
    }
}
