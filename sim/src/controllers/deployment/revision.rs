//! Revision numbers of a Deployment's ReplicaSets, as the Deployment controller keeps them
//! (`SetNewReplicaSetAnnotations`, docs/sim-behaviour.md §15.6): the ReplicaSet of the current
//! template always has the highest revision, so one reused by a rollback gets the next number
//! and remembers its old ones in `deployment.kubernetes.io/revision-history`.

use serde_json::{Value, json};

pub const REVISION: &str = "deployment.kubernetes.io/revision";
pub const REVISION_HISTORY: &str = "deployment.kubernetes.io/revision-history";
/// The history annotation is kept under this many characters, oldest entries dropped first.
const HISTORY_LIMIT_CHARS: usize = 2000;

/// A ReplicaSet's revision (0 when it has none or it does not parse).
pub fn revision(rs: &Value) -> i64 {
    rs["metadata"]["annotations"][REVISION]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// The annotations a reused ReplicaSet needs so that its revision is `new_revision`, or `None`
/// when it already has that revision or a higher one.
pub fn bumped_annotations(rs: &Value, new_revision: i64) -> Option<Value> {
    let annotations = &rs["metadata"]["annotations"];
    let old = annotations[REVISION].as_str();
    let old_number = revision(rs);
    if old_number >= new_revision {
        return None;
    }
    let mut patch = json!({REVISION: new_revision.to_string()});
    if let Some(old) = old {
        let history = annotations[REVISION_HISTORY].as_str().unwrap_or_default();
        if history.is_empty() {
            patch[REVISION_HISTORY] = json!(old);
        } else {
            let mut entries: Vec<&str> = history.split(',').collect();
            let mut total = history.len() + old.len() + 1;
            let mut start = 0;
            while total > HISTORY_LIMIT_CHARS && start < entries.len() {
                total -= entries[start].len() + 1;
                start += 1;
            }
            if total <= HISTORY_LIMIT_CHARS {
                entries.drain(..start);
                entries.push(old);
                patch[REVISION_HISTORY] = json!(entries.join(","));
            }
        }
    }
    Some(patch)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rs(rev: Option<&str>, history: Option<&str>) -> Value {
        let mut a = json!({});
        if let Some(r) = rev {
            a[REVISION] = json!(r);
        }
        if let Some(h) = history {
            a[REVISION_HISTORY] = json!(h);
        }
        json!({"metadata": {"annotations": a}})
    }

    #[test]
    fn a_reused_replica_set_takes_the_next_revision_and_keeps_its_old_ones() {
        let p = bumped_annotations(&rs(Some("1"), None), 3).unwrap();
        assert_eq!(p, json!({REVISION: "3", REVISION_HISTORY: "1"}));
        let p = bumped_annotations(&rs(Some("3"), Some("1")), 5).unwrap();
        assert_eq!(p[REVISION_HISTORY], "1,3");
        assert_eq!(bumped_annotations(&rs(Some("5"), None), 5), None);
        // A ReplicaSet without a revision gets one and no history.
        assert_eq!(
            bumped_annotations(&rs(None, None), 2).unwrap(),
            json!({REVISION: "2"})
        );
    }
}
