//! Reading one lesson folder for `lint`: the YAML with positions, every top-level key known, each
//! part parsed into its spec type on its own (so every broken part is reported, not the first),
//! the `let:` values and `${name}`s, the hints, the texts in every language.

use crate::lab::files::{ReadError, TextError};
use std::collections::BTreeMap;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::tree::{Node, Pos};
use super::{Finding, Folder, Problem};
use crate::i18n::Lang;
use crate::lab::catalog::{self, names_in};
use crate::lab::spec::{
    ChecklistItem, EvidenceSpec, FieldSpec, LessonId, LessonSpec, LetValue, Localized, ObjectKey,
    PaneName, PlanAction, Requirement, Rule, ValuesSpec,
};

/// The keys a `lesson.yaml` may have at the top, from the schema the types generate.
pub fn top_level_keys() -> Vec<String> {
    let schema = schemars::schema_for!(LessonSpec);
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

pub fn read(dir: &Path, templates: &[(String, String)], problems: &mut Vec<Problem>) -> Folder {
    let yaml_path = dir.join("lesson.yaml");
    let mut folder = Folder {
        name: dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        yaml_path: yaml_path.clone(),
        tree: None,
        spec: None,
        values: BTreeMap::new(),
    };
    let mut say = |at: Pos, finding: Finding| {
        problems.push(Problem {
            file: yaml_path.clone(),
            at,
            finding,
        });
    };
    let text = match crate::lab::files::read_text(&yaml_path, crate::lab::files::MAX_LEARNER_FILE) {
        Ok(text) => text,
        Err(e) => {
            let (at, finding) = super::unreadable(&e);
            say(at, finding);
            texts(dir, &yaml_path, None, problems);
            return folder;
        }
    };
    let tree = match Node::parse(&text) {
        Ok(t) => t,
        Err((at, why)) => {
            say(at, Finding::Yaml { why });
            texts(dir, &yaml_path, None, problems);
            return folder;
        }
    };
    let known = top_level_keys();
    for (k, _) in tree.entries() {
        if !known.contains(&k.name) {
            say(
                k.at,
                Finding::UnknownField {
                    field: k.name.clone(),
                    expected: known.join(", "),
                },
            );
        }
    }
    // let: each value on its own, so one that cannot be read does not hide the others.
    let lesson_templates: Vec<String> = tree
        .get("templates")
        .and_then(|t| serde_json::from_value(t.to_value()).ok())
        .unwrap_or_default();
    let mut values = BTreeMap::new();
    if let Some(lets) = tree.get("let") {
        for (k, n) in lets.entries() {
            let mut v = n.to_value();
            if !part::<LetValue>(n, &mut v, &format!("let.{}", k.name), &mut say) {
                continue;
            }
            let Ok(l) = serde_json::from_value::<LetValue>(v) else {
                continue;
            };
            match catalog::resolve(
                &BTreeMap::from([(k.name.clone(), l)]),
                &lesson_templates,
                templates,
            ) {
                Ok(v) => values.extend(v),
                Err(why) => say(k.at, Finding::Let { why }),
            }
        }
    }
    // ${name}: each one that let: does not name is reported, and stands for itself from here on.
    let mut strings = Vec::new();
    for (k, n) in tree.entries() {
        if k.name != "let" {
            n.strings(&mut strings);
        }
    }
    let mut lenient = values.clone();
    for (at, s) in &strings {
        for name in names_in(s) {
            if !values.contains_key(&name) {
                say(
                    *at,
                    Finding::UnknownName {
                        name: name.clone(),
                        known: values.keys().cloned().collect::<Vec<_>>().join(", "),
                    },
                );
                lenient.insert(name.clone(), Value::String(format!("${{{name}}}")));
            }
        }
    }
    let mut whole = tree.to_value();
    let _ = catalog::substitute(&mut whole, &lenient);
    parts(&tree, &mut whole, &mut say);
    folder.spec = serde_json::from_value::<LessonSpec>(whole).ok();
    folder.values = values;
    texts(dir, &yaml_path, Some(&tree), problems);
    // Kept as the lesson means it: the checks after this one look for what references say.
    folder.tree = Some(tree.substituted(&lenient));
    folder
}

/// Each top-level part as its type, lists item by item; what does not read is reported and taken
/// out of `whole` (an unknown key alone, else the item or the part), so the rest of the lesson is
/// still checked.
fn parts(tree: &Node, whole: &mut Value, say: &mut impl FnMut(Pos, Finding)) {
    let Some(top) = whole.as_object_mut() else {
        return;
    };
    for (k, n) in tree.entries() {
        let name = k.name.as_str();
        let Some(v) = top.get_mut(name) else { continue };
        let ok = match name {
            "number" => part::<LessonId>(n, v, name, say),
            "slug" | "app" => part::<String>(n, v, name, say),
            "title" => part::<Localized>(n, v, name, say),
            "panes" => part::<Vec<PaneName>>(n, v, name, say),
            "focus" => part::<ObjectKey>(n, v, name, say),
            "templates" => part::<Vec<String>>(n, v, name, say),
            "values" => part::<ValuesSpec>(n, v, name, say),
            "requires" => items::<Requirement>(n, v, name, say),
            "checklist" => items::<ChecklistItem>(n, v, name, say),
            "actions" => items::<PlanAction>(n, v, name, say),
            "evidence" => {
                if let (Some(fields), Some(fv)) = (n.get("fields"), v.get_mut("fields")) {
                    items::<FieldSpec>(fields, fv, "evidence.fields", say);
                }
                if let (Some(rules), Some(rv)) = (n.get("rules"), v.get_mut("rules")) {
                    items::<Rule>(rules, rv, "evidence.rules", say);
                }
                let mut rest = v.clone();
                if let Some(m) = rest.as_object_mut() {
                    m.insert("fields".into(), Value::Array(Vec::new()));
                    m.remove("rules");
                }
                let ok = part::<EvidenceSpec>(n, &mut rest, name, say);
                if let (Some(m), Some(r)) = (v.as_object_mut(), rest.as_object()) {
                    m.retain(|key, _| r.contains_key(key) || key == "rules");
                }
                ok
            }
            _ => true,
        };
        if !ok {
            top.remove(name);
        }
    }
}

/// Each item of a list part as a `T`; the items that do not read are taken out.
fn items<T: DeserializeOwned>(
    n: &Node,
    v: &mut Value,
    name: &str,
    say: &mut impl FnMut(Pos, Finding),
) -> bool {
    let Some(list) = v.as_array_mut() else {
        return part::<Vec<T>>(n, v, name, say);
    };
    let mut keep = Vec::new();
    for (i, (item, node)) in list.iter_mut().zip(n.items()).enumerate() {
        keep.push(part::<T>(node, item, &format!("{name}[{i}]"), say));
    }
    let mut flags = keep.into_iter();
    list.retain(|_| flags.next().unwrap_or(false));
    true
}

/// Whether `v` (the node `n` with its `${name}`s put in) reads as a `T`; else each reason, at
/// the key or value it names. An unknown key is taken out and the rest read again, so every
/// unknown key of a part is reported.
fn part<T: DeserializeOwned>(
    n: &Node,
    v: &mut Value,
    name: &str,
    say: &mut impl FnMut(Pos, Finding),
) -> bool {
    for _ in 0..16 {
        let why = match serde_json::from_value::<T>(v.clone()) {
            Ok(_) => return true,
            Err(e) => e.to_string(),
        };
        if let Some(field) = quoted(&why, "unknown field `") {
            let expected = why.split_once("expected ").map_or("", |(_, r)| r);
            say(
                n.find_key(&field).unwrap_or(n.at),
                Finding::UnknownField {
                    expected: expected.trim_start_matches("one of ").replace('`', ""),
                    field: field.clone(),
                },
            );
            if remove_key(v, &field) {
                continue;
            }
            return false;
        }
        let at = quoted(&why, "`")
            .or_else(|| quoted(&why, "\""))
            .and_then(|token| n.find_scalar(&token).or_else(|| n.find_key(&token)))
            .unwrap_or(n.at);
        say(
            at,
            Finding::Shape {
                part: name.to_string(),
                why,
            },
        );
        return false;
    }
    false
}

/// Takes the first `key` out of `v` (depth first).
fn remove_key(v: &mut Value, key: &str) -> bool {
    match v {
        Value::Object(m) => {
            if m.remove(key).is_some() {
                return true;
            }
            m.values_mut().any(|x| remove_key(x, key))
        }
        Value::Array(items) => items.iter_mut().any(|x| remove_key(x, key)),
        _ => false,
    }
}

/// The text after `open` up to the quote that closes it.
fn quoted(text: &str, open: &str) -> Option<String> {
    let close = open.chars().last()?;
    let (_, rest) = text.split_once(open)?;
    rest.split_once(close).map(|(q, _)| q.to_string())
}

/// The lesson's text files (one per language, six sections each), every language-keyed text in
/// every language, and hints that the English text has.
fn texts(dir: &Path, yaml_path: &Path, tree: Option<&Node>, problems: &mut Vec<Problem>) {
    let mut hints = None;
    for &lang in Lang::all() {
        let md = dir.join(format!("{}.md", lang.code()));
        match crate::lab::files::read_text(&md, crate::lab::files::MAX_LEARNER_FILE) {
            Err(TextError::Read(ReadError::Missing { .. })) => problems.push(Problem {
                file: md,
                at: Pos { line: 1, column: 1 },
                finding: Finding::NoLanguage {
                    code: lang.code().to_string(),
                },
            }),
            Err(e) => {
                let (at, finding) = super::unreadable(&e);
                problems.push(Problem {
                    file: md,
                    at,
                    finding,
                });
            }
            Ok(text) => match catalog::parse_text(&text) {
                Ok(t) if lang == Lang::FALLBACK => hints = Some(t.hints.len()),
                Ok(_) => {}
                Err(found) => problems.push(Problem {
                    file: md,
                    at: Pos { line: 1, column: 1 },
                    finding: Finding::Sections {
                        code: lang.code().to_string(),
                        found,
                    },
                }),
            },
        }
    }
    let Some(tree) = tree else { return };
    let mut found = Vec::new();
    walk_texts(tree, &mut found, hints);
    problems.extend(found.into_iter().map(|(at, finding)| Problem {
        file: yaml_path.to_path_buf(),
        at,
        finding,
    }));
}

fn walk_texts(n: &Node, out: &mut Vec<(Pos, Finding)>, hints: Option<usize>) {
    let entries = n.entries();
    let codes: Vec<&str> = Lang::all().iter().map(|l| l.code()).collect();
    let localized = entries.iter().any(|(k, _)| k.name == Lang::FALLBACK.code())
        && entries
            .iter()
            .all(|(k, _)| codes.contains(&k.name.as_str()));
    if localized {
        for code in &codes {
            if !entries.iter().any(|(k, _)| k.name == *code) {
                out.push((
                    n.at,
                    Finding::MissingText {
                        code: code.to_string(),
                    },
                ));
            }
        }
        return;
    }
    for (k, child) in entries {
        if let (Some(count), "hint" | "live_hint") = (hints, k.name.as_str())
            && let Some(hint) = child.to_value().as_u64()
            && (hint == 0 || hint as usize > count)
        {
            out.push((
                k.at,
                Finding::Hint {
                    hint: hint as usize,
                    count,
                },
            ));
        }
        walk_texts(child, out, hints);
    }
    for item in n.items() {
        walk_texts(item, out, hints);
    }
}
