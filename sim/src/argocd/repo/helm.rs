//! Rendering a Helm source with the real helm, arguments in the order of Argo CD's
//! `helmTemplate` / `(*Cmd).template`.

use std::path::Path;

use super::exec::{self, ExecError, Invocation};
use super::source::{Env, HelmSpec};
use super::valuefiles::{self, Resolved, ValueFileError};
use super::{RepoError, TempFile, kube_version};

/// Everything `helm template` needs besides the spec.
pub(super) struct HelmJob<'a> {
    pub helm_bin: &'a Path,
    pub app_path: &'a Path,
    pub repo_root: &'a Path,
    /// Private scratch space for helm's home and the values file.
    pub work: &'a Path,
    pub app_name: &'a str,
    pub dest_namespace: &'a str,
    pub env: &'a Env,
    pub cluster_kube_version: Option<&'a str>,
    pub cluster_api_versions: &'a [String],
}

/// Runs `helm template . --name-template <release> …` in the chart directory; returns stdout.
pub(super) fn template(job: &HelmJob<'_>, spec: Option<&HelmSpec>) -> Result<String, RepoError> {
    let default = HelmSpec::default();
    let h = spec.unwrap_or(&default);

    let wanted_kube = if h.kube_version.is_empty() {
        job.cluster_kube_version.unwrap_or("")
    } else {
        &h.kube_version
    };
    let kube = kube_version(wanted_kube).map_err(RepoError::Source)?;
    let api_versions = if h.api_versions.is_empty() {
        job.cluster_api_versions
    } else {
        &h.api_versions
    };
    // Release name: releaseName, else the Application's name; namespace: helm.namespace,
    // else the destination namespace.
    let release = if h.release_name.is_empty() {
        job.app_name
    } else {
        &h.release_name
    };
    let namespace = if h.namespace.is_empty() {
        job.dest_namespace
    } else {
        &h.namespace
    };
    let value_files = resolve_value_files(job, h)?;
    let extra_values = extra_values_file(h)?;
    let parameters = parameters(job, h)?;

    if !matches!(h.version.as_str(), "" | "v3" | "v4") {
        return Err(RepoError::Source(format!(
            "error initializing helm app object: helm version '{}' is not supported",
            h.version
        )));
    }

    let inputs = TemplateInputs {
        release,
        namespace,
        kube,
        parameters,
        value_files,
        extra_values,
        api_versions,
    };
    run_helm(job, &inputs.args(h))
}

/// What `helm template`'s arguments are made of, once resolved from the spec.
struct TemplateInputs<'a> {
    release: &'a str,
    namespace: &'a str,
    kube: Option<String>,
    parameters: Parameters,
    value_files: Vec<Resolved>,
    /// Deletes the file when dropped, so it must outlive the helm run.
    extra_values: Option<TempFile>,
    api_versions: &'a [String],
}

/// `--set`, `--set-string` and `--set-file` pairs, each in list order.
struct Parameters {
    set: Vec<(String, String)>,
    set_string: Vec<(String, String)>,
    set_file: Vec<(String, String)>,
}

impl TemplateInputs<'_> {
    /// The arguments after `helm`, in Argo CD's order.
    fn args(&self, h: &HelmSpec) -> Vec<String> {
        let mut args: Vec<String> = vec![
            "template".into(),
            ".".into(),
            "--name-template".into(),
            self.release.into(),
        ];
        if !self.namespace.is_empty() {
            args.extend(["--namespace".into(), self.namespace.into()]);
        }
        if let Some(k) = &self.kube {
            args.extend(["--kube-version".into(), k.clone()]);
        }
        let p = &self.parameters;
        for (flag, pairs) in [
            ("--set", &p.set),
            ("--set-string", &p.set_string),
            ("--set-file", &p.set_file),
        ] {
            for (k, v) in pairs {
                args.extend([flag.into(), format!("{k}={}", clean_set_parameter(v))]);
            }
        }
        for f in &self.value_files {
            args.extend(["--values".into(), f.as_arg()]);
        }
        if let Some(f) = &self.extra_values {
            args.extend(["--values".into(), f.path().display().to_string()]);
        }
        for v in self.api_versions {
            args.extend(["--api-versions".into(), v.clone()]);
        }
        if !h.skip_crds {
            args.push("--include-crds".into());
        }
        if h.skip_schema_validation {
            args.push("--skip-schema-validation".into());
        }
        if h.skip_tests {
            args.push("--skip-tests".into());
        }
        args
    }
}

/// `valueFiles` resolved against the chart and repository, with Argo CD's error wording.
fn resolve_value_files(job: &HelmJob<'_>, h: &HelmSpec) -> Result<Vec<Resolved>, RepoError> {
    valuefiles::resolve_all(
        job.app_path,
        job.repo_root,
        job.env,
        &h.value_files,
        h.ignore_missing_value_files,
    )
    .map_err(|e| match e {
        ValueFileError::Invalid(m) => {
            RepoError::Source(format!("error resolving helm value files: {m}"))
        }
        ValueFileError::GlobNoMatch(m) => {
            RepoError::ValueFileGlob(format!("error resolving helm value files: {m}"))
        }
    })
}

