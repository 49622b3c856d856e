//! Each translation (`<lang>.md`) says what `en.md` says: per section the same fenced code (a
//! `# comment` aside, which is translated), the same inline code spans (the words inside a
//! `<placeholder>` aside), the same numbers outside code and the same `${name}`s; the same number
//! of hints and of numbered steps. Each difference is reported at the translation's line where
//! it starts, so a skeleton or another lesson's text left in `zh.md` is found, not taught.

use std::collections::BTreeMap;
use std::path::Path;

use strum::{EnumCount, IntoEnumIterator};

use super::tree::Pos;
use super::{Finding, Problem};
use crate::i18n::{Lang, Say};
use crate::lab::catalog::{Section, names_in};
use crate::t;

/// How many differing items a finding lists before "and N more".
const SHOWN: usize = 8;

/// What a translation says otherwise than `en.md`, in one section.
#[derive(Debug, Clone, PartialEq)]
pub enum Differs {
    Hints {
        found: usize,
        en: usize,
    },
    Steps {
        found: usize,
        en: usize,
    },
    CodeBlocks {
        found: usize,
        en: usize,
    },
    /// Code block `block` (1-based) at its first differing line: the line each has there,
    /// `None` where that block has ended.
    Code {
        block: usize,
        en: Option<String>,
        here: Option<String>,
    },
    /// Inline code spans (placeholders' words taken out) only one side has, as `n×span`.
    InlineCode {
        only_en: Vec<String>,
        only_here: Vec<String>,
    },
    Numbers {
        only_en: Vec<String>,
        only_here: Vec<String>,
    },
    /// `${name}`s only one side uses.
    References {
        only_en: Vec<String>,
        only_here: Vec<String>,
    },
}

/// A translation that differs from `en.md`: its language, the part, and what differs.
pub struct Untranslated<'a> {
    pub code: &'a str,
    pub section: Section,
    pub differs: &'a Differs,
}

/// The finding's words: `zh.md, Hints: …`, what differs and what to do.
impl Say for Untranslated<'_> {
    fn say(&self, lang: Lang) -> String {
        let code = self.code;
        let n = |x: &usize| *x as u64;
        let c = || code.to_string();
        // A skeleton or another lesson's text differs in dozens of items: the first few say
        // enough to see it.
        let list = |items: &[String]| {
            let mut shown = items[..items.len().min(SHOWN)].join(", ");
            if items.len() > SHOWN {
                let more = (items.len() - SHOWN) as u64;
                shown.push_str(", ");
                shown.push_str(&t!(lang, "lint-translation-more", count = more));
            }
            shown
        };
        let both = |only_en: &[String], only_here: &[String]| {
            let mut parts = Vec::new();
            if !only_en.is_empty() {
                parts.push(t!(lang, "lint-translation-only-en", items = list(only_en)));
            }
            if !only_here.is_empty() {
                parts.push(t!(
                    lang,
                    "lint-translation-only-here",
                    code = c(),
                    items = list(only_here)
                ));
            }
            parts.join("; ")
        };
        let what = match self.differs {
            Differs::Hints { found, en } => {
                t!(lang, "lint-translation-hints", found = n(found), en = n(en))
            }
            Differs::Steps { found, en } => {
                t!(lang, "lint-translation-steps", found = n(found), en = n(en))
            }
            Differs::CodeBlocks { found, en } => {
                t!(
                    lang,
                    "lint-translation-code-blocks",
                    found = n(found),
                    en = n(en)
                )
            }
            Differs::Code { block, en, here } => {
                let line = |l: &Option<String>| match l {
                    Some(l) => format!("{l:?}"),
                    None => t!(lang, "lint-translation-block-end"),
                };
                t!(
                    lang,
                    "lint-translation-code",
                    block = n(block),
                    code = c(),
                    en = line(en),
                    here = line(here)
                )
            }
            Differs::InlineCode { only_en, only_here } => t!(
                lang,
                "lint-translation-inline-code",
                diff = both(only_en, only_here)
            ),
            Differs::Numbers { only_en, only_here } => t!(
                lang,
                "lint-translation-numbers",
                diff = both(only_en, only_here)
            ),
            Differs::References { only_en, only_here } => t!(
                lang,
                "lint-translation-references",
                diff = both(only_en, only_here)
            ),
        };
        t!(
            lang,
            "lint-translation",
            code = code.to_string(),
            section = self.section.say(lang),
            what = what
        )
    }
}

/// A line of a lesson text and its 1-based number.
#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    at: u64,
    text: &'a str,
}

/// A fenced code block: its lines, and the line of its closing fence (or the section's last).
#[derive(Debug, Default)]
struct Block<'a> {
    lines: Vec<Line<'a>>,
    end: u64,
}

/// One `## ` section of a lesson text, split as the tutor reads it.
#[derive(Debug, Default)]
struct Part<'a> {
    heading: u64,
    prose: Vec<Line<'a>>,
    blocks: Vec<Block<'a>>,
}

