//! `capa-tui class collect` and `class report`: a learner's lab kept after class (what its
//! self-check reads, with the cluster's answers), and a room's collected labs graded with no
//! cluster into a table (learner × lesson), as CSV and as one self-contained HTML page.

use std::path::{Path, PathBuf};

use super::{Global, catalog, lang};
use crate::i18n::{Lang, Say};
use crate::lab::catalog::Catalog;
use crate::lab::class::{self, LabRow, Standing};
use crate::lab::learner::Learner;
use crate::{errln, out, outln, t};

/// Collects the lab the usual options name into `out`.
pub async fn collect(g: &Global, out: &Path) -> i32 {
    let lang = lang(g);
    let Ok(catalog) = catalog(g, lang) else {
        return 1;
    };
    let s = match super::answering_session(g, lang).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    let learner = g.learner.as_ref().map(Learner::name);
    let code = match class::collect(&s.client, &catalog, &s.paths, learner, out).await {
        Ok(c) => {
            let passed = c.grades.iter().filter(|g| g.passed()).count();
            outln!(
                "{}",
                t!(
                    lang,
                    "class-collected",
                    dir = out.display().to_string(),
                    passed = passed,
                    total = c.grades.len()
                )
            );
            0
        }
        Err(e) => {
            errln!("capa-tui: {e}");
            1
        }
    };
    s.close().await;
    code
}

/// Grades the labs collected in `dirs` and prints the room's table; `csv` and `html` write it.
pub async fn report(g: &Global, dirs: &[PathBuf], csv: Option<&Path>, html: Option<&Path>) -> i32 {
    let lang = lang(g);
    let mut rows = Vec::new();
    for dir in dirs {
        let collected = match class::read(dir) {
            Ok(c) => c,
            Err(e) => {
                errln!("capa-tui: {e}");
                return 1;
            }
        };
        // Each lab with its learner's names, whoever collects the room.
        let learner = collected
            .learner
            .as_deref()
            .and_then(|n| Learner::parse(n).ok());
        let catalog = match Catalog::load_for(
            g.lessons.as_deref(),
            g.templates.as_deref(),
            learner.as_ref(),
        ) {
            Ok(c) => c,
            Err(e) => {
                errln!("capa-tui: {e}");
                return 1;
            }
        };
        match class::report(dir, &catalog).await {
            Ok(row) => rows.push(row),
            Err(e) => {
                errln!("capa-tui: {e}");
                return 1;
            }
        }
    }
    out!("{}", table(&rows, lang));
    match write_tables(&rows, lang, csv, html) {
        Ok(()) => 0,
        Err(code) => code,
    }
}

/// The room's table as printed: a line per learner, and under it each failed lesson's first
/// reason.
pub(super) fn table(rows: &[LabRow], lang: Lang) -> String {
    let mut text = String::new();
    // The lessons' columns line up under each other, whatever the names' lengths.
    let name_width = rows.iter().map(|r| r.learner.chars().count()).max();
    for row in rows {
        text.push_str(&table_line(row, name_width.unwrap_or_default(), lang));
        text.push('\n');
        for l in &row.lessons {
            if let Standing::Failed { .. } = l.standing {
                let reason = l.standing.say(lang);
                text.push_str(&format!("    {} {}: {reason}\n", row.learner, l.lesson));
            }
        }
    }
    text
}

/// Writes the table as CSV and as HTML where asked; the exit code when one cannot be written.
pub(super) fn write_tables(
    rows: &[LabRow],
    lang: Lang,
    csv: Option<&Path>,
    html: Option<&Path>,
) -> Result<(), i32> {
    for (path, text) in [(csv, as_csv(rows, lang)), (html, as_html(rows, lang))] {
        if let Some(path) = path
            && let Err(e) = crate::lab::files::write_atomic(path, &text)
        {
            errln!("capa-tui: {}: {e}", path.display());
            return Err(1);
        }
    }
    Ok(())
}

/// `alice  1 ✓  2 ✓  3 ✗  4 ·  · hints 2 · predictions 3/4 right`.
fn table_line(row: &LabRow, name_width: usize, lang: Lang) -> String {
    let cells: Vec<String> = row
        .lessons
        .iter()
        .map(|l| format!("{} {}", l.lesson, mark(&l.standing)))
        .collect();
    let hints: usize = row.lessons.iter().map(|l| l.hints).sum();
    let minutes = minutes_spent(row);
    let right = row
        .predictions
        .iter()
        .filter(|p| p.right() == Some(true))
        .count();
    t!(
        lang,
        "class-row",
        learner = format!("{:name_width$}", row.learner),
        lessons = cells.join("  "),
        minutes = minutes,
        hints = hints,
        right = right,
        predictions = row.predictions.len()
    )
}

/// The minutes a learner spent, rounded up, as the tutor saw the checklists tick; a dash for a
/// lab done by `do` alone (nothing ticked in a tutor).
fn minutes_spent(row: &LabRow) -> String {
    let spent: i64 = row
        .lessons
        .iter()
        .filter_map(|l| l.spent)
        .map(|d| d.as_secs())
        .sum();
    match row.lessons.iter().any(|l| l.spent.is_some()) {
        true => ((spent + 59) / 60).to_string(),
        false => "–".into(),
    }
}

