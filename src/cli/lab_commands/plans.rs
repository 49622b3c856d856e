//! `capa-tui do`: shows the plan and the cluster it changes, asks (unless `--yes`), then runs
//! each lesson's plan, printing its progress.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};

use super::{Global, catalog, lang, pick_lessons, session};
use crate::i18n::{Lang, Say};
use crate::lab::catalog::Lesson;
use crate::lab::engine::{self, Progress, Runner};
use crate::lab::fit::Fit;
use crate::lab::spec::Step;
use crate::session::Session;
use crate::t;
use crate::{errln, out, outln};

pub async fn do_lessons(g: &Global, key: &str, yes: bool, timeout: u64) -> i32 {
    let lang = lang(g);
    let Ok(catalog) = catalog(g, lang) else {
        return 1;
    };
    let lessons = match pick_lessons(&catalog, key, lang) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let mut plans = Vec::new();
    for lesson in &lessons {
        match engine::plan(lesson) {
            Ok(steps) => plans.push((lesson, steps)),
            Err(e) => {
                errln!("capa-tui: {}", e.say(lang));
                return 1;
            }
        }
    }
    let s = match session(g, lang).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    print_plans(&s, &plans, lang);
    let code = match confirm(&s, yes, lang) {
        Ok(()) => {
            let runner = s.runner(catalog.clone(), lang, Duration::from_secs(timeout));
            run_plans(&runner, &plans, lang).await
        }
        Err(code) => code,
    };
    s.close().await;
    code
}

/// The target, the folders and every step with its command, before anything changes.
fn print_plans(s: &Session, plans: &[(&Lesson, Vec<Step>)], lang: Lang) {
    let fit = Fit::for_paths(&s.paths);
    outln!(
        "{}",
        t!(lang, "do-about-to-change", target = s.target.say(lang))
    );
    outln!(
        "{}",
        t!(
            lang,
            "do-folders",
            src = s.paths.src_dir.display().to_string(),
            bare = s.paths.bare_dir.display().to_string()
        )
    );
    for (lesson, steps) in plans {
        outln!(
            "\n{}",
            t!(
                lang,
                "do-lesson",
                lesson = lesson.spec.number.to_string(),
                title = lesson.title(lang)
            )
        );
        for (i, step) in steps.iter().enumerate() {
            outln!(
                "  {:>2}. {}\n      $ {}",
                i + 1,
                step.title().say(lang),
                step.command(&fit).say(lang)
            );
        }
    }
}

/// Asks before changing anything (unless `--yes`) and makes sure the source dir can be written;
/// `Err` carries the exit code.
fn confirm(s: &Session, yes: bool, lang: Lang) -> Result<(), i32> {
    if !yes {
        if !std::io::stdin().is_terminal() {
            errln!("\ncapa-tui: {}", t!(lang, "do-not-asking"));
            return Err(2);
        }
        // out! flushes, so the question shows before the answer is read.
        out!("\n{}", t!(lang, "do-go-ahead"));
        let mut answer = String::new();
        let _ = std::io::stdin().read_line(&mut answer);
        let yes_word = t!(lang, "do-answer-yes");
        if !matches!(answer.trim(), "y" | "Y" | "yes") && answer.trim() != yes_word {
            outln!("{}", t!(lang, "do-nothing-changed"));
            return Err(1);
        }
    }
    std::fs::create_dir_all(&s.paths.src_dir).map_err(|e| {
        errln!(
            "capa-tui: {}",
            t!(
                lang,
                "do-cannot-create-src",
                path = s.paths.src_dir.display().to_string(),
                why = e.to_string()
            )
        );
        1
    })
}

/// Runs the plans in order, printing progress, until one fails or Ctrl-C; the exit code.
async fn run_plans(runner: &Runner, plans: &[(&Lesson, Vec<Step>)], lang: Lang) -> i32 {
    let (cancel_tx, cancel_rx) = watch::channel(false);
    tokio::spawn(async move {
        super::super::cluster_commands::wait_for_stop_signal().await;
        let _ = cancel_tx.send(true);
    });
    for (lesson, steps) in plans {
        outln!(
            "\n== {}",
            t!(
                lang,
                "do-lesson",
                lesson = lesson.spec.number.to_string(),
                title = lesson.title(lang)
            )
        );
        let (tx, mut rx) = mpsc::unbounded_channel();
        let started = Instant::now();
        let (shown, fit) = (steps.clone(), runner.fit.clone());
        let printer = tokio::spawn(async move {
            while let Some(p) = rx.recv().await {
                match p {
                    Progress::Started { step, title } => {
                        let command = shown
                            .get(step - 1)
                            .map(|s| s.command(&fit).say(lang))
                            .unwrap_or_default();
                        outln!("[{step}] {}\n    $ {command}", title.say(lang));
                    }
                    Progress::Blocker { line, .. } => outln!("    … {}", line.say(lang)),
                    Progress::Done { summary, .. } => outln!("    ✓ {}", summary.say(lang)),
                    Progress::Failed { error, .. } => outln!("    ✗ {}", error.say(lang)),
                    Progress::StartedOver { why } => {
                        outln!("{}", t!(lang, "plan-started-over", why = why.say(lang)));
                    }
                }
            }
        });
        let result = runner
            .run(lesson.spec.number, steps, tx, cancel_rx.clone())
            .await;
        let _ = printer.await;
        if let Err(e) = result {
            // A missing prerequisite already names the lesson ("lesson 2 needs lesson 1").
            let said = match e {
                engine::RunError::Prerequisite { .. } => e.say(lang),
                _ => t!(
                    lang,
                    "do-lesson-failed",
                    lesson = lesson.spec.number.to_string(),
                    why = e.say(lang)
                ),
            };
            errln!("capa-tui: {said}");
            return if matches!(e, engine::RunError::Cancelled { .. }) {
                130
            } else {
                1
            };
        }
        let took = started.elapsed();
        let said = t!(
            lang,
            "do-lesson-done",
            lesson = lesson.spec.number.to_string(),
            seconds = format!("{:.1}", took.as_secs_f64())
        );
        outln!(
            "{}",
            crate::session::clock::took_on_both_clocks(lang, said, took, runner.clock.as_ref(), 1)
        );
    }
    0
}
