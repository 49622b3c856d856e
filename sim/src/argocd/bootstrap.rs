//! What an Argo CD install leaves in the cluster (docs/sim-behaviour.md §16.8): the `argocd`
//! namespace with the objects of `install.yaml` (see `install`), the `default` AppProject the
//! server creates, and the lab VM's git daemon in `gitsrv`.

use serde_json::{Value, json};

use super::install;
use crate::kinds::by_kind;
use crate::ops::{self, Actor};
use crate::store::{Key, Store};

pub const NAMESPACE: &str = "argocd";

/// Creates whatever of the install is missing (a restarted state dir keeps the rest).
pub fn seed(store: &Store) {
    let actor = Actor::new("kubectl-client-side-apply");
    let mut objects: Vec<Value> =
        vec![json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE}})];
    objects.extend(install::objects());
    // `initializeDefaultProject`; Go writes the empty status struct too.
    objects.push(json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "AppProject", "metadata": {"name": "default"},
        "spec": {"sourceRepos": ["*"], "destinations": [{"namespace": "*", "server": "*"}], "clusterResourceWhitelist": [{"group": "*", "kind": "*"}]},
        "status": {}}));
    objects.extend(install::gitsrv_objects());
    for body in objects {
        let (Some(api_version), Some(kind)) = (body["apiVersion"].as_str(), body["kind"].as_str())
        else {
            continue;
        };
        let Some(ty) = by_kind(api_version, kind) else {
            continue;
        };
        let ns = if ty.namespaced {
            body["metadata"]["namespace"]
                .as_str()
                .unwrap_or(NAMESPACE)
                .to_string()
        } else {
            String::new()
        };
        let name = body["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if store.get(&Key::new(ty, &ns, &name)).is_none() {
            let _ = ops::create(store, ty, &ns, body, &actor);
        }
    }
}
