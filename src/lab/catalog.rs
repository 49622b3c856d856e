//! The lessons: one folder each under `lessons/` (built into the binary, or read from
//! `--lessons DIR`), holding `lesson.yaml` (parsed once into [`LessonSpec`]) and its text in
//! English and Chinese, split into the six sections every lesson has. Adding a lesson is adding
//! a folder: nothing in the code names a lesson.

use std::path::{Path, PathBuf};

use strum::{EnumCount, EnumIter, FromRepr};

pub use super::spec::{EvidenceSpec, LessonSpec};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// The language a learner reads in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    /// The language's code: `en` or `zh`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// `--lang` if given, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`): `zh*` → Chinese.
    pub fn detect(flag: Option<&str>) -> Lang {
        let pick = |s: &str| {
            if s.to_ascii_lowercase().starts_with("zh") {
                Lang::Zh
            } else {
                Lang::En
            }
        };
        if let Some(f) = flag {
            return pick(f);
        }
        for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let Ok(v) = std::env::var(var)
                && !v.is_empty()
            {
                return pick(&v);
            }
        }
        Lang::En
    }
}

/// The parts every lesson has, in the order a presenter steps through them.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
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

impl Section {
    /// The part's name as the lessons in `lang` head it.
    pub fn name(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::En, Section::Goal) => "Goal",
            (Lang::En, Section::Why) => "Why it matters",
            (Lang::En, Section::Steps) => "Steps",
            (Lang::En, Section::Mistakes) => "Common mistakes",
            (Lang::En, Section::Hints) => "Hints",
            (Lang::En, Section::ByHand) => "By hand",
            (Lang::Zh, Section::Goal) => "目标",
            (Lang::Zh, Section::Why) => "为什么重要",
            (Lang::Zh, Section::Steps) => "步骤",
            (Lang::Zh, Section::Mistakes) => "常见错误",
            (Lang::Zh, Section::Hints) => "提示",
            (Lang::Zh, Section::ByHand) => "手动操作",
        }
    }

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
    pub en: Text,
    pub zh: Text,
}

impl Lesson {
    pub fn text(&self, lang: Lang) -> &Text {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }

    pub fn title(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.spec.title.en,
            Lang::Zh => &self.spec.title.zh,
        }
    }

    /// The evidence file this lesson writes, if any.
    pub fn evidence_file(&self) -> Option<&str> {
        self.spec.evidence.as_ref().map(|e| e.file.as_str())
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum CatalogError {
    #[error("lesson {folder}: {why}")]
    Bad { folder: String, why: String },
}

static LESSON_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Reads lessons from this folder (laid out like `lessons/`) instead of the ones built in: for
/// instructors who add or adapt lessons. Call before the first [`lessons`].
pub fn use_lesson_dir(dir: PathBuf) {
    let _ = LESSON_DIR.set(dir);
}

/// All lessons, by number.
pub fn lessons() -> Result<Vec<Lesson>, CatalogError> {
    // Parsed once, not on every grade or plan.
    static PARSED: std::sync::OnceLock<Result<Vec<Lesson>, CatalogError>> =
        std::sync::OnceLock::new();
    PARSED
        .get_or_init(|| match LESSON_DIR.get() {
            Some(dir) => load_dir(dir),
            None => parse_lessons(
                embedded::FILES
                    .iter()
                    .filter_map(|(p, c)| {
                        Some((p.strip_prefix("lessons/")?.to_string(), c.to_string()))
                    })
                    .collect(),
            ),
        })
        .clone()
}

/// The lessons in a folder laid out like `lessons/`.
pub fn load_dir(dir: &Path) -> Result<Vec<Lesson>, CatalogError> {
    let files = read_tree(dir);
    if files.is_empty() {
        return Err(CatalogError::Bad {
            folder: dir.display().to_string(),
            why: "no lesson folders here (each needs lesson.yaml, en.md and zh.md)".into(),
        });
    }
    parse_lessons(files)
}

/// The namespaces the lessons' objects live in (Argo CD's own aside): what the tutor watches.
pub fn lab_namespaces(lessons: &[Lesson]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |ns: &str| {
        if ns != "argocd" && !out.iter().any(|n| n == ns) {
            out.push(ns.to_string());
        }
    };
    for l in lessons {
        if let Some(f) = &l.spec.focus {
            add(&f.namespace);
        }
        for field in l.spec.evidence.iter().flat_map(|e| &e.fields) {
            if let super::spec::Source::Field { object, .. } = &field.from {
                add(&object.namespace);
            }
        }
    }
    out
}

/// The lesson that writes `file`.
pub fn lesson_for_evidence(file: &str) -> Option<Lesson> {
    lessons()
        .ok()?
        .into_iter()
        .find(|l| l.evidence_file() == Some(file))
}

/// Every file under `dir`, as (path relative to it with `/`, contents).
fn read_tree(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if let (Ok(rel), Ok(text)) = (p.strip_prefix(dir), std::fs::read_to_string(&p)) {
                out.push((rel.to_string_lossy().replace('\\', "/"), text));
            }
        }
    }
    out.sort();
    out
}

