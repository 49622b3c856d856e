//! Broken evidence a lesson's self-check must refuse: each field of the wrong type, each value
//! the lesson pins changed by the least it can be, and each rule between fields crossed just
//! past its edge. Made from the evidence a good run wrote; pure, so each kind is tested alone.

use serde_json::{Value, json};

use crate::lab::eval::check::time_of;
use crate::lab::spec::{EvidenceSpec, JsonType, Rule};

/// How a piece of evidence was broken, for the report.
#[derive(Debug, Clone, PartialEq)]
pub enum Breakage {
    /// The field holds a value of another JSON type (the quoted number, the `null` of a missed
    /// `jq` path).
    WrongType { field: String, value: Value },
    /// The field's value changed by the least it can be (a number by one, a time by a second, a
    /// SHA's or word's last character), its type kept.
    OneOff { field: String, value: Value },
    /// The field set just past the edge of a rule that relates it to another field or time.
    Crosses {
        field: String,
        value: Value,
        /// The rule's kind as `lesson.yaml` names it (`at-least-apart`).
        rule: &'static str,
    },
    /// An earlier evidence file this lesson's `passes` rule builds on, broken in its first
    /// field's type.
    Earlier { file: String, field: String },
}

/// One broken copy of an evidence file, or of an earlier file, to grade.
#[derive(Debug, Clone, PartialEq)]
pub struct Broken {
    pub how: Breakage,
    /// The file to write it to.
    pub file: String,
    pub doc: Value,
}

/// Every broken copy of `good` (the evidence file `spec` describes) the lesson must refuse.
/// `earlier` reads an earlier evidence file that a `passes` rule names, with its spec.
pub fn variants(
    spec: &EvidenceSpec,
    good: &Value,
    earlier: &dyn Fn(&str) -> Option<(EvidenceSpec, Value)>,
) -> Vec<Broken> {
    let mut out = Vec::new();
    let with = |field: &str, value: Value| {
        let mut doc = good.clone();
        doc[field] = value;
        doc
    };
    for f in &spec.fields {
        let Some(v) = good.get(&f.name) else { continue };
        let value = wrong_type(f.json_type, v);
        out.push(Broken {
            doc: with(&f.name, value.clone()),
            file: spec.file.clone(),
            how: Breakage::WrongType {
                field: f.name.clone(),
                value,
            },
        });
        // A field only rules between fields judge (a time that must come after another) may
        // rightly take a value one off: those rules are crossed below instead.
        if f.live || pinned(spec, &f.name) || !related(spec, &f.name) {
            let value = one_off(v);
            out.push(Broken {
                doc: with(&f.name, value.clone()),
                file: spec.file.clone(),
                how: Breakage::OneOff {
                    field: f.name.clone(),
                    value,
                },
            });
        }
    }
    for rule in &spec.rules {
        for (field, value, name) in crossings(rule, good) {
            out.push(Broken {
                doc: with(&field, value.clone()),
                file: spec.file.clone(),
                how: Breakage::Crosses {
                    field,
                    value,
                    rule: name,
                },
            });
        }
        if let Rule::Passes { files, .. } = rule {
            for file in files {
                let Some((their_spec, theirs)) = earlier(file) else {
                    continue;
                };
                let Some(first) = their_spec.fields.first() else {
                    continue;
                };
                let Some(v) = theirs.get(&first.name) else {
                    continue;
                };
                let mut doc = theirs.clone();
                doc[&first.name] = wrong_type(first.json_type, v);
                out.push(Broken {
                    how: Breakage::Earlier {
                        file: file.clone(),
                        field: first.name.clone(),
                    },
                    file: file.clone(),
                    doc,
                });
            }
        }
    }
    out
}

/// The field's value is pinned by a rule: one of a list, a commit and what it changed, a hook
/// Job and its creation time.
fn pinned(spec: &EvidenceSpec, field: &str) -> bool {
    spec.rules.iter().any(|r| match r {
        Rule::OneOf { fields, .. } => fields.iter().any(|f| f == field),
        Rule::CommitNotApplied(c) => c.commit == field || c.live == field,
        Rule::HookJob { name, created, .. } => name == field || created == field,
        Rule::LivedBetween { .. } => r.fields().contains(&field),
        _ => false,
    })
}

/// A rule relates the field to another field or to a moment in the cluster.
fn related(spec: &EvidenceSpec, field: &str) -> bool {
    spec.rules.iter().any(|r| {
        matches!(
            r,
            Rule::InOrder { .. }
                | Rule::BeforeCondition { .. }
                | Rule::AtLeastApart { .. }
                | Rule::UnixSeconds { .. }
                | Rule::RightAfterWrite { .. }
        ) && r.fields().contains(&field)
    })
}

