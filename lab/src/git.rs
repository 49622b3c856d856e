//! Git for the lab's "do it for me" actions, with git2 (no git CLI needed): create a bare repo,
//! clone it, see whether a working copy holds uncommitted or unpushed work, commit everything,
//! and push with progress. Blocking calls: run them off the async runtime. Knows nothing of
//! lessons.

use std::path::{Path, PathBuf};

use git2::{BranchType, IndexAddOption, PushOptions, RemoteCallbacks, Status, StatusOptions};

use crate::i18n::{Lang, Say};
use crate::t;

mod history;
/// The types of libgit2 the lab holds: a repository, a commit's id, an author. Named through
/// this module, so `git` is the one place that names `git2`.
pub use git2::{Oid, Repository, Signature};
pub use history::{
    FileChange, authors_ahead, changed_at, commit_subjects, file_at, file_change_at, folders_at,
    head, main_history, newest_file_change, parent_of, resolve,
};

/// What git was doing when it failed.
#[derive(Debug, Clone, PartialEq)]
pub enum GitOp {
    CreateBare(PathBuf),
    Clone { url: String, dest: PathBuf },
    SetHead,
    Open(PathBuf),
    Fetch,
    Status,
    Compare,
    Index,
    Commit,
    FindRemote,
    Push(String),
    Configure,
}

/// Why a git operation failed, typed; said in the learner's language by [`Say`] (its
/// `Display` is its English words), with libgit2's error as its `source`.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// libgit2 failed: what it was doing, and its own words.
    Git { op: GitOp, source: git2::Error },
    /// The remote refused the push (someone pushed first): its own words for why.
    Rejected {
        remote: String,
        repo: PathBuf,
        refusal: String,
    },
}

impl Say for GitError {
    fn say(&self, lang: Lang) -> String {
        match self {
            GitError::Git { op, source } => {
                let what = match op {
                    GitOp::CreateBare(p) => {
                        t!(lang, "git-op-create-bare", path = p.display().to_string())
                    }
                    GitOp::Clone { url, dest } => t!(
                        lang,
                        "git-op-clone",
                        url = url.as_str(),
                        dest = dest.display().to_string()
                    ),
                    GitOp::SetHead => t!(lang, "git-op-set-head"),
                    GitOp::Open(p) => t!(lang, "git-op-open", path = p.display().to_string()),
                    GitOp::Fetch => t!(lang, "git-op-fetch"),
                    GitOp::Status => t!(lang, "git-op-status"),
                    GitOp::Compare => t!(lang, "git-op-compare"),
                    GitOp::Index => t!(lang, "git-op-index"),
                    GitOp::Commit => t!(lang, "git-op-commit"),
                    GitOp::FindRemote => t!(lang, "git-op-find-remote"),
                    GitOp::Push(url) => t!(lang, "git-op-push", url = url.as_str()),
                    GitOp::Configure => t!(lang, "git-op-configure"),
                };
                t!(lang, "git-failed", what = what, why = source.message())
            }
            GitError::Rejected {
                remote,
                repo,
                refusal,
            } => t!(
                lang,
                "git-rejected",
                remote = remote.as_str(),
                repo = repo.display().to_string(),
                why = refusal.as_str()
            ),
        }
    }
}

crate::display_says!(GitError);

pub type Result<T> = std::result::Result<T, GitError>;

/// Points each remote of the working copy at `repo_dir` whose URL is a path under `from` at
/// the same path under `to` (the folder it moved to); other remotes stay as they are.
pub fn move_remotes(repo_dir: &Path, from: &Path, to: &Path) -> Result<()> {
    let repo = open(repo_dir)?;
    let names = git(GitOp::FindRemote, repo.remotes())?;
    for name in names.iter().flatten().flatten() {
        let Some(url) = git(GitOp::FindRemote, repo.find_remote(name))?
            .url()
            .ok()
            .map(String::from)
        else {
            continue;
        };
        let Ok(rest) = Path::new(&url).strip_prefix(from) else {
            continue;
        };
        let moved = to.join(rest).display().to_string();
        git(GitOp::Configure, repo.remote_set_url(name, &moved))?;
    }
    Ok(())
}

