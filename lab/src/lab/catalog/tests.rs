//! The catalog's tests: a text's sections, and each lesson, action and text in every language.
use super::*;

#[test]
fn a_lesson_text_splits_into_its_six_sections() {
    let md = "# T\n## Goal\ng\n## Why\nw\n## Steps\n1. s\n## Mistakes\n- m\n## Hints\n1. first\n2. second\n## By hand\n```sh\nls\n```\n";
    let t = parse_text(md).unwrap();
    assert_eq!((t.goal.as_str(), t.why.as_str()), ("g", "w"));
    assert_eq!(t.hints, ["first", "second"]);
    assert!(t.by_hand.contains("ls"));
    assert!(parse_text("## Only one\n").is_err());
}

#[test]
fn every_action_of_every_lesson_is_narrated_in_every_language() {
    for lesson in Catalog::embedded().unwrap().lessons() {
        for (i, a) in lesson.spec.actions.iter().enumerate() {
            let say = a.say.as_ref().unwrap_or_else(|| {
                panic!(
                    "lesson {} action {} has no narration",
                    lesson.spec.number,
                    i + 1
                )
            });
            for &lang in Lang::all() {
                assert!(
                    say.has(lang),
                    "lesson {} action {} is not narrated in {lang}",
                    lesson.spec.number,
                    i + 1
                );
            }
        }
    }
}

#[test]
fn every_lesson_has_its_text_in_every_language() {
    for lesson in Catalog::embedded().unwrap().lessons() {
        for &lang in Lang::all() {
            assert!(
                lesson.texts.contains_key(lang.code()),
                "lesson {} has no {lang}.md",
                lesson.folder
            );
        }
    }
}

/// Every text of a lesson.yaml that is written per language (a checklist step, a rule's
/// `why`, a narration...) is there in every language the strings layer has: a language
/// added after a map was written would otherwise fall back to English without a word.
#[test]
fn every_language_keyed_text_in_every_lesson_yaml_has_every_language() {
    use serde_json::Value;

    fn walk(v: &Value, path: &str, missing: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                let is_localized = map.contains_key(Lang::FALLBACK.code())
                    && map
                        .keys()
                        .all(|k| Lang::all().iter().any(|l| l.code() == k));
                if is_localized {
                    for &lang in Lang::all() {
                        let text = map.get(lang.code()).and_then(Value::as_str);
                        if text.is_none_or(|t| t.trim().is_empty()) {
                            missing.push(format!("{path}: no {lang}"));
                        }
                    }
                    return;
                }
                for (k, x) in map {
                    let at = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(x, &at, missing);
                }
            }
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    walk(x, &format!("{path}[{i}]"), missing);
                }
            }
            _ => {}
        }
    }

    let files = embedded_under("lessons/");
    let mut yamls = 0;
    let mut missing = Vec::new();
    for (path, text) in &files {
        let Some(folder) = path.strip_suffix("/lesson.yaml") else {
            continue;
        };
        yamls += 1;
        let v: Value = serde_saphyr::from_str(text)
            .unwrap_or_else(|e| panic!("lesson {folder}: lesson.yaml: {e}"));
        let mut here = Vec::new();
        walk(&v, "", &mut here);
        missing.extend(here.into_iter().map(|m| format!("lesson {folder}: {m}")));
    }
    assert_eq!(yamls, Catalog::embedded().unwrap().lessons().len());
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn a_catalog_made_again_from_its_source_is_the_same_lab_anywhere() {
    // An adapted lab, for a learner: what a recorded session keeps to be replayed elsewhere.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/adapted-lab");
    let learner = Learner::parse("alice").unwrap();
    let made = Catalog::load_for(
        Some(&root.join("lessons")),
        Some(&root.join("repo-template")),
        Some(&learner),
    )
    .unwrap();
    let source = made.source().clone();
    assert!(source.lessons.is_some() && source.templates.is_some());
    assert_eq!(source.learner.as_deref(), Some("alice"));
    // Saved and read back, with the folders gone from where they were.
    let text = serde_json::to_string(&source).unwrap();
    let again = Catalog::from_source(serde_json::from_str(&text).unwrap()).unwrap();
    let titles = |c: &Catalog| -> Vec<String> {
        c.lessons()
            .iter()
            .map(|l| format!("{} {}", l.spec.number, l.text(Lang::FALLBACK).steps))
            .collect()
    };
    assert_eq!(titles(&again), titles(&made));
    assert_eq!(again.apps(), made.apps());
    assert!(
        again.apps().iter().all(|a| a.starts_with("alice-")),
        "{:?}",
        again.apps()
    );
    // The built-in lab keeps no files: a recording of it stays small.
    let builtin = Catalog::embedded().unwrap();
    assert_eq!(builtin.source(), &CatalogSource::default());
}
