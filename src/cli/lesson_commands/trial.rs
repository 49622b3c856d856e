//! `capa-tui lesson test DIR [LESSON]`: lints the lessons, starts a fresh embedded cluster, runs
//! each lesson's plan (a named lesson with the lessons it requires) timing every step, grades the
//! evidence, and grades the broken copies the rules must refuse; at the end every lesson is
//! graded again, as the lab's grader would. Exit code 1 on any failure.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};

use super::super::Global;
use crate::i18n::Words;
use crate::i18n::{Lang, Say};
use crate::lab::catalog::{Catalog, Lesson};
use crate::lab::engine::{self, Progress, Runner};
use crate::lab::eval::check::{self, Grade};
use crate::lab::spec::LessonId;
use crate::lab::trial::{self, Breakage, Refusal};
use crate::session::{Options, Session};
use crate::t;
use crate::{errln, outln};

/// The clock speed a test runs the cluster at unless `--speed` says otherwise: lesson 7's hold
/// and lesson 6's retries take minutes in real time.
pub const TEST_SPEED: f64 = 10.0;

/// What a test run counts, for the last line.
#[derive(Default)]
struct Tally {
    steps: usize,
    grades: usize,
    grades_failed: usize,
    broken: usize,
    accepted: usize,
}

impl Tally {
    fn failed(&self) -> bool {
        self.grades_failed > 0 || self.accepted > 0
    }
}

pub async fn test(g: &Global, dir: &Path, key: Option<&str>, timeout: u64, lang: Lang) -> i32 {
    if super::lint_command(dir, g.templates.as_deref(), lang) != 0 {
        errln!("capa-tui: {}", t!(lang, "lesson-test-lint-first"));
        return 1;
    }
    let catalog = match Catalog::load(Some(dir), g.templates.as_deref()) {
        Ok(c) => Arc::new(c),
        Err(e) => {
            errln!("capa-tui: {e}");
            return 1;
        }
    };
    let lessons = match chosen(&catalog, key, lang) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let (state, scratch) = match state_dir(g.state_dir.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            errln!(
                "capa-tui: {}",
                t!(lang, "lesson-test-no-state", why = e.to_string())
            );
            return 1;
        }
    };
    let speed = g.speed.unwrap_or(TEST_SPEED);
    let s = match fresh_lab(&state, speed, lang).await {
        Ok(s) => s,
        Err(code) => return code,
    };
    outln!(
        "{}\n",
        t!(
            lang,
            "lesson-test-start",
            lessons = (lessons.len() as u64),
            dir = dir.display().to_string(),
            speed = speed.to_string(),
            state = state.display().to_string()
        )
    );
    let runner = s.runner(catalog.clone(), lang, Duration::from_secs(timeout));
    let started = Instant::now();
    let mut tally = Tally::default();
    let ran = run_all(&runner, &lessons, &mut tally, lang).await;
    if ran.is_ok() {
        outln!("\n== {}", t!(lang, "lesson-test-at-the-end"));
        let ctx = runner.context();
        for lesson in &lessons {
            let grade = check::grade_lesson(lesson, &ctx).await;
            say_grade(lesson, &grade, &mut tally, lang);
        }
    }
    s.close().await;
    let failed = ran.is_err() || tally.failed();
    report(lessons.len(), &tally, started, failed, lang);
    if !failed {
        return 0;
    }
    outln!(
        "{}",
        t!(
            lang,
            "lesson-test-kept",
            state = state.display().to_string()
        )
    );
    // The lab stays for a look, even in a scratch folder.
    if let Some(scratch) = scratch {
        let _ = scratch.keep();
    }
    1
}

/// A new embedded cluster on `state`; a lab already there is moved aside, never tested on.
async fn fresh_lab(state: &Path, speed: f64, lang: Lang) -> Result<Session, i32> {
    let options = Options {
        sim: true,
        speed,
        state_dir: Some(state),
        kubeconfig: None,
        context: None,
        src_dir: None,
        bare_dir: None,
        fresh: true,
        learner: None,
    };
    let s = Session::open(options).await.map_err(|e| {
        errln!("capa-tui: {}", e.say(lang));
        1
    })?;
    for line in s.started.lines(lang) {
        errln!("capa-tui: {line}");
    }
    Ok(s)
}

