//! The repo-server's git side: a bare cache per repo URL, `ls-remote`-style revision
//! resolution (`nativeGitClient.lsRemote`), and checking a commit out into a private directory.

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use git2::{
    AutotagOption, ErrorClass, ErrorCode, FetchOptions, FetchPrune, ObjectType, Oid, Repository,
};

use super::RepoError;

/// Everything under refs/ mirrored, so any ref a revision can name is in the cache.
const MIRROR_REFSPEC: &str = "+refs/*:refs/*";

/// One line of the remote's ref advertisement.
#[derive(Debug, Clone)]
pub(super) struct RemoteRef {
    pub name: String,
    pub oid: Oid,
}

/// `cache_dir/repos/<url made filename-safe>.git`, keyed by the URL as the Application writes
/// it, so a daemon restarting on another port keeps its cache.
pub(super) fn bare_dir(cache_dir: &Path, repo_url: &str) -> PathBuf {
    let safe: String = repo_url
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    cache_dir.join("repos").join(format!("{safe}.git"))
}

pub(super) fn open_cache(dir: &Path) -> Result<Repository, RepoError> {
    let opened = if dir.join("HEAD").is_file() {
        Repository::open_bare(dir)
    } else {
        fs::create_dir_all(dir).map_err(|e| {
            RepoError::Io(format!("cannot create git cache {}: {e}", dir.display()))
        })?;
        Repository::init_bare(dir)
    };
    opened.map_err(|e| RepoError::Io(format!("git cache {}: {}", dir.display(), e.message())))
}

/// Fetches every ref of `fetch_url` into the cache and returns the remote's advertisement
/// (HEAD first, then refs in the server's order). `repo_url` is the URL as written, for errors.
pub(super) fn fetch(
    repo: &Repository,
    fetch_url: &str,
    repo_url: &str,
) -> Result<Vec<RemoteRef>, RepoError> {
    let list_error = |e: git2::Error| {
        RepoError::Revision(format!("failed to list refs: {}", describe(&e, repo_url)))
    };
    let mut remote = repo.remote_anonymous(fetch_url).map_err(list_error)?;
    let mut opts = FetchOptions::new();
    opts.prune(FetchPrune::On)
        .download_tags(AutotagOption::None)
        .update_fetchhead(false);
    remote
        .fetch(&[MIRROR_REFSPEC], Some(&mut opts), None)
        .map_err(list_error)?;
    // libgit2 keeps the advertisement after the fetch disconnects.
    let refs: Vec<RemoteRef> = remote
        .list()
        .map_err(list_error)?
        .iter()
        .map(|h| RemoteRef {
            name: h.name().to_string(),
            oid: h.oid(),
        })
        .collect();
    if refs.is_empty() {
        return Err(RepoError::Revision(
            "failed to list refs: remote repository is empty".into(),
        ));
    }
    Ok(refs)
}

/// go-git's wording for what went wrong reaching the remote, which is what Argo CD shows.
fn describe(e: &git2::Error, repo_url: &str) -> String {
    let msg = e.message();
    let lower = msg.to_ascii_lowercase();
    if lower.contains("connection refused") {
        return format!(
            "dial tcp {}: connect: connection refused",
            authority(repo_url)
        );
    }
    // go-git's isRepoNotFoundError: the daemon's "access denied or repository not exported",
    // a missing local path, or the connection simply closing all read "repository not found".
    let not_found = e.code() == ErrorCode::NotFound
        || lower.contains("access denied")
        || lower.contains("no such repository")
        || lower.contains("not a git repository")
        || lower.contains("failed to resolve path")
        || lower.contains("early eof")
        || lower.contains("unexpected eof")
        || lower.contains("could not find repository")
        || lower.contains("hung up")
        || (e.class() == ErrorClass::Net && lower.contains("eof"));
    if not_found {
        "repository not found".into()
    } else {
        msg.to_string()
    }
}

fn authority(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let end = rest.find('/').unwrap_or(rest.len());
    let auth = &rest[..end];
    auth.rsplit_once('@').map_or(auth, |(_, h)| h)
}

