//! `capa-tui lesson lint|schema|new|test`: the commands for instructors who adapt the lab or write
//! lessons. They print what `lab::lint`, the spec's schema and a test run on a fresh embedded
//! cluster (`lab::trial`) report, in the user's language.

mod skeleton;
mod trial;

use std::path::Path;

use super::{Global, LessonCommand};
use crate::i18n::{Lang, Say};
use crate::lab::lint;
use crate::t;
use crate::{errln, out, outln};

pub async fn run(g: &Global, command: LessonCommand) -> i32 {
    let lang = super::lab_commands::lang(g);
    match command {
        LessonCommand::Lint { path } => lint_command(&path, g.templates.as_deref(), lang),
        LessonCommand::Schema => {
            out!("{}", crate::lab::spec::schema::lesson_schema_text());
            0
        }
        LessonCommand::New { name, dir } => {
            skeleton::new(&name, dir.as_deref().unwrap_or(Path::new(".")), lang)
        }
        LessonCommand::Test {
            path,
            lesson,
            timeout,
        } => trial::test(g, &path, lesson.as_deref(), timeout, lang).await,
    }
}

/// Prints every problem `lint` finds in `path`; exit code 1 when there is one.
pub fn lint_command(path: &Path, templates: Option<&Path>, lang: Lang) -> i32 {
    match lint::lint(path, templates) {
        Err(e) => {
            errln!("capa-tui: {}", e.say(lang));
            2
        }
        Ok(report) => {
            for p in &report.problems {
                outln!("{}", p.line(lang));
            }
            let lessons = report.lessons as u64;
            if report.problems.is_empty() {
                outln!("{}", t!(lang, "lint-clean", lessons = lessons));
                0
            } else {
                let problems = report.problems.len() as u64;
                outln!(
                    "{}",
                    t!(
                        lang,
                        "lint-problems",
                        problems = problems,
                        lessons = lessons
                    )
                );
                1
            }
        }
    }
}
