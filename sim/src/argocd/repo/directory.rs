//! A plain-directory source (`findManifests`): the `*.yaml`, `*.yml` and `*.json` files at the
//! path (recursively only with `directory.recurse`), filtered by include/exclude globs.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::RepoError;
use super::manifests;
use super::source::DirectorySpec;
use crate::glob;

/// Files with this marker are not rendered.
const SKIP_MARKER: &str = "+argocd:skip-file-rendering";

/// The objects of every manifest file, files in lexical walk order.
pub(super) fn manifests(
    app_path: &Path,
    repo_root: &Path,
    spec: &DirectorySpec,
) -> Result<Vec<Value>, RepoError> {
    let files = candidates(app_path, repo_root, spec).map_err(|e| {
        RepoError::Source(format!("failed to get potentially valid manifests: {e}"))
    })?;
    let mut objs = Vec::new();
    for file in files {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.ends_with(".jsonnet") {
            return Err(RepoError::DirectoryManifest(format!(
                "Failed to evaluate jsonnet {name:?}: jsonnet is not supported by this simulator"
            )));
        }
        let text = std::fs::read(&file)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map_err(|_| {
                RepoError::DirectoryManifest(format!(
                    "Failed to open {:?}",
                    file.display().to_string()
                ))
            })?;
        if name.ends_with(".json") {
            objs.push(json_object(&name, &text)?);
        } else {
            objs.extend(yaml_objects(&name, &text)?);
        }
    }
    Ok(objs)
}

/// One object per JSON file (`getObjsFromYAMLOrJSON`).
fn json_object(name: &str, text: &str) -> Result<Value, RepoError> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let first = match stream.next() {
        Some(Ok(v)) => v,
        Some(Err(e)) => return Err(unmarshal_error(name, &e.to_string())),
        None => return Err(unmarshal_error(name, "EOF")),
    };
    if stream.next().is_some() {
        return Err(RepoError::DirectoryManifest(format!(
            "Found multiple objects in {name:?}. Only single objects are allowed in JSON files."
        )));
    }
    let has_kind = first
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| !k.is_empty());
    if !first.is_object() || !has_kind {
        return Err(unmarshal_error(
            name,
            &format!("Object 'Kind' is missing in '{first}'"),
        ));
    }
    Ok(first)
}

/// Every document of a YAML file. A file that fails to parse is skipped unless it looks like a
/// manifest (or some of its documents did parse), so stray YAML such as a values file is fine.
fn yaml_objects(name: &str, text: &str) -> Result<Vec<Value>, RepoError> {
    match manifests::parse_stream(text) {
        (objs, None) => Ok(objs),
        (objs, Some(e)) if !objs.is_empty() => Err(unmarshal_error(name, &e)),
        (_, Some(e)) => {
            let looks_like_manifest = text.contains("apiVersion:")
                && text.contains("kind:")
                && text.contains("metadata:");
            if looks_like_manifest {
                Err(unmarshal_error(name, &e))
            } else {
                Ok(Vec::new())
            }
        }
    }
}

fn unmarshal_error(name: &str, err: &str) -> RepoError {
    RepoError::DirectoryManifest(format!("Failed to unmarshal {name:?}: {err}"))
}

/// `getPotentiallyValidManifests`: walk (lexically), keep manifest-named regular files (or
/// symlinks to them inside the repo) that pass include/exclude and carry no skip marker.
fn candidates(
    app_path: &Path,
    repo_root: &Path,
    spec: &DirectorySpec,
) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    walk(app_path, app_path, repo_root, spec, &mut out)?;
    Ok(out)
}

fn walk(
    dir: &Path,
    app_path: &Path,
    repo_root: &Path,
    spec: &DirectorySpec,
    out: &mut Vec<PathBuf>,
) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        let Ok(meta) = path.symlink_metadata() else {
            continue;
        };
        if meta.is_dir() {
            if spec.recurse {
                walk(&path, app_path, repo_root, spec, out)?;
            }
            continue;
        }
        if keep(&path, &meta, app_path, repo_root, spec).map_err(|e| {
            format!(
                "invalid manifest file {:?}: {e}",
                path.display().to_string()
            )
        })? {
            out.push(path);
        }
    }
    Ok(())
}

