//! The LimitRanger admission plugin's defaulting: a container created without a request or
//! limit that a `Container` LimitRange item defaults gets it, and the Pod is annotated with what
//! was set, as on a real server. (Min/max and ratio checks are not enforced: docs/sim-fidelity.md.)

use serde_json::{Value, json};

use crate::kinds;
use crate::store::Store;

/// The `Container` items of the namespace's LimitRanges (read before the write: the store is
/// locked while a write is prepared).
pub fn container_items(store: &Store, namespace: &str) -> Vec<Value> {
    store
        .list(&kinds::LIMIT_RANGE, Some(namespace))
        .0
        .iter()
        .flat_map(|r| r["spec"]["limits"].as_array().cloned().unwrap_or_default())
        .filter(|i| i["type"] == "Container")
        .collect()
}

/// Fills the defaults of `items` into a Pod about to be created.
pub fn default_pod(items: &[Value], pod: &mut Value) {
    if items.is_empty() {
        return;
    }
    let mut set = Vec::new();
    for list in ["initContainers", "containers"] {
        let Some(containers) = pod["spec"].get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        for c in containers {
            let name = c["name"].as_str().unwrap_or_default().to_string();
            let kind = if list == "containers" {
                "container"
            } else {
                "init container"
            };
            for (part, from, word) in [
                ("requests", "defaultRequest", "request"),
                ("limits", "default", "limit"),
            ] {
                // One annotation entry per container and part: `cpu, memory request for container web`.
                let mut named = Vec::new();
                for item in items {
                    for (res, value) in item[from].as_object().into_iter().flatten() {
                        if c["resources"][part].get(res).is_none() {
                            if !c["resources"].is_object() {
                                c["resources"] = json!({});
                            }
                            if !c["resources"][part].is_object() {
                                c["resources"][part] = json!({});
                            }
                            c["resources"][part][res] = value.clone();
                            named.push(res.clone());
                        }
                    }
                }
                if !named.is_empty() {
                    set.push(format!("{} {word} for {kind} {name}", named.join(", ")));
                }
            }
        }
    }
    if set.is_empty() {
        return;
    }
    let meta = crate::objects::metadata_mut(pod);
    let notes = crate::objects::map_at(meta.entry("annotations").or_insert(json!({})));
    notes.insert(
        "kubernetes.io/limit-ranger".into(),
        json!(format!("LimitRanger plugin set: {}", set.join("; "))),
    );
}
