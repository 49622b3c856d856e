//! Lesson text to styled lines: headings, lists, and fenced code blocks highlighted with
//! syntect (shell, YAML, JSON). Monochrome keeps the text and drops the colours.

use std::sync::OnceLock;

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::easy::HighlightLines;
use syntect::highlighting::ThemeSet;
use syntect::parsing::SyntaxSet;

use crate::tui::theme::Theme;

fn syntaxes() -> &'static (SyntaxSet, ThemeSet) {
    static SETS: OnceLock<(SyntaxSet, ThemeSet)> = OnceLock::new();
    SETS.get_or_init(|| {
        (
            SyntaxSet::load_defaults_newlines(),
            ThemeSet::load_defaults(),
        )
    })
}

#[cfg(test)]
pub fn render(text: &str, theme: Theme) -> Vec<Line<'static>> {
    render_marked(text, theme, None).0
}

/// What a lesson's text became last time: the same part of the lesson is drawn again on every
/// frame (a watch event, a tick), and highlighting it with syntect is the costliest thing in a
/// frame. `render_marked` is a function of its arguments alone, so its last answer is kept.
type Rendered = (Vec<Line<'static>>, Option<usize>);
type Memo = Option<((String, Theme, Option<(usize, usize)>), Rendered)>;

thread_local! {
    static LAST: std::cell::RefCell<Memo> = const { std::cell::RefCell::new(None) };
}

/// The lines, with code lines `marked` (first, last; counted over all code lines from 0)
/// drawn as the selected command; also the index of the first marked line drawn.
pub fn render_marked(text: &str, theme: Theme, marked: Option<(usize, usize)>) -> Rendered {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some(((t, th, m), out)) = last.as_ref()
            && t == text
            && *th == theme
            && *m == marked
        {
            return out.clone();
        }
        let out = render_uncached(text, theme, marked);
        *last = Some(((text.to_string(), theme, marked), out.clone()));
        out
    })
}

fn render_uncached(text: &str, theme: Theme, marked: Option<(usize, usize)>) -> Rendered {
    let mut out = Vec::new();
    let mut code: Option<(String, Vec<String>)> = None;
    let mut code_seen = 0usize;
    let mut first_marked = None;
    let mut flush = |out: &mut Vec<Line<'static>>, lang: &str, lines: &[String]| {
        for (i, mut line) in highlight(lang, lines, theme).into_iter().enumerate() {
            let n = code_seen + i;
            if marked.is_some_and(|(a, b)| (a..=b).contains(&n)) {
                first_marked.get_or_insert(out.len());
                line.spans[0] = Span::styled("▌ ", theme.accent().add_modifier(Modifier::BOLD));
                line = line.style(Style::default().add_modifier(Modifier::BOLD));
            }
            out.push(line);
        }
        code_seen += lines.len();
    };
    // A paragraph's lines are one line of prose (Markdown's soft breaks), wrapped by the pane.
    let mut paragraph: Option<String> = None;
    let end_paragraph = |out: &mut Vec<Line<'static>>, p: &mut Option<String>| {
        if let Some(text) = p.take() {
            out.push(prose(&text, theme));
        }
    };
    for line in text.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("```") {
            end_paragraph(&mut out, &mut paragraph);
            match code.take() {
                Some((lang, lines)) => flush(&mut out, &lang, &lines),
                None => code = Some((rest.trim().to_string(), Vec::new())),
            }
            continue;
        }
        if let Some((_, lines)) = &mut code {
            lines.push(line.to_string());
            continue;
        }
        let starts_block = line.trim().is_empty() || starts_own_line(line);
        match (&mut paragraph, starts_block) {
            (Some(p), false) => {
                p.push(' ');
                p.push_str(line.trim());
            }
            (_, true) => {
                end_paragraph(&mut out, &mut paragraph);
                if line.trim().is_empty() {
                    out.push(Line::raw(""));
                } else {
                    paragraph = Some(line.to_string());
                }
            }
            (None, false) => paragraph = Some(line.to_string()),
        }
    }
    end_paragraph(&mut out, &mut paragraph);
    if let Some((lang, lines)) = code {
        flush(&mut out, &lang, &lines);
    }
    (out, first_marked)
}

