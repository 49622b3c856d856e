//! The commands in a lesson's shell code blocks, one per command, for "type it for me": a
//! heredoc (`cat > f <<'EOF' … EOF`) and lines continued with `\` stay whole, comment-only
//! and blank lines are skipped. Each knows which code lines it spans, so the lesson pane can
//! mark the one selected.

/// One command of a code block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// The command as the learner would type it (lines joined with `\n`).
    pub text: String,
    /// Its first and last line, counted over all code lines of the text (from 0).
    pub code_lines: (usize, usize),
}

/// The languages whose code blocks hold commands to type.
fn is_shell(lang: &str) -> bool {
    matches!(lang, "sh" | "bash" | "shell" | "console" | "")
}

/// The commands in `markdown`'s shell code blocks, in order.
pub fn snippets(markdown: &str) -> Vec<Snippet> {
    let mut out = Vec::new();
    let mut code_line = 0usize;
    let mut block: Option<(bool, Vec<(usize, String)>)> = None;
    for line in markdown.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("```") {
            match block.take() {
                Some((true, lines)) => out.extend(split_block(&lines)),
                Some((false, _)) => {}
                None => block = Some((is_shell(rest.trim()), Vec::new())),
            }
            continue;
        }
        if let Some((_, lines)) = &mut block {
            lines.push((code_line, line.to_string()));
            code_line += 1;
        }
    }
    if let Some((true, lines)) = block {
        out.extend(split_block(&lines));
    }
    out
}

/// The heredoc terminator a line opens (`<<'EOF'`, `<<"EOF"`, `<<EOF`, `<<-EOF`), if any.
fn heredoc_end(line: &str) -> Option<String> {
    let at = line.find("<<")?;
    let rest = line[at + 2..].trim_start_matches('-').trim_start();
    let word: String = rest
        .trim_start_matches(['\'', '"'])
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some(word)
}

/// Whether a command needs more lines: an open quote or `$(`, or a line ending in `\`, `|`,
/// `&&` or `||` (a heredoc is tracked apart).
fn incomplete(text: &str) -> bool {
    let (mut single, mut double, mut parens) = (false, false, 0i32);
    let mut chars = text.chars().peekable();
    let mut prev = '\n';
    while let Some(c) = chars.next() {
        let word_start = prev.is_whitespace();
        prev = c;
        match c {
            '\\' if !single => {
                chars.next();
            }
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '(' if !single && !double => parens += 1,
            ')' if !single && !double => parens -= 1,
            '#' if !single && !double && word_start => {
                // A comment runs to the end of its line.
                for c in chars.by_ref() {
                    if c == '\n' {
                        prev = c;
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    let end = text.trim_end();
    single
        || double
        || parens > 0
        || end.ends_with('\\')
        || end.ends_with('|')
        || end.ends_with("&&")
}

fn split_block(lines: &[(usize, String)]) -> Vec<Snippet> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (first, line) = &lines[i];
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            i += 1;
            continue;
        }
        let mut text = vec![line.clone()];
        let mut last = *first;
        let mut heredoc = heredoc_end(line);
        while (heredoc.is_some() || incomplete(&text.join("\n"))) && i + 1 < lines.len() {
            i += 1;
            let (n, next) = &lines[i];
            text.push(next.clone());
            last = *n;
            if let Some(end) = &heredoc {
                if next.trim() == end {
                    heredoc = None;
                }
                continue;
            }
            heredoc = heredoc_end(next);
        }
        out.push(Snippet {
            text: text.join("\n"),
            code_lines: (*first, last),
        });
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::lab::catalog::{Catalog, Section};

    #[test]
    fn a_heredoc_and_continued_lines_are_one_command_and_comments_are_skipped() {
        let md = "Text\n```sh\n# make it\ngit init --bare x.git\ncat > f <<'EOF'\na: 1\nEOF\njq -n \\\n  '{}'\n```\n```yaml\nkey: v\n```\n```sh\nls\n```\n";
        let s = snippets(md);
        let texts: Vec<&str> = s.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "git init --bare x.git",
                "cat > f <<'EOF'\na: 1\nEOF",
                "jq -n \\\n  '{}'",
                "ls"
            ]
        );
        assert_eq!(s[1].code_lines, (2, 4));
        assert_eq!(s[3].code_lines, (8, 8), "the yaml block's line counts too");
    }

    #[test]
    fn a_quote_or_a_pipe_left_open_goes_on_to_the_next_line() {
        let md = "```sh\nkubectl get cm -o json \\\n  | jq '{\n      a: .x\n    }' > f.json\nn=$(kubectl get secrets \\\n  | wc -l)\necho \"it's # not a comment\" # don't\necho done\n```\n";
        let texts: Vec<String> = snippets(md).into_iter().map(|s| s.text).collect();
        assert_eq!(texts.len(), 4, "{texts:#?}");
        assert!(texts[0].ends_with("}' > f.json"), "{texts:#?}");
        assert!(texts[1].ends_with("| wc -l)"), "{texts:#?}");
        assert_eq!(texts[3], "echo done");
    }

    /// Every command of every lesson is whole: no quote, `$(` or heredoc left open.
    #[test]
    fn every_lesson_command_is_complete() {
        for lesson in Catalog::embedded().unwrap().lessons() {
            for &lang in Lang::all() {
                for snippet in snippets(&lesson.text(lang).section(Section::ByHand)) {
                    assert!(
                        !incomplete(&snippet.text),
                        "lesson {} {lang:?}: {}",
                        lesson.spec.number,
                        snippet.text
                    );
                }
            }
        }
    }

    #[test]
    fn lesson_ones_by_hand_starts_with_creating_and_cloning_the_repo() {
        let catalog = Catalog::embedded().unwrap();
        let lessons = catalog.lessons();
        let by_hand = lessons[0].text(Lang::FALLBACK).section(Section::ByHand);
        let s = snippets(&by_hand);
        assert!(
            s[0].text
                .starts_with("git init --bare -b main {bare_dir}/src.git")
        );
        assert!(
            s[1].text
                .starts_with("git clone {bare_dir}/src.git {src_dir}/repo")
        );
        assert!(
            s.iter().any(|c| c
                .text
                .starts_with("cat > charts/web/templates/configmap.yaml <<'EOF'")
                && c.text.ends_with("EOF")),
            "{s:#?}"
        );
    }
}
