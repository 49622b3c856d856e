//! `capa-tui lesson lint`: checks a folder of lessons without a cluster and reports every problem
//! at once, each at its file, line and column with what to do. It reads each `lesson.yaml` as a
//! tree that keeps positions (`tree`), parses each part into the spec types on its own so one
//! mistake does not hide the next (`shape`), then checks what the parts name against the
//! templates, the other lessons and the plan (`refs`, `reach`); and holds each translation
//! against `en.md` (`translations`) and each modeline's schema file (`modeline`).

mod facts;
mod modeline;
mod objects;
mod reach;
mod refs;
mod said;
mod shape;
mod spoilers;
pub mod translations;
pub mod tree;
mod values_in_text;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::i18n::{Lang, Say};
use crate::lab::catalog::{self, LetError, Section};
use crate::lab::spec::LessonSpec;
use crate::t;
pub use tree::Pos;

/// One problem, where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub file: PathBuf,
    pub at: Pos,
    pub finding: Finding,
}

/// What is wrong, typed; said in the author's language by [`Say`].
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// The YAML parser's own reason.
    Yaml {
        why: String,
    },
    UnknownField {
        field: String,
        expected: String,
    },
    /// A part that does not read as its type: serde's reason (one of ours, [`SpecError`], is
    /// said in the author's language; the parser's own stays as it said it, quoted).
    Shape {
        part: String,
        why: String,
    },
    /// A `let:` value that cannot be read from its file.
    Let {
        why: LetError,
    },
    UnknownName {
        name: String,
        known: String,
    },
    /// A text spells out a value `let:` reads from the templates: written `${name}`, it
    /// follows an adapted lab.
    LiteralValue {
        name: String,
        value: String,
    },
    /// A text still spells a value as the built-in templates set it, where the templates the
    /// lesson is linted with set another.
    OldValue {
        name: String,
        old: String,
        new: String,
    },
    NoTemplate {
        template: String,
    },
    TemplateNotListed {
        template: String,
    },
    NoAppFile {
        file: String,
    },
    UnknownApp {
        app: String,
        known: String,
    },
    UnknownNamespace {
        namespace: String,
        known: String,
    },
    /// No Application of the templates deploys this object, though they deploy others of its
    /// kind there.
    UnknownObject {
        object: String,
        known: String,
    },
    NoEvidenceField {
        field: String,
        file: String,
    },
    NoEvidenceFile {
        file: String,
    },
    NotOwnEvidence {
        file: String,
        own: String,
    },
    NoLesson {
        number: u8,
    },
    NeedsLesson {
        what: String,
        lesson: Option<u8>,
    },
    Unreachable {
        condition: String,
        needs: Needs,
    },
    ValueDiffers {
        file: String,
        path: String,
        found: String,
    },
    /// The Application files the lesson applies do not hold a `has:`: the first field they
    /// lack (`destination.namespace`) and what `has:` wants there.
    AppSpecDiffers {
        app: String,
        at: String,
        field: String,
        wants: String,
    },
    Hint {
        hint: usize,
        count: usize,
    },
    /// Narration on screen while step mode asks a question names one of its answers.
    NarrationGivesAway {
        choice: String,
        code: String,
    },
    /// Step mode asks a question after an earlier action already set off the sync that
    /// answers it: the room can watch the answer arrive before it predicts.
    AskedAfterItStarted {
        /// The action (1-based) that set it off, and what it does.
        action: usize,
        does: String,
    },
    NoLanguage {
        code: String,
    },
    /// The file is not UTF-8 from the finding's place on (read as nothing, it hid its lesson).
    NotText,
    /// The file is there but cannot be read (a FIFO, too big, no permission): the reader's why.
    CannotRead {
        why: String,
    },
    Sections {
        code: String,
        found: usize,
    },
    MissingText {
        code: String,
    },
    SameNumber {
        number: u8,
        other: String,
    },
    /// A translation (`code`.md) says otherwise than en.md in a section.
    Translation {
        code: String,
        section: Section,
        differs: translations::Differs,
    },
    /// The modeline names a schema file that is not there (`path`, as the author would write
    /// it).
    NoSchema {
        schema: String,
        path: String,
    },
}

/// The action a plan lacks to make a condition true: what to write under `actions:`.
#[derive(Debug, Clone, PartialEq)]
pub enum Needs {
    /// An action said as the YAML says it (`do: wait (until: succeeded)`).
    Action(&'static str),
    /// `write-templates` with a template that has the file and value, then `commit-push`.
    WriteAndPush,
    /// `apply-app` with an Application file that holds the condition's `has:`.
    ApplyApp,
    /// `hold-after-scale` for at least as many seconds.
    Hold,
}

impl Problem {
    /// `file:line:column: what is wrong, and what to do`.
    pub fn line(&self, lang: Lang) -> String {
        format!(
            "{}:{}:{}: {}",
            self.file.display(),
            self.at.line,
            self.at.column,
            self.finding.say(lang)
        )
    }
}

/// What `lint` found in a folder.
#[derive(Debug, Default)]
pub struct Report {
    pub lessons: usize,
    pub problems: Vec<Problem>,
}

/// Why `lint` could not start: nothing there to read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LintError {
    #[error("{0}: no lesson.yaml here or in its folders")]
    NoLessons(PathBuf),
    /// A template file that cannot be read as text: the reader's words (a path, a line).
    #[error("{0}")]
    Templates(String),
}

