//! The ControllerRevisions the StatefulSet and DaemonSet controllers keep, one per template
//! they have run, so that `kubectl rollout history` and `rollout undo` find them: named
//! `<owner>-<hash>`, numbered in the order templates were used (a template used again moves to
//! the next number), trimmed to `revisionHistoryLimit` old ones.

use serde_json::{Value, json};

use super::{Env, MANAGER, owned};
use crate::kinds::CONTROLLER_REVISION;
use crate::objects;
use crate::ops::{self, Actor, DeleteOptions, Part};
use crate::store::Key;

/// How many old revisions are kept when the owner does not say.
const DEFAULT_HISTORY: usize = 10;

/// Makes sure the revision `name` of `owner`'s current template exists and is the newest.
pub fn record(env: &Env, owner: &Value, name: &str) {
    let namespace = objects::namespace(owner);
    let mut all = owned(env, &CONTROLLER_REVISION, namespace, objects::uid(owner));
    let number = |r: &Value| r["revision"].as_i64().unwrap_or(0);
    let newest = all.iter().map(|r| number(r)).max().unwrap_or(0);
    match all.iter().find(|r| objects::name(r) == name) {
        Some(existing) if number(existing) == newest => {}
        Some(_) => {
            let key = Key::new(&CONTROLLER_REVISION, namespace, name);
            let patch = json!({"revision": newest + 1});
            let _ = ops::merge(&env.store, &key, &patch, Part::Main, MANAGER);
        }
        None => {
            let revision = new_revision(owner, name, newest + 1);
            let _ = ops::create(
                &env.store,
                &CONTROLLER_REVISION,
                namespace,
                revision,
                &Actor::new(MANAGER),
            );
        }
    }
    // The oldest ones beyond the limit go, never the current one.
    let limit = owner["spec"]["revisionHistoryLimit"]
        .as_u64()
        .map_or(DEFAULT_HISTORY, |n| n as usize);
    all.retain(|r| objects::name(r) != name);
    all.sort_by_key(|r| number(r));
    let excess = all.len().saturating_sub(limit);
    for old in all.iter().take(excess) {
        let _ = ops::delete(
            &env.store,
            &CONTROLLER_REVISION,
            namespace,
            objects::name(old),
            &DeleteOptions::default(),
        );
    }
}

/// The revision as `NewControllerRevision` makes it: the template's labels plus the hash, the
/// owner's annotations (its change-cause among them), and the template as a replacing patch.
fn new_revision(owner: &Value, name: &str, number: i64) -> Value {
    let template = &owner["spec"]["template"];
    let mut labels = template["metadata"]["labels"].clone();
    if !labels.is_object() {
        labels = json!({});
    }
    let hash = name.rsplit_once('-').map_or(name, |(_, h)| h).to_string();
    labels["controller-revision-hash"] = json!(hash);
    let mut template_patch = template.clone();
    template_patch["$patch"] = json!("replace");
    let mut meta = json!({
        "name": name,
        "labels": labels,
        "ownerReferences": [objects::owner_reference(owner, true)],
    });
    let annotations = owner["metadata"]["annotations"].clone();
    if annotations.as_object().is_some_and(|a| !a.is_empty()) {
        meta["annotations"] = annotations;
    }
    json!({
        "apiVersion": "apps/v1",
        "kind": "ControllerRevision",
        "metadata": meta,
        "data": {"spec": {"template": template_patch}},
        "revision": number,
    })
}
