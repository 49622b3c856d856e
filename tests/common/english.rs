//! Finds the tutor's own English on a screen meant for another language. The words that count
//! as English prose are read from the project itself: every word of the English strings and
//! lessons that the other language's strings and lessons never use. What the Chinese or Korean
//! text keeps on purpose (`Synced`, `kubectl`, `valuesObject`) is in that language's own text, so
//! it is allowed by construction; quoted text, paths and identifiers are never prose; and what
//! the cluster or Git said (an operation's message, a commit subject) is allowed by the caller.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

/// Keys, names and marks of the tutor's that are the same in every language.
const SAME_IN_EVERY_LANGUAGE: &[&str] = &[
    "capa",
    "tui",
    "sim",
    "pgdn",
    "pgup",
    "tab",
    "enter",
    "esc",
    "ctrl",
    "space",
    "shift",
    "alt",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "default",
    "projector",
    "monochrome",
    // The lab's own names (src-helm, src.git) cut by an overlay drawn over them.
    "src",
];

/// Words the tutor's strings keep in every language though no lesson text uses them: Argo CD's
/// and Kubernetes' own words as the tools print them, and the tools' names.
const KEPT_IN_STRINGS: &[&str] = &[
    // jq's own function, in the advice for a number written as a string.
    "tonumber",
    // The terminal escape the clipboard copy uses (OSC 52), named as terminals name it.
    "osc",
    // Health and operation words as Argo CD and Kubernetes print them.
    "missing",
    "progressing",
    "terminating",
    "degraded",
    "suspended",
    "unknown",
    "pending",
    "kubernetes",
    "crd",
    // The config file's keys, as the file is written.
    "theme",
    "lang",
    "present",
];

pub struct English {
    prose: BTreeSet<String>,
    allowed: BTreeSet<String>,
}

/// The words of `text`: runs of ASCII letters between spaces, CJK and punctuation, that stand
/// alone (a piece of `src-helm`, `a.b` or `x/y` is an identifier or a path, never prose).
pub fn words(text: &str) -> Vec<String> {
    // A piece of text that touches a border (`setting║`, `precedence.║`) was cut by a box drawn over it: a fragment
    // of the text behind, not a word anyone reads.
    let border = |c: char| ('\u{2500}'..='\u{257f}').contains(&c);
    let mut cleaned = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && chars[i].is_ascii() && !chars[i].is_whitespace() {
            i += 1;
        }
        if i > start {
            let before = start.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i).copied();
            if before.is_some_and(border) || after.is_some_and(border) {
                // Kept as a mark, so what it was part of (`precedence.json`) stays one piece.
                cleaned.extend(
                    chars[start..i]
                        .iter()
                        .map(|c| if c.is_ascii_alphabetic() { '_' } else { *c }),
                );
            } else {
                cleaned.extend(&chars[start..i]);
            }
        } else {
            cleaned.push(chars[i]);
            i += 1;
        }
    }
    let mut out = Vec::new();
    for chunk in cleaned.split(|c: char| c.is_whitespace() || !c.is_ascii()) {
        let chunk = chunk.trim_matches(|c: char| "()[],.:;!?'\"<>*`|".contains(c));
        let alone =
            !chunk.is_empty() && chunk.chars().all(|c| c.is_ascii_alphabetic() || c == '\'');
        if alone && chunk.len() >= 2 {
            out.push(chunk.to_ascii_lowercase());
        }
    }
    out
}

/// `text` without what is quoted (`"…"`, `“…”`, `` `…` ``): a quote is someone else's words.
pub fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut closing: Option<char> = None;
    for c in text.chars() {
        match closing {
            Some(end) if c == end => closing = None,
            Some(_) => {}
            None => match c {
                '"' => closing = Some('"'),
                '`' => closing = Some('`'),
                '“' => closing = Some('”'),
                _ => out.push(c),
            },
        }
    }
    out
}

