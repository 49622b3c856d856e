//! The shapes of the rarer built-in kinds (`crate::kinds::more`), read from k8s-openapi's types
//! as the common ones are.

use super::probe;
use crate::kinds::ResourceType;
use crate::validation::shape::Schema;

pub(super) fn probe_more(ty: &ResourceType) -> Option<Schema> {
    use k8s_openapi::api::{
        admissionregistration::v1 as admission, apps, authentication, authorization, certificates,
        core, flowcontrol, networking, node, rbac, resource, scheduling, storage,
    };
    use k8s_openapi::kube_aggregator::pkg::apis::apiregistration::v1 as aggregator;
    let root = (ty.api_version(), ty.kind);
    match (ty.api_version().as_str(), ty.kind) {
        ("v1", "PodTemplate") => probe::<core::v1::PodTemplate>(root),
        ("v1", "Binding") => probe::<core::v1::Binding>(root),
        ("apps/v1", "ControllerRevision") => probe::<apps::v1::ControllerRevision>(root),
        ("rbac.authorization.k8s.io/v1", "Role") => probe::<rbac::v1::Role>(root),
        ("rbac.authorization.k8s.io/v1", "RoleBinding") => probe::<rbac::v1::RoleBinding>(root),
        ("rbac.authorization.k8s.io/v1", "ClusterRole") => probe::<rbac::v1::ClusterRole>(root),
        ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding") => {
            probe::<rbac::v1::ClusterRoleBinding>(root)
        }
        ("scheduling.k8s.io/v1", "PriorityClass") => probe::<scheduling::v1::PriorityClass>(root),
        ("certificates.k8s.io/v1", "CertificateSigningRequest") => {
            probe::<certificates::v1::CertificateSigningRequest>(root)
        }
        ("networking.k8s.io/v1", "IngressClass") => probe::<networking::v1::IngressClass>(root),
        ("networking.k8s.io/v1", "IPAddress") => probe::<networking::v1::IPAddress>(root),
        ("networking.k8s.io/v1", "ServiceCIDR") => probe::<networking::v1::ServiceCIDR>(root),
        ("node.k8s.io/v1", "RuntimeClass") => probe::<node::v1::RuntimeClass>(root),
        ("storage.k8s.io/v1", "CSIDriver") => probe::<storage::v1::CSIDriver>(root),
        ("storage.k8s.io/v1", "CSINode") => probe::<storage::v1::CSINode>(root),
        ("storage.k8s.io/v1", "CSIStorageCapacity") => {
            probe::<storage::v1::CSIStorageCapacity>(root)
        }
        ("storage.k8s.io/v1", "VolumeAttachment") => probe::<storage::v1::VolumeAttachment>(root),
        ("storage.k8s.io/v1", "VolumeAttributesClass") => {
            probe::<storage::v1::VolumeAttributesClass>(root)
        }
        ("flowcontrol.apiserver.k8s.io/v1", "FlowSchema") => {
            probe::<flowcontrol::v1::FlowSchema>(root)
        }
        ("flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration") => {
            probe::<flowcontrol::v1::PriorityLevelConfiguration>(root)
        }
        ("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration") => {
            probe::<admission::MutatingWebhookConfiguration>(root)
        }
        ("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration") => {
            probe::<admission::ValidatingWebhookConfiguration>(root)
        }
        ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy") => {
            probe::<admission::ValidatingAdmissionPolicy>(root)
        }
        ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding") => {
            probe::<admission::ValidatingAdmissionPolicyBinding>(root)
        }
        ("apiregistration.k8s.io/v1", "APIService") => probe::<aggregator::APIService>(root),
        ("resource.k8s.io/v1", "DeviceClass") => probe::<resource::v1::DeviceClass>(root),
        ("resource.k8s.io/v1", "ResourceClaim") => probe::<resource::v1::ResourceClaim>(root),
        ("resource.k8s.io/v1", "ResourceClaimTemplate") => {
            probe::<resource::v1::ResourceClaimTemplate>(root)
        }
        ("resource.k8s.io/v1", "ResourceSlice") => probe::<resource::v1::ResourceSlice>(root),
        ("authentication.k8s.io/v1", "TokenReview") => {
            probe::<authentication::v1::TokenReview>(root)
        }
        ("authorization.k8s.io/v1", "SubjectAccessReview") => {
            probe::<authorization::v1::SubjectAccessReview>(root)
        }
        ("authorization.k8s.io/v1", "LocalSubjectAccessReview") => {
            probe::<authorization::v1::LocalSubjectAccessReview>(root)
        }
        _ => None,
    }
}
