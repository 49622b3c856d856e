//! One lesson in every language: each translation says en's code, commands, numbers and hints
//! (held by `capa-tui lesson lint`, so an instructor's lessons are held the same way), and the
//! settings "Common mistakes" names are ones the Steps ask for.

use std::path::{Path, PathBuf};

use capa_tui::i18n::{Lang, Say};
use capa_tui::lab::catalog::{Catalog, Section, Text};
use capa_tui::lab::lint::translations::{code_blocks, inline_code, prose};
use capa_tui::lab::lint::{self, Finding};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// An inline `key: value` setting, such as `backoffLimit: 0` or `selfHeal: true`.
fn is_setting(token: &str) -> bool {
    token.split_once(": ").is_some_and(|(key, value)| {
        key.starts_with(|c: char| c.is_ascii_alphabetic())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
            && !value.trim().is_empty()
    })
}

/// Settings that "Common mistakes" names and "By hand" writes, but the Steps never ask for.
fn settings_missing_from_steps(folder: &str, lang: &str, text: &Text) -> Vec<String> {
    let by_hand: Vec<String> = code_blocks(&text.by_hand).into_iter().flatten().collect();
    inline_code(&prose(&text.mistakes))
        .into_iter()
        .filter(|t| is_setting(t) && by_hand.iter().any(|l| l.contains(t.as_str())))
        .filter(|t| !text.steps.contains(t.as_str()))
        .map(|t| {
            format!(
                "lesson {folder}, {lang}.md: \"{}\" names `{t}`, which \"{}\" writes, but \"{}\" never asks for it",
                Section::Mistakes.say(Lang::FALLBACK),
                Section::ByHand.say(Lang::FALLBACK),
                Section::Steps.say(Lang::FALLBACK),
            )
        })
        .collect()
}

/// Issue 31, item 8, now held by lint (issue 35, item 6: `lab/src/lab/lint/translations.rs`). For
/// every lesson folder and every language besides English, held against `en.md`: the six
/// sections; per section, the fenced code blocks (their comments aside, which are translated),
/// the numbers said outside code, the inline code spans (the words inside a `<placeholder>`
/// aside) and the `${name}`s; and the number of hints and of numbered steps.
///
/// And in every language, a setting (an inline `key: value`, such as lesson 5's
/// `backoffLimit: 0`) that "Common mistakes" names and "By hand" writes is one the Steps ask
/// for. The broader rule, every inline-code token of the mistakes in the Steps, does not hold
/// and should not: a mistake also names the wrong value (`master`,
/// `charts/web/values-prod.yaml`, `git revert`), the error it causes, or a command for checking
/// (`kubectl kustomize`), none of which the Steps ask the learner to write. The texts for this
/// are read by the tutor's own loader (`Catalog::load`), as a learner sees them.
#[test]
fn every_lesson_says_the_same_code_sections_hints_numbers_and_commands_in_every_language() {
    let lessons = root().join("lessons");
    let templates = root().join("repo-template");
    let report = lint::lint(&lessons, Some(&templates)).unwrap();
    assert_eq!(report.lessons, 8);
    let mut problems: Vec<String> = report
        .problems
        .iter()
        .filter(|p| {
            matches!(
                p.finding,
                Finding::Translation { .. } | Finding::NoLanguage { .. } | Finding::Sections { .. }
            )
        })
        .map(|p| p.line(Lang::FALLBACK))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    let catalog = Catalog::load(Some(&lessons), Some(&templates))
        .unwrap_or_else(|e| panic!("the lessons load: {e}"));
    assert!(!catalog.lessons().is_empty(), "there are lessons");
    for lesson in catalog.lessons() {
        for (lang, text) in &lesson.texts {
            problems.extend(settings_missing_from_steps(&lesson.folder, lang, text));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The settings rule catches a setting that one language's Steps leave out (so that a green run
/// of the test above is not a blind one; lint's own tests do the same for the translations).
#[test]
fn the_settings_rule_sees_a_setting_the_steps_leave_out() {
    let en = Text {
        goal: "Scale to 4.".into(),
        steps: "1. Write a Job with `backoffLimit: 0`.".into(),
        mistakes: "- Leaving out `backoffLimit: 0`.\n- Pushing to `master`.".into(),
        by_hand: "```sh\ncat <<EOF   # the Job\nbackoffLimit: 0\nEOF\n```".into(),
        ..Text::default()
    };
    assert_eq!(
        settings_missing_from_steps("99-x", "en", &en),
        Vec::<String>::new()
    );
    let drifted = Text {
        steps: "1. Job을 작성합니다.".into(),
        ..en
    };
    let missing = settings_missing_from_steps("99-x", "ko", &drifted);
    assert_eq!(missing.len(), 1, "{missing:#?}");
    assert!(missing[0].contains("`backoffLimit: 0`"), "{missing:#?}");
}
