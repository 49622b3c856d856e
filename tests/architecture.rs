//! ARCHITECTURE.md cannot rot silently: every path it writes as code (from the repository root,
//! with `NN-slug`, `<code>`, `*` and `{a,b}` standing for what they say) exists, and every Rust
//! name it writes as code (`Type`, `Type::member`, `module::item`, `CONST`, `snake_case_name`,
//! `name()`) is defined in the code. Only the text is read; nothing is built or run.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Names that belong to the standard library or a dependency, not to this repository.
const EXTERNAL: &[&str] = &[
    "std",
    "core",
    "alloc",
    "Vec",
    "String",
    "Option",
    "Result",
    "Box",
    "ratatui",
    "kube",
    "tokio",
    "serde",
    "serde_json",
    "strum",
    "insta",
    "jiff",
    "clap",
];

/// File endings that make a code span a path even without a folder in front.
const FILE_ENDINGS: &[&str] = &[
    ".rs", ".md", ".yaml", ".yml", ".ftl", ".toml", ".json", ".svg", ".snap", ".sh",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn guide() -> String {
    std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap()
}

/// The guide's code spans outside fenced blocks, each with its line (a span may wrap; its
/// whitespace is made single spaces).
fn code_spans(text: &str) -> Vec<(usize, String)> {
    let mut fenced = false;
    let prose: Vec<&str> = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                ""
            } else if fenced {
                ""
            } else {
                l
            }
        })
        .collect();
    let prose = prose.join("\n");
    let mut spans = Vec::new();
    let mut line = 1;
    for (i, part) in prose.split('`').enumerate() {
        if i % 2 == 1 {
            spans.push((line, part.split_whitespace().collect::<Vec<_>>().join(" ")));
        }
        line += part.matches('\n').count();
    }
    spans
}

/// `a/{b,c}.rs` → `a/b.rs`, `a/c.rs`.
fn expand_braces(span: &str) -> Vec<String> {
    let (Some(open), Some(close)) = (span.find('{'), span.find('}')) else {
        return vec![span.to_string()];
    };
    if close < open {
        return vec![span.to_string()];
    }
    span[open + 1..close]
        .split(',')
        .flat_map(|alt| expand_braces(&format!("{}{alt}{}", &span[..open], &span[close + 1..])))
        .collect()
}

fn is_path(span: &str) -> bool {
    if span.contains(' ') || span.is_empty() {
        return false;
    }
    let first = span.split('/').next().unwrap_or_default();
    let top_level =
        !first.is_empty() && root().join(first).exists() && (span.contains('/') || span == first);
    top_level || FILE_ENDINGS.iter().any(|e| span.ends_with(e))
}

/// A name matches a pattern segment where `*`, `<...>` and `NN-slug` stand for anything.
fn segment_matches(pattern: &str, name: &str) -> bool {
    let mut p = pattern.replace("NN-slug", "*");
    while let (Some(a), Some(b)) = (p.find('<'), p.find('>')) {
        if b < a {
            break;
        }
        p.replace_range(a..=b, "*");
    }
    glob(p.as_bytes(), name.as_bytes())
}

fn glob(p: &[u8], n: &[u8]) -> bool {
    match (p.first(), n.first()) {
        (None, None) => true,
        (Some(b'*'), _) => glob(&p[1..], n) || (!n.is_empty() && glob(p, &n[1..])),
        (Some(a), Some(b)) if a == b => glob(&p[1..], &n[1..]),
        _ => false,
    }
}

fn path_exists(span: &str) -> bool {
    let mut here = vec![root().to_path_buf()];
    for segment in span.split('/').filter(|s| !s.is_empty()) {
        here = here
            .iter()
            .filter_map(|dir| std::fs::read_dir(dir).ok())
            .flatten()
            .flatten()
            .filter(|e| segment_matches(segment, &e.file_name().to_string_lossy()))
            .map(|e| e.path())
            .collect();
    }
    if span.ends_with('/') {
        here.retain(|p| p.is_dir());
    }
    !here.is_empty()
}

