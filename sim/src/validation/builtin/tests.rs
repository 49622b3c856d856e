//! Tests of the shapes read from k8s-openapi's types.

use super::*;
use crate::kinds::by_kind;

fn shape(api_version: &str, kind: &str, path: &[&str]) -> Option<Shape> {
    let schema = schema(by_kind(api_version, kind).unwrap()).unwrap();
    schema.at(path).cloned()
}

#[test]
fn every_builtin_kind_served_has_a_shape() {
    for t in TYPES.iter().filter(|t| t.builtin && !t.computed) {
        let s = schema(t).unwrap_or_else(|| panic!("{} has no shape", t.kind));
        assert!(matches!(s.root, Shape::Struct(_)), "{}", t.kind);
    }
}

#[test]
fn a_deployment_knows_replicas_and_not_replica() {
    assert_eq!(
        shape("apps/v1", "Deployment", &["spec", "replicas"]),
        Some(Shape::Leaf(Leaf::Int32))
    );
    assert_eq!(shape("apps/v1", "Deployment", &["spec", "replica"]), None);
    let containers = shape(
        "apps/v1",
        "Deployment",
        &["spec", "template", "spec", "containers"],
    )
    .unwrap();
    let schema = schema(&crate::kinds::DEPLOYMENT).unwrap();
    assert_eq!(schema.go_type(&containers), "[]v1.Container");
    assert_eq!(
        shape(
            "apps/v1",
            "Deployment",
            &[
                "spec",
                "template",
                "spec",
                "containers",
                "ports",
                "containerPort"
            ]
        ),
        Some(Shape::Leaf(Leaf::Int32))
    );
}

#[test]
fn special_types_are_told_apart() {
    let labels = shape("v1", "ConfigMap", &["metadata", "labels"]).unwrap();
    assert_eq!(labels, Shape::Map(Box::new(Shape::Leaf(Leaf::String))));
    assert_eq!(
        shape("v1", "Secret", &["data"]),
        Some(Shape::Map(Box::new(Shape::Leaf(Leaf::Bytes))))
    );
    assert_eq!(
        shape("v1", "Service", &["spec", "ports", "targetPort"]),
        Some(Shape::Leaf(Leaf::IntOrString))
    );
    assert_eq!(
        shape("v1", "Pod", &["metadata", "creationTimestamp"]),
        Some(Shape::Leaf(Leaf::Time))
    );
    assert_eq!(
        shape(
            "v1",
            "Pod",
            &["spec", "containers", "resources", "limits", "cpu"]
        ),
        Some(Shape::Leaf(Leaf::Quantity))
    );
    assert_eq!(
        shape("v1", "Event", &["eventTime"]),
        Some(Shape::Leaf(Leaf::MicroTime))
    );
    assert_eq!(
        shape(
            "v1",
            "ConfigMap",
            &["metadata", "managedFields", "fieldsV1"]
        ),
        Some(Shape::Leaf(Leaf::Any))
    );
}

#[test]
fn recursive_types_end() {
    let props = shape(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        &[
            "spec",
            "versions",
            "schema",
            "openAPIV3Schema",
            "properties",
        ],
    )
    .unwrap();
    assert!(matches!(props, Shape::Map(_)), "{props:?}");
}