/// values/valuesObject go into a temp file passed as the last --values, like Argo CD's
/// /tmp/<uuid>; the guard deletes it.
fn extra_values_file(h: &HelmSpec) -> Result<Option<TempFile>, RepoError> {
    let values_yaml = h.values_yaml();
    if values_yaml.is_empty() {
        return Ok(None);
    }
    TempFile::create(&values_yaml)
        .map(Some)
        .map_err(|e| RepoError::Io(format!("error writing helm values file: {e}")))
}

/// Parameters keep their list order; a repeated name keeps its first place and last value,
/// as Argo CD's map of parameters would. File parameters resolve like value files.
fn parameters(job: &HelmJob<'_>, h: &HelmSpec) -> Result<Parameters, RepoError> {
    let mut set: Vec<(String, String)> = Vec::new();
    let mut set_string: Vec<(String, String)> = Vec::new();
    for p in &h.parameters {
        let target = if p.force_string {
            &mut set_string
        } else {
            &mut set
        };
        let value = job.env.subst(&p.value);
        match target.iter_mut().find(|(n, _)| *n == p.name) {
            Some(slot) => slot.1 = value,
            None => target.push((p.name.clone(), value)),
        }
    }
    let mut set_file: Vec<(String, String)> = Vec::new();
    for (name, path) in &h.file_parameters {
        let resolved = valuefiles::resolve(job.app_path, job.repo_root, &job.env.subst(path))
            .map_err(|e| RepoError::Source(format!("error resolving helm value file path: {e}")))?;
        set_file.push((name.clone(), resolved.as_arg()));
    }
    Ok(Parameters {
        set,
        set_string,
        set_file,
    })
}

/// Runs helm with its own home in the scratch space, so no user config or repo cache leaks
/// in; maps its failures to Argo CD's wording.
fn run_helm(job: &HelmJob<'_>, args: &[String]) -> Result<String, RepoError> {
    let home = job.work.join("helm-home");
    let home_s = home.display().to_string();
    let env = vec![
        ("XDG_CACHE_HOME".to_string(), format!("{home_s}/cache")),
        ("XDG_CONFIG_HOME".to_string(), format!("{home_s}/config")),
        ("XDG_DATA_HOME".to_string(), format!("{home_s}/data")),
        ("HELM_CONFIG_HOME".to_string(), format!("{home_s}/config")),
    ];
    let mut shown = vec!["helm".to_string()];
    shown.extend(args.iter().cloned());
    let inv = Invocation {
        program: job.helm_bin,
        args,
        shown: &shown,
        cwd: job.app_path,
        env: &env,
    };
    match exec::run(&inv) {
        Ok(out) => Ok(out),
        Err(ExecError::Spawn(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(RepoError::ToolMissing("helm"))
        }
        Err(ExecError::Spawn(e)) => Err(RepoError::Io(format!("cannot run helm: {e}"))),
        Err(ExecError::Failed(msg)) => Err(RepoError::Tool(format!(
            "failed to execute helm template command: failed running helm: {}",
            remove_api_versions(&msg)
        ))),
    }
}

/// `cleanSetParameters`: escape commas (so helm does not split the value) unless the value
/// is a `{a,b}` list or the comma is already escaped.
fn clean_set_parameter(v: &str) -> String {
    if v.starts_with('{') && v.ends_with('}') {
        return v.to_string();
    }
    let mut out = String::with_capacity(v.len());
    let mut prev = None;
    for c in v.chars() {
        if c == ',' && prev != Some('\\') {
            out.push_str("\\,");
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

/// `apiVersionsRemover`: every run of `--api-versions X ` becomes `<api versions removed> `.
fn remove_api_versions(msg: &str) -> String {
    const FLAG: &str = "--api-versions ";
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(at) = rest.find(FLAG) {
        out.push_str(&rest[..at]);
        let mut cursor = &rest[at..];
        let mut removed = false;
        // Consume consecutive "--api-versions <value> " groups.
        while let Some(after) = cursor.strip_prefix(FLAG) {
            let end = after.find(' ').unwrap_or(after.len());
            if end == 0 || end == after.len() {
                break;
            }
            cursor = &after[end + 1..];
            removed = true;
        }
        if removed {
            out.push_str("<api versions removed> ");
            rest = cursor;
        } else {
            out.push_str(FLAG);
            rest = &cursor[FLAG.len().min(cursor.len())..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commas_are_escaped() {
        assert_eq!(clean_set_parameter("a,b"), "a\\,b");
        assert_eq!(clean_set_parameter("a\\,b"), "a\\,b");
        assert_eq!(clean_set_parameter("{a,b}"), "{a,b}");
    }

    #[test]
    fn api_versions_are_hidden() {
        assert_eq!(
            remove_api_versions(
                "`helm template . --api-versions v1 --api-versions apps/v1 --include-crds` failed"
            ),
            "`helm template . <api versions removed> --include-crds` failed"
        );
        // The last group with no trailing space stays, as with Argo CD's regexp.
        assert_eq!(
            remove_api_versions("x --api-versions v1 --api-versions apps/v1"),
            "x <api versions removed> --api-versions apps/v1"
        );
        assert_eq!(remove_api_versions("no flags"), "no flags");
    }
}