/// Every file under `dir`, into `out`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every Rust file of the crates and their tests, by path from the root (but this one, whose
/// made-up names must stay undefined).
fn sources() -> BTreeMap<String, String> {
    let mut files = Vec::new();
    for dir in ["src", "lab/src", "sim/src", "tests", "sim/tests"] {
        walk(&root().join(dir), &mut files);
    }
    files.retain(|p| p.extension().is_some_and(|x| x == "rs"));
    files.push(root().join("lab/build.rs"));
    files
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            let rel = p
                .strip_prefix(root())
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            (rel != "tests/architecture.rs").then_some((rel, text))
        })
        .collect()
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Where `word` occurs in `text` as a whole word: the byte offsets.
fn word_at(text: &str, word: &str) -> Vec<usize> {
    text.match_indices(word)
        .filter(|(i, _)| {
            let before = text[..*i].chars().next_back();
            let after = text[i + word.len()..].chars().next();
            !before.is_some_and(is_ident_char) && !after.is_some_and(is_ident_char)
        })
        .map(|(i, _)| i)
        .collect()
}

/// `text` defines `name`: as an item (`fn`, `struct`, `enum`, `trait`, `type`, `const`,
/// `static`, `mod`, `macro_rules!`), a re-export, or a line that opens with it (an enum
/// variant, a field).
fn defines(text: &str, name: &str) -> bool {
    let keywords = [
        "fn ", "struct ", "enum ", "trait ", "type ", "const ", "static ", "mod ",
    ];
    word_at(text, name).into_iter().any(|i| {
        let before = &text[..i];
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let line_before = before[line_start..].trim_start();
        let after = text[i + name.len()..].trim_start();
        keywords.iter().any(|k| before.ends_with(k))
            || before.ends_with("macro_rules! ")
            || (line_before.is_empty()
                || line_before == "pub"
                || line_before.starts_with("pub(") && line_before.ends_with(')'))
                && (after.starts_with(['{', '(', ',', ':']) || after.starts_with('\n'))
            || line_before.starts_with("pub use ")
    })
}

/// The files that define or implement the type `name`.
fn owners<'a>(files: &'a BTreeMap<String, String>, name: &str) -> Vec<&'a str> {
    files
        .values()
        .filter(|text| {
            text.lines().any(|l| {
                let l = l.trim_start();
                let l = match l.strip_prefix("pub") {
                    Some(r) if r.starts_with('(') => r.split_once(')').map_or(r, |(_, x)| x),
                    Some(r) => r,
                    None => l,
                }
                .trim_start();
                let opens = ["struct ", "enum ", "trait ", "impl ", "impl<"]
                    .iter()
                    .any(|k| l.starts_with(k));
                opens && !word_at(l, name).is_empty()
            })
        })
        .map(String::as_str)
        .collect()
}

/// The files of the module `path` (`lab::engine` → `lab/src/lab/engine.rs` and what is under
/// `lab/src/lab/engine/`), in any crate.
fn module_files<'a>(files: &'a BTreeMap<String, String>, path: &[&str]) -> Vec<&'a str> {
    let key = path.join("/");
    files
        .iter()
        .filter(|(p, _)| {
            ["src/", "lab/src/", "sim/src/"].iter().any(|pre| {
                p.strip_prefix(pre)
                    .and_then(|r| r.strip_suffix(".rs"))
                    .is_some_and(|r| {
                        r == key
                            || r.ends_with(&format!("/{key}"))
                            || r.starts_with(&format!("{key}/"))
                            || r.contains(&format!("/{key}/"))
                    })
            })
        })
        .map(|(_, t)| t.as_str())
        .collect()
}