/// The last line: what ran, how long it took, and what passed and was refused.
fn report(lessons: usize, tally: &Tally, started: Instant, failed: bool, lang: Lang) {
    let seconds = format!("{:.1}", started.elapsed().as_secs_f64());
    let summary = t!(
        lang,
        "lesson-test-summary",
        lessons = (lessons as u64),
        steps = (tally.steps as u64),
        seconds = seconds,
        grades = ((tally.grades - tally.grades_failed) as u64),
        graded = (tally.grades as u64),
        refused = ((tally.broken - tally.accepted) as u64),
        broken = (tally.broken as u64)
    );
    outln!("\n{} {summary}", if failed { "✗" } else { "✓" });
}

/// The lessons to run, in order: all of them, or the named one with every lesson it requires
/// (and they require), so its plan finds what it builds on.
fn chosen(catalog: &Catalog, key: Option<&str>, lang: Lang) -> Result<Vec<Lesson>, i32> {
    let Some(key) = key.filter(|k| *k != "all") else {
        return Ok(catalog.lessons().to_vec());
    };
    let named = super::super::lab_commands::pick_lessons(catalog, key, lang)?;
    let Some(lesson) = named.first() else {
        return Ok(Vec::new());
    };
    let mut needed = BTreeSet::new();
    let mut todo = vec![lesson.spec.number];
    while let Some(id) = todo.pop() {
        if needed.insert(id)
            && let Some(l) = catalog.lesson(id)
        {
            todo.extend(l.spec.requires.iter().map(|r| r.lesson));
        }
    }
    Ok(catalog
        .lessons()
        .iter()
        .filter(|l| needed.contains(&l.spec.number))
        .cloned()
        .collect())
}

/// `--state-dir`, else a new scratch folder (removed after a run that passes).
fn state_dir(given: Option<&Path>) -> std::io::Result<(PathBuf, Option<tempfile::TempDir>)> {
    if let Some(dir) = given {
        return Ok((dir.to_path_buf(), None));
    }
    let scratch = tempfile::Builder::new()
        .prefix("capa-lesson-test-")
        .tempdir()?;
    Ok((scratch.path().join("lab"), Some(scratch)))
}

/// Each lesson in turn: its plan, its self-check, the broken copies of its evidence. Stops at
/// a plan that fails, since the lessons after it build on it.
async fn run_all(
    runner: &Runner,
    lessons: &[Lesson],
    tally: &mut Tally,
    lang: Lang,
) -> Result<(), ()> {
    let (cancel_tx, cancel_rx) = watch::channel(false);
    tokio::spawn(async move {
        super::super::cluster_commands::wait_for_stop_signal().await;
        let _ = cancel_tx.send(true);
    });
    for lesson in lessons {
        outln!(
            "== {}",
            t!(
                lang,
                "do-lesson",
                lesson = lesson.spec.number.to_string(),
                title = lesson.title(lang)
            )
        );
        let steps = engine::plan(lesson).map_err(|e| errln!("capa-tui: {}", e.say(lang)))?;
        tally.steps += steps.len();
        let (tx, rx) = mpsc::unbounded_channel();
        let printer = tokio::spawn(print_timed(rx, lang));
        let result = runner
            .run(lesson.spec.number, &steps, tx, cancel_rx.clone())
            .await;
        let _ = printer.await;
        if let Err(e) = result {
            outln!(
                "  ✗ {}",
                t!(
                    lang,
                    "do-lesson-failed",
                    lesson = lesson.spec.number.to_string(),
                    why = e.say(lang)
                )
            );
            tally.grades += 1;
            tally.grades_failed += 1;
            return Err(());
        }
        let ctx = runner.context();
        let grade = check::grade_lesson(lesson, &ctx).await;
        say_grade(lesson, &grade, tally, lang);
        match trial::try_broken(lesson, &ctx).await {
            Ok(refusals) => {
                for r in &refusals {
                    say_refusal(lesson.spec.number, r, tally, lang);
                }
            }
            Err(e) => {
                outln!("  ✗ {}", e.say(lang));
                tally.grades_failed += 1;
                return Err(());
            }
        }
    }
    Ok(())
}

