//! `capa-tui lesson lint`: checks a folder of lessons without a cluster and reports every problem
//! at once, each at its file, line and column with what to do. It reads each `lesson.yaml` as a
//! tree that keeps positions (`tree`), parses each part into the spec types on its own so one
//! mistake does not hide the next (`shape`), then checks what the parts name against the
//! templates, the other lessons and the plan (`refs`, `reach`).

mod facts;
mod objects;
mod reach;
mod refs;
mod shape;
pub mod tree;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::i18n::{Lang, Say};
use crate::lab::catalog::{self, LetError};
use crate::lab::spec::{LessonSpec, SpecError};
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
    AppSpecDiffers {
        app: String,
        at: String,
    },
    Hint {
        hint: usize,
        count: usize,
    },
    NoLanguage {
        code: String,
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

impl Say for Needs {
    fn say(&self, lang: Lang) -> String {
        match self {
            Needs::Action(yaml) => (*yaml).to_string(),
            Needs::WriteAndPush => t!(lang, "lint-needs-write-push"),
            Needs::ApplyApp => t!(lang, "lint-needs-apply-app"),
            Needs::Hold => t!(lang, "lint-needs-hold"),
        }
    }
}

impl Say for Finding {
    fn say(&self, lang: Lang) -> String {
        let s = |x: &str| x.to_string();
        match self {
            Finding::Yaml { why } => t!(lang, "lint-yaml", why = s(why)),
            Finding::UnknownField { field, expected } => t!(
                lang,
                "lint-unknown-field",
                field = s(field),
                expected = s(expected)
            ),
            Finding::Shape { part, why } => shape(part, why, lang),
            Finding::Let { why } => t!(lang, "lint-let", why = why.say(lang)),
            // A lesson whose let: names nothing has no list to offer.
            Finding::UnknownName { name, known } if known.is_empty() => {
                t!(lang, "let-unknown-none", name = s(name))
            }
            Finding::UnknownName { name, known } => {
                t!(lang, "lint-unknown-name", name = s(name), known = s(known))
            }
            Finding::NoTemplate { template } => {
                t!(lang, "lint-no-template", template = s(template))
            }
            Finding::TemplateNotListed { template } => {
                t!(lang, "lint-template-not-listed", template = s(template))
            }
            Finding::NoAppFile { file } => t!(lang, "lint-no-app-file", file = s(file)),
            Finding::UnknownApp { .. }
            | Finding::UnknownObject { .. }
            | Finding::UnknownNamespace { .. } => unknown_name(self, lang),
            Finding::NoEvidenceField { field, file } => {
                t!(
                    lang,
                    "lint-no-evidence-field",
                    field = s(field),
                    file = s(file)
                )
            }
            Finding::NoEvidenceFile { file } => t!(lang, "lint-no-evidence-file", file = s(file)),
            Finding::NotOwnEvidence { file, own } => {
                t!(lang, "lint-not-own-evidence", file = s(file), own = s(own))
            }
            Finding::NoLesson { number } => t!(lang, "lint-no-lesson", number = u32::from(*number)),
            Finding::NeedsLesson {
                what,
                lesson: Some(n),
            } => t!(
                lang,
                "lint-needs-lesson",
                what = s(what),
                lesson = u32::from(*n)
            ),
            Finding::NeedsLesson { what, lesson: None } => {
                t!(lang, "lint-needs-some-lesson", what = s(what))
            }
            Finding::Unreachable { condition, needs } => t!(
                lang,
                "lint-unreachable",
                condition = s(condition),
                needs = needs.say(lang)
            ),
            Finding::ValueDiffers { file, path, found } => t!(
                lang,
                "lint-value-differs",
                file = s(file),
                path = s(path),
                found = s(found)
            ),
            Finding::AppSpecDiffers { app, at } => {
                t!(lang, "lint-app-spec-differs", app = s(app), at = s(at))
            }
            Finding::Hint { hint, count } => t!(
                lang,
                "lint-hint",
                hint = (*hint as u64),
                count = (*count as u64)
            ),
            Finding::NoLanguage { code } => t!(lang, "lint-no-language", code = s(code)),
            Finding::Sections { code, found } => {
                t!(
                    lang,
                    "lint-sections",
                    code = s(code),
                    found = (*found as u64)
                )
            }
            Finding::MissingText { code } => t!(lang, "lint-missing-text", code = s(code)),
            Finding::SameNumber { number, other } => {
                t!(
                    lang,
                    "lint-same-number",
                    number = u32::from(*number),
                    other = s(other)
                )
            }
        }
    }
}

/// The words for a name no template defines: an Application, an object, a namespace.
fn unknown_name(f: &Finding, lang: Lang) -> String {
    let s = |x: &str| x.to_string();
    match f {
        Finding::UnknownApp { app, known } => {
            t!(lang, "lint-unknown-app", app = s(app), known = s(known))
        }
        Finding::UnknownObject { object, known } => t!(
            lang,
            "lint-unknown-object",
            object = s(object),
            known = s(known)
        ),
        Finding::UnknownNamespace { namespace, known } => t!(
            lang,
            "lint-unknown-namespace",
            namespace = s(namespace),
            known = s(known)
        ),
        _ => String::new(),
    }
}

/// A part that does not read, in the author's language: our own reasons ([`SpecError`]) and
/// serde's unknown variant and missing field said in words, any other parser reason quoted.
fn shape(part: &str, why: &str, lang: Lang) -> String {
    let part = part.to_string();
    if let Some(e) = SpecError::recognize(why) {
        return t!(lang, "lint-shape", part = part, why = e.say(lang));
    }
    if let Some((variant, expected)) = why
        .strip_prefix("unknown variant `")
        .and_then(|r| r.split_once("`, expected "))
    {
        let choices = expected.trim_start_matches("one of ").replace('`', "");
        return t!(
            lang,
            "lint-unknown-variant",
            part = part,
            variant = variant.to_string(),
            choices = choices
        );
    }
    if let Some(field) = why
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return t!(
            lang,
            "lint-missing-field",
            part = part,
            field = field.to_string()
        );
    }
    t!(
        lang,
        "lint-shape-parser",
        part = part,
        why = why.to_string()
    )
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
}

