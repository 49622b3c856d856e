//! Protecting the learner's work before a step writes: uncommitted changes, local commits and a
//! remote that moved on are the learner's, and stop the step with what to do — unless they are
//! exactly what an earlier, interrupted run of capa-tui left (then the re-run completes it).

use std::path::Path;

use super::StepError;
use crate::git;

/// The author capa-tui commits as; its own unpushed commits may be pushed by a re-run.
pub const AUTHOR: &str = "capa-tui";

/// Fetches and checks the working copy. `ours` are the files the step is about to write, with
/// their contents: uncommitted changes that already equal them are an interrupted run's.
pub fn check(repo_dir: &Path, ours: &[(String, String)]) -> Result<(), StepError> {
    if !repo_dir.join(".git").exists() {
        return Err(format!(
            "there is no working copy at {}: do lesson 1 first (it creates and clones the repo)",
            repo_dir.display()
        )
        .into());
    }
    let repo = git::open(repo_dir)?;
    let pending = git::pending(&repo, "main")?;
    let foreign: Vec<&String> = pending
        .uncommitted
        .iter()
        .filter(|path| {
            let on_disk = std::fs::read_to_string(repo_dir.join(path)).ok();
            !ours
                .iter()
                .any(|(p, text)| p == *path && on_disk.as_deref() == Some(text.as_str()))
        })
        .collect();
    let dir = repo_dir.display();
    if !foreign.is_empty() {
        let list: Vec<&str> = foreign.iter().take(5).map(|s| s.as_str()).collect();
        return Err(format!(
            "the working copy {dir} has changes of yours that are not committed ({}{}). capa-tui never overwrites your work: commit them (git -C {dir} commit -am ...) or put them aside (git -C {dir} stash), then run the lesson again",
            list.join(", "),
            if foreign.len() > 5 { ", ..." } else { "" }
        ).into());
    }
    if pending.behind > 0 {
        return Err(format!(
            "the remote has {} commit(s) your working copy {dir} does not: bring them in first (git -C {dir} pull --rebase), then run the lesson again",
            pending.behind
        ).into());
    }
    if pending.unpushed > 0 && !unpushed_are_ours(&repo)? {
        return Err(format!(
            "the working copy {dir} has {} commit(s) of yours that are not pushed: push them (git -C {dir} push origin main) or undo them, then run the lesson again",
            pending.unpushed
        ).into());
    }
    Ok(())
}

fn unpushed_are_ours(repo: &git2::Repository) -> Result<bool, StepError> {
    let (Ok(local), Ok(remote)) = (
        repo.refname_to_id("refs/heads/main"),
        repo.refname_to_id("refs/remotes/origin/main"),
    ) else {
        return Ok(true);
    };
    let mut walk = repo.revwalk()?;
    walk.push(local)?;
    walk.hide(remote)?;
    for oid in walk {
        let commit = oid.and_then(|o| repo.find_commit(o))?;
        if commit.author().name().ok() != Some(AUTHOR) {
            return Ok(false);
        }
    }
    Ok(true)
}