/// An author's signature dated `at` (seconds since the epoch), or now when `None`.
pub fn signature(name: &str, email: &str, at: Option<i64>) -> Result<Signature<'static>> {
    let made = match at {
        Some(seconds) => Signature::new(name, email, &git2::Time::new(seconds, 0)),
        None => Signature::now(name, email),
    };
    git(GitOp::Commit, made)
}

fn git<T>(op: GitOp, r: std::result::Result<T, git2::Error>) -> Result<T> {
    r.map_err(|source| GitError::Git { op, source })
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
        GitOp::CreateBare(path.to_path_buf()),
        Repository::init_opts(path, &opts),
    )?;
    Ok(true)
}

/// Clones `url` into `dest` (an empty repo clones fine), on branch `main`, which tracks
/// `origin/main` so a plain `git push` and `git pull` work.
pub fn clone(url: &str, dest: &Path) -> Result<Repository> {
    let repo = git(
        GitOp::Clone {
            url: url.to_string(),
            dest: dest.to_path_buf(),
        },
        Repository::clone(url, dest),
    )?;
    if repo.head().is_err() {
        // An empty remote: point HEAD at main so the first commit lands there.
        git(GitOp::SetHead, repo.set_head("refs/heads/main"))?;
    }
    track_origin(&repo)?;
    Ok(repo)
}

/// Makes the working copy's branch `main` track `origin/main`, as `git push -u` would, when it
/// tracks nothing: a clone of an empty repo (by git2, or by `git clone`) tracks nothing, or a
/// `master` that does not exist. Touches only `.git/config`, never a file or a commit of the
/// learner's; returns whether it changed anything.
pub fn track_origin(repo: &Repository) -> Result<bool> {
    if repo.find_remote("origin").is_err() {
        return Ok(false);
    }
    let on_main = repo
        .find_reference("HEAD")
        .ok()
        .and_then(|h| h.symbolic_target().ok().flatten().map(String::from))
        .is_some_and(|t| t == "refs/heads/main");
    // The working copy's own file, not the learner's global settings.
    let mut config = git(
        GitOp::Configure,
        repo.config()
            .and_then(|c| c.open_level(git2::ConfigLevel::Local)),
    )?;
    let mut changed = false;
    // A clone of an empty repo by git2 sets up a branch that will never exist.
    let stale_master = repo.find_branch("master", BranchType::Local).is_err()
        && config.get_string("branch.master.merge").is_ok();
    if stale_master {
        for key in ["branch.master.remote", "branch.master.merge"] {
            let _ = config.remove(key);
        }
        changed = true;
    }
    if on_main && config.get_string("branch.main.merge").is_err() {
        git(
            GitOp::Configure,
            config.set_str("branch.main.remote", "origin"),
        )?;
        git(
            GitOp::Configure,
            config.set_str("branch.main.merge", "refs/heads/main"),
        )?;
        changed = true;
    }
    Ok(changed)
}

pub fn open(path: &Path) -> Result<Repository> {
    git(GitOp::Open(path.to_path_buf()), Repository::open(path))
}

