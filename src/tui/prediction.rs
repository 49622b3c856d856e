//! Predict, then watch: the question step mode's next action asks (with its choices), and —
//! once the action that answers it ran — the prediction beside the live value, as lines. The
//! lesson pane shows them; presenting, `view`'s band does, and `layout` gives it the rows
//! `band_rows` counts (here, not in `view`, so where things go never asks how they are drawn).

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::t;
use crate::tui::state::{State, answer_key};

/// The question with its choices on one line each, or the reveal, as the lesson pane shows it.
pub fn lines(s: &State) -> Vec<Line<'static>> {
    let mut lines = reveal(s);
    lines.extend(question(s, false));
    lines
}

/// The question and its choices; `roomy` gives each choice a line of its own.
fn question(s: &State, roomy: bool) -> Vec<Line<'static>> {
    let (theme, lang) = (s.ui().theme, s.lang());
    let Some((_, ask)) = s.pending_question() else {
        return Vec::new();
    };
    let mut lines = vec![Line::from(Span::styled(
        t!(lang, "predict-question", question = ask.question.get(lang)),
        theme.accent().add_modifier(Modifier::BOLD),
    ))];
    let range = format!("1–{}", ask.choices.len());
    let keys = format!("← {range}");
    // Asked to go on before answering: the band says what it waits for, in the accent that
    // draws the eye (`answer_first` is set by the press that was refused).
    let nudged = s.run().step_mode.as_ref().is_some_and(|m| m.answer_first);
    let nudge = || {
        Span::styled(
            t!(lang, "predict-answer-first", keys = range.as_str()),
            theme
                .warn()
                .add_modifier(Modifier::BOLD | Modifier::REVERSED),
        )
    };
    if roomy {
        lines.push(Line::raw(""));
        for (i, c) in ask.choices.iter().enumerate() {
            lines.push(Line::from(vec![
                Span::styled(
                    format!("   {}  ", i + 1),
                    theme
                        .accent()
                        .add_modifier(Modifier::BOLD | Modifier::REVERSED),
                ),
                Span::styled(format!("  {c}"), theme.title()),
            ]));
        }
        lines.push(Line::raw(""));
        lines.push(Line::from(if nudged {
            nudge()
        } else {
            Span::styled(t!(lang, "predict-keys", keys = keys), theme.dim())
        }));
    } else {
        let choices: Vec<String> = ask
            .choices
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}) {c}", i + 1))
            .collect();
        let choices = Span::raw(format!("  {}   ", choices.join("   ")));
        lines.push(Line::from(if nudged {
            vec![choices, nudge()]
        } else {
            vec![choices, Span::raw(keys)]
        }));
    }
    lines
}

/// The room's predictions beside what the cluster shows, once the action that answers them ran.
fn reveal(s: &State) -> Vec<Line<'static>> {
    let (theme, lang) = (s.ui().theme, s.lang());
    let Some(m) = &s.run().step_mode else {
        return Vec::new();
    };
    s.answered_questions()
        .into_iter()
        .map(|(i, ask)| {
            let said = s
                .lab()
                .answers
                .get(&answer_key(m.lesson, i))
                .cloned()
                .unwrap_or_else(|| "-".into());
            let live = crate::lab::eval::derived::revealed(&ask.reveal, &s.live().objects)
                .unwrap_or_else(|| "?".into());
            let right = said == live || said.ends_with(&format!(" {live}"));
            Line::from(Span::styled(
                format!(
                    "{} {}",
                    if right { "✓" } else { "✗" },
                    t!(lang, "predict-reveal", said = said, live = live)
                ),
                if right { theme.good() } else { theme.bad() }.add_modifier(Modifier::BOLD),
            ))
        })
        .collect()
}

/// How many rows the band needs presenting, `width` wide (0: nothing to ask or reveal).
pub fn band_rows(s: &State, width: u16) -> u16 {
    if !s.ui().present || s.stepping_here().is_none() {
        return 0;
    }
    let lines = band_lines(s);
    if lines.len() <= 1 {
        return 0;
    }
    let wrapped = super::wrap::wrap(lines, width.saturating_sub(2)).len();
    // The lines, a blank one below, and the borders.
    u16::try_from(wrapped + 3).unwrap_or(u16::MAX)
}

/// The band's lines: a blank one, then the question large or the reveal, indented.
pub fn band_lines(s: &State) -> Vec<Line<'static>> {
    // The answer to what just ran first, then the next question; a short screen lists the
    // choices on one line.
    let mut lines = vec![Line::raw("")];
    lines.extend(reveal(s));
    lines.extend(question(s, s.ui().panes.size.1 >= 30));
    lines
        .into_iter()
        .map(|mut l| {
            l.spans.insert(0, Span::raw("  "));
            l
        })
        .collect()
}

/// The prediction lines of step mode as plain text (for tests and logs).
pub fn text(s: &State) -> String {
    lines(s)
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|sp| sp.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
