//! The component schemas of the built-in kinds, as Kubernetes publishes them
//! (`sim/openapi/kubernetes.json`, written by `scripts/vendor-openapi`): descriptions for
//! `kubectl explain`, and the patch extensions (merge keys, list types) kubectl's
//! strategic-merge patcher reads once a v3 document has a schema for the kind.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{Map, Value};

const VENDORED: &str = include_str!("../../../openapi/kubernetes.json");

#[derive(Deserialize)]
struct Vendored {
    /// Each group-version's document path (`apis/apps/v1`) and the schemas it holds.
    documents: BTreeMap<String, Vec<String>>,
    /// Kubernetes' meta types as a custom resource's document holds them (the CRD builder's
    /// scheme lists fewer group-versions for DeleteOptions than the built-in documents).
    custom_resource_meta: Map<String, Value>,
    schemas: Map<String, Value>,
}

fn vendored() -> &'static Vendored {
    static PARSED: OnceLock<Vendored> = OnceLock::new();
    // The file is this crate's own, parsed by a unit test; were it ever unreadable the
    // documents would go without schemas (as before they had any), never stop the server.
    PARSED.get_or_init(|| {
        serde_json::from_str(VENDORED).unwrap_or_else(|_| Vendored {
            documents: BTreeMap::new(),
            custom_resource_meta: Map::new(),
            schemas: Map::new(),
        })
    })
}

/// The document path of a group-version (`api/v1`, `apis/apps/v1`).
pub fn document_path(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("api/{version}")
    } else {
        format!("apis/{group}/{version}")
    }
}

/// The schemas of a built-in group-version's document (empty for one Kubernetes does not
/// publish, such as metrics-server's `metrics.k8s.io`).
pub fn schemas(group: &str, version: &str) -> Map<String, Value> {
    let v = vendored();
    v.documents
        .get(&document_path(group, version))
        .into_iter()
        .flatten()
        .filter_map(|name| Some((name.clone(), v.schemas.get(name)?.clone())))
        .collect()
}

/// The meta types (ObjectMeta, ListMeta, DeleteOptions, Status...) a custom resource's
/// document adds for its metadata and its operations.
pub fn custom_resource_meta() -> &'static Map<String, Value> {
    &vendored().custom_resource_meta
}

/// Every vendored schema, for the v2 document's definitions.
pub fn all() -> &'static Map<String, Value> {
    &vendored().schemas
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vendored_file_parses_and_covers_every_built_in_group_version() {
        assert!(serde_json::from_str::<Vendored>(VENDORED).is_ok());
        for (g, v) in crate::kinds::group_versions() {
            let has_builtin = crate::kinds::TYPES
                .iter()
                .any(|t| t.builtin && t.group == g && t.version == v);
            if !has_builtin || g == "metrics.k8s.io" {
                continue;
            }
            assert!(
                !schemas(g, v).is_empty(),
                "{g}/{v} has no vendored schemas: add it to scripts/vendor-openapi"
            );
        }
    }

    #[test]
    fn a_kind_carries_its_group_version_kind_and_patch_extensions() {
        let core = schemas("", "v1");
        let config_map = &core["io.k8s.api.core.v1.ConfigMap"];
        assert_eq!(
            config_map["x-kubernetes-group-version-kind"][0]["kind"],
            "ConfigMap"
        );
        let apps = schemas("apps", "v1");
        let containers = &apps["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
        assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
        assert_eq!(containers["x-kubernetes-patch-strategy"], "merge");
        // A document holds only its own group-version's schemas and what they use.
        assert!(!apps.contains_key("io.k8s.api.core.v1.ConfigMap"));
    }

    #[test]
    fn custom_resources_get_the_meta_types_they_use() {
        let meta = custom_resource_meta();
        for name in [
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
            "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
            "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
            "io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause",
        ] {
            assert!(meta.contains_key(name), "{name}");
        }
        assert!(!meta.contains_key("io.k8s.api.core.v1.Pod"));
    }
}
