//! One `metadata.managedFields` entry, and reading and writing the list on an object.

use serde_json::{Map, Value, json};

use super::FieldsError;
use super::set::FieldSet;

/// How a manager came to own its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    /// Server-side apply: the fields are exactly the manager's last applied configuration.
    Apply,
    /// Any other write: the fields are the ones the manager's writes set or changed.
    Update,
}

impl Operation {
    /// The wire spelling (`"Apply"`, `"Update"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Apply => "Apply",
            Self::Update => "Update",
        }
    }
}

/// One manager's ownership record.
#[derive(Clone, Debug, PartialEq)]
pub struct ManagedFieldsEntry {
    pub manager: String,
    pub operation: Operation,
    pub api_version: String,
    /// RFC 3339, seconds precision; empty when unknown.
    pub time: String,
    pub fields: FieldSet,
    pub subresource: Option<String>,
}

impl ManagedFieldsEntry {
    /// Whether this entry belongs to the given manager identity. Like the real server, an
    /// applier is one manager whatever apiVersion it applied with; an updater is not.
    pub fn is(&self, manager: &str, op: Operation, api_version: &str, sub: Option<&str>) -> bool {
        self.manager == manager
            && self.operation == op
            && self.subresource.as_deref() == sub
            && (op == Operation::Apply || self.api_version == api_version)
    }

    /// The identity as a sortable tuple (manager, operation, apiVersion for updaters, subresource).
    pub(super) fn identity(&self) -> (&str, Operation, &str, &str) {
        let version = match self.operation {
            Operation::Apply => "",
            Operation::Update => &self.api_version,
        };
        let sub = self.subresource.as_deref().unwrap_or("");
        (&self.manager, self.operation, version, sub)
    }

    /// The JSON form, with keys in the order the real server writes them.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("manager".into(), json!(self.manager));
        out.insert("operation".into(), json!(self.operation.as_str()));
        out.insert("apiVersion".into(), json!(self.api_version));
        if !self.time.is_empty() {
            out.insert("time".into(), json!(self.time));
        }
        out.insert("fieldsType".into(), json!("FieldsV1"));
        out.insert("fieldsV1".into(), self.fields.to_fields_v1());
        if let Some(sub) = &self.subresource {
            out.insert("subresource".into(), json!(sub));
        }
        Value::Object(out)
    }

    /// Parses one entry; the operation must be `Apply` or `Update` and the fields FieldsV1.
    pub fn from_json(v: &Value) -> Result<Self, FieldsError> {
        let Value::Object(map) = v else {
            return Err(FieldsError::NotAnObject);
        };
        let text = |key: &str| map.get(key).and_then(Value::as_str).unwrap_or_default();
        let operation = match text("operation") {
            "Apply" => Operation::Apply,
            "Update" => Operation::Update,
            other => return Err(FieldsError::BadOperation(other.to_string())),
        };
        match text("fieldsType") {
            "" | "FieldsV1" => {}
            other => return Err(FieldsError::BadFieldsType(other.to_string())),
        }
        let fields = match map.get("fieldsV1") {
            None | Some(Value::Null) => FieldSet::new(),
            Some(fields) => FieldSet::from_fields_v1(fields)?,
        };
        Ok(Self {
            manager: text("manager").to_string(),
            operation,
            api_version: text("apiVersion").to_string(),
            time: text("time").to_string(),
            fields,
            subresource: Some(text("subresource"))
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        })
    }
}

/// The entries in `metadata.managedFields`; malformed ones are skipped, and two entries for the
/// same manager identity are folded into one, since the server keeps one per identity.
pub fn read_entries(obj: &Value) -> Vec<ManagedFieldsEntry> {
    let Some(Value::Array(items)) = obj.pointer("/metadata/managedFields") else {
        return Vec::new();
    };
    let mut out: Vec<ManagedFieldsEntry> = Vec::new();
    for entry in items
        .iter()
        .filter_map(|v| ManagedFieldsEntry::from_json(v).ok())
    {
        match out.iter_mut().find(|e| e.identity() == entry.identity()) {
            Some(same) => same.fields = same.fields.union(&entry.fields),
            None => out.push(entry),
        }
    }
    out
}

/// Writes the entries to `metadata.managedFields` in the real server's order (Apply before
/// Update, then by time, manager, apiVersion, subresource), dropping entries that own nothing
/// and removing the field when none remain.
pub fn write_entries(obj: &mut Value, entries: &[ManagedFieldsEntry]) {
    let mut kept: Vec<ManagedFieldsEntry> = entries
        .iter()
        .filter(|e| !e.fields.is_empty())
        .cloned()
        .collect();
    sort_entries(&mut kept);
    let Value::Object(root) = obj else {
        return;
    };
    if kept.is_empty() {
        if let Some(Value::Object(meta)) = root.get_mut("metadata") {
            meta.remove("managedFields");
        }
        return;
    }
    let list = Value::Array(kept.iter().map(|e| e.to_json()).collect());
    let meta = root
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(Map::new());
    }
    if let Value::Object(meta) = meta {
        meta.insert("managedFields".into(), list);
    }
}

#[cfg(test)]
/// The entries that own the field at these names (e.g. `["spec", "replicas"]`): the answer to
/// "who owns spec.replicas".
pub fn owners_of<'a>(
    entries: &'a [ManagedFieldsEntry],
    names: &[&str],
) -> Vec<&'a ManagedFieldsEntry> {
    entries
        .iter()
        .filter(|e| e.fields.contains_path(names))
        .collect()
}

