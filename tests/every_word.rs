//! Every word in the learner's language: each lesson's every part and every pane, at 120×40 and
//! 80×24, with the help, step mode, a prediction, a notice and failed self-checks on screen, in
//! each language other than English, hold none of the tutor's own English prose. What the
//! cluster said (recorded in the fixture) and Argo CD's own words may stay.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]
use capa_tui::tui::update::{InputMsg, LabMsg};
mod common;
use common::{english, scenes};

use capa_tui::i18n::Lang;
use capa_tui::lab::catalog::{Catalog, Section};
use capa_tui::lab::eval::check::{Grade, grade_lesson};
use capa_tui::lab::eval::context::Context;
use capa_tui::tui::state::{Pane, State, StateBuilder};
use capa_tui::tui::update::{Msg, update};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use serde_json::Value;
use strum::IntoEnumIterator;

use english::English;
use scenes::*;

/// A change to the recorded lab that shows a moment.
type Edit = fn(&mut Value);

/// The languages a learner may choose besides English.
fn other_languages() -> Vec<Lang> {
    Lang::all()
        .iter()
        .copied()
        .filter(|l| *l != Lang::FALLBACK)
        .collect()
}

/// The self-checks of every lesson, failing as they fail for a learner: evidence of the wrong
/// types, one file that is not JSON, and a cluster that does not answer. Their words are said
/// in the language each screen is drawn in.
fn failed_grades() -> Vec<Grade> {
    let catalog = Catalog::embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (i, lesson) in catalog.lessons().iter().enumerate() {
        let Some(spec) = &lesson.spec.evidence else {
            continue;
        };
        let body = if i % 2 == 0 {
            let wrong: serde_json::Map<String, Value> = spec
                .fields
                .iter()
                .map(|f| (f.name.clone(), Value::Bool(true)))
                .collect();
            Value::Object(wrong).to_string()
        } else {
            "not json {".to_string()
        };
        std::fs::write(dir.path().join(&spec.file), body).unwrap();
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let client =
            kube::Client::try_from(kube::Config::new("http://127.0.0.1:1".parse().unwrap()))
                .unwrap();
        let ctx = Context {
            client: &client,
            catalog: &catalog,
            src_dir: dir.path(),
            bare_dir: dir.path(),
            clock: None,
        };
        let mut grades = Vec::new();
        for lesson in catalog.lessons() {
            grades.push(grade_lesson(lesson, &ctx).await);
        }
        grades
    })
}

fn key(s: &mut State, code: KeyCode) {
    update(s, Msg::Input(InputMsg::Key(KeyEvent::from(code))));
}

/// The tutor's English found on screen, by screen, for the failure message.
struct Found(Vec<String>);

impl Found {
    fn read(&mut self, english: &English, what: &str, s: &State, (w, h): (u16, u16)) {
        let backend = draw(s, w, h);
        let screen = text_of(&backend);
        for (line, words) in english.lines_in(&screen) {
            self.0
                .push(format!("{what} at {w}x{h}: {words:?} in {line}"));
        }
        if !s.ui().panes.help && s.ui().confirm.is_none() && s.pending_question().is_none() {
            self.borders_intact(what, s, &backend, (w, h));
        }
    }

    /// Each pane's left and right border is whole: no line of text ran over it.
    fn borders_intact(&mut self, what: &str, s: &State, backend: &TestBackend, (w, h): (u16, u16)) {
        let buffer = backend.buffer();
        let areas = capa_tui::tui::layout::areas(s, Rect::new(0, 0, w, h));
        for (pane, rect) in areas.panes {
            for y in rect.top() + 1..rect.bottom().saturating_sub(1) {
                for x in [rect.left(), rect.right() - 1] {
                    let symbol = buffer[(x, y)].symbol();
                    if !["│", "┃", "║"].contains(&symbol) {
                        self.0.push(format!(
                            "{what} at {w}x{h}: {pane:?}'s border at ({x}, {y}) is {symbol:?}:\n{}",
                            text_of(backend)
                        ));
                        return;
                    }
                }
            }
        }
    }
}

