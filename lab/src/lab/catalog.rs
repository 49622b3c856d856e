//! The lessons: one folder each under `lessons/` (built into the binary, or read from
//! `--lessons DIR`), holding `lesson.yaml` (parsed once into [`LessonSpec`]) and its text in one
//! file per language (`en.md`, `zh.md`, ...), split into the six sections every lesson has; and
//! the files the lessons write (`repo-template/`, or `--templates DIR`). Adding a lesson is adding
//! a folder: nothing in the code names a lesson. The catalog is loaded once by the command that
//! needs it and passed to whatever reads it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use strum::{EnumCount, EnumIter, FromRepr};

mod lets;
mod source;
pub use lets::{LetError, names_in, read_yaml, resolve, substitute};
pub use source::{CatalogSource, builtin_templates};
use source::{embedded_under, read_tree};

pub use super::spec::{EvidenceSpec, LessonId, LessonSpec};
use crate::cluster::ObjectKey;
use crate::i18n::{Lang, Say};
use crate::lab::learner::{LabNames, Learner};

/// The parts every lesson has, in the order a presenter steps through them.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Default,
    EnumIter,
    EnumCount,
    FromRepr,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Section {
    #[default]
    Goal,
    Why,
    Steps,
    Mistakes,
    Hints,
    ByHand,
}

/// The part's name as the lessons in a language head it.
impl Say for Section {
    fn say(&self, lang: Lang) -> String {
        match self {
            Section::Goal => crate::t!(lang, "section-goal"),
            Section::Why => crate::t!(lang, "section-why"),
            Section::Steps => crate::t!(lang, "section-steps"),
            Section::Mistakes => crate::t!(lang, "section-mistakes"),
            Section::Hints => crate::t!(lang, "section-hints"),
            Section::ByHand => crate::t!(lang, "section-by-hand"),
        }
    }
}

impl Section {
    /// 1-based position, as "Steps (3/6)" shows it.
    pub fn ordinal(self) -> usize {
        self as usize + 1
    }

    pub fn next(self) -> Option<Section> {
        Section::from_repr(self as usize + 1)
    }

    pub fn prev(self) -> Option<Section> {
        (self as usize).checked_sub(1).and_then(Section::from_repr)
    }

    pub const LAST: Section = Section::ByHand;
}

/// A lesson's text in one language, by section.
#[derive(Debug, Clone, Default)]
pub struct Text {
    pub goal: String,
    pub why: String,
    pub steps: String,
    pub mistakes: String,
    pub hints: Vec<String>,
    pub by_hand: String,
}

