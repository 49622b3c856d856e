//! What a catalog is read from: the built-in lessons and templates, or folders of them, kept
//! as files so a recorded session can make the same catalog again anywhere.

use std::path::Path;

use super::CatalogError;

/// The files a catalog is read from, each `None` where they are the built-in ones, and whose
/// names it takes: enough to make the same catalog again anywhere.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CatalogSource {
    pub lessons: Option<Vec<(String, String)>>,
    pub templates: Option<Vec<(String, String)>>,
    pub learner: Option<String>,
}

/// The template files built into the binary.
pub fn builtin_templates() -> Vec<(String, String)> {
    embedded_under("repo-template/")
}

/// Embedded files under `prefix`, as (path relative to it, contents).
pub(super) fn embedded_under(prefix: &str) -> Vec<(String, String)> {
    crate::embedded::FILES
        .iter()
        .filter_map(|(p, c)| Some((p.strip_prefix(prefix)?.to_string(), c.to_string())))
        .collect()
}

/// Every file under `dir`, as (path relative to it with `/`, contents). A file that cannot be
/// read as text is an error naming it, never a file left out.
pub(super) fn read_tree(dir: &Path) -> Result<Vec<(String, String)>, CatalogError> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "replay") {
                // A lesson's recorded demo: played by `capa-tui replay`, not part of the lesson.
            } else if let Ok(rel) = p.strip_prefix(dir) {
                let text = crate::lab::files::read_text(&p, crate::lab::files::MAX_LEARNER_FILE)?;
                out.push((rel.to_string_lossy().replace('\\', "/"), text));
            }
        }
    }
    out.sort();
    Ok(out)
}
