//! What a write did to an object, path by path: which fields it added, changed and removed.

use serde_json::Value;

use super::path::PathElement;
use super::set::FieldSet;
use super::typed::in_zero_object;
use super::walk::{Node, names_of, nodes};

/// The difference between two versions of an object, as the field manager tracks it.
#[derive(Debug, Default, PartialEq)]
pub struct Comparison {
    /// Paths present only in the new object: leaves, and the maps, lists and items that hold
    /// them (those show up as `".": {}` in FieldsV1).
    pub added: FieldSet,
    /// Leaves present in both whose value changed (or that changed shape).
    pub modified: FieldSet,
    /// Paths present only in the old object.
    pub removed: FieldSet,
}

impl Comparison {
    /// Added or modified: what the writer now owns, and what conflicts with other owners.
    pub fn changed(&self) -> FieldSet {
        self.added.union(&self.modified)
    }

    /// True when the write changed no field.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.modified.is_empty() && self.removed.is_empty()
    }
}

/// Compares `old` (None for a create) with `new`.
///
/// On a create the real server compares against a zero-valued object, which for built-in kinds
/// already has `spec`, `spec.template` and the like; those are not counted as added.
pub fn compare(old: Option<&Value>, new: &Value, builtin: bool) -> Comparison {
    let before = old.map(|o| nodes(o, builtin)).unwrap_or_default();
    let after = nodes(new, builtin);
    let mut cmp = Comparison::default();
    for (path, node) in &after {
        match (before.get(path), node) {
            (None, Node::Leaf(_)) => cmp.added.insert(path),
            (None, _) if old.is_none() && in_zero_skeleton(path, builtin) => {}
            (None, _) => cmp.added.insert(path),
            (Some(Node::Leaf(a)), Node::Leaf(b)) if a != b => cmp.modified.insert(path),
            // A leaf became a container or the other way round: the field changed shape.
            (Some(Node::Leaf(_)), n) | (Some(n), Node::Leaf(_)) if !matches!(n, Node::Leaf(_)) => {
                cmp.modified.insert(path);
            }
            _ => {}
        }
    }
    for path in before.keys() {
        if !after.contains_key(path) {
            cmp.removed.insert(path);
        }
    }
    cmp
}

/// Whether a create's zero-valued object already had this node (never true of list items).
fn in_zero_skeleton(path: &[PathElement], builtin: bool) -> bool {
    matches!(path.last(), Some(PathElement::Field(_))) && in_zero_object(builtin, &names_of(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn create_adds_everything_but_the_zero_object_skeleton() {
        let new = json!({"metadata": {"name": "w", "labels": {"app": "w"}},
                         "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "c"}]}}}});
        let cmp = compare(None, &new, true);
        assert_eq!(
            cmp.added.to_fields_v1(),
            json!({"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                   "f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
                       "k:{\"name\":\"c\"}": {".": {}, "f:name": {}}}}}}})
        );
        let custom = compare(None, &json!({"spec": {"project": "p"}}), false);
        assert_eq!(
            custom.added.to_fields_v1(),
            json!({"f:spec": {".": {}, "f:project": {}}})
        );
    }

    #[test]
    fn update_reports_modified_and_removed() {
        let old =
            json!({"spec": {"replicas": 1, "paused": true}, "metadata": {"labels": {"a": "1"}}});
        let new = json!({"spec": {"replicas": 3}, "metadata": {"labels": {"a": "1"}}});
        let cmp = compare(Some(&old), &new, true);
        assert!(cmp.added.is_empty());
        assert_eq!(cmp.modified.paths(), vec![".spec.replicas"]);
        assert_eq!(cmp.removed.paths(), vec![".spec.paused"]);
        assert!(compare(Some(&old), &old, true).is_empty());
    }

    #[test]
    fn shape_change_is_a_modification() {
        let old = json!({"data": {"x": "1"}});
        let new = json!({"data": "flat"});
        let cmp = compare(Some(&old), &new, true);
        assert_eq!(cmp.modified.paths(), vec![".data"]);
        assert_eq!(cmp.removed.paths(), vec![".data.x"]);
    }
}