impl Text {
    /// The text of a part (the hints as one numbered list).
    pub fn section(&self, section: Section) -> String {
        match section {
            Section::Goal => self.goal.clone(),
            Section::Why => self.why.clone(),
            Section::Steps => self.steps.clone(),
            Section::Mistakes => self.mistakes.clone(),
            Section::Hints => self
                .hints
                .iter()
                .enumerate()
                .map(|(i, h)| format!("{}. {h}", i + 1))
                .collect::<Vec<_>>()
                .join("\n"),
            Section::ByHand => self.by_hand.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Lesson {
    pub spec: LessonSpec,
    /// The folder name, e.g. `05-waves-hooks`.
    pub folder: String,
    /// The lesson's text by language code; English is always there.
    pub texts: BTreeMap<String, Text>,
}

impl Lesson {
    pub fn id(&self) -> LessonId {
        self.spec.number
    }

    /// The text in `lang`, else in English.
    pub fn text(&self, lang: Lang) -> &Text {
        self.texts
            .get(lang.code())
            .or_else(|| self.texts.get(Lang::FALLBACK.code()))
            .unwrap_or_else(|| empty_text())
    }

    pub fn title(&self, lang: Lang) -> &str {
        self.spec.title.get(lang)
    }

    /// The evidence file this lesson writes, if any.
    pub fn evidence_file(&self) -> Option<&str> {
        self.spec.evidence.as_ref().map(|e| e.file.as_str())
    }
}

fn empty_text() -> &'static Text {
    static EMPTY: std::sync::OnceLock<Text> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Text::default)
}

/// Why the lessons cannot be loaded: what the lesson author must fix, and where. Said in
/// English, the language lessons are written in first.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CatalogError {
    #[error("lesson {folder}: no lesson.yaml")]
    NoSpec { folder: String },
    #[error("lesson {folder}: lesson.yaml: {why}")]
    BadSpec {
        folder: String,
        why: Box<ParseError>,
    },
    #[error("lesson {folder}: {file}: {why}")]
    BadText {
        folder: String,
        file: String,
        why: String,
    },
    #[error("lesson {folder}: number {number} is also lesson {other}'s")]
    SameNumber {
        folder: String,
        number: LessonId,
        other: String,
    },
    #[error(
        "lesson {folder}: {file}: expected 6 sections (goal, why, steps, mistakes, hints, by hand), found {found}"
    )]
    Sections {
        folder: String,
        file: String,
        found: usize,
    },
    #[error(
        "lesson {folder}: no {code}.md (the English text stands in for any language a lesson lacks)"
    )]
    NoEnglish { folder: String, code: &'static str },
    #[error("{}: no lesson folders here (each needs lesson.yaml and en.md)", .dir.display())]
    Empty { dir: PathBuf },
    /// A file of the lessons or templates that cannot be read as text (never left out).
    #[error("{0}")]
    Unreadable(std::sync::Arc<crate::lab::files::TextError>),
    /// The learner a recorded session names is not a learner's name.
    #[error("{0}")]
    Learner(#[source] crate::lab::learner::NotALearner),
}

impl From<crate::lab::files::TextError> for CatalogError {
    fn from(e: crate::lab::files::TextError) -> CatalogError {
        CatalogError::Unreadable(std::sync::Arc::new(e))
    }
}

/// The lessons and the files they write, as one command uses them.
#[derive(Debug, Clone)]
pub struct Catalog {
    lessons: Vec<Lesson>,
    /// Template files: (path relative to the templates root, contents).
    templates: Vec<(String, String)>,
    /// The learner whose names the lessons and templates were given (`--learner`).
    learner: Option<String>,
    /// What it was made from: a recorded session keeps it, so its replay reads the same lab.
    source: CatalogSource,
}

impl Catalog {
    /// The lessons and templates built into the binary.
    pub fn embedded() -> Result<Catalog, CatalogError> {
        Catalog::load(None, None)
    }

    /// The lessons from `lessons` (laid out like `lessons/`) and the templates from `templates`
    /// (laid out like `repo-template/`), each the built-in ones when not given: for instructors
    /// who adapt the lab, and for tests that change its values.
    pub fn load(lessons: Option<&Path>, templates: Option<&Path>) -> Result<Catalog, CatalogError> {
        Catalog::load_for(lessons, templates, None)
    }

    /// As [`Catalog::load`], with every name of the lab (its Applications, their namespaces,
    /// its bare repos) `learner`'s own, in the lessons, their texts and the templates alike:
    /// many learners on one cluster (`--learner`).
    pub fn load_for(
        lessons: Option<&Path>,
        templates: Option<&Path>,
        learner: Option<&Learner>,
    ) -> Result<Catalog, CatalogError> {
        let lessons = match lessons {
            Some(dir) => {
                let files = read_tree(dir)?;
                if files.is_empty() {
                    return Err(CatalogError::Empty {
                        dir: dir.to_path_buf(),
                    });
                }
                Some(files)
            }
            None => None,
        };
        let templates = templates.map(read_tree).transpose()?;
        Catalog::from_source(CatalogSource {
            lessons,
            templates,
            learner: learner.map(|l| l.name().to_string()),
        })
    }

    /// The catalog `source` makes (a recorded session's, replayed).
    pub fn from_source(source: CatalogSource) -> Result<Catalog, CatalogError> {
        let lesson_files = source
            .lessons
            .clone()
            .unwrap_or_else(|| embedded_under("lessons/"));
        let templates = source
            .templates
            .clone()
            .unwrap_or_else(|| embedded_under("repo-template/"));
        let learner = match source.learner.as_deref().map(Learner::parse) {
            None => None,
            Some(Ok(learner)) => Some(learner),
            Some(Err(e)) => return Err(CatalogError::Learner(e)),
        };
        let Some(learner) = learner else {
            return Ok(Catalog {
                lessons: parse_lessons(lesson_files, &templates)?,
                templates,
                learner: None,
                source,
            });
        };
        // The names are read from the lab as it is written, then made the learner's everywhere.
        let lab = parse_lessons(lesson_files.clone(), &templates)?;
        let names = LabNames::of(&lab.iter().map(|l| &l.spec).collect::<Vec<_>>(), &templates);
        let own = |files: Vec<(String, String)>| -> Vec<(String, String)> {
            files
                .into_iter()
                .map(|(path, text)| (path, names.rename(&text, &learner)))
                .collect()
        };
        let templates = own(templates);
        Ok(Catalog {
            lessons: parse_lessons(own(lesson_files), &templates)?,
            templates,
            learner: Some(learner.name().to_string()),
            source,
        })
    }

    /// What this catalog was made from.
    pub fn source(&self) -> &CatalogSource {
        &self.source
    }

    /// The learner whose lab this is, on a cluster many share.
    pub fn learner(&self) -> Option<&str> {
        self.learner.as_deref()
    }

    /// All lessons, by number.
    pub fn lessons(&self) -> &[Lesson] {
        &self.lessons
    }

    pub fn lesson(&self, id: LessonId) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.id() == id)
    }

    /// Finds a lesson by number (`5`), slug (`waves-hooks`) or folder (`05-waves-hooks`).
    pub fn find(&self, key: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| {
            key.parse::<u8>().ok() == Some(l.spec.number.0) || l.spec.slug == key || l.folder == key
        })
    }

    /// The lesson that writes `file`.
    pub fn lesson_for_evidence(&self, file: &str) -> Option<&Lesson> {
        self.lessons
            .iter()
            .find(|l| l.evidence_file() == Some(file))
    }

    /// The evidence files, in lesson order.
    pub fn evidence_files(&self) -> impl Iterator<Item = &str> {
        self.lessons.iter().filter_map(Lesson::evidence_file)
    }

    /// The lab's Applications, in the order the lessons introduce them.
    pub fn apps(&self) -> Vec<&str> {
        fn add<'a>(app: &'a str, apps: &mut Vec<&'a str>) {
            if !apps.contains(&app) {
                apps.push(app);
            }
        }
        let mut apps: Vec<&str> = Vec::new();
        for l in &self.lessons {
            add(&l.spec.app, &mut apps);
        }
        // Then every other Application a lesson names: one another Application makes (an app
        // of apps) is watched as the one the lesson applies is.
        for l in &self.lessons {
            let spec = &l.spec;
            for app in spec.checklist.iter().flat_map(|i| i.done_when.apps()) {
                add(app, &mut apps);
            }
            for app in spec.actions.iter().filter_map(|a| a.step.app()) {
                add(app, &mut apps);
            }
            for o in spec.objects() {
                if o.is_app() {
                    add(&o.name, &mut apps);
                }
            }
        }
        apps
    }

    /// The namespaces the lessons' objects live in (Argo CD's own aside): what the tutor watches.
    pub fn namespaces(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |ns: &str| {
            if ns != "argocd" && !out.iter().any(|n| n == ns) {
                out.push(ns.to_string());
            }
        };
        for l in &self.lessons {
            if let Some(f) = &l.spec.focus {
                add(&f.namespace);
            }
            for field in l.spec.evidence.iter().flat_map(|e| &e.fields) {
                if let super::spec::Source::Field { object, .. } = &field.from {
                    add(&object.namespace);
                }
            }
        }
        // Then the namespace of every other object a lesson reads (a child Application's,
        // which no lesson applies).
        for o in self.lessons.iter().flat_map(|l| l.spec.objects()) {
            add(&o.namespace);
        }
        out
    }

    /// Every object a lesson reads by name (focus, values, evidence, checklist, predictions),
    /// the tutor keeps these whoever deployed them.
    pub fn named_objects(&self) -> std::collections::BTreeSet<ObjectKey> {
        self.lessons
            .iter()
            .flat_map(|l| l.spec.objects())
            .cloned()
            .collect()
    }

    /// Files under `<templates>/<template>/`, as (path relative to that folder, contents).
    pub fn template_files(&self, template: &str) -> Vec<(String, String)> {
        let prefix = format!("{template}/");
        self.templates
            .iter()
            .filter_map(|(p, c)| Some((p.strip_prefix(prefix.as_str())?.to_string(), c.clone())))
            .collect()
    }

    /// Whether some template's version of `path` (relative to its template folder) has exactly
    /// this content: a file capa-tui wrote for an earlier lesson.
    pub fn any_template_has(&self, path: &str, content: &str) -> bool {
        self.templates
            .iter()
            .any(|(p, c)| c == content && p.split_once('/').is_some_and(|(_, rel)| rel == path))
    }
}

