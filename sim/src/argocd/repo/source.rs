//! The Application's `spec.source`, read from JSON into the fields the repo-server uses, with
//! Argo CD's normalisation (empty tool blocks dropped) and `.argocd-source*.yaml` overrides.

use std::path::Path;

use serde_json::{Map, Value};

/// `spec.source`, after normalisation. A tool block is `Some` only when it is set and not
/// empty, as the controller's `NormalizeApplicationSpec` leaves it.
#[derive(Debug, Clone, Default)]
pub(super) struct Source {
    pub repo_url: String,
    pub path: String,
    pub target_revision: String,
    pub chart: String,
    pub helm: Option<HelmSpec>,
    pub kustomize: Option<KustomizeSpec>,
    pub directory: Option<DirectorySpec>,
    pub plugin: bool,
}

#[derive(Debug, Clone, Default)]
pub(super) struct HelmSpec {
    pub value_files: Vec<String>,
    pub parameters: Vec<HelmParameter>,
    pub file_parameters: Vec<(String, String)>,
    pub release_name: String,
    pub values: String,
    pub values_object: Option<Value>,
    pub version: String,
    pub namespace: String,
    pub kube_version: String,
    pub api_versions: Vec<String>,
    pub ignore_missing_value_files: bool,
    pub skip_crds: bool,
    pub skip_tests: bool,
    pub skip_schema_validation: bool,
    pub pass_credentials: bool,
}

#[derive(Debug, Clone, Default)]
pub(super) struct HelmParameter {
    pub name: String,
    pub value: String,
    pub force_string: bool,
}

