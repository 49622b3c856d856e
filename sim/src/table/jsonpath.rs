//! The part of Kubernetes' JSONPath that CRD printer columns use (`.status.phase`,
//! `.spec.ports[0].port`, `.items[*].name`, `.status.conditions[?(@.type=="Ready")].status`):
//! the first value a path finds, as the Table convertor takes it.

use serde_json::Value;

enum Step {
    Field(String),
    Index(i64),
    All,
    /// `[?(@.a.b=="x")]` (or `!=`): the items whose value at the path compares so.
    Filter(Vec<String>, bool, Value),
}

/// The first value `path` finds in `obj`, or `None` (a missing key finds nothing).
pub fn first<'a>(obj: &'a Value, path: &str) -> Option<&'a Value> {
    let steps = parse(path.trim().trim_start_matches('{').trim_end_matches('}'))?;
    let mut found = vec![obj];
    for step in &steps {
        found = found
            .into_iter()
            .flat_map(|v| apply(step, v))
            .collect::<Vec<_>>();
        if found.is_empty() {
            return None;
        }
    }
    found.into_iter().next()
}

fn apply<'a>(step: &Step, v: &'a Value) -> Vec<&'a Value> {
    match (step, v) {
        (Step::Field(name), Value::Object(m)) => m.get(name).into_iter().collect(),
        (Step::Index(i), Value::Array(items)) => {
            let at = if *i < 0 {
                usize::try_from(items.len() as i64 + i).ok()
            } else {
                usize::try_from(*i).ok()
            };
            at.and_then(|i| items.get(i)).into_iter().collect()
        }
        (Step::All, Value::Array(items)) => items.iter().collect(),
        (Step::All, Value::Object(m)) => m.values().collect(),
        (Step::Filter(path, equal, want), Value::Array(items)) => items
            .iter()
            .filter(|item| {
                let got = path.iter().try_fold(*item, |v, k| v.get(k));
                match got {
                    Some(got) => (same(got, want)) == *equal,
                    None => false,
                }
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn same(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        _ => got == want,
    }
}

fn parse(path: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let chars: Vec<char> = path.chars().collect();
    let mut i = 0;
    if chars.first() == Some(&'$') {
        i += 1;
    }
    while i < chars.len() {
        match chars[i] {
            '.' => {
                i += 1;
                let start = i;
                while i < chars.len() && chars[i] != '.' && chars[i] != '[' {
                    i += 1;
                }
                let name: String = chars[start..i].iter().collect();
                if name == "*" {
                    steps.push(Step::All);
                } else if !name.is_empty() {
                    steps.push(Step::Field(name));
                }
            }
            '[' => {
                let close = find_close(&chars, i)?;
                let inner: String = chars[i + 1..close].iter().collect();
                steps.push(bracket(inner.trim())?);
                i = close + 1;
            }
            _ => {
                let start = i;
                while i < chars.len() && chars[i] != '.' && chars[i] != '[' {
                    i += 1;
                }
                steps.push(Step::Field(chars[start..i].iter().collect()));
            }
        }
    }
    Some(steps)
}

fn find_close(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    for (j, c) in chars.iter().enumerate().skip(open) {
        match (quote, c) {
            (Some(q), c) if *c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(*c),
            (None, '[') => depth += 1,
            (None, ']') => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

fn bracket(inner: &str) -> Option<Step> {
    if inner == "*" {
        return Some(Step::All);
    }
    if let Ok(i) = inner.parse::<i64>() {
        return Some(Step::Index(i));
    }
    if let Some(name) = unquote(inner) {
        return Some(Step::Field(name));
    }
    let cond = inner.strip_prefix("?(")?.strip_suffix(')')?.trim();
    let (lhs, equal, rhs) = if let Some((l, r)) = cond.split_once("==") {
        (l, true, r)
    } else {
        let (l, r) = cond.split_once("!=")?;
        (l, false, r)
    };
    let path = lhs
        .trim()
        .strip_prefix('@')?
        .split('.')
        .filter(|k| !k.is_empty())
        .map(String::from)
        .collect();
    let rhs = rhs.trim();
    let want = match unquote(rhs) {
        Some(s) => Value::String(s),
        None => serde_json::from_str(rhs).ok()?,
    };
    Some(Step::Filter(path, equal, want))
}

fn unquote(s: &str) -> Option<String> {
    let q = s.chars().next()?;
    if (q == '\'' || q == '"') && s.len() >= 2 && s.ends_with(q) {
        Some(s[1..s.len() - 1].to_string())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_paths_printer_columns_use() {
        let obj = json!({"spec": {"size": 3, "ports": [{"port": 80}, {"port": 443}]},
            "status": {"conditions": [{"type": "Synced", "status": "False"}, {"type": "Ready", "status": "True"}]}});
        assert_eq!(first(&obj, ".spec.size"), Some(&json!(3)));
        assert_eq!(first(&obj, ".spec.ports[1].port"), Some(&json!(443)));
        assert_eq!(first(&obj, ".spec.ports[-1].port"), Some(&json!(443)));
        assert_eq!(first(&obj, ".spec.ports[*].port"), Some(&json!(80)));
        assert_eq!(
            first(&obj, r#".status.conditions[?(@.type=="Ready")].status"#),
            Some(&json!("True"))
        );
        assert_eq!(first(&obj, ".spec['size']"), Some(&json!(3)));
        assert_eq!(first(&obj, ".spec.missing"), None);
        assert_eq!(first(&obj, ".status.conditions[5]"), None);
    }
}
