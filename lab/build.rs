//! Embeds the repository's `lessons/`, `repo-template/`, the strings (`assets/i18n/`) and the skeleton of a new
//! lesson (`assets/skeleton/`) in the binary, so
//! capa-tui runs from any folder: a generated table of (path, contents) that `lab::catalog` and
//! `i18n` read.

#![allow(
    clippy::expect_used,
    reason = "a build script says it failed by panicking; cargo shows the message"
)]

use std::fs;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "replay") {
            // A lesson's recorded demo (`capa-tui replay`) is played from the folder, not
            // carried in every binary.
        } else {
            out.push(p);
        }
    }
}

fn main() {
    // This crate is `lab/` in the repository; the lessons and strings are the repository's.
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest
        .parent()
        .expect("lab/ is in the repository")
        .to_path_buf();
    let mut files = Vec::new();
    for top in ["lessons", "repo-template", "assets/i18n", "assets/skeleton"] {
        println!("cargo:rerun-if-changed={}", root.join(top).display());
        walk(&root.join(top), &mut files);
    }
    let mut code = String::from(
        "/// Embedded lesson, template and strings files: (path relative to the repo root, contents).\npub static FILES: &[(&str, &str)] = &[\n",
    );
    for f in &files {
        if let Some(parent) = f.parent() {
            println!("cargo:rerun-if-changed={}", parent.display());
        }
        let rel = f
            .strip_prefix(&root)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        code.push_str(&format!(
            "    ({rel:?}, include_str!({:?})),\n",
            f.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded.rs");
    fs::write(out, code).expect("write embedded.rs");
}
