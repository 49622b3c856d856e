//! What the embedded API server knows of a field's shape: which lists merge by key (for
//! strategic-merge patch and server-side apply) and which are atomic.
//!
//! A real API server reads this from the OpenAPI schema (`x-kubernetes-list-type`,
//! `x-kubernetes-list-map-keys`, `x-kubernetes-patch-merge-key`). We serve a handful of kinds,
//! so the same facts are written down here, keyed by the field's path from the object's root
//! (field names only; list indexes are not part of the path).

/// How a list field merges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    /// Replaced as a whole (`x-kubernetes-list-type: atomic`, the default).
    Atomic,
    /// A set of scalars (`x-kubernetes-list-type: set`), e.g. `metadata.finalizers`.
    Set,
    /// A map keyed by these item fields (`x-kubernetes-list-type: map`).
    Map(&'static [&'static str]),
}

/// The list's merge behaviour for server-side apply and managedFields.
///
/// `builtin` is false for custom resources (Application, AppProject): their CRDs declare no
/// list types, so every list below `metadata` is atomic, as on a real server.
pub fn list_kind(builtin: bool, path: &[&str]) -> ListKind {
    let Some((&last, parent)) = path.split_last() else {
        return ListKind::Atomic;
    };
    if parent == ["metadata"] {
        return match last {
            "finalizers" => ListKind::Set,
            "ownerReferences" => ListKind::Map(&["uid"]),
            _ => ListKind::Atomic,
        };
    }
    if !builtin {
        return ListKind::Atomic;
    }
    match last {
        "containers" | "initContainers" | "ephemeralContainers" => ListKind::Map(&["name"]),
        "env" | "imagePullSecrets" | "volumes" => ListKind::Map(&["name"]),
        "volumeMounts" => ListKind::Map(&["mountPath"]),
        "volumeDevices" => ListKind::Map(&["devicePath"]),
        "hostAliases" => ListKind::Map(&["ip"]),
        "topologySpreadConstraints" => ListKind::Map(&["topologyKey", "whenUnsatisfiable"]),
        "ports" if in_container(parent) => ListKind::Map(&["containerPort", "protocol"]),
        "ports" if parent == ["spec"] => ListKind::Map(&["port", "protocol"]),
        "conditions" if parent.first() == Some(&"status") => ListKind::Map(&["type"]),
        _ => ListKind::Atomic,
    }
}

/// How a list merges under a strategic-merge patch (`x-kubernetes-patch-strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchStrategy {
    /// The patch's list replaces the live one.
    Replace,
    /// Lists of scalars: the patch's items are added to the live ones (`$deleteFromPrimitiveList`
    /// removes).
    MergePrimitives,
    /// Lists of objects merged item by item on this key (`patchMergeKey`).
    MergeOnKey(&'static str),
}

/// The strategic-merge-patch strategy of a list field. Custom resources have none: a
/// strategic-merge patch against them is refused (as a real server does), so callers only ask
/// for built-in kinds.
pub fn patch_strategy(path: &[&str]) -> PatchStrategy {
    let Some((&last, parent)) = path.split_last() else {
        return PatchStrategy::Replace;
    };
    if parent == ["metadata"] {
        return match last {
            "finalizers" => PatchStrategy::MergePrimitives,
            "ownerReferences" => PatchStrategy::MergeOnKey("uid"),
            _ => PatchStrategy::Replace,
        };
    }
    match last {
        "containers" | "initContainers" | "ephemeralContainers" => {
            PatchStrategy::MergeOnKey("name")
        }
        "env" | "imagePullSecrets" | "volumes" => PatchStrategy::MergeOnKey("name"),
        "volumeMounts" => PatchStrategy::MergeOnKey("mountPath"),
        "volumeDevices" => PatchStrategy::MergeOnKey("devicePath"),
        "hostAliases" => PatchStrategy::MergeOnKey("ip"),
        "topologySpreadConstraints" => PatchStrategy::MergeOnKey("topologyKey"),
        "ports" if in_container(parent) => PatchStrategy::MergeOnKey("containerPort"),
        "ports" if parent == ["spec"] => PatchStrategy::MergeOnKey("port"),
        "conditions" if parent.first() == Some(&"status") => PatchStrategy::MergeOnKey("type"),
        _ => PatchStrategy::Replace,
    }
}

/// Whether an object at this path honours the `$retainKeys` directive (`retainKeys` patch
/// strategy): a Deployment's `spec.strategy` and each item of a pod's `volumes`.
pub fn retains_keys(path: &[&str]) -> bool {
    matches!(path.last(), Some(&"strategy") | Some(&"volumes"))
}

/// True when the fields before a list are a container item (`...containers`).
fn in_container(parent: &[&str]) -> bool {
    matches!(
        parent.last(),
        Some(&"containers") | Some(&"initContainers") | Some(&"ephemeralContainers")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn container_lists_are_maps_keyed_by_name_anywhere_in_a_pod_template() {
        let deploy = ["spec", "template", "spec", "containers"];
        assert_eq!(list_kind(true, &deploy), ListKind::Map(&["name"]));
        assert_eq!(patch_strategy(&deploy), PatchStrategy::MergeOnKey("name"));
        let pod = ["spec", "containers"];
        assert_eq!(list_kind(true, &pod), ListKind::Map(&["name"]));
    }

    #[test]
    fn ports_key_depends_on_whether_they_belong_to_a_container_or_a_service() {
        let container_ports = ["spec", "containers", "ports"];
        assert_eq!(
            list_kind(true, &container_ports),
            ListKind::Map(&["containerPort", "protocol"])
        );
        assert_eq!(
            patch_strategy(&container_ports),
            PatchStrategy::MergeOnKey("containerPort")
        );
        assert_eq!(
            list_kind(true, &["spec", "ports"]),
            ListKind::Map(&["port", "protocol"])
        );
        assert_eq!(
            patch_strategy(&["spec", "ports"]),
            PatchStrategy::MergeOnKey("port")
        );
    }

    #[test]
    fn custom_resources_have_atomic_lists_except_in_metadata() {
        assert_eq!(
            list_kind(false, &["spec", "ignoreDifferences"]),
            ListKind::Atomic
        );
        assert_eq!(list_kind(false, &["spec", "containers"]), ListKind::Atomic);
        assert_eq!(list_kind(false, &["metadata", "finalizers"]), ListKind::Set);
    }

    #[test]
    fn command_and_args_are_atomic() {
        assert_eq!(
            list_kind(true, &["spec", "containers", "command"]),
            ListKind::Atomic
        );
        assert_eq!(
            patch_strategy(&["spec", "containers", "args"]),
            PatchStrategy::Replace
        );
    }
}
