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

/// How the repo server reaches a `repoURL`, as go-git's `NewEndpoint` reads it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Transport {
    /// `git://`, `http(s)://`, `ssh://` or scp-like `user@host:path`: over the network.
    Remote,
    /// `file://` or anything else without a scheme (`/srv/bare/src.git`, `src.git`): a path
    /// on the repo server's own disk. The repo server is a container of the cluster, with no
    /// repositories of its own: there is never anything there, and the host's disk is never
    /// read.
    Local(String),
    /// A scheme go-git has no client for.
    Unsupported(String),
}

/// `transport.NewEndpoint` + `client.NewClient`: scp-like first, then a path, then a URL.
pub(super) fn transport(url: &str) -> Transport {
    let scheme_end = url
        .find("://")
        .filter(|i| *i > 0 && !url[..*i].contains(':'));
    if let Some(end) = scheme_end {
        let scheme = url[..end].to_ascii_lowercase();
        return match scheme.as_str() {
            "git" | "http" | "https" | "ssh" => Transport::Remote,
            "file" => Transport::Local(url[end + 3..].to_string()),
            _ => Transport::Unsupported(scheme),
        };
    }
    if scp_like(url) {
        return Transport::Remote;
    }
    Transport::Local(url.to_string())
}

/// go-git's `MatchesScpLike`: `[user@]host:path` with no `/` before the first `:`.
fn scp_like(url: &str) -> bool {
    let Some(colon) = url.find(':') else {
        return false;
    };
    let (before, path) = (&url[..colon], &url[colon + 1..]);
    let host = before.rsplit_once('@').map_or(
        before,
        |(user, host)| {
            if user.is_empty() { before } else { host }
        },
    );
    !host.is_empty()
        && !before.contains('/')
        && !host.chars().any(char::is_whitespace)
        && !path.is_empty()
        && !path.starts_with('\\')
        && !path.contains('\n')
}

/// Whether `repo_url` can be listed at all; go-git's error when it cannot.
pub(super) fn reachable(repo_url: &str) -> Result<(), RepoError> {
    match transport(repo_url) {
        Transport::Remote => Ok(()),
        Transport::Local(_) => Err(RepoError::Revision(
            "failed to list refs: repository not found".into(),
        )),
        Transport::Unsupported(scheme) => Err(RepoError::Revision(format!(
            "failed to list refs: unsupported scheme {scheme:?}"
        ))),
    }
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
    let http = repo_url.starts_with("http://") || repo_url.starts_with("https://");
    // This libgit2 speaks no TLS: reach the host as go-git's HTTP client does, to say what
    // it says when nothing answers there.
    if http
        && (lower.contains("connection refused") || lower.contains("no tls stream"))
        && let Some(said) = http_unreachable(repo_url)
    {
        return said;
    }
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

/// go-git's HTTP transport error when an `http(s)://` repository's host cannot be reached
/// (`Get "<url>/info/refs?service=git-upload-pack": dial tcp …`), or `None` when it answers.
fn http_unreachable(repo_url: &str) -> Option<String> {
    use std::net::{TcpStream, ToSocketAddrs};
    let auth = authority(repo_url);
    let default_port = if repo_url.starts_with("https://") {
        443
    } else {
        80
    };
    let has_port = auth
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok());
    let target = if has_port {
        auth.to_string()
    } else {
        format!("{auth}:{default_port}")
    };
    let get = format!(
        "Get \"{}/info/refs?service=git-upload-pack\"",
        repo_url.trim_end_matches('/')
    );
    let host = target.rsplit_once(':').map_or(auth, |(h, _)| h);
    let Ok(mut addrs) = target.to_socket_addrs() else {
        return Some(format!("{get}: dial tcp: lookup {host}: no such host"));
    };
    let addr = addrs.next()?;
    match TcpStream::connect_timeout(&addr, std::time::Duration::from_secs(5)) {
        Ok(_) => None,
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => Some(format!(
            "{get}: dial tcp {addr}: connect: connection refused"
        )),
        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
            Some(format!("{get}: dial tcp {addr}: i/o timeout"))
        }
        Err(_) => None,
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
    fn an_http_repository_nobody_serves_is_go_gits_dial_error() {
        // A port nothing listens on: bind one, then let it go.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let url = format!("https://127.0.0.1:{port}/apps.git");
        assert_eq!(
            http_unreachable(&url).unwrap(),
            format!(
                "Get \"{url}/info/refs?service=git-upload-pack\": dial tcp 127.0.0.1:{port}: connect: connection refused"
            )
        );
        let open = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/apps.git", open.local_addr().unwrap());
        assert_eq!(http_unreachable(&url), None);
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
