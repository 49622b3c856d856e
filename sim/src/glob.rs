//! The one glob engine: patterns as Argo CD matches them with github.com/gobwas/glob (its
//! `glob.Match`: ignoreDifferences groups and kinds, `directory.include/exclude`), and the
//! filesystem expansion of Helm `valueFiles` globs (doublestar's `FilepathGlob`), which matches
//! each path segment with the same engine in its doublestar dialect.
//!
//! Syntax: `*` any run, `**` any run that may also cross the separator, `?` one character,
//! `[a-z]`/`[!x]` a class, `{a,b}` alternatives (nested too), `\` escapes the next character.
//! What the callers need differently is an [`Options`] value, not another engine:
//!
//! - [`Options::GOBWAS`] (`glob.Compile(pattern)`, no separators): `*` and `?` match any
//!   character, `/` included. Argo CD calls `glob.Match` without separators for both
//!   ignoreDifferences groups/kinds and directory include/exclude (`*.yaml` matches
//!   `sub/a.yaml`).
//! - [`Options::separator`] (`glob.Compile(pattern, sep)`): `*` and `?` never match `sep`, `**`
//!   still does.
//! - [`Options::DOUBLESTAR_SEGMENT`] (one segment of a `valueFiles` glob): doublestar's classes
//!   (`[^x]` negates too, sets and ranges mix as in `[a-cx]`), and `**` inside a segment is a
//!   plain `*`.
//!
//! A pattern that does not compile matches nothing (`glob.Match` logs and returns false): a
//! class without its `]`, an empty class, or gobwas's `[a-cx]`. Two choices are this engine's
//! own, kept from the simulator's first two engines: an unbalanced `{` or `}` is a literal
//! (gobwas would read an unclosed `{a,b` as `{a,b}`), and patterns needing more than
//! [`MAX_ALTERNATIVES`] brace expansions or [`MAX_BRACE_DEPTH`] nested braces match nothing.

use std::path::{Path, PathBuf};

/// Brace expansion can multiply; a pattern needing more alternatives than this matches nothing.
const MAX_ALTERNATIVES: usize = 256;
/// Deeper brace nesting than this matches nothing (it would only exhaust the stack).
const MAX_BRACE_DEPTH: usize = 16;

/// How a pattern's character classes are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassSyntax {
    /// gobwas: `[` `!`? then one range `lo-hi` or a list of characters (`\` escapes), then `]`.
    Gobwas,
    /// doublestar: `[` `!` or `^`? then characters and ranges mixed, then `]`.
    Doublestar,
}

/// What differs between the callers of the one engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The character `*` and `?` never match (gobwas's `separators`); `None` for plain strings.
    pub separator: Option<char>,
    /// How classes are written; [`ClassSyntax::Doublestar`] also makes `**` a plain `*`.
    pub classes: ClassSyntax,
}

impl Options {
    /// Argo CD's `glob.Match(pattern, text)`: gobwas without separators.
    pub const GOBWAS: Options = Options {
        separator: None,
        classes: ClassSyntax::Gobwas,
    };
    /// One `/`-separated segment of a doublestar path pattern (Helm `valueFiles`).
    pub const DOUBLESTAR_SEGMENT: Options = Options {
        separator: Some('/'),
        classes: ClassSyntax::Doublestar,
    };
}

/// One element of a pattern after its `{a,b}` alternatives are expanded.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Literal(char),
    /// `?`
    AnyChar,
    /// `*`
    AnyRun,
    /// `**`
    SuperRun,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

/// A pattern element before braces are paired: a `{`, `,` or `}` may still turn out literal.
#[derive(Clone, Debug, PartialEq)]
enum Lexeme {
    Token(Token),
    /// A `{`; once paired, the index of its `}` (an unpaired one becomes a literal).
    Open(usize),
    Comma,
    /// A `}` (an unpaired one becomes a literal).
    Close,
}

/// A compiled pattern: every brace alternative as a plain token sequence.
#[derive(Clone, Debug)]
pub struct Glob {
    alternatives: Vec<Vec<Token>>,
    options: Options,
}

impl Glob {
    /// Compiles `pattern`; `None` if it does not compile (it then matches nothing).
    pub fn new(pattern: &str, options: Options) -> Option<Glob> {
        let mut lexemes = lex(pattern, options.classes)?;
        pair_braces(&mut lexemes);
        let alternatives = concat(&lexemes, 0, lexemes.len(), 0)?;
        Some(Glob {
            alternatives,
            options,
        })
    }

    /// Whether the whole of `text` matches.
    pub fn is_match(&self, text: &str) -> bool {
        self.alternatives
            .iter()
            .any(|tokens| self.run(tokens, text))
    }

    /// Simulates the pattern as an automaton over token positions: linear in the text for any
    /// pattern, so no pattern can take more than `tokens × text` steps.
    fn run(&self, tokens: &[Token], text: &str) -> bool {
        let mut states = vec![false; tokens.len() + 1];
        states[0] = true;
        skip_empty_runs(tokens, &mut states);
        for c in text.chars() {
            let mut next = vec![false; tokens.len() + 1];
            for (i, token) in tokens.iter().enumerate().filter(|&(i, _)| states[i]) {
                if is_run(token) {
                    if self.crosses(token, c) {
                        next[i] = true;
                    }
                } else if self.matches_char(token, c) {
                    next[i + 1] = true;
                }
            }
            skip_empty_runs(tokens, &mut next);
            if !next.contains(&true) {
                return false;
            }
            states = next;
        }
        states[tokens.len()]
    }

