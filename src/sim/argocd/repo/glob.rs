//! Glob patterns: gobwas-style matching for `directory.include/exclude` (where `*` also
//! crosses `/`), and doublestar-style filesystem expansion for Helm `valueFiles`.

use std::path::{Path, PathBuf};

/// Brace expansion can multiply; a pattern needing more alternatives than this matches nothing.
const MAX_ALTERNATIVES: usize = 256;
/// Deeper brace nesting than this matches nothing (it would only exhaust the stack).
const MAX_BRACE_DEPTH: usize = 16;

/// Whether `text` matches `pattern`. `*` matches any run (including `/` unless `sep` is given),
/// `**` likewise, `?` one character, `[a-z]`/`[!x]` a class, `{a,b}` alternatives, `\` escapes.
pub(super) fn matches(pattern: &str, text: &str, sep: Option<char>) -> bool {
    let text: Vec<char> = text.chars().collect();
    expand_braces(pattern, 0)
        .iter()
        .any(|alt| match_one(&alt.chars().collect::<Vec<_>>(), &text, sep))
}

/// `{a,b}c` → `ac`, `bc` (nested braces too); an unbalanced brace is literal.
fn expand_braces(pattern: &str, depth: usize) -> Vec<String> {
    if depth > MAX_BRACE_DEPTH {
        return Vec::new();
    }
    let mut out = vec![String::new()];
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' if i + 1 < chars.len() => {
                out.iter_mut().for_each(|s| {
                    s.push('\\');
                    s.push(chars[i + 1]);
                });
                i += 2;
            }
            '{' => match closing_brace(&chars, i) {
                Some(end) => {
                    let inner: String = chars[i + 1..end].iter().collect();
                    let alts: Vec<String> = split_top_level(&inner)
                        .iter()
                        .flat_map(|a| expand_braces(a, depth + 1))
                        .collect();
                    let mut next = Vec::new();
                    for prefix in &out {
                        for alt in &alts {
                            if next.len() >= MAX_ALTERNATIVES {
                                return Vec::new();
                            }
                            next.push(format!("{prefix}{alt}"));
                        }
                    }
                    out = next;
                    i = end + 1;
                }
                None => {
                    out.iter_mut().for_each(|s| s.push_str("\\{"));
                    i += 1;
                }
            },
            c => {
                out.iter_mut().for_each(|s| s.push(c));
                i += 1;
            }
        }
    }
    out
}

fn closing_brace(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn split_top_level(s: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut depth = 0usize;
    let mut escaped = false;
    for c in s.chars() {
        let last = parts.len() - 1;
        if escaped {
            parts[last].push(c);
            escaped = false;
            continue;
        }
        match c {
            '\\' => {
                escaped = true;
                parts[last].push(c);
            }
            '{' => {
                depth += 1;
                parts[last].push(c);
            }
            '}' => {
                depth = depth.saturating_sub(1);
                parts[last].push(c);
            }
            ',' if depth == 0 => parts.push(String::new()),
            c => parts[last].push(c),
        }
    }
    parts
}

/// Wildcard matching with one backtrack point per `*`, so it stays linear-ish on any input.
fn match_one(p: &[char], t: &[char], sep: Option<char>) -> bool {
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            while pi < p.len() && p[pi] == '*' {
                pi += 1;
            }
            star = Some((pi, ti));
            continue;
        }
        if pi < p.len()
            && let Some(width) = match_single(&p[pi..], t[ti], sep)
        {
            pi += width;
            ti += 1;
            continue;
        }
        match star {
            // A star may not swallow a separator.
            Some((sp, st)) if sep != Some(t[st]) => {
                star = Some((sp, st + 1));
                pi = sp;
                ti = st + 1;
            }
            _ => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Whether the pattern's first element matches `c`; returns how many pattern chars it used.
fn match_single(p: &[char], c: char, sep: Option<char>) -> Option<usize> {
    match p[0] {
        '?' => (sep != Some(c)).then_some(1),
        '\\' if p.len() > 1 => (p[1] == c).then_some(2),
        '[' => match_class(p, c),
        lit => (lit == c).then_some(1),
    }
}

fn match_class(p: &[char], c: char) -> Option<usize> {
    let mut i = 1;
    let negate = matches!(p.get(i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let mut hit = false;
    let mut first = true;
    while i < p.len() {
        if p[i] == ']' && !first {
            return (hit != negate).then_some(i + 1);
        }
        first = false;
        let lo = p[i];
        if i + 2 < p.len() && p[i + 1] == '-' && p[i + 2] != ']' {
            hit |= lo <= c && c <= p[i + 2];
            i += 3;
        } else {
            hit |= lo == c;
            i += 1;
        }
    }
    // No closing bracket: the `[` is a literal.
    (c == '[').then_some(1)
}

/// Whether a value-file path is a glob (`isGlobPath`).
pub(super) fn is_glob(path: &str) -> bool {
    path.contains(['*', '?', '['])
}

/// Files and directories matching an absolute pattern, in lexical order (doublestar's
/// `FilepathGlob`): `*` stays within one path segment, a `**` segment spans any number.
pub(super) fn expand(pattern: &Path) -> Vec<PathBuf> {
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
    for child in children(dir) {
        let name = child
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if matches(head, &name, Some('/')) && (rest.is_empty() || child.is_dir()) {
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
mod tests {
    use super::*;

    #[test]
    fn gobwas_style() {
        assert!(matches("*.yaml", "a.yaml", None));
        assert!(matches("*.yaml", "sub/a.yaml", None));
        assert!(!matches("*.yaml", "a.yml", None));
        assert!(matches("*.{yaml,yml}", "a.yml", None));
        assert!(matches("a?c", "abc", None));
        assert!(matches("[a-c]x", "bx", None));
        assert!(!matches("[!a-c]x", "bx", None));
        assert!(matches("\\*", "*", None));
        assert!(matches("*", "", None));
        assert!(!matches("", "x", None));
        assert!(matches("{a,b{c,d}}", "bd", None));
        assert!(matches("{oops", "{oops", None));
        let deep = format!("{}x{}", "{".repeat(5000), "}".repeat(5000));
        assert!(!matches(&deep, "x", None));
    }

    #[test]
    fn separator_aware() {
        assert!(!matches("*.yaml", "sub/a.yaml", Some('/')));
        assert!(matches("*/a.yaml", "sub/a.yaml", Some('/')));
    }

    #[test]
    fn expands_on_disk() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        for f in [
            "envs/b.yaml",
            "envs/a.yaml",
            "envs/x.txt",
            "envs/deep/c.yaml",
        ] {
            std::fs::create_dir_all(root.join(f).parent().unwrap()).unwrap();
            std::fs::write(root.join(f), "").unwrap();
        }
        let names = |v: Vec<PathBuf>| {
            v.iter()
                .map(|p| p.strip_prefix(root).unwrap().display().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(expand(&root.join("envs/*.yaml"))),
            ["envs/a.yaml", "envs/b.yaml"]
        );
        assert_eq!(
            names(expand(&root.join("envs/**/*.yaml"))),
            ["envs/a.yaml", "envs/b.yaml", "envs/deep/c.yaml"]
        );
        assert!(expand(&root.join("nope/*.yaml")).is_empty());
    }
}
