//! The eight lessons, read from the files embedded at build time: each lesson's `lesson.yaml`
//! and its text in English and Chinese, split into the six sections every lesson has.

use serde::Deserialize;

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

#[derive(Debug, Clone, Deserialize)]
pub struct Title {
    pub en: String,
    pub zh: String,
}

/// `lesson.yaml`.
#[derive(Debug, Clone, Deserialize)]
pub struct Meta {
    pub number: u8,
    pub slug: String,
    pub title: Title,
    pub evidence: Option<String>,
    #[serde(default)]
    pub templates: Vec<String>,
    /// How the self-check grades this lesson's evidence.
    #[serde(default)]
    pub checks: Checks,
}

/// A lesson's self-check, as data: each field's JSON type and whether it must equal what the
/// cluster shows now, plus named rules that need more than a comparison.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Checks {
    #[serde(default)]
    pub fields: Vec<FieldCheck>,
    /// The hint that helps when a value differs from the cluster's.
    #[serde(default = "default_hint")]
    pub live_hint: usize,
    #[serde(default)]
    pub rules: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct FieldCheck {
    pub name: String,
    /// `number`, `string`, `boolean` or `string or null`.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub live: bool,
}

fn default_hint() -> usize {
    2
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

#[derive(Debug, Clone)]
pub struct Lesson {
    pub meta: Meta,
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
            Lang::En => &self.meta.title.en,
            Lang::Zh => &self.meta.title.zh,
        }
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum CatalogError {
    #[error("lesson {folder}: {why}")]
    Bad { folder: String, why: String },
}

/// All lessons, by number.
pub fn lessons() -> Result<Vec<Lesson>, CatalogError> {
    // The files are built into the binary: parse them once, not on every grade or plan.
    static PARSED: std::sync::OnceLock<Result<Vec<Lesson>, CatalogError>> =
        std::sync::OnceLock::new();
    PARSED.get_or_init(parse_lessons).clone()
}

fn parse_lessons() -> Result<Vec<Lesson>, CatalogError> {
    let mut folders: Vec<&str> = embedded::FILES
        .iter()
        .filter_map(|(p, _)| p.strip_prefix("lessons/")?.split('/').next())
        .collect();
    folders.sort();
    folders.dedup();
    let mut out = Vec::new();
    for folder in folders {
        let file = |name: &str| {
            embedded::FILES
                .iter()
                .find(|(p, _)| *p == format!("lessons/{folder}/{name}"))
                .map(|(_, c)| *c)
        };
        let bad = |why: String| CatalogError::Bad {
            folder: folder.to_string(),
            why,
        };
        let meta: Meta = serde_saphyr::from_str(
            file("lesson.yaml").ok_or_else(|| bad("no lesson.yaml".into()))?,
        )
        .map_err(|e| bad(format!("lesson.yaml: {e}")))?;
        let en = parse_text(file("en.md").ok_or_else(|| bad("no en.md".into()))?)
            .map_err(|e| bad(format!("en.md: {e}")))?;
        let zh = parse_text(file("zh.md").ok_or_else(|| bad("no zh.md".into()))?)
            .map_err(|e| bad(format!("zh.md: {e}")))?;
        out.push(Lesson {
            meta,
            folder: folder.to_string(),
            en,
            zh,
        });
    }
    out.sort_by_key(|l| l.meta.number);
    Ok(out)
}

/// Finds a lesson by number (`5`) or slug (`waves-hooks`).
pub fn find<'a>(lessons: &'a [Lesson], key: &str) -> Option<&'a Lesson> {
    lessons.iter().find(|l| {
        key.parse::<u8>().ok() == Some(l.meta.number) || l.meta.slug == key || l.folder == key
    })
}

/// The raw `lesson.yaml` of a lesson folder.
pub fn lesson_yaml(folder: &str) -> Option<&'static str> {
    let path = format!("lessons/{folder}/lesson.yaml");
    embedded::FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, c)| *c)
}

static TEMPLATE_DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Reads templates from this folder (laid out like `repo-template/`) instead of the ones built
/// in: for instructors who adapt the lab, and for tests that change its values.
pub fn use_template_dir(dir: std::path::PathBuf) {
    let _ = TEMPLATE_DIR.set(dir);
}

/// All template files: (path relative to the templates root, contents).
fn all_templates() -> Vec<(String, String)> {
    match TEMPLATE_DIR.get() {
        Some(dir) => {
            let mut out = Vec::new();
            let mut stack = vec![dir.clone()];
            while let Some(d) = stack.pop() {
                for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                    let p = entry.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if let (Ok(rel), Ok(text)) =
                        (p.strip_prefix(dir), std::fs::read_to_string(&p))
                    {
                        out.push((rel.to_string_lossy().replace('\\', "/"), text));
                    }
                }
            }
            out
        }
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
    if sections.len() != 6 {
        return Err(format!(
            "expected 6 sections (goal, why, steps, mistakes, hints, by hand), found {}",
            sections.len()
        ));
    }
    let hints = sections[4]
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
    fn languages_come_from_the_flag_then_the_locale() {
        assert_eq!(Lang::detect(Some("zh_CN.UTF-8")), Lang::Zh);
        assert_eq!(Lang::detect(Some("en")), Lang::En);
    }
}
