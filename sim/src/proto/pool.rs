//! The Kubernetes message descriptors `build.rs` compiles from `sim/proto`, and which message
//! carries which apiVersion and kind.

use std::sync::LazyLock;

use prost_reflect::{DescriptorPool, MessageDescriptor};

static POOL: LazyLock<DescriptorPool> = LazyLock::new(|| {
    let bytes = include_bytes!(concat!(env!("OUT_DIR"), "/kubernetes-descriptors.bin"));
    // Written by build.rs from the same sources this binary was built from (a unit test decodes
    // it); were it unreadable, every protobuf body would be refused as undecodable, as a server
    // without the type would refuse it, and JSON would still be served.
    DescriptorPool::decode(bytes.as_slice()).unwrap_or_default()
});

pub const META: &str = "k8s.io.apimachinery.pkg.apis.meta.v1";
pub const RUNTIME: &str = "k8s.io.apimachinery.pkg.runtime";

/// Kinds every group version serves from meta/v1, whatever apiVersion the envelope names
/// (a `Status` says `v1`, a client's `DeleteOptions` may say `apps/v1`).
const META_KINDS: &[&str] = &[
    "Status",
    "DeleteOptions",
    "WatchEvent",
    "ListOptions",
    "GetOptions",
    "CreateOptions",
    "UpdateOptions",
    "PatchOptions",
];

/// The protobuf package of each group version the cluster serves built-in kinds in.
fn package(api_version: &str) -> Option<&'static str> {
    Some(match api_version {
        "v1" => "k8s.io.api.core.v1",
        "apps/v1" => "k8s.io.api.apps.v1",
        "batch/v1" => "k8s.io.api.batch.v1",
        "autoscaling/v1" => "k8s.io.api.autoscaling.v1",
        "autoscaling/v2" => "k8s.io.api.autoscaling.v2",
        "policy/v1" => "k8s.io.api.policy.v1",
        "networking.k8s.io/v1" => "k8s.io.api.networking.v1",
        "storage.k8s.io/v1" => "k8s.io.api.storage.v1",
        "events.k8s.io/v1" => "k8s.io.api.events.v1",
        "coordination.k8s.io/v1" => "k8s.io.api.coordination.v1",
        "discovery.k8s.io/v1" => "k8s.io.api.discovery.v1",
        "authorization.k8s.io/v1" => "k8s.io.api.authorization.v1",
        "authentication.k8s.io/v1" => "k8s.io.api.authentication.v1",
        "rbac.authorization.k8s.io/v1" => "k8s.io.api.rbac.v1",
        "scheduling.k8s.io/v1" => "k8s.io.api.scheduling.v1",
        "certificates.k8s.io/v1" => "k8s.io.api.certificates.v1",
        "node.k8s.io/v1" => "k8s.io.api.node.v1",
        "flowcontrol.apiserver.k8s.io/v1" => "k8s.io.api.flowcontrol.v1",
        "admissionregistration.k8s.io/v1" => "k8s.io.api.admissionregistration.v1",
        "resource.k8s.io/v1" => "k8s.io.api.resource.v1",
        "apiregistration.k8s.io/v1" => "k8s.io.kube_aggregator.pkg.apis.apiregistration.v1",
        "metrics.k8s.io/v1beta1" => "k8s.io.metrics.pkg.apis.metrics.v1beta1",
        "apiextensions.k8s.io/v1" => "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1",
        "meta.k8s.io/v1" => META,
        _ => return None,
    })
}

/// A message by its full name (`k8s.io.apimachinery.pkg.runtime.Unknown`).
pub fn message(full_name: &str) -> Option<MessageDescriptor> {
    POOL.get_message_by_name(full_name)
}

/// The message of an object of this apiVersion and kind, if it has one.
pub fn message_for(api_version: &str, kind: &str) -> Option<MessageDescriptor> {
    // Kinds are exported Go type names; anything else is not a kind (and not a lookup path).
    if !kind.starts_with(|c: char| c.is_ascii_uppercase())
        || !kind.chars().all(|c| c.is_ascii_alphanumeric())
    {
        return None;
    }
    if META_KINDS.contains(&kind) {
        return message(&format!("{META}.{kind}"));
    }
    message(&format!("{}.{kind}", package(api_version)?))
}

/// Whether an object of this apiVersion and kind can be written as protobuf (built-in kinds,
/// their lists, Status, PartialObjectMetadata; not custom resources, not Table).
pub fn can_encode(api_version: &str, kind: &str) -> bool {
    message_for(api_version, kind).is_some()
}
