//! Shape facts beyond list kinds that the real server reads from Go types: atomic maps and the
//! fields a zero-valued built-in object always carries.
//!
//! These belong beside `list_kind` in `schema.rs`; they live here until that file takes them.

/// Whether the map at this path is atomic (`+mapType=atomic` / `+structType=atomic`): owned and
/// replaced as a whole, so FieldsV1 shows `f:selector: {}` rather than its insides.
pub fn is_atomic_map(builtin: bool, path: &[&str]) -> bool {
    if !builtin {
        return false; // Our CRDs declare no map types.
    }
    matches!(
        path.last(),
        // LabelSelector is an atomic struct; a Service's and a pod's selectors are atomic maps.
        Some(&("selector" | "labelSelector" | "namespaceSelector" | "nodeSelector"))
            // Env var and envFrom references are atomic structs.
            | Some(&("configMapKeyRef" | "secretKeyRef" | "fieldRef" | "resourceFieldRef"))
            | Some(&("configMapRef" | "secretRef"))
    )
}

/// Whether a zero-valued built-in object already has this node, which the real server creates
/// from Go structs (non-pointer structs and required lists serialise even when empty). On
/// create, such nodes are not "added", so their FieldsV1 carries no `".": {}`.
pub fn in_zero_object(builtin: bool, path: &[&str]) -> bool {
    if !builtin {
        return false; // A custom resource starts as an empty unstructured object.
    }
    matches!(
        path,
        ["metadata"]
            | ["spec"]
            | ["status"]
            | [
                "spec",
                "strategy" | "updateStrategy" | "template" | "containers"
            ]
            | ["spec", "template", "metadata" | "spec"]
            | ["spec", "template", "spec", "containers"]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_are_atomic_only_on_builtin_kinds() {
        assert!(is_atomic_map(true, &["spec", "selector"]));
        assert!(is_atomic_map(
            true,
            &["spec", "template", "spec", "nodeSelector"]
        ));
        assert!(!is_atomic_map(false, &["spec", "selector"]));
        assert!(!is_atomic_map(true, &["metadata", "labels"]));
    }

    #[test]
    fn zero_object_has_spec_and_template_but_not_labels() {
        assert!(in_zero_object(true, &["spec", "template", "spec"]));
        assert!(!in_zero_object(true, &["metadata", "labels"]));
        assert!(!in_zero_object(false, &["spec"]));
    }
}