/// Whether a line starts a block of its own: a heading or a list item.
fn starts_own_line(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    t.starts_with('#')
        || t.starts_with("- ")
        || t.starts_with("* ")
        || (digits > 0 && t[digits..].starts_with(". "))
}

fn prose(line: &str, theme: Theme) -> Line<'static> {
    if let Some(h) = line
        .strip_prefix("### ")
        .or_else(|| line.strip_prefix("# "))
    {
        return Line::from(Span::styled(h.to_string(), theme.title()));
    }
    // `code` spans in prose are shown in the accent style.
    let mut spans = Vec::new();
    for (i, part) in line.split('`').enumerate() {
        if i % 2 == 1 {
            spans.push(Span::styled(part.to_string(), theme.accent()));
        } else {
            spans.push(Span::raw(part.replace("**", "")));
        }
    }
    Line::from(spans)
}

fn highlight(lang: &str, lines: &[String], theme: Theme) -> Vec<Line<'static>> {
    let (ss, ts) = syntaxes();
    let token = match lang {
        "sh" | "bash" | "shell" | "console" => "sh",
        "yaml" | "yml" => "yaml",
        "json" => "json",
        other => other,
    };
    let syntax = ss
        .find_syntax_by_token(token)
        .unwrap_or_else(|| ss.find_syntax_plain_text());
    let mut h = HighlightLines::new(syntax, &ts.themes["base16-ocean.dark"]);
    lines
        .iter()
        .map(|l| {
            let mut spans = vec![Span::styled("  ", Style::default())];
            match (theme, h.highlight_line(l, ss)) {
                (Theme::Mono, _) | (_, Err(_)) => spans.push(Span::styled(
                    l.clone(),
                    Style::default().add_modifier(Modifier::DIM),
                )),
                (_, Ok(ranges)) => {
                    for (style, piece) in ranges {
                        let c = style.foreground;
                        spans.push(Span::styled(
                            piece.to_string(),
                            Style::default().fg(Color::Rgb(c.r, c.g, c.b)),
                        ));
                    }
                }
            }
            Line::from(spans)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_rendering_answers_only_for_the_same_text_theme_and_mark() {
        let text = "Run:\n```sh\nkubectl get app\nkubectl get cm\n```";
        for (theme, marked) in [
            (Theme::Default, None),
            (Theme::Default, None),
            (Theme::Mono, None),
            (Theme::Mono, Some((1, 1))),
            (Theme::Default, None),
        ] {
            assert_eq!(
                render_marked(text, theme, marked),
                render_uncached(text, theme, marked)
            );
        }
        assert_ne!(
            render_marked(text, Theme::Default, None),
            render_marked("Other text.", Theme::Default, None)
        );
    }

    #[test]
    fn code_blocks_are_highlighted_and_keep_their_text() {
        let lines = render(
            "Run:\n```sh\nkubectl get app\n```\nDone `here`.",
            Theme::Default,
        );
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        assert_eq!(text, ["Run:", "  kubectl get app", "Done here."]);
        assert!(lines[1].spans.len() > 2, "shell is coloured");
    }

    #[test]
    fn the_selected_command_is_marked() {
        let (lines, first) = render_marked(
            "Run:\n```sh\nls\nkubectl get app\n```\n",
            Theme::Default,
            Some((1, 1)),
        );
        assert_eq!(first, Some(2));
        let text: String = lines[2].spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "▌ kubectl get app");
    }

    #[test]
    fn soft_line_breaks_join_and_list_items_stay_apart() {
        let lines = render(
            "You push a commit\nand watch the sync fail.\n\n- one\n- two\n1. first\n   more of first",
            Theme::Default,
        );
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        assert_eq!(
            text,
            [
                "You push a commit and watch the sync fail.",
                "",
                "- one",
                "- two",
                "1. first more of first"
            ]
        );
    }
}
