//! Ownership tracking for ordinary writes (create, update, patches, scale): Update entries.

use serde_json::Value;

use super::Writer;
use super::cap::cap_update_managers;
use super::compare::compare;
use super::entry::{ManagedFieldsEntry, Operation, sort_entries};

/// Records an ordinary write. Fields whose value the write added or changed become the
/// writer's (its Update entry for this apiVersion and subresource, timestamped `w.time`) and
/// leave every other entry; fields that disappeared leave every entry. A write that changed no
/// field leaves the entries untouched, time included.
///
/// As on the real server, an existing object that carries no managedFields stays untracked
/// until its first apply (only a create starts tracking).
pub fn record_update(
    entries: &mut Vec<ManagedFieldsEntry>,
    old: Option<&Value>,
    new: &Value,
    w: &Writer,
) {
    if old.is_some() && entries.is_empty() {
        return;
    }
    track_update(entries, old, new, w);
}

/// [`record_update`] without the "untracked objects stay untracked" rule; apply uses it to hand
/// pre-existing fields to `before-first-apply`.
pub(super) fn track_update(
    entries: &mut Vec<ManagedFieldsEntry>,
    old: Option<&Value>,
    new: &Value,
    w: &Writer,
) {
    let cmp = compare(old, new, w.builtin);
    if cmp.is_empty() {
        return;
    }
    let taken = cmp.changed();
    // The writer's earlier fields are treated like anyone else's first: what this write
    // changed is re-added below, what it removed is gone.
    for entry in entries.iter_mut() {
        entry.fields = entry.fields.difference(&taken).difference(&cmp.removed);
    }
    if !taken.is_empty() {
        let sub = w.subresource;
        // The real server's scale handler maps the Scale's entries back onto the parent with
        // the time the manager's entry already had there, and none for a new one
        // (ScaleHandler.ToParent in k8s.io/apimachinery): a write through /scale is never
        // dated. Measured against Kubernetes v1.35 in the real lab (docs/real-lab.md).
        let dated = sub != Some("scale");
        match entries
            .iter_mut()
            .find(|e| e.is(w.manager, Operation::Update, w.api_version, sub))
        {
            Some(mine) => {
                mine.fields = mine.fields.union(&taken);
                if dated {
                    mine.time = w.time.to_string();
                }
            }
            None => entries.push(ManagedFieldsEntry {
                manager: w.manager.to_string(),
                operation: Operation::Update,
                api_version: w.api_version.to_string(),
                time: if dated {
                    w.time.to_string()
                } else {
                    String::new()
                },
                fields: taken,
                subresource: sub.map(str::to_string),
            }),
        }
    }
    entries.retain(|e| !e.fields.is_empty());
    cap_update_managers(entries);
    sort_entries(entries);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fields::set::FieldSet;
    use serde_json::json;

    fn writer<'a>(manager: &'a str, sub: Option<&'a str>, time: &'a str) -> Writer<'a> {
        Writer {
            manager,
            api_version: "apps/v1",
            subresource: sub,
            time,
            builtin: true,
        }
    }

    fn deployment(replicas: i64, image: &str) -> Value {
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
                     "template": {"metadata": {"labels": {"app": "web"}},
                                  "spec": {"containers": [{"name": "web", "image": image}]}}}
        })
    }

    fn created() -> Vec<ManagedFieldsEntry> {
        let mut entries = Vec::new();
        let w = writer("kubectl-create", None, "2024-01-01T00:00:00Z");
        record_update(&mut entries, None, &deployment(1, "nginx:1.26"), &w);
        entries
    }

    #[test]
    fn create_gives_every_field_to_the_creator() {
        let entries = created();
        assert_eq!(entries.len(), 1);
        let e = &entries[0];
        assert_eq!(
            (e.manager.as_str(), e.operation),
            ("kubectl-create", Operation::Update)
        );
        assert_eq!(
            e.fields.to_fields_v1(),
            json!({"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                   "f:spec": {"f:replicas": {}, "f:selector": {},
                              "f:template": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                                             "f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {
                                                 ".": {}, "f:image": {}, "f:name": {}}}}}}})
        );
    }

    #[test]
    fn scale_moves_replicas_to_the_scale_subresource_manager() {
        let mut entries = created();
        let w = writer("kubectl", Some("scale"), "2024-01-01T00:01:00Z");
        record_update(
            &mut entries,
            Some(&deployment(1, "nginx:1.26")),
            &deployment(5, "nginx:1.26"),
            &w,
        );
        let scale = entries
            .iter()
            .find(|e| e.subresource.as_deref() == Some("scale"))
            .unwrap();
        assert_eq!(scale.manager, "kubectl");
        assert_eq!(
            scale.fields.to_fields_v1(),
            json!({"f:spec": {"f:replicas": {}}})
        );
        assert_eq!(
            scale.time, "",
            "a write through /scale is not dated (the real scale handler's ToParent)"
        );
        assert!(scale.to_json().get("time").is_none());
        let creator = entries
            .iter()
            .find(|e| e.manager == "kubectl-create")
            .unwrap();
        assert!(!creator.fields.contains_path(&["spec", "replicas"]));
        assert!(creator.fields.contains_path(&["spec", "selector"]));
        assert_eq!(
            creator.time, "2024-01-01T00:00:00Z",
            "a loser keeps its timestamp"
        );
    }

    #[test]
    fn image_change_moves_the_container_image_only() {
        let mut entries = created();
        let w = writer("kubectl-set", None, "2024-01-01T00:02:00Z");
        record_update(
            &mut entries,
            Some(&deployment(1, "nginx:1.26")),
            &deployment(1, "nginx:1.27"),
            &w,
        );
        let setter = entries.iter().find(|e| e.manager == "kubectl-set").unwrap();
        assert_eq!(
            setter.fields.to_fields_v1(),
            json!({"f:spec": {"f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {"f:image": {}}}}}}})
        );
        assert_eq!(
            setter.fields.paths(),
            vec![r#".spec.template.spec.containers[name="web"].image"#]
        );
        let creator = entries
            .iter()
            .find(|e| e.manager == "kubectl-create")
            .unwrap();
        let web = ["spec", "template", "spec", "containers"];
        assert!(creator.fields.contains_prefix(&web));
        assert!(!creator.fields.paths().iter().any(|p| p.ends_with(".image")));
    }

    #[test]
    fn no_change_leaves_entries_and_times_alone() {
        let mut entries = created();
        let before = entries.clone();
        let w = writer("other", None, "2030-01-01T00:00:00Z");
        record_update(
            &mut entries,
            Some(&deployment(1, "nginx:1.26")),
            &deployment(1, "nginx:1.26"),
            &w,
        );
        assert_eq!(entries, before);
    }

    #[test]
    fn removed_fields_leave_every_entry() {
        let mut entries = created();
        let mut new = deployment(1, "nginx:1.26");
        new["metadata"].as_object_mut().unwrap().remove("labels");
        let w = writer("editor", None, "2024-01-01T00:03:00Z");
        record_update(&mut entries, Some(&deployment(1, "nginx:1.26")), &new, &w);
        assert_eq!(entries.len(), 1, "a pure removal gives the writer nothing");
        assert!(!entries[0].fields.contains_prefix(&["metadata"]));
    }

    #[test]
    fn objects_without_managed_fields_stay_untracked_on_update() {
        let mut entries = Vec::new();
        let w = writer("editor", None, "2024-01-01T00:03:00Z");
        record_update(
            &mut entries,
            Some(&deployment(1, "a")),
            &deployment(2, "a"),
            &w,
        );
        assert!(entries.is_empty());
    }

    #[test]
    fn repeated_writes_by_one_manager_accumulate_in_one_entry() {
        let mut entries = created();
        let w = writer("editor", None, "2024-01-01T00:04:00Z");
        record_update(
            &mut entries,
            Some(&deployment(1, "a")),
            &deployment(2, "a"),
            &w,
        );
        record_update(
            &mut entries,
            Some(&deployment(2, "a")),
            &deployment(2, "b"),
            &w,
        );
        let mine: Vec<_> = entries.iter().filter(|e| e.manager == "editor").collect();
        assert_eq!(mine.len(), 1);
        let expected = FieldSet::from_fields_v1(&json!({"f:spec": {"f:replicas": {},
            "f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {"f:image": {}}}}}}}));
        assert_eq!(mine[0].fields, expected.unwrap());
    }
}