fn ftl_text(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| match l.split_once(" = ") {
            Some((id, rest)) if !id.starts_with(' ') => rest.to_string(),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every string of a `lesson.yaml` by language: language-keyed maps by their key, the rest as
/// English (a plain string is English).
fn yaml_texts(v: &Value, codes: &[String], key: Option<&str>, out: &mut Vec<(String, String)>) {
    match v {
        Value::String(s) => {
            let lang = key.filter(|k| codes.iter().any(|c| c == k)).unwrap_or("en");
            out.push((lang.to_string(), s.clone()));
        }
        Value::Array(items) => items.iter().for_each(|i| yaml_texts(i, codes, None, out)),
        Value::Object(m) => m
            .iter()
            .for_each(|(k, v)| yaml_texts(v, codes, Some(k), out)),
        _ => {}
    }
}

/// A lesson text without the comments of its code blocks: a comment is prose, and English
/// prose left in a translation must not count as a word that language keeps.
fn without_code_comments(md: &str) -> String {
    let mut in_code = false;
    md.lines()
        .map(|l| {
            if l.trim_start().starts_with("```") {
                in_code = !in_code;
            }
            match l
                .find(" #")
                .or(l.trim_start().starts_with('#').then_some(0))
            {
                Some(at) if in_code => &l[..at],
                _ => l,
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text of one language's lessons: its `<lang>.md` files and `lesson.yaml` maps, and with
/// `strings`, its Fluent strings too.
fn texts_of(root: &Path, lang: &str, strings: bool) -> String {
    let codes: Vec<String> = std::fs::read_dir(root.join("assets/i18n"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    let mut all = if strings {
        ftl_text(&root.join(format!("assets/i18n/{lang}/capa_tui.ftl")))
    } else {
        String::new()
    };
    for lesson in std::fs::read_dir(root.join("lessons")).unwrap().flatten() {
        all.push('\n');
        let md =
            std::fs::read_to_string(lesson.path().join(format!("{lang}.md"))).unwrap_or_default();
        all.push_str(&without_code_comments(&md));
        let yaml = std::fs::read_to_string(lesson.path().join("lesson.yaml")).unwrap_or_default();
        let v: Value = serde_saphyr::from_str(&yaml).unwrap_or(Value::Null);
        let mut texts = Vec::new();
        yaml_texts(&v, &codes, None, &mut texts);
        for (l, t) in texts {
            if l == lang {
                all.push('\n');
                all.push_str(&t);
            }
        }
    }
    all
}

impl English {
    /// English prose as a reader of `lang` would meet it.
    pub fn for_language(lang: &str) -> English {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        // The words its lessons keep: not its strings, so English left in a string is found.
        let theirs: BTreeSet<String> = words(&texts_of(root, lang, false))
            .into_iter()
            .chain(KEPT_IN_STRINGS.iter().map(|w| w.to_string()))
            .collect();
        let prose = words(&texts_of(root, "en", true))
            .into_iter()
            .filter(|w| !theirs.contains(w) && !SAME_IN_EVERY_LANGUAGE.contains(&w.as_str()))
            .collect();
        English {
            prose,
            allowed: BTreeSet::new(),
        }
    }

    /// Allows the words of what someone else said: the cluster's messages, Git's subjects.
    pub fn allow(&mut self, text: &str) {
        self.allowed.extend(words(text));
    }

    /// Allows every string in `v` (objects read from the cluster).
    pub fn allow_json(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.allow(s),
            Value::Array(a) => a.iter().for_each(|i| self.allow_json(i)),
            Value::Object(m) => m.values().for_each(|i| self.allow_json(i)),
            _ => {}
        }
    }

    /// The lines of `text` that hold English prose, each with the words that make it so.
    pub fn lines_in(&self, text: &str) -> Vec<(String, Vec<String>)> {
        text.lines()
            // A command shown to be typed (`$ kubectl …`) is the tool's language.
            .filter(|line| !line.trim_start().starts_with("$ "))
            .filter_map(|line| {
                let found: Vec<String> = words(&unquoted(&without_subcommands(line)))
                    .into_iter()
                    .filter(|w| self.prose.contains(w) && !self.allowed.contains(w))
                    .collect();
                (!found.is_empty()).then(|| (line.trim().to_string(), found))
            })
            .collect()
    }
}

/// `line` without the subcommand words of the `capa-tui` commands it names (`capa-tui check 6`,
/// `capa-tui lesson lint DIR`): a command, in every language.
fn without_subcommands(line: &str) -> String {
    const SUBCOMMANDS: &[&str] = &[
        "check", "status", "do", "doctor", "shell", "env", "app", "sim", "serve", "lesson", "lint",
        "test", "new", "schema", "config", "all",
    ];
    let mut out = Vec::new();
    let mut in_command = false;
    for word in line.split(' ') {
        if word.ends_with("capa-tui") {
            in_command = true;
            out.push(word);
            continue;
        }
        if in_command && SUBCOMMANDS.contains(&word) {
            continue;
        }
        in_command = false;
        out.push(word);
    }
    out.join(" ")
}
