//! One lesson in every language: each translation says en's code, commands, numbers and hints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use capa_tui::i18n::Lang;
use capa_tui::lab::catalog::{Catalog, Section, Text};
use strum::IntoEnumIterator;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The lesson folders under `lessons/` (each with a `lesson.yaml`), sorted.
fn lesson_folders(lessons: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(lessons)
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("lesson.yaml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// The `## ` headings of a lesson file, counted as the catalog splits it.
fn section_count(md: &str) -> usize {
    md.lines().filter(|l| l.starts_with("## ")).count()
}

/// The text outside fenced code blocks, and the blocks themselves (their lines).
fn split_fences(text: &str) -> (String, Vec<Vec<String>>) {
    let mut prose = String::new();
    let mut blocks: Vec<Vec<String>> = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            if !in_block {
                blocks.push(Vec::new());
            }
            in_block = !in_block;
        } else if in_block {
            if let Some(block) = blocks.last_mut() {
                block.push(line.to_string());
            }
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    (prose, blocks)
}

/// A code line without its comment: `None` for a comment line, else the line cut before a
/// ` # comment` and trimmed at the end.
fn without_comment(line: &str) -> Option<String> {
    if line.trim_start().starts_with('#') {
        return None;
    }
    let bytes = line.as_bytes();
    let cut = (1..bytes.len())
        .find(|&i| {
            bytes[i] == b'#'
                && bytes[i - 1].is_ascii_whitespace()
                && bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace)
        })
        .unwrap_or(bytes.len());
    Some(line[..cut].trim_end().to_string())
}

/// A section's code blocks with their comments taken out.
fn code_of(section: &str) -> Vec<Vec<String>> {
    split_fences(section)
        .1
        .iter()
        .map(|b| b.iter().filter_map(|l| without_comment(l)).collect())
        .collect()
}

/// The numbers said in `prose`: runs of digits, with dots inside (`3`, `1.27`, `9418`), that are
/// not part of a longer ASCII word (`v1`, `f1`); next to any other letter (`3개`, `5分`) they
/// count.
fn numbers(prose: &str) -> BTreeMap<String, usize> {
    let chars: Vec<char> = prose.chars().collect();
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_');
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < chars.len() {
        let before = i.checked_sub(1).and_then(|j| chars.get(j));
        if !chars[i].is_ascii_digit() || word(before) || before == Some(&'.') {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < chars.len() && chars[end].is_ascii_digit() {
            end += 1;
            if chars.get(end) == Some(&'.') && chars.get(end + 1).is_some_and(char::is_ascii_digit)
            {
                end += 1;
            }
        }
        if !word(chars.get(end)) {
            *out.entry(chars[i..end].iter().collect()).or_default() += 1;
        }
        i = end.max(i + 1);
    }
    out
}

/// What one multiset has more of than the other, as `n×value`.
fn surplus(a: &BTreeMap<String, usize>, b: &BTreeMap<String, usize>) -> Vec<String> {
    a.iter()
        .filter_map(|(n, &count)| {
            let more = count.saturating_sub(b.get(n).copied().unwrap_or(0));
            (more > 0).then(|| format!("{more}×{n}"))
        })
        .collect()
}

/// The inline code spans of `prose` (outside fenced blocks).
fn inline_code(prose: &str) -> Vec<String> {
    prose
        .lines()
        .flat_map(|l| l.split('`').skip(1).step_by(2))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// The inline code spans of `prose`, with the words of each `<placeholder>` taken out: the
/// commands and values a section names, as a multiset.
fn inline_commands(prose: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for span in inline_code(prose) {
        let mut shape = String::new();
        let mut rest = span.as_str();
        while let Some(open) = rest.find('<') {
            let Some(close) = rest[open..].find('>') else {
                break;
            };
            shape.push_str(&rest[..=open]);
            shape.push('>');
            rest = &rest[open + close + 1..];
        }
        shape.push_str(rest);
        *out.entry(shape).or_default() += 1;
    }
    out
}

/// An inline `key: value` setting, such as `backoffLimit: 0` or `selfHeal: true`.
fn is_setting(token: &str) -> bool {
    token.split_once(": ").is_some_and(|(key, value)| {
        key.starts_with(|c: char| c.is_ascii_alphabetic())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
            && !value.trim().is_empty()
    })
}

/// Where `text` (in `lang`) says something other than `en` does, one line per difference.
fn differences(folder: &str, lang: &str, en: &Text, text: &Text) -> Vec<String> {
    let mut out = Vec::new();
    for section in Section::iter() {
        let name = section.name(Lang::FALLBACK);
        let at = format!("lesson {folder}, {lang}.md, section \"{name}\"");
        let (en_section, section_text) = (en.section(section), text.section(section));
        let (en_code, code) = (code_of(&en_section), code_of(&section_text));
        if en_code.len() != code.len() {
            out.push(format!(
                "{at}: {} code blocks where en.md has {}",
                code.len(),
                en_code.len()
            ));
        }
        for (i, (a, b)) in en_code.iter().zip(&code).enumerate() {
            if a == b {
                continue;
            }
            let line = a.iter().zip(b).position(|(x, y)| x != y);
            let show = |block: &Vec<String>, n: Option<usize>| match n {
                Some(n) => format!("{:?}", block[n]),
                None => format!("{} lines", block.len()),
            };
            out.push(format!(
                "{at}: code block {} differs{}: en.md has {}, {lang}.md has {} (comments aside)",
                i + 1,
                line.map(|n| format!(" at line {}", n + 1))
                    .unwrap_or_default(),
                show(a, line),
                show(b, line),
            ));
        }
        let (en_prose, prose) = (split_fences(&en_section).0, split_fences(&section_text).0);
        let (en_spans, spans) = (inline_commands(&en_prose), inline_commands(&prose));
        if en_spans != spans {
            out.push(format!(
                "{at}: the inline code differs: only in en.md {:?}, only in {lang}.md {:?}",
                surplus(&en_spans, &spans),
                surplus(&spans, &en_spans),
            ));
        }
        let (en_numbers, these) = (numbers(&en_prose), numbers(&prose));
        if en_numbers != these {
            out.push(format!(
                "{at}: the numbers outside code differ: only in en.md {:?}, only in {lang}.md {:?}",
                surplus(&en_numbers, &these),
                surplus(&these, &en_numbers),
            ));
        }
    }
    if en.hints.len() != text.hints.len() {
        out.push(format!(
            "lesson {folder}, {lang}.md, section \"{}\": {} hints where en.md has {}",
            Section::Hints.name(Lang::FALLBACK),
            text.hints.len(),
            en.hints.len()
        ));
    }
    out
}

/// Settings that "Common mistakes" names and "By hand" writes, but the Steps never ask for.
fn settings_missing_from_steps(folder: &str, lang: &str, text: &Text) -> Vec<String> {
    let by_hand: Vec<String> = code_of(&text.by_hand).into_iter().flatten().collect();
    inline_code(&split_fences(&text.mistakes).0)
        .into_iter()
        .filter(|t| is_setting(t) && by_hand.iter().any(|l| l.contains(t.as_str())))
        .filter(|t| !text.steps.contains(t.as_str()))
        .map(|t| {
            format!(
                "lesson {folder}, {lang}.md: \"{}\" names `{t}`, which \"{}\" writes, but \"{}\" never asks for it",
                Section::Mistakes.name(Lang::FALLBACK),
                Section::ByHand.name(Lang::FALLBACK),
                Section::Steps.name(Lang::FALLBACK),
            )
        })
        .collect()
}

/// Issue 31, item 8. For every lesson folder and every language besides English, held against
/// `en.md` (the reference): the number of `## ` sections; per section, the fenced code blocks
/// (their comments aside, which are translated), the multiset of numbers said outside code and
/// the multiset of inline code spans (the words inside a `<placeholder>` aside, which are
/// translated); and the number of hints. The texts are read by the tutor's own loader
/// (`Catalog::load`), so the sections and hints are the ones a learner sees.
///
/// And in every language, a setting (an inline `key: value`, such as lesson 5's
/// `backoffLimit: 0`) that "Common mistakes" names and "By hand" writes is one the Steps ask
/// for. The broader rule, every inline-code token of the mistakes in the Steps, does not hold
/// and should not: a mistake also names the wrong value (`master`,
/// `charts/web/values-prod.yaml`, `git revert`), the error it causes, or a command for checking
/// (`kubectl kustomize`), none of which the Steps ask the learner to write.
#[test]
fn every_lesson_says_the_same_code_sections_hints_numbers_and_commands_in_every_language() {
    let lessons = root().join("lessons");
    let en = Lang::FALLBACK.code();
    let mut problems: Vec<String> = Vec::new();
    for folder in lesson_folders(&lessons) {
        let read =
            |code: &str| std::fs::read_to_string(lessons.join(&folder).join(format!("{code}.md")));
        let en_sections = section_count(&read(en).unwrap());
        for lang in Lang::all().iter().map(|l| l.code()).filter(|c| *c != en) {
            match read(lang) {
                Err(_) => problems.push(format!("lesson {folder}: no {lang}.md")),
                Ok(md) if section_count(&md) != en_sections => problems.push(format!(
                    "lesson {folder}, {lang}.md: {} `## ` sections where en.md has {en_sections}",
                    section_count(&md)
                )),
                Ok(_) => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    let catalog = Catalog::load(Some(&lessons), Some(&root().join("repo-template")))
        .unwrap_or_else(|e| panic!("the lessons load: {e}"));
    assert!(!catalog.lessons().is_empty(), "there are lessons");
    for lesson in catalog.lessons() {
        let reference = &lesson.texts[en];
        problems.extend(settings_missing_from_steps(&lesson.folder, en, reference));
        for (lang, text) in lesson.texts.iter().filter(|(code, _)| *code != en) {
            problems.extend(differences(&lesson.folder, lang, reference, text));
            problems.extend(settings_missing_from_steps(&lesson.folder, lang, text));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The rules above catch what they are meant to: a number, a code line, an inline command, a
/// hint and a setting that one language lacks or says otherwise (so that a green run of the
/// test above is not a blind one).
#[test]
fn the_language_comparison_sees_a_dropped_number_code_line_command_hint_and_setting() {
    let en = Text {
        goal: "Scale to 4, on Argo CD 3.5.".into(),
        why: "It retries 5 times; `release.v1` is not a number; `a --set <x> --values <y>`.".into(),
        steps: "1. Write a Job with `backoffLimit: 0`.".into(),
        mistakes: "- Leaving out `backoffLimit: 0`.\n- Pushing to `master`.".into(),
        hints: vec!["One.".into(), "Two.".into()],
        by_hand: "```sh\ncat <<EOF   # the Job\nbackoffLimit: 0\nEOF\n```".into(),
    };
    let same = Text {
        goal: "4개로 늘립니다(Argo CD 3.5).".into(),
        why: "5번 재시도합니다. `release.v1`은 숫자가 아닙니다. `a --set <엑스> --values <와이>`."
            .into(),
        by_hand: "```sh\ncat <<EOF   # Job입니다\nbackoffLimit: 0\nEOF\n```".into(),
        ..en.clone()
    };
    assert_eq!(differences("99-x", "ko", &en, &same), Vec::<String>::new());
    assert_eq!(
        settings_missing_from_steps("99-x", "ko", &same),
        Vec::<String>::new()
    );

    let drifted = Text {
        goal: "4개로 늘립니다.".into(),
        why: "5번 재시도합니다. `release.v1`은 숫자가 아닙니다. `a --values <와이> --set <엑스>`."
            .into(),
        steps: "1. Job을 작성합니다.".into(),
        hints: vec!["하나.".into()],
        by_hand: "```sh\ncat <<EOF\nbackoffLimit: 6\nEOF\n```".into(),
        ..same.clone()
    };
    let found = differences("99-x", "ko", &en, &drifted);
    assert!(
        found
            .iter()
            .any(|p| p.contains("\"Goal\"") && p.contains("1×3.5")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.contains("\"By hand\"") && p.contains("code block 1 differs at line 2")),
        "{found:#?}"
    );
    assert!(
        found.iter().any(|p| p.contains("\"Why it matters\"")
            && p.contains("1×a --set <> --values <>")
            && p.contains("1×a --values <> --set <>")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.contains("1 hints where en.md has 2")),
        "{found:#?}"
    );
    let missing = settings_missing_from_steps(
        "99-x",
        "ko",
        &Text {
            by_hand: en.by_hand.clone(),
            ..drifted
        },
    );
    assert_eq!(missing.len(), 1, "{missing:#?}");
    assert!(missing[0].contains("`backoffLimit: 0`"), "{missing:#?}");
}
