//! Lesson text to styled lines: headings, lists, and fenced code blocks highlighted with
//! syntect (shell, YAML, JSON). Monochrome keeps the text and drops the colours.

use std::sync::OnceLock;

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::easy::HighlightLines;
use syntect::highlighting::ThemeSet;
use syntect::parsing::SyntaxSet;

use crate::tui::theme::Theme;
use crate::tui::wrap::soft_break_is_space;

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
    render_marked(text, theme, None).lines
}

/// Lines as drawn, with the index of the first marked one and of every code line.
pub struct Rendered {
    pub lines: Vec<Line<'static>>,
    pub first_marked: Option<usize>,
    /// The lines that are code, in order: each begins with its two-cell gutter span.
    pub code: Vec<usize>,
}

/// A text highlighted: its lines, and the line each code line (counted from 0) is drawn on.
type Highlighted = (Vec<Line<'static>>, Vec<usize>);

/// The lesson texts highlighted last, newest last: a frame asks for the same text several
/// times (drawing, its extent, the scroll it is shown at) and `]` only moves the mark, while
/// highlighting is the costly part of a frame.
const KEPT: usize = 6;

/// The lines, with code lines `marked` (first, last; counted over all code lines from 0)
/// drawn as the selected command; also the index of the first marked line drawn.
pub fn render_marked(text: &str, theme: Theme, marked: Option<(usize, usize)>) -> Rendered {
    mark(highlighted(text, theme), theme, marked)
}

/// A highlighted text with code lines `marked` drawn as the selected command.
fn mark((mut lines, rows): Highlighted, theme: Theme, marked: Option<(usize, usize)>) -> Rendered {
    let mut first_marked = None;
    if let Some((a, b)) = marked {
        for n in a..=b {
            let Some(&i) = rows.get(n) else { break };
            first_marked.get_or_insert(i);
            let line = &mut lines[i];
            line.spans[0] = Span::styled("▌ ", theme.accent().add_modifier(Modifier::BOLD));
            *line = std::mem::take(line).style(Style::default().add_modifier(Modifier::BOLD));
        }
    }
    Rendered {
        lines,
        first_marked,
        code: rows,
    }
}

/// `text` highlighted once per text and theme, then kept.
fn highlighted(text: &str, theme: Theme) -> Highlighted {
    use std::hash::{Hash, Hasher};
    static CACHE: std::sync::Mutex<Vec<(u64, Highlighted)>> = std::sync::Mutex::new(Vec::new());
    let key = {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (text, theme as u8).hash(&mut h);
        h.finish()
    };
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, kept)) = cache.iter().find(|(k, _)| *k == key) {
        return kept.clone();
    }
    let done = highlight_text(text, theme);
    if cache.len() >= KEPT {
        cache.remove(0);
    }
    cache.push((key, done.clone()));
    done
}

fn highlight_text(text: &str, theme: Theme) -> Highlighted {
    let mut out = Vec::new();
    let mut rows = Vec::new();
    let mut code: Option<(String, Vec<String>)> = None;
    let flush =
        |out: &mut Vec<Line<'static>>, rows: &mut Vec<usize>, lang: &str, lines: &[String]| {
            for line in highlight(lang, lines, theme) {
                rows.push(out.len());
                out.push(line);
            }
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
                Some((lang, lines)) => flush(&mut out, &mut rows, &lang, &lines),
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
                let next = line.trim();
                if let (Some(before), Some(after)) = (p.chars().last(), next.chars().next())
                    && soft_break_is_space(before, after)
                {
                    p.push(' ');
                }
                p.push_str(next);
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
        flush(&mut out, &mut rows, &lang, &lines);
    }
    (out, rows)
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

/// A line of text that may hold `code` spans (a hint said inside other words): the spans in
/// the accent style, the rest in `style`, no backtick shown.
pub fn inline(line: &str, style: ratatui::style::Style, theme: Theme) -> Line<'static> {
    let spans: Vec<Span<'static>> = line
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                Span::styled(part.to_string(), theme.accent())
            } else {
                Span::styled(part.replace("**", ""), style)
            }
        })
        .collect();
    Line::from(spans)
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
    let depth = ColourDepth::of_terminal();
    lines
        .iter()
        .map(|l| {
            let mut spans = vec![Span::styled("  ", Style::default())];
            // The syntaxes are the `newlines` set: a line fed without its newline never ends
            // a `# comment` scope, and every line after it would be drawn as a comment.
            let fed = format!("{l}\n");
            match (theme, h.highlight_line(&fed, ss)) {
                (Theme::Mono, _) | (_, Err(_)) => spans.push(Span::styled(
                    l.clone(),
                    Style::default().add_modifier(Modifier::DIM),
                )),
                (_, Ok(ranges)) => {
                    for (style, piece) in ranges {
                        let piece = piece.trim_end_matches('\n');
                        if piece.is_empty() {
                            continue;
                        }
                        let c = style.foreground;
                        spans.push(Span::styled(
                            piece.to_string(),
                            Style::default().fg(depth.colour(c.r, c.g, c.b)),
                        ));
                    }
                }
            }
            Line::from(spans)
        })
        .collect()
}