impl Say for LintError {
    fn say(&self, lang: Lang) -> String {
        match self {
            LintError::NoLessons(p) => t!(lang, "lint-no-lessons", path = p.display().to_string()),
        }
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
    let templates = catalog::load_templates(templates);
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
mod tests {
    use super::*;

    /// The built-in lessons, written out to `dir/lessons`, with `edits` (file, from, to) made.
    fn lessons(dir: &Path, edits: &[(&str, &str, &str)]) -> PathBuf {
        let root = dir.join("lessons");
        for (path, text) in crate::embedded::FILES {
            if let Some(rel) = path.strip_prefix("lessons/") {
                crate::lab::files::write_atomic(&root.join(rel), text).unwrap();
            }
        }
        for (file, from, to) in edits {
            let p = root.join(file);
            let text = std::fs::read_to_string(&p).unwrap();
            assert!(text.contains(from), "{file} has no {from:?}");
            std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
        }
        root
    }

    fn said(report: &Report) -> Vec<String> {
        report
            .problems
            .iter()
            .map(|p| {
                let file = p
                    .file
                    .strip_prefix(p.file.ancestors().nth(2).unwrap())
                    .unwrap();
                format!(
                    "{}:{}:{}: {}",
                    file.display(),
                    p.at.line,
                    p.at.column,
                    p.finding.say(Lang::FALLBACK)
                )
            })
            .collect()
    }

    /// A `${name}` in a lesson whose `let:` names nothing says so, instead of an empty list.
    #[test]
    fn a_name_in_a_lesson_without_let_says_let_names_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let root = lessons(dir.path(), &[]);
        let p = root.join("01-helm-chart/lesson.yaml");
        let text = std::fs::read_to_string(&p).unwrap();
        let (start, end) = (
            text.find("let:\n").unwrap(),
            text.find("checklist:").unwrap(),
        );
        std::fs::write(&p, format!("{}{}", &text[..start], &text[end..])).unwrap();
        let all = said(&lint(&root, None).unwrap()).join("\n");
        assert!(
            all.contains("${chart_name}: no such value; let: names nothing"),
            "{all}"
        );
        assert!(!all.contains("(it names: )"), "{all}");
    }

    #[test]
    fn the_lab_lints_clean() {
        let dir = tempfile::tempdir().unwrap();
        let report = lint(&lessons(dir.path(), &[]), None).unwrap();
        assert!(report.problems.is_empty(), "{}", said(&report).join("\n"));
        assert_eq!(report.lessons, 8);
    }

    /// Every kind of mistake in one folder: all reported at once, each at its line and column.
    #[test]
    fn a_broken_lab_is_reported_all_at_once_with_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let root = lessons(
            dir.path(),
            &[
                (
                    "02-precedence/lesson.yaml",
                    "app: src-helm\n",
                    "app: src-helmm\n",
                ),
                (
                    "02-precedence/lesson.yaml",
                    "  live_hint: 2\n",
                    "  live_hint: 2\n  colour: red\n",
                ),
                (
                    "02-precedence/lesson.yaml",
                    "equals: \"${replicas}\"}}",
                    "equals: \"${replica}\"}}",
                ),
                (
                    "04-kustomize-image/lesson.yaml",
                    "equals: \"${base_replicas}\"}",
                    "equals: 5}",
                ),
                (
                    "04-kustomize-image/lesson.yaml",
                    "{do: wait, app: src-kust",
                    "{do: wiat, app: src-kust",
                ),
                (
                    "05-waves-hooks/lesson.yaml",
                    "{do: wait, app: src-waves, until: succeeded",
                    "{do: wait, app: src-waves, until: synced-healthy",
                ),
                (
                    "07-ignore-differences/lesson.yaml",
                    "fields: [scaled_at, checked_at], hint: 4}",
                    "fields: [scaled_at, checkd_at], hint: 9}",
                ),
                (
                    "08-report/lesson.yaml",
                    "  - {lesson: 2, done_when: {evidence-exists: precedence.json}}\n",
                    "",
                ),
                (
                    "01-helm-chart/lesson.yaml",
                    "template: 01-helm-chart, say",
                    "template: 01-helm-chrt, say",
                ),
                (
                    "03-tracking/lesson.yaml",
                    "focus: src-helm/ConfigMap/src-helm-greeting",
                    "focus: src-helm/ConfigMap/src-helm-greting",
                ),
                (
                    "05-waves-hooks/lesson.yaml",
                    "object: src-waves/Deployment/app, condition: Available, hint: 3}",
                    "object: src-waves/Deployment/ap, condition: Available, hint: 3}",
                ),
            ],
        );
        std::fs::remove_file(root.join("03-tracking/ko.md")).unwrap();
        let report = lint(&root, None).unwrap();
        let all = said(&report).join("\n");
        for want in [
            "02-precedence/lesson.yaml:8:6: no template defines an Application named src-helmm",
            "02-precedence/lesson.yaml:35:3: unknown field colour: remove it or write one of: file, fields, live_hint, rules",
            "${replica} is not named in let:",
            "03-tracking/ko.md:1:1: no ko.md",
            "04-kustomize-image/lesson.yaml:37:74: the lesson's templates set spec.replicas of kust/base/deployment.yaml to 1",
            "unknown variant `wiat`",
            "05-waves-hooks/lesson.yaml:76:5: no action of the plan can make succeeded: src-waves true: add do: wait (until: succeeded)",
            "07-ignore-differences/lesson.yaml:29:48: ignore.json has no field checkd_at",
            "hint 9: the English text has 4 hints",
            "08-report/lesson.yaml:",
            "this lesson uses precedence.json, which lesson 2 makes: add {lesson: 2, done_when: …} to requires:",
            "there is no template folder 01-helm-chrt",
            "03-tracking/lesson.yaml:9:8: no Application of the templates deploys src-helm/ConfigMap/src-helm-greting (of that kind there they deploy: src-helm/ConfigMap/src-helm-greeting)",
            "no Application of the templates deploys src-waves/Deployment/ap (of that kind there they deploy: src-waves/Deployment/app)",
        ] {
            assert!(all.contains(want), "no {want:?} in:\n{all}");
        }
        assert!(report.problems.len() >= 12, "{all}");
    }