/// A plan's progress, one line a step once it ends, with how long it took.
async fn print_timed(mut rx: mpsc::UnboundedReceiver<Progress>, lang: Lang) {
    let mut began = Instant::now();
    let mut titles = std::collections::HashMap::new();
    while let Some(p) = rx.recv().await {
        let (ok, step, said) = match p {
            Progress::Started { step, title, .. } => {
                began = Instant::now();
                titles.insert(step, title);
                continue;
            }
            Progress::StartedOver { why } => {
                outln!("  ↻ {}", t!(lang, "plan-started-over", why = why.say(lang)));
                continue;
            }
            Progress::Blocker { .. } => continue,
            Progress::Done { step, summary } => (true, step, summary),
            Progress::Failed { step, error } => (false, step, error),
        };
        outln!(
            "  {} {}",
            if ok { "✓" } else { "✗" },
            t!(
                lang,
                "lesson-test-step",
                step = (step as u64),
                title = titles
                    .remove(&step)
                    .map_or_else(String::new, |t: Words| t.say(lang)),
                seconds = format!("{:.1}", began.elapsed().as_secs_f64()),
                summary = said.say(lang)
            )
        );
    }
}

fn say_grade(lesson: &Lesson, grade: &Grade, tally: &mut Tally, lang: Lang) {
    tally.grades += 1;
    let what = if grade.file.is_empty() {
        t!(lang, "check-steps")
    } else {
        grade.file.clone()
    };
    let lesson_no = lesson.spec.number.to_string();
    if grade.passed() {
        outln!(
            "  ✓ {}",
            t!(lang, "lesson-test-passes", lesson = lesson_no, what = what)
        );
        return;
    }
    tally.grades_failed += 1;
    outln!(
        "  ✗ {}",
        t!(lang, "lesson-test-fails", lesson = lesson_no, what = what)
    );
    for f in grade.findings.iter().filter(|f| !f.ok) {
        outln!("      ✗ {}", f.what.say(lang));
    }
}

fn say_refusal(lesson: LessonId, r: &Refusal, tally: &mut Tally, lang: Lang) {
    tally.broken += 1;
    let what = broken_words(&r.broken.how, lang);
    if r.refused {
        outln!("  ✓ {}", t!(lang, "lesson-test-refuses", what = what));
        if let Some(why) = &r.why {
            outln!(
                "      {}",
                t!(lang, "lesson-test-learner-reads", why = why.what.say(lang))
            );
        }
    } else {
        tally.accepted += 1;
        outln!(
            "  ✗ {}",
            t!(
                lang,
                "lesson-test-accepts",
                what = what,
                lesson = lesson.to_string()
            )
        );
    }
}

/// What was broken, in words.
fn broken_words(how: &Breakage, lang: Lang) -> String {
    match how {
        Breakage::WrongType { field, value } => t!(
            lang,
            "lesson-test-wrong-type",
            field = field.as_str(),
            value = value.to_string()
        ),
        Breakage::OneOff { field, value } => t!(
            lang,
            "lesson-test-one-off",
            field = field.as_str(),
            value = value.to_string()
        ),
        Breakage::Crosses { field, value, rule } => t!(
            lang,
            "lesson-test-crosses",
            field = field.as_str(),
            value = value.to_string(),
            rule = rule.to_string()
        ),
        Breakage::Earlier { file, field } => t!(
            lang,
            "lesson-test-earlier",
            file = file.as_str(),
            field = field.as_str()
        ),
    }
}
