//! Label selectors (`app=web,tier!=db,env in (a,b),!legacy`) and field selectors
//! (`metadata.name=x`, `type=helm.sh/release.v1`, `involvedObject.uid=...`) for list and watch.

use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
enum Requirement {
    Equals(String, String),
    NotEquals(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    NotExists(String),
}

/// A parsed label selector; empty matches everything.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LabelSelector(Vec<Requirement>);

impl LabelSelector {
    pub fn parse(text: &str) -> Result<LabelSelector, String> {
        let mut reqs = Vec::new();
        for term in split_terms(text) {
            let term = term.trim();
            if term.is_empty() {
                continue;
            }
            reqs.push(parse_term(term)?);
        }
        Ok(LabelSelector(reqs))
    }

    pub fn matches(&self, obj: &Value) -> bool {
        let labels = &obj["metadata"]["labels"];
        let get = |k: &str| labels[k].as_str();
        self.0.iter().all(|r| match r {
            Requirement::Equals(k, v) => get(k) == Some(v.as_str()),
            Requirement::NotEquals(k, v) => get(k) != Some(v.as_str()),
            Requirement::In(k, vs) => get(k).is_some_and(|x| vs.iter().any(|v| v == x)),
            Requirement::NotIn(k, vs) => get(k).is_none_or(|x| !vs.iter().any(|v| v == x)),
            Requirement::Exists(k) => get(k).is_some(),
            Requirement::NotExists(k) => get(k).is_none(),
        })
    }
}

/// Splits on commas that are not inside `( … )`.
fn split_terms(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

fn parse_term(term: &str) -> Result<Requirement, String> {
    let bad = || format!("unable to parse requirement: invalid label selector term {term:?}");
    if let Some(key) = term.strip_prefix('!') {
        return Ok(Requirement::NotExists(key.trim().to_string()));
    }
    for (op, make) in [
        (
            " notin ",
            Requirement::NotIn as fn(String, Vec<String>) -> Requirement,
        ),
        (" in ", Requirement::In),
    ] {
        if let Some((key, set)) = term.split_once(op) {
            let set = set
                .trim()
                .strip_prefix('(')
                .and_then(|s| s.strip_suffix(')'))
                .ok_or_else(bad)?;
            let values = set
                .split(',')
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .collect();
            return Ok(make(key.trim().to_string(), values));
        }
    }
    if let Some((k, v)) = term.split_once("!=") {
        return Ok(Requirement::NotEquals(k.trim().into(), v.trim().into()));
    }
    if let Some((k, v)) = term.split_once("==").or_else(|| term.split_once('=')) {
        return Ok(Requirement::Equals(k.trim().into(), v.trim().into()));
    }
    if term.contains([' ', '(', ')']) {
        return Err(bad());
    }
    Ok(Requirement::Exists(term.to_string()))
}

/// A parsed field selector: `path=value` / `path!=value` terms over dotted field paths.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldSelector(Vec<(String, bool, String)>);

impl FieldSelector {
    pub fn parse(text: &str) -> Result<FieldSelector, String> {
        let mut terms = Vec::new();
        for term in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let (path, equal, value) = if let Some((p, v)) = term.split_once("!=") {
                (p, false, v)
            } else if let Some((p, v)) = term.split_once("==").or_else(|| term.split_once('=')) {
                (p, true, v)
            } else {
                return Err(format!(
                    "invalid field selector: {term:?} needs an operator (=, ==, !=)"
                ));
            };
            terms.push((path.trim().to_string(), equal, value.trim().to_string()));
        }
        Ok(FieldSelector(terms))
    }

    pub fn matches(&self, obj: &Value) -> bool {
        self.0.iter().all(|(path, equal, value)| {
            let mut at = obj;
            for part in path.split('.') {
                at = &at[part];
            }
            let actual = match at {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            (actual == *value) == *equal
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj() -> Value {
        json!({"metadata": {"name": "web", "namespace": "lab", "labels": {"app": "web", "tier": "front"}}, "type": "Opaque"})
    }

    #[test]
    fn label_selectors_of_every_form() {
        for (sel, want) in [
            ("", true),
            ("app=web", true),
            ("app==web,tier=front", true),
            ("app!=web", false),
            ("app in (api, web)", true),
            ("tier notin (front)", false),
            ("app", true),
            ("!app", false),
            ("!legacy", true),
        ] {
            assert_eq!(
                LabelSelector::parse(sel).unwrap().matches(&obj()),
                want,
                "{sel}"
            );
        }
        assert!(LabelSelector::parse("app in web").is_err());
    }

    #[test]
    fn field_selectors_over_any_path() {
        let sel = FieldSelector::parse("metadata.name=web,metadata.namespace=lab").unwrap();
        assert!(sel.matches(&obj()));
        assert!(
            !FieldSelector::parse("type=helm.sh/release.v1")
                .unwrap()
                .matches(&obj())
        );
        assert!(
            FieldSelector::parse("type!=helm.sh/release.v1")
                .unwrap()
                .matches(&obj())
        );
        assert!(FieldSelector::parse("nonsense").is_err());
    }
}
