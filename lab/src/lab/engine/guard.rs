//! Protecting the learner's work before a step writes: uncommitted changes, local commits and a
//! remote that moved on are the learner's, and stop the step with what to do — unless they are
//! exactly what an earlier, interrupted run of capa-tui left (then the re-run completes it).

use std::path::Path;

use super::StepError;
use crate::git;
use crate::lab::spec::LessonId;

/// The author capa-tui commits as; its own unpushed commits may be pushed by a re-run.
pub const AUTHOR: &str = "capa-tui";

/// What capa-tui itself may have left uncommitted in the working copy.
pub struct ByUs<'a> {
    /// Whether a file's text is one a template of any lesson writes there.
    pub written: &'a dyn Fn(&str, &str) -> bool,
    /// Whether a lesson's plan removes that file.
    pub removed: &'a dyn Fn(&str) -> bool,
}

/// Fetches and checks the working copy. `ours` are the files the step is about to write, with
/// their contents: uncommitted changes that already equal them are an interrupted run's.
/// `clones` is the lesson that makes the working copy, to name when there is none;
/// `written_by_us(path, text)` says whether a file's text is one capa-tui writes there (a
/// template of any lesson): an interrupted run left it, and it is not the learner's;
/// `removed_by_us(path)` whether a lesson's plan removes that file (Git still holds it).
pub fn check(
    repo_dir: &Path,
    ours: &[(String, String)],
    clones: Option<LessonId>,
    by_us: &ByUs<'_>,
) -> Result<(), StepError> {
    let (written_by_us, removed_by_us) = (by_us.written, by_us.removed);
    if !repo_dir.join(".git").exists() {
        return Err(StepError::NoWorkingCopy {
            dir: repo_dir.to_path_buf(),
            lesson: clones,
        });
    }
    let repo = git::open(repo_dir)?;
    let pending = git::pending(&repo, "main")?;
    let foreign: Vec<&String> = pending
        .uncommitted
        .iter()
        .filter(|path| {
            let on_disk = std::fs::read_to_string(repo_dir.join(path)).ok();
            let mine = ours
                .iter()
                .any(|(p, text)| p == *path && on_disk.as_deref() == Some(text.as_str()));
            let earlier = on_disk
                .as_deref()
                .is_some_and(|text| written_by_us(&format!("repo/{path}"), text));
            // Gone as a plan's remove-files left it, not yet committed: nothing is lost.
            let removed = on_disk.is_none() && removed_by_us(path);
            !(mine || earlier || removed)
        })
        .collect();
    let dir = repo_dir.to_path_buf();
    if !foreign.is_empty() {
        return Err(StepError::Uncommitted {
            dir,
            files: foreign.iter().take(5).map(|s| (*s).clone()).collect(),
            more: foreign.len() > 5,
        });
    }
    if pending.behind > 0 {
        return Err(StepError::Behind {
            dir,
            count: pending.behind,
        });
    }
    if pending.unpushed > 0 && !unpushed_are_ours(&repo)? {
        return Err(StepError::Unpushed {
            dir,
            count: pending.unpushed,
        });
    }
    Ok(())
}

fn unpushed_are_ours(repo: &crate::git::Repository) -> Result<bool, StepError> {
    let authors = crate::git::authors_ahead(repo, "refs/heads/main", "refs/remotes/origin/main")?;
    Ok(authors.is_none_or(|a| a.iter().all(|name| name == AUTHOR)))
}
