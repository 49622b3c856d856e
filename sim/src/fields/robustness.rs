//! Generated-input tests: no input panics, and FieldsV1 round-trips whatever the object.

use serde_json::{Map, Value, json};

use super::*;

/// A small deterministic generator (no extra crates): objects shaped like Kubernetes ones,
/// with the list names the schema knows, so keyed, set and atomic lists all get exercised.
struct Gen(u64);

impl Gen {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below.max(1)
    }

    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.next(options.len() as u64) as usize]
    }

    fn value(&mut self, depth: u32) -> Value {
        let choice = if depth == 0 {
            self.next(4)
        } else {
            self.next(8)
        };
        match choice {
            0 => json!(self.next(3)),
            1 => json!(self.pick(&["a", "b", "TCP", "web"])),
            2 => Value::Null,
            3 => json!(self.next(2) == 0),
            4 | 5 => self.object(depth - 1),
            _ => {
                let len = self.next(4);
                Value::Array((0..len).map(|_| self.item(depth - 1)).collect())
            }
        }
    }

    /// List items usually carry the keys the schema's lists use, sometimes not.
    fn item(&mut self, depth: u32) -> Value {
        if self.next(3) == 0 {
            return self.value(depth);
        }
        let mut item = self.object(depth);
        if let Value::Object(map) = &mut item {
            map.insert("name".into(), json!(self.pick(&["web", "side", "x"])));
            if self.next(2) == 0 {
                map.insert("containerPort".into(), json!(self.next(3)));
            }
        }
        item
    }

    /// A top-level object: like any object, but `metadata`, if there, is a map (the server
    /// rejects anything else before the field manager sees it).
    fn root(&mut self) -> Value {
        let mut obj = self.object(4);
        if let Some(meta) = obj.get_mut("metadata")
            && !meta.is_object()
        {
            *meta = json!({"labels": {"app": "x"}});
        }
        obj
    }

    fn object(&mut self, depth: u32) -> Value {
        let names = [
            "metadata",
            "labels",
            "spec",
            "containers",
            "ports",
            "env",
            "finalizers",
            "selector",
            "replicas",
            "image",
            "template",
            "name",
            "conditions",
            "type",
            "status",
            "data",
        ];
        let len = self.next(5);
        let mut map = Map::new();
        for _ in 0..len {
            let key = self.pick(&names).to_string();
            let value = if depth == 0 {
                json!(self.next(3))
            } else {
                self.value(depth)
            };
            map.insert(key, value);
        }
        Value::Object(map)
    }
}

#[test]
fn fields_v1_round_trips_for_generated_objects() {
    let mut g = Gen(7);
    for _ in 0..400 {
        let obj = g.object(4);
        for builtin in [true, false] {
            let set = FieldSet::from_object(&obj, builtin);
            let back = FieldSet::from_fields_v1(&set.to_fields_v1()).expect("own output parses");
            assert_eq!(back, set, "{obj}");
            assert_eq!(set.union(&set), set);
            assert!(set.difference(&set).is_empty());
            assert_eq!(set.intersection(&set), set);
            assert_eq!(set.paths().len(), set.path_list().len());
        }
    }
}

#[test]
fn generated_writes_and_applies_never_panic_and_keep_invariants() {
    let mut g = Gen(11);
    for round in 0..300 {
        let (a, mut b, c) = (g.root(), g.root(), g.root());
        let builtin = round % 2 == 0;
        let w = |manager| Writer {
            manager,
            api_version: "v1",
            subresource: None,
            time: "2024-01-01T00:00:00Z",
            builtin,
        };
        let mut entries = Vec::new();
        record_update(&mut entries, None, &a, &w("creator"));
        record_update(&mut entries, Some(&a), &b, &w("editor"));
        write_entries(&mut b, &entries);
        let force = round % 3 == 0;
        let _ = server_side_apply(None, &[], &c, &w("applier"), force);
        if let Ok((obj, new)) = server_side_apply(Some(&b), &entries, &c, &w("applier"), force) {
            assert_eq!(read_entries(&obj), new);
            let mine = new.iter().find(|e| e.manager == "applier");
            let applied = FieldSet::from_object(&c, builtin);
            assert_eq!(mine.map(|e| e.fields.clone()).unwrap_or_default(), applied);
            // Re-applying the same configuration changes nothing (unless nothing is tracked any
            // more, when the server hands what is there to before-first-apply).
            if new.is_empty() {
                continue;
            }
            let again = server_side_apply(Some(&obj), &new, &c, &w("applier"), false);
            assert_eq!(again, Ok((obj.clone(), new.clone())), "{c}");
        }
    }
}

#[test]
fn odd_inputs_do_not_panic() {
    let w = Writer {
        manager: "ci",
        api_version: "v1",
        subresource: None,
        time: "2024-01-01T00:00:00Z",
        builtin: true,
    };
    let odd = [
        json!(null),
        json!(1),
        json!([1, {"a": null}]),
        json!({"metadata": 3, "spec": [null]}),
        json!({"metadata": {"labels": null, "finalizers": [{}, {}]}, "spec": {"ports": [{"port": "x"}, 3]}}),
    ];
    for live in &odd {
        for cfg in &odd {
            let _ = server_side_apply(Some(live), &[], cfg, &w, false);
            let _ = server_side_apply(None, &[], cfg, &w, true);
            let mut entries = Vec::new();
            record_update(&mut entries, None, cfg, &w);
            record_update(&mut entries, Some(live), cfg, &w);
            let _ = FieldSet::from_object(cfg, true).to_fields_v1();
            let _ = read_entries(cfg);
        }
    }
}