impl Say for LintError {
    fn say(&self, lang: Lang) -> String {
        match self {
            LintError::NoLessons(p) => t!(lang, "lint-no-lessons", path = p.display().to_string()),
            LintError::Templates(why) => t!(lang, "lint-templates-unreadable", why = why.as_str()),
        }
    }
}

/// Where a lesson file that did not read went wrong, and the finding that says why.
pub(crate) fn unreadable(e: &crate::lab::files::TextError) -> (Pos, Finding) {
    use crate::lab::files::TextError;
    match e {
        TextError::NotText { line, column, .. } => (
            Pos {
                line: *line as u64,
                column: *column as u64,
            },
            Finding::NotText,
        ),
        TextError::Read(r) => (
            Pos { line: 1, column: 1 },
            Finding::CannotRead { why: r.to_string() },
        ),
    }
}

/// A lesson folder as lint reads it: its `lesson.yaml` (text and tree) and what parsed.
pub(crate) struct Folder {
    pub name: String,
    pub yaml_path: PathBuf,
    pub tree: Option<tree::Node>,
    pub spec: Option<LessonSpec>,
    pub values: BTreeMap<String, serde_json::Value>,
}

/// Lints `path`: a folder of lesson folders, one lesson folder, or a `lesson.yaml`; the lesson
/// files are read from `templates` (laid out like `repo-template/`; the built-in ones if `None`).
pub fn lint(path: &Path, templates: Option<&Path>) -> Result<Report, LintError> {
    let dirs = lesson_dirs(path);
    if dirs.is_empty() {
        return Err(LintError::NoLessons(path.to_path_buf()));
    }
    // Lessons linted with other templates are also read against the built-in ones, to find a
    // text that still spells a value the old way.
    let builtin = templates.map(|_| catalog::builtin_templates());
    let templates =
        catalog::load_templates(templates).map_err(|e| LintError::Templates(e.to_string()))?;
    let mut problems = Vec::new();
    let mut folders: Vec<Folder> = dirs
        .iter()
        .map(|d| shape::read(d, &templates, &mut problems))
        .collect();
    // The lessons beside the one linted count as its neighbours (for `requires:` and evidence).
    let mut neighbours: Vec<Folder> = Vec::new();
    if path.is_file() || path.join("lesson.yaml").is_file() {
        let dir = if path.is_file() {
            path.parent()
        } else {
            Some(path)
        };
        if let Some(parent) = dir.and_then(Path::parent) {
            let mut ignore = Vec::new();
            for d in lesson_dirs(parent) {
                if !dirs.contains(&d) {
                    neighbours.push(shape::read(&d, &templates, &mut ignore));
                }
            }
        }
    }
    let lessons = folders.len();
    let all: Vec<&Folder> = folders.iter().chain(neighbours.iter()).collect();
    for f in &folders {
        refs::check(f, &all, &templates, &mut problems);
        reach::check(f, &all, &templates, &mut problems);
        spoilers::check(f, &mut problems);
        values_in_text::check(f, builtin.as_deref(), &mut problems);
        modeline::check(&f.yaml_path, &mut problems);
        if let Some(dir) = f.yaml_path.parent() {
            translations::check(dir, &mut problems);
        }
    }
    numbers(&folders, &mut problems);
    folders.clear();
    problems.sort_by(|a, b| (&a.file, a.at).cmp(&(&b.file, b.at)));
    problems.dedup();
    Ok(Report { lessons, problems })
}

/// The lesson folders `path` names.
fn lesson_dirs(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return path.parent().map(Path::to_path_buf).into_iter().collect();
    }
    if path.join("lesson.yaml").is_file() {
        return vec![path.to_path_buf()];
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(path)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("lesson.yaml").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn numbers(folders: &[Folder], problems: &mut Vec<Problem>) {
    let mut seen: BTreeMap<u8, &str> = BTreeMap::new();
    for f in folders {
        let Some(spec) = &f.spec else { continue };
        if let Some(other) = seen.insert(spec.number.0, &f.name) {
            let at = f
                .tree
                .as_ref()
                .and_then(|t| t.entry("number"))
                .map_or(Pos::default(), |(k, _)| k.at);
            problems.push(Problem {
                file: f.yaml_path.clone(),
                at,
                finding: Finding::SameNumber {
                    number: spec.number.0,
                    other: other.to_string(),
                },
            });
        }
    }
}

#[cfg(test)]
mod tests;
