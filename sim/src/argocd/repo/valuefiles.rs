//! Resolving Helm `valueFiles` (`getResolvedValueFiles` / `ResolveValueFilePathOrUrl`):
//! relative to the chart directory, `/`-prefixed from the repository root, never outside it.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use super::source::Env;
use crate::glob;

/// `helm.valuesFileSchemes`' default in argocd-cm.
const ALLOWED_SCHEMES: [&str; 2] = ["https", "http"];
/// `resolveSymbolicLinkRecursive`'s depth limit.
const MAX_LINK_DEPTH: usize = 10;
/// What Argo CD says instead of a path it will not reveal.
const RESOLVE_FAILURE: &str = "internal error: failed to resolve path. Check logs for more details";

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ValueFileError {
    /// Wording of the wrapped error; code Unknown.
    Invalid(String),
    /// A glob that matched nothing (`GlobNoMatchError`); code NotFound.
    GlobNoMatch(String),
}

/// A value file as helm gets it: an absolute path in the checkout, or an allowed URL.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Resolved {
    Local(PathBuf),
    Remote(String),
}

impl Resolved {
    pub fn as_arg(&self) -> String {
        match self {
            Resolved::Local(p) => p.display().to_string(),
            Resolved::Remote(u) => u.clone(),
        }
    }
}

/// Resolves the list in order: explicit files keep their place, globs expand in lexical order
/// (skipping files also listed explicitly), duplicates are dropped, and missing files are kept
/// (helm then reports them) unless `ignore_missing`.
pub(super) fn resolve_all(
    app_path: &Path,
    repo_root: &Path,
    env: &Env,
    raw: &[String],
    ignore_missing: bool,
) -> Result<Vec<Resolved>, ValueFileError> {
    let explicit: HashSet<Resolved> = raw
        .iter()
        .filter_map(|r| resolve(app_path, repo_root, &env.subst(r)).ok())
        .filter(|r| !matches!(r, Resolved::Local(p) if glob::is_glob(&p.to_string_lossy())))
        .collect();
    let mut out: Vec<Resolved> = Vec::new();
    let push = |r: Resolved, out: &mut Vec<Resolved>| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    for value_file in raw {
        let resolved = resolve(app_path, repo_root, &env.subst(value_file)).map_err(|e| {
            ValueFileError::Invalid(format!("error resolving value file path: {e}"))
        })?;
        let Resolved::Local(path) = resolved else {
            push(resolved, &mut out);
            continue;
        };
        if glob::is_glob(&path.to_string_lossy()) {
            let matches = glob::expand(&path);
            if matches.is_empty() {
                if ignore_missing {
                    continue;
                }
                return Err(ValueFileError::GlobNoMatch(format!(
                    "values file glob {} matched no files",
                    go_quote(value_file)
                )));
            }
            for m in &matches {
                if !within(repo_root, m) {
                    return Err(ValueFileError::Invalid(format!(
                        "glob pattern {}: glob match {} resolved to outside repository root",
                        go_quote(value_file),
                        go_quote(&m.display().to_string())
                    )));
                }
            }
            for m in matches {
                let r = Resolved::Local(m);
                if !explicit.contains(&r) {
                    push(r, &mut out);
                }
            }
            continue;
        }
        if ignore_missing && !path.exists() {
            continue;
        }
        push(Resolved::Local(path), &mut out);
    }
    Ok(out)
}

/// `ResolveValueFilePathOrUrl` for one entry (already env-substituted).
pub(super) fn resolve(
    app_path: &Path,
    repo_root: &Path,
    value_file: &str,
) -> Result<Resolved, String> {
    if let Some(scheme) = url_scheme(value_file) {
        return if ALLOWED_SCHEMES.contains(&scheme.as_str()) {
            Ok(Resolved::Remote(value_file.to_string()))
        } else {
            Err(format!("the URL scheme '{scheme}' is not allowed"))
        };
    }
    let joined = match value_file.strip_prefix('/') {
        // A leading slash means the repository root, not the filesystem root.
        Some(_) => clean(&repo_root.join(value_file.trim_start_matches('/'))),
        None => clean(&app_path.join(value_file)),
    };
    let path = clean(&follow_links(joined)?);
    let root = clean(repo_root);
    if path == root {
        return Err(RESOLVE_FAILURE.into());
    }
    if !path.starts_with(&root) {
        return Err(format!(
            "file '{value_file}' resolved to outside repository root"
        ));
    }
    Ok(Resolved::Local(path))
}

