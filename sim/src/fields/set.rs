//! `FieldSet`: a tree of owned field paths, with set algebra and FieldsV1 (de)serialisation.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::FieldsError;
#[cfg(test)]
use super::path::path_string;
use super::path::{Path, PathElement};

/// A set of field paths, shaped like FieldsV1: at each node, `members` are the paths that end
/// here and `children` lead further down. A path can be both (FieldsV1 writes `".": {}` in the
/// child for that). Children are never empty, so structural equality is set equality.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldSet {
    members: BTreeSet<PathElement>,
    children: BTreeMap<PathElement, FieldSet>,
}

impl FieldSet {
    /// The empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// True when no path is in the set.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.is_empty()
    }

    /// Adds one path (an empty path is ignored: the root is never a field).
    pub fn insert(&mut self, path: &[PathElement]) {
        let Some((last, parents)) = path.split_last() else {
            return;
        };
        let mut node = self;
        for pe in parents {
            node = node.children.entry(pe.clone()).or_default();
        }
        node.members.insert(last.clone());
    }

    /// True when exactly this path is in the set.
    pub fn has(&self, path: &[PathElement]) -> bool {
        let Some((last, parents)) = path.split_last() else {
            return false;
        };
        self.descend(parents)
            .is_some_and(|node| node.members.contains(last))
    }

    /// True when this path or anything below it is in the set.
    pub fn covers(&self, path: &[PathElement]) -> bool {
        self.has(path) || self.descend(path).is_some_and(|node| !node.is_empty())
    }

    /// The subtree below `path`, if any path continues past it.
    pub fn descend(&self, path: &[PathElement]) -> Option<&FieldSet> {
        let mut node = self;
        for pe in path {
            node = node.children.get(pe)?;
        }
        Some(node)
    }

    /// The subtree below one element.
    pub fn child(&self, pe: &PathElement) -> Option<&FieldSet> {
        self.children.get(pe)
    }

    /// True when the path ending in `pe` is a member at this node.
    pub fn has_member(&self, pe: &PathElement) -> bool {
        self.members.contains(pe)
    }

    /// The members at this node.
    pub fn members(&self) -> impl Iterator<Item = &PathElement> {
        self.members.iter()
    }

    /// The children at this node.
    pub fn children(&self) -> impl Iterator<Item = (&PathElement, &FieldSet)> {
        self.children.iter()
    }

    /// Every path in either set.
    pub fn union(&self, other: &FieldSet) -> FieldSet {
        let mut out = self.clone();
        out.members.extend(other.members.iter().cloned());
        for (pe, theirs) in &other.children {
            let merged = match out.children.get(pe) {
                Some(ours) => ours.union(theirs),
                None => theirs.clone(),
            };
            out.children.insert(pe.clone(), merged);
        }
        out
    }

    /// The paths of `self` that are not in `other`.
    pub fn difference(&self, other: &FieldSet) -> FieldSet {
        let members = self.members.difference(&other.members).cloned().collect();
        let children = self
            .children
            .iter()
            .filter_map(|(pe, ours)| {
                let rest = match other.children.get(pe) {
                    Some(theirs) => ours.difference(theirs),
                    None => ours.clone(),
                };
                (!rest.is_empty()).then(|| (pe.clone(), rest))
            })
            .collect();
        FieldSet { members, children }
    }

    /// The paths in both sets.
    pub fn intersection(&self, other: &FieldSet) -> FieldSet {
        let members = self.members.intersection(&other.members).cloned().collect();
        let children = self
            .children
            .iter()
            .filter_map(|(pe, ours)| {
                let both = ours.intersection(other.children.get(pe)?);
                (!both.is_empty()).then(|| (pe.clone(), both))
            })
            .collect();
        FieldSet { members, children }
    }

    /// Every path, in the order the real server reports them: at each node its members
    /// first, then each child's paths, all sorted.
    pub fn path_list(&self) -> Vec<Path> {
        let mut out = Vec::new();
        self.collect_paths(&mut Vec::new(), &mut out);
        out
    }

    fn collect_paths(&self, prefix: &mut Path, out: &mut Vec<Path>) {
        for pe in &self.members {
            let mut path = prefix.clone();
            path.push(pe.clone());
            out.push(path);
        }
        for (pe, child) in &self.children {
            prefix.push(pe.clone());
            child.collect_paths(prefix, out);
            prefix.pop();
        }
    }

    #[cfg(test)]
    /// Every path in human form (`.spec.replicas`, `.spec.containers[name="web"].image`).
    pub fn paths(&self) -> Vec<String> {
        self.path_list().iter().map(|p| path_string(p)).collect()
    }

    #[cfg(test)]
    /// True when the field at these names is itself owned, e.g. `["spec", "replicas"]`.
    pub fn contains_path(&self, names: &[&str]) -> bool {
        self.has(&field_path(names))
    }

    #[cfg(test)]
    /// True when the field at these names, or anything inside it, is owned.
    pub fn contains_prefix(&self, names: &[&str]) -> bool {
        self.covers(&field_path(names))
    }

    /// The FieldsV1 form: `{"f:spec":{"f:replicas":{}}}`, with `".":{}` where a node that has
    /// children is itself owned.
    pub fn to_fields_v1(&self) -> Value {
        Value::Object(self.fields_v1_body(false))
    }

    fn fields_v1_body(&self, owned_itself: bool) -> Map<String, Value> {
        let mut out = Map::new();
        if owned_itself {
            out.insert(".".to_string(), Value::Object(Map::new()));
        }
        // Members and children interleave in one sorted order, as the real server writes them.
        let mut keys: BTreeSet<&PathElement> = self.members.iter().collect();
        keys.extend(self.children.keys());
        for pe in keys {
            let body = match self.children.get(pe) {
                Some(child) => child.fields_v1_body(self.members.contains(pe)),
                None => Map::new(),
            };
            out.insert(pe.to_fields_v1_key(), Value::Object(body));
        }
        out
    }

    /// Parses FieldsV1 JSON. An object's `"."` marks its own path as a member; an empty object
    /// is a leaf member.
    pub fn from_fields_v1(v: &Value) -> Result<FieldSet, FieldsError> {
        let Value::Object(map) = v else {
            return Err(FieldsError::NotAnObject);
        };
        let mut out = FieldSet::new();
        for (key, body) in map {
            if key == "." {
                continue; // The parent already recorded this node as a member.
            }
            let pe = PathElement::from_fields_v1_key(key)?;
            let Value::Object(inner) = body else {
                return Err(FieldsError::NotAnObject);
            };
            if inner.is_empty() || inner.contains_key(".") {
                out.members.insert(pe.clone());
            }
            let child = FieldSet::from_fields_v1(body)?;
            if !child.is_empty() {
                out.children.insert(pe, child);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
/// A path made of field names only.
pub fn field_path(names: &[&str]) -> Path {
    names
        .iter()
        .map(|n| PathElement::Field((*n).to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn set(fields_v1: Value) -> FieldSet {
        FieldSet::from_fields_v1(&fields_v1).unwrap()
    }

    #[test]
    fn dot_marks_a_node_that_is_owned_and_has_children() {
        let v = json!({"f:metadata": {"f:labels": {".": {}, "f:app": {}}}, "f:spec": {"f:replicas": {}}});
        let s = set(v.clone());
        assert!(s.contains_path(&["metadata", "labels"]));
        assert!(s.contains_path(&["metadata", "labels", "app"]));
        assert!(!s.contains_path(&["metadata"]));
        assert!(s.contains_prefix(&["metadata"]));
        assert!(s.contains_path(&["spec", "replicas"]));
        assert_eq!(s.to_fields_v1(), v);
        assert_eq!(
            s.paths(),
            vec![".metadata.labels", ".metadata.labels.app", ".spec.replicas"]
        );
    }

    #[test]
    fn algebra() {
        let a = set(json!({"f:spec": {"f:replicas": {}, "f:paused": {}}}));
        let b = set(json!({"f:spec": {"f:replicas": {}}, "f:data": {}}));
        assert_eq!(
            a.intersection(&b),
            set(json!({"f:spec": {"f:replicas": {}}}))
        );
        assert_eq!(a.difference(&b), set(json!({"f:spec": {"f:paused": {}}})));
        let u = a.union(&b);
        assert_eq!(
            u,
            set(json!({"f:data": {}, "f:spec": {"f:paused": {}, "f:replicas": {}}}))
        );
        assert!(a.difference(&a).is_empty());
        assert_eq!(a.difference(&a), FieldSet::default());
    }

    #[test]
    fn paths_list_members_before_deeper_paths() {
        let s = set(json!({"f:spec": {"f:template": {"f:x": {}}, "f:replicas": {}}}));
        assert_eq!(s.paths(), vec![".spec.replicas", ".spec.template.x"]);
    }

    #[test]
    fn rejects_non_objects_and_bad_keys() {
        assert!(FieldSet::from_fields_v1(&json!([])).is_err());
        assert!(FieldSet::from_fields_v1(&json!({"f:spec": 1})).is_err());
        assert!(FieldSet::from_fields_v1(&json!({"spec": {}})).is_err());
        assert_eq!(set(json!({})), FieldSet::new());
    }
}
