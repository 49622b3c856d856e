//! The part of jq that ignoreDifferences `jqPathExpressions` use: Argo CD runs
//! `del(<expression>)` on the object. Supported: paths (`.a.b`, `."x/y"`, `.["x"]`, `.[0]`,
//! `.[]`, each optionally `?`), pipes, and `select(...)` with comparisons, `and`/`or`/`not`,
//! `startswith`/`endswith`/`contains`. Anything else is refused at parse time, where real jq
//! would accept it, so callers can tell "unsupported here" from "wrong".

use std::cmp::Ordering;

use serde_json::Value;

use crate::argocd::apply::values_equal;

mod parse;

pub use parse::parse;

/// A parsed path expression.
#[derive(Debug, Clone, PartialEq)]
pub struct JqPath(Vec<Stage>);

#[derive(Debug, Clone, PartialEq)]
enum Stage {
    Path(Vec<Step>),
    Select(Cond, Vec<Step>),
}

#[derive(Debug, Clone, PartialEq)]
enum Step {
    Field(String, bool),
    Index(i64, bool),
    Iterate(bool),
}

#[derive(Debug, Clone, PartialEq)]
enum Cond {
    Or(Box<Cond>, Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Compare(Operand, CmpOp, Operand),
    Value(Operand),
    Then(Box<Cond>, Filter),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, PartialEq)]
enum Filter {
    Not,
    StartsWith(String),
    EndsWith(String),
    Contains(String),
}

#[derive(Debug, Clone, PartialEq)]
enum Operand {
    Path(Vec<Step>),
    Literal(Value),
    Group(Box<Cond>),
}

/// A step of a concrete path through a document.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    Field(String),
    Index(i64),
}

/// `del(expr)` on `doc`: the paths the expression reaches are removed. Errors are jq's runtime
/// errors (indexing a string, iterating over null without `?`...), on which Argo CD leaves the
/// object as it was.
pub fn delete(doc: &Value, path: &JqPath) -> Result<Value, String> {
    let mut found: Vec<(Vec<Key>, &Value)> = vec![(Vec::new(), doc)];
    for stage in &path.0 {
        found = match stage {
            Stage::Path(steps) => walk(found, steps)?,
            Stage::Select(cond, steps) => {
                let mut kept = Vec::new();
                for (at, value) in found {
                    if truthy_any(cond, value)? {
                        kept.push((at, value));
                    }
                }
                walk(kept, steps)?
            }
        };
    }
    let mut paths: Vec<Vec<Key>> = found.into_iter().map(|(p, _)| p).collect();
    // Deleting from the end keeps the earlier indexes valid, as jq's `delpaths` does.
    paths.sort_by(|a, b| compare_paths(b, a));
    paths.dedup();
    let mut out = doc.clone();
    for p in &paths {
        delete_path(&mut out, p)?;
    }
    Ok(out)
}

static NULL: Value = Value::Null;

fn walk<'v>(
    mut found: Vec<(Vec<Key>, &'v Value)>,
    steps: &[Step],
) -> Result<Vec<(Vec<Key>, &'v Value)>, String> {
    for step in steps {
        let mut next = Vec::new();
        for (at, value) in found {
            let optional = match step {
                Step::Field(_, o) | Step::Index(_, o) | Step::Iterate(o) => *o,
            };
            match step_into(&at, value, step) {
                Ok(items) => next.extend(items),
                Err(_) if optional => {}
                Err(e) => return Err(e),
            }
        }
        found = next;
    }
    Ok(found)
}

