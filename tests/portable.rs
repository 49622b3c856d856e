//! Whether a capa-tui binary runs on a lab VM it was copied to: the shared libraries it needs
//! are glibc's own (and libgcc_s), and the glibc symbol versions it needs are no newer than the
//! oldest glibc we promise. `scripts/dist` runs this on the portable binary it built
//! (`CAPA_PORTABLE_BINARY`, `CAPA_PORTABLE_GLIBC`); in the suite it reads the binary the tests
//! built, so the reading itself is proven on every run. Uses `readelf` from binutils, which
//! linking any Rust binary on Linux already needs.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

use std::path::PathBuf;
use std::process::Command;

/// Libraries every glibc system has; anything else would have to be installed on the VM.
const GLIBC_FAMILY: &[&str] = &[
    "libc.so.6",
    "libm.so.6",
    "libpthread.so.0",
    "libdl.so.2",
    "librt.so.1",
    "libutil.so.1",
    "libgcc_s.so.1",
    "ld-linux-x86-64.so.2",
];

fn binary() -> PathBuf {
    std::env::var_os("CAPA_PORTABLE_BINARY").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_capa-tui")),
        PathBuf::from,
    )
}

fn readelf(args: &[&str]) -> String {
    let out = Command::new("readelf")
        .args(args)
        .arg(binary())
        .output()
        .expect("readelf (binutils) is installed: the Rust linker needs it too");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The shared libraries the binary names (DT_NEEDED).
fn needed() -> Vec<String> {
    readelf(&["--dynamic", "--wide"])
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| {
            let (_, rest) = l.split_once('[')?;
            Some(rest.trim_end_matches(']').to_string())
        })
        .collect()
}

/// The glibc symbol versions the binary requires, as numbers: GLIBC_2.17 → [2, 17].
fn glibc_versions() -> Vec<Vec<u32>> {
    let mut v: Vec<Vec<u32>> = readelf(&["--version-info", "--wide"])
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("GLIBC_"))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        .map(|w| w.split('.').filter_map(|n| n.parse().ok()).collect())
        .collect();
    v.sort();
    v.dedup();
    v
}

fn dotted(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(".")
}

#[test]
fn it_needs_only_glibc_and_no_newer_glibc_than_promised() {
    let libs = needed();
    assert!(
        libs.iter().any(|l| l == "libc.so.6"),
        "a glibc binary: {libs:?}"
    );
    let foreign: Vec<&String> = libs
        .iter()
        .filter(|l| !GLIBC_FAMILY.contains(&l.as_str()))
        .collect();
    assert!(
        foreign.is_empty(),
        "the VM would need these too: {foreign:?}"
    );

    let versions = glibc_versions();
    let newest = versions
        .last()
        .cloned()
        .expect("glibc symbol versions are read");
    println!(
        "{}: needs {libs:?}, glibc symbol versions up to {}",
        binary().display(),
        dotted(&newest)
    );
    if let Ok(promised) = std::env::var("CAPA_PORTABLE_GLIBC") {
        let promised: Vec<u32> = promised.split('.').filter_map(|n| n.parse().ok()).collect();
        let too_new: Vec<String> = versions
            .iter()
            .filter(|v| **v > promised)
            .map(|v| dotted(v))
            .collect();
        assert!(
            too_new.is_empty(),
            "needs glibc {too_new:?}, newer than the promised {}",
            dotted(&promised)
        );
    }
}

#[test]
fn it_runs_and_carries_its_lessons() {
    let out = Command::new(binary()).arg("--version").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("capa-tui "));
    // The lessons are inside the binary: it names them from any folder, with no files around.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(binary())
        .args(["check", "9"])
        .current_dir(dir.path())
        .env("KUBECONFIG", dir.path().join("none"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("1 (helm-chart)") && said.contains("8 (report)"),
        "{said}"
    );
}
