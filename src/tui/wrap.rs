//! Wrapping lines to a pane's width by display cells, as a reader of each language expects:
//! English breaks between words, Chinese, Japanese and Korean between any two characters, and
//! neither leaves a closing mark (`，` `。` `）`) at the start of a line. A wide character is two
//! cells, so no line ever runs past the pane (ratatui's own wrapper can overrun by one cell next
//! to wide characters, and splits an English word set in CJK text).

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// Marks that close a phrase: never the first thing on a line.
const NO_START: &str = "，。、；：！？）」』】》〉…·,.;:!?)]}’”%";
/// Marks that open a phrase: never the last thing on a line.
const NO_END: &str = "（「『【《〈([{‘“";

fn cells(c: char) -> usize {
    c.width().unwrap_or(0)
}

fn wide(c: char) -> bool {
    cells(c) > 1
}

/// Whether a line may break between `before` and `after`, consuming neither.
fn may_break_between(before: char, after: char) -> bool {
    (wide(before) || wide(after)) && !NO_START.contains(after) && !NO_END.contains(before)
}

/// `lines` wrapped to `width` cells; styles, blank lines and leading indentation are kept.
pub fn wrap<'a>(lines: Vec<Line<'a>>, width: u16) -> Vec<Line<'a>> {
    let width = usize::from(width).max(1);
    let mut out = Vec::new();
    for line in lines {
        if line.width() <= width {
            out.push(line);
            continue;
        }
        let (style, alignment) = (line.style, line.alignment);
        let chars: Vec<(char, Style)> = line
            .spans
            .iter()
            .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
            .collect();
        for piece in wrap_chars(&chars, width) {
            let mut l = Line::from(spans_of(piece));
            l.style = style;
            l.alignment = alignment;
            out.push(l);
        }
    }
    out
}

/// The characters cut into rows of at most `width` cells.
fn wrap_chars(chars: &[(char, Style)], width: usize) -> Vec<&[(char, Style)]> {
    let mut rows = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let mut used = 0;
        let mut end = start;
        // The last place this row may end, and where the next row then starts.
        let mut last_break: Option<(usize, usize)> = None;
        // Indentation is kept whole: no break before the row's first word.
        let mut in_text = false;
        while end < chars.len() {
            let c = chars[end].0;
            if in_text {
                let before = chars[end - 1].0;
                if c == ' ' {
                    last_break = Some((end, end + 1));
                } else if may_break_between(before, c) {
                    last_break = Some((end, end));
                }
            }
            if used + cells(c) > width {
                break;
            }
            used += cells(c);
            in_text |= c != ' ';
            end += 1;
        }
        if end == chars.len() {
            rows.push(&chars[start..]);
            break;
        }
        let (row_end, next) = match last_break {
            Some((row_end, next)) if row_end > start => (row_end, next),
            // One word longer than the row: cut it (at least one character, so it ends).
            _ => (end.max(start + 1), end.max(start + 1)),
        };
        rows.push(&chars[start..row_end]);
        start = next;
        // A space the break left at the start of the next row is the break's, not text.
        while start < chars.len() && chars[start].0 == ' ' && next > row_end {
            start += 1;
        }
    }
    rows
}

/// Runs of one style as spans.
fn spans_of<'a>(chars: &[(char, Style)]) -> Vec<Span<'a>> {
    let mut spans: Vec<Span<'a>> = Vec::new();
    let mut text = String::new();
    let mut current: Option<Style> = None;
    for &(c, style) in chars {
        if current.is_some_and(|s| s != style) {
            spans.push(Span::styled(
                std::mem::take(&mut text),
                current.unwrap_or_default(),
            ));
        }
        current = Some(style);
        text.push(c);
    }
    if let Some(style) = current {
        spans.push(Span::styled(text, style));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str, width: u16) -> Vec<String> {
        wrap(vec![Line::raw(text.to_string())], width)
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn english_breaks_between_words() {
        assert_eq!(
            rows("the sync waits for the hook", 12),
            ["the sync", "waits for", "the hook"]
        );
    }

    #[test]
    fn cjk_breaks_anywhere_but_never_inside_an_english_word_or_past_the_edge() {
        let text = "钩子失败之后，Argo CD 才看到它失败（第 6 步），而 mode 仍是 blue。";
        for width in 6..40 {
            let got = rows(text, width);
            for row in &got {
                let w: usize = row.chars().map(cells).sum();
                assert!(w <= usize::from(width), "{row:?} is {w} cells in {width}");
                assert!(!row.starts_with(['，', '。', '）']), "{row:?} at {width}");
                assert!(!row.ends_with('（'), "{row:?} at {width}");
            }
            let joined = got.join("|");
            for word in ["Argo", "mode", "blue"] {
                assert!(
                    !joined.contains(&format!("{}|{}", &word[..2], &word[2..])),
                    "{word} split at {width}: {joined}"
                );
            }
        }
    }

    #[test]
    fn korean_wraps_at_spaces_and_keeps_styles() {
        let line = Line::from(vec![
            Span::raw("훅이 실패했고 "),
            Span::styled("동기화는", Style::default().bold()),
            Span::raw(" 재시도 중입니다"),
        ]);
        let got = wrap(vec![line], 14);
        assert!(got.iter().all(|l| l.width() <= 14), "{got:?}");
        assert!(
            got.iter()
                .flat_map(|l| &l.spans)
                .any(|s| s.content == "동기화는" && s.style == Style::default().bold()),
            "{got:?}"
        );
    }

    #[test]
    fn indentation_stays_with_its_first_word() {
        assert_eq!(
            rows("    hint 2: parameters win", 14),
            ["    hint 2:", "parameters win"]
        );
    }

    #[test]
    fn a_word_longer_than_the_row_is_cut_and_nothing_is_lost() {
        let got = rows("src-waves/ConfigMap/settings", 10);
        assert_eq!(got.concat(), "src-waves/ConfigMap/settings");
        assert!(got.iter().all(|r| r.chars().count() <= 10));
    }
}