/// The template files from `dir` (laid out like `repo-template/`), else the built-in ones, as
/// (path relative to the templates root, contents).
pub fn load_templates(dir: Option<&Path>) -> Result<Vec<(String, String)>, CatalogError> {
    match dir {
        Some(dir) => read_tree(dir),
        None => Ok(builtin_templates()),
    }
}

/// Parses lesson folders from (path relative to the lessons root, contents), their `let:`
/// values read from `templates`.
fn parse_lessons(
    files: Vec<(String, String)>,
    templates: &[(String, String)],
) -> Result<Vec<Lesson>, CatalogError> {
    let mut folders: Vec<&str> = files
        .iter()
        .filter_map(|(p, _)| p.split_once('/').map(|(f, _)| f))
        .collect();
    folders.sort();
    folders.dedup();
    let mut out: Vec<Lesson> = Vec::new();
    for folder in folders {
        let in_folder = |name: &str| {
            files
                .iter()
                .find(|(p, _)| *p == format!("{folder}/{name}"))
                .map(|(_, c)| c.as_str())
        };
        let folder_name = || folder.to_string();
        let yaml = in_folder("lesson.yaml").ok_or_else(|| CatalogError::NoSpec {
            folder: folder_name(),
        })?;
        let (spec, values) = parse_spec(yaml, templates).map_err(|why| CatalogError::BadSpec {
            folder: folder_name(),
            why: Box::new(why),
        })?;
        if let Some(other) = out.iter().find(|l| l.spec.number == spec.number) {
            return Err(CatalogError::SameNumber {
                folder: folder_name(),
                number: spec.number,
                other: other.folder.clone(),
            });
        }
        let mut texts = BTreeMap::new();
        for (path, text) in &files {
            let Some(code) = path
                .strip_prefix(&format!("{folder}/"))
                .and_then(|name| name.strip_suffix(".md"))
                .filter(|code| !code.contains('/'))
            else {
                continue;
            };
            let text = lets::substitute_text(text, &values).map_err(|e| CatalogError::BadText {
                folder: folder_name(),
                file: format!("{code}.md"),
                why: e.to_string(),
            })?;
            let parsed = parse_text(&text).map_err(|found| CatalogError::Sections {
                folder: folder_name(),
                file: format!("{code}.md"),
                found,
            })?;
            texts.insert(code.to_string(), parsed);
        }
        if !texts.contains_key(Lang::FALLBACK.code()) {
            return Err(CatalogError::NoEnglish {
                folder: folder_name(),
                code: Lang::FALLBACK.code(),
            });
        }
        out.push(Lesson {
            spec,
            folder: folder.to_string(),
            texts,
        });
    }
    out.sort_by_key(|l| l.spec.number);
    Ok(out)
}

