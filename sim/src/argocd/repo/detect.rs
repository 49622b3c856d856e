//! Which tool renders a source (`GetAppSourceType`): an explicit tool block wins, else the
//! files at the root of the app path decide.

use std::path::Path;

use super::SourceType;
use super::source::Source;

/// The type Argo CD assigns, or its error when several tool blocks are set.
pub(super) fn source_type(src: &Source, app_path: &Path) -> Result<SourceType, String> {
    let mut explicit = Vec::new();
    if src.kustomize.is_some() {
        explicit.push("Kustomize");
    }
    if src.helm.is_some() {
        explicit.push("Helm");
    }
    if src.directory.is_some() {
        explicit.push("Directory");
    }
    if src.plugin {
        explicit.push("Plugin");
    }
    match explicit.as_slice() {
        [] => Ok(discover(app_path)),
        ["Kustomize"] => Ok(SourceType::Kustomize),
        ["Helm"] => Ok(SourceType::Helm),
        ["Directory"] => Ok(SourceType::Directory),
        ["Plugin"] => Err(
            "config management plugins (spec.source.plugin) are not available in this simulator"
                .into(),
        ),
        many => Err(format!(
            "multiple application sources defined: {}",
            many.join(",")
        )),
    }
}

/// `discovery.AppType` for the root of the app path. The walk is lexical and a later match
/// overwrites an earlier one, so `kustomization.yaml` beats `Chart.yaml` in the same directory
/// (and any `*Chart.yaml` counts, as the check is a suffix match).
fn discover(app_path: &Path) -> SourceType {
    let Ok(entries) = std::fs::read_dir(app_path) else {
        return SourceType::Directory;
    };
    let mut names: Vec<_> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
        .map(|e| e.file_name())
        .collect();
    // Go sorts names bytewise, so "Chart.yaml" < "Kustomization" < "kustomization.yaml".
    names.sort();
    let mut found = SourceType::Directory;
    for name in names {
        let name = name.to_string_lossy();
        if name.ends_with("Chart.yaml") {
            found = SourceType::Helm;
        }
        if matches!(
            name.as_ref(),
            "kustomization.yaml" | "kustomization.yml" | "Kustomization"
        ) {
            found = SourceType::Kustomize;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::source::parse;
    use super::*;
    use serde_json::json;

    fn dir(files: &[&str]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for f in files {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        }
        d
    }

    fn detect(src: serde_json::Value, files: &[&str]) -> Result<SourceType, String> {
        let d = dir(files);
        source_type(&parse(&src), d.path())
    }

    #[test]
    fn files_decide_without_a_block() {
        assert_eq!(detect(json!({}), &["Chart.yaml"]), Ok(SourceType::Helm));
        assert_eq!(
            detect(json!({}), &["kustomization.yml"]),
            Ok(SourceType::Kustomize)
        );
        assert_eq!(
            detect(json!({}), &["Kustomization"]),
            Ok(SourceType::Kustomize)
        );
        assert_eq!(
            detect(json!({}), &["Chart.yaml", "kustomization.yaml"]),
            Ok(SourceType::Kustomize)
        );
        assert_eq!(detect(json!({}), &["a.yaml"]), Ok(SourceType::Directory));
        // Only the root of the path counts.
        assert_eq!(
            detect(json!({}), &["sub/Chart.yaml"]),
            Ok(SourceType::Directory)
        );
    }

    #[test]
    fn explicit_block_wins() {
        let helm = json!({"helm": {"releaseName": "x"}});
        assert_eq!(detect(helm, &["kustomization.yaml"]), Ok(SourceType::Helm));
        let kust = json!({"kustomize": {"namePrefix": "p-"}});
        assert_eq!(detect(kust, &["Chart.yaml"]), Ok(SourceType::Kustomize));
        let dirs = json!({"directory": {"recurse": true}});
        assert_eq!(detect(dirs, &["Chart.yaml"]), Ok(SourceType::Directory));
        // An empty block is normalised away and does not count.
        assert_eq!(
            detect(json!({"helm": {}}), &["a.yaml"]),
            Ok(SourceType::Directory)
        );
    }

    #[test]
    fn several_blocks_are_an_error() {
        let both = json!({"helm": {"releaseName": "x"}, "kustomize": {"namePrefix": "p-"}});
        assert_eq!(
            detect(both, &[]),
            Err("multiple application sources defined: Kustomize,Helm".into())
        );
    }
}
