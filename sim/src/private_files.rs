//! Files only their owner may read or change: the state dir (every Secret of the cluster is in
//! its snapshot and journal, its token in `credentials.json`) and the kubeconfig. Folders are
//! made 0700 and files 0600; a file is written under a random name made with `O_EXCL` (never a
//! name another user could guess and create first) and renamed into place; and a folder that
//! another user owns or may write into is refused, as ssh refuses such a `~/.ssh`: whoever can
//! write there can swap the kubeconfig for one that runs their program (reliability review 4,
//! S1 and S2).

mod private_group;

use std::fs;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// World-writable.
const WORLD_WRITE: u32 = 0o002;
/// Group-writable: safe only when the group is the user's private group.
const GROUP_WRITE: u32 = 0o020;
/// The sticky bit: in such a folder (like /tmp) only a file's owner may rename or remove it.
const STICKY: u32 = 0o1000;

/// Why a folder is not private enough to hold the cluster's files; each says what to do.
#[derive(Debug, thiserror::Error)]
pub enum UnsafeFolder {
    /// Another user owns the folder.
    #[error(
        "{path} belongs to another user (uid {owner}), who could replace the cluster's files; use a folder of your own (for example the default state dir)"
    )]
    NotYours {
        /// The folder.
        path: PathBuf,
        /// Its owner's uid.
        owner: u32,
    },
    /// Others may write into the folder (and it has no sticky bit, or it is the state dir).
    #[error(
        "{path} can be written by other users (mode {mode:o}), who could replace the cluster's files; run `chmod go-w {path}` or use a folder of your own"
    )]
    OthersMayWrite {
        /// The folder.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The folder could not be made or looked at.
    #[error("cannot look at {path}: {source}")]
    Unreadable {
        /// The folder.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
}

/// Makes `dir` (and missing parents) at 0700, then refuses it unless it and every folder
/// above it are safe: `dir` must be ours and writable by us alone (it is then narrowed to
/// 0700, as it holds Secrets); a folder above it must be ours or root's, and writable by
/// others only with the sticky bit (as /tmp is).
pub fn make_private_dir(dir: &Path) -> Result<(), UnsafeFolder> {
    let unreadable = |source| UnsafeFolder::Unreadable {
        path: dir.to_path_buf(),
        source,
    };
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(unreadable)?;
    let dir = dir.canonicalize().map_err(unreadable)?;
    let meta = fs::metadata(&dir).map_err(unreadable)?;
    let me = effective_uid();
    if meta.uid() != me {
        return Err(UnsafeFolder::NotYours {
            path: dir,
            owner: meta.uid(),
        });
    }
    let mode = meta.mode() & 0o7777;
    if others_may_write(&meta) {
        return Err(UnsafeFolder::OthersMayWrite { path: dir, mode });
    }
    if mode & 0o077 != 0 {
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).map_err(unreadable)?;
    }
    check_ancestors(&dir)
}

/// Refuses a folder that a file is about to be written into (a kubeconfig's) when another
/// user owns it or may write into it without the sticky bit.
pub fn check_folder_for_file(dir: &Path) -> Result<(), UnsafeFolder> {
    let dir = dir
        .canonicalize()
        .map_err(|source| UnsafeFolder::Unreadable {
            path: dir.to_path_buf(),
            source,
        })?;
    check_one(&dir, true)?;
    check_ancestors(&dir)
}

fn check_ancestors(dir: &Path) -> Result<(), UnsafeFolder> {
    dir.ancestors()
        .skip(1)
        .try_for_each(|folder| check_one(folder, true))
}

/// `root_may_own`: folders above the user's own (`/`, `/home`, `/tmp`) are root's.
fn check_one(folder: &Path, root_may_own: bool) -> Result<(), UnsafeFolder> {
    let meta = fs::metadata(folder).map_err(|source| UnsafeFolder::Unreadable {
        path: folder.to_path_buf(),
        source,
    })?;
    let owner = meta.uid();
    if owner != effective_uid() && !(root_may_own && owner == 0) {
        return Err(UnsafeFolder::NotYours {
            path: folder.to_path_buf(),
            owner,
        });
    }
    let mode = meta.mode() & 0o7777;
    if others_may_write(&meta) && mode & STICKY == 0 {
        return Err(UnsafeFolder::OthersMayWrite {
            path: folder.to_path_buf(),
            mode,
        });
    }
    Ok(())
}

/// Whether another user may write into the folder: it is world-writable, or group-writable
/// by a group that is not the user's private group (see `private_group`).
fn others_may_write(meta: &fs::Metadata) -> bool {
    let mode = meta.mode();
    mode & WORLD_WRITE != 0
        || (mode & GROUP_WRITE != 0
            && !private_group::is_private_group(effective_uid(), meta.gid()))
}

/// Writes `bytes` to `path` at 0600: into a new file of a random name in the same folder
/// (created with `O_EXCL`, so no one can have made it first), synced, then renamed over
/// `path`, so a reader sees the old file or the new one, never half of one. The temporary
/// file is removed if anything fails.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => dir,
        None => Path::new("."),
    };
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // tempfile opens with O_CREAT|O_EXCL and mode 0600.
    let mut file = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    // The rename is durable once the folder is.
    fs::File::open(dir)?.sync_all()
}