#[derive(Debug, Clone, Default)]
pub(super) struct KustomizeSpec {
    pub version: String,
    pub name_prefix: String,
    pub name_suffix: String,
    pub namespace: String,
    pub images: Vec<String>,
    pub replicas: Vec<(String, Value)>,
    pub common_labels: Vec<(String, String)>,
    pub common_annotations: Vec<(String, String)>,
    pub common_annotations_envsubst: bool,
    pub force_common_labels: bool,
    pub force_common_annotations: bool,
    pub label_without_selector: bool,
    pub label_include_templates: bool,
    pub patches: Vec<Value>,
    pub components: Vec<String>,
    pub ignore_missing_components: bool,
    pub kube_version: String,
    pub api_versions: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub(super) struct DirectorySpec {
    pub recurse: bool,
    pub include: String,
    pub exclude: String,
    pub jsonnet: bool,
}

/// Drops empty `helm`/`kustomize`/`directory` blocks, as `NormalizeSource` does before the
/// controller ever asks the repo-server, so `helm: {}` does not force the Helm type.
pub(super) fn normalize(source: &Value) -> Value {
    let mut out = source.clone();
    if let Some(obj) = out.as_object_mut() {
        let src = parse(&Value::Object(obj.clone()));
        if src.helm.is_none() {
            obj.remove("helm");
        }
        if src.kustomize.is_none() {
            obj.remove("kustomize");
        }
        if src.directory.is_none() {
            obj.remove("directory");
        }
    }
    out
}

/// Applies `.argocd-source.yaml` then `.argocd-source-<app>.yaml` from the app path as JSON
/// merge patches (`mergeSourceParameters`); repo, path, revision and chart cannot be changed.
pub(super) fn merge_overrides(
    source: &Value,
    app_path: &Path,
    app_name: &str,
) -> Result<Value, String> {
    let mut merged = source.clone();
    let mut files = vec![app_path.join(".argocd-source.yaml")];
    if !app_name.is_empty() {
        files.push(app_path.join(format!(".argocd-source-{app_name}.yaml")));
    }
    for file in files {
        if !file.is_file() {
            continue;
        }
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let patch: Value = crate::body::repo_yaml(&text)
            .map_err(|e| format!("{}: {}", file.display(), first_line(&e.to_string())))?;
        merge_patch(&mut merged, &patch);
    }
    if let (Some(out), Some(orig)) = (merged.as_object_mut(), source.as_object()) {
        for key in ["chart", "path", "repoURL", "targetRevision"] {
            match orig.get(key) {
                Some(v) => out.insert(key.to_string(), v.clone()),
                None => out.remove(key),
            };
        }
    }
    Ok(merged)
}

/// RFC 7386 JSON merge patch.
fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(t) = target {
        for (k, v) in patch {
            if v.is_null() {
                t.remove(k);
            } else {
                merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
    }
}

pub(super) fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
}

/// Reads `spec.source`. The API server has already checked the schema, so a field of the wrong
/// type is treated as unset rather than rejected.
pub(super) fn parse(v: &Value) -> Source {
    let helm = v.get("helm").filter(|h| h.is_object()).map(parse_helm);
    let kustomize = v
        .get("kustomize")
        .filter(|k| k.is_object())
        .map(parse_kustomize);
    let directory = v
        .get("directory")
        .filter(|d| d.is_object())
        .map(parse_directory);
    Source {
        repo_url: text(v, "repoURL"),
        path: text(v, "path"),
        target_revision: text(v, "targetRevision"),
        chart: text(v, "chart"),
        helm: helm.filter(|h| !h.is_zero()),
        kustomize: kustomize.filter(|k| !k.is_zero()),
        directory: directory.filter(|d| !d.is_zero()),
        plugin: v.get("plugin").is_some_and(|p| p.is_object()),
    }
}

fn parse_helm(h: &Value) -> HelmSpec {
    HelmSpec {
        value_files: strings(h, "valueFiles"),
        parameters: list(h, "parameters")
            .map(|p| HelmParameter {
                name: text(p, "name"),
                value: text(p, "value"),
                force_string: flag(p, "forceString"),
            })
            .collect(),
        file_parameters: list(h, "fileParameters")
            .map(|p| (text(p, "name"), text(p, "path")))
            .collect(),
        release_name: text(h, "releaseName"),
        values: text(h, "values"),
        values_object: h.get("valuesObject").filter(|v| !v.is_null()).cloned(),
        version: text(h, "version"),
        namespace: text(h, "namespace"),
        kube_version: text(h, "kubeVersion"),
        api_versions: strings(h, "apiVersions"),
        ignore_missing_value_files: flag(h, "ignoreMissingValueFiles"),
        skip_crds: flag(h, "skipCrds"),
        skip_tests: flag(h, "skipTests"),
        skip_schema_validation: flag(h, "skipSchemaValidation"),
        pass_credentials: flag(h, "passCredentials"),
    }
}

fn parse_kustomize(k: &Value) -> KustomizeSpec {
    KustomizeSpec {
        version: text(k, "version"),
        name_prefix: text(k, "namePrefix"),
        name_suffix: text(k, "nameSuffix"),
        namespace: text(k, "namespace"),
        images: strings(k, "images"),
        replicas: list(k, "replicas")
            .map(|r| {
                (
                    text(r, "name"),
                    r.get("count").cloned().unwrap_or(Value::Null),
                )
            })
            .collect(),
        common_labels: string_map(k, "commonLabels"),
        common_annotations: string_map(k, "commonAnnotations"),
        common_annotations_envsubst: flag(k, "commonAnnotationsEnvsubst"),
        force_common_labels: flag(k, "forceCommonLabels"),
        force_common_annotations: flag(k, "forceCommonAnnotations"),
        label_without_selector: flag(k, "labelWithoutSelector"),
        label_include_templates: flag(k, "labelIncludeTemplates"),
        patches: list(k, "patches").cloned().collect(),
        components: strings(k, "components"),
        ignore_missing_components: flag(k, "ignoreMissingComponents"),
        kube_version: text(k, "kubeVersion"),
        api_versions: strings(k, "apiVersions"),
    }
}

fn parse_directory(d: &Value) -> DirectorySpec {
    let jsonnet = d
        .get("jsonnet")
        .and_then(Value::as_object)
        .is_some_and(|j| {
            j.values().any(|v| match v {
                Value::Array(a) => !a.is_empty(),
                Value::Null => false,
                _ => true,
            })
        });
    DirectorySpec {
        recurse: flag(d, "recurse"),
        include: text(d, "include"),
        exclude: text(d, "exclude"),
        jsonnet,
    }
}

impl HelmSpec {
    /// What goes into the extra values file: `valuesObject` (as YAML) when set, else `values`
    /// (`ValuesYAML`): the two are never merged.
    pub fn values_yaml(&self) -> String {
        match &self.values_object {
            Some(obj) => serde_saphyr::to_string(obj).unwrap_or_default(),
            None => self.values.clone(),
        }
    }

