//! Rendering a Kustomize source like Argo CD's `(*kustomize).Build`: the Application's
//! kustomize fields become `kustomize edit` changes in the (private) checkout, then a build.
//! kubectl's embedded kustomize does the build; the edits are ours (see kustfile).

use std::path::Path;

use serde_json::Value;

use super::RepoError;
use super::exec::{self, ExecError, Invocation};
use super::kustfile::Kustomization;
use super::source::{Env, KustomizeSpec};

pub(super) struct KustomizeJob<'a> {
    pub kubectl_bin: &'a Path,
    pub app_path: &'a Path,
    pub repo_root: &'a Path,
    pub env: &'a Env,
}

/// Applies the spec's edits, then runs the build; returns the rendered YAML.
pub(super) fn build(
    job: &KustomizeJob<'_>,
    spec: Option<&KustomizeSpec>,
) -> Result<String, RepoError> {
    if let Some(k) = spec {
        if !k.version.is_empty() {
            // No `kustomize.versions` are registered in argocd-cm on the lab's Argo CD.
            return Err(RepoError::Source(format!(
                "error getting kustomize binary path: kustomize version {} is not registered",
                k.version
            )));
        }
        apply_edits(job, k)?;
    }
    let app = job.app_path.display().to_string();
    let args = vec!["kustomize".to_string(), app.clone()];
    let shown = vec!["kustomize".to_string(), "build".to_string(), app];
    let inv = Invocation {
        program: job.kubectl_bin,
        args: &args,
        shown: &shown,
        cwd: job.repo_root,
        env: &job.env.0,
    };
    match exec::run(&inv) {
        Ok(out) => Ok(out),
        Err(ExecError::Spawn(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(RepoError::ToolMissing("kubectl"))
        }
        Err(ExecError::Spawn(e)) => Err(RepoError::Io(format!("cannot run kubectl: {e}"))),
        Err(ExecError::Failed(msg)) => Err(RepoError::Tool(as_kustomize_cli(&msg))),
    }
}

/// kubectl prints `error: …` where the kustomize CLI Argo CD runs prints `Error: …`.
fn as_kustomize_cli(msg: &str) -> String {
    match msg.find(": error: ") {
        Some(i) => format!("{}: Error: {}", &msg[..i], &msg[i + ": error: ".len()..]),
        None => msg.to_string(),
    }
}

/// The edits in Argo CD's order: nameprefix, namesuffix, images, replicas, labels,
/// annotations, namespace, patches, components. Each one is a separate `kustomize edit`
/// there, so each failure is reported as that command failing.
fn apply_edits(job: &KustomizeJob<'_>, k: &KustomizeSpec) -> Result<(), RepoError> {
    let dir = job.app_path;
    if !k.name_prefix.is_empty() {
        edit(
            dir,
            &["edit", "set", "nameprefix", "--", &k.name_prefix],
            |f| {
                f.set_scalar("namePrefix", &k.name_prefix);
                Ok(())
            },
        )?;
    }
    if !k.name_suffix.is_empty() {
        edit(
            dir,
            &["edit", "set", "namesuffix", "--", &k.name_suffix],
            |f| {
                f.set_scalar("nameSuffix", &k.name_suffix);
                Ok(())
            },
        )?;
    }
    if !k.images.is_empty() {
        // Env substitution lets images say `${ARGOCD_APP_REVISION}`.
        let images: Vec<String> = k.images.iter().map(|i| job.env.subst(i)).collect();
        let mut shown = vec!["edit", "set", "image"];
        shown.extend(images.iter().map(String::as_str));
        edit(dir, &shown, |f| f.set_images(&images))?;
    }
    if !k.replicas.is_empty() {
        set_replicas(dir, k)?;
    }
    if !k.common_labels.is_empty() {
        add_labels(job, k)?;
    }
    if !k.common_annotations.is_empty() {
        add_annotations(job, k)?;
    }
    if !k.namespace.is_empty() {
        edit(
            dir,
            &["edit", "set", "namespace", "--", &k.namespace],
            |f| {
                f.set_scalar("namespace", &k.namespace);
                Ok(())
            },
        )?;
    }
    if !k.patches.is_empty() {
        add_patches(dir, k)?;
    }
    if !k.components.is_empty() {
        add_components(dir, k)?;
    }
    Ok(())
}

/// `kustomize edit set replicas name=count …`.
fn set_replicas(dir: &Path, k: &KustomizeSpec) -> Result<(), RepoError> {
    let mut counts = Vec::new();
    for (name, count) in &k.replicas {
        counts.push((
            name.clone(),
            replica_count(count).map_err(RepoError::Source)?,
        ));
    }
    let args: Vec<String> = counts.iter().map(|(n, c)| format!("{n}={c}")).collect();
    let mut shown = vec!["edit", "set", "replicas"];
    shown.extend(args.iter().map(String::as_str));
    edit(dir, &shown, |f| {
        f.set_replicas(&counts);
        Ok(())
    })
}

/// `kustomize edit add label [--force] [--without-selector] [--include-templates] k:v …`.
fn add_labels(job: &KustomizeJob<'_>, k: &KustomizeSpec) -> Result<(), RepoError> {
    let dir = job.app_path;
    let labels: Vec<(String, String)> = k
        .common_labels
        .iter()
        .map(|(n, v)| (n.clone(), job.env.subst(v)))
        .collect();
    let mut shown = vec!["edit", "add", "label"];
    if k.force_common_labels {
        shown.push("--force");
    }
    if k.label_without_selector {
        shown.push("--without-selector");
    }
    if k.label_include_templates {
        shown.push("--include-templates");
    }
    let pairs: Vec<String> = labels.iter().map(|(n, v)| format!("{n}:{v}")).collect();
    shown.extend(pairs.iter().map(String::as_str));
    edit(dir, &shown, |f| {
        if k.label_include_templates && !k.label_without_selector {
            return Err(
                "--without-selector flag must be specified for --include-templates to work".into(),
            );
        }
        if k.label_without_selector {
            f.add_labels_without_selector(&labels, k.label_include_templates, k.force_common_labels)
        } else {
            f.add_to_map("commonLabels", "label", &labels, k.force_common_labels)
        }
    })
}

/// `kustomize edit add annotation [--force] k:v …`.
fn add_annotations(job: &KustomizeJob<'_>, k: &KustomizeSpec) -> Result<(), RepoError> {
    let dir = job.app_path;
    let annotations: Vec<(String, String)> = k
        .common_annotations
        .iter()
        .map(|(n, v)| {
            let v = if k.common_annotations_envsubst {
                job.env.subst(v)
            } else {
                v.clone()
            };
            (n.clone(), v)
        })
        .collect();
    let mut shown = vec!["edit", "add", "annotation"];
    if k.force_common_annotations {
        shown.push("--force");
    }
    let pairs: Vec<String> = annotations
        .iter()
        .map(|(n, v)| format!("{n}:{v}"))
        .collect();
    shown.extend(pairs.iter().map(String::as_str));
    edit(dir, &shown, |f| {
        f.add_to_map(
            "commonAnnotations",
            "annotation",
            &annotations,
            k.force_common_annotations,
        )
    })
}

/// Argo CD edits the file itself here (there is no `kustomize edit` for patches).
fn add_patches(dir: &Path, k: &KustomizeSpec) -> Result<(), RepoError> {
    let mut f = Kustomization::load(dir)
        .map_err(|_| RepoError::Source("kustomization file not found in the path".into()))?;
    f.append("patches", &k.patches);
    f.save().map_err(|e| {
        RepoError::Source(format!(
            "failed to write kustomization.yaml with updated 'patches' field: {e}"
        ))
    })
}

/// `kustomize edit add component …`, skipping missing ones if told to.
fn add_components(dir: &Path, k: &KustomizeSpec) -> Result<(), RepoError> {
    let found: Vec<Value> = k
        .components
        .iter()
        .filter(|c| !k.ignore_missing_components || dir.join(c).exists())
        .map(|c| Value::String(c.clone()))
        .collect();
    if !found.is_empty() {
        let names: Vec<&str> = found.iter().filter_map(Value::as_str).collect();
        let mut shown = vec!["edit", "add", "component"];
        shown.extend(names.iter().copied());
        edit(dir, &shown, |f| {
            f.append("components", &found);
            Ok(())
        })?;
    }
    Ok(())
}

/// Loads the kustomization, applies `change`, saves; failures read as the `kustomize edit`
/// command Argo CD would have run failing.
fn edit(
    dir: &Path,
    shown_args: &[&str],
    change: impl FnOnce(&mut Kustomization) -> Result<(), String>,
) -> Result<(), RepoError> {
    let fail = |msg: String| {
        let mut shown = vec!["kustomize".to_string()];
        shown.extend(shown_args.iter().map(|s| s.to_string()));
        RepoError::Tool(exec::cmd_error(
            &exec::command_line(&shown),
            "exit status 1",
            &format!("Error: {msg}"),
        ))
    };
    let mut file = Kustomization::load(dir).map_err(fail)?;
    change(&mut file).map_err(fail)?;
    file.save().map_err(fail)
}

/// `KustomizeReplica.GetIntCount`: an int, or a string holding one.
fn replica_count(count: &Value) -> Result<i64, String> {
    match count {
        Value::Number(n) => n
            .as_i64()
            .ok_or_else(|| format!("expected integer value for count. Received: {n}")),
        Value::String(s) => s
            .parse()
            .map_err(|_| format!("expected integer value for count. Received: {s}")),
        other => Err(format!(
            "expected integer value for count. Received: {other}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kubectl_errors_read_like_the_kustomize_cli() {
        assert_eq!(
            as_kustomize_cli(
                "`kustomize build /x` failed exit status 1: error: accumulating resources: boom"
            ),
            "`kustomize build /x` failed exit status 1: Error: accumulating resources: boom"
        );
    }

    #[test]
    fn replica_counts() {
        assert_eq!(replica_count(&json!(2)), Ok(2));
        assert_eq!(replica_count(&json!("3")), Ok(3));
        assert!(replica_count(&json!("x")).is_err());
    }

    #[test]
    fn edit_failures_name_the_command() {
        let d = tempfile::tempdir().unwrap();
        let err = edit(
            d.path(),
            &["edit", "set", "image", "nginx=nginx:1.28"],
            |_| Ok(()),
        )
        .unwrap_err();
        assert_eq!(
            err.detail(),
            "`kustomize edit set image nginx=nginx:1.28` failed exit status 1: Error: Missing kustomization file 'kustomization.yaml'."
        );
    }
}