fn keep(
    path: &Path,
    meta: &std::fs::Metadata,
    app_path: &Path,
    repo_root: &Path,
    spec: &DirectorySpec,
) -> Result<bool, String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let is_manifest = [".yaml", ".yml", ".json", ".jsonnet"]
        .iter()
        .any(|ext| name.ends_with(ext));
    if !is_manifest {
        return Ok(false);
    }
    let rel = path
        .strip_prefix(app_path)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned();
    let mut real = meta.clone();
    if meta.file_type().is_symlink() {
        let Ok(target) = path.canonicalize() else {
            return Ok(false); // dangling link: skipped with a warning
        };
        let root = repo_root.canonicalize().map_err(|e| e.to_string())?;
        if !target.starts_with(&root) {
            return Err(format!("illegal filepath in symlink at {rel:?}"));
        }
        real = target.metadata().map_err(|e| e.to_string())?;
    }
    if !real.is_file() {
        return Ok(false);
    }
    if !spec.exclude.is_empty() && glob::matches(&spec.exclude, &rel) {
        return Ok(false);
    }
    if !spec.include.is_empty() && !glob::matches(&spec.include, &rel) {
        return Ok(false);
    }
    let text = std::fs::read(path).map_err(|e| format!("failed to read {rel:?}: {e}"))?;
    Ok(!contains(&text, SKIP_MARKER.as_bytes()))
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(files: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for (f, body) in files {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, body).unwrap();
        }
        d
    }

    fn names(objs: &[Value]) -> Vec<String> {
        objs.iter()
            .map(|o| o["metadata"]["name"].as_str().unwrap_or("").to_string())
            .collect()
    }

    const CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ";

    #[test]
    fn top_level_only_unless_recurse() {
        let d = setup(&[
            ("b.yaml", &format!("{CM}b\n")),
            ("a.yml", &format!("{CM}a\n---\n{CM}a2\n")),
            (
                "c.json",
                r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}"#,
            ),
            ("notes.txt", "x"),
            ("sub/d.yaml", &format!("{CM}d\n")),
            ("values.yaml", "replicaCount: 1\n"),
        ]);
        let spec = DirectorySpec::default();
        let got = manifests(d.path(), d.path(), &spec).unwrap();
        assert_eq!(names(&got), ["a", "a2", "b", "c"]);
        let spec = DirectorySpec {
            recurse: true,
            ..Default::default()
        };
        assert_eq!(
            names(&manifests(d.path(), d.path(), &spec).unwrap()),
            ["a", "a2", "b", "c", "d"]
        );
    }

    #[test]
    fn include_exclude_and_skip_marker() {
        let d = setup(&[
            ("a.yaml", &format!("{CM}a\n")),
            ("b.yaml", &format!("# +argocd:skip-file-rendering\n{CM}b\n")),
            ("c.yml", &format!("{CM}c\n")),
        ]);
        let spec = DirectorySpec {
            include: "*.yaml".into(),
            ..Default::default()
        };
        assert_eq!(names(&manifests(d.path(), d.path(), &spec).unwrap()), ["a"]);
        let spec = DirectorySpec {
            exclude: "a.yaml".into(),
            ..Default::default()
        };
        assert_eq!(names(&manifests(d.path(), d.path(), &spec).unwrap()), ["c"]);
    }

    #[test]
    fn broken_manifest_is_reported() {
        let d = setup(&[("a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: [\n")]);
        let err = manifests(d.path(), d.path(), &DirectorySpec::default()).unwrap_err();
        assert!(err.to_string().contains("code = FailedPrecondition desc = Failed to unmarshal \"a.yaml\": failed to unmarshal manifest:"));
    }

    #[test]
    fn symlinks_must_stay_inside() {
        let d = setup(&[("a.yaml", &format!("{CM}a\n"))]);
        let outside = setup(&[("x.yaml", &format!("{CM}x\n"))]);
        std::os::unix::fs::symlink(outside.path().join("x.yaml"), d.path().join("evil.yaml"))
            .unwrap();
        let err = manifests(d.path(), d.path(), &DirectorySpec::default()).unwrap_err();
        assert!(err.detail().contains("illegal filepath in symlink"));
    }
}