    fn is_zero(&self) -> bool {
        self.version.is_empty()
            && self.release_name.is_empty()
            && self.value_files.is_empty()
            && self.parameters.is_empty()
            && self.file_parameters.is_empty()
            && self.values_yaml().is_empty()
            && !self.pass_credentials
            && !self.ignore_missing_value_files
            && !self.skip_crds
            && !self.skip_tests
            && !self.skip_schema_validation
            && self.kube_version.is_empty()
            && self.api_versions.is_empty()
            && self.namespace.is_empty()
    }
}

impl KustomizeSpec {
    fn is_zero(&self) -> bool {
        self.name_prefix.is_empty()
            && self.name_suffix.is_empty()
            && self.version.is_empty()
            && self.namespace.is_empty()
            && self.images.is_empty()
            && self.replicas.is_empty()
            && self.common_labels.is_empty()
            && self.common_annotations.is_empty()
            && self.patches.is_empty()
            && self.components.is_empty()
            && self.kube_version.is_empty()
            && self.api_versions.is_empty()
            && !self.ignore_missing_components
    }
}

impl DirectorySpec {
    /// Include/exclude alone still count as a directory block (`NormalizeSource`).
    fn is_zero(&self) -> bool {
        !self.recurse && !self.jsonnet && self.include.is_empty() && self.exclude.is_empty()
    }
}

fn text(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        _ => String::new(),
    }
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn list<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    list(v, key)
        .filter_map(|s| match s {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .collect()
}

fn string_map(v: &Value, key: &str) -> Vec<(String, String)> {
    v.get(key)
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_str()
                    .map(String::from)
                    .unwrap_or_else(|| v.to_string()),
            )
        })
        .collect()
}

/// The `ARGOCD_APP_*` variables Argo CD substitutes into parameters and images.
#[derive(Debug, Clone, Default)]
pub(super) struct Env(pub Vec<(String, String)>);

impl Env {
    pub fn new(app: &str, dest_ns: &str, src: &Source, revision: &str) -> Env {
        let short = |n: usize| revision.get(..n).unwrap_or(revision).to_string();
        Env(vec![
            ("ARGOCD_APP_NAME".into(), app.into()),
            ("ARGOCD_APP_NAMESPACE".into(), dest_ns.into()),
            // The source does not name the project; the lab uses `default`.
            ("ARGOCD_APP_PROJECT_NAME".into(), "default".into()),
            ("ARGOCD_APP_REVISION".into(), revision.into()),
            ("ARGOCD_APP_REVISION_SHORT".into(), short(7)),
            ("ARGOCD_APP_REVISION_SHORT_8".into(), short(8)),
            ("ARGOCD_APP_SOURCE_REPO_URL".into(), src.repo_url.clone()),
            ("ARGOCD_APP_SOURCE_PATH".into(), src.path.clone()),
            (
                "ARGOCD_APP_SOURCE_TARGET_REVISION".into(),
                src.target_revision.clone(),
            ),
        ])
    }

    fn get(&self, name: &str) -> &str {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map_or("", |(_, v)| v.as_str())
    }