/// `IsCommitSHA`.
pub(super) fn is_commit_sha(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `IsTruncatedCommitSHA`: seven or more hex digits.
fn is_truncated_sha(s: &str) -> bool {
    s.len() >= 7 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// go-git's `ReferenceName.Short()`: `refs/heads/main` → `main`, `refs/tags/v1` → `v1`,
/// `refs/remotes/origin/x` → `origin/x`, other `refs/x` → `x`.
fn short_name(name: &str) -> &str {
    let Some(rest) = name.strip_prefix("refs/") else {
        return name;
    };
    ["tags/", "heads/", "remotes/"]
        .iter()
        .find_map(|p| rest.strip_prefix(p))
        .unwrap_or(rest)
}

/// What a revision names, per `lsRemote`: a ref of the remote, or (failing that) a
/// possibly-truncated commit SHA still to be found in the fetched history.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Named {
    Ref(Oid),
    Sha(String),
}

pub(super) fn name_revision(refs: &[RemoteRef], revision: &str) -> Result<Named, RepoError> {
    let revision = if revision.is_empty() {
        "HEAD"
    } else {
        revision
    };
    // A revision that is its own short name ("main", "v1.0", "HEAD") may match by short name;
    // a full ref name ("refs/heads/main") must match exactly.
    let is_short = short_name(revision) == revision;
    let hit = refs
        .iter()
        .find(|r| (is_short && short_name(&r.name) == revision) || r.name == revision);
    match hit {
        Some(r) => Ok(Named::Ref(r.oid)),
        None if is_truncated_sha(revision) => Ok(Named::Sha(revision.to_ascii_lowercase())),
        None => Err(RepoError::Revision(format!(
            "unable to resolve '{revision}' to a commit SHA"
        ))),
    }
}

/// The commit an advertised object is or points to (annotated tags are peeled).
pub(super) fn peel(repo: &Repository, oid: Oid) -> Option<Oid> {
    let obj = repo.find_object(oid, None).ok()?;
    obj.peel_to_commit().ok().map(|c| c.id())
}

/// The full SHA of a commit named by a (possibly short) hex prefix, if the cache has it.
pub(super) fn find_commit(repo: &Repository, prefix: &str) -> Option<Oid> {
    let obj = repo.find_object_by_prefix(prefix, None).ok()?;
    obj.peel_to_commit().ok().map(|c| c.id())
}

/// The error `checkoutRevision` gives when a SHA is not in the remote: its fallback
/// `git fetch origin <rev>` fails.
pub(super) fn missing_commit(revision: &str) -> RepoError {
    let reason = if is_commit_sha(revision) {
        format!("fatal: remote error: upload-pack: not our ref {revision}")
    } else {
        format!("fatal: couldn't find remote ref {revision}")
    };
    RepoError::Checkout(format!(
        "Failed to checkout revision {revision}: `git fetch origin {revision} --tags --force --prune` failed exit status 128: {reason}"
    ))
}

/// Writes the commit's tree into `dest` (which must exist and be empty): regular and
/// executable files, symlinks, and empty directories for submodules. Never touches the cache's
/// refs or index.
pub(super) fn checkout(repo: &Repository, commit: Oid, dest: &Path) -> Result<(), RepoError> {
    let io = |e: git2::Error| {
        RepoError::Checkout(format!(
            "Failed to checkout revision {commit}: {}",
            e.message()
        ))
    };
    let tree = repo
        .find_commit(commit)
        .and_then(|c| c.tree())
        .map_err(io)?;
    let mut links = Vec::new();
    write_tree(repo, &tree, dest, Path::new(""), &mut links)?;
    // Like the repo-server (allowOutOfBoundsSymlinks off), refuse links that leave the repo.
    for (rel, target) in links {
        if escapes(&rel, &target) {
            return Err(RepoError::Source(format!(
                "repository contains out-of-bounds symlinks. file: {}",
                rel.display()
            )));
        }
    }
    Ok(())
}

fn write_tree(
    repo: &Repository,
    tree: &git2::Tree<'_>,
    dir: &Path,
    rel: &Path,
    links: &mut Vec<(PathBuf, PathBuf)>,
) -> Result<(), RepoError> {
    let io = |what: &Path, e: &dyn std::fmt::Display| {
        RepoError::Io(format!("cannot write checkout {}: {e}", what.display()))
    };
    for entry in tree.iter() {
        let name = std::ffi::OsStr::from_bytes(entry.name_bytes());
        // A crafted tree could hold names git itself refuses; never let them leave `dir`.
        let plain = Path::new(name).components().collect::<Vec<_>>();
        if !matches!(plain.as_slice(), [Component::Normal(_)]) {
            continue;
        }
        let path = dir.join(name);
        let rel_path = rel.join(name);
        match entry.kind() {
            Some(ObjectType::Tree) => {
                fs::create_dir(&path).map_err(|e| io(&path, &e))?;
                let sub = repo.find_tree(entry.id()).map_err(|e| io(&path, &e))?;
                write_tree(repo, &sub, &path, &rel_path, links)?;
            }
            Some(ObjectType::Blob) => {
                let blob = repo.find_blob(entry.id()).map_err(|e| io(&path, &e))?;
                if entry.filemode() == 0o120000 {
                    let target = PathBuf::from(std::ffi::OsStr::from_bytes(blob.content()));
                    std::os::unix::fs::symlink(&target, &path).map_err(|e| io(&path, &e))?;
                    links.push((rel_path, target));
                } else {
                    fs::write(&path, blob.content()).map_err(|e| io(&path, &e))?;
                    if entry.filemode() == 0o100755 {
                        fs::set_permissions(&path, fs::Permissions::from_mode(0o755))
                            .map_err(|e| io(&path, &e))?;
                    }
                }
            }
            // Submodules check out as empty directories when submodules are not fetched.
            Some(ObjectType::Commit) => fs::create_dir(&path).map_err(|e| io(&path, &e))?,
            _ => {}
        }
    }
    Ok(())
}

/// `CheckOutOfBoundsSymlinks`: absolute targets, or any step of the target that climbs above
/// the repository root.
fn escapes(link: &Path, target: &Path) -> bool {
    if target.is_absolute() {
        return true;
    }
    let mut depth: usize = link.parent().map_or(0, |p| p.components().count());
    for part in target.components() {
        match part {
            Component::ParentDir => {
                if depth == 0 {
                    return true;
                }
                depth -= 1;
            }
            Component::Normal(_) => depth += 1,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(name: &str, n: u8) -> RemoteRef {
        RemoteRef {
            name: name.into(),
            oid: Oid::from_bytes(&[n; 20]).unwrap(),
        }
    }

    #[test]
    fn short_names() {
        assert_eq!(short_name("refs/heads/main"), "main");
        assert_eq!(short_name("refs/tags/v1"), "v1");
        assert_eq!(short_name("refs/remotes/origin/x"), "origin/x");
        assert_eq!(short_name("refs/pull/1/head"), "pull/1/head");
        assert_eq!(short_name("HEAD"), "HEAD");
    }

    #[test]
    fn names_revisions_like_ls_remote() {
        let refs = [
            r("HEAD", 1),
            r("refs/heads/main", 1),
            r("refs/heads/dev", 2),
            r("refs/tags/v1", 3),
        ];
        let oid = |n: u8| Named::Ref(Oid::from_bytes(&[n; 20]).unwrap());
        assert_eq!(name_revision(&refs, "").unwrap(), oid(1));
        assert_eq!(name_revision(&refs, "HEAD").unwrap(), oid(1));
        assert_eq!(name_revision(&refs, "dev").unwrap(), oid(2));
        assert_eq!(name_revision(&refs, "refs/heads/dev").unwrap(), oid(2));
        assert_eq!(name_revision(&refs, "v1").unwrap(), oid(3));
        assert_eq!(name_revision(&refs, "heads/dev").ok(), None);
        assert_eq!(
            name_revision(&refs, "abcdef1").unwrap(),
            Named::Sha("abcdef1".into())
        );
        assert_eq!(
            name_revision(&refs, "nope").unwrap_err().detail(),
            "unable to resolve 'nope' to a commit SHA"
        );
    }

    #[test]
    fn symlink_bounds() {
        assert!(!escapes(Path::new("a/l"), Path::new("../b")));
        assert!(escapes(Path::new("a/l"), Path::new("../../b")));
        assert!(escapes(Path::new("l"), Path::new("/etc/passwd")));
        assert!(escapes(Path::new("l"), Path::new("x/../../y")));
    }

    #[test]
    fn cache_dir_is_filename_safe() {
        let d = bare_dir(
            Path::new("/c"),
            "git://gitd.gitsrv.svc.cluster.local:9418/src.git",
        );
        assert_eq!(
            d,
            Path::new("/c/repos/git___gitd.gitsrv.svc.cluster.local_9418_src.git.git")
        );
    }
}
