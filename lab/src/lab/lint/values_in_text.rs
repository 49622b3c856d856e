//! The values a lesson's texts state follow its `let:` values: every `${name}` in a `<lang>.md`
//! is one `let:` names, a value a text spells out (`replicaCount: 3`, `nginx:1.27-alpine`) is
//! written `${name}` instead, and with `--templates` a text that still spells a value the way
//! the built-in templates set it is found. An adapted lab's Steps, Hints and By-hand commands
//! had kept the original values in all three languages, and `${typo}` in a `.md` linted clean
//! and stopped the tutor at load (instructor-4).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::{Finding, Folder, Pos, Problem};
use crate::i18n::Lang;
use crate::lab::catalog::{self, names_in};
use crate::lab::spec::LetValue;

/// A `let:` value as a text may spell it, and the words that name it (for numbers and plain
/// words, which only count beside one of them: `3` or `blue` alone may be anything).
struct Spelled {
    name: String,
    text: String,
    /// Found only right beside one of `keys`.
    keyed: bool,
    keys: Vec<String>,
}

/// Checks each language's text of `folder` against its `let:` values; `builtin` are the same
/// names resolved against the built-in templates, when the lesson is linted with others.
pub fn check(folder: &Folder, builtin: Option<&[(String, String)]>, problems: &mut Vec<Problem>) {
    let Some(dir) = folder.yaml_path.parent() else {
        return;
    };
    let lets = lets_of(folder);
    let now = spelled(&folder.values, &lets);
    let before: Vec<Spelled> = builtin
        .map(|templates| {
            let old = resolve_each(&lets, folder, templates);
            spelled(&old, &lets)
                .into_iter()
                .filter(|s| folder.values.get(&s.name).map(text_of).as_deref() != Some(&s.text))
                .collect()
        })
        .unwrap_or_default();
    for &lang in Lang::all() {
        let md = dir.join(format!("{}.md", lang.code()));
        let Ok(text) = std::fs::read_to_string(&md) else {
            continue;
        };
        check_text(&md, &text, folder, &now, &before, problems);
    }
}

fn check_text(
    md: &Path,
    text: &str,
    folder: &Folder,
    now: &[Spelled],
    before: &[Spelled],
    problems: &mut Vec<Problem>,
) {
    let mut say = |line: usize, column: usize, finding: Finding| {
        problems.push(Problem {
            file: md.to_path_buf(),
            at: Pos {
                line: line as u64,
                column: column as u64,
            },
            finding,
        });
    };
    let known = folder.values.keys().cloned().collect::<Vec<_>>().join(", ");
    for (n, line) in text.lines().enumerate() {
        for name in names_in(line) {
            if !folder.values.contains_key(&name) {
                let column = line.find(&format!("${{{name}}}")).unwrap_or(0) + 1;
                say(
                    n + 1,
                    column,
                    Finding::UnknownName {
                        name,
                        known: known.clone(),
                    },
                );
            }
        }
        let plain = without_references(line);
        // An old value first: it says more than "write ${name}" (the text is out of date).
        let mut taken: Vec<(usize, usize)> = Vec::new();
        for (spelled, old) in before
            .iter()
            .map(|s| (s, true))
            .chain(now.iter().map(|s| (s, false)))
        {
            for start in occurrences(&plain, spelled) {
                let end = start + spelled.text.len();
                if taken.iter().any(|&(a, b)| start < b && a < end) {
                    continue;
                }
                taken.push((start, end));
                let column = plain[..start].chars().count() + 1;
                let finding = if old {
                    Finding::OldValue {
                        name: spelled.name.clone(),
                        old: spelled.text.clone(),
                        new: folder
                            .values
                            .get(&spelled.name)
                            .map(text_of)
                            .unwrap_or_default(),
                    }
                } else {
                    Finding::LiteralValue {
                        name: spelled.name.clone(),
                        value: spelled.text.clone(),
                    }
                };
                say(n + 1, column, finding);
            }
        }
    }
}

/// The line with each `${name}` blanked out (same length, so columns stay true).
fn without_references(line: &str) -> String {
    let mut out = line.to_string();
    for name in names_in(line) {
        let reference = format!("${{{name}}}");
        out = out.replacen(&reference, &" ".repeat(reference.len()), 1);
    }
    out
}

/// Where `s` is spelled in `line` as a value of its own (not inside a longer word or number);
/// a number only right beside one of its names.
fn occurrences(line: &str, s: &Spelled) -> Vec<usize> {
    // ASCII only: a Korean particle or a Chinese character right after a value (`1.28로`) is
    // not part of it.
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let digit_on = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit() || c == '.');
    line.match_indices(&s.text)
        .map(|(at, _)| at)
        .filter(|&at| {
            let before = line[..at].chars().next_back();
            let after = line[at + s.text.len()..].chars().next();
            if word(before) || word(after) {
                return false;
            }
            if !s.keyed {
                return true;
            }
            if digit_on(before) || digit_on(after) || before == Some('-') {
                return false;
            }
            next_to_a_key(&line[..at], &line[at + s.text.len()..], &s.keys)
        })
        .collect()
}

