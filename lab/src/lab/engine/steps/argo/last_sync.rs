//! The last full sync an app's wait saw succeed, kept for the evidence step after it. On the
//! real Argo CD a self-heal can follow a sync within a second (its refresh can compare before
//! its watch cache holds what the last wave created, and reads it Missing): its partial
//! operation replaces the one that ran the hooks, so evidence read from
//! `status.operationState` right after finds no hook (the real lab showed it in lesson 5).
//! The sync the lesson means is the full one; it is read as it ended.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::lab::eval::evidence::Known;
use crate::lab::paths::LabPaths;

fn path(paths: &LabPaths, app: &str) -> PathBuf {
    paths.tutor_dir().join(format!("last-full-sync-{app}.json"))
}

/// A full (not partial) operation that ended Succeeded.
fn full_sync_succeeded(app: &Value) -> bool {
    let state = &app["status"]["operationState"];
    state["phase"] == "Succeeded"
        && state["operation"]["sync"]["resources"]
            .as_array()
            .is_none_or(Vec::is_empty)
        && state["syncResult"].is_object()
}

/// Keeps `app` when its last operation was a full sync that succeeded.
pub fn remember(paths: &LabPaths, app: &Value) {
    if !full_sync_succeeded(app) {
        return;
    }
    let Some(name) = app["metadata"]["name"].as_str() else {
        return;
    };
    let file = path(paths, name);
    if let Some(dir) = file.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = crate::lab::files::write_atomic(&file, &app.to_string());
}

/// The objects to read as they were for evidence: app `name` now, with its operation as its
/// last full sync ended, when its operation now is a partial sync (a self-heal) of the same
/// revision after it.
pub fn known_for(paths: &LabPaths, name: &str, live: &Value, app_path: &str) -> Known {
    let mut known = Known::new();
    let Some(saved) = read(&path(paths, name)) else {
        return known;
    };
    let now = &live["status"]["operationState"];
    let then = &saved["status"]["operationState"];
    let partial_since = now["operation"]["sync"]["resources"]
        .as_array()
        .is_some_and(|r| !r.is_empty())
        && now["syncResult"]["revision"] == then["syncResult"]["revision"]
        && now["startedAt"].as_str() >= then["finishedAt"].as_str();
    if partial_since {
        // Only the operation is read as it ended: everything else (sync, health) is the app
        // now, as the lesson reads it.
        let mut app = live.clone();
        app["status"]["operationState"] = then.clone();
        known.insert(app_path.to_string(), app);
    }
    known
}

fn read(file: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(file).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn app(phase: &str, resources: Option<Value>, started: &str, finished: &str) -> Value {
        let mut op = json!({"sync": {"revision": "abc"}});
        if let Some(r) = resources {
            op["sync"]["resources"] = r;
        }
        json!({"metadata": {"name": "src-waves"}, "status": {"operationState": {
            "phase": phase, "operation": op, "startedAt": started, "finishedAt": finished,
            "syncResult": {"revision": "abc", "resources": []}}}})
    }

    #[test]
    fn a_self_heal_after_a_full_sync_is_read_as_the_full_sync_ended() {
        let dir = tempfile::tempdir().unwrap();
        let paths = LabPaths {
            src_dir: dir.path().to_path_buf(),
            bare_dir: dir.path().join("bare"),
        };
        let full = app(
            "Succeeded",
            None,
            "2026-12-03T10:00:00Z",
            "2026-12-03T10:00:05Z",
        );
        remember(&paths, &full);
        let heal = app(
            "Succeeded",
            Some(json!([{"kind": "Job", "name": "smoke"}])),
            "2026-12-03T10:00:06Z",
            "2026-12-03T10:00:06Z",
        );
        let mut heal = heal;
        heal["status"]["sync"] = json!({"status": "Synced"});
        let known = known_for(&paths, "src-waves", &heal, "/apps/x");
        let read = &known["/apps/x"];
        assert_eq!(
            read["status"]["operationState"],
            full["status"]["operationState"]
        );
        // The rest is the app now: a full sync remembered while the app still read OutOfSync
        // does not make it OutOfSync (lesson 7 on the real lab).
        assert_eq!(read["status"]["sync"]["status"], "Synced");
        // The live app's own full sync is read live.
        assert!(known_for(&paths, "src-waves", &full, "/apps/x").is_empty());
        // A partial sync is never remembered as the full one.
        remember(&paths, &heal);
        assert_eq!(
            known_for(&paths, "src-waves", &heal, "/apps/x")["/apps/x"]["status"]["operationState"],
            full["status"]["operationState"]
        );
    }
}