/// Fetches `origin` and reports what the working copy holds that the remote does not.
pub fn pending(repo: &Repository, branch: &str) -> Result<Pending> {
    if let Ok(mut origin) = repo.find_remote("origin") {
        git(GitOp::Fetch, origin.fetch(&[branch], None, None))?;
    }
    let mut opts = StatusOptions::new();
    opts.include_untracked(true).recurse_untracked_dirs(true);
    let statuses = git(GitOp::Status, repo.statuses(Some(&mut opts)))?;
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
        (Some(l), Some(r)) => git(GitOp::Compare, repo.graph_ahead_behind(l, r))?,
        (Some(l), None) => (git(GitOp::Compare, count_commits(repo, l))?, 0),
        (None, Some(r)) => (0, git(GitOp::Compare, count_commits(repo, r))?),
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
    let mut index = git(GitOp::Index, repo.index())?;
    git(
        GitOp::Index,
        index.add_all(["*"], IndexAddOption::DEFAULT, None),
    )?;
    git(GitOp::Index, index.update_all(["*"], None))?;
    git(GitOp::Index, index.write())?;
    let tree_id = git(GitOp::Commit, index.write_tree())?;
    let tree = git(GitOp::Commit, repo.find_tree(tree_id))?;
    let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    if parent.as_ref().is_some_and(|p| p.tree_id() == tree_id) {
        return Ok(None);
    }
    let parents: Vec<&git2::Commit> = parent.iter().collect();
    let oid = git(
        GitOp::Commit,
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
    let mut origin = git(GitOp::FindRemote, repo.find_remote("origin"))?;
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
                    refusal: e.message().to_string(),
                });
            }
            return Err(GitError::Git {
                op: GitOp::Push(remote_url),
                source: e,
            });
        }
    }
    if let Some(refusal) = rejected {
        return Err(GitError::Rejected {
            remote: remote_url,
            repo: repo.workdir().unwrap_or(repo.path()).to_path_buf(),
            refusal,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig() -> Signature<'static> {
        Signature::now("capa-tui", "capa-tui@localhost").unwrap()
    }

    #[test]
    fn a_files_addition_and_removal_are_found_in_mains_history() {
        let dir = tempfile::tempdir().unwrap();
        let bare = dir.path().join("src.git");
        init_bare(&bare).unwrap();
        let work = dir.path().join("repo");
        let repo = clone(&format!("file://{}", bare.display()), &work).unwrap();
        let commit = |msg: &str| {
            let sha = commit_all(&repo, msg, &sig()).unwrap().unwrap();
            push(&repo, "main", |_| {}).unwrap();
            sha
        };
        std::fs::write(work.join("keep.txt"), "k").unwrap();
        let root = commit("root");
        std::fs::create_dir(work.join("apps")).unwrap();
        std::fs::write(work.join("apps/a.yaml"), "a: 1").unwrap();
        let added = commit("add a");
        std::fs::write(work.join("apps/a.yaml"), "a: 2").unwrap();
        let changed = commit("change a");
        std::fs::remove_file(work.join("apps/a.yaml")).unwrap();
        let removed = commit("remove a");
        let bare = Repository::open_bare(&bare).unwrap();
        let at = |c: &str| file_change_at(&bare, c, "apps/a.yaml");
        assert_eq!(at(&root), None);
        assert_eq!(at(&added), Some(FileChange::Added));
        assert_eq!(at(&changed), None, "a change is neither");
        assert_eq!(at(&removed), Some(FileChange::Removed));
        assert_eq!(
            file_change_at(&bare, &root, "keep.txt"),
            Some(FileChange::Added),
            "a root commit adds what it holds"
        );
        let newest = |c| newest_file_change(&bare, "apps/a.yaml", c, usize::MAX);
        assert_eq!(newest(FileChange::Added), Some(added));
        assert_eq!(newest(FileChange::Removed), Some(removed.clone()));
        assert_eq!(
            newest_file_change(&bare, "keep.txt", FileChange::Removed, usize::MAX),
            None
        );
        // Looking back one commit sees the removal, not the addition three commits back.
        let recent = |c| newest_file_change(&bare, "apps/a.yaml", c, 1);
        assert_eq!(recent(FileChange::Removed), Some(removed));
        assert_eq!(recent(FileChange::Added), None);
    }

    #[test]
    fn clone_commit_push_and_no_duplicate_commits() {
        let dir = tempfile::tempdir().unwrap();
        let bare = dir.path().join("src.git");
        assert!(init_bare(&bare).unwrap());
        assert!(!init_bare(&bare).unwrap(), "a second init is a no-op");
        let work = dir.path().join("repo");
        let repo = clone(&format!("file://{}", bare.display()), &work).unwrap();
        // libgit2 leaves an empty `[branch "master"]` header behind; git ignores it.
        let config = repo.config().unwrap().snapshot().unwrap();
        assert_eq!(
            config.get_str("branch.main.merge").unwrap(),
            "refs/heads/main"
        );
        assert_eq!(config.get_str("branch.main.remote").unwrap(), "origin");
        assert!(
            config.get_str("branch.master.merge").is_err(),
            "no stale master"
        );
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
