//! The learner's progress, kept with the lab (`<src-dir>/.capa-tui/tutor.json`, beside the
//! evidence): the lesson and part they are on, the hints they asked for, the checklist steps
//! done with their times, and the last self-check of each evidence file. Reopening the tutor
//! resumes there; `capa-tui status` reports it. Written atomically; a damaged file is kept aside
//! and progress starts over, never a crash.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::catalog::Section;
use super::eval::check::Grade;
use super::spec::LessonId;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// The lesson (by number) and part shown last.
    pub lesson: Option<LessonId>,
    pub section: Section,
    /// Hints shown, by lesson number.
    pub hints: BTreeMap<LessonId, usize>,
    /// Checklist steps done: lesson number → step index → when.
    pub ticks: BTreeMap<LessonId, BTreeMap<usize, jiff::Timestamp>>,
    /// The last self-check of each evidence file.
    pub grades: BTreeMap<String, Grade>,
    /// Predictions: `lesson:action` (1-based action) → the choice made.
    pub answers: BTreeMap<String, String>,
}

/// Where progress is kept for a lab whose source dir is `src_dir`.
pub fn file(src_dir: &Path) -> PathBuf {
    src_dir.join(".capa-tui").join("tutor.json")
}

/// The progress saved for this lab, or a fresh start (a file that does not read is moved to
/// `tutor.json.damaged` and said in the log).
pub fn load(src_dir: &Path) -> Progress {
    let path = file(src_dir);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Progress::default();
    };
    match serde_json::from_str(&text) {
        Ok(p) => p,
        Err(e) => {
            let aside = path.with_extension("json.damaged");
            tracing::warn!(
                "{} does not read ({e}); kept as {} and starting over",
                path.display(),
                aside.display()
            );
            let _ = std::fs::rename(&path, aside);
            Progress::default()
        }
    }
}

pub fn save(src_dir: &Path, progress: &Progress) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(progress).map_err(std::io::Error::other)?;
    super::files::write_atomic(&file(src_dir), &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_is_saved_and_resumed_and_a_damaged_file_is_kept_aside() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()), Progress::default());
        let mut p = Progress {
            lesson: Some(LessonId(2)),
            section: Section::ByHand,
            ..Progress::default()
        };
        p.hints.insert(LessonId(2), 1);
        p.ticks
            .entry(LessonId(1))
            .or_default()
            .insert(0, "2026-12-01T03:00:00Z".parse().unwrap());
        save(dir.path(), &p).unwrap();
        assert_eq!(load(dir.path()), p);
        std::fs::write(file(dir.path()), "{not json").unwrap();
        assert_eq!(load(dir.path()), Progress::default());
        assert!(file(dir.path()).with_extension("json.damaged").exists());
    }
}
