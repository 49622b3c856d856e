//! Resolving a lesson's `let:` values against the templates it is loaded with, and putting them
//! in where the lesson says `${name}`: the whole string `${name}` becomes the value itself (a
//! number stays a number), `${name}` inside a text becomes its text. Done once, at load, so the
//! judging code sees plain values and an adapted lab (`--templates DIR`) is judged by its files.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::i18n::{Lang, Say};
use crate::lab::spec::LetValue;
use crate::t;

/// What is wrong with a `let:` value or a `${name}`, said for the lesson's author: `Display` is
/// the English (for the catalog's own errors and logs), [`Say`] the author's language (for
/// `lesson lint`). What a parser or a file said stays quoted as it was.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LetError {
    #[error("let.{name}: give either file: (a template file to read it from) or value:")]
    NoSource { name: String },
    #[error("let.{name}: give file: or value:, not both")]
    BothSources { name: String },
    #[error(
        "let.{name}: say which template to read (template:), the lesson writes {count} (templates:)"
    )]
    WhichTemplate { name: String, count: usize },
    #[error("let.{name}: there is no template folder {template:?} (repo-template/ or --templates)")]
    NoTemplate { name: String, template: String },
    #[error("let.{name}: template {template} has no file {file:?}")]
    NoFile {
        name: String,
        template: String,
        file: String,
    },
    #[error(
        "let.{name}: {template}/{file} does not read as YAML ({why}); leave out path: to read its text"
    )]
    NotYaml {
        name: String,
        template: String,
        file: String,
        why: String,
    },
    #[error("let.{name}: {template}/{file} has nothing at {path}")]
    NoPath {
        name: String,
        template: String,
        file: String,
        path: String,
    },
    #[error("let.{name}: after:/before: cut a text, and {template}/{file} holds {found} there")]
    NotText {
        name: String,
        template: String,
        file: String,
        found: String,
    },
    #[error("let.{name}: {found:?} does not contain {after:?} (after:)")]
    NoAfter {
        name: String,
        after: String,
        found: String,
    },
    #[error("${{{name}}}: no such value; let: names {}", names_or_nothing(.known))]
    Unknown { name: String, known: String },
    #[error("let.{name}: cannot say ${{{other}}} inside let:; read it from its file instead")]
    Nested { name: String, other: String },
}

fn names_or_nothing(known: &str) -> &str {
    if known.is_empty() { "nothing" } else { known }
}

impl Say for LetError {
    fn say(&self, lang: Lang) -> String {
        let s = |x: &str| x.to_string();
        let q = |x: &str| format!("{x:?}");
        match self {
            LetError::NoSource { name } => t!(lang, "let-no-source", name = s(name)),
            LetError::BothSources { name } => t!(lang, "let-both-sources", name = s(name)),
            LetError::WhichTemplate { name, count } => t!(
                lang,
                "let-which-template",
                name = s(name),
                count = (*count as u64)
            ),
            LetError::NoTemplate { name, template } => {
                t!(
                    lang,
                    "let-no-template",
                    name = s(name),
                    template = q(template)
                )
            }
            LetError::NoFile {
                name,
                template,
                file,
            } => t!(
                lang,
                "let-no-file",
                name = s(name),
                template = s(template),
                file = q(file)
            ),
            LetError::NotYaml {
                name,
                template,
                file,
                why,
            } => t!(
                lang,
                "let-not-yaml",
                name = s(name),
                file = format!("{template}/{file}"),
                why = s(why)
            ),
            LetError::NoPath {
                name,
                template,
                file,
                path,
            } => t!(
                lang,
                "let-no-path",
                name = s(name),
                file = format!("{template}/{file}"),
                path = s(path)
            ),
            LetError::NotText {
                name,
                template,
                file,
                found,
            } => t!(
                lang,
                "let-not-text",
                name = s(name),
                file = format!("{template}/{file}"),
                found = s(found)
            ),
            LetError::NoAfter { name, after, found } => t!(
                lang,
                "let-no-after",
                name = s(name),
                after = q(after),
                found = q(found)
            ),
            LetError::Unknown { name, known } if known.is_empty() => {
                t!(lang, "let-unknown-none", name = s(name))
            }
            LetError::Unknown { name, known } => {
                t!(lang, "let-unknown", name = s(name), known = s(known))
            }
            LetError::Nested { name, other } => {
                t!(lang, "let-nested", name = s(name), other = s(other))
            }
        }
    }
}

/// The values of `lets`, read from `templates` (path under the templates root, contents);
/// `lesson_templates` is the lesson's `templates:` (the default template when there is one).
pub fn resolve(
    lets: &BTreeMap<String, LetValue>,
    lesson_templates: &[String],
    templates: &[(String, String)],
) -> Result<BTreeMap<String, Value>, LetError> {
    lets.iter()
        .map(|(name, l)| {
            Ok((
                name.clone(),
                resolve_one(name, l, lesson_templates, templates)?,
            ))
        })
        .collect()
}

