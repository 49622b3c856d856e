//! `capa-tui lesson new NAME`: a lesson folder from a commented skeleton that lints clean, so an
//! author starts from something that runs and changes it one field at a time. The skeleton is
//! data (`assets/skeleton/`: `lesson.yaml` and one `<code>.md` per language), so a language adds
//! a file there, not code.

use std::path::Path;

use crate::i18n::Lang;
use crate::lab::spec::schema::{MODELINE, SCHEMA_FILE};
use crate::t;
use crate::{errln, outln};

/// A skeleton file, from `assets/skeleton/` as built into the binary.
fn skeleton_file(name: &str) -> Option<&'static str> {
    let path = format!("assets/skeleton/{name}");
    crate::embedded::FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, text)| *text)
}

/// The skeleton's `lesson.yaml` (`assets/skeleton/lesson.yaml`); `{number}`, `{slug}` and
/// `{modeline}` are filled in.
fn lesson_yaml() -> &'static str {
    skeleton_file("lesson.yaml").unwrap_or_default()
}

/// The six sections every lesson text has, in `lang`'s words (`assets/skeleton/<code>.md`;
/// English for a language that has none yet, as the strings fall back).
fn text(lang: Lang) -> &'static str {
    skeleton_file(&format!("{}.md", lang.code()))
        .or_else(|| skeleton_file(&format!("{}.md", Lang::FALLBACK.code())))
        .unwrap_or_default()
}

/// `NN-slug` → (NN, slug).
fn parse_name(name: &str) -> Option<(u8, &str)> {
    let (number, slug) = name.split_once('-')?;
    let ok_slug = !slug.is_empty()
        && slug.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        });
    (number.len() == 2 && ok_slug)
        .then(|| number.parse().ok())
        .flatten()
        .map(|n| (n, slug))
}

/// Makes `<dir>/<name>/`; returns the exit code after saying what it made or why not.
pub fn new(name: &str, dir: &Path, lang: Lang) -> i32 {
    let Some((number, slug)) = parse_name(name) else {
        errln!("capa-tui: {}", t!(lang, "lesson-new-bad-name", name = name));
        return 2;
    };
    let folder = dir.join(name);
    if folder.exists() {
        errln!(
            "capa-tui: {}",
            t!(
                lang,
                "lesson-new-exists",
                dir = folder.display().to_string()
            )
        );
        return 2;
    }
    let mut files = vec![(
        folder.join("lesson.yaml"),
        lesson_yaml()
            .replace("{modeline}", MODELINE)
            .replace("{number}", &number.to_string())
            .replace("{slug}", slug),
    )];
    for &l in Lang::all() {
        files.push((folder.join(format!("{}.md", l.code())), text(l).to_string()));
    }
    // The modeline points at the schema in the folder of lessons, as every lesson's does: it
    // is written there unless it is there already.
    if !dir.join(SCHEMA_FILE).exists() {
        files.push((
            dir.join(SCHEMA_FILE),
            crate::lab::spec::schema::lesson_schema_text(),
        ));
    }
    for (path, text) in &files {
        if let Err(e) = crate::lab::files::write_atomic(path, text) {
            errln!(
                "capa-tui: {}",
                t!(
                    lang,
                    "lesson-new-cannot-write",
                    path = path.display().to_string(),
                    why = e.to_string()
                )
            );
            return 1;
        }
    }
    // Every file written, the schema beside the lessons too: an author who copies the lesson
    // elsewhere knows what its modeline needs.
    let dir_shown = folder.display().to_string();
    outln!("{}", t!(lang, "lesson-new-made", dir = dir_shown.clone()));
    for (path, _) in &files {
        if path.ends_with(SCHEMA_FILE) {
            outln!(
                "  {}  ({})",
                path.display(),
                t!(lang, "lesson-new-schema-note")
            );
        } else {
            outln!("  {}", path.display());
        }
    }
    outln!("{}", t!(lang, "lesson-new-lint", dir = dir_shown));
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_two_digits_and_a_slug() {
        assert_eq!(parse_name("09-greeting"), Some((9, "greeting")));
        assert_eq!(parse_name("12-read-it-back"), Some((12, "read-it-back")));
        assert_eq!(parse_name("greeting"), None);
        assert_eq!(parse_name("9-greeting"), None);
        assert_eq!(parse_name("09-Greeting"), None);
        assert_eq!(parse_name("09-"), None);
    }

    /// Each language has the skeleton's text of its own (`assets/skeleton/<code>.md`) and its
    /// words in every map of the skeleton's `lesson.yaml`.
    #[test]
    fn every_language_has_its_skeleton_text() {
        let yaml = lesson_yaml();
        for &l in Lang::all() {
            let code = l.code();
            assert!(
                skeleton_file(&format!("{code}.md")).is_some(),
                "no assets/skeleton/{code}.md"
            );
            let maps = yaml.matches("en: \"").count();
            assert_eq!(
                yaml.matches(&format!("{code}: \"")).count(),
                maps,
                "assets/skeleton/lesson.yaml: a map without {code}:"
            );
        }
    }

    /// The skeleton lints clean on its own and beside the built-in lessons, and the catalog loads
    /// it.
    #[test]
    fn the_skeleton_lints_clean_alone_and_beside_the_lessons() {
        let alone = tempfile::tempdir().unwrap();
        assert_eq!(new("09-greeting", alone.path(), Lang::FALLBACK), 0);
        let report = crate::lab::lint::lint(alone.path(), None).unwrap();
        let said: Vec<String> = report
            .problems
            .iter()
            .map(|p| p.line(Lang::FALLBACK))
            .collect();
        assert!(said.is_empty(), "{}", said.join("\n"));
        assert_eq!(report.lessons, 1);
        let c = crate::lab::catalog::Catalog::load(Some(alone.path()), None).unwrap();
        let l = c.find("greeting").unwrap();
        assert_eq!(
            l.spec.checklist[2].step.get(Lang::FALLBACK),
            "The greeting reads from-values-file"
        );
        assert_eq!(
            new("09-greeting", alone.path(), Lang::FALLBACK),
            2,
            "it is there already"
        );

        let beside = tempfile::tempdir().unwrap();
        let lessons = beside.path().join("lessons");
        for (path, text) in crate::embedded::FILES {
            if let Some(rel) = path.strip_prefix("lessons/") {
                crate::lab::files::write_atomic(&lessons.join(rel), text).unwrap();
            }
        }
        assert_eq!(new("09-greeting", &lessons, Lang::FALLBACK), 0);
        let report = crate::lab::lint::lint(&lessons, None).unwrap();
        let said: Vec<String> = report
            .problems
            .iter()
            .map(|p| p.line(Lang::FALLBACK))
            .collect();
        assert!(said.is_empty(), "{}", said.join("\n"));
        assert_eq!(report.lessons, 9);
    }
}
