//! Labels as apimachinery validates and selects them: label keys and values
//! (`content.IsLabelKey`, `content.IsLabelValue`), label selectors parsed from text by the
//! lexer and parser of `k8s.io/apimachinery/pkg/labels/selector.go` (with its exact error
//! wording), and `metav1.LabelSelector` objects turned into selectors as
//! `metav1.LabelSelectorAsSelector` does.

use serde_json::Value;

use crate::status::{BadValue, FieldError};

mod parse;

const KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const SUBDOMAIN_FMT: &str = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

/// `content.RegexError`: the message, its examples and the pattern.
pub fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let shown: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!(
        "{msg} (e.g. {}regex used for validation is '{fmt}')",
        shown.join(" or ")
    )
}

/// `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`: a label key's name part, a label value.
fn is_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_alphanumeric();
    !b.is_empty()
        && alnum(&b[0])
        && alnum(&b[b.len() - 1])
        && b.iter()
            .all(|c| alnum(c) || matches!(c, b'-' | b'_' | b'.'))
}

/// `content.IsDNS1123Subdomain`.
fn subdomain_problems(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push("must be no more than 253 bytes".to_string());
    }
    let ok = !value.is_empty()
        && value.split('.').all(|part| {
            let b = part.as_bytes();
            !b.is_empty()
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        });
    if !ok {
        errs.push(regex_error(SUBDOMAIN_MSG, SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

/// `content.IsLabelKey` (= `IsQualifiedName`): every problem with a label key or annotation
/// key, in apimachinery's words and order; empty when it is valid.
pub fn key_problems(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    subdomain_problems(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(KEY_MSG, KEY_FMT, &["MyName", "my.name", "123-abc"])
            )];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 bytes".to_string());
    }
    if !is_name_part(name) {
        errs.push(format!(
            "name part {}",
            regex_error(KEY_MSG, KEY_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// `content.IsLabelValue`: every problem with a label value; empty when it is valid.
pub fn value_problems(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push("must be no more than 63 bytes".to_string());
    }
    if !value.is_empty() && !is_name_part(value) {
        errs.push(regex_error(
            VALUE_MSG,
            VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `IsValidPortName`: every problem with a port's name (an IANA service name).
pub fn port_name_problems(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push("must be no more than 15 characters".to_string());
    }
    if !port
        .bytes()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
    {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string(),
        );
    }
    if !port.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_string());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".to_string());
    }
    if port.starts_with('-') || port.ends_with('-') {
        errs.push("must not begin or end with a hyphen".to_string());
    }
    errs
}

/// `selection.Operator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    In,
    NotIn,
    Equals,
    DoubleEquals,
    NotEquals,
    Exists,
    DoesNotExist,
    GreaterThan,
    LessThan,
}

/// One `labels.Requirement`: a key, an operator and its values.
#[derive(Debug, Clone, PartialEq)]
struct Requirement {
    key: String,
    op: Op,
    values: Vec<String>,
}

impl Requirement {
    /// `labels.NewRequirement` (with no field path): the requirement, or every problem with
    /// it as `ErrorList.ToAggregate` prints them.
    fn new(key: &str, op: Op, values: Vec<String>) -> Result<Requirement, String> {
        let mut errs: Vec<FieldError> = Vec::new();
        let key_errs = key_problems(key);
        if !key_errs.is_empty() {
            errs.push(FieldError::invalid(
                "key",
                BadValue::text(key),
                &key_errs.join("; "),
            ));
        }
        let listed = || BadValue::json(&Value::from(values.clone()));
        match op {
            Op::In | Op::NotIn if values.is_empty() => errs.push(FieldError::invalid(
                "values",
                listed(),
                "for 'in', 'notin' operators, values set can't be empty",
            )),
            Op::Equals | Op::DoubleEquals | Op::NotEquals if values.len() != 1 => {
                errs.push(FieldError::invalid(
                    "values",
                    listed(),
                    "exact-match compatibility requires one single value",
                ))
            }
            Op::Exists | Op::DoesNotExist if !values.is_empty() => errs.push(FieldError::invalid(
                "values",
                listed(),
                "values set must be empty for exists and does not exist",
            )),
            Op::GreaterThan | Op::LessThan => {
                if values.len() != 1 {
                    errs.push(FieldError::invalid(
                        "values",
                        listed(),
                        "for 'Gt', 'Lt' operators, exactly one value is required",
                    ));
                }
                for (i, v) in values.iter().enumerate() {
                    if v.parse::<i64>().is_err() {
                        errs.push(FieldError::invalid(
                            &format!("values[{i}]"),
                            BadValue::text(v),
                            "for 'Gt', 'Lt' operators, the value must be an integer",
                        ));
                    }
                }
            }
            _ => {}
        }
        for (i, v) in values.iter().enumerate() {
            let problems = value_problems(v);
            if !problems.is_empty() {
                errs.push(FieldError::invalid(
                    &format!("values[{i}][{key}]"),
                    BadValue::text(v),
                    &problems.join("; "),
                ));
            }
        }
        if errs.is_empty() {
            return Ok(Requirement {
                key: key.to_string(),
                op,
                values,
            });
        }
        Err(aggregate(&errs))
    }

    fn matches(&self, labels: &Value) -> bool {
        let found = labels
            .get(&self.key)
            .map(|v| v.as_str().unwrap_or_default());
        let has = |v: &str| self.values.iter().any(|x| x == v);
        match self.op {
            Op::In | Op::Equals | Op::DoubleEquals => found.is_some_and(has),
            Op::NotIn | Op::NotEquals => found.is_none_or(|v| !has(v)),
            Op::Exists => found.is_some(),
            Op::DoesNotExist => found.is_none(),
            Op::GreaterThan | Op::LessThan => {
                let (Some(Ok(have)), [want]) =
                    (found.map(str::parse::<i64>), self.values.as_slice())
                else {
                    return false;
                };
                let Ok(want) = want.parse::<i64>() else {
                    return false;
                };
                if self.op == Op::GreaterThan {
                    have > want
                } else {
                    have < want
                }
            }
        }
    }
}

/// `ErrorList.ToAggregate().Error()`: one message, or several in brackets, repeats dropped.
fn aggregate(errs: &[FieldError]) -> String {
    let mut shown: Vec<String> = Vec::new();
    for e in errs {
        let line = e.to_string();
        if !shown.contains(&line) {
            shown.push(line);
        }
    }
    match shown.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// A label selector: `Everything` (no requirements), `Nothing` (what a missing
/// `metav1.LabelSelector` becomes), or requirements that must all hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LabelSelector {
    nothing: bool,
    reqs: Vec<Requirement>,
}

impl LabelSelector {
    /// `labels.Parse`: a selector from its text form, or the parser's error message.
    pub fn parse(text: &str) -> Result<LabelSelector, String> {
        let mut reqs = parse::requirements(text)?;
        reqs.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(LabelSelector {
            nothing: false,
            reqs,
        })
    }

    /// `metav1.LabelSelectorAsSelector`: null selects nothing, `{}` everything, otherwise
    /// every `matchLabels` entry and `matchExpressions` term must hold.
    pub fn from_object(selector: &Value) -> Result<LabelSelector, String> {
        if selector.is_null() {
            return Ok(LabelSelector {
                nothing: true,
                reqs: Vec::new(),
            });
        }
        let mut reqs = Vec::new();
        for (k, v) in selector["matchLabels"].as_object().into_iter().flatten() {
            let value = v.as_str().unwrap_or_default().to_string();
            reqs.push(Requirement::new(k, Op::Equals, vec![value])?);
        }
        for expr in selector["matchExpressions"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let operator = expr["operator"].as_str().unwrap_or_default();
            let op = match operator {
                "In" => Op::In,
                "NotIn" => Op::NotIn,
                "Exists" => Op::Exists,
                "DoesNotExist" => Op::DoesNotExist,
                other => {
                    return Err(format!(
                        "{} is not a valid label selector operator",
                        crate::validation::go_quote(other)
                    ));
                }
            };
            let values = expr["values"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| v.as_str().unwrap_or_default().to_string())
                .collect();
            reqs.push(Requirement::new(
                expr["key"].as_str().unwrap_or_default(),
                op,
                values,
            )?);
        }
        reqs.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(LabelSelector {
            nothing: false,
            reqs,
        })
    }

    /// `Selector.Empty()`: selects everything.
    pub fn is_empty(&self) -> bool {
        !self.nothing && self.reqs.is_empty()
    }

    /// Whether a label map (`metadata.labels`, or null for none) is selected.
    pub fn matches_labels(&self, labels: &Value) -> bool {
        !self.nothing && self.reqs.iter().all(|r| r.matches(labels))
    }

    /// Whether an object's `metadata.labels` are selected.
    pub fn matches(&self, obj: &Value) -> bool {
        self.matches_labels(&obj["metadata"]["labels"])
    }
}

#[cfg(test)]
mod tests;
