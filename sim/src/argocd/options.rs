//! Per-resource options, read as gitops-engine reads them: the comma-separated values of
//! `argocd.argoproj.io/sync-options` and `.../compare-options` on a manifest or live object
//! (`HasAnnotationOption`, `GetAnnotationOptionValue`).

use serde_json::Value;

use crate::objects;

/// Per-resource sync options (`Prune=false`, `Replace=true`, `ServerSideApply=true`, ...).
pub const SYNC_OPTIONS: &str = "argocd.argoproj.io/sync-options";
/// Per-resource compare options (`IgnoreExtraneous`).
pub const COMPARE_OPTIONS: &str = "argocd.argoproj.io/compare-options";

/// The annotation's values, trimmed, empty ones and repeats left out (`GetAnnotationCSVs`).
fn values<'a>(obj: &'a Value, key: &str) -> Vec<&'a str> {
    let mut seen: Vec<&str> = Vec::new();
    for v in objects::annotation(obj, key).unwrap_or_default().split(',') {
        let v = v.trim();
        if !v.is_empty() && !seen.contains(&v) {
            seen.push(v);
        }
    }
    seen
}

/// The annotation holds exactly `option` among its values.
pub fn has(obj: Option<&Value>, key: &str, option: &str) -> bool {
    obj.is_some_and(|o| values(o, key).contains(&option))
}

/// The value of `name=value` in the annotation, if set.
pub fn value<'a>(obj: Option<&'a Value>, key: &str, name: &str) -> Option<&'a str> {
    let prefix = format!("{name}=");
    values(obj?, key)
        .into_iter()
        .find_map(|v| v.strip_prefix(prefix.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn options_are_trimmed_exact_values() {
        let obj = json!({"metadata": {"annotations": {SYNC_OPTIONS: "Prune=false, Replace=true,,Prune=true"}}});
        assert!(has(Some(&obj), SYNC_OPTIONS, "Replace=true"));
        assert!(!has(Some(&obj), SYNC_OPTIONS, "replace=true"));
        assert_eq!(
            value(Some(&obj), SYNC_OPTIONS, "Prune"),
            Some("false"),
            "the first one counts"
        );
        assert_eq!(value(None, SYNC_OPTIONS, "Prune"), None);
    }
}
