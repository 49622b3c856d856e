//! Where the lab's files live: the learner's source dir (`/root/capa-src` on the VM) holding the
//! working copy `repo/`, the `app-*.yaml` manifests and the evidence JSON files; and the bare
//! repo root the git daemon serves (`/srv/bare`).

use std::path::{Path, PathBuf};

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
            src_dir: pick(src_dir, "CAPA_SRC_DIR", DEFAULT_SRC_DIR),
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

    /// The tutor's own folder in the source dir (`.capa-tui`): progress, the lab shell's
    /// start-up file and clock, what a plan keeps between runs.
    pub fn tutor_dir(&self) -> PathBuf {
        self.src_dir.join(".capa-tui")
    }
}