/// Whether a number between `lead` and `trail` is said as one of `keys`' value: the key just
/// before it with only punctuation between (`replicaCount: 3`, `sync-wave: "0"`, `wave 1`,
/// `--replicas=4`), or just after it (`3 replicas`). `(default 0` beside `sync-wave` is
/// another number.
fn next_to_a_key(lead: &str, trail: &str, keys: &[String]) -> bool {
    let lead = lead.to_lowercase();
    let before = lead.trim_end_matches(|c: char| !c.is_alphanumeric());
    let gap = lead.len() - before.len();
    // A whole key, not the end or start of a longer one (`backoffLimit: 0` is not `limit`).
    let word_edge = |rest: Option<char>| !rest.is_some_and(char::is_alphanumeric);
    let key_before = gap <= 4
        && keys.iter().any(|k| {
            before
                .strip_suffix(k.as_str())
                .is_some_and(|rest| word_edge(rest.chars().next_back()))
        });
    let trail = trail.to_lowercase();
    let after = trail.trim_start_matches(' ');
    let key_after = trail.len() - after.len() <= 1
        && keys.iter().any(|k| {
            after
                .strip_prefix(k.as_str())
                .is_some_and(|rest| word_edge(rest.chars().next()))
        });
    key_before || key_after
}

/// The values worth finding in a text: numbers (beside one of their names) and texts that look
/// like a value rather than a word (`nginx:1.27-alpine`, `from-parameter`, `values-prod.yaml`,
/// `1.27`).
/// Plain words (`main`, `PreSync`, `blue`) are also the lab's vocabulary, so only an adapted
/// value that differs is looked for ([`check`]'s `before`).
fn spelled(values: &BTreeMap<String, Value>, lets: &BTreeMap<String, LetValue>) -> Vec<Spelled> {
    let mut out: Vec<Spelled> = values
        .iter()
        .filter_map(|(name, v)| {
            let text = text_of(v);
            let digits = text.strip_prefix('-').unwrap_or(&text);
            let number = !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit());
            let value_like = text.chars().count() >= 3
                && text
                    .chars()
                    .any(|c| c.is_ascii_digit() || "-:/.=".contains(c))
                && text.chars().any(char::is_alphabetic);
            // A version (`1.27`, `0.1.0`) is a value too; a plain decimal is not said alone.
            let version = text.contains('.')
                && text.chars().all(|c| c.is_ascii_digit() || c == '.')
                && text.starts_with(|c: char| c.is_ascii_digit());
            // A plain word (`blue`) only as a setting's value (`mode: blue`), named by the key
            // it is read from: the lab's vocabulary (`main`, `PreSync`) is said freely.
            let word = text.chars().count() >= 3 && text.chars().all(char::is_alphabetic);
            let keys = if word {
                path_key(lets.get(name)).into_iter().collect()
            } else {
                keys_of(name, lets.get(name))
            };
            (number || value_like || version || word).then(|| Spelled {
                keys,
                name: name.clone(),
                text,
                keyed: number || word,
            })
        })
        .collect();
    // The longest first, so `nginx:1.27-alpine` is reported as itself, not as its tag.
    out.sort_by(|a, b| b.text.len().cmp(&a.text.len()).then(a.name.cmp(&b.name)));
    out
}

/// The words that name a value near where a text states it: the last key of the path it is
/// read from (`replicaCount`) and the parts of its name (`replicas` of `file_replicas`).
fn keys_of(name: &str, value: Option<&LetValue>) -> Vec<String> {
    let mut keys: Vec<String> = name
        .split('_')
        .filter(|p| p.len() >= 4)
        .map(str::to_lowercase)
        .collect();
    keys.extend(path_key(value));
    keys
}

/// The last key of the path a value is read from (`replicaCount` of
/// `spec.source.helm.valuesObject.replicaCount`), when it is a word of four letters or more.
fn path_key(value: Option<&LetValue>) -> Option<String> {
    let path = value.and_then(|v| v.path.as_ref())?.to_string();
    let last = path
        .rsplit(['.', '['])
        .find(|p| p.chars().next().is_some_and(char::is_alphabetic))?;
    let last: String = last.chars().take_while(|c| c.is_alphanumeric()).collect();
    // `name:` names containers, ports and list entries as often as the object it is read from.
    (last.len() >= 4 && last != "name").then(|| last.to_lowercase())
}

/// A value as a text says it.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The lesson's `let:` as written.
fn lets_of(folder: &Folder) -> BTreeMap<String, LetValue> {
    folder
        .tree
        .as_ref()
        .and_then(|t| t.get("let"))
        .and_then(|l| serde_json::from_value(l.to_value()).ok())
        .unwrap_or_default()
}

/// Each `let:` value read from `templates`, one by one (a value they cannot give is left out).
fn resolve_each(
    lets: &BTreeMap<String, LetValue>,
    folder: &Folder,
    templates: &[(String, String)],
) -> BTreeMap<String, Value> {
    let lesson_templates: Vec<String> = folder
        .spec
        .as_ref()
        .map(|s| s.templates.clone())
        .unwrap_or_default();
    lets.iter()
        .filter_map(|(name, l)| {
            catalog::resolve(
                &BTreeMap::from([(name.clone(), l.clone())]),
                &lesson_templates,
                templates,
            )
            .ok()
        })
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests;
