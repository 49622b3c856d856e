//! Finding the real tools the embedded cluster relies on (`kubectl`, `helm`), installed by
//! `scripts/install-tools` into `.tools/bin`, and what version the kubectl is.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where to look, first hit wins: `$CAPA_TOOLS_DIR`, `.tools/bin` beside the source tree this
/// binary was built from, `.tools/bin` above the running binary (a `target/*/capa-tui`), then
/// `$PATH`.
pub fn find(tool: &str) -> Option<PathBuf> {
    candidates_dirs()
        .into_iter()
        .map(|d| d.join(tool))
        .find(|p| is_executable(p))
        .or_else(|| which::which_global(tool).ok())
}

fn candidates_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("CAPA_TOOLS_DIR") {
        dirs.push(PathBuf::from(d));
    }
    // This crate lives in `sim/` of the workspace; the tools are installed at its root.
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.tools/bin"));
    if let Ok(exe) = std::env::current_exe() {
        for up in exe.ancestors().skip(1).take(4) {
            dirs.push(up.join(".tools/bin"));
        }
    }
    dirs
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The kubectl version in use (`v1.35.2`), so `/version` reports the same minor and the
/// kubectl client sees no version skew. Falls back to the version `scripts/install-tools` pins.
pub fn kubectl_version() -> String {
    const PINNED: &str = "v1.35.2";
    let Some(kubectl) = find("kubectl") else {
        return PINNED.into();
    };
    let Ok(out) = Command::new(kubectl)
        .args(["version", "--client", "-o", "json"])
        .output()
    else {
        return PINNED.into();
    };
    serde_json::from_slice::<serde_json::Value>(&out.stdout)
        .ok()
        .and_then(|v| v["clientVersion"]["gitVersion"].as_str().map(String::from))
        .unwrap_or_else(|| PINNED.into())
}