    /// Whether the run `token` may take `c`: `*` stops at the separator, `**` only in the
    /// doublestar dialect.
    fn crosses(&self, token: &Token, c: char) -> bool {
        let not_separator = self.options.separator != Some(c);
        match token {
            Token::SuperRun if self.options.classes == ClassSyntax::Gobwas => true,
            _ => not_separator,
        }
    }

    /// Whether the single-character `token` matches `c`.
    fn matches_char(&self, token: &Token, c: char) -> bool {
        match token {
            Token::Literal(l) => *l == c,
            Token::AnyChar => self.options.separator != Some(c),
            Token::Class { negated, ranges } => {
                ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&c)) != *negated
            }
            Token::AnyRun | Token::SuperRun => false,
        }
    }
}

/// Whether `token` is `*` or `**`.
fn is_run(token: &Token) -> bool {
    matches!(token, Token::AnyRun | Token::SuperRun)
}

/// Marks the positions after runs that are reachable by letting a run match nothing.
fn skip_empty_runs(tokens: &[Token], states: &mut [bool]) {
    for (i, token) in tokens.iter().enumerate() {
        if states[i] && is_run(token) {
            states[i + 1] = true;
        }
    }
}

/// Whether `text` matches `pattern` the way Argo CD's `glob.Match` (gobwas, no separators)
/// decides it.
pub fn matches(pattern: &str, text: &str) -> bool {
    matches_with(pattern, text, Options::GOBWAS)
}

/// Whether `text` matches `pattern` read with `options`.
pub fn matches_with(pattern: &str, text: &str, options: Options) -> bool {
    Glob::new(pattern, options).is_some_and(|glob| glob.is_match(text))
}

/// Splits the pattern into tokens and brace punctuation; `None` for a broken class.
fn lex(pattern: &str, classes: ClassSyntax) -> Option<Vec<Lexeme>> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut s = chars.as_slice();
    let mut out = Vec::new();
    while let Some((&c, rest)) = s.split_first() {
        s = rest;
        let token = match c {
            '{' => {
                out.push(Lexeme::Open(usize::MAX));
                continue;
            }
            ',' => {
                out.push(Lexeme::Comma);
                continue;
            }
            '}' => {
                out.push(Lexeme::Close);
                continue;
            }
            // gobwas drops a trailing `\`.
            '\\' => match s.split_first() {
                Some((&escaped, rest)) => {
                    s = rest;
                    Token::Literal(escaped)
                }
                None => break,
            },
            '*' => match s.split_first() {
                Some(('*', rest)) => {
                    s = rest;
                    Token::SuperRun
                }
                _ => Token::AnyRun,
            },
            '?' => Token::AnyChar,
            '[' => {
                let (token, rest) = match classes {
                    ClassSyntax::Gobwas => gobwas_class(s)?,
                    ClassSyntax::Doublestar => doublestar_class(s)?,
                };
                s = rest;
                token
            }
            c => Token::Literal(c),
        };
        out.push(Lexeme::Token(token));
    }
    Some(out)
}

/// Pairs each `}` with the nearest open `{`; a `{` or `}` left unpaired becomes a literal.
fn pair_braces(lexemes: &mut [Lexeme]) {
    let mut open = Vec::new();
    for i in 0..lexemes.len() {
        match lexemes[i] {
            Lexeme::Open(_) => open.push(i),
            Lexeme::Close => match open.pop() {
                Some(start) => lexemes[start] = Lexeme::Open(i),
                None => lexemes[i] = Lexeme::Token(Token::Literal('}')),
            },
            _ => {}
        }
    }
    for i in open {
        lexemes[i] = Lexeme::Token(Token::Literal('{'));
    }
}

/// Expands `lexemes[from..to]`, one brace level: its alternatives one after another. Commas
/// here are literal (only a brace body splits at them).
fn concat(lexemes: &[Lexeme], from: usize, to: usize, depth: usize) -> Option<Vec<Vec<Token>>> {
    let mut out: Vec<Vec<Token>> = vec![Vec::new()];
    let mut i = from;
    while i < to {
        match &lexemes[i] {
            Lexeme::Token(token) => out.iter_mut().for_each(|seq| seq.push(token.clone())),
            Lexeme::Comma => out.iter_mut().for_each(|seq| seq.push(Token::Literal(','))),
            Lexeme::Close => out.iter_mut().for_each(|seq| seq.push(Token::Literal('}'))),
            &Lexeme::Open(close) => {
                if depth >= MAX_BRACE_DEPTH {
                    return None;
                }
                let choices = braces(lexemes, i + 1, close, depth + 1)?;
                if out.len().saturating_mul(choices.len()) > MAX_ALTERNATIVES {
                    return None;
                }
                out = out
                    .iter()
                    .flat_map(|prefix| {
                        choices.iter().map(move |choice| {
                            let mut joined = prefix.clone();
                            joined.extend(choice.iter().cloned());
                            joined
                        })
                    })
                    .collect();
                i = close;
            }
        }
        i += 1;
    }
    Some(out)
}