/// The `## ` sections of `md`, each with its prose and code blocks; `None` unless there are the
/// six a lesson text has (lint says so elsewhere).
fn parts(md: &str) -> Option<Vec<Part<'_>>> {
    let mut out: Vec<Part<'_>> = Vec::new();
    let mut in_block = false;
    for (i, text) in md.lines().enumerate() {
        let line = Line {
            at: i as u64 + 1,
            text,
        };
        if text.starts_with("## ") {
            out.push(Part {
                heading: line.at,
                ..Part::default()
            });
            in_block = false;
            continue;
        }
        let Some(part) = out.last_mut() else { continue };
        if text.trim_start().starts_with("```") {
            if in_block {
                if let Some(b) = part.blocks.last_mut() {
                    b.end = line.at;
                }
            } else {
                part.blocks.push(Block {
                    lines: Vec::new(),
                    end: line.at,
                });
            }
            in_block = !in_block;
        } else if in_block {
            if let Some(b) = part.blocks.last_mut() {
                b.lines.push(line);
                b.end = line.at;
            }
        } else {
            part.prose.push(line);
        }
    }
    (out.len() == Section::COUNT).then_some(out)
}

/// A code line without its comment: `None` for a comment line, else the line cut before a
/// ` # comment` and trimmed at the end.
pub fn without_comment(line: &str) -> Option<String> {
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

/// A block's code lines, comments taken out, each with its line.
fn code(block: &Block<'_>) -> Vec<(u64, String)> {
    block
        .lines
        .iter()
        .filter_map(|l| without_comment(l.text).map(|c| (l.at, c)))
        .collect()
}

/// The code lines of a text's fenced blocks, comments taken out, block by block.
pub fn code_blocks(text: &str) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(b) => blocks.push(b),
                None => current = Some(Vec::new()),
            }
        } else if let Some(b) = current.as_mut() {
            b.extend(without_comment(line));
        }
    }
    blocks.extend(current);
    blocks
}

/// The text of `text` outside its fenced code blocks.
pub fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        } else if !in_block {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The inline code spans of a line of prose.
pub fn inline_code(line: &str) -> Vec<String> {
    line.lines()
        .flat_map(|l| l.split('`').skip(1).step_by(2))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A span with the words of each `<placeholder>` taken out: `a --set <> --values <>`.
fn command_shape(span: &str) -> String {
    let mut shape = String::new();
    let mut rest = span;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        shape.push_str(&rest[..=open]);
        shape.push('>');
        rest = &rest[open + close + 1..];
    }
    shape.push_str(rest);
    shape
}

/// The numbers said in a line of prose: runs of digits, with dots inside (`3`, `1.27`, `9418`),
/// that are not part of a longer ASCII word (`v1`, `f1`); next to any other letter (`3개`,
/// `5分`) they count, as a translation writes them.
fn numbers(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_');
    let mut out = Vec::new();
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
            out.push(chars[i..end].iter().collect());
        }
        i = end.max(i + 1);
    }
    out
}

/// A numbered item's text after its `1. `; `None` for a line that is not one.
fn list_item(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    (digits > 0)
        .then(|| t[digits..].strip_prefix(". "))
        .flatten()
}

/// The numbered items of a section's prose (`1. …`), each at its line.
fn numbered<'a>(part: &Part<'a>) -> Vec<Line<'a>> {
    part.prose
        .iter()
        .filter(|l| list_item(l.text).is_some())
        .copied()
        .collect()
}

type Multiset = BTreeMap<String, usize>;

/// What `a` has more of than `b`, as `value` (or `n×value` when more than once).
fn surplus(a: &Multiset, b: &Multiset) -> Vec<String> {
    a.iter()
        .filter_map(|(v, &count)| {
            let more = count.saturating_sub(b.get(v).copied().unwrap_or(0));
            match more {
                0 => None,
                1 => Some(v.clone()),
                n => Some(format!("{n}×{v}")),
            }
        })
        .collect()
}

/// Per line, the items `of` finds in it; and all of them as a multiset.
fn tally<'a>(
    lines: &[Line<'a>],
    of: &impl Fn(&str) -> Vec<String>,
) -> (Multiset, Vec<(u64, Vec<String>)>) {
    let mut all = Multiset::new();
    let mut per_line = Vec::new();
    for l in lines {
        let items = of(l.text);
        for i in &items {
            *all.entry(i.clone()).or_default() += 1;
        }
        per_line.push((l.at, items));
    }
    (all, per_line)
}

