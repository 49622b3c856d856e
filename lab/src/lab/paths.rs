//! Where the lab's files live: the learner's source dir (`/root/capa-src` on the VM) holding the
//! working copy `repo/`, the `app-*.yaml` manifests and the evidence JSON files; and the bare
//! repo root the git daemon serves (`/srv/bare`).

use std::path::{Path, PathBuf};

/// A lab file's path that would lead out of the source dir.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file} leads out of {}", dir.display())]
pub struct LeavesSourceDir {
    pub file: String,
    pub dir: PathBuf,
}

/// Whether `rel`, as a lesson names a file, stays inside the folder it is joined to: relative,
/// not empty, and never `..`. (A lesson pack once set `../../x` and an absolute path, and `do`
/// replaced a binary outside the lab: reliability-4 D5.)
pub fn stays_inside(rel: &str) -> bool {
    use std::path::Component;
    let path = Path::new(rel);
    !rel.is_empty()
        && path.components().next().is_some()
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// `root/rel`, when `rel` stays inside `root` as written ([`stays_inside`]) and no symbolic
/// link on the way (the file itself included) leads out of it. Parts not there yet are
/// made as plain folders later, so they lead nowhere.
pub fn inside(root: &Path, rel: &str) -> Result<PathBuf, LeavesSourceDir> {
    let refused = || LeavesSourceDir {
        file: rel.to_string(),
        dir: root.to_path_buf(),
    };
    if !stays_inside(rel) {
        return Err(refused());
    }
    let full = root.join(rel);
    let Ok(real_root) = root.canonicalize() else {
        // No source dir yet: nothing in it can be a link.
        return Ok(full);
    };
    let mut at = root.to_path_buf();
    for part in Path::new(rel).components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let leads_in = at.canonicalize().is_ok_and(|t| t.starts_with(&real_root));
                if !leads_in {
                    return Err(refused());
                }
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    Ok(full)
}

pub const DEFAULT_SRC_DIR: &str = "/root/capa-src";
pub const DEFAULT_BARE_DIR: &str = "/srv/bare";

#[derive(Debug, Clone)]
pub struct LabPaths {
    pub src_dir: PathBuf,
    pub bare_dir: PathBuf,
}

impl LabPaths {
    /// Flags first, then `CAPA_SRC_DIR` / `CAPA_BARE_DIR`, then the lab VM's defaults.
    pub fn resolve(src_dir: Option<&Path>, bare_dir: Option<&Path>) -> LabPaths {
        LabPaths::resolve_for(src_dir, bare_dir, None)
    }

    /// As [`LabPaths::resolve`]; one of many learners on a cluster gets a source dir of their
    /// own by default (`/root/capa-src-alice`), beside the shared bare dir.
    pub fn resolve_for(
        src_dir: Option<&Path>,
        bare_dir: Option<&Path>,
        learner: Option<&crate::lab::learner::Learner>,
    ) -> LabPaths {
        let default_src = match learner {
            Some(l) => format!("{DEFAULT_SRC_DIR}-{}", l.name()),
            None => DEFAULT_SRC_DIR.to_string(),
        };
        let pick = |flag: Option<&Path>, var: &str, default: &str| {
            flag.map(Path::to_path_buf)
                .or_else(|| {
                    std::env::var_os(var)
                        .filter(|v| !v.is_empty())
                        .map(PathBuf::from)
                })
                .unwrap_or_else(|| PathBuf::from(default))
        };
        LabPaths {
            src_dir: pick(src_dir, "CAPA_SRC_DIR", &default_src),
            bare_dir: pick(bare_dir, "CAPA_BARE_DIR", DEFAULT_BARE_DIR),
        }
    }

    /// The learner's working copy of `src.git`.
    pub fn repo(&self) -> PathBuf {
        self.src_dir.join("repo")
    }

    pub fn bare_repo(&self, name: &str) -> PathBuf {
        self.bare_dir.join(format!("{name}.git"))
    }

    pub fn evidence(&self, file: &str) -> PathBuf {
        self.src_dir.join(file)
    }

    /// The evidence file `file`, only if it stays inside the source dir (see [`inside`]).
    pub fn evidence_inside(&self, file: &str) -> Result<PathBuf, LeavesSourceDir> {
        inside(&self.src_dir, file)
    }

    /// The tutor's own folder in the source dir (`.capa-tui`): progress, the lab shell's
    /// start-up file and clock, what a plan keeps between runs.
    pub fn tutor_dir(&self) -> PathBuf {
        self.src_dir.join(".capa-tui")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_evidence_path_must_stay_inside_the_source_dir() {
        for ok in ["precedence.json", "sub/waves.json", "./x.json"] {
            assert!(stays_inside(ok), "{ok}");
        }
        for out in ["", "../x", "a/../../x", "/etc/passwd", "a/.."] {
            assert!(!stays_inside(out), "{out}");
        }
        let dir = tempfile::tempdir().unwrap();
        let (src, away) = (dir.path().join("src"), dir.path().join("away"));
        std::fs::create_dir_all(src.join("real")).unwrap();
        std::fs::create_dir_all(&away).unwrap();
        std::os::unix::fs::symlink(&away, src.join("out")).unwrap();
        std::os::unix::fs::symlink(src.join("real"), src.join("in")).unwrap();
        std::os::unix::fs::symlink(away.join("victim"), src.join("precedence.json")).unwrap();
        assert!(inside(&src, "out/waves.json").is_err());
        assert!(inside(&src, "precedence.json").is_err());
        assert!(inside(&src, "../away/x").is_err());
        assert_eq!(inside(&src, "in/x.json").unwrap(), src.join("in/x.json"));
        assert_eq!(inside(&src, "new/x.json").unwrap(), src.join("new/x.json"));
    }
}