/// The English a `lang` reader allows: the cluster's own words, in every scene shown.
fn english_for(lang: Lang) -> English {
    let mut english = English::for_language(lang.code());
    for edit in [mid_wave, failed_hook, retry_blocked] {
        let mut fx = recorded();
        edit(&mut fx);
        english.allow_json(&fx);
    }
    english.allow_json(&recorded());
    english
}

#[test]
fn no_screen_of_the_tutor_holds_its_own_english_in_another_language() {
    let mut found = Found(Vec::new());
    for lang in other_languages() {
        let english = english_for(lang);
        let grades = failed_grades();
        let catalog = Catalog::embedded().unwrap();
        let scenes: [(&str, Edit); 4] = [
            ("done", |_| {}),
            ("mid-wave", mid_wave),
            ("failed hook", failed_hook),
            ("retry trap", retry_blocked),
        ];
        for size in [(120, 40), (80, 24)] {
            for (i, lesson) in catalog.lessons().iter().enumerate() {
                for section in Section::iter() {
                    let mut s = scene(i, |_| {}).lang(lang).section(section).build();
                    update(&mut s, Msg::Lab(LabMsg::Graded(grades.clone())));
                    let what = format!("{lang} lesson {} {section:?}", lesson.spec.number);
                    found.read(&english, &what, &s, size);
                }
            }
            for (name, edit) in scenes {
                let lesson = if name == "done" { 1 } else { 5 };
                let at = |b: StateBuilder| b.lang(lang);
                for pane in Pane::iter() {
                    let s = at(scene(lesson, edit)).focus(pane).zoom(true).build();
                    found.read(&english, &format!("{lang} {name} {pane:?}"), &s, size);
                }
                let help = at(scene(lesson, edit)).help(true).build();
                found.read(&english, &format!("{lang} {name} help"), &help, size);
                // Step mode, presenting: every action's narration and its prediction.
                let mut s = at(scene(lesson, edit)).present(true).build();
                key(&mut s, KeyCode::Char('g'));
                for step in 0..10 {
                    found.read(&english, &format!("{lang} {name} step {step}"), &s, size);
                    key(&mut s, KeyCode::PageDown);
                }
                // "Do it for me" asks first.
                let mut s = at(scene(lesson, edit)).build();
                key(&mut s, KeyCode::Char('r'));
                found.read(&english, &format!("{lang} {name} confirm"), &s, size);
            }
        }
    }
    assert!(
        found.0.is_empty(),
        "the tutor's own English on {} screen lines:\n{}",
        found.0.len(),
        found.0.join("\n")
    );
}

/// The reader finds the tutor's English and lets pass what may stay.
#[test]
fn the_reader_finds_english_prose_and_lets_argo_cds_words_and_quotes_pass() {
    let zh = English::for_language("zh");
    assert!(
        !zh.lines_in("· the embedded lab cluster at https://x")
            .is_empty()
    );
    assert!(!zh.lines_in("下一步 next: 推送").is_empty());
    assert!(
        zh.lines_in("✓ Synced 已同步 · kubectl -n argocd get app src-helm")
            .is_empty()
    );
    assert!(
        zh.lines_in("提交 \"Add the web chart\"").is_empty(),
        "a quote"
    );
}