/// The lowercased scheme Go's `url.Parse` would find, if any.
fn url_scheme(s: &str) -> Option<String> {
    let colon = s.find(':')?;
    let scheme = &s[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    let valid = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| scheme.to_ascii_lowercase())
}

/// Follows the file itself while it is a symlink (up to the depth limit).
fn follow_links(mut path: PathBuf) -> Result<PathBuf, String> {
    for _ in 0..=MAX_LINK_DEPTH {
        match std::fs::read_link(&path) {
            Ok(target) if target.is_absolute() => path = target,
            Ok(target) => path = path.parent().unwrap_or(Path::new("/")).join(target),
            Err(_) => return Ok(path),
        }
    }
    Err(RESOLVE_FAILURE.into())
}

/// `filepath.Clean` on an absolute path: drops `.`, applies `..` lexically.
pub(super) fn clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(s) => out.push(s),
            _ => {}
        }
    }
    out
}

/// Whether `p`, with symlinks resolved, is the root or beneath it.
fn within(root: &Path, p: &Path) -> bool {
    match (root.canonicalize(), p.canonicalize()) {
        (Ok(r), Ok(p)) => p.starts_with(r),
        _ => false,
    }
}

/// Go's `%q` for the plain strings that show up here.
fn go_quote(s: &str) -> String {
    format!("{s:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Repo {
        _dir: tempfile::TempDir,
        root: PathBuf,
        chart: PathBuf,
    }

    fn repo() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let chart = root.join("charts/web");
        std::fs::create_dir_all(chart.join("envs")).unwrap();
        for f in ["values-prod.yaml", "envs/a.yaml", "envs/b.yaml"] {
            std::fs::write(chart.join(f), "").unwrap();
        }
        std::fs::write(root.join("common.yaml"), "").unwrap();
        Repo {
            _dir: dir,
            root,
            chart,
        }
    }

    fn all(r: &Repo, raw: &[&str], ignore: bool) -> Result<Vec<Resolved>, ValueFileError> {
        let raw: Vec<String> = raw.iter().map(|s| s.to_string()).collect();
        resolve_all(&r.chart, &r.root, &Env::default(), &raw, ignore)
    }

    #[test]
    fn relative_to_chart_and_slash_from_root() {
        let r = repo();
        let got = all(&r, &["values-prod.yaml", "/common.yaml"], false).unwrap();
        assert_eq!(
            got,
            [
                Resolved::Local(r.chart.join("values-prod.yaml")),
                Resolved::Local(r.root.join("common.yaml"))
            ]
        );
    }

    #[test]
    fn must_stay_in_repo() {
        let r = repo();
        let err = all(&r, &["../../../etc/passwd"], false).unwrap_err();
        assert_eq!(
            err,
            ValueFileError::Invalid(
                "error resolving value file path: file '../../../etc/passwd' resolved to outside repository root"
                    .into()
            )
        );
        assert!(
            matches!(all(&r, &["/"], false), Err(ValueFileError::Invalid(m)) if m.contains("internal error"))
        );
    }

    #[test]
    fn missing_files_are_kept_unless_ignored() {
        let r = repo();
        assert_eq!(all(&r, &["nope.yaml"], false).unwrap().len(), 1);
        assert!(all(&r, &["nope.yaml"], true).unwrap().is_empty());
    }

    #[test]
    fn globs_expand_in_order_and_explicit_entries_keep_their_place() {
        let r = repo();
        let got = all(&r, &["envs/*.yaml", "envs/a.yaml"], false).unwrap();
        assert_eq!(
            got,
            [
                Resolved::Local(r.chart.join("envs/b.yaml")),
                Resolved::Local(r.chart.join("envs/a.yaml"))
            ]
        );
        assert_eq!(
            all(&r, &["none/*.yaml"], false).unwrap_err(),
            ValueFileError::GlobNoMatch("values file glob \"none/*.yaml\" matched no files".into())
        );
        assert!(all(&r, &["none/*.yaml"], true).unwrap().is_empty());
    }

    #[test]
    fn urls_by_scheme() {
        let r = repo();
        assert_eq!(
            all(&r, &["https://example.com/v.yaml"], false).unwrap(),
            [Resolved::Remote("https://example.com/v.yaml".into())]
        );
        assert_eq!(
            all(&r, &["s3://bucket/v.yaml"], false).unwrap_err(),
            ValueFileError::Invalid(
                "error resolving value file path: the URL scheme 's3' is not allowed".into()
            )
        );
    }
}
