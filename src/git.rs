//! Git for the lab's "do it for me" actions, with git2 (no git CLI needed): create a bare repo,
//! clone it, see whether a working copy holds uncommitted or unpushed work, commit everything,
//! and push with progress. Blocking calls: run them off the async runtime. Knows nothing of
//! lessons.

use std::path::{Path, PathBuf};

use git2::{
    BranchType, IndexAddOption, PushOptions, RemoteCallbacks, Repository, Signature, Status,
    StatusOptions,
};

#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error("git: {what}: {source}")]
    Git { what: String, source: git2::Error },
    #[error(
        "the push to {remote} was rejected: {why}. Someone else pushed first: fetch and look at what changed (git -C {repo} fetch && git -C {repo} log --oneline HEAD..origin/main) before trying again"
    )]
    Rejected {
        remote: String,
        repo: PathBuf,
        why: String,
    },
}

pub type Result<T> = std::result::Result<T, GitError>;

fn git<T>(what: impl Into<String>, r: std::result::Result<T, git2::Error>) -> Result<T> {
    r.map_err(|source| GitError::Git {
        what: what.into(),
        source,
    })
}

/// What is in a working copy that is not yet on the remote.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pending {
    /// Paths with uncommitted changes (including untracked files).
    pub uncommitted: Vec<String>,
    /// Local commits not on `origin/<branch>`.
    pub unpushed: usize,
    /// Commits on `origin/<branch>` not in the local branch (after the last fetch).
    pub behind: usize,
}

impl Pending {
    pub fn is_clean(&self) -> bool {
        self.uncommitted.is_empty() && self.unpushed == 0 && self.behind == 0
    }
}

/// Creates a bare repository with `main` as its default branch (no-op if it exists).
pub fn init_bare(path: &Path) -> Result<bool> {
    if path.join("HEAD").exists() {
        return Ok(false);
    }
    let mut opts = git2::RepositoryInitOptions::new();
    opts.bare(true).initial_head("main").mkpath(true);
    git(
        format!("create bare repo {}", path.display()),
        Repository::init_opts(path, &opts),
    )?;
    Ok(true)
}

/// Clones `url` into `dest` (an empty repo clones fine), on branch `main`.
pub fn clone(url: &str, dest: &Path) -> Result<Repository> {
    let repo = git(
        format!("clone {url} into {}", dest.display()),
        Repository::clone(url, dest),
    )?;
    if repo.head().is_err() {
        // An empty remote: point HEAD at main so the first commit lands there.
        git("set HEAD to main", repo.set_head("refs/heads/main"))?;
    }
    Ok(repo)
}

pub fn open(path: &Path) -> Result<Repository> {
    git(format!("open {}", path.display()), Repository::open(path))
}

/// Fetches `origin` and reports what the working copy holds that the remote does not.
pub fn pending(repo: &Repository, branch: &str) -> Result<Pending> {
    if let Ok(mut origin) = repo.find_remote("origin") {
        git("fetch origin", origin.fetch(&[branch], None, None))?;
    }
    let mut opts = StatusOptions::new();
    opts.include_untracked(true).recurse_untracked_dirs(true);
    let statuses = git("read status", repo.statuses(Some(&mut opts)))?;
    let uncommitted = statuses
        .iter()
        .filter(|s| s.status() != Status::CURRENT && !s.status().contains(Status::IGNORED))
        .filter_map(|s| s.path().ok().map(String::from))
        .collect();
    let local = repo
        .find_branch(branch, BranchType::Local)
        .ok()
        .and_then(|b| b.get().target());
    let remote = repo
        .find_reference(&format!("refs/remotes/origin/{branch}"))
        .ok()
        .and_then(|r| r.target());
    let (unpushed, behind) = match (local, remote) {
        (Some(l), Some(r)) => git("compare with origin", repo.graph_ahead_behind(l, r))?,
        (Some(l), None) => (git("count commits", count_commits(repo, l))?, 0),
        (None, Some(r)) => (0, git("count commits", count_commits(repo, r))?),
        (None, None) => (0, 0),
    };
    Ok(Pending {
        uncommitted,
        unpushed,
        behind,
    })
}

fn count_commits(repo: &Repository, from: git2::Oid) -> std::result::Result<usize, git2::Error> {
    let mut walk = repo.revwalk()?;
    walk.push(from)?;
    Ok(walk.count())
}

/// Stages everything and commits it on the current branch; `None` when there was nothing to
/// commit (so re-running a step never makes a duplicate commit).
pub fn commit_all(repo: &Repository, message: &str, author: &Signature) -> Result<Option<String>> {
    let mut index = git("read index", repo.index())?;
    git(
        "stage files",
        index.add_all(["*"], IndexAddOption::DEFAULT, None),
    )?;
    git("stage deletions", index.update_all(["*"], None))?;
    git("write index", index.write())?;
    let tree_id = git("write tree", index.write_tree())?;
    let tree = git("find tree", repo.find_tree(tree_id))?;
    let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    if parent.as_ref().is_some_and(|p| p.tree_id() == tree_id) {
        return Ok(None);
    }
    let parents: Vec<&git2::Commit> = parent.iter().collect();
    let oid = git(
        "commit",
        repo.commit(Some("HEAD"), author, author, message, &tree, &parents),
    )?;
    Ok(Some(oid.to_string()))
}

