//! Label selectors (`app=web,tier!=db,env in (a,b),!legacy`) and field selectors
//! (`metadata.name=x`, `type=helm.sh/release.v1`, `involvedObject.uid=...`) for list and watch.

use serde_json::Value;

use crate::kinds::ResourceType;
pub use crate::labels::LabelSelector;
use crate::validation::go_quote;

/// One field selector term: a field label, `=`/`==` (true) or `!=` (false), and a value.
#[derive(Debug, Clone, PartialEq)]
struct Term {
    label: String,
    equal: bool,
    value: String,
}

/// A parsed field selector (`fields.ParseSelector`): terms that must all hold. Once
/// [`FieldSelector::for_type`] has checked its labels against a kind's selectable fields, the
/// terms name that kind's fields and are matched as the real server matches them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldSelector {
    terms: Vec<Term>,
    /// The kind whose selectable fields the labels were converted to, if they were.
    kind: Option<&'static ResourceType>,
}

impl FieldSelector {
    /// No terms: selects everything.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// `fields.ParseSelector`: the terms sorted, `\\`-escapes in values undone, with the
    /// package's error messages.
    pub fn parse(text: &str) -> Result<FieldSelector, String> {
        let mut parts = split_terms(text);
        parts.sort_unstable();
        let mut terms = Vec::new();
        for part in parts.into_iter().filter(|p| !p.is_empty()) {
            let Some((label, op, value)) = split_term(part) else {
                return Err(format!(
                    "invalid selector: '{text}'; can't understand '{part}'"
                ));
            };
            terms.push(Term {
                label: label.to_string(),
                equal: op != "!=",
                value: unescape(value)?,
            });
        }
        Ok(FieldSelector { terms, kind: None })
    }

    /// The selector with its labels checked and converted for `ty`, as the real server does
    /// before listing (`ConvertFieldLabel`): an unknown label is refused in that kind's words.
    pub fn for_type(&self, ty: &'static ResourceType) -> Result<FieldSelector, String> {
        let mut terms = Vec::new();
        for t in &self.terms {
            terms.push(Term {
                label: convert_label(ty, &t.label)?,
                ..t.clone()
            });
        }
        Ok(FieldSelector {
            terms,
            kind: Some(ty.storage()),
        })
    }

    /// Whether `obj` (as stored) is selected.
    pub fn matches(&self, obj: &Value) -> bool {
        self.terms.iter().all(|t| {
            let actual = match self.kind {
                Some(ty) => selectable(ty, &t.label, obj),
                None => at_path(obj, &t.label),
            };
            (actual == t.value) == t.equal
        })
    }
}

/// `splitTerms`: on commas not escaped with a backslash.
fn split_terms(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut terms = Vec::new();
    let (mut start, mut in_slash) = (0, false);
    for (i, c) in text.char_indices() {
        if in_slash {
            in_slash = false;
        } else if c == '\\' {
            in_slash = true;
        } else if c == ',' {
            terms.push(&text[start..i]);
            start = i + 1;
        }
    }
    terms.push(&text[start..]);
    terms
}

/// `splitTerm`: at the first place `!=`, `==` or `=` starts.
fn split_term(term: &str) -> Option<(&str, &str, &str)> {
    for (i, _) in term.char_indices() {
        for op in ["!=", "==", "="] {
            if term[i..].starts_with(op) {
                return Some((&term[..i], op, &term[i + op.len()..]));
            }
        }
    }
    None
}

/// `fields.UnescapeValue`.
fn unescape(s: &str) -> Result<String, String> {
    if !s.contains(['\\', ',', '=']) {
        return Ok(s.to_string());
    }
    let mut out = String::new();
    let mut in_slash = false;
    for c in s.chars() {
        if in_slash {
            match c {
                '\\' | ',' | '=' => out.push(c),
                other => {
                    return Err(format!(
                        "invalid field selector: invalid escape sequence: \\{other}"
                    ));
                }
            }
            in_slash = false;
            continue;
        }
        match c {
            '\\' => in_slash = true,
            // Go prints the rune with %v: its number.
            ',' | '=' => {
                return Err(format!(
                    "invalid field selector: unescaped character in value: {}",
                    c as u32
                ));
            }
            c => out.push(c),
        }
    }
    if in_slash {
        return Err("invalid field selector: invalid escape sequence: \\".to_string());
    }
    Ok(out)
}