/// Where two multisets of items (read by `of`) differ: the first line of the translation with
/// an item en.md lacks, else the section's heading.
fn compare(
    en: &[Line<'_>],
    here: &[Line<'_>],
    heading: u64,
    of: impl Fn(&str) -> Vec<String>,
) -> Option<(u64, Vec<String>, Vec<String>)> {
    let (en_all, _) = tally(en, &of);
    let (here_all, per_line) = tally(here, &of);
    if en_all == here_all {
        return None;
    }
    let extra: Vec<&String> = here_all
        .iter()
        .filter(|(v, n)| en_all.get(*v).copied().unwrap_or(0) < **n)
        .map(|(v, _)| v)
        .collect();
    let at = per_line
        .iter()
        .find(|(_, items)| items.iter().any(|i| extra.contains(&i)))
        .map_or(heading, |(at, _)| *at);
    Some((at, surplus(&en_all, &here_all), surplus(&here_all, &en_all)))
}

/// A section's lines, prose and code, in order.
fn with_code<'a>(p: &Part<'a>) -> Vec<Line<'a>> {
    let mut lines = p.prose.clone();
    lines.extend(p.blocks.iter().flat_map(|b| b.lines.iter().copied()));
    lines.sort_by_key(|l| l.at);
    lines
}

/// Every difference of `here` (a translation's text) from `en` (en.md's), at its line.
pub fn differences(en: &str, here: &str) -> Vec<(Pos, Section, Differs)> {
    let (Some(en_parts), Some(parts)) = (parts(en), parts(here)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut say = |line: u64, section: Section, d: Differs| {
        out.push((Pos { line, column: 1 }, section, d));
    };
    for ((section, a), b) in Section::iter().zip(&en_parts).zip(&parts) {
        // Code, block by block.
        if a.blocks.len() != b.blocks.len() {
            let at = b
                .blocks
                .get(a.blocks.len())
                .map_or(b.heading, |x| x.lines.first().map_or(x.end, |l| l.at));
            say(
                at,
                section,
                Differs::CodeBlocks {
                    found: b.blocks.len(),
                    en: a.blocks.len(),
                },
            );
        }
        for (i, (x, y)) in a.blocks.iter().zip(&b.blocks).enumerate() {
            let (x, y_lines) = (code(x), code(y));
            let first = (0..x.len().max(y_lines.len()))
                .find(|&n| x.get(n).map(|l| &l.1) != y_lines.get(n).map(|l| &l.1));
            if let Some(n) = first {
                say(
                    y_lines.get(n).map_or(y.end, |l| l.0),
                    section,
                    Differs::Code {
                        block: i + 1,
                        en: x.get(n).map(|l| l.1.clone()),
                        here: y_lines.get(n).map(|l| l.1.clone()),
                    },
                );
            }
        }
        // Inline code, numbers and ${name}s in the prose; ${name}s in the code too.
        let spans = |l: &str| inline_code(l).iter().map(|s| command_shape(s)).collect();
        if let Some((at, only_en, only_here)) = compare(&a.prose, &b.prose, b.heading, spans) {
            let quote = |v: Vec<String>| v.into_iter().map(|s| format!("`{s}`")).collect();
            say(
                at,
                section,
                Differs::InlineCode {
                    only_en: quote(only_en),
                    only_here: quote(only_here),
                },
            );
        }
        // The numbers of a numbered list's items are its count, said below for steps and hints.
        let said = |l: &str| match section {
            Section::Steps | Section::Hints => numbers(list_item(l).unwrap_or(l)),
            _ => numbers(l),
        };
        if let Some((at, only_en, only_here)) = compare(&a.prose, &b.prose, b.heading, said) {
            say(at, section, Differs::Numbers { only_en, only_here });
        }
        let refs = |l: &str| {
            without_comment(l)
                .map(|c| {
                    names_in(&c)
                        .into_iter()
                        .map(|n| format!("${{{n}}}"))
                        .collect()
                })
                .unwrap_or_default()
        };
        if let Some((at, only_en, only_here)) =
            compare(&with_code(a), &with_code(b), b.heading, refs)
        {
            say(at, section, Differs::References { only_en, only_here });
        }
        // Hints and steps, counted.
        let (x, y) = (numbered(a), numbered(b));
        let counted = match section {
            Section::Hints => Some(Differs::Hints {
                found: y.len(),
                en: x.len(),
            }),
            Section::Steps => Some(Differs::Steps {
                found: y.len(),
                en: x.len(),
            }),
            _ => None,
        };
        if let Some(d) = counted.filter(|_| x.len() != y.len()) {
            say(y.get(x.len()).map_or(b.heading, |l| l.at), section, d);
        }
    }
    out
}

/// Holds each translation of the lesson in `dir` against its `en.md`.
pub fn check(dir: &Path, problems: &mut Vec<Problem>) {
    let read = |lang: Lang| std::fs::read_to_string(dir.join(format!("{}.md", lang.code())));
    let Ok(en) = read(Lang::FALLBACK) else { return };
    for &lang in Lang::all().iter().filter(|l| **l != Lang::FALLBACK) {
        let Ok(text) = read(lang) else { continue };
        for (at, section, differs) in differences(&en, &text) {
            problems.push(Problem {
                file: dir.join(format!("{}.md", lang.code())),
                at,
                finding: Finding::Translation {
                    code: lang.code().to_string(),
                    section,
                    differs,
                },
            });
        }
    }
}

#[cfg(test)]
mod tests;
