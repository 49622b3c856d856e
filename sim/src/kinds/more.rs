//! The rarer built-in types a Kubernetes 1.35 server serves (RBAC, scheduling, storage's CSI
//! objects, flow control, admission...), declared as the real discovery lists them, so that
//! learners and client libraries listing them meet a served type rather than a 404.

use super::{BASE, ResourceType};

/// A cluster-scoped built-in type of `group`: most of this file.
const CLUSTER: ResourceType = ResourceType {
    namespaced: false,
    ..BASE
};

/// The categories the API server gives the types that extend it.
const API_EXTENSIONS: &[&str] = &["api-extensions"];

pub static POD_TEMPLATE: ResourceType = ResourceType {
    kind: "PodTemplate",
    plural: "podtemplates",
    singular: "podtemplate",
    ..BASE
};

/// `POST pods/{name}/binding`'s kind, also served as a collection of its own (create only).
pub static BINDING: ResourceType = ResourceType {
    kind: "Binding",
    plural: "bindings",
    singular: "binding",
    create_only: true,
    ..BASE
};

pub static CONTROLLER_REVISION: ResourceType = ResourceType {
    group: "apps",
    kind: "ControllerRevision",
    plural: "controllerrevisions",
    singular: "controllerrevision",
    ..BASE
};

pub static ROLE: ResourceType = ResourceType {
    group: "rbac.authorization.k8s.io",
    kind: "Role",
    plural: "roles",
    singular: "role",
    ..BASE
};

pub static ROLE_BINDING: ResourceType = ResourceType {
    group: "rbac.authorization.k8s.io",
    kind: "RoleBinding",
    plural: "rolebindings",
    singular: "rolebinding",
    ..BASE
};

pub static CLUSTER_ROLE: ResourceType = ResourceType {
    group: "rbac.authorization.k8s.io",
    kind: "ClusterRole",
    plural: "clusterroles",
    singular: "clusterrole",
    ..CLUSTER
};

pub static CLUSTER_ROLE_BINDING: ResourceType = ResourceType {
    group: "rbac.authorization.k8s.io",
    kind: "ClusterRoleBinding",
    plural: "clusterrolebindings",
    singular: "clusterrolebinding",
    ..CLUSTER
};

pub static PRIORITY_CLASS: ResourceType = ResourceType {
    group: "scheduling.k8s.io",
    kind: "PriorityClass",
    plural: "priorityclasses",
    singular: "priorityclass",
    short_names: &["pc"],
    ..CLUSTER
};

pub static CERTIFICATE_SIGNING_REQUEST: ResourceType = ResourceType {
    group: "certificates.k8s.io",
    kind: "CertificateSigningRequest",
    plural: "certificatesigningrequests",
    singular: "certificatesigningrequest",
    short_names: &["csr"],
    status_subresource: true,
    ..CLUSTER
};

pub static INGRESS_CLASS: ResourceType = ResourceType {
    group: "networking.k8s.io",
    kind: "IngressClass",
    plural: "ingressclasses",
    singular: "ingressclass",
    ..CLUSTER
};

pub static IP_ADDRESS: ResourceType = ResourceType {
    group: "networking.k8s.io",
    kind: "IPAddress",
    plural: "ipaddresses",
    singular: "ipaddress",
    short_names: &["ip"],
    ..CLUSTER
};

pub static SERVICE_CIDR: ResourceType = ResourceType {
    group: "networking.k8s.io",
    kind: "ServiceCIDR",
    plural: "servicecidrs",
    singular: "servicecidr",
    status_subresource: true,
    ..CLUSTER
};

pub static RUNTIME_CLASS: ResourceType = ResourceType {
    group: "node.k8s.io",
    kind: "RuntimeClass",
    plural: "runtimeclasses",
    singular: "runtimeclass",
    ..CLUSTER
};

pub static CSI_DRIVER: ResourceType = ResourceType {
    group: "storage.k8s.io",
    kind: "CSIDriver",
    plural: "csidrivers",
    singular: "csidriver",
    ..CLUSTER
};

pub static CSI_NODE: ResourceType = ResourceType {
    group: "storage.k8s.io",
    kind: "CSINode",
    plural: "csinodes",
    singular: "csinode",
    ..CLUSTER
};

pub static CSI_STORAGE_CAPACITY: ResourceType = ResourceType {
    group: "storage.k8s.io",
    kind: "CSIStorageCapacity",
    plural: "csistoragecapacities",
    singular: "csistoragecapacity",
    ..BASE
};

pub static VOLUME_ATTACHMENT: ResourceType = ResourceType {
    group: "storage.k8s.io",
    kind: "VolumeAttachment",
    plural: "volumeattachments",
    singular: "volumeattachment",
    status_subresource: true,
    ..CLUSTER
};