/// The fields a kind can be selected by, and the label each is selected as
/// (`AddFieldLabelConversionFunc` of each API group; the default accepts only the name and
/// the namespace).
fn convert_label(ty: &ResourceType, label: &str) -> Result<String, String> {
    let unsupported = || format!("field label not supported: {label}");
    let known = |labels: &[&str]| -> Result<String, String> {
        labels
            .contains(&label)
            .then(|| label.to_string())
            .ok_or_else(unsupported)
    };
    const META: [&str; 2] = ["metadata.name", "metadata.namespace"];
    match (ty.group, ty.kind) {
        ("", "Pod") if label == "spec.host" => Ok("spec.nodeName".to_string()),
        ("", "Pod") => known(&[
            "metadata.name",
            "metadata.namespace",
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.podIPs",
            "status.nominatedNodeName",
        ]),
        ("", "Node") => known(&["metadata.name", "spec.unschedulable"]),
        ("", "ReplicationController") => {
            known(&["metadata.name", "metadata.namespace", "status.replicas"])
        }
        ("", "Event") => known(&[
            "involvedObject.kind",
            "involvedObject.namespace",
            "involvedObject.name",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "source",
            "type",
            "metadata.namespace",
            "metadata.name",
        ]),
        ("events.k8s.io", "Event") => match label {
            "reason" | "type" | "metadata.namespace" | "metadata.name" => Ok(label.to_string()),
            "reportingController" => Ok("reportingComponent".to_string()),
            _ => match label.strip_prefix("regarding.") {
                Some(
                    f @ ("kind" | "namespace" | "name" | "uid" | "apiVersion" | "resourceVersion"
                    | "fieldPath"),
                ) => Ok(format!("involvedObject.{f}")),
                _ => Err(unsupported()),
            },
        },
        ("", "Namespace") => known(&["status.phase", "metadata.name"]),
        ("", "Secret") => known(&["type", "metadata.namespace", "metadata.name"]),
        ("", "Service") => known(&[
            "metadata.namespace",
            "metadata.name",
            "spec.clusterIP",
            "spec.type",
        ]),
        ("batch", "Job") => {
            if ["metadata.name", "metadata.namespace", "status.successful"].contains(&label) {
                Ok(label.to_string())
            } else {
                Err(format!(
                    "field label {} not supported for Job",
                    go_quote(label)
                ))
            }
        }
        // Custom resources: the CRD handler's own check (Argo CD's CRDs declare no
        // selectableFields).
        _ if !ty.builtin => known(&META),
        _ if META.contains(&label) => Ok(label.to_string()),
        _ => Err(format!(
            "{} is not a known field selector: only \"metadata.name\", \"metadata.namespace\"",
            go_quote(label)
        )),
    }
}

/// A selectable field's value as the kind's `ToSelectableFields` sets it: missing fields are
/// `""`, booleans and counts are printed (`false`, `0`) when unset.
fn selectable(ty: &ResourceType, label: &str, obj: &Value) -> String {
    match (ty.group, ty.kind, label) {
        (_, _, "metadata.namespace") if !ty.namespaced => String::new(),
        ("", "Pod", "spec.hostNetwork") | ("", "Node", "spec.unschedulable") => {
            let path = format!("/{}", label.replace('.', "/"));
            let set = obj.pointer(&path).and_then(Value::as_bool);
            set.unwrap_or(false).to_string()
        }
        ("", "Pod", "status.podIP") => at_path(obj, "status.podIPs.0.ip"),
        ("", "Pod", "status.podIPs") => String::new(),
        ("", "ReplicationController", "status.replicas")
        | ("batch", "Job", "status.successful") => {
            let field = if label == "status.successful" {
                "status.succeeded"
            } else {
                label
            };
            obj.pointer(&format!("/{}", field.replace('.', "/")))
                .and_then(Value::as_i64)
                .unwrap_or(0)
                .to_string()
        }
        ("", "Event", "source") => {
            let component = at_path(obj, "source.component");
            if component.is_empty() {
                at_path(obj, "reportingComponent")
            } else {
                component
            }
        }
        _ => at_path(obj, label),
    }
}

