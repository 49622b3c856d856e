//! What a repository's history says, read only: a file at a commit, `main`'s commits, the
//! folders of each commit, when a file last changed, a commit's parent, and whose commits a
//! branch has that its remote does not. An answer that cannot be read is `None` or empty, as a
//! check that finds nothing.

use std::collections::BTreeMap;
use std::path::Path;

use git2::{ObjectType, Oid, Repository};

use super::{GitError, GitOp, Result};

/// A file's text at a revision (SHA, branch, `HEAD`), if it exists there.
pub fn file_at(repo: &Repository, revision: &str, path: &str) -> Option<String> {
    let blob = repo
        .revparse_single(&format!("{revision}:{path}"))
        .ok()?
        .peel_to_blob()
        .ok()?;
    String::from_utf8(blob.content().to_vec()).ok()
}

/// The commits of branch `main`, newest first (none when it has no commit).
pub fn main_history(repo: &Repository) -> Vec<git2::Oid> {
    let Ok(mut walk) = repo.revwalk() else {
        return Vec::new();
    };
    if walk.push_ref("refs/heads/main").is_err() {
        return Vec::new();
    }
    walk.flatten().collect()
}

/// The full SHA of the commit `revision` (a branch, tag, `HEAD` or SHA) names, if any.
pub fn resolve(repo: &Repository, revision: &str) -> Option<String> {
    let commit = repo.revparse_single(revision).ok()?.peel_to_commit().ok()?;
    Some(commit.id().to_string())
}

/// The full SHA of HEAD, if there is a commit.
pub fn head(repo: &Repository) -> Option<String> {
    repo.head().ok()?.target().map(|o| o.to_string())
}

/// `main`'s newest `limit` commits, each with the tree id of each of its top-level folders.
pub fn folders_at(repo: &Repository, limit: usize) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for oid in main_history(repo).into_iter().take(limit) {
        let Ok(tree) = repo.find_commit(oid).and_then(|c| c.tree()) else {
            continue;
        };
        let dirs = tree
            .iter()
            .filter(|e| e.kind() == Some(ObjectType::Tree))
            .map(|e| {
                (
                    String::from_utf8_lossy(e.name_bytes()).into_owned(),
                    e.id().to_string(),
                )
            })
            .collect();
        out.insert(oid.to_string(), dirs);
    }
    out
}

/// When (seconds since the epoch) the newest commit of `main` that changed `path` was made,
/// looking back at most `limit` commits.
pub fn changed_at(repo: &Repository, path: &str, limit: usize) -> Option<i64> {
    let blob = |oid: Oid| {
        repo.find_commit(oid)
            .ok()?
            .tree()
            .ok()?
            .get_path(Path::new(path))
            .ok()
            .map(|e| e.id())
    };
    let history = main_history(repo);
    let newest = *history.first()?;
    let now = blob(newest)?;
    // The oldest commit, walking back, that still has the file as it is now.
    let since = history
        .iter()
        .take(limit)
        .take_while(|c| blob(**c) == Some(now))
        .last()?;
    Some(repo.find_commit(*since).ok()?.time().seconds())
}

/// The first parent of `commit` (a full SHA), if it has one.
pub fn parent_of(repo: &Repository, commit: &str) -> Option<String> {
    let oid = Oid::from_str(commit).ok()?;
    let c = repo.find_commit(oid).ok()?;
    c.parent_ids().next().map(|p| p.to_string())
}

/// How a commit changed a file, against its first parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileChange {
    /// The file is there and was not before.
    Added,
    /// The file was there and is not any more.
    Removed,
}

/// How `commit` (a full SHA) changed `path`, if it added or removed it: a root commit adds
/// what it holds.
pub fn file_change_at(repo: &Repository, commit: &str, path: &str) -> Option<FileChange> {
    let here = file_at(repo, commit, path).is_some();
    let before = parent_of(repo, commit).is_some_and(|p| file_at(repo, &p, path).is_some());
    match (before, here) {
        (false, true) => Some(FileChange::Added),
        (true, false) => Some(FileChange::Removed),
        _ => None,
    }
}

/// The newest commit of `main` that made `change` to `path`, looking back at most `limit`
/// commits.
pub fn newest_file_change(
    repo: &Repository,
    path: &str,
    change: FileChange,
    limit: usize,
) -> Option<String> {
    main_history(repo)
        .into_iter()
        .take(limit)
        .map(|oid| oid.to_string())
        .find(|c| file_change_at(repo, c, path) == Some(change))
}

/// The author names of the commits branch `local` has that `remote` has not (both full ref
/// names); `None` when either ref is missing.
pub fn authors_ahead(repo: &Repository, local: &str, remote: &str) -> Result<Option<Vec<String>>> {
    let (Ok(local), Ok(remote)) = (repo.refname_to_id(local), repo.refname_to_id(remote)) else {
        return Ok(None);
    };
    let walked = (|| -> std::result::Result<Vec<String>, git2::Error> {
        let mut walk = repo.revwalk()?;
        walk.push(local)?;
        walk.hide(remote)?;
        let mut authors = Vec::new();
        for oid in walk {
            let commit = repo.find_commit(oid?)?;
            authors.push(String::from_utf8_lossy(commit.author().name_bytes()).into_owned());
        }
        Ok(authors)
    })();
    walked.map(Some).map_err(|source| GitError::Git {
        op: GitOp::Compare,
        source,
    })
}

/// (full SHA, subject) of the working copy's recent commits, so revisions read as words.
pub fn commit_subjects(repo_dir: &Path) -> Vec<(String, String)> {
    let Ok(repo) = super::open(repo_dir) else {
        return Vec::new();
    };
    let Ok(mut walk) = repo.revwalk() else {
        return Vec::new();
    };
    if walk.push_glob("refs/*").is_err() {
        return Vec::new();
    }
    walk.flatten()
        .take(200)
        .filter_map(|oid| {
            let c = repo.find_commit(oid).ok()?;
            Some((
                oid.to_string(),
                c.summary().ok().flatten().unwrap_or_default().to_string(),
            ))
        })
        .collect()
}