/// Expands a brace body `lexemes[from..to]`: split at its own commas, each part expanded.
fn braces(lexemes: &[Lexeme], from: usize, to: usize, depth: usize) -> Option<Vec<Vec<Token>>> {
    let mut choices = Vec::new();
    let mut start = from;
    let mut i = from;
    while i < to {
        match lexemes[i] {
            // A nested body's commas are its own.
            Lexeme::Open(close) => i = close,
            Lexeme::Comma => {
                choices.extend(concat(lexemes, start, i, depth)?);
                if choices.len() > MAX_ALTERNATIVES {
                    return None;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    choices.extend(concat(lexemes, start, to, depth)?);
    (choices.len() <= MAX_ALTERNATIVES).then_some(choices)
}

/// gobwas's class after `[`: `!`? then `lo-hi]` (taken raw) or a non-empty list with `\`
/// escapes up to `]`. A range with `hi` below `lo`, or anything after `hi` but `]`, is an error.
fn gobwas_class(s: &[char]) -> Option<(Token, &[char])> {
    let (negated, s) = match s.split_first() {
        Some(('!', rest)) => (true, rest),
        _ => (false, s),
    };
    match s {
        [lo, '-', hi, ']', rest @ ..] => {
            let valid = *lo != '\0' && *hi != '\0' && lo <= hi;
            valid.then(|| {
                let ranges = vec![(*lo, *hi)];
                (Token::Class { negated, ranges }, rest)
            })
        }
        [_, '-', ..] => None,
        _ => {
            let mut ranges = Vec::new();
            let mut s = s;
            loop {
                match s {
                    [']', rest @ ..] => {
                        return (!ranges.is_empty())
                            .then_some((Token::Class { negated, ranges }, rest));
                    }
                    ['\\', c, rest @ ..] | [c, rest @ ..] => {
                        ranges.push((*c, *c));
                        s = rest;
                    }
                    [] => return None,
                }
            }
        }
    }
}

/// doublestar's class after `[`: `!` or `^`? then characters (`\` escapes) and `lo-hi`
/// ranges, at least one, up to `]`; a `-` just before `]` is literal.
fn doublestar_class(s: &[char]) -> Option<(Token, &[char])> {
    let (negated, mut s) = match s.split_first() {
        Some(('!' | '^', rest)) => (true, rest),
        _ => (false, s),
    };
    if s.first() == Some(&']') {
        return None;
    }
    let mut ranges = Vec::new();
    loop {
        if let [']', rest @ ..] = s {
            return Some((Token::Class { negated, ranges }, rest));
        }
        let (lo, rest) = class_char(s)?;
        s = rest;
        let hi = match s {
            ['-', next, ..] if *next != ']' => {
                let (hi, rest) = class_char(&s[1..])?;
                s = rest;
                hi
            }
            _ => lo,
        };
        ranges.push((lo, hi));
    }
}

/// One possibly `\`-escaped character of a doublestar class.
fn class_char(s: &[char]) -> Option<(char, &[char])> {
    match s {
        ['\\', c, rest @ ..] => Some((*c, rest)),
        ['\\'] | [] => None,
        [c, rest @ ..] => Some((*c, rest)),
    }
}

/// Whether a value-file path is a glob (`isGlobPath`).
pub fn is_glob(path: &str) -> bool {
    path.contains(['*', '?', '['])
}

/// Files and directories matching an absolute pattern, in lexical order (doublestar's
/// `FilepathGlob`): `*` stays within one path segment, a `**` segment spans any number.
pub fn expand(pattern: &Path) -> Vec<PathBuf> {
    let parts: Vec<String> = pattern
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    walk(Path::new("/"), &parts, &mut out);
    out.sort();
    out.dedup();
    out
}

fn walk(dir: &Path, parts: &[String], out: &mut Vec<PathBuf>) {
    let Some((head, rest)) = parts.split_first() else {
        out.push(dir.to_path_buf());
        return;
    };
    if head == "**" {
        // Zero segments, then every subdirectory (not following symlinked dirs, to stay finite).
        walk(dir, rest, out);
        for child in children(dir) {
            if child.symlink_metadata().is_ok_and(|m| m.is_dir()) {
                walk(&child, parts, out);
            }
        }
        return;
    }
    if !is_glob(head) && !head.contains('{') {
        let next = dir.join(head);
        if next.symlink_metadata().is_ok() {
            walk(&next, rest, out);
        }
        return;
    }
    let Some(segment) = Glob::new(head, Options::DOUBLESTAR_SEGMENT) else {
        return;
    };
    for child in children(dir) {
        let name = child
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if segment.is_match(&name) && (rest.is_empty() || child.is_dir()) {
            walk(&child, rest, out);
        }
    }
}

fn children(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[cfg(test)]
mod tests;