fn mark(s: &Standing) -> &'static str {
    match s {
        Standing::Passed => "✓",
        Standing::Failed { .. } => "✗",
        Standing::NotStarted => "·",
    }
}

/// One row per learner and lesson: its standing and first reason, hints, seconds spent, and
/// the lesson's predictions right of those made.
fn as_csv(rows: &[LabRow], lang: Lang) -> String {
    let field = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut out = String::from(
        "learner,lesson,standing,reason,hints,seconds,predictions_right,predictions\n",
    );
    for row in rows {
        for l in &row.lessons {
            let (standing, reason) = match &l.standing {
                Standing::Passed => ("passed", String::new()),
                Standing::Failed { first } => ("failed", first.say(lang)),
                Standing::NotStarted => ("not-started", String::new()),
            };
            let asked: Vec<_> = row
                .predictions
                .iter()
                .filter(|p| p.lesson == l.lesson)
                .collect();
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{}\n",
                field(&row.learner),
                l.lesson,
                standing,
                field(&reason),
                l.hints,
                l.spent.map_or(String::new(), |d| d.as_secs().to_string()),
                asked.iter().filter(|p| p.right() == Some(true)).count(),
                asked.len()
            ));
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The table as one HTML page with nothing to fetch: a row per learner, a cell per lesson
/// (its reason on hover and below the table).
fn as_html(rows: &[LabRow], lang: Lang) -> String {
    let lessons: Vec<String> = rows
        .first()
        .map(|r| r.lessons.iter().map(|l| l.lesson.to_string()).collect())
        .unwrap_or_default();
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"><title>{}</title><style>\
body{{font-family:system-ui,sans-serif;margin:2em}}table{{border-collapse:collapse}}\
td,th{{border:1px solid #999;padding:.3em .6em;text-align:center}}\
.passed{{background:#c8f0c8}}.failed{{background:#f6c6c6}}.not-started{{color:#777}}\
</style></head><body><h1>{}</h1><table><tr><th>{}</th>",
        lang.code(),
        escape(&t!(lang, "class-title")),
        escape(&t!(lang, "class-title")),
        escape(&t!(lang, "class-learner"))
    );
    for l in &lessons {
        out.push_str(&format!("<th>{}</th>", escape(l)));
    }
    out.push_str(&format!(
        "<th>{}</th><th>{}</th><th>{}</th></tr>\n",
        escape(&t!(lang, "class-minutes")),
        escape(&t!(lang, "class-hints")),
        escape(&t!(lang, "class-predictions"))
    ));
    for row in rows {
        out.push_str(&format!("<tr><th>{}</th>", escape(&row.learner)));
        for l in &row.lessons {
            let class = match l.standing {
                Standing::Passed => "passed",
                Standing::Failed { .. } => "failed",
                Standing::NotStarted => "not-started",
            };
            out.push_str(&format!(
                "<td class=\"{class}\" title=\"{}\">{}</td>",
                escape(&l.standing.say(lang)),
                mark(&l.standing)
            ));
        }
        let hints: usize = row.lessons.iter().map(|l| l.hints).sum();
        let right = row
            .predictions
            .iter()
            .filter(|p| p.right() == Some(true))
            .count();
        out.push_str(&format!(
            "<td>{}</td><td>{hints}</td><td>{right}/{}</td></tr>\n",
            minutes_spent(row),
            row.predictions.len()
        ));
    }
    out.push_str("</table>\n<ul>\n");
    for row in rows {
        for l in &row.lessons {
            if let Standing::Failed { .. } = l.standing {
                out.push_str(&format!(
                    "<li>{} {}: {}</li>\n",
                    escape(&row.learner),
                    l.lesson,
                    escape(&l.standing.say(lang))
                ));
            }
        }
    }
    out.push_str("</ul></body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::class::LessonRow;
    use crate::lab::spec::LessonId;

    #[test]
    fn a_row_says_the_time_spent_rounded_up_to_minutes_and_a_dash_for_none() {
        let lesson = |n: u8, spent: Option<i64>| LessonRow {
            lesson: LessonId(n),
            standing: Standing::Passed,
            hints: 1,
            spent: spent.map(jiff::SignedDuration::from_secs),
        };
        let row = |lessons| LabRow {
            learner: "alice".into(),
            lessons,
            predictions: Vec::new(),
        };
        let said = table_line(
            &row(vec![lesson(1, Some(90)), lesson(2, Some(31))]),
            5,
            Lang::FALLBACK,
        );
        assert!(said.contains("· 3 min · hints 2 ·"), "{said}");
        let said = table_line(&row(vec![lesson(1, None)]), 5, Lang::FALLBACK);
        assert!(said.contains("· – min ·"), "{said}");
        let html = as_html(&[row(vec![lesson(1, Some(60))])], Lang::FALLBACK);
        assert!(
            html.contains("<th>minutes</th>") && html.contains("<td>1</td>"),
            "{html}"
        );
        let zh = table_line(
            &row(vec![lesson(1, Some(60))]),
            5,
            Lang::parse("zh").unwrap(),
        );
        assert!(zh.contains("用时 1 分钟"), "{zh}");
    }
}
