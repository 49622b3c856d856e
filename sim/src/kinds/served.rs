//! The served types, one static each, so code names a type (`kinds::POD`) and a misspelling is a
//! compile error rather than a lookup that finds nothing.

use super::{BASE, ResourceType};

pub static NAMESPACE: ResourceType = ResourceType {
    kind: "Namespace",
    plural: "namespaces",
    singular: "namespace",
    namespaced: false,
    short_names: &["ns"],
    status_subresource: true,
    ..BASE
};

pub static CONFIG_MAP: ResourceType = ResourceType {
    kind: "ConfigMap",
    plural: "configmaps",
    singular: "configmap",
    short_names: &["cm"],
    ..BASE
};

pub static SECRET: ResourceType = ResourceType {
    kind: "Secret",
    plural: "secrets",
    singular: "secret",
    ..BASE
};

pub static POD: ResourceType = ResourceType {
    kind: "Pod",
    plural: "pods",
    singular: "pod",
    short_names: &["po"],
    categories: &["all"],
    status_subresource: true,
    log_subresource: true,
    ..BASE
};

pub static EVENT: ResourceType = ResourceType {
    kind: "Event",
    plural: "events",
    singular: "event",
    short_names: &["ev"],
    ..BASE
};

pub static SERVICE: ResourceType = ResourceType {
    kind: "Service",
    plural: "services",
    singular: "service",
    short_names: &["svc"],
    categories: &["all"],
    status_subresource: true,
    ..BASE
};

pub static NODE: ResourceType = ResourceType {
    kind: "Node",
    plural: "nodes",
    singular: "node",
    namespaced: false,
    short_names: &["no"],
    status_subresource: true,
    ..BASE
};

pub static ENDPOINTS: ResourceType = ResourceType {
    kind: "Endpoints",
    plural: "endpoints",
    singular: "endpoints",
    short_names: &["ep"],
    ..BASE
};

pub static REPLICATION_CONTROLLER: ResourceType = ResourceType {
    kind: "ReplicationController",
    plural: "replicationcontrollers",
    singular: "replicationcontroller",
    short_names: &["rc"],
    categories: &["all"],
    status_subresource: true,
    scale_subresource: true,
    ..BASE
};

pub static SERVICE_ACCOUNT: ResourceType = ResourceType {
    kind: "ServiceAccount",
    plural: "serviceaccounts",
    singular: "serviceaccount",
    short_names: &["sa"],
    ..BASE
};

pub static PERSISTENT_VOLUME_CLAIM: ResourceType = ResourceType {
    kind: "PersistentVolumeClaim",
    plural: "persistentvolumeclaims",
    singular: "persistentvolumeclaim",
    short_names: &["pvc"],
    status_subresource: true,
    ..BASE
};

pub static PERSISTENT_VOLUME: ResourceType = ResourceType {
    kind: "PersistentVolume",
    plural: "persistentvolumes",
    singular: "persistentvolume",
    namespaced: false,
    short_names: &["pv"],
    status_subresource: true,
    ..BASE
};

pub static DEPLOYMENT: ResourceType = ResourceType {
    group: "apps",
    kind: "Deployment",
    plural: "deployments",
    singular: "deployment",
    short_names: &["deploy"],
    categories: &["all"],
    status_subresource: true,
    scale_subresource: true,
    ..BASE
};

pub static REPLICA_SET: ResourceType = ResourceType {
    group: "apps",
    kind: "ReplicaSet",
    plural: "replicasets",
    singular: "replicaset",
    short_names: &["rs"],
    categories: &["all"],
    status_subresource: true,
    scale_subresource: true,
    ..BASE
};

pub static DAEMON_SET: ResourceType = ResourceType {
    group: "apps",
    kind: "DaemonSet",
    plural: "daemonsets",
    singular: "daemonset",
    short_names: &["ds"],
    categories: &["all"],
    status_subresource: true,
    ..BASE
};

pub static STATEFUL_SET: ResourceType = ResourceType {
    group: "apps",
    kind: "StatefulSet",
    plural: "statefulsets",
    singular: "statefulset",
    short_names: &["sts"],
    categories: &["all"],
    status_subresource: true,
    scale_subresource: true,
    ..BASE
};

pub static JOB: ResourceType = ResourceType {
    group: "batch",
    kind: "Job",
    plural: "jobs",
    singular: "job",
    categories: &["all"],
    status_subresource: true,
    ..BASE
};

pub static CRON_JOB: ResourceType = ResourceType {
    group: "batch",
    kind: "CronJob",
    plural: "cronjobs",
    singular: "cronjob",
    short_names: &["cj"],
    categories: &["all"],
    status_subresource: true,
    ..BASE
};

pub static ENDPOINT_SLICE: ResourceType = ResourceType {
    group: "discovery.k8s.io",
    kind: "EndpointSlice",
    plural: "endpointslices",
    singular: "endpointslice",
    ..BASE
};

pub static LEASE: ResourceType = ResourceType {
    group: "coordination.k8s.io",
    kind: "Lease",
    plural: "leases",
    singular: "lease",
    ..BASE
};

/// Deprecated since 1.19 and still served: the control plane's health, probed on every read
/// (`get` and `list` only, never stored).
pub static COMPONENT_STATUS: ResourceType = ResourceType {
    kind: "ComponentStatus",
    plural: "componentstatuses",
    singular: "componentstatus",
    namespaced: false,
    short_names: &["cs"],
    computed: true,
    ..BASE
};