/// How many colours the terminal shows: 24-bit only where it says so (`COLORTERM`), else the
/// 256-colour palette every terminal and projector setup draws right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ColourDepth {
    TrueColour,
    Palette256,
}

impl ColourDepth {
    fn of_terminal() -> ColourDepth {
        static DEPTH: OnceLock<ColourDepth> = OnceLock::new();
        *DEPTH.get_or_init(|| ColourDepth::from_colorterm(std::env::var("COLORTERM").ok()))
    }

    fn from_colorterm(value: Option<String>) -> ColourDepth {
        match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
            Some("truecolor" | "24bit") => ColourDepth::TrueColour,
            _ => ColourDepth::Palette256,
        }
    }

    fn colour(self, r: u8, g: u8, b: u8) -> Color {
        match self {
            ColourDepth::TrueColour => Color::Rgb(r, g, b),
            ColourDepth::Palette256 => Color::Indexed(nearest_256(r, g, b)),
        }
    }
}

/// The xterm 256-colour index nearest to a colour: the 6×6×6 cube or the grey ramp.
fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let level = |v: u8| {
        (0..6)
            .min_by_key(|i| (i32::from(LEVELS[*i]) - i32::from(v)).abs())
            .unwrap_or(0)
    };
    let (ri, gi, bi) = (level(r), level(g), level(b));
    let distance = |(x, y, z): (u8, u8, u8)| {
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(x, r) + d(y, g) + d(z, b)
    };
    let cube = (LEVELS[ri], LEVELS[gi], LEVELS[bi]);
    let average = (u32::from(r) + u32::from(g) + u32::from(b)) / 3;
    // The grey ramp 232–255 runs 8, 18, …, 238.
    let step = u8::try_from(average.saturating_sub(3) / 10)
        .unwrap_or(23)
        .min(23);
    let grey = 8 + 10 * step;
    let cube_index = u8::try_from(16 + 36 * ri + 6 * gi + bi).unwrap_or(16);
    if distance((grey, grey, grey)) < distance(cube) {
        232 + step
    } else {
        cube_index
    }
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
                render_marked(text, theme, marked).lines,
                mark(highlight_text(text, theme), theme, marked).lines
            );
        }
        assert_ne!(
            render_marked(text, Theme::Default, None).lines,
            render_marked("Other text.", Theme::Default, None).lines
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

    /// Lesson 6's watch loop under its `# …` comment: the comment is grey, the loop is not.
    #[test]
    fn a_comment_line_colours_only_itself() {
        let lines = render(
            "```sh\n# phase | revision being synced | message\nwhile sleep 3; do kubectl get app; done\n```",
            Theme::Default,
        );
        let colours = |i: usize| -> Vec<Option<Color>> {
            lines[i].spans.iter().skip(1).map(|s| s.style.fg).collect()
        };
        let comment = colours(0);
        let loop_line = colours(1);
        assert!(
            comment.iter().all(|c| *c == comment[0]),
            "a comment is one colour"
        );
        assert!(
            loop_line.iter().any(|c| *c != comment[0]),
            "the line after the comment is not drawn as a comment: {loop_line:?}"
        );
        assert!(loop_line.len() > 2, "the loop is highlighted as shell");
    }

    #[test]
    fn colours_are_24_bit_only_where_the_terminal_says_so() {
        assert_eq!(
            ColourDepth::from_colorterm(Some("truecolor".into())),
            ColourDepth::TrueColour
        );
        assert_eq!(
            ColourDepth::from_colorterm(Some("24bit".into())),
            ColourDepth::TrueColour
        );
        assert_eq!(ColourDepth::from_colorterm(None), ColourDepth::Palette256);
        assert_eq!(
            ColourDepth::from_colorterm(Some("yes".into())),
            ColourDepth::Palette256
        );
        assert_eq!(
            ColourDepth::Palette256.colour(0xc0, 0xc5, 0xce),
            Color::Indexed(251),
            "base16-ocean's text grey"
        );
        assert_eq!(nearest_256(255, 0, 0), 196);
        assert_eq!(nearest_256(0, 0, 0), 16);
        assert_eq!(nearest_256(0x65, 0x73, 0x7e), 243, "the comment grey");
        assert_eq!(ColourDepth::TrueColour.colour(1, 2, 3), Color::Rgb(1, 2, 3));
    }

    #[test]
    fn the_selected_command_is_marked() {
        let Rendered {
            lines,
            first_marked,
            code,
        } = render_marked(
            "Run:\n```sh\nls\nkubectl get app\n```\n",
            Theme::Default,
            Some((1, 1)),
        );
        assert_eq!(first_marked, Some(2));
        assert_eq!(code, vec![1, 2]);
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

    #[test]
    fn a_soft_break_between_chinese_characters_is_no_space_and_korean_keeps_its_space() {
        let joined = |text: &str| -> String {
            render(text, Theme::Default)[0]
                .spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect()
        };
        assert_eq!(joined("指向它。\n完成后"), "指向它。完成后");
        assert_eq!(joined("推送到\nGit 仓库"), "推送到 Git 仓库");
        assert_eq!(joined("가리킵니다.\n완료되면"), "가리킵니다. 완료되면");
        assert_eq!(joined("가리킵니다\n완료"), "가리킵니다 완료");
    }
}
