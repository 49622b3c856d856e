//! Argo CD 3.5.2's own CustomResourceDefinitions for Application and AppProject
//! (`sim/crds/argo-cd-v3.5.2/`, its `manifests/crds` written as JSON by
//! `scripts/vendor-openapi`): what the cluster installs, so `kubectl get crd -o yaml` and `kubectl
//! explain` show Argo CD's descriptions, and the structural schemas a real API server prunes
//! to: every field they do not declare is dropped and, when strict field validation was asked
//! for, reported as unknown.

use std::sync::OnceLock;

use serde_json::Value;

use super::shape::Schema;
use crate::kinds::ResourceType;

const APPLICATION_CRD: &str = include_str!("../../crds/argo-cd-v3.5.2/application-crd.json");
const APP_PROJECT_CRD: &str = include_str!("../../crds/argo-cd-v3.5.2/appproject-crd.json");

/// One vendored CRD, read once, and the shape of its objects.
struct Vendored {
    crd: Value,
    shape: Schema,
}

fn vendored(kind: &str) -> Option<&'static Vendored> {
    static APPLICATION: OnceLock<Option<Vendored>> = OnceLock::new();
    static APP_PROJECT: OnceLock<Option<Vendored>> = OnceLock::new();
    let (cell, text) = match kind {
        "Application" => (&APPLICATION, APPLICATION_CRD),
        "AppProject" => (&APP_PROJECT, APP_PROJECT_CRD),
        _ => return None,
    };
    cell.get_or_init(|| {
        // The files are this crate's own, read by a unit test; one that did not parse would
        // leave its kind unpruned, never stop the server.
        let crd: Value = serde_json::from_str(text).ok()?;
        let shape = super::structural::shape_of_root(openapi_of(&crd)?);
        Some(Vendored { crd, shape })
    })
    .as_ref()
}

/// A CRD's (first version's) `openAPIV3Schema`.
pub fn openapi_of(crd: &Value) -> Option<&Value> {
    crd.pointer("/spec/versions/0/schema/openAPIV3Schema")
}

fn argo(ty: &ResourceType) -> Option<&'static Vendored> {
    if ty.group == "argoproj.io" {
        vendored(ty.kind)
    } else {
        None
    }
}

/// The shape of an Argo CD custom resource, or `None` for any other kind.
pub fn schema(ty: &ResourceType) -> Option<&'static Schema> {
    argo(ty).map(|v| &v.shape)
}

/// The whole CustomResourceDefinition Argo CD installs for `ty`, or `None` for a kind it has
/// none vendored for (ApplicationSet's is 1.4 MB and describes a kind nothing here acts on).
pub fn crd(ty: &ResourceType) -> Option<&'static Value> {
    argo(ty).map(|v| &v.crd)
}

#[cfg(test)]
mod tests {
    use super::super::shape::{Leaf, Shape};
    use super::*;

    #[test]
    fn both_crds_parse_and_know_their_fields() {
        let app = schema(&crate::kinds::APPLICATION).unwrap();
        assert_eq!(
            app.at(&["spec", "syncPolicy", "automated", "selfHeal"]),
            Some(&Shape::Leaf(Leaf::Bool))
        );
        assert_eq!(
            app.at(&["spec", "syncPolicy", "automated", "selfheal"]),
            None
        );
        assert_eq!(
            app.at(&["spec", "source", "helm", "valuesObject", "anything"]),
            Some(&Shape::Leaf(Leaf::Any))
        );
        assert_eq!(
            app.at(&[
                "status",
                "operationState",
                "syncResult",
                "resources",
                "hookPhase"
            ]),
            Some(&Shape::Leaf(Leaf::String))
        );
        let project = schema(&crate::kinds::APP_PROJECT).unwrap();
        assert_eq!(
            project.at(&["spec", "sourceRepos"]),
            Some(&Shape::List(Box::new(Shape::Leaf(Leaf::String))))
        );
        assert!(schema(&crate::kinds::CONFIG_MAP).is_none());
    }

    #[test]
    fn the_openapi_schema_declares_what_pruning_keeps() {
        let app = &crate::kinds::APPLICATION;
        let s = openapi_of(crd(app).unwrap()).unwrap();
        let automated =
            &s["properties"]["spec"]["properties"]["syncPolicy"]["properties"]["automated"];
        assert_eq!(automated["properties"]["selfHeal"]["type"], "boolean");
        assert!(
            automated["properties"]["selfHeal"]["description"]
                .as_str()
                .is_some_and(|d| d.contains("revert resources"))
        );
        assert_eq!(s["properties"]["metadata"]["type"], "object");
        let values = &s["properties"]["spec"]["properties"]["source"]["properties"]["helm"]["properties"]
            ["valuesObject"];
        assert_eq!(values["x-kubernetes-preserve-unknown-fields"], true);
    }

    #[test]
    fn the_installed_crd_is_argo_cds_own() {
        let app = crd(&crate::kinds::APPLICATION).unwrap();
        assert_eq!(app["metadata"]["name"], "applications.argoproj.io");
        assert_eq!(
            app["spec"]["versions"][0]["additionalPrinterColumns"][0]["name"],
            "Sync Status"
        );
        assert_eq!(
            app["spec"]["names"]["shortNames"],
            serde_json::json!(["app", "apps"])
        );
        assert!(crd(&crate::kinds::APPLICATION_SET).is_none());
    }
}