/// Checks a file the state dir already holds: it must be the user's (a file another user
/// planted while the folder was open to them is refused, never appended to), and it is
/// narrowed to 0600 (an older capa-tui left its state at 0644).
pub fn keep_private(path: &Path) -> Result<(), UnsafeFolder> {
    let unreadable = |source| UnsafeFolder::Unreadable {
        path: path.to_path_buf(),
        source,
    };
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(unreadable(e)),
    };
    if meta.uid() != effective_uid() {
        return Err(UnsafeFolder::NotYours {
            path: path.to_path_buf(),
            owner: meta.uid(),
        });
    }
    if meta.is_file() && meta.mode() & 0o077 != 0 {
        fs::set_permissions(path, fs::Permissions::from_mode(0o600)).map_err(unreadable)?;
    }
    Ok(())
}

fn effective_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().mode() & 0o7777
    }

    #[test]
    fn files_are_written_at_0600_and_folders_made_at_0700() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("new/dir/kubeconfig");
        write_private(&file, b"x").unwrap();
        assert_eq!(mode(&file), 0o600);
        assert_eq!(mode(&root.path().join("new/dir")), 0o700);
        // No temporary file is left beside it.
        assert_eq!(
            fs::read_dir(root.path().join("new/dir")).unwrap().count(),
            1
        );
    }

    /// Review 4, S1: a file another user made under the predictable temporary name was
    /// reused, with its owner and mode. The name is random now, and a planted one is left be.
    #[test]
    fn a_planted_file_under_the_old_temporary_name_is_not_used() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("capa.kubeconfig");
        let planted = target.with_extension(format!("tmp{}", std::process::id()));
        fs::write(&planted, b"planted").unwrap();
        fs::set_permissions(&planted, fs::Permissions::from_mode(0o666)).unwrap();
        write_private(&target, b"token").unwrap();
        assert_eq!(mode(&target), 0o600);
        assert_eq!(fs::read(&planted).unwrap(), b"planted");
    }

    #[test]
    fn a_folder_others_may_write_is_refused_and_a_sticky_one_above_is_fine() {
        let root = tempfile::tempdir().unwrap();
        let open = root.path().join("open");
        fs::create_dir(&open).unwrap();
        fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
        let e = make_private_dir(&open).unwrap_err().to_string();
        assert!(
            e.contains("can be written by other users") && e.contains("chmod go-w"),
            "{e}"
        );
        assert!(check_folder_for_file(&open).is_err());
        fs::set_permissions(&open, fs::Permissions::from_mode(0o1777)).unwrap();
        assert!(check_folder_for_file(&open).is_ok());
        // The state dir itself may not be shared even with the sticky bit; one inside it may.
        assert!(make_private_dir(&open).is_err());
        let lab = open.join("lab");
        make_private_dir(&lab).unwrap();
        assert_eq!(mode(&lab), 0o700);
    }

    #[test]
    fn a_state_dir_of_ours_that_others_may_read_is_narrowed_to_0700() {
        let root = tempfile::tempdir().unwrap();
        let lab = root.path().join("lab");
        fs::create_dir(&lab).unwrap();
        fs::set_permissions(&lab, fs::Permissions::from_mode(0o755)).unwrap();
        make_private_dir(&lab).unwrap();
        assert_eq!(mode(&lab), 0o700);
    }

    /// With user private groups (umask 002) the tutor's own folders are group-writable; that
    /// group is the user's alone, so they are fine. Another group's write bit is not.
    #[test]
    fn group_write_is_fine_for_the_users_private_group_only() {
        let root = tempfile::tempdir().unwrap();
        let lab = root.path().join("lab");
        fs::create_dir(&lab).unwrap();
        fs::set_permissions(&lab, fs::Permissions::from_mode(0o775)).unwrap();
        let gid = fs::metadata(&lab).unwrap().gid();
        if private_group::is_private_group(effective_uid(), gid) {
            make_private_dir(&lab).unwrap();
            assert_eq!(mode(&lab), 0o700);
        }
        if effective_uid() == 0 {
            let shared = root.path().join("shared");
            fs::create_dir(&shared).unwrap();
            std::os::unix::fs::chown(&shared, None, Some(65534)).unwrap();
            fs::set_permissions(&shared, fs::Permissions::from_mode(0o770)).unwrap();
            let e = make_private_dir(&shared).unwrap_err().to_string();
            assert!(e.contains("can be written by other users"), "{e}");
        }
    }

    #[test]
    fn a_file_another_user_planted_is_refused() {
        if effective_uid() != 0 {
            return; // only root can give a file away
        }
        let root = tempfile::tempdir().unwrap();
        let planted = root.path().join("journal.jsonl");
        fs::write(&planted, b"").unwrap();
        std::os::unix::fs::chown(&planted, Some(65534), None).unwrap();
        let e = keep_private(&planted).unwrap_err().to_string();
        assert!(e.contains("belongs to another user"), "{e}");
    }

    /// Review 4, S2: a state dir another user owns was used without a word.
    #[test]
    fn a_folder_another_user_owns_is_refused() {
        if effective_uid() != 0 {
            return; // only root can give a folder away
        }
        let root = tempfile::tempdir().unwrap();
        let theirs = root.path().join("theirs");
        fs::create_dir(&theirs).unwrap();
        std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).unwrap();
        let e = make_private_dir(&theirs).unwrap_err().to_string();
        assert!(e.contains("belongs to another user (uid 65534)"), "{e}");
        assert!(check_folder_for_file(&theirs).is_err());
        assert!(make_private_dir(&theirs.join("lab")).is_err());
    }
}