/// A `lesson.yaml` as types, its `${name}`s filled in from its `let:` values (which it returns,
/// for its text); else the reason, with the line and column where the parser has them.
/// Why a `lesson.yaml` does not read, typed: the parser's own words stay as it said them.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ParseError {
    /// The YAML parser's message, with the line and column it points at.
    #[error("{0}")]
    Located(String),
    /// A `let:` value does not read as one.
    #[error("let: {0}")]
    Let(String),
    /// A `let:` value or a `${name}` cannot be worked out.
    #[error(transparent)]
    Values(#[from] lets::LetError),
    /// The lesson reads only as written, not with its `let:` values put in.
    #[error("with the let: values put in: {0}")]
    Filled(String),
}

pub fn parse_spec(
    yaml: &str,
    templates: &[(String, String)],
) -> Result<(LessonSpec, BTreeMap<String, serde_json::Value>), ParseError> {
    use serde_json::Value;
    // The typed parse from the text is the one whose errors point at a line: used to say why
    // whenever the lesson does not read, unless only the filled-in values are to blame.
    let located = || match serde_saphyr::from_str::<LessonSpec>(yaml) {
        Err(e) => e.to_string(),
        Ok(_) => String::new(),
    };
    let mut raw: Value =
        serde_saphyr::from_str(yaml).map_err(|e| ParseError::Located(e.to_string()))?;
    let lets = match raw.get("let") {
        None => BTreeMap::new(),
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| {
            let at = located();
            if at.is_empty() {
                ParseError::Let(e.to_string())
            } else {
                ParseError::Located(at)
            }
        })?,
    };
    let lesson_templates: Vec<String> = raw
        .get("templates")
        .and_then(|t| serde_json::from_value(t.clone()).ok())
        .unwrap_or_default();
    let values = lets::resolve(&lets, &lesson_templates, templates)?;
    lets::substitute(&mut raw, &values)?;
    let spec = serde_json::from_value::<LessonSpec>(raw).map_err(|e| {
        let at = located();
        if at.is_empty() {
            ParseError::Filled(e.to_string())
        } else {
            ParseError::Located(at)
        }
    })?;
    Ok((spec, values))
}

/// Splits a lesson text into its six `## ` sections, in order; else how many it has.
pub(crate) fn parse_text(md: &str) -> Result<Text, usize> {
    let mut sections: Vec<String> = Vec::new();
    for line in md.lines() {
        if line.starts_with("## ") {
            sections.push(String::new());
        } else if let Some(current) = sections.last_mut() {
            current.push_str(line);
            current.push('\n');
        }
    }
    if sections.len() != Section::COUNT {
        return Err(sections.len());
    }
    let hints = sections[Section::Hints as usize]
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            let digits = t.chars().take_while(char::is_ascii_digit).count();
            (digits > 0 && t[digits..].starts_with(". "))
                .then(|| t[digits + 2..].trim().to_string())
        })
        .collect();
    let mut it = sections.into_iter().map(|s| s.trim().to_string());
    let mut next = || it.next().unwrap_or_default();
    Ok(Text {
        goal: next(),
        why: next(),
        steps: next(),
        mistakes: next(),
        hints: {
            next();
            hints
        },
        by_hand: next(),
    })
}

#[cfg(test)]
mod tests;