/// Sorts entries the way the real server writes them: Apply before Update, then by time,
/// manager, apiVersion and subresource.
pub fn sort_entries(entries: &mut [ManagedFieldsEntry]) {
    entries.sort_by(|a, b| {
        let key = |e: &ManagedFieldsEntry| {
            (
                e.operation.as_str(),
                e.time.clone(),
                e.manager.clone(),
                e.api_version.clone(),
                e.subresource.clone(),
            )
        };
        key(a).cmp(&key(b))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape `kubectl create -f` (client-side apply) leaves on a Deployment.
    fn real_deployment_entry() -> Value {
        json!({
            "manager": "kubectl-client-side-apply",
            "operation": "Update",
            "apiVersion": "apps/v1",
            "time": "2024-05-01T10:00:00Z",
            "fieldsType": "FieldsV1",
            "fieldsV1": {
                "f:metadata": {"f:annotations": {".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {}},
                               "f:labels": {".": {}, "f:app": {}}},
                "f:spec": {
                    "f:progressDeadlineSeconds": {}, "f:replicas": {}, "f:revisionHistoryLimit": {},
                    "f:selector": {},
                    "f:strategy": {"f:rollingUpdate": {".": {}, "f:maxSurge": {}, "f:maxUnavailable": {}},
                                   "f:type": {}},
                    "f:template": {
                        "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                        "f:spec": {
                            "f:containers": {"k:{\"name\":\"nginx\"}": {
                                ".": {}, "f:image": {}, "f:imagePullPolicy": {}, "f:name": {},
                                "f:ports": {".": {}, "k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {
                                    ".": {}, "f:containerPort": {}, "f:protocol": {}}},
                                "f:resources": {}, "f:terminationMessagePath": {},
                                "f:terminationMessagePolicy": {}}},
                            "f:dnsPolicy": {}, "f:restartPolicy": {}, "f:schedulerName": {},
                            "f:securityContext": {}, "f:terminationGracePeriodSeconds": {}
                        }
                    }
                }
            }
        })
    }

    #[test]
    fn real_deployment_entry_round_trips_exactly() {
        let raw = real_deployment_entry();
        let entry = ManagedFieldsEntry::from_json(&raw).unwrap();
        assert_eq!(entry.operation, Operation::Update);
        assert!(entry.fields.contains_path(&["spec", "replicas"]));
        assert!(
            entry
                .fields
                .contains_path(&["spec", "strategy", "rollingUpdate"])
        );
        assert!(!entry.fields.contains_path(&["spec", "strategy"]));
        let paths = entry.fields.paths();
        assert!(
            paths.contains(&r#".spec.template.spec.containers[name="nginx"].image"#.to_string())
        );
        assert_eq!(entry.to_json(), raw);
        assert_eq!(
            serde_json::to_string(&entry.to_json()).unwrap(),
            serde_json::to_string(&raw).unwrap()
        );
    }

    #[test]
    fn bad_entries_are_errors_and_skipped_when_reading() {
        assert!(ManagedFieldsEntry::from_json(&json!({"operation": "Patch"})).is_err());
        assert!(
            ManagedFieldsEntry::from_json(&json!({"operation": "Apply", "fieldsType": "FieldsV2"}))
                .is_err()
        );
        assert!(
            ManagedFieldsEntry::from_json(&json!({"operation": "Apply", "fieldsV1": {"x": {}}}))
                .is_err()
        );
        let obj = json!({"metadata": {"managedFields": [7, {"operation": "Nope"}, real_deployment_entry()]}});
        assert_eq!(read_entries(&obj).len(), 1);
        assert!(read_entries(&json!({"metadata": {"managedFields": "x"}})).is_empty());
    }

    #[test]
    fn write_sorts_like_the_server_and_drops_empty_entries() {
        let entry = |manager: &str, op, time: &str, fields: Value| ManagedFieldsEntry {
            manager: manager.into(),
            operation: op,
            api_version: "apps/v1".into(),
            time: time.into(),
            fields: FieldSet::from_fields_v1(&fields).unwrap(),
            subresource: None,
        };
        let f = json!({"f:spec": {"f:replicas": {}}});
        let entries = vec![
            entry("b", Operation::Update, "2024-01-01T00:00:02Z", f.clone()),
            entry("a", Operation::Update, "2024-01-01T00:00:02Z", f.clone()),
            entry("z", Operation::Update, "2024-01-01T00:00:01Z", f.clone()),
            entry("y", Operation::Apply, "2024-01-01T00:00:09Z", f.clone()),
            entry("empty", Operation::Apply, "2024-01-01T00:00:00Z", json!({})),
        ];
        let mut obj = json!({"metadata": {"name": "x"}});
        write_entries(&mut obj, &entries);
        let names: Vec<_> = read_entries(&obj).into_iter().map(|e| e.manager).collect();
        assert_eq!(names, ["y", "z", "a", "b"]);
        let owners: Vec<_> = owners_of(&entries, &["spec", "replicas"])
            .iter()
            .map(|e| e.manager.as_str())
            .collect();
        assert_eq!(owners, ["b", "a", "z", "y"]);
        assert!(owners_of(&entries, &["spec"]).is_empty());
        write_entries(&mut obj, &entries[4..]);
        assert_eq!(obj, json!({"metadata": {"name": "x"}}));
        let mut not_object = json!(3);
        write_entries(&mut not_object, &entries);
        assert_eq!(not_object, json!(3));
    }
}