fn resolve_one(
    name: &str,
    l: &LetValue,
    lesson_templates: &[String],
    templates: &[(String, String)],
) -> Result<Value, LetError> {
    let name_s = || name.to_string();
    let file = match (&l.file, &l.value) {
        (Some(_), Some(_)) => return Err(LetError::BothSources { name: name_s() }),
        (None, Some(v)) => {
            if let Some(other) = v.as_str().and_then(|s| names_in(s).into_iter().next()) {
                return Err(LetError::Nested {
                    name: name_s(),
                    other,
                });
            }
            return Ok(v.clone());
        }
        (None, None) => return Err(LetError::NoSource { name: name_s() }),
        (Some(f), None) => f,
    };
    let template = match (&l.template, lesson_templates) {
        (Some(t), _) => t.clone(),
        (None, [only]) => only.clone(),
        (None, all) => {
            return Err(LetError::WhichTemplate {
                name: name_s(),
                count: all.len(),
            });
        }
    };
    let prefix = format!("{template}/");
    if !templates.iter().any(|(p, _)| p.starts_with(&prefix)) {
        return Err(LetError::NoTemplate {
            name: name_s(),
            template,
        });
    }
    let Some((_, text)) = templates
        .iter()
        .find(|(p, _)| p.strip_prefix(&prefix) == Some(file.as_str()))
    else {
        return Err(LetError::NoFile {
            name: name_s(),
            template,
            file: file.clone(),
        });
    };
    let mut value = match &l.path {
        None => Value::String(text.clone()),
        Some(path) => {
            let doc = read_yaml(text).map_err(|why| LetError::NotYaml {
                name: name_s(),
                template: template.clone(),
                file: file.clone(),
                why: why.to_string(),
            })?;
            path.get(&doc).cloned().ok_or_else(|| LetError::NoPath {
                name: name_s(),
                template: template.clone(),
                file: file.clone(),
                path: path.to_string(),
            })?
        }
    };
    if l.after.is_some() || l.before.is_some() {
        let Value::String(s) = &value else {
            return Err(LetError::NotText {
                name: name_s(),
                template,
                file: file.clone(),
                found: value.to_string(),
            });
        };
        let mut s = s.as_str();
        if let Some(after) = &l.after {
            s = s
                .split_once(after.as_str())
                .map(|(_, rest)| rest)
                .ok_or_else(|| LetError::NoAfter {
                    name: name_s(),
                    after: after.clone(),
                    found: s.to_string(),
                })?;
        }
        if let Some(before) = &l.before {
            s = s.split_once(before.as_str()).map_or(s, |(head, _)| head);
        }
        value = Value::String(s.to_string());
    }
    Ok(value)
}

/// A template file's YAML. A Helm template's `{{ … }}` is read as the text `(( … ))`, so a chart
/// whose expressions stand where values go (as charts mostly do) still reads.
pub fn read_yaml(text: &str) -> Result<Value, serde_saphyr::Error> {
    serde_saphyr::from_str::<Value>(&mask_helm(text))
}

/// Each Helm expression `{{ … }}` as `(( … ))`, and nothing else: the `}}` that closes nested
/// flow mappings (`automated: {prune: true}}`) is YAML, not Helm.
fn mask_helm(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let Some(len) = rest[open + 2..].find("}}") else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str("((");
        out.push_str(&rest[open + 2..open + 2 + len]);
        out.push_str("))");
        rest = &rest[open + 2 + len + 2..];
    }
    out.push_str(rest);
    out
}