/// Parses lesson folders from (path relative to the lessons root, contents).
fn parse_lessons(files: Vec<(String, String)>) -> Result<Vec<Lesson>, CatalogError> {
    let mut folders: Vec<&str> = files
        .iter()
        .filter_map(|(p, _)| p.split_once('/').map(|(f, _)| f))
        .collect();
    folders.sort();
    folders.dedup();
    let mut out: Vec<Lesson> = Vec::new();
    for folder in folders {
        let file = |name: &str| {
            files
                .iter()
                .find(|(p, _)| *p == format!("{folder}/{name}"))
                .map(|(_, c)| c.as_str())
        };
        let bad = |why: String| CatalogError::Bad {
            folder: folder.to_string(),
            why,
        };
        let spec: LessonSpec = serde_saphyr::from_str(
            file("lesson.yaml").ok_or_else(|| bad("no lesson.yaml".into()))?,
        )
        .map_err(|e| bad(format!("lesson.yaml: {e}")))?;
        if let Some(other) = out.iter().find(|l| l.spec.number == spec.number) {
            return Err(bad(format!(
                "number {} is also lesson {}'s",
                spec.number, other.folder
            )));
        }
        let en = parse_text(file("en.md").ok_or_else(|| bad("no en.md".into()))?)
            .map_err(|e| bad(format!("en.md: {e}")))?;
        let zh = parse_text(file("zh.md").ok_or_else(|| bad("no zh.md".into()))?)
            .map_err(|e| bad(format!("zh.md: {e}")))?;
        out.push(Lesson {
            spec,
            folder: folder.to_string(),
            en,
            zh,
        });
    }
    out.sort_by_key(|l| l.spec.number);
    Ok(out)
}

/// Finds a lesson by number (`5`) or slug (`waves-hooks`).
pub fn find<'a>(lessons: &'a [Lesson], key: &str) -> Option<&'a Lesson> {
    lessons.iter().find(|l| {
        key.parse::<u8>().ok() == Some(l.spec.number) || l.spec.slug == key || l.folder == key
    })
}

static TEMPLATE_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Reads templates from this folder (laid out like `repo-template/`) instead of the ones built
/// in: for instructors who adapt the lab, and for tests that change its values.
pub fn use_template_dir(dir: PathBuf) {
    let _ = TEMPLATE_DIR.set(dir);
}

/// All template files: (path relative to the templates root, contents).
fn all_templates() -> Vec<(String, String)> {
    match TEMPLATE_DIR.get() {
        Some(dir) => read_tree(dir),
        None => embedded::FILES
            .iter()
            .filter_map(|(p, c)| {
                Some((p.strip_prefix("repo-template/")?.to_string(), c.to_string()))
            })
            .collect(),
    }
}

/// Files under `<templates>/<template>/`, as (path relative to that folder, contents).
pub fn template_files(template: &str) -> Vec<(String, String)> {
    let prefix = format!("{template}/");
    all_templates()
        .into_iter()
        .filter_map(|(p, c)| Some((p.strip_prefix(prefix.as_str())?.to_string(), c)))
        .collect()
}

/// Whether some template's version of `path` (relative to its template folder) has exactly
/// this content: a file capa-tui wrote for an earlier lesson.
pub fn any_template_has(path: &str, content: &str) -> bool {
    all_templates()
        .iter()
        .any(|(p, c)| c == content && p.split_once('/').is_some_and(|(_, rel)| rel == path))
}

/// Splits a lesson text into its six `## ` sections, in order.
fn parse_text(md: &str) -> Result<Text, String> {
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
        return Err(format!(
            "expected 6 sections (goal, why, steps, mistakes, hints, by hand), found {}",
            sections.len()
        ));
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
mod tests {
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
    fn every_action_of_every_lesson_is_narrated_in_both_languages() {
        for lesson in lessons().unwrap() {
            for (i, a) in lesson.spec.actions.iter().enumerate() {
                let say = a.say.as_ref().unwrap_or_else(|| {
                    panic!(
                        "lesson {} action {} has no narration",
                        lesson.spec.number,
                        i + 1
                    )
                });
                assert!(!say.en.is_empty() && !say.zh.is_empty());
            }
        }
    }

    #[test]
    fn languages_come_from_the_flag_then_the_locale() {
        assert_eq!(Lang::detect(Some("zh_CN.UTF-8")), Lang::Zh);
        assert_eq!(Lang::detect(Some("en")), Lang::En);
    }
}
