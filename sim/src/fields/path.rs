//! One step of a field path (`f:`, `k:`, `v:`, `i:` in FieldsV1) and the order the real server sorts them in.

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Map, Value};

use super::FieldsError;

/// One step from a node to its child, as structured-merge-diff names them.
#[derive(Clone, Debug)]
pub enum PathElement {
    /// A field of a map or struct: `f:replicas`, shown as `.replicas`.
    Field(String),
    /// An associative-list item named by its key fields, sorted by field name:
    /// `k:{"name":"web"}`, shown as `[name="web"]`.
    Key(Vec<(String, Value)>),
    /// An item of a set-list: `v:"foo"`, shown as `[="foo"]`.
    Value(Value),
    /// A positional list item (`i:0`); we never produce one, but FieldsV1 may carry it.
    Index(usize),
}

/// A path from the object's root.
pub type Path = Vec<PathElement>;

impl PathElement {
    /// The kind rank that orders elements of different kinds (fields, then keys, values, indexes).
    fn rank(&self) -> u8 {
        match self {
            Self::Field(_) => 0,
            Self::Key(_) => 1,
            Self::Value(_) => 2,
            Self::Index(_) => 3,
        }
    }

    /// The FieldsV1 object key for this element (`f:name`, `k:{...}`, `v:...`, `i:N`).
    pub fn to_fields_v1_key(&self) -> String {
        match self {
            Self::Field(name) => format!("f:{name}"),
            Self::Key(fields) => {
                let map: Map<String, Value> = fields.iter().cloned().collect();
                format!("k:{}", Value::Object(map))
            }
            Self::Value(v) => format!("v:{v}"),
            Self::Index(i) => format!("i:{i}"),
        }
    }

    /// Parses a FieldsV1 object key; `.` (the node itself) is handled by the caller.
    pub fn from_fields_v1_key(key: &str) -> Result<Self, FieldsError> {
        let bad = || FieldsError::BadKey(key.to_string());
        let (kind, rest) = key.split_once(':').ok_or_else(bad)?;
        match kind {
            "f" => Ok(Self::Field(rest.to_string())),
            "v" => serde_json::from_str(rest)
                .map(Self::Value)
                .map_err(|_| bad()),
            "i" => rest.parse().map(Self::Index).map_err(|_| bad()),
            "k" => match serde_json::from_str(rest) {
                Ok(Value::Object(map)) => {
                    let mut fields: Vec<(String, Value)> = map.into_iter().collect();
                    fields.sort_by(|a, b| a.0.cmp(&b.0));
                    Ok(Self::Key(fields))
                }
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }
}

/// Human form used in conflict messages: `.replicas`, `[name="web"]`, `[="foo"]`, `[0]`.
impl fmt::Display for PathElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Field(name) => write!(f, ".{name}"),
            Self::Key(fields) => {
                f.write_str("[")?;
                for (i, (name, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{name}={value}")?;
                }
                f.write_str("]")
            }
            Self::Value(v) => write!(f, "[={v}]"),
            Self::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// Renders a whole path the way the real server prints it (`.spec.replicas`).
pub fn path_string(path: &[PathElement]) -> String {
    path.iter().map(ToString::to_string).collect()
}

impl Ord for PathElement {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Self::Field(a), Self::Field(b)) => a.cmp(b),
            (Self::Key(a), Self::Key(b)) => compare_keys(a, b),
            (Self::Value(a), Self::Value(b)) => compare_values(a, b),
            (Self::Index(a), Self::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

// Equality follows the ordering so that `1` and `1.0` name the same set item, as they do
// on the real server, and so BTree collections stay consistent.
impl PartialEq for PathElement {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PathElement {}

fn compare_keys(a: &[(String, Value)], b: &[(String, Value)]) -> Ordering {
    for ((an, av), (bn, bv)) in a.iter().zip(b) {
        let order = an.cmp(bn).then_with(|| compare_values(av, bv));
        if order != Ordering::Equal {
            return order;
        }
    }
    a.len().cmp(&b.len())
}

/// A total order on JSON values, numbers first (compared numerically), then strings, booleans,
/// lists, maps and null, which is how structured-merge-diff orders set items and keys.
pub fn compare_values(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Number(_) => 0,
            Value::String(_) => 1,
            Value::Bool(_) => 2,
            Value::Array(_) => 3,
            Value::Object(_) => 4,
            Value::Null => 5,
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => {
                let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
                x.total_cmp(&y)
            }
        },
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => {
            for (xi, yi) in x.iter().zip(y) {
                let order = compare_values(xi, yi);
                if order != Ordering::Equal {
                    return order;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => {
            let mut xs: Vec<_> = x.iter().collect();
            let mut ys: Vec<_> = y.iter().collect();
            xs.sort_by(|p, q| p.0.cmp(q.0));
            ys.sort_by(|p, q| p.0.cmp(q.0));
            for ((xk, xv), (yk, yv)) in xs.iter().zip(&ys) {
                let order = xk.cmp(yk).then_with(|| compare_values(xv, yv));
                if order != Ordering::Equal {
                    return order;
                }
            }
            xs.len().cmp(&ys.len())
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(pairs: &[(&str, Value)]) -> PathElement {
        PathElement::Key(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn fields_v1_keys_round_trip() {
        let port = key(&[("containerPort", json!(80)), ("protocol", json!("TCP"))]);
        let text = port.to_fields_v1_key();
        assert_eq!(text, r#"k:{"containerPort":80,"protocol":"TCP"}"#);
        assert_eq!(PathElement::from_fields_v1_key(&text).unwrap(), port);
        let item = PathElement::from_fields_v1_key(r#"v:"example.com/guard""#).unwrap();
        assert_eq!(item, PathElement::Value(json!("example.com/guard")));
        assert_eq!(item.to_fields_v1_key(), r#"v:"example.com/guard""#);
        assert_eq!(
            PathElement::from_fields_v1_key("i:3").unwrap(),
            PathElement::Index(3)
        );
        // Key fields come back sorted by name, whatever order the text had.
        let unsorted =
            PathElement::from_fields_v1_key(r#"k:{"protocol":"TCP","containerPort":80}"#);
        assert_eq!(unsorted.unwrap(), port);
    }

    #[test]
    fn malformed_keys_are_errors_not_panics() {
        for bad in ["replicas", "x:1", "k:[1]", "k:{", "v:", "i:-1", "", ":"] {
            assert!(PathElement::from_fields_v1_key(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn display_matches_the_conflict_message_format() {
        let path = vec![
            PathElement::Field("spec".into()),
            PathElement::Field("containers".into()),
            key(&[("name", json!("web"))]),
            PathElement::Field("image".into()),
        ];
        assert_eq!(path_string(&path), r#".spec.containers[name="web"].image"#);
        let port = key(&[("containerPort", json!(80)), ("protocol", json!("TCP"))]);
        assert_eq!(port.to_string(), r#"[containerPort=80,protocol="TCP"]"#);
        assert_eq!(PathElement::Value(json!("a")).to_string(), r#"[="a"]"#);
    }

    #[test]
    fn ordering_puts_fields_before_keys_before_values_and_numbers_numerically() {
        let field = PathElement::Field("z".into());
        let k80 = key(&[("port", json!(80))]);
        let k443 = key(&[("port", json!(443))]);
        let value = PathElement::Value(json!("a"));
        assert!(field < k80 && k80 < value);
        assert!(k80 < k443, "numbers compare as numbers, not text");
        assert_eq!(PathElement::Value(json!(1)), PathElement::Value(json!(1.0)));
        assert!(compare_values(&json!(2), &json!("1")).is_lt());
    }
}
