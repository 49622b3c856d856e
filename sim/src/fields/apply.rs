//! Server-side apply: merge, prune, conflict detection and the applier's Apply entry.

use serde_json::{Map, Value};

use super::Writer;
use super::cap::cap_update_managers;
use super::compare::compare;
use super::entry::{ManagedFieldsEntry, Operation, sort_entries, write_entries};
use super::lastapplied::{KUBECTL, allowed_conflicts, sync_annotation};
use super::merge::merge;
use super::path::path_string;
use super::prune::prune;
use super::set::FieldSet;
use super::update::track_update;

/// The manager the real server credits with fields that existed before an object's first
/// apply, when the object had no managedFields at all.
pub const BEFORE_FIRST_APPLY: &str = "before-first-apply";

/// One field an apply would take from another manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub manager: String,
    pub operation: Operation,
    /// The manager's apiVersion, for Update managers only (appliers are one manager across
    /// versions, and the real message names no version for them).
    pub api_version: Option<String>,
    pub subresource: Option<String>,
    /// The field in the real server's notation, e.g. `.spec.replicas`.
    pub path: String,
}

impl Conflict {
    /// The manager as the server prints it: `"kubectl"`, or for an updater
    /// `"kubectl" with subresource "scale" using apps/v1`. A status cause's message is
    /// `conflict with {manager_text}`.
    pub fn manager_text(&self) -> String {
        let mut text = format!("{:?}", self.manager);
        if let Some(sub) = &self.subresource {
            text.push_str(&format!(" with subresource {sub:?}"));
        }
        if let Some(version) = &self.api_version {
            text.push_str(&format!(" using {version}"));
        }
        text
    }
}