pub static VOLUME_ATTRIBUTES_CLASS: ResourceType = ResourceType {
    group: "storage.k8s.io",
    kind: "VolumeAttributesClass",
    plural: "volumeattributesclasses",
    singular: "volumeattributesclass",
    short_names: &["vac"],
    ..CLUSTER
};

pub static FLOW_SCHEMA: ResourceType = ResourceType {
    group: "flowcontrol.apiserver.k8s.io",
    kind: "FlowSchema",
    plural: "flowschemas",
    singular: "flowschema",
    status_subresource: true,
    ..CLUSTER
};

pub static PRIORITY_LEVEL_CONFIGURATION: ResourceType = ResourceType {
    group: "flowcontrol.apiserver.k8s.io",
    kind: "PriorityLevelConfiguration",
    plural: "prioritylevelconfigurations",
    singular: "prioritylevelconfiguration",
    status_subresource: true,
    ..CLUSTER
};

pub static MUTATING_WEBHOOK_CONFIGURATION: ResourceType = ResourceType {
    group: "admissionregistration.k8s.io",
    kind: "MutatingWebhookConfiguration",
    plural: "mutatingwebhookconfigurations",
    singular: "mutatingwebhookconfiguration",
    categories: API_EXTENSIONS,
    ..CLUSTER
};

pub static VALIDATING_WEBHOOK_CONFIGURATION: ResourceType = ResourceType {
    group: "admissionregistration.k8s.io",
    kind: "ValidatingWebhookConfiguration",
    plural: "validatingwebhookconfigurations",
    singular: "validatingwebhookconfiguration",
    categories: API_EXTENSIONS,
    ..CLUSTER
};

pub static VALIDATING_ADMISSION_POLICY: ResourceType = ResourceType {
    group: "admissionregistration.k8s.io",
    kind: "ValidatingAdmissionPolicy",
    plural: "validatingadmissionpolicies",
    singular: "validatingadmissionpolicy",
    categories: API_EXTENSIONS,
    status_subresource: true,
    ..CLUSTER
};

pub static VALIDATING_ADMISSION_POLICY_BINDING: ResourceType = ResourceType {
    group: "admissionregistration.k8s.io",
    kind: "ValidatingAdmissionPolicyBinding",
    plural: "validatingadmissionpolicybindings",
    singular: "validatingadmissionpolicybinding",
    categories: API_EXTENSIONS,
    ..CLUSTER
};

pub static API_SERVICE: ResourceType = ResourceType {
    group: "apiregistration.k8s.io",
    kind: "APIService",
    plural: "apiservices",
    singular: "apiservice",
    categories: API_EXTENSIONS,
    status_subresource: true,
    ..CLUSTER
};

pub static DEVICE_CLASS: ResourceType = ResourceType {
    group: "resource.k8s.io",
    kind: "DeviceClass",
    plural: "deviceclasses",
    singular: "deviceclass",
    ..CLUSTER
};

pub static RESOURCE_CLAIM: ResourceType = ResourceType {
    group: "resource.k8s.io",
    kind: "ResourceClaim",
    plural: "resourceclaims",
    singular: "resourceclaim",
    status_subresource: true,
    ..BASE
};

pub static RESOURCE_CLAIM_TEMPLATE: ResourceType = ResourceType {
    group: "resource.k8s.io",
    kind: "ResourceClaimTemplate",
    plural: "resourceclaimtemplates",
    singular: "resourceclaimtemplate",
    ..BASE
};

pub static RESOURCE_SLICE: ResourceType = ResourceType {
    group: "resource.k8s.io",
    kind: "ResourceSlice",
    plural: "resourceslices",
    singular: "resourceslice",
    ..CLUSTER
};

/// What kr8s's `whoami` and webhook authenticators ask: who does this token belong to?
pub static TOKEN_REVIEW: ResourceType = ResourceType {
    group: "authentication.k8s.io",
    kind: "TokenReview",
    plural: "tokenreviews",
    singular: "tokenreview",
    create_only: true,
    ..CLUSTER
};

/// May this user (named in the spec) do this?
pub static SUBJECT_ACCESS_REVIEW: ResourceType = ResourceType {
    group: "authorization.k8s.io",
    kind: "SubjectAccessReview",
    plural: "subjectaccessreviews",
    singular: "subjectaccessreview",
    create_only: true,
    ..CLUSTER
};

/// The same, asked within one namespace.
pub static LOCAL_SUBJECT_ACCESS_REVIEW: ResourceType = ResourceType {
    group: "authorization.k8s.io",
    kind: "LocalSubjectAccessReview",
    plural: "localsubjectaccessreviews",
    singular: "localsubjectaccessreview",
    create_only: true,
    ..BASE
};
