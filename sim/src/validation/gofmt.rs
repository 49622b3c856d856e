//! Decoded JSON values printed as Go's `fmt` prints them (`%v`, `%#v`), for the error texts the
//! real server builds from `map[string]interface{}` values.

use serde_json::Value;

/// `%v` (and `%+v`): `map[a:1 b:[x y]]`, keys sorted, strings bare, nil as `<nil>`.
pub fn v(value: &Value) -> String {
    match value {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(_) => number(value),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(v).collect();
            format!("[{}]", inner.join(" "))
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let inner: Vec<String> = keys
                .iter()
                .map(|k| format!("{k}:{}", v(&map[*k])))
                .collect();
            format!("map[{}]", inner.join(" "))
        }
    }
}

/// `%#v`: Go syntax, e.g. `map[string]interface {}{"a":1}`, `"x"`.
pub fn sharp_v(value: &Value) -> String {
    match value {
        Value::Null => "interface {}(nil)".into(),
        Value::String(s) => super::go_quote(s),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(sharp_v).collect();
            format!("[]interface {{}}{{{}}}", inner.join(", "))
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let inner: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", super::go_quote(k), sharp_v(&map[*k])))
                .collect();
            format!("map[string]interface {{}}{{{}}}", inner.join(", "))
        }
        other => v(other),
    }
}

/// Go's type name for a decoded value (`%T`).
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

fn number(value: &Value) -> String {
    crate::argocd::apply::go_json(value).trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maps_print_as_go_prints_them() {
        let patch = json!({"spec": {"replicas": "two", "b": [1, 2.5]}, "a": null});
        assert_eq!(v(&patch), "map[a:<nil> spec:map[b:[1 2.5] replicas:two]]");
        assert_eq!(
            sharp_v(&json!({"a": "x"})),
            r#"map[string]interface {}{"a":"x"}"#
        );
        assert_eq!(sharp_v(&json!(3)), "3");
    }
}
