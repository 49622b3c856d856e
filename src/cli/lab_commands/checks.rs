//! `capa-tui check`: grades the evidence files against the live cluster, as the lab's grader
//! would, and prints each finding with what helps (or JSON with `--json`).

use serde_json::{Value, json};

use super::{Global, catalog, lang, pick_lessons};
use crate::i18n::Say;
use crate::lab::eval::check as grading;
use crate::lab::fit::Fit;
use crate::outln;
use crate::t;

pub async fn check(g: &Global, key: &str, as_json: bool) -> i32 {
    let lang = lang(g);
    let Ok(catalog) = catalog(g, lang) else {
        return 1;
    };
    let lessons = match pick_lessons(&catalog, key, lang) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let s = match super::answering_session(g, lang).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    let runner = s.runner(catalog.clone(), lang, std::time::Duration::from_secs(60));
    let ctx = runner.context();
    // Hints are shown with this lab's paths and commands.
    let fit = Fit::for_paths(&s.paths);
    // The tutor's last grades: a file that passed stands as of then where only the cluster has
    // moved on since (`check::as_of_then`).
    let before = super::progress(&s, lang).grades;
    let mut grades = Vec::new();
    for lesson in &lessons {
        let now = grading::grade_lesson(lesson, &ctx).await;
        let written = crate::lab::eval::facts::modified(&s.paths.evidence(&now.file));
        let key = now.key();
        let judged = grading::as_of_then(now, before.get(&key), written);
        grades.push((lesson, judged));
    }
    let passed = grades.iter().all(|(_, g)| g.passed());
    if as_json {
        let out: Vec<Value> = grades
            .iter()
            .map(|(l, g)| {
                // Each finding's words said in the language asked for, as on screen.
                let said = |fs: &[grading::Finding]| -> Vec<Value> {
                    fs.iter().map(|f| f.said(lang)).collect()
                };
                json!({"lesson": l.spec.number, "file": (!g.file.is_empty()).then_some(&g.file),
                    "passed": g.passed(), "checked_at": g.checked_at, "findings": said(&g.findings),
                    "changed_since": said(&g.changed_since)})
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&json!({"passed": passed, "files": out}))
                .unwrap_or_default()
        );
    } else {
        for (lesson, grade) in &grades {
            let verdict = if grade.passed() {
                t!(lang, "check-pass")
            } else {
                t!(lang, "check-fail")
            };
            let what = if grade.file.is_empty() {
                t!(lang, "check-steps")
            } else {
                grade.file.clone()
            };
            outln!(
                "{}",
                t!(
                    lang,
                    "check-line",
                    verdict = verdict,
                    what = what,
                    lesson = lesson.spec.number.to_string(),
                    title = lesson.title(lang)
                )
            );
            for f in &grade.changed_since {
                outln!(
                    "    · {}",
                    t!(lang, "verdict-changed-since", what = f.what.say(lang))
                );
            }
            for f in &grade.findings {
                if f.ok {
                    outln!("    ✓ {}", f.what.say(lang));
                    continue;
                }
                outln!("    ✗ {}", f.what.say(lang));
                if let Some(help) = &f.help {
                    outln!("      {}", t!(lang, "verdict-help", help = help.say(lang)));
                } else if let Some((n, text)) = f
                    .hint
                    .and_then(|h| lesson.text(lang).hints.get(h - 1).map(|t| (h, t)))
                {
                    outln!(
                        "      {}",
                        t!(lang, "check-hint", n = n, hint = fit.render(text))
                    );
                }
            }
        }
    }
    s.close().await;
    if passed { 0 } else { 1 }
}
