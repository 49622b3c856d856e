//! The learner's files: backups whatever the bytes, reads refused for FIFOs and huge files.

use std::os::unix::fs::FileTypeExt;

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

#[test]
fn a_file_that_is_not_utf8_is_kept_too() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("precedence.json");
    let latin1 = b"{\"greeting\": \"my caf\xe9 guess\"}\n";
    std::fs::write(&p, latin1).unwrap();
    let bak = write_keeping_backup(&p, "{}\n").unwrap().unwrap();
    assert_eq!(std::fs::read(&bak).unwrap(), latin1);
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "{}\n");
}

#[test]
fn a_fifo_is_neither_replaced_nor_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("waves.json");
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo reads the path only.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    assert!(matches!(
        read_bounded(&p, MAX_LEARNER_FILE),
        Err(ReadError::NotRegular { .. })
    ));
    assert!(write_keeping_backup(&p, "{}").is_err());
    assert!(std::fs::symlink_metadata(&p).unwrap().file_type().is_fifo());
}

#[test]
fn a_huge_file_is_refused_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("waves.json");
    let f = std::fs::File::create(&p).unwrap();
    f.set_len(64 * 1024 * 1024 * 1024).unwrap();
    assert!(matches!(
        read_bounded(&p, MAX_LEARNER_FILE),
        Err(ReadError::TooBig { .. })
    ));
    std::fs::write(&p, "{}").unwrap();
    assert_eq!(read_bounded(&p, MAX_LEARNER_FILE).unwrap(), b"{}");
    assert!(matches!(
        read_bounded(&dir.path().join("none"), MAX_LEARNER_FILE),
        Err(ReadError::Missing { .. })
    ));
}

#[test]
fn a_failed_rename_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("tutor.json");
    std::fs::create_dir(&p).unwrap();
    std::fs::write(p.join("inside"), "x").unwrap();
    assert!(write_atomic(&p, "{}").is_err());
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

/// A file written anew reads as an ordinary program's (0644), not as the private temporary file
/// it was written through; a file already there keeps its mode.
#[test]
fn a_written_file_keeps_its_mode_or_gets_an_ordinary_one() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("waves.json");
    write_atomic(&path, "{}").unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o644);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    write_atomic(&path, "{\"a\": 1}").unwrap();
    assert_eq!(mode(&path), 0o600);
}

/// A state dir's file is its owner's alone, whatever mode it had.
#[test]
fn a_private_file_is_the_owners_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("serving.json");
    std::fs::write(&path, "{}").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    write_private(&path, "{\"pid\": 1}").unwrap();
    assert_eq!(
        std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

/// A backup is a new file: a name already taken, even by a link that points nowhere (where
/// a copy would have created the file it names), is passed over.
#[test]
fn a_backup_never_writes_through_a_link_left_at_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("precedence.json");
    std::fs::write(&p, "mine").unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::os::unix::fs::symlink(&elsewhere, dir.path().join("precedence.json.bak")).unwrap();
    let bak = write_keeping_backup(&p, "new").unwrap().unwrap();
    assert_eq!(bak, dir.path().join("precedence.json.bak.1"));
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), "mine");
    assert!(!elsewhere.exists(), "the backup went through the link");
}
