//! Private scratch space: a per-render work directory and the Helm values temp file, both
//! removed when dropped.

use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A random-looking UUID-shaped name, like the `/tmp/<uuid>` Argo CD writes values to.
pub(super) fn unique_name() -> String {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let a = h.finish();
    h.write_u64(a);
    let b = h.finish();
    let hex = format!("{a:016x}{b:016x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// A fresh directory under `parent`, deleted with everything in it on drop.
pub(super) struct WorkDir(PathBuf);

impl WorkDir {
    pub fn new(parent: &Path) -> std::io::Result<WorkDir> {
        let path = parent.join(unique_name());
        std::fs::create_dir_all(&path)?;
        Ok(WorkDir(path))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A file in the OS temp directory holding `content`, deleted on drop.
pub(super) struct TempFile(PathBuf);

impl TempFile {
    pub fn create(content: &str) -> std::io::Result<TempFile> {
        let path = std::env::temp_dir().join(unique_name());
        std::fs::write(&path, content)?;
        Ok(TempFile(path))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_uuid_shaped_and_distinct() {
        let a = unique_name();
        assert_eq!(a.len(), 36);
        assert_ne!(a, unique_name());
    }

    #[test]
    fn guards_clean_up() {
        let parent = tempfile::tempdir().unwrap();
        let w = WorkDir::new(parent.path()).unwrap();
        let p = w.path().to_path_buf();
        std::fs::write(p.join("x"), "").unwrap();
        drop(w);
        assert!(!p.exists());
        let f = TempFile::create("a: 1\n").unwrap();
        let p = f.path().to_path_buf();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "a: 1\n");
        drop(f);
        assert!(!p.exists());
    }
}
