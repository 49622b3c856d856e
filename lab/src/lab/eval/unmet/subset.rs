//! Whether a value holds a wanted subset (an Application's spec holding what a step asks for),
//! and when not, the first part it lacks with what stands there instead, a near miss named.

use serde_json::Value;

/// A value as a person reads it: strings bare, the rest as JSON.
pub fn shown(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), String::from)
}

/// Whether `value` holds every key and value of `subset` (lists: each given item is found).
pub fn holds(value: &Value, subset: &Value) -> bool {
    first_missing(value, subset, "").is_none()
}

/// The first part of `subset` that `value` lacks: its path (`destination.namespace`), what
/// `subset` wants there and what is there instead; `None` when `value` holds it all.
pub fn not_held(value: &Value, subset: &Value) -> Option<Missing> {
    first_missing(value, subset, "")
}

/// A part of a wanted subset that a value lacks.
#[derive(Debug, Clone, PartialEq)]
pub struct Missing {
    /// Its path: `destination.namespace`, `ignoreDifferences[0].jsonPointers[0]`, or
    /// `syncOptions[]` for an item a list lacks with nothing like it there.
    pub at: String,
    pub want: Value,
    /// What stands there instead: the value at the path, or the list item most like the one
    /// wanted (`spec.replicas` for `/spec/replicas`), so a near miss is named, not only what
    /// is missing.
    pub have: Option<Value>,
}

/// The first part of `subset` that `value` lacks.
fn first_missing(value: &Value, subset: &Value, at: &str) -> Option<Missing> {
    let missing = |at: String, want: &Value, have: Option<&Value>| Missing {
        at,
        want: want.clone(),
        // Nothing written there is nothing instead.
        have: have.filter(|h| !h.is_null()).cloned(),
    };
    match (value, subset) {
        (Value::Object(v), Value::Object(s)) => s.iter().find_map(|(k, want)| {
            let here = if at.is_empty() {
                k.clone()
            } else {
                format!("{at}.{k}")
            };
            match v.get(k) {
                Some(have) => first_missing(have, want, &here),
                None => Some(missing(here, want, None)),
            }
        }),
        (Value::Array(v), Value::Array(s)) => {
            let want = s
                .iter()
                .find(|want| !v.iter().any(|have| first_missing(have, want, "").is_none()))?;
            Some(match nearest(v, want) {
                Some((i, have)) if have.is_object() => {
                    first_missing(have, want, &format!("{at}[{i}]"))
                        .unwrap_or_else(|| missing(format!("{at}[{i}]"), want, Some(have)))
                }
                Some((i, have)) => missing(format!("{at}[{i}]"), want, Some(have)),
                None => missing(format!("{at}[]"), want, None),
            })
        }
        (v, s) if same(v, s) => None,
        (v, s) => Some(missing(at.to_string(), s, Some(v))),
    }
}

/// The item of a list most like `want`, when one is like it at all: for an object, the one
/// that already holds most of its fields (the ignoreDifferences entry for the same kind); for
/// text, one that differs only in how it is written (`spec.replicas` for `/spec/replicas`,
/// `respectignoredifferences=true`, `CreateNamespace = true`).
fn nearest<'a>(items: &'a [Value], want: &Value) -> Option<(usize, &'a Value)> {
    match want {
        Value::Object(fields) => items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let object = item.as_object()?;
                let held = fields
                    .iter()
                    .filter(|(k, w)| {
                        object
                            .get(*k)
                            .is_some_and(|h| first_missing(h, w, "").is_none())
                    })
                    .count();
                (held > 0).then_some((held, i, item))
            })
            // The most fields held; the first such item on a tie.
            .min_by_key(|(held, i, _)| (std::cmp::Reverse(*held), *i))
            .map(|(_, i, item)| (i, item)),
        Value::String(w) => items
            .iter()
            .enumerate()
            .find(|(_, item)| item.as_str().is_some_and(|h| written_alike(h, w))),
        _ => None,
    }
}

/// Two texts that say the same but for case, spacing, a leading `/` or `.` for `/`.
fn written_alike(a: &str, b: &str) -> bool {
    let plain = |s: &str| -> String {
        s.trim_start_matches('/')
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| {
                if c == '.' {
                    '/'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    };
    plain(a) == plain(b)
}

/// Equal as the lab means it: a number written as a string in YAML ("3") matches the number
/// the API returns, and 3.0 is 3.
pub(super) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n)) => {
            s.parse::<f64>().ok() == n.as_f64()
        }
        (a, b) => a == b,
    }
}