/// Whether a Rust name the guide writes is defined; `None` when the span is not one it checks
/// (a lowercase word such as a module or YAML key, a name from a dependency, prose).
fn rust_name_defined(files: &BTreeMap<String, String>, span: &str) -> Option<bool> {
    let called = span.contains('(');
    let name = span.split('(').next().unwrap_or_default();
    let (name, macro_call) = match name.strip_suffix('!') {
        Some(n) => (n, true),
        None => (name, false),
    };
    let segments: Vec<&str> = name.split("::").collect();
    let valid = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(is_ident_char)
    };
    if !segments.iter().all(|s| valid(s)) || EXTERNAL.contains(&segments[0]) {
        return None;
    }
    let upper = |s: &str| s.starts_with(|c: char| c.is_ascii_uppercase());
    let all = || files.values().map(String::as_str);
    if let [one] = segments[..] {
        return if macro_call {
            Some(all().any(|t| t.contains(&format!("macro_rules! {one} "))))
        } else if upper(one) {
            Some(all().any(|t| defines(t, one)))
        } else if one.contains('_') || called {
            let cargo = std::fs::read_to_string(root().join("Cargo.toml")).unwrap_or_default();
            Some(
                all()
                    .chain([cargo.as_str()])
                    .any(|t| !word_at(t, one).is_empty()),
            )
        } else {
            None
        };
    }
    // The lowercase segments before the first item are modules (`lab::engine::plan`); the rest
    // is an item, or a type and its member (`State::lesson_panes`, `Msg::Listed`).
    let first_item = segments
        .iter()
        .position(|s| upper(s))
        .unwrap_or(segments.len() - 1)
        .min(segments.len() - 1);
    let (leading, rest) = segments.split_at(first_item);
    let modules: Vec<&str> = leading
        .iter()
        .copied()
        .filter(|s| !["crate", "capa_tui", "capa_lab", "capa_sim"].contains(s))
        .collect();
    let scope: Vec<&str> = if segments[0] == "capa_sim" && modules.is_empty() {
        files
            .iter()
            .filter(|(p, _)| p.starts_with("sim/src/"))
            .map(|(_, t)| t.as_str())
            .collect()
    } else if modules.is_empty() {
        all().collect()
    } else {
        module_files(files, &modules)
    };
    Some(match rest {
        [] => false,
        [item] => scope.iter().any(|t| defines(t, item)),
        [ty, .., member] => {
            scope.iter().any(|t| defines(t, ty))
                && owners(files, ty).iter().any(|t| defines(t, member))
        }
    })
}