/// The real server's error text for an apply conflict: one line for a single conflict,
/// otherwise grouped by manager.
pub fn conflict_message(conflicts: &[Conflict]) -> String {
    if let [only] = conflicts {
        return format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            only.manager_text(),
            only.path
        );
    }
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for c in conflicts {
        let who = c.manager_text();
        match groups.iter_mut().find(|(m, _)| *m == who) {
            Some((_, paths)) => paths.push(&c.path),
            None => groups.push((who, vec![&c.path])),
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    let lines: Vec<String> = groups
        .iter()
        .flat_map(|(who, paths)| {
            std::iter::once(format!("conflicts with {who}:"))
                .chain(paths.iter().map(|p| format!("- {p}")))
        })
        .collect();
    format!(
        "Apply failed with {} conflicts: {}",
        conflicts.len(),
        lines.join("\n")
    )
}

/// Applies `config` (the applied configuration) onto `live` (None creates) for `w.manager`.
///
/// Returns the new object, with the new entries already written to its
/// `metadata.managedFields`, and those entries; or the conflicts, when another manager owns a
/// field this apply would change and `force` is false. An apply that changes neither the object
/// nor any ownership returns both unchanged, timestamps included.
pub fn server_side_apply(
    live: Option<&Value>,
    entries: &[ManagedFieldsEntry],
    config: &Value,
    w: &Writer,
    force: bool,
) -> Result<(Value, Vec<ManagedFieldsEntry>), Vec<Conflict>> {
    // A configuration that is not an object sets nothing (the caller rejects it anyway).
    let empty = Value::Object(Map::new());
    let config = if config.is_object() { config } else { &empty };
    let mut managers = entries.to_vec();
    if let Some(live) = live
        && managers.is_empty()
    {
        // Fields nobody tracked yet belong to someone: without this, the first applier could
        // silently overwrite them.
        let before = Writer {
            manager: BEFORE_FIRST_APPLY,
            subresource: None,
            ..*w
        };
        track_update(&mut managers, None, live, &before);
    }
    let applied = FieldSet::from_object(config, w.builtin);
    let is_mine =
        |e: &ManagedFieldsEntry| e.is(w.manager, Operation::Apply, w.api_version, w.subresource);
    let last = managers
        .iter()
        .find(|e| is_mine(e))
        .map(|e| e.fields.clone())
        .unwrap_or_default();
    let others = managers
        .iter()
        .filter(|e| !is_mine(e))
        .fold(FieldSet::new(), |acc, e| acc.union(&e.fields));

    let base = live.cloned().unwrap_or_else(|| identity_of(config));
    let mut object = merge(&base, config, w.builtin);
    let keep = applied.union(&others);
    prune(&mut object, &last.difference(&keep), &keep, w.builtin);

    let cmp = compare(live, &object, w.builtin);
    let changed = cmp.changed();
    if !force {
        check_conflicts(live, &managers, &changed, w, &is_mine)?;
    }

    for entry in managers.iter_mut().filter(|e| !is_mine(e)) {
        // Forced (or allowed) conflicts move to the applier; removed fields leave everyone.
        entry.fields = entry.fields.difference(&changed).difference(&cmp.removed);
    }
    // The real server dates an apply only when it changed the object (managedFieldsUpdater:
    // an apply that leaves the object as it was keeps the applier's earlier time, or none for a
    // new entry; measured in the real lab: kubectl's `kubectl-last-applied` entry has no time).
    let object_unchanged = live.is_some_and(|l| {
        let mut synced = object.clone();
        if w.manager == KUBECTL {
            sync_annotation(&mut synced, config);
        }
        strip_managed(&synced) == strip_managed(l)
    });
    let time = if object_unchanged {
        managers
            .iter()
            .find(|e| is_mine(e))
            .map(|e| e.time.clone())
            .unwrap_or_default()
    } else {
        w.time.to_string()
    };
    managers.retain(|e| !is_mine(e));
    managers.push(ManagedFieldsEntry {
        manager: w.manager.to_string(),
        operation: Operation::Apply,
        api_version: w.api_version.to_string(),
        time,
        fields: applied,
        subresource: w.subresource.map(str::to_string),
    });
    managers.retain(|e| !e.fields.is_empty());
    cap_update_managers(&mut managers);
    sort_entries(&mut managers);

    if w.manager == KUBECTL {
        sync_annotation(&mut object, config);
    }
    if let Some(live) = live
        && strip_managed(&object) == strip_managed(live)
        && same_ownership(entries, &managers)
    {
        return Ok((live.clone(), entries.to_vec()));
    }
    write_entries(&mut object, &managers);
    Ok((object, managers))
}

/// Fails with the conflicts an unforced apply has. `kubectl apply --server-side` after
/// client-side applies takes over, without conflicts, the fields whose live values still match
/// the last-applied annotation (the documented upgrade path); only the rest conflict.
fn check_conflicts(
    live: Option<&Value>,
    managers: &[ManagedFieldsEntry],
    changed: &FieldSet,
    w: &Writer,
    is_mine: &dyn Fn(&ManagedFieldsEntry) -> bool,
) -> Result<(), Vec<Conflict>> {
    let conflicts = find_conflicts(managers, changed, is_mine);
    if conflicts.is_empty() {
        return Ok(());
    }
    let allowed = live
        .filter(|_| w.manager == KUBECTL)
        .and_then(|l| allowed_conflicts(l, w.builtin));
    let remaining = match allowed {
        Some(allowed) => find_conflicts(managers, &changed.difference(&allowed), is_mine),
        None => conflicts,
    };
    if remaining.is_empty() {
        Ok(()) // Every conflict was allowed: the apply proceeds as if forced.
    } else {
        Err(remaining)
    }
}

/// Every other manager's owned field that the apply changes, ordered by manager then path.
fn find_conflicts(
    managers: &[ManagedFieldsEntry],
    changed: &FieldSet,
    is_mine: &dyn Fn(&ManagedFieldsEntry) -> bool,
) -> Vec<Conflict> {
    let mut owners: Vec<&ManagedFieldsEntry> = managers.iter().filter(|e| !is_mine(e)).collect();
    owners.sort_by(|a, b| a.identity().cmp(&b.identity()));
    let mut out = Vec::new();
    for owner in owners {
        for path in owner.fields.intersection(changed).path_list() {
            out.push(Conflict {
                manager: owner.manager.clone(),
                operation: owner.operation,
                api_version: (owner.operation == Operation::Update)
                    .then(|| owner.api_version.clone()),
                subresource: owner.subresource.clone(),
                path: path_string(&path),
            });
        }
    }
    out
}

/// The identity fields of a configuration, which a created object starts from.
fn identity_of(config: &Value) -> Value {
    let mut out = Map::new();
    for key in ["apiVersion", "kind"] {
        if let Some(v) = config.get(key) {
            out.insert(key.to_string(), v.clone());
        }
    }
    let mut meta = Map::new();
    for key in ["name", "namespace"] {
        if let Some(v) = config.pointer(&format!("/metadata/{key}")) {
            meta.insert(key.to_string(), v.clone());
        }
    }
    out.insert("metadata".to_string(), Value::Object(meta));
    Value::Object(out)
}

pub(super) fn strip_managed(obj: &Value) -> Value {
    let mut obj = obj.clone();
    if let Some(Value::Object(meta)) = obj.get_mut("metadata") {
        meta.remove("managedFields");
    }
    obj
}

/// Whether two entry lists record the same ownership, ignoring timestamps and order.
fn same_ownership(a: &[ManagedFieldsEntry], b: &[ManagedFieldsEntry]) -> bool {
    owned(a) == owned(b)
}

type Identity<'a> = (&'a str, Operation, &'a str, &'a str);

fn owned(list: &[ManagedFieldsEntry]) -> Vec<(Identity<'_>, &FieldSet)> {
    let mut v: Vec<_> = list
        .iter()
        .filter(|e| !e.fields.is_empty())
        .map(|e| (e.identity(), &e.fields))
        .collect();
    v.sort_by(|x, y| x.0.cmp(&y.0));
    v
}
