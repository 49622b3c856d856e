//! Glob patterns as Argo CD matches ignoreDifferences groups and kinds (gobwas/glob without
//! separators): `*`, `?`, `[a-z]`, `[!x]`, `{a,b}` and `\` escapes. A pattern that does not
//! compile matches nothing, as there.

/// One element of a pattern after its `{a,b}` alternatives are expanded.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Literal(char),
    AnyChar,
    AnyRun,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

/// Patterns beyond this many brace expansions are refused rather than expanded.
const MAX_ALTERNATIVES: usize = 256;

/// Whether `text` matches `pattern`.
pub fn matches(pattern: &str, text: &str) -> bool {
    let Some(alternatives) = compile(pattern) else {
        return false;
    };
    let text: Vec<char> = text.chars().collect();
    alternatives.iter().any(|tokens| match_here(tokens, &text))
}

/// Expands the pattern into plain token sequences, one per brace alternative.
fn compile(pattern: &str) -> Option<Vec<Vec<Token>>> {
    let chars: Vec<char> = pattern.chars().collect();
    let (alternatives, rest) = sequence(&chars, false)?;
    rest.is_empty().then_some(alternatives)
}

/// Parses up to an unmatched `,` or `}` (inside braces) or the end; returns the expansions and
/// what is left.
fn sequence(mut s: &[char], in_braces: bool) -> Option<(Vec<Vec<Token>>, &[char])> {
    let mut out: Vec<Vec<Token>> = vec![Vec::new()];
    while let Some((&c, rest)) = s.split_first() {
        let single = match c {
            ',' | '}' if in_braces => break,
            '*' => {
                s = rest;
                Token::AnyRun
            }
            '?' => {
                s = rest;
                Token::AnyChar
            }
            '\\' => {
                let (&escaped, rest) = rest.split_first()?;
                s = rest;
                Token::Literal(escaped)
            }
            '[' => {
                let (token, rest) = class(rest)?;
                s = rest;
                token
            }
            '{' => {
                let (choices, rest) = braces(rest)?;
                s = rest;
                if out.len().saturating_mul(choices.len()) > MAX_ALTERNATIVES {
                    return None;
                }
                let mut next = Vec::new();
                for prefix in &out {
                    for choice in &choices {
                        let mut joined = prefix.clone();
                        joined.extend(choice.iter().cloned());
                        next.push(joined);
                    }
                }
                out = next;
                continue;
            }
            c => {
                s = rest;
                Token::Literal(c)
            }
        };
        out.iter_mut().for_each(|seq| seq.push(single.clone()));
    }
    Some((out, s))
}

/// Parses `a,b,c}` after an opening brace.
fn braces(mut s: &[char]) -> Option<(Vec<Vec<Token>>, &[char])> {
    let mut choices = Vec::new();
    loop {
        let (alternatives, rest) = sequence(s, true)?;
        choices.extend(alternatives);
        let (&closing, rest) = rest.split_first()?;
        s = rest;
        if closing == '}' {
            return Some((choices, s));
        }
    }
}

/// Parses `abc]`, `a-z]` or `!x]` after an opening bracket.
fn class(s: &[char]) -> Option<(Token, &[char])> {
    let (negated, mut s) = match s.split_first() {
        Some(('!', rest)) => (true, rest),
        _ => (false, s),
    };
    let mut ranges = Vec::new();
    loop {
        let (&lo, rest) = s.split_first()?;
        if lo == ']' {
            return (!ranges.is_empty()).then_some((Token::Class { negated, ranges }, rest));
        }
        match rest {
            ['-', hi, rest @ ..] if *hi != ']' => {
                ranges.push((lo, *hi));
                s = rest;
            }
            _ => {
                ranges.push((lo, lo));
                s = rest;
            }
        }
    }
}

/// Wildcard matching with backtracking to the last `*` only, so no pattern can take more
/// than quadratic time.
fn match_here(tokens: &[Token], text: &[char]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut last_star: Option<(usize, usize)> = None;
    while t < text.len() {
        match tokens.get(p) {
            Some(Token::AnyRun) => {
                last_star = Some((p, t));
                p += 1;
            }
            Some(token) if matches_char(token, text[t]) => {
                p += 1;
                t += 1;
            }
            _ => match last_star {
                // Let the last `*` swallow one more character and retry from there.
                Some((star, from)) => {
                    last_star = Some((star, from + 1));
                    p = star + 1;
                    t = from + 1;
                }
                None => return false,
            },
        }
    }
    tokens.iter().skip(p).all(|token| *token == Token::AnyRun)
}

fn matches_char(token: &Token, c: char) -> bool {
    match token {
        Token::Literal(l) => *l == c,
        Token::AnyChar | Token::AnyRun => true,
        Token::Class { negated, ranges } => {
            ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&c)) != *negated
        }
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn globs_match_like_argo_cd() {
        assert!(matches("*", ""));
        assert!(matches("*", "apps"));
        assert!(matches("", ""));
        assert!(!matches("", "apps"));
        assert!(matches("apps", "apps"));
        assert!(matches("*.k8s.io", "networking.k8s.io"));
        assert!(matches("Deploy?ent", "Deployment"));
        assert!(matches("{Deployment,StatefulSet}", "StatefulSet"));
        assert!(matches("[A-Z]*", "Job"));
        assert!(!matches("[!A-Z]*", "Job"));
        assert!(matches("a\\*", "a*"));
        assert!(!matches("a\\*", "ab"));
        // Broken patterns match nothing.
        assert!(!matches("[abc", "a"));
        assert!(!matches("{a,b", "a"));
    }

    #[test]
    fn pathological_patterns_finish() {
        let stars = "*a".repeat(40);
        assert!(!matches(&format!("{stars}b"), &"a".repeat(60)));
        assert!(!matches(&"{a,b}".repeat(20), "ab"));
    }
}
