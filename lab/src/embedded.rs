//! The files built into the binary (`lessons/`, `repo-template/`, `assets/i18n/`,
//! `assets/skeleton/`), so capa-tui runs from any folder: a table of (path relative to the
//! repository root, contents) that `build.rs` generates.

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