/// The text at a dotted path (`a.b.0.c`), `""` when absent or null.
fn at_path(obj: &Value, path: &str) -> String {
    let mut at = obj;
    for part in path.split('.') {
        at = match (at, part.parse::<usize>()) {
            (Value::Array(items), Ok(i)) => items.get(i).unwrap_or(&Value::Null),
            _ => &at[part],
        };
    }
    match at {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds;
    use serde_json::json;

    fn obj() -> Value {
        json!({"metadata": {"name": "web", "namespace": "lab", "labels": {"app": "web", "tier": "front"}}, "type": "Opaque"})
    }

    fn for_type(text: &str, ty: &'static ResourceType) -> Result<FieldSelector, String> {
        FieldSelector::parse(text)?.for_type(ty)
    }

    #[test]
    fn field_selectors_match_the_kinds_selectable_fields() {
        let sel = for_type("metadata.name=web,metadata.namespace=lab", &kinds::SECRET).unwrap();
        assert!(sel.matches(&obj()));
        let secret = |t: &str| for_type(t, &kinds::SECRET).unwrap().matches(&obj());
        assert!(!secret("type=helm.sh/release.v1"));
        assert!(secret("type!=helm.sh/release.v1"));
        // An empty value selects the objects without one.
        assert!(!secret("metadata.name=="));
        assert!(secret("metadata.name!="));
        let node = json!({"metadata": {"name": "n"}, "spec": {}});
        assert!(
            for_type("spec.unschedulable=false", &kinds::NODE)
                .unwrap()
                .matches(&node)
        );
        let job = json!({"metadata": {"name": "j"}, "status": {"succeeded": 1}});
        assert!(
            for_type("status.successful=1", &kinds::JOB)
                .unwrap()
                .matches(&job)
        );
    }

    #[test]
    fn field_selector_errors_are_worded_as_the_real_servers() {
        let parse_err = |t: &str| FieldSelector::parse(t).unwrap_err();
        assert_eq!(
            parse_err("metadata.name"),
            "invalid selector: 'metadata.name'; can't understand 'metadata.name'"
        );
        assert_eq!(
            parse_err("metadata.name=a=b"),
            "invalid field selector: unescaped character in value: 61"
        );
        assert_eq!(
            parse_err("metadata.name=a\\x"),
            "invalid field selector: invalid escape sequence: \\x"
        );
        assert_eq!(
            parse_err("metadata.name=x\\"),
            "invalid field selector: invalid escape sequence: \\"
        );
        let kind_err = |t: &str, ty| for_type(t, ty).unwrap_err();
        assert_eq!(
            kind_err("spec.x=y", &kinds::CONFIG_MAP),
            "\"spec.x\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
        );
        assert_eq!(
            kind_err("spec.foo=1", &kinds::POD),
            "field label not supported: spec.foo"
        );
        assert_eq!(
            kind_err("spec.x=y", &kinds::JOB),
            "field label \"spec.x\" not supported for Job"
        );
        assert_eq!(
            kind_err("metadata.name=a,spec.project=x", &kinds::APPLICATION),
            "field label not supported: spec.project"
        );
        assert_eq!(
            kind_err("metadata.namespace=x", &kinds::NODE),
            "field label not supported: metadata.namespace"
        );
        assert!(for_type(",metadata.name=c\\,1", &kinds::CONFIG_MAP).is_ok());
        assert!(for_type("regarding.kind=Pod", &kinds::EVENTS_V1_EVENT).is_ok());
    }
}
