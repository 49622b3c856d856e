//! Where an object's JSON form is not a field-by-field copy of its protobuf message: Go's
//! `encoding/json` drops zero fields tagged `omitempty`, inlines embedded structs, and a few
//! fields have JSON names no protobuf field could have (`$ref`, `x-kubernetes-...`).

use std::collections::HashSet;
use std::sync::LazyLock;

use prost_reflect::FieldDescriptor;

/// Fields whose zero value Go's JSON keeps (pointers, and fields without `omitempty`); every
/// other scalar field is dropped when zero, as Go drops it. See `sim/proto/keep-zero.py`.
static KEEP_ZERO: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("../../proto/keep-zero.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
});

/// Fields tagged `omitzero`: a zero time is left out rather than written as `null` (since
/// Kubernetes 1.35, a pod template's `metadata` no longer shows `creationTimestamp: null`).
const OMIT_ZERO: &[&str] = &["k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta.creationTimestamp"];

/// Embedded Go structs (`json:",inline"`): their fields sit in the parent's JSON object, while
/// protobuf keeps them in a field of their own.
const INLINE: &[&str] = &[
    "k8s.io.api.core.v1.Volume.volumeSource",
    "k8s.io.api.core.v1.PersistentVolumeSpec.persistentVolumeSource",
    "k8s.io.api.core.v1.SecretProjection.localObjectReference",
    "k8s.io.api.core.v1.ConfigMapVolumeSource.localObjectReference",
    "k8s.io.api.core.v1.ConfigMapProjection.localObjectReference",
    "k8s.io.api.core.v1.ConfigMapKeySelector.localObjectReference",
    "k8s.io.api.core.v1.SecretKeySelector.localObjectReference",
    "k8s.io.api.core.v1.ConfigMapEnvSource.localObjectReference",
    "k8s.io.api.core.v1.SecretEnvSource.localObjectReference",
    "k8s.io.api.core.v1.Probe.handler",
    "k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon",
    "k8s.io.api.networking.v1.IngressRule.ingressRuleValue",
    "k8s.io.api.admissionregistration.v1.NamedRuleWithOperations.ruleWithOperations",
    "k8s.io.api.admissionregistration.v1.RuleWithOperations.rule",
    "k8s.io.api.resource.v1.DeviceClaimConfiguration.deviceConfiguration",
    "k8s.io.api.resource.v1.DeviceAllocationConfiguration.deviceConfiguration",
    "k8s.io.api.resource.v1.DeviceClassConfiguration.deviceConfiguration",
];

const SCHEMA_PROPS: &str =
    "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps";

pub fn keeps_zero(field: &FieldDescriptor) -> bool {
    KEEP_ZERO.contains(field.full_name())
}

pub fn omits_zero(field: &FieldDescriptor) -> bool {
    OMIT_ZERO.contains(&field.full_name())
}

pub fn is_inline(field: &FieldDescriptor) -> bool {
    INLINE.contains(&field.full_name())
}

/// Fields whose protobuf name is capitalised while their JSON key is not (admission
/// registration's Go tags name them so).
const RENAMED: &[(&str, &str)] = &[
    (
        "k8s.io.api.admissionregistration.v1.MutatingWebhookConfiguration.Webhooks",
        "webhooks",
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration.Webhooks",
        "webhooks",
    ),
    (
        "k8s.io.api.admissionregistration.v1.Validation.Expression",
        "expression",
    ),
    ("k8s.io.api.admissionregistration.v1.Variable.Name", "name"),
    (
        "k8s.io.api.admissionregistration.v1.Variable.Expression",
        "expression",
    ),
];

/// The field's key in the JSON object.
pub fn json_name(field: &FieldDescriptor) -> String {
    if let Some((_, json)) = RENAMED.iter().find(|(f, _)| *f == field.full_name()) {
        return (*json).to_string();
    }
    let name = field.name();
    if field.parent_message().full_name() != SCHEMA_PROPS {
        return name.to_string();
    }
    match name {
        "ref" => "$ref".to_string(),
        "schema" => "$schema".to_string(),
        // xKubernetesPreserveUnknownFields → x-kubernetes-preserve-unknown-fields
        _ if name.starts_with("xKubernetes") => {
            let mut out = String::from("x");
            for c in name[1..].chars() {
                if c.is_ascii_uppercase() {
                    out.push('-');
                    out.push(c.to_ascii_lowercase());
                } else {
                    out.push(c);
                }
            }
            out
        }
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::pool::message;

    fn field(message_name: &str, field_name: &str) -> FieldDescriptor {
        message(message_name)
            .unwrap()
            .get_field_by_name(field_name)
            .unwrap()
    }

    #[test]
    fn every_listed_field_exists_so_a_typo_cannot_hide() {
        for name in KEEP_ZERO
            .iter()
            .chain(INLINE)
            .chain(RENAMED.iter().map(|(f, _)| f))
        {
            let (msg, f) = name.rsplit_once('.').unwrap();
            let found = message(msg).and_then(|m| m.get_field_by_name(f));
            assert!(
                found.is_some(),
                "{name} is not a field of the vendored protos"
            );
        }
    }

    #[test]
    fn the_omitzero_fields_the_script_found_are_all_honoured() {
        let found: Vec<&str> = include_str!("../../proto/keep-zero.txt")
            .lines()
            .filter_map(|l| l.strip_prefix("# omitzero: "))
            .collect();
        assert_eq!(found, OMIT_ZERO);
    }

    #[test]
    fn pointers_keep_zero_and_omitempty_values_do_not() {
        assert!(keeps_zero(&field(
            "k8s.io.api.apps.v1.DeploymentSpec",
            "replicas"
        )));
        assert!(!keeps_zero(&field(
            "k8s.io.api.apps.v1.DeploymentSpec",
            "minReadySeconds"
        )));
        assert!(keeps_zero(&field(
            "k8s.io.api.core.v1.ContainerPort",
            "containerPort"
        )));
    }

    #[test]
    fn schema_fields_keep_their_json_spelling() {
        assert_eq!(json_name(&field(SCHEMA_PROPS, "ref")), "$ref");
        assert_eq!(
            json_name(&field(SCHEMA_PROPS, "xKubernetesPreserveUnknownFields")),
            "x-kubernetes-preserve-unknown-fields"
        );
        assert_eq!(json_name(&field(SCHEMA_PROPS, "type")), "type");
        assert_eq!(
            json_name(&field("k8s.io.api.core.v1.Secret", "stringData")),
            "stringData"
        );
    }
}