/// The CLI's output in each language: `lesson test`, `do all`, `status`, `check all`, `doctor`,
/// `config` and an error, on the embedded cluster. The cluster's own words (its objects' strings) may stay.
#[test]
fn no_command_prints_its_own_english_in_another_language() {
    use common::lab_cli::{capa, kubectl, text};
    let mut found = Vec::new();
    for lang in other_languages() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        let code = lang.code();
        let mut outputs = Vec::new();
        let lessons = concat!(env!("CARGO_MANIFEST_DIR"), "/lessons");
        for args in [
            // The lab made by `lesson test` (every self-check message of its broken evidence),
            // then `do all` on it (the plan, each step already done).
            &["lesson", "test", lessons][..],
            &["do", "all", "--yes"],
            &["status"],
            &["check", "all"],
            &["doctor"],
            &["config"],
            &["check", "99"],
        ] {
            let mut args = args.to_vec();
            args.extend(["--lang", code]);
            outputs.push((args.join(" "), text(&capa(&state, &args))));
        }
        let mut english = English::for_language(code);
        // What kubectl and Argo CD said while the plans ran (their messages of the moment).
        english.allow("deployment.apps/prod-api scaled");
        english.allow("waiting for completion of hook · waiting for healthy state of");
        // Lesson names as the CLI takes them, and its `all`.
        english.allow("all");
        for lesson in Catalog::embedded().unwrap().lessons() {
            english.allow(&lesson.spec.slug);
        }
        for kind in [
            "applications",
            "jobs",
            "deployments",
            "configmaps",
            "events",
        ] {
            let out = kubectl(&state, &["get", kind, "-A", "-o", "json"]);
            if let Ok(v) = serde_json::from_slice::<Value>(&out.stdout) {
                english.allow_json(&v);
            }
        }
        for (command, out) in outputs {
            for (line, words) in english.lines_in(&out) {
                found.push(format!("{code} `{command}`: {words:?} in {line}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the CLI's own English on {} lines:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// One lab's state said in every language, with nothing run again: lesson 6 with its plan run
/// (a step started, waited, done, and one failed) and its self-checks failed is built once, in
/// English. `L` says that same state in each other language, holding none of the tutor's own
/// English and asking nothing of the world, and back in English it is the screen it was.
#[test]
fn one_finished_lab_reads_in_every_language_without_running_anything_again() {
    use capa_tui::i18n::{Say, Words};
    use capa_tui::lab::engine::{self, Progress, RunError, StepError};
    use capa_tui::tui::state::JobFailure;
    use capa_tui::tui::update::JobMsg;

    let mut s = scene(5, failed_hook).lang(Lang::FALLBACK).build();
    update(&mut s, Msg::Lab(LabMsg::Graded(failed_grades())));
    key(&mut s, KeyCode::Char('r'));
    let steps = engine::plan(s.current().unwrap()).unwrap();
    let failure = std::sync::Arc::new(StepError::SyncFailed(
        "one or more synchronization tasks completed unsuccessfully".into(),
    ));
    for p in [
        Progress::Started {
            step: 1,
            title: steps[0].title(),
        },
        Progress::Blocker {
            step: 1,
            line: Words::of(Section::Hints),
        },
        Progress::Done {
            step: 1,
            summary: steps[0].title(),
        },
        Progress::Started {
            step: 2,
            title: steps[1].title(),
        },
        Progress::Failed {
            step: 2,
            error: Words::of(failure.clone()),
        },
    ] {
        update(&mut s, Msg::Job(JobMsg::Progress(p)));
    }
    let ended = RunError::Step {
        step: 2,
        title: steps[1].title(),
        source: failure.clone(),
    };
    update(&mut s, Msg::Job(JobMsg::Ended(Err(JobFailure::new(ended)))));
    let size = (120, 40);
    let english_screen = text_of(&draw(&s, size.0, size.1));
    let mut found = Found(Vec::new());
    for lang in other_languages() {
        let asked = update(
            &mut s,
            Msg::Input(InputMsg::Key(KeyEvent::from(KeyCode::Char('L')))),
        );
        assert!(asked.is_empty(), "saying it in {lang} asks for {asked:?}");
        assert_eq!(s.lang(), lang);
        let screen = text_of(&draw(&s, size.0, size.1));
        // A wide character's second cell reads as a space.
        let bare = |t: &str| t.replace([' ', '\n'], "");
        for said in [steps[1].title().say(lang), failure.say(lang)] {
            let start: String = bare(&said).chars().take(6).collect();
            assert!(
                bare(&screen).contains(&start),
                "{lang}: the plan's {start:?} is not on screen:\n{screen}"
            );
        }
        found.read(
            &english_for(lang),
            &format!("{lang} the same lab"),
            &s,
            size,
        );
    }
    key(&mut s, KeyCode::Char('L'));
    assert_eq!(s.lang(), Lang::FALLBACK, "L comes back to English");
    assert_eq!(text_of(&draw(&s, size.0, size.1)), english_screen);
    assert!(
        found.0.is_empty(),
        "the tutor's own English:\n{}",
        found.0.join("\n")
    );
}
