//! Keeps at most ten Update entries, folding the oldest into "ancient-changes" as the server does.

use super::entry::{ManagedFieldsEntry, Operation};

/// The real server's limit on Update entries per object.
pub const MAX_UPDATE_MANAGERS: usize = 10;

/// The manager name the oldest updates are folded into.
pub const ANCIENT_CHANGES: &str = "ancient-changes";

/// Folds the oldest Update entries into one "ancient-changes" entry per apiVersion until at most
/// [`MAX_UPDATE_MANAGERS`] remain. Without this, every controller and every `kubectl` verb that
/// ever touched an object would keep an entry forever.
pub fn cap_update_managers(entries: &mut Vec<ManagedFieldsEntry>) {
    let mut updates: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].operation == Operation::Update)
        .collect();
    let mut excess = updates.len().saturating_sub(MAX_UPDATE_MANAGERS);
    if excess == 0 {
        return;
    }
    // Oldest first; ties broken by manager name so the result does not depend on input order.
    updates.sort_by(|&a, &b| {
        (&entries[a].time, &entries[a].manager).cmp(&(&entries[b].time, &entries[b].manager))
    });
    // The first old entry of each apiVersion becomes its bucket; later ones fold into it,
    // each fold removing one entry, until the count is within the limit.
    // An "ancient-changes" entry left by an earlier cap is already its version's bucket.
    let is_bucket =
        |e: &ManagedFieldsEntry| e.manager == ANCIENT_CHANGES && e.subresource.is_none();
    let mut buckets: Vec<usize> = updates
        .iter()
        .copied()
        .filter(|&i| is_bucket(&entries[i]))
        .collect();
    let mut folded: Vec<usize> = Vec::new();
    for &i in &updates {
        if excess == 0 {
            break;
        }
        if buckets.contains(&i) {
            continue;
        }
        let version = entries[i].api_version.clone();
        match buckets.iter().find(|&&b| entries[b].api_version == version) {
            Some(&b) => {
                let fields = entries[b].fields.union(&entries[i].fields);
                let time = entries[i].time.clone().max(entries[b].time.clone());
                let bucket = &mut entries[b];
                bucket.manager = ANCIENT_CHANGES.to_string();
                bucket.subresource = None;
                bucket.fields = fields;
                bucket.time = time;
                folded.push(i);
                excess -= 1;
            }
            None => buckets.push(i),
        }
    }
    let mut index = 0;
    entries.retain(|_| {
        let keep = !folded.contains(&index);
        index += 1;
        keep
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fields::set::FieldSet;

    fn update(manager: &str, second: u32) -> ManagedFieldsEntry {
        let mut fields = FieldSet::new();
        fields.insert(&crate::fields::set::field_path(&["data", manager]));
        ManagedFieldsEntry {
            manager: manager.to_string(),
            operation: Operation::Update,
            api_version: "v1".into(),
            time: format!("2024-01-01T00:00:{second:02}Z"),
            fields,
            subresource: None,
        }
    }

    #[test]
    fn twelve_updaters_become_ten_with_the_three_oldest_folded() {
        let mut entries: Vec<_> = (0..12).map(|i| update(&format!("m{i:02}"), i)).collect();
        cap_update_managers(&mut entries);
        assert_eq!(entries.len(), 10);
        let ancient = entries
            .iter()
            .find(|e| e.manager == ANCIENT_CHANGES)
            .unwrap();
        assert_eq!(
            ancient.fields.paths(),
            vec![".data.m00", ".data.m01", ".data.m02"]
        );
        assert_eq!(ancient.time, "2024-01-01T00:00:02Z");
        assert!(entries.iter().any(|e| e.manager == "m03"));
    }

    #[test]
    fn an_existing_bucket_collects_later_folds() {
        let mut entries: Vec<_> = (0..10)
            .map(|i| update(&format!("m{i:02}"), i + 10))
            .collect();
        let mut old = update(ANCIENT_CHANGES, 5);
        old.fields
            .insert(&crate::fields::set::field_path(&["data", "older"]));
        entries.push(old);
        cap_update_managers(&mut entries);
        assert_eq!(entries.len(), 10);
        assert_eq!(
            entries
                .iter()
                .filter(|e| e.manager == ANCIENT_CHANGES)
                .count(),
            1
        );
        let ancient = entries
            .iter()
            .find(|e| e.manager == ANCIENT_CHANGES)
            .unwrap();
        assert!(ancient.fields.contains_path(&["data", "m00"]));
        assert!(ancient.fields.contains_path(&["data", "older"]));
    }

    #[test]
    fn ten_or_fewer_are_left_alone() {
        let mut entries: Vec<_> = (0..10).map(|i| update(&format!("m{i}"), i)).collect();
        let before = entries.clone();
        cap_update_managers(&mut entries);
        assert_eq!(entries, before);
    }
}
