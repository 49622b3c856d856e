//! `capa-tui lesson test`'s trial of a lesson's grading, once its plan has run on a fresh
//! cluster: each broken copy of its evidence (see `broken`) is written in place of the good
//! file and graded, and the good file is put back before the next, whatever happens.

pub mod broken;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use broken::{Breakage, Broken};

use crate::i18n::{Lang, Say};
use crate::lab::catalog::Lesson;
use crate::lab::eval::check::{self, Finding};
use crate::lab::eval::context::Context;
use crate::lab::files::write_atomic;
use crate::t;

/// How the self-check took one broken copy.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub broken: Broken,
    /// The self-check failed it, as it must.
    pub refused: bool,
    /// The first finding that failed it: what a learner would have read.
    pub why: Option<Finding>,
}

/// Why the trial could not go on, typed.
#[derive(Debug, thiserror::Error)]
pub enum TrialError {
    /// An evidence file could not be written or put back.
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl Say for TrialError {
    fn say(&self, lang: Lang) -> String {
        match self {
            TrialError::Write { path, source } => t!(
                lang,
                "trial-cannot-write",
                path = path.display().to_string(),
                why = source.to_string()
            ),
        }
    }
}

crate::display_says!(TrialError);

/// A JSON object read from an evidence file, when it is one.
fn read_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str::<Value>(&text)
        .ok()
        .filter(Value::is_object)
}

/// Grades every broken copy of `lesson`'s evidence; an empty list when the lesson writes none
/// or its good file is not there to break (its own self-check says why).
pub async fn try_broken(lesson: &Lesson, ctx: &Context<'_>) -> Result<Vec<Refusal>, TrialError> {
    let Some(spec) = &lesson.spec.evidence else {
        return Ok(Vec::new());
    };
    let Some(good) = read_json(&ctx.src_dir.join(&spec.file)) else {
        return Ok(Vec::new());
    };
    let earlier = |file: &str| {
        let spec = ctx
            .catalog
            .lesson_for_evidence(file)?
            .spec
            .evidence
            .clone()?;
        Some((spec, read_json(&ctx.src_dir.join(file))?))
    };
    let mut out = Vec::new();
    for broken in broken::variants(spec, &good, &earlier) {
        let path = ctx.src_dir.join(&broken.file);
        let kept = PutBack::keep(&path)?;
        let text = serde_json::to_string_pretty(&broken.doc).unwrap_or_default() + "\n";
        write_atomic(&path, &text).map_err(|source| TrialError::Write {
            path: path.clone(),
            source,
        })?;
        let grade = check::grade_lesson(lesson, ctx).await;
        kept.put_back()?;
        out.push(Refusal {
            refused: !grade.passed(),
            why: grade.findings.into_iter().find(|f| !f.ok),
            broken,
        });
    }
    Ok(out)
}

/// A file's good bytes, written back when the trial of a copy ends, even by a panic or a
/// cancelled future: evidence is never left broken.
struct PutBack {
    path: PathBuf,
    bytes: Option<Vec<u8>>,
}

impl PutBack {
    fn keep(path: &Path) -> Result<PutBack, TrialError> {
        let bytes = std::fs::read(path).map_err(|source| TrialError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(PutBack {
            path: path.to_path_buf(),
            bytes: Some(bytes),
        })
    }

    fn put_back(mut self) -> Result<(), TrialError> {
        let bytes = self.bytes.take().unwrap_or_default();
        std::fs::write(&self.path, bytes).map_err(|source| TrialError::Write {
            path: self.path.clone(),
            source,
        })
    }
}

impl Drop for PutBack {
    fn drop(&mut self) {
        if let Some(bytes) = self.bytes.take() {
            let _ = std::fs::write(&self.path, bytes);
        }
    }
}