    /// `Env.Envsubst`: Go's `os.Expand` with the app variables; unknown names become empty,
    /// `$$` is a literal `$`.
    pub fn subst(&self, s: &str) -> String {
        let b = s.as_bytes();
        let mut out = String::with_capacity(s.len());
        let mut copied = 0;
        let mut j = 0;
        while j < b.len() {
            if b[j] == b'$' && j + 1 < b.len() {
                out.push_str(&s[copied..j]);
                let (name, width) = shell_name(&s[j + 1..]);
                match (name, width) {
                    ("", w) if w > 0 => {} // bad syntax such as `${}`: swallowed
                    ("", _) => out.push('$'),
                    ("$", _) => out.push('$'),
                    (n, _) => out.push_str(self.get(n)),
                }
                j += width;
                copied = j + 1;
            }
            j += 1;
        }
        out.push_str(&s[copied.min(s.len())..]);
        out
    }
}

/// Go's `getShellName`: the variable name after a `$` and how many bytes it spans.
fn shell_name(s: &str) -> (&str, usize) {
    let b = s.as_bytes();
    let special = |c: u8| b"*#$@!?-0123456789".contains(&c);
    if b[0] == b'{' {
        if b.len() > 2 && special(b[1]) && b[2] == b'}' {
            return (&s[1..2], 3);
        }
        return match b.iter().skip(1).position(|&c| c == b'}') {
            Some(0) => ("", 2),
            Some(i) => (&s[1..=i], i + 2),
            None => ("", 1),
        };
    }
    if special(b[0]) {
        return (&s[..1], 1);
    }
    let n = b
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    (&s[..n], n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env() -> Env {
        Env(vec![("ARGOCD_APP_NAME".into(), "web".into())])
    }

    #[test]
    fn envsubst_like_os_expand() {
        let e = env();
        assert_eq!(e.subst("$ARGOCD_APP_NAME-x"), "web-x");
        assert_eq!(e.subst("${ARGOCD_APP_NAME}x"), "webx");
        assert_eq!(e.subst("a$$b"), "a$b");
        assert_eq!(e.subst("$UNKNOWN!"), "!");
        assert_eq!(e.subst("cost: 5$"), "cost: 5$");
        assert_eq!(e.subst("${}x"), "x");
        assert_eq!(e.subst("${open"), "open");
        assert_eq!(e.subst("$ a"), "$ a");
        assert_eq!(e.subst("ünï$ARGOCD_APP_NAME"), "ünïweb");
    }

    #[test]
    fn empty_blocks_are_dropped() {
        let s = parse(
            &json!({"helm": {}, "kustomize": {"images": []}, "directory": {"recurse": false}}),
        );
        assert!(s.helm.is_none() && s.kustomize.is_none() && s.directory.is_none());
        let s = parse(&json!({"helm": {"valuesObject": {}}, "directory": {"include": "*.yaml"}}));
        assert!(s.helm.is_some() && s.directory.is_some());
    }

    #[test]
    fn values_object_replaces_values() {
        let s = parse(&json!({"helm": {"values": "a: 1", "valuesObject": {"b": 2}}}));
        assert_eq!(s.helm.unwrap().values_yaml().trim(), "b: 2");
    }

    #[test]
    fn overrides_merge_but_keep_location() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".argocd-source.yaml"),
            "path: elsewhere\nhelm:\n  parameters:\n  - name: greeting\n    value: from-file\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join(".argocd-source-web.yaml"),
            "helm:\n  releaseName: rel\n",
        )
        .unwrap();
        let src = json!({"path": "charts/web", "helm": {"valueFiles": ["v.yaml"]}});
        let merged = merge_overrides(&src, dir.path(), "web").unwrap();
        assert_eq!(merged["path"], "charts/web");
        assert_eq!(merged["helm"]["valueFiles"][0], "v.yaml");
        assert_eq!(merged["helm"]["parameters"][0]["value"], "from-file");
        assert_eq!(merged["helm"]["releaseName"], "rel");
    }
}