/// Puts the values in wherever a string of `v` says `${name}`: everywhere but `let:` itself.
pub fn substitute(v: &mut Value, values: &BTreeMap<String, Value>) -> Result<(), LetError> {
    match v {
        Value::String(s) => {
            if let Some(whole) = whole_name(s) {
                *v = lookup(whole, values)?.clone();
            } else if s.contains("${") {
                *s = substitute_text(s, values)?;
            }
        }
        Value::Array(items) => {
            for x in items {
                substitute(x, values)?;
            }
        }
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                if k != "let" {
                    substitute(x, values)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// `text` with each `${name}` replaced by the value's text (a string as it is, else its JSON).
pub fn substitute_text(text: &str, values: &BTreeMap<String, Value>) -> Result<String, LetError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let Some(len) = rest[start + 2..].find('}') else {
            break;
        };
        let name = &rest[start + 2..start + 2 + len];
        if !is_name(name) {
            out.push_str(&rest[..start + 2]);
            rest = &rest[start + 2..];
            continue;
        }
        out.push_str(&rest[..start]);
        match lookup(name, values)? {
            Value::String(s) => out.push_str(s),
            other => out.push_str(&other.to_string()),
        }
        rest = &rest[start + 3 + len..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The names a text refers to with `${name}`, in order.
pub fn names_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        match after.find('}') {
            Some(len) if is_name(&after[..len]) => {
                out.push(after[..len].to_string());
                rest = &after[len + 1..];
            }
            _ => rest = after,
        }
    }
    out
}

fn whole_name(s: &str) -> Option<&str> {
    s.strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .filter(|n| is_name(n))
}

fn is_name(n: &str) -> bool {
    !n.is_empty()
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn lookup<'a>(name: &str, values: &'a BTreeMap<String, Value>) -> Result<&'a Value, LetError> {
    values.get(name).ok_or_else(|| LetError::Unknown {
        name: name.to_string(),
        known: values.keys().cloned().collect::<Vec<_>>().join(", "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A template file in flow style reads: `}}` closing nested flow mappings is YAML, while a
    /// Helm expression `{{ … }}` where a value goes is masked (instructor trial 4's parent
    /// Application, written in flow style, was read as no Application at all).
    #[test]
    fn nested_flow_mappings_and_helm_expressions_both_read() {
        let app = read_yaml("spec: {syncPolicy: {automated: {prune: true}}}").unwrap();
        assert_eq!(app["spec"]["syncPolicy"]["automated"]["prune"], json!(true));
        let chart =
            read_yaml("metadata:\n  name: {{ .Release.Name }}-web\nspec: {a: {b: 1}}").unwrap();
        assert_eq!(chart["metadata"]["name"], json!("(( .Release.Name ))-web"));
        assert_eq!(chart["spec"]["a"]["b"], json!(1));
    }

    fn lets(yaml: &str) -> BTreeMap<String, LetValue> {
        serde_saphyr::from_str(yaml).unwrap()
    }

    fn templates() -> Vec<(String, String)> {
        vec![
            (
                "t/app.yaml".into(),
                "spec:\n  source:\n    kustomize:\n      images: [nginx=nginx:1.28-alpine]\n    helm:\n      valuesObject: {replicaCount: 3}\n".into(),
            ),
            (
                "t/templates/deployment.yaml".into(),
                "metadata:\n  name: {{ .Release.Name }}-web\nspec:\n  replicas: {{ .Values.replicaCount }}\n  template:\n    spec:\n      containers:\n        - image: nginx:1.27-alpine\n".into(),
            ),
        ]
    }

    #[test]
    fn values_are_read_from_template_files_and_cut() {
        let l = lets(
            "replicas: {file: app.yaml, path: spec.source.helm.valuesObject.replicaCount}\n\
             image: {file: app.yaml, path: 'spec.source.kustomize.images[0]', after: '='}\n\
             tag: {template: t, file: app.yaml, path: 'spec.source.kustomize.images[0]', after: ':', before: '-'}\n\
             chart_image: {file: templates/deployment.yaml, path: 'spec.template.spec.containers[0].image'}\n\
             scaled: {value: 4}\n",
        );
        let v = resolve(&l, &["t".into()], &templates()).unwrap();
        assert_eq!(v["replicas"], json!(3));
        assert_eq!(v["image"], json!("nginx:1.28-alpine"));
        assert_eq!(v["tag"], json!("1.28"));
        assert_eq!(v["chart_image"], json!("nginx:1.27-alpine"));
        assert_eq!(v["scaled"], json!(4));
    }

    #[test]
    fn a_value_that_is_not_there_says_where_it_looked() {
        let e = |yaml: &str, lesson: &[&str]| {
            let lesson: Vec<String> = lesson.iter().map(|s| s.to_string()).collect();
            resolve(&lets(yaml), &lesson, &templates())
                .unwrap_err()
                .to_string()
        };
        assert!(
            e("x: {file: nope.yaml, path: a}", &["t"])
                .contains("template t has no file \"nope.yaml\"")
        );
        assert!(
            e("x: {file: app.yaml, path: spec.nope}", &["t"]).contains("has nothing at spec.nope")
        );
        assert!(e("x: {file: app.yaml, path: a}", &["t", "u"]).contains("say which template"));
        assert!(e("x: {template: u, file: app.yaml}", &[]).contains("no template folder \"u\""));
        assert!(e("x: {}", &["t"]).contains("give either file:"));
        assert!(
            e(
                "x: {file: app.yaml, path: spec.source.helm.valuesObject.replicaCount, after: a}",
                &["t"]
            )
            .contains("after:/before: cut a text")
        );
    }

    #[test]
    fn a_whole_reference_keeps_its_type_and_one_in_a_text_becomes_text() {
        let values = BTreeMap::from([
            ("n".to_string(), json!(3)),
            ("s".to_string(), json!("green")),
        ]);
        let mut v = json!({"equals": "${n}", "say": {"en": "mode ${s}, ${n} replicas, $HOME ${not a name}"}, "let": {"x": "${nope}"}});
        substitute(&mut v, &values).unwrap();
        assert_eq!(v["equals"], json!(3));
        assert_eq!(
            v["say"]["en"],
            "mode green, 3 replicas, $HOME ${not a name}"
        );
        let e = substitute(&mut json!(["${nope}"]), &values).unwrap_err();
        assert_eq!(e.to_string(), "${nope}: no such value; let: names n, s");
        assert_eq!(names_in("a ${x} b ${y-z}"), ["x", "y-z"]);
    }
}
