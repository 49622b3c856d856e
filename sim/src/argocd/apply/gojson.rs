//! JSON text and value comparison as Go's `encoding/json` sees them, so what kubectl writes into
//! the last-applied annotation and how Go code compares decoded values come out the same here.

use std::fmt::Write as _;

use serde_json::{Number, Value};

/// Encodes `value` as Go's `json.Encoder` does for a decoded object: map keys sorted, compact,
/// `<`, `>`, `&`, U+2028 and U+2029 escaped, numbers in Go's notation, newline-terminated.
pub fn encode(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, &mut out);
    out.push('\n');
    out
}

fn write_value(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            // Go sorts map keys by their bytes.
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_value(&map[key.as_str()], out);
            }
            out.push('}');
        }
    }
}

fn write_number(n: &Number, out: &mut String) {
    if n.is_i64() || n.is_u64() {
        let _ = write!(out, "{n}");
        return;
    }
    let f = n.as_f64().unwrap_or_default();
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        // Go's 'e' notation always signs the exponent: 1e21 is "1e+21", 1e-7 stays "1e-7".
        let text = format!("{f:e}");
        match text.split_once('e') {
            Some((mantissa, exp)) if !exp.starts_with('-') => {
                let _ = write!(out, "{mantissa}e+{exp}");
            }
            _ => out.push_str(&text),
        }
    } else {
        // Shortest round-trip digits without an exponent; a whole float prints as an integer,
        // as Go prints float64(3) as "3".
        let _ = write!(out, "{f}");
    }
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Deep equality where numbers compare by value: Go decodes `2` and `2.0` into different types
/// but re-encodes both as `2`, and Argo CD compares the encoded bytes.
pub fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => numbers_equal(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| values_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| values_equal(v, w)))
        }
        _ => a == b,
    }
}

fn numbers_equal(x: &Number, y: &Number) -> bool {
    match (x.as_i64(), y.as_i64()) {
        (Some(a), Some(b)) => a == b,
        _ => match (x.as_u64(), y.as_u64()) {
            (Some(a), Some(b)) => a == b,
            _ => x.as_f64() == y.as_f64(),
        },
    }
}

/// A value as Go's `fmt.Sprintf("%v", v)` prints it, for the places where the Go code orders or
/// matches list items by that text (merge keys, lists of scalars).
pub fn go_text(value: &Value) -> String {
    match value {
        Value::Null => "<nil>".to_owned(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 1e21 => format!("{f}"),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn encodes_like_go() {
        let v = json!({"b": 1, "a": {"z": [1.0, 2.5, 1e21, 1e-7], "y": "<&>"}, "c": null});
        assert_eq!(
            encode(&v),
            "{\"a\":{\"y\":\"\\u003c\\u0026\\u003e\",\"z\":[1,2.5,1e+21,1e-7]},\"b\":1,\"c\":null}\n"
        );
        assert_eq!(encode(&json!("tab\there\u{1}")), "\"tab\\there\\u0001\"\n");
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(values_equal(&json!({"r": 2}), &json!({"r": 2.0})));
        assert!(!values_equal(&json!({"r": 2}), &json!({"r": 3})));
        assert!(!values_equal(&json!([1]), &json!([1, 1])));
        assert_eq!(go_text(&json!(80)), "80");
        assert_eq!(go_text(&json!(80.0)), "80");
        assert_eq!(go_text(&json!("web")), "web");
    }
}