pub static NODE_METRICS: ResourceType = ResourceType {
    group: "metrics.k8s.io",
    version: "v1beta1",
    kind: "NodeMetrics",
    plural: "nodes",
    singular: "",
    namespaced: false,
    computed: true,
    ..BASE
};

pub static POD_METRICS: ResourceType = ResourceType {
    group: "metrics.k8s.io",
    version: "v1beta1",
    kind: "PodMetrics",
    plural: "pods",
    singular: "",
    computed: true,
    ..BASE
};

pub static APPLICATION: ResourceType = ResourceType {
    group: "argoproj.io",
    version: "v1alpha1",
    kind: "Application",
    plural: "applications",
    singular: "application",
    short_names: &["app", "apps"],
    builtin: false,
    ..BASE
};

pub static APP_PROJECT: ResourceType = ResourceType {
    group: "argoproj.io",
    version: "v1alpha1",
    kind: "AppProject",
    plural: "appprojects",
    singular: "appproject",
    short_names: &["appproj", "appprojs"],
    builtin: false,
    ..BASE
};

pub static APPLICATION_SET: ResourceType = ResourceType {
    group: "argoproj.io",
    version: "v1alpha1",
    kind: "ApplicationSet",
    plural: "applicationsets",
    singular: "applicationset",
    short_names: &["appset", "appsets"],
    status_subresource: true,
    builtin: false,
    ..BASE
};

pub static CUSTOM_RESOURCE_DEFINITION: ResourceType = ResourceType {
    group: "apiextensions.k8s.io",
    kind: "CustomResourceDefinition",
    plural: "customresourcedefinitions",
    singular: "customresourcedefinition",
    namespaced: false,
    short_names: &["crd", "crds"],
    status_subresource: true,
    ..BASE
};

pub static HORIZONTAL_POD_AUTOSCALER: ResourceType = ResourceType {
    group: "autoscaling",
    version: "v2",
    kind: "HorizontalPodAutoscaler",
    plural: "horizontalpodautoscalers",
    singular: "horizontalpodautoscaler",
    short_names: &["hpa"],
    categories: &["all"],
    status_subresource: true,
    ..BASE
};

/// `autoscaling/v1`: the same objects as v2 (the storage version), converted as the real
/// server converts them (`crate::views::hpa`).
pub static HORIZONTAL_POD_AUTOSCALER_V1: ResourceType = ResourceType {
    version: "v1",
    view_of: Some(&HORIZONTAL_POD_AUTOSCALER),
    ..HORIZONTAL_POD_AUTOSCALER
};

pub static POD_DISRUPTION_BUDGET: ResourceType = ResourceType {
    group: "policy",
    kind: "PodDisruptionBudget",
    plural: "poddisruptionbudgets",
    singular: "poddisruptionbudget",
    short_names: &["pdb"],
    status_subresource: true,
    ..BASE
};

pub static NETWORK_POLICY: ResourceType = ResourceType {
    group: "networking.k8s.io",
    kind: "NetworkPolicy",
    plural: "networkpolicies",
    singular: "networkpolicy",
    short_names: &["netpol"],
    ..BASE
};

pub static INGRESS: ResourceType = ResourceType {
    group: "networking.k8s.io",
    kind: "Ingress",
    plural: "ingresses",
    singular: "ingress",
    short_names: &["ing"],
    status_subresource: true,
    ..BASE
};

pub static STORAGE_CLASS: ResourceType = ResourceType {
    group: "storage.k8s.io",
    kind: "StorageClass",
    plural: "storageclasses",
    singular: "storageclass",
    namespaced: false,
    short_names: &["sc"],
    ..BASE
};

pub static RESOURCE_QUOTA: ResourceType = ResourceType {
    kind: "ResourceQuota",
    plural: "resourcequotas",
    singular: "resourcequota",
    short_names: &["quota"],
    status_subresource: true,
    ..BASE
};

pub static LIMIT_RANGE: ResourceType = ResourceType {
    kind: "LimitRange",
    plural: "limitranges",
    singular: "limitrange",
    short_names: &["limits"],
    ..BASE
};

/// `events.k8s.io/v1`: the core Events seen in the newer shape (one object, two versions).
pub static EVENTS_V1_EVENT: ResourceType = ResourceType {
    group: "events.k8s.io",
    kind: "Event",
    plural: "events",
    singular: "event",
    short_names: &["ev"],
    view_of: Some(&EVENT),
    ..BASE
};

/// `kubectl auth can-i`: may the requesting user do this?
pub static SELF_SUBJECT_ACCESS_REVIEW: ResourceType = ResourceType {
    group: "authorization.k8s.io",
    kind: "SelfSubjectAccessReview",
    plural: "selfsubjectaccessreviews",
    singular: "selfsubjectaccessreview",
    namespaced: false,
    create_only: true,
    ..BASE
};

/// `kubectl auth can-i --list`: what may the requesting user do in a namespace?
pub static SELF_SUBJECT_RULES_REVIEW: ResourceType = ResourceType {
    group: "authorization.k8s.io",
    kind: "SelfSubjectRulesReview",
    plural: "selfsubjectrulesreviews",
    singular: "selfsubjectrulesreview",
    namespaced: false,
    create_only: true,
    ..BASE
};

/// `kubectl auth whoami`: who is the requesting user?
pub static SELF_SUBJECT_REVIEW: ResourceType = ResourceType {
    group: "authentication.k8s.io",
    kind: "SelfSubjectReview",
    plural: "selfsubjectreviews",
    singular: "selfsubjectreview",
    namespaced: false,
    create_only: true,
    ..BASE
};