    /// In Chinese and Korean, the author reads every sentence of lint's own in that language:
    /// `let:` errors, our reasons inside serde's message, an unknown variant, a missing action.
    /// What stays English is the YAML (`do: wait`, `until:`) and the parser's own reason, quoted.
    #[test]
    fn a_broken_lab_is_said_in_the_authors_language() {
        let dir = tempfile::tempdir().unwrap();
        let root = lessons(
            dir.path(),
            &[
                (
                    "01-helm-chart/lesson.yaml",
                    "Chart.yaml, path: name}",
                    "Chart.yaml, path: nme}",
                ),
                (
                    "01-helm-chart/lesson.yaml",
                    "{file: repo/charts/web/Chart.yaml, path: version}",
                    "{file: repo/charts/web/Chrt.yaml, path: version}",
                ),
                (
                    "01-helm-chart/lesson.yaml",
                    "path: metadata.name, equals: src-helm-greeting",
                    "path: 'metadata.[name', equals: src-helm-greeting",
                ),
                (
                    "04-kustomize-image/lesson.yaml",
                    "{do: wait, app: src-kust",
                    "{do: wiat, app: src-kust",
                ),
                (
                    "05-waves-hooks/lesson.yaml",
                    "{do: wait, app: src-waves, until: succeeded",
                    "{do: wait, app: src-waves, until: synced-healthy",
                ),
            ],
        );
        let report = lint(&root, None).unwrap();
        let english = [
            "has nothing at",
            "has no file",
            "unclosed",
            "unknown variant",
            "no action of the plan",
            "not named in let",
        ];
        for code in ["zh", "ko"] {
            let lang = Lang::parse(code).unwrap();
            let all: Vec<String> = report.problems.iter().map(|p| p.line(lang)).collect();
            let all = all.join("\n");
            assert!(report.problems.len() >= 6, "{all}");
            for words in english {
                assert!(!all.contains(words), "{code}: {words:?} in:\n{all}");
            }
            assert!(all.contains("do: wait (until: succeeded)"), "{all}");
        }
    }

    #[test]
    fn a_yaml_syntax_error_says_where() {
        let dir = tempfile::tempdir().unwrap();
        let root = lessons(
            dir.path(),
            &[(
                "03-tracking/lesson.yaml",
                "app: src-helm\n",
                "app: [src-helm\n",
            )],
        );
        let report = lint(&root.join("03-tracking/lesson.yaml"), None).unwrap();
        let all = said(&report).join("\n");
        assert!(all.contains("03-tracking/lesson.yaml:"), "{all}");
        assert!(all.contains("not YAML"), "{all}");
        assert_eq!(report.lessons, 1);
    }
}