fn step_into<'v>(
    at: &[Key],
    value: &'v Value,
    step: &Step,
) -> Result<Vec<(Vec<Key>, &'v Value)>, String> {
    let extend = |k: Key| {
        let mut p = at.to_vec();
        p.push(k);
        p
    };
    match (step, value) {
        (Step::Field(name, _), Value::Object(map)) => Ok(vec![(
            extend(Key::Field(name.clone())),
            map.get(name).unwrap_or(&NULL),
        )]),
        (Step::Field(name, _), Value::Null) => Ok(vec![(extend(Key::Field(name.clone())), &NULL)]),
        (Step::Field(name, _), other) => {
            Err(format!("cannot index {} with \"{name}\"", type_name(other)))
        }
        (Step::Index(i, _), Value::Array(items)) => {
            let len = i64::try_from(items.len()).unwrap_or(i64::MAX);
            let resolved = if *i < 0 { i + len } else { *i };
            let item = usize::try_from(resolved)
                .ok()
                .and_then(|r| items.get(r))
                .unwrap_or(&NULL);
            Ok(vec![(extend(Key::Index(resolved)), item)])
        }
        (Step::Index(i, _), Value::Null) => Ok(vec![(extend(Key::Index(*i)), &NULL)]),
        (Step::Index(_, _), other) => Err(format!("cannot index {} with number", type_name(other))),
        (Step::Iterate(_), Value::Array(items)) => Ok(items
            .iter()
            .enumerate()
            .map(|(i, v)| (extend(Key::Index(i64::try_from(i).unwrap_or(i64::MAX))), v))
            .collect()),
        (Step::Iterate(_), Value::Object(map)) => Ok(map
            .iter()
            .map(|(k, v)| (extend(Key::Field(k.clone())), v))
            .collect()),
        (Step::Iterate(_), other) => Err(format!("cannot iterate over {}", type_name(other))),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn compare_paths(a: &[Key], b: &[Key]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = match (x, y) {
            (Key::Index(i), Key::Index(j)) => i.cmp(j),
            (Key::Field(f), Key::Field(g)) => f.cmp(g),
            (Key::Index(_), Key::Field(_)) => Ordering::Less,
            (Key::Field(_), Key::Index(_)) => Ordering::Greater,
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

/// Removes one path; a missing step is nothing to delete, a mistyped one is jq's error.
fn delete_path(doc: &mut Value, path: &[Key]) -> Result<(), String> {
    let Some((last, parents)) = path.split_last() else {
        // `del(.)` leaves null.
        *doc = Value::Null;
        return Ok(());
    };
    let mut at = doc;
    for key in parents {
        at = match (key, at) {
            (Key::Field(f), Value::Object(map)) => match map.get_mut(f) {
                Some(next) => next,
                None => return Ok(()),
            },
            (Key::Index(i), Value::Array(items)) => {
                match usize::try_from(*i).ok().and_then(|i| items.get_mut(i)) {
                    Some(next) => next,
                    None => return Ok(()),
                }
            }
            (_, Value::Null) => return Ok(()),
            (_, other) => return Err(format!("cannot delete inside {}", type_name(other))),
        };
    }
    match (last, at) {
        (Key::Field(f), Value::Object(map)) => {
            map.shift_remove(f);
        }
        (Key::Index(i), Value::Array(items)) => {
            if let Some(i) = usize::try_from(*i).ok().filter(|i| *i < items.len()) {
                items.remove(i);
            }
        }
        (_, Value::Null) => {}
        (_, other) => return Err(format!("cannot delete field of {}", type_name(other))),
    }
    Ok(())
}

/// `select(cond)` keeps the input once per truthy output; for deletion once is enough.
fn truthy_any(cond: &Cond, input: &Value) -> Result<bool, String> {
    Ok(eval(cond, input)?.iter().any(truthy))
}

fn truthy(v: &Value) -> bool {
    !matches!(v, Value::Null | Value::Bool(false))
}

fn eval(cond: &Cond, input: &Value) -> Result<Vec<Value>, String> {
    Ok(match cond {
        Cond::Or(a, b) => vec![Value::Bool(truthy_any(a, input)? || truthy_any(b, input)?)],
        Cond::And(a, b) => vec![Value::Bool(truthy_any(a, input)? && truthy_any(b, input)?)],
        Cond::Value(operand) => operand_values(operand, input)?,
        Cond::Compare(l, op, r) => {
            let (ls, rs) = (operand_values(l, input)?, operand_values(r, input)?);
            let mut out = Vec::new();
            for r in &rs {
                for l in &ls {
                    out.push(Value::Bool(compare(l, *op, r)));
                }
            }
            out
        }
        Cond::Then(inner, filter) => {
            let mut out = Vec::new();
            for v in eval(inner, input)? {
                out.push(apply_filter(filter, &v)?);
            }
            out
        }
    })
}

fn operand_values(operand: &Operand, input: &Value) -> Result<Vec<Value>, String> {
    match operand {
        Operand::Literal(v) => Ok(vec![v.clone()]),
        Operand::Group(cond) => eval(cond, input),
        Operand::Path(steps) => Ok(walk(vec![(Vec::new(), input)], steps)?
            .into_iter()
            .map(|(_, v)| v.clone())
            .collect()),
    }
}

fn apply_filter(filter: &Filter, v: &Value) -> Result<Value, String> {
    let text = |name: &str| {
        v.as_str()
            .ok_or_else(|| format!("{name}() requires string inputs"))
    };
    Ok(Value::Bool(match filter {
        Filter::Not => !truthy(v),
        Filter::StartsWith(s) => text("startswith")?.starts_with(s.as_str()),
        Filter::EndsWith(s) => text("endswith")?.ends_with(s.as_str()),
        Filter::Contains(s) => text("contains")?.contains(s.as_str()),
    }))
}

fn compare(l: &Value, op: CmpOp, r: &Value) -> bool {
    let ord = jq_order(l, r);
    match op {
        CmpOp::Eq => values_equal(l, r),
        CmpOp::Ne => !values_equal(l, r),
        CmpOp::Lt => ord == Ordering::Less,
        CmpOp::Le => ord != Ordering::Greater,
        CmpOp::Gt => ord == Ordering::Greater,
        CmpOp::Ge => ord != Ordering::Less,
    }
}

/// jq's total order: null < false < true < numbers < strings < arrays < objects.
fn jq_order(l: &Value, r: &Value) -> Ordering {
    let rank = |v: &Value| match v {
        Value::Null => 0,
        Value::Bool(false) => 1,
        Value::Bool(true) => 2,
        Value::Number(_) => 3,
        Value::String(_) => 4,
        Value::Array(_) => 5,
        Value::Object(_) => 6,
    };
    match (l, r) {
        (Value::Number(a), Value::Number(b)) => a
            .as_f64()
            .partial_cmp(&b.as_f64())
            .unwrap_or(Ordering::Equal),
        (Value::String(a), Value::String(b)) => a.cmp(b),
        (Value::Array(a), Value::Array(b)) => {
            for (x, y) in a.iter().zip(b) {
                let o = jq_order(x, y);
                if o != Ordering::Equal {
                    return o;
                }
            }
            a.len().cmp(&b.len())
        }
        _ => rank(l).cmp(&rank(r)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn del(doc: &Value, expr: &str) -> Result<Value, String> {
        delete(doc, &parse(expr)?)
    }

    #[test]
    fn deletes_the_forms_in_argo_cd_docs() {
        let doc = json!({"spec": {"replicas": 2, "template": {"spec": {
            "initContainers": [{"name": "injected-init-container"}, {"name": "mine"}],
            "containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}}},
            "webhooks": [{"clientConfig": {"caBundle": "abc", "url": "u"}}],
            "metadata": {"annotations": {"x/y": "1", "keep": "2"}}});
        let out = del(
            &doc,
            ".spec.template.spec.initContainers[] | select(.name == \"injected-init-container\")",
        )
        .unwrap();
        assert_eq!(
            out["spec"]["template"]["spec"]["initContainers"],
            json!([{"name": "mine"}])
        );
        let out = del(&doc, ".webhooks[]?.clientConfig.caBundle").unwrap();
        assert_eq!(out["webhooks"], json!([{"clientConfig": {"url": "u"}}]));
        let out = del(
            &doc,
            ".spec.template.spec.containers[] | select(.name == \"b\").image",
        )
        .unwrap();
        assert_eq!(
            out["spec"]["template"]["spec"]["containers"],
            json!([{"name": "a", "image": "x"}, {"name": "b"}])
        );
        let out = del(&doc, ".metadata.annotations.\"x/y\"").unwrap();
        assert_eq!(out["metadata"]["annotations"], json!({"keep": "2"}));
        let out = del(&doc, ".metadata.annotations[\"keep\"]").unwrap();
        assert_eq!(out["metadata"]["annotations"], json!({"x/y": "1"}));
        let out = del(&doc, ".spec.replicas").unwrap();
        assert!(out["spec"].get("replicas").is_none());
        let out = del(
            &doc,
            ".spec.template.spec.containers[] | select(.name | startswith(\"a\") | not)",
        )
        .unwrap();
        assert_eq!(
            out["spec"]["template"]["spec"]["containers"],
            json!([{"name": "a", "image": "x"}])
        );
        let out = del(&doc, ".spec.template.spec.containers[-1]").unwrap();
        assert_eq!(
            out["spec"]["template"]["spec"]["containers"],
            json!([{"name": "a", "image": "x"}])
        );
    }

    #[test]
    fn runtime_errors_and_missing_paths() {
        let doc = json!({"spec": {"replicas": 2}, "list": null});
        assert_eq!(
            del(&doc, ".status.x").unwrap(),
            doc,
            "missing paths delete nothing"
        );
        assert!(
            del(&doc, ".spec.replicas.x").is_err(),
            "cannot index number"
        );
        assert!(del(&doc, ".list[]").is_err(), "cannot iterate over null");
        assert_eq!(del(&doc, ".list[]?").unwrap(), doc);
    }

    #[test]
    fn unsupported_or_broken_syntax_is_refused() {
        for expr in [
            "",
            "spec",
            ".a | map(.b)",
            ".a[] | select(.n | test(\"x\"))",
            ".a[",
            ".a.",
            "select(.a == \"\\(1)\")",
        ] {
            assert!(parse(expr).is_err(), "{expr}");
        }
        assert!(parse(".a and .b").is_err());
        let deep = format!("select({}.a{})", "(".repeat(5000), ")".repeat(5000));
        assert!(parse(&deep).is_err());
        assert!(parse(".a[]? | select(.x == 1 and (.y != null or .z >= 2.5))").is_ok());
    }
}
