//! Wrapping lines to a pane's width by display cells, as a reader of each language expects:
//! English and Korean break between words (Korean readers keep a word whole, as `word-break:
//! keep-all` does), Chinese and Japanese between any two characters, and none leaves a closing
//! mark (`，` `。` `）`) at the start of a line. A wide character is two cells, so no line ever
//! runs past the pane (ratatui's own wrapper can overrun by one cell next to wide characters,
//! and splits an English word set in CJK text).

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

/// Whether a line break inside a paragraph (Markdown's soft break) reads as a space between
/// `before` and `after`. Chinese and Japanese set no space between characters, so a break
/// between two wide characters vanishes; Korean puts spaces between words, so Hangul keeps it
/// (CSS Text 3's segment-break rule).
pub fn soft_break_is_space(before: char, after: char) -> bool {
    !wide(before) || !wide(after) || hangul(before) || hangul(after)
}

fn hangul(c: char) -> bool {
    matches!(c, '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}' | '\u{AC00}'..='\u{D7AF}')
}

/// Whether a line may break between `before` and `after`, consuming neither.
fn may_break_between(before: char, after: char) -> bool {
    let ideograph = |c: char| wide(c) && !hangul(c);
    (ideograph(before) || ideograph(after)) && !NO_START.contains(after) && !NO_END.contains(before)
}

/// `lines` wrapped to `width` cells; styles, blank lines and leading indentation are kept, and
/// a line's further rows hang under its first word (see `hang`).
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
        let hang = hang(&chars, width);
        for (i, piece) in wrap_chars(&chars, width, width - hang)
            .into_iter()
            .enumerate()
        {
            let mut spans = spans_of(piece);
            if i > 0 && hang > 0 {
                spans.insert(0, Span::raw(" ".repeat(hang)));
            }
            let mut l = Line::from(spans);
            l.style = style;
            l.alignment = alignment;
            out.push(l);
        }
    }
    out
}

/// How many cells a line's second and later rows are indented: its own indentation, and past
/// a list's mark (`✓ `, `- `, `1. `, `[2] `) when it has one, so an item's words stay a column
/// as a reader of any list expects. None when that leaves under half the row for words.
fn hang(chars: &[(char, Style)], width: usize) -> usize {
    let indent = chars.iter().take_while(|(c, _)| *c == ' ').count();
    let word: String = chars[indent..]
        .iter()
        .map(|(c, _)| *c)
        .take_while(|c| *c != ' ')
        .collect();
    let followed_by_space = chars
        .get(indent + word.chars().count())
        .is_some_and(|(c, _)| *c == ' ');
    let hang = if followed_by_space && is_mark(&word) {
        indent + word.chars().map(cells).sum::<usize>() + 1
    } else {
        indent
    };
    if hang * 2 > width { 0 } else { hang }
}

/// A list item's mark: one sign (`✓` `✗` `·` `-` `▸` `⧗` `▶`), or a number (`1.`, `2)`, `[3]`).
fn is_mark(word: &str) -> bool {
    let mut chars = word.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => !c.is_alphanumeric() && !NO_END.contains(c),
        _ => {
            let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
            word.strip_suffix(['.', ')']).is_some_and(digits)
                || word
                    .strip_prefix('[')
                    .and_then(|w| w.strip_suffix(']'))
                    .is_some_and(digits)
        }
    }
}

/// The characters cut into rows: the first of at most `first` cells, the rest of at most `rest`.
fn wrap_chars(chars: &[(char, Style)], first: usize, rest: usize) -> Vec<&[(char, Style)]> {
    let mut rows = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let width = if rows.is_empty() { first } else { rest }.max(1);
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
        // A word is kept whole, never cut between its syllables when a space can take the break.
        assert_eq!(
            rows("failed-hook.json이 자가 점검 통과 (14:19:59 점검)", 24),
            ["failed-hook.json이 자가", "점검 통과 (14:19:59", "점검)"]
        );
        assert_eq!(
            rows("실패하는 마이그레이션과 함께", 12),
            ["실패하는", "마이그레이션", "과 함께"]
        );
        assert!(
            got.iter()
                .flat_map(|l| &l.spans)
                .any(|s| s.content == "동기화는" && s.style == Style::default().bold()),
            "{got:?}"
        );
    }

    #[test]
    fn indentation_stays_with_its_first_word_and_the_rows_after_it() {
        assert_eq!(
            rows("    hint 2: parameters win", 16),
            ["    hint 2:", "    parameters", "    win"]
        );
    }

    #[test]
    fn a_list_items_rows_hang_under_its_words_past_the_mark() {
        assert_eq!(
            rows(" ✓ 14:03 Add valuesObject and a parameter", 24),
            [" ✓ 14:03 Add", "   valuesObject and a", "   parameter"]
        );
        assert_eq!(
            rows("    ✓ 已从 /tmp/lab/app.yaml 应用 Application", 30),
            ["    ✓ 已从 /tmp/lab/app.yaml ", "      应用 Application"]
        );
        assert_eq!(
            rows("1. first and more", 10),
            ["1. first", "   and", "   more"]
        );
        assert_eq!(
            rows("[2] apply the file", 12),
            ["[2] apply", "    the file"]
        );
        // Words that are not a mark, and an indent that would leave too little room, do not hang.
        assert_eq!(rows("Wait for the sync", 9), ["Wait for", "the sync"]);
        assert_eq!(
            rows("      ✓ done at last", 12),
            ["      ✓ done", "at last"]
        );
    }

    #[test]
    fn a_word_longer_than_the_row_is_cut_and_nothing_is_lost() {
        let got = rows("src-waves/ConfigMap/settings", 10);
        assert_eq!(got.concat(), "src-waves/ConfigMap/settings");
        assert!(got.iter().all(|r| r.chars().count() <= 10));
    }
}