/// Push progress, as data: objects sent of total, bytes sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PushProgress {
    pub current: usize,
    pub total: usize,
    pub bytes: usize,
}

/// Pushes `branch` to `origin`, reporting progress; a rejected update is an error that says
/// what to do, never a force push.
pub fn push(repo: &Repository, branch: &str, mut progress: impl FnMut(PushProgress)) -> Result<()> {
    let mut origin = git("find remote origin", repo.find_remote("origin"))?;
    let remote_url = origin.url().unwrap_or("origin").to_string();
    let mut rejected: Option<String> = None;
    {
        let mut callbacks = RemoteCallbacks::new();
        callbacks.push_transfer_progress(|current, total, bytes| {
            progress(PushProgress {
                current,
                total,
                bytes,
            })
        });
        callbacks.push_update_reference(|_, status| {
            if let Some(why) = status {
                rejected = Some(why.to_string());
            }
            Ok(())
        });
        let mut opts = PushOptions::new();
        opts.remote_callbacks(callbacks);
        let refspec = format!("refs/heads/{branch}:refs/heads/{branch}");
        let result = origin.push(&[refspec.as_str()], Some(&mut opts));
        if let Err(e) = result {
            if e.code() == git2::ErrorCode::NotFastForward
                || e.message().contains("non-fast-forward")
            {
                return Err(GitError::Rejected {
                    remote: remote_url,
                    repo: repo.workdir().unwrap_or(repo.path()).to_path_buf(),
                    why: e.message().to_string(),
                });
            }
            return Err(GitError::Git {
                what: format!("push to {remote_url}"),
                source: e,
            });
        }
    }
    if let Some(why) = rejected {
        return Err(GitError::Rejected {
            remote: remote_url,
            repo: repo.workdir().unwrap_or(repo.path()).to_path_buf(),
            why,
        });
    }
    Ok(())
}

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

/// The full SHA of HEAD, if there is a commit.
pub fn head(repo: &Repository) -> Option<String> {
    repo.head().ok()?.target().map(|o| o.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig() -> Signature<'static> {
        Signature::now("capa-tui", "capa-tui@localhost").unwrap()
    }

    #[test]
    fn clone_commit_push_and_no_duplicate_commits() {
        let dir = tempfile::tempdir().unwrap();
        let bare = dir.path().join("src.git");
        assert!(init_bare(&bare).unwrap());
        assert!(!init_bare(&bare).unwrap(), "a second init is a no-op");
        let work = dir.path().join("repo");
        let repo = clone(&format!("file://{}", bare.display()), &work).unwrap();
        std::fs::write(work.join("a.txt"), "hello").unwrap();
        let p = pending(&repo, "main").unwrap();
        assert_eq!(p.uncommitted, ["a.txt"]);
        let first = commit_all(&repo, "add a", &sig()).unwrap();
        assert!(first.is_some());
        assert_eq!(
            commit_all(&repo, "again", &sig()).unwrap(),
            None,
            "nothing new: no commit"
        );
        assert_eq!(pending(&repo, "main").unwrap().unpushed, 1);
        let mut calls = 0;
        push(&repo, "main", |_| calls += 1).unwrap();
        let after = pending(&repo, "main").unwrap();
        assert!(after.is_clean(), "{after:?}");
        let bare_repo = Repository::open_bare(&bare).unwrap();
        assert_eq!(
            bare_repo
                .find_reference("refs/heads/main")
                .unwrap()
                .target()
                .map(|o| o.to_string()),
            first
        );
    }

    #[test]
    fn a_diverged_remote_is_reported_and_the_push_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let bare = dir.path().join("src.git");
        init_bare(&bare).unwrap();
        let url = format!("file://{}", bare.display());
        let a = clone(&url, &dir.path().join("a")).unwrap();
        std::fs::write(dir.path().join("a/x"), "1").unwrap();
        commit_all(&a, "one", &sig()).unwrap();
        push(&a, "main", |_| {}).unwrap();
        let b = clone(&url, &dir.path().join("b")).unwrap();
        std::fs::write(dir.path().join("b/x"), "2").unwrap();
        commit_all(&b, "from b", &sig()).unwrap();
        push(&b, "main", |_| {}).unwrap();
        std::fs::write(dir.path().join("a/y"), "3").unwrap();
        commit_all(&a, "from a", &sig()).unwrap();
        let p = pending(&a, "main").unwrap();
        assert_eq!((p.unpushed, p.behind), (1, 1));
        let err = push(&a, "main", |_| {}).unwrap_err();
        assert!(matches!(err, GitError::Rejected { .. }), "{err}");
        assert!(err.to_string().contains("fetch"), "{err}");
    }
}
