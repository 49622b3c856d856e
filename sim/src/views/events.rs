//! core/v1 Event ⇄ events.k8s.io/v1 Event: the same fields under the newer names
//! (`involvedObject` → `regarding`, `message` → `note`, the old counters as `deprecated*`).

use serde_json::{Map, Value, json};

use super::carry;

/// (core name, events.k8s.io name), for every field that is renamed; the rest keep their names.
const RENAMED: &[(&str, &str)] = &[
    ("involvedObject", "regarding"),
    ("message", "note"),
    ("reportingComponent", "reportingController"),
    ("source", "deprecatedSource"),
    ("firstTimestamp", "deprecatedFirstTimestamp"),
    ("lastTimestamp", "deprecatedLastTimestamp"),
    ("count", "deprecatedCount"),
];

/// Fields both versions name alike.
const SAME: &[&str] = &[
    "metadata",
    "reason",
    "type",
    "action",
    "eventTime",
    "series",
    "related",
    "reportingInstance",
];

pub fn core_to_v1(core: &Value) -> Value {
    rename(core, "events.k8s.io/v1", |(c, v)| (*c, *v))
}

pub fn v1_to_core(v1: Value) -> Value {
    rename(&v1, "v1", |(c, v)| (*v, *c))
}

fn rename(
    src: &Value,
    api_version: &str,
    dir: impl Fn(&(&'static str, &'static str)) -> (&'static str, &'static str),
) -> Value {
    let Some(src) = src.as_object() else {
        return src.clone();
    };
    let mut out = Map::new();
    out.insert("kind".into(), json!("Event"));
    out.insert("apiVersion".into(), json!(api_version));
    for f in SAME {
        carry(src, f, &mut out, f);
    }
    for pair in RENAMED {
        let (from, to) = dir(pair);
        carry(src, from, &mut out, to);
    }
    // A core `series` counts in `count` and `lastObservedTime`, as does the v1 one: same shape.
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_core_event_reads_in_the_new_names_and_converts_back_unchanged() {
        let core = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e", "namespace": "d"},
            "involvedObject": {"kind": "Pod", "name": "p"}, "message": "hi", "reason": "Started",
            "type": "Normal", "count": 2, "source": {"component": "kubelet"},
            "firstTimestamp": "2025-01-01T00:00:00Z", "lastTimestamp": null, "reportingComponent": "kubelet"});
        let v1 = core_to_v1(&core);
        assert_eq!(v1["apiVersion"], "events.k8s.io/v1");
        assert_eq!(v1["regarding"]["name"], "p");
        assert_eq!(v1["note"], "hi");
        assert_eq!(v1["deprecatedCount"], 2);
        assert_eq!(v1["reportingController"], "kubelet");
        assert!(
            v1["deprecatedLastTimestamp"].is_null() && v1.get("deprecatedLastTimestamp").is_some()
        );
        assert_eq!(v1_to_core(v1), core);
    }
}