#[test]
fn every_path_and_name_in_the_architecture_guide_exists() {
    let files = sources();
    let mut stale = Vec::new();
    let spans = code_spans(&guide());
    assert!(
        spans.len() > 100,
        "the guide's code spans are read: {}",
        spans.len()
    );
    for (line, span) in &spans {
        for one in expand_braces(span) {
            if is_path(&one) {
                if !path_exists(&one) {
                    stale.push(format!("ARCHITECTURE.md:{line}: no path `{one}`"));
                }
            } else if rust_name_defined(&files, &one) == Some(false) {
                stale.push(format!("ARCHITECTURE.md:{line}: nothing defines `{one}`"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "the guide names what is not there:\n{}",
        stale.join("\n")
    );
}

/// The checks themselves: what they must find missing, and what they must let pass.
#[test]
fn the_guide_check_finds_what_is_gone_and_passes_what_is_there() {
    let files = sources();
    for there in [
        "src/tui/update.rs",
        "lessons/NN-slug/lesson.yaml",
        "assets/i18n/<code>/capa_tui.ftl",
        "sim/tests/common/",
    ] {
        assert!(is_path(there) && path_exists(there), "{there}");
    }
    assert_eq!(
        expand_braces("sim/tests/common/{lab,git}.rs"),
        ["sim/tests/common/lab.rs", "sim/tests/common/git.rs"]
    );
    for gone in ["src/tui/nowhere.rs", "lessons/NN-slug/nothing.md"] {
        assert!(is_path(gone) && !path_exists(gone), "{gone}");
    }
    assert!(!is_path("namespace/Kind/name") && !is_path("//!"));
    for defined in [
        "StateBuilder",
        "State::lesson_panes",
        "State::version",
        "Msg::Stream",
        "Lang::all()",
        "lab::engine::plan(lesson)",
        "capa_sim::start(Config)",
        "REGRADE_QUIET",
        "t!(lang, \"id\")",
        "deny_unknown_fields",
    ] {
        assert_eq!(rust_name_defined(&files, defined), Some(true), "{defined}");
    }
    for undefined in [
        "NoSuchType",
        "State::no_such_method",
        "Msg::NoSuchMessage",
        "lab::engine::no_such_fn",
        "no_such_test_name",
    ] {
        assert_eq!(
            rust_name_defined(&files, undefined),
            Some(false),
            "{undefined}"
        );
    }
    for not_checked in ["update", "std::fmt::Display", "Vec::new()", "metadata.name"] {
        assert_eq!(
            rust_name_defined(&files, not_checked),
            None,
            "{not_checked}"
        );
    }
}

/// Small files: no Rust file of any crate's `src` over 600 lines, so a file stays one idea
/// that reads in a sitting.
#[test]
fn no_source_file_is_over_600_lines() {
    const MOST: usize = 600;
    let over: Vec<String> = sources()
        .iter()
        .filter(|(p, _)| {
            ["src/", "lab/src/", "sim/src/"]
                .iter()
                .any(|pre| p.starts_with(pre))
        })
        .map(|(path, text)| (path, text.lines().count()))
        .filter(|(_, lines)| *lines > MOST)
        .map(|(path, lines)| format!("{path}: {lines} lines"))
        .collect();
    assert!(
        over.is_empty(),
        "split these files (at most {MOST} lines):\n{}",
        over.join("\n")
    );
}

/// The variants of `enum name` in `file`, read from its source: the lines at one indent
/// inside the enum that start with a capital.
fn variants(file: &str, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(file)).unwrap_or_default();
    let start = text
        .find(&format!("pub enum {name} {{"))
        .unwrap_or_else(|| panic!("enum {name} in {file}"));
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('}'))
        .filter_map(|l| l.strip_prefix("    "))
        .filter(|l| l.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|l| l.chars().take_while(|c| c.is_alphanumeric()).collect())
        .collect()
}

/// The guide's list of what `update` asks of the world names every `Effect` there is and
/// nothing else (an audit found it missing one), and its list of `update`'s helpers names
/// every file in `src/tui/update/` (tests aside).
#[test]
fn the_guides_lists_of_effects_and_update_helpers_are_the_codes() {
    let guide = guide();
    let effects = variants("src/tui/update/msg.rs", "Effect");
    assert!(effects.len() > 5, "{effects:?}");
    let said: std::collections::BTreeSet<String> = guide
        .split("Effect::")
        .skip(1)
        .map(|rest| rest.chars().take_while(|c| c.is_alphanumeric()).collect())
        .collect();
    let real: std::collections::BTreeSet<String> = effects.into_iter().collect();
    assert_eq!(
        said, real,
        "ARCHITECTURE.md's Effects (left) against src/tui/update/msg.rs (right)"
    );
    let helpers = std::fs::read_dir(root().join("src/tui/update"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rs") && !n.ends_with("tests.rs"));
    for file in helpers {
        let path = format!("src/tui/update/{file}");
        assert!(
            guide.contains(&format!("`{path}`")),
            "ARCHITECTURE.md does not say what {path} is for"
        );
    }
}

/// The body of the function in `text` that takes a `ty` (`msg: ty)`), braces matched.
fn body_of_fn_taking<'a>(text: &'a str, ty: &str) -> Option<&'a str> {
    let block = blocks_opened_by(text, &[&format!(": {ty})")])
        .into_iter()
        .next()?;
    Some(&text[block])
}

/// Every message has one owner: the guide's table names each `Msg` variant and the file that
/// handles its kind of message, and that file matches every message of the kind by name, with
/// no catch-all (so a new message does not build until its owner says what it does).
#[test]
fn every_message_is_matched_whole_by_the_file_the_guide_names() {
    let guide = guide();
    let msg_file = std::fs::read_to_string(root().join("src/tui/update/msg.rs")).unwrap();
    let mut payloads = std::collections::BTreeSet::new();
    for v in variants("src/tui/update/msg.rs", "Msg") {
        assert!(
            guide.contains(&format!("`Msg::{v}`")),
            "ARCHITECTURE.md's table of messages does not name Msg::{v}"
        );
        let payload = msg_file
            .split(&format!("\n    {v}("))
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .unwrap_or_default();
        if payload.ends_with("Msg") || payload.ends_with("Change") {
            payloads.insert(payload.to_string());
        }
    }
    let kinds = [
        (
            "src/tui/update/msg.rs",
            "InputMsg",
            "src/tui/update/input.rs",
        ),
        (
            "lab/src/cluster/watch.rs",
            "ObjectChange",
            "src/tui/update/watch.rs",
        ),
        (
            "lab/src/cluster/watch.rs",
            "StreamChange",
            "src/tui/update/watch.rs",
        ),
        ("src/tui/update/msg.rs", "JobMsg", "src/tui/update/plan.rs"),
        (
            "src/tui/update/msg.rs",
            "LabMsg",
            "src/tui/update/regrade.rs",
        ),
        (
            "src/tui/update/msg.rs",
            "ShellMsg",
            "src/tui/update/shell.rs",
        ),
        (
            "src/tui/update/msg.rs",
            "DrawnMsg",
            "src/tui/update/navigate.rs",
        ),
        ("src/tui/update/msg.rs", "ReplayMsg", "src/tui/update.rs"),
    ];
    let listed: std::collections::BTreeSet<String> =
        kinds.iter().map(|(_, kind, _)| kind.to_string()).collect();
    assert_eq!(payloads, listed, "the kinds of message Msg carries");
    for (declared, kind, owner) in kinds {
        let row = guide
            .lines()
            .find(|l| l.starts_with("   | ") && l.contains(&format!("(`{kind}`)")))
            .unwrap_or_else(|| panic!("ARCHITECTURE.md's table has no row for {kind}"));
        assert!(
            row.contains(&format!("`{owner}`")),
            "{kind} is handled in {owner}: {row}"
        );
        let text = std::fs::read_to_string(root().join(owner)).unwrap();
        let body = body_of_fn_taking(&text, kind)
            .unwrap_or_else(|| panic!("{owner} has no function taking a {kind}"));
        for v in variants(declared, kind) {
            assert!(
                body.contains(&format!("{kind}::{v}")),
                "{owner} does not match {kind}::{v} by name"
            );
        }
        // The match on the message is the body's first; its arms sit one indent in.
        let (indent, _) = body
            .lines()
            .find_map(|l| {
                l.trim_start()
                    .starts_with("match ")
                    .then(|| l.len() - l.trim_start().len())
                    .map(|i| (i, l))
            })
            .unwrap_or_else(|| panic!("{owner} does not match on {kind}"));
        let arm = " ".repeat(indent + 4);
        assert!(
            !body.lines().any(|l| l
                .strip_prefix(arm.as_str())
                .is_some_and(|a| a.starts_with("_ ") || a.starts_with("other "))),
            "{owner} matches {kind} with a catch-all"
        );
    }
}

/// One error style: every error type derives `thiserror::Error` (its `source` chain typed, its
/// words from `Say` where a learner reads them), none implements `std::error::Error` by hand,
/// and a plan step's error keeps what failed below as a typed source, not as text.
#[test]
fn errors_are_derived_and_keep_their_sources_typed() {
    let files = sources();
    let by_hand: Vec<&String> = files
        .iter()
        .filter(|(path, text)| {
            !path.starts_with("tests/")
                && !path.contains("/tests/")
                && text.contains("impl std::error::Error for")
        })
        .map(|(path, _)| path)
        .collect();
    assert!(
        by_hand.is_empty(),
        "error types that implement Error by hand: {by_hand:?}"
    );
    for file in [
        "lab/src/lab/engine/error.rs",
        "lab/src/cluster.rs",
        "lab/src/git.rs",
    ] {
        let text = &files[file];
        let enum_at = text
            .find("thiserror::Error)]\npub enum")
            .unwrap_or_else(|| panic!("{file}: a derived error"));
        let body = &text[enum_at
            ..text[enum_at..]
                .find("\n}\n")
                .map_or(text.len(), |e| enum_at + e)];
        assert!(
            !body.contains("why: String"),
            "{file}: an error that keeps what failed below as text"
        );
    }
}

/// The byte ranges of the blocks in `text` that open with one of `openers` (braces matched).
fn blocks_opened_by(text: &str, openers: &[&str]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    for opener in openers {
        for (at, _) in text.match_indices(opener) {
            // A declaration (`mod tests;`) opens no block.
            let Some(open) = text[at..]
                .find(['{', ';'])
                .map(|i| at + i)
                .filter(|&i| text[i..].starts_with('{'))
            else {
                continue;
            };
            let mut depth = 0;
            for (i, c) in text[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            out.push(at..open + i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Words only at draw time: in the lab crate a message is looked up (`t!`) only inside an
/// `impl Say for …`, so a plan, a grade or a finding is a typed value that any language can
/// say when it is shown (the strings layer itself, tests and macro definitions aside).
#[test]
fn the_lab_looks_up_words_only_where_a_value_is_said() {
    let files = sources();
    let mut outside = Vec::new();
    for (path, text) in &files {
        let machinery = path == "lab/src/i18n.rs" || path.starts_with("lab/src/i18n/");
        if !path.starts_with("lab/src/") || machinery || path.contains("tests") {
            continue;
        }
        let allowed = blocks_opened_by(text, &["Say for ", "#[cfg(test)]\nmod ", "macro_rules! "]);
        for at in word_at(text, "t!") {
            if !allowed.iter().any(|r| r.contains(&at)) {
                let line = text[..at].matches('\n').count() + 1;
                outside.push(format!("{path}:{line}"));
            }
        }
    }
    assert!(
        outside.is_empty(),
        "words looked up outside a Say impl (return a typed value that implements Say):\n{}",
        outside.join("\n")
    );
}

/// The runtime only moves messages and effects: reading the lab's files, parsing them and walking
/// Git is the lab's work (`lab::eval::files`, `git`), so none of it hides in `src/tui/runtime`.
#[test]
fn the_runtime_reads_no_lab_files_itself() {
    let files = sources();
    let mut found = Vec::new();
    for (path, text) in &files {
        if !(path == "src/tui/runtime.rs" || path.starts_with("src/tui/runtime/")) {
            continue;
        }
        for doing in [
            "serde_saphyr",
            "crate::git::",
            "revwalk",
            "read_dir",
            "read_to_string",
        ] {
            if text.contains(doing) {
                found.push(format!("{path}: {doing}"));
            }
        }
    }
    assert!(found.is_empty(), "the lab's work in the runtime: {found:?}");
}

/// The lab crate depends on no terminal library, so "back ends never draw" is kept by the
/// compiler (a `use ratatui` in `lab/` does not build), not by review. Read from its manifest:
/// its dependencies, dev-dependencies included, name none of the tutor's terminal crates.
#[test]
fn the_lab_crate_has_no_terminal_dependency() {
    const TERMINAL: &[&str] = &[
        "ratatui",
        "crossterm",
        "syntect",
        "portable-pty",
        "tui-term",
        "tui-big-text",
        "vt100",
        "clap",
    ];
    let manifest = std::fs::read_to_string(root().join("lab/Cargo.toml")).unwrap();
    let mut section = String::new();
    let mut named = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
        } else if section.contains("dependencies")
            && let Some((name, _)) = line.split_once('=')
        {
            named.push(name.trim().trim_end_matches(".workspace").to_string());
        }
    }
    assert!(
        named.contains(&"kube".to_string()),
        "read no dependencies: {named:?}"
    );
    let terminal: Vec<&String> = named
        .iter()
        .filter(|n| TERMINAL.contains(&n.as_str()))
        .collect();
    assert!(terminal.is_empty(), "the lab crate depends on {terminal:?}");
    let in_lab: Vec<String> = sources()
        .iter()
        .filter(|(p, text)| {
            p.starts_with("lab/")
                && TERMINAL
                    .iter()
                    .any(|t| text.contains(&format!("{}::", t.replace('-', "_"))))
        })
        .map(|(p, _)| p.clone())
        .collect();
    assert!(
        in_lab.is_empty(),
        "lab files name a terminal crate: {in_lab:?}"
    );
}

/// `git` is the one place of the lab crate that names libgit2, and the tutor names it only in
/// tests: every other file holds a repository through `git`'s types and functions.
#[test]
fn only_the_git_module_names_git2() {
    let naming: Vec<String> = sources()
        .iter()
        .filter(|(p, _)| p.starts_with("src/") || p.starts_with("lab/src/"))
        .filter(|(p, _)| !(p.as_str() == "lab/src/git.rs" || p.starts_with("lab/src/git/")))
        .filter(|(p, _)| !p.ends_with("/tests.rs") && !p.contains("/tests/"))
        .filter(|(_, text)| {
            text.lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .any(|l| l.contains("git2::") || l.contains("use git2"))
        })
        .map(|(p, _)| p.clone())
        .collect();
    assert!(naming.is_empty(), "name git2 outside `git`: {naming:?}");
}

/// Only `update` writes `State`, and the compiler keeps it: every field of `State` is
/// `pub(in crate::tui::update)` (views and the runtime read through its accessors).
#[test]
fn the_states_fields_are_updates_alone() {
    let text = std::fs::read_to_string(root().join("src/tui/update/state.rs")).unwrap();
    let body = text
        .split_once("pub struct State {")
        .and_then(|(_, rest)| rest.split_once("\n}"))
        .map(|(body, _)| body)
        .unwrap();
    let fields: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && l.contains(':'))
        .collect();
    assert!(fields.len() >= 7, "read no fields: {fields:?}");
    let open: Vec<&&str> = fields
        .iter()
        .filter(|l| !l.starts_with("pub(in crate::tui::update) "))
        .collect();
    assert!(open.is_empty(), "fields others could write: {open:?}");
}

/// The guide's pane recipe says how many files adding a pane touches by hand; the panes that
/// are only a view (no key, no special room) are named in exactly that many: their file, the
/// table, the `Pane` enum, the layout's test, and each language's strings.
#[test]
fn pane_recipe_touches_the_files_the_guide_says() {
    let guide = guide();
    let said: usize = guide
        .split("adding a pane touches ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("the guide says how many files adding a pane touches");
    let mut texts = sources();
    for dir in std::fs::read_dir(root().join("assets/i18n"))
        .unwrap()
        .flatten()
    {
        let ftl = dir.path().join("capa_tui.ftl");
        let rel = ftl
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        texts.insert(rel, std::fs::read_to_string(&ftl).unwrap());
    }
    for pane in ["Values", "Evidence"] {
        let lower = pane.to_lowercase();
        let marks = [
            format!("Pane::{pane}"),
            format!("{lower}::{pane}"),
            format!("\npane-{lower} ="),
        ];
        // Its variant in `Pane` (not in the lessons' `PaneName`, which step 6 adds).
        let declared = format!("\n    {pane},");
        let touched: Vec<&String> = texts
            .iter()
            .filter(|(p, _)| !p.starts_with("tests/") && !p.ends_with("/tests.rs"))
            .filter(|(p, _)| !p.contains("/tests/"))
            .filter(|(p, text)| {
                marks.iter().any(|m| text.contains(m.as_str()))
                    || (p.as_str() == "src/tui/update/state/pane.rs" && text.contains(&declared))
            })
            .map(|(p, _)| p)
            .collect();
        assert_eq!(
            touched.len(),
            said,
            "the {pane} pane is named in {touched:#?}; the guide says {said} files"
        );
    }
}

/// A language is data: the guide says how many files adding one touches, and each language
/// but English is in exactly that many files of `lessons/` and `assets/` (its strings, its
/// lesson texts, the lessons' keyed maps, the skeleton), none of them Rust.
#[test]
fn language_recipe_touches_the_files_the_guide_says() {
    let said: usize = guide()
        .split("adding a language touches ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("the guide says how many files adding a language touches");
    let mut files = Vec::new();
    for dir in ["lessons", "assets/i18n", "assets/skeleton"] {
        walk(&root().join(dir), &mut files);
    }
    for code in ["zh", "ko"] {
        let touched: Vec<String> = files
            .iter()
            .filter(|p| {
                let rel = p
                    .strip_prefix(root())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                rel.contains(&format!("/{code}/"))
                    || rel.ends_with(&format!("/{code}.md"))
                    || std::fs::read_to_string(p).is_ok_and(|t| {
                        t.lines()
                            .any(|l| l.trim_start().starts_with(&format!("{code}:")))
                    })
            })
            .map(|p| p.strip_prefix(root()).unwrap().display().to_string())
            .collect();
        assert_eq!(
            touched.len(),
            said,
            "{code} is in {touched:#?}; the guide says {said} files"
        );
    }
}
