//! Writing files the learner may also have written: atomically, and keeping a different file
//! that is already there as `<name>.bak` (then `.bak.1`, ...), never overwriting it silently.

use std::path::{Path, PathBuf};

/// Writes `text` to `path`; returns the backup made of a different existing file, if any.
pub fn write_keeping_backup(path: &Path, text: &str) -> std::io::Result<Option<PathBuf>> {
    let mut backup = None;
    if let Ok(existing) = std::fs::read_to_string(path)
        && existing != text
    {
        let bak = free_backup_name(path);
        std::fs::copy(path, &bak)?;
        backup = Some(bak);
    }
    write_atomic(path, text)?;
    Ok(backup)
}

/// Writes `text` to `path` through a temporary file and a rename: readers see the old or the new
/// file, never half of one.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_file_name(format!(
        ".{}.tmp{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id()
    ));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

fn free_backup_name(path: &Path) -> PathBuf {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let base = path.with_file_name(format!("{name}.bak"));
    if !base.exists() {
        return base;
    }
    (1..)
        .map(|n| path.with_file_name(format!("{name}.bak.{n}")))
        .find(|p| !p.exists())
        .unwrap_or(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_different_file_is_kept_and_backups_are_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("precedence.json");
        std::fs::write(&p, "mine").unwrap();
        let bak = write_keeping_backup(&p, "new").unwrap().unwrap();
        assert_eq!(std::fs::read_to_string(&bak).unwrap(), "mine");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        assert_eq!(write_keeping_backup(&p, "new").unwrap(), None);
        std::fs::write(&p, "mine again").unwrap();
        let second = write_keeping_backup(&p, "new").unwrap().unwrap();
        assert_ne!(second, bak);
        assert_eq!(std::fs::read_to_string(&bak).unwrap(), "mine");
    }
}
