//! The differences we know and keep, read from `docs/sim-fidelity.md`'s section "Measured
//! against the real lab": one table row per probe (its id in backticks, or `group/*` for every
//! probe of a group), with what differs and why it stays. The suite fails on a difference not
//! listed there, and on a listed one that no longer differs (the list must stay true).

use std::collections::BTreeMap;
use std::path::Path;

pub const SECTION: &str = "## Measured against the real lab";

/// Listed probe ids (or `group/*`) → the row's line number in the document.
pub fn read() -> BTreeMap<String, usize> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/sim-fidelity.md");
    let text = std::fs::read_to_string(&path).unwrap();
    parse(&text)
}

pub fn parse(text: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let mut inside = false;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("## ") {
            inside = line.trim() == SECTION;
            continue;
        }
        if !inside {
            continue;
        }
        let Some(rest) = line.strip_prefix("| `") else {
            continue;
        };
        if let Some((id, _)) = rest.split_once('`') {
            out.insert(id.to_string(), n + 1);
        }
    }
    out
}

/// Whether `probe` is listed, by its own id or its group's `group/*`.
pub fn lists<'a>(listed: &'a BTreeMap<String, usize>, probe: &str) -> Option<&'a str> {
    if let Some((id, _)) = listed.get_key_value(probe) {
        return Some(id);
    }
    let group = probe.rsplit_once('/')?.0;
    listed
        .get_key_value(&format!("{group}/*"))
        .map(|(id, _)| id.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_the_section_only_are_read() {
        let doc = "## Other\n| `x/y/z` | no |\n## Measured against the real lab\n\n| probe | what | why |\n|---|---|---|\n| `kubectl/version/server` | a | b |\n| `argocd/hooks/*` | c | d |\n## Next\n| `q/r/s` | | |\n";
        let listed = parse(doc);
        assert_eq!(
            listed.keys().collect::<Vec<_>>(),
            ["argocd/hooks/*", "kubectl/version/server"]
        );
        assert_eq!(lists(&listed, "argocd/hooks/view"), Some("argocd/hooks/*"));
        assert_eq!(lists(&listed, "x/y/z"), None);
    }
}