/// For a rule between fields or times, each field set just past the rule's edge.
fn crossings(rule: &Rule, good: &Value) -> Vec<(String, Value, &'static str)> {
    let number = |f: &str| good.get(f).and_then(Value::as_f64);
    let instant = |f: &str| good.get(f).and_then(Value::as_str).and_then(time_of);
    let later_by = |t: jiff::Timestamp, secs: i64| {
        t.checked_add(jiff::SignedDuration::from_secs(secs))
            .ok()
            .map(|t| Value::String(t.to_string()))
    };
    match rule {
        Rule::InOrder { earlier, later, .. } => instant(later)
            .and_then(|t| later_by(t, 1))
            .map(|v| vec![(earlier.clone(), v, "in-order")])
            .unwrap_or_default(),
        Rule::BeforeCondition { field, .. } => instant(field)
            .and_then(|t| later_by(t, 86_400))
            .map(|v| vec![(field.clone(), v, "before-condition")])
            .unwrap_or_default(),
        Rule::AtLeastApart {
            from, to, seconds, ..
        } => number(from)
            .map(|f| vec![(to.clone(), whole(f + seconds - 1.0), "at-least-apart")])
            .unwrap_or_default(),
        Rule::UnixSeconds { fields, .. } => fields
            .iter()
            .filter_map(|f| number(f).map(|n| (f.clone(), whole(n * 1000.0), "unix-seconds")))
            .collect(),
        Rule::RightAfterWrite { field, within, .. } => number(field)
            .map(|n| {
                vec![(
                    field.clone(),
                    whole(n + *within as f64 + 1.0),
                    "right-after-write",
                )]
            })
            .unwrap_or_default(),
        Rule::FullSha { field, .. } => good
            .get(field)
            .and_then(Value::as_str)
            .map(|s| {
                vec![(
                    field.clone(),
                    json!(s.chars().take(7).collect::<String>()),
                    "full-sha",
                )]
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// A number as JSON, whole when it is one (Unix seconds stay integers).
fn whole(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

/// A value of another JSON type than `json_type` admits, the way a hand-written file gets it
/// wrong: a number or boolean quoted, a string's path missed (`null`).
fn wrong_type(json_type: JsonType, v: &Value) -> Value {
    match json_type {
        JsonType::Number => Value::String(v.to_string()),
        JsonType::Boolean => Value::String(v.to_string()),
        JsonType::String => Value::Null,
        JsonType::StringOrNull => json!(0),
    }
}

/// The value changed by the least it can be, its type kept: a number by one, a boolean
/// flipped, a time by a second, a SHA's last hex digit, a word's last letter; `null` becomes
/// the text `"null"` (what `jq -r` prints for a missing path).
fn one_off(v: &Value) -> Value {
    match v {
        Value::Number(n) => match n.as_i64() {
            Some(i) => json!(i + 1),
            None => whole(n.as_f64().unwrap_or_default() + 1.0),
        },
        Value::Bool(b) => json!(!b),
        Value::Null => json!("null"),
        Value::String(s) => {
            if let Some(t) = time_of(s)
                && let Ok(t) = t.checked_add(jiff::SignedDuration::from_secs(1))
            {
                return Value::String(t.to_string());
            }
            Value::String(last_changed(s))
        }
        other => json!(other.to_string()),
    }
}

/// `s` with its last character moved on by one of its kind (`9`→`0`, `f`→`0` in hex, `z`→`a`).
fn last_changed(s: &str) -> String {
    let hex = s.len() >= 7 && s.chars().all(|c| c.is_ascii_hexdigit());
    let Some(last) = s.chars().last() else {
        return "x".to_string();
    };
    let next = match last {
        '0'..='8' | 'a'..='e' | 'A'..='E' if hex => char::from(last as u8 + 1),
        '9' if hex => 'a',
        'f' | 'F' if hex => '0',
        '0'..='8' | 'a'..='y' | 'A'..='Y' => char::from(last as u8 + 1),
        '9' => '0',
        'z' => 'a',
        'Z' => 'A',
        _ => return format!("{s}x"),
    };
    let mut out: String = s.chars().take(s.chars().count() - 1).collect();
    out.push(next);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(yaml: &str) -> EvidenceSpec {
        serde_saphyr::from_str(yaml).unwrap()
    }

    fn none(_: &str) -> Option<(EvidenceSpec, Value)> {
        None
    }

    #[test]
    fn a_live_number_is_tried_quoted_and_one_off() {
        let s = spec(
            "file: p.json\nfields:\n  - {name: replicas, type: number, live: true, from: {read: cluster-time}}\n",
        );
        let got = variants(&s, &json!({"replicas": 3}), &none);
        assert_eq!(
            got.iter().map(|b| b.how.clone()).collect::<Vec<_>>(),
            vec![
                Breakage::WrongType {
                    field: "replicas".into(),
                    value: json!("3")
                },
                Breakage::OneOff {
                    field: "replicas".into(),
                    value: json!(4)
                },
            ]
        );
        assert_eq!(got[1].doc, json!({"replicas": 4}));
        assert_eq!(got[1].file, "p.json");
    }

    #[test]
    fn values_one_off_keep_their_type_and_shape() {
        assert_eq!(one_off(&json!(true)), json!(false));
        assert_eq!(one_off(&json!(null)), json!("null"));
        assert_eq!(one_off(&json!("Synced")), json!("Syncee"));
        assert_eq!(one_off(&json!("job-9")), json!("job-0"));
        assert_eq!(
            one_off(&json!("2026-12-01T10:00:59Z")),
            json!("2026-12-01T10:01:00Z")
        );
        let sha = "8b68f40c0ffee0000000000000000000000000ff";
        assert_eq!(
            one_off(&json!(sha)),
            json!("8b68f40c0ffee0000000000000000000000000f0")
        );
        assert_eq!(one_off(&json!("")), json!("x"));
    }

    #[test]
    fn a_field_only_relations_judge_is_tried_past_each_relation_not_one_off() {
        let s = spec(
            "file: i.json\nfields:\n  - {name: scaled_at, type: number, from: {read: cluster-time}}\n  - {name: checked_at, type: number, from: {read: cluster-time}}\nrules:\n  - {rule: unix-seconds, fields: [scaled_at, checked_at], hint: 1}\n  - {rule: at-least-apart, from: scaled_at, to: checked_at, seconds: 40, hint: 1}\n  - {rule: right-after-write, field: scaled_at, object: ns/Deployment/d, path: spec.replicas, manager: kubectl, within: 60, hint: 1}\n",
        );
        let good = json!({"scaled_at": 1000, "checked_at": 1045});
        let hows: Vec<Breakage> = variants(&s, &good, &none)
            .into_iter()
            .map(|b| b.how)
            .collect();
        assert!(
            !hows.iter().any(|h| matches!(h, Breakage::OneOff { .. })),
            "{hows:?}"
        );
        let crossed = |field: &str, value: Value, rule: &'static str| Breakage::Crosses {
            field: field.into(),
            value,
            rule,
        };
        assert!(hows.contains(&crossed("checked_at", json!(1039), "at-least-apart")));
        assert!(hows.contains(&crossed("scaled_at", json!(1_000_000), "unix-seconds")));
        assert!(hows.contains(&crossed("scaled_at", json!(1061), "right-after-write")));
    }

    #[test]
    fn times_in_order_and_full_shas_are_crossed() {
        let s = spec(
            "file: w.json\nfields:\n  - {name: a, type: string, from: {read: cluster-time}}\n  - {name: b, type: string, live: true, from: {read: cluster-time}}\n  - {name: c, type: string, from: {read: cluster-time}}\nrules:\n  - {rule: in-order, earlier: a, later: b, hint: 1, fix: {en: x}}\n  - {rule: full-sha, field: c, hint: 1}\n",
        );
        let sha = "0123456789012345678901234567890123456789";
        let good = json!({"a": "2026-01-01T00:00:00Z", "b": "2026-01-01T00:00:05Z", "c": sha});
        let got = variants(&s, &good, &none);
        let hows: Vec<&Breakage> = got.iter().map(|b| &b.how).collect();
        assert!(hows.contains(&&Breakage::Crosses {
            field: "a".into(),
            value: json!("2026-01-01T00:00:06Z"),
            rule: "in-order"
        }));
        assert!(hows.contains(&&Breakage::Crosses {
            field: "c".into(),
            value: json!("0123456"),
            rule: "full-sha"
        }));
        // `c` is judged by nothing but its shape: a SHA one off must be refused too.
        assert!(
            hows.iter()
                .any(|h| matches!(h, Breakage::OneOff { field, .. } if field == "c"))
        );
        // `b` is live: one off as well.
        assert!(
            hows.iter()
                .any(|h| matches!(h, Breakage::OneOff { field, .. } if field == "b"))
        );
    }

    #[test]
    fn a_passes_rule_breaks_each_earlier_file_it_names() {
        let s = spec(
            "file: r.json\nfields:\n  - {name: w, type: string, live: true, from: {read: cluster-time}}\nrules:\n  - {rule: passes, files: [p.json], hint: 1}\n",
        );
        let theirs = spec(
            "file: p.json\nfields:\n  - {name: replicas, type: number, live: true, from: {read: cluster-time}}\n",
        );
        let earlier = |f: &str| (f == "p.json").then(|| (theirs.clone(), json!({"replicas": 3})));
        let got = variants(&s, &json!({"w": "chart"}), &earlier);
        let last = got.last().unwrap();
        assert_eq!(
            last.how,
            Breakage::Earlier {
                file: "p.json".into(),
                field: "replicas".into()
            }
        );
        assert_eq!(last.file, "p.json");
        assert_eq!(last.doc, json!({"replicas": "3"}));
    }
}
