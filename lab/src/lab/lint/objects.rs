//! The objects the templates' Applications deploy, read from the files without rendering them:
//! a Helm chart's templates (`{{ .Release.Name }}` is the Application's name), a Kustomize
//! overlay's resources with its `namePrefix`, or a folder of plain manifests. `lint` checks a
//! lesson's `namespace/Kind/name` against them, so a misspelt object is found before class.

use std::collections::BTreeSet;

use super::facts::{TemplateApp, Templates};
use crate::lab::catalog::read_yaml;

/// `namespace/Kind/name` of every object the Applications deploy, the Applications the plan
/// applies among them.
pub fn deployed(t: &Templates<'_>) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = t
        .apps()
        .into_iter()
        .map(|a| format!("argocd/Application/{}", a.name))
        .collect();
    for app in t.all_apps() {
        let (Some(ns), Some(path)) = (
            app.spec["destination"]["namespace"].as_str(),
            app.spec["source"]["path"].as_str(),
        ) else {
            continue;
        };
        for (kind, name) in rendered(t, path.trim_matches('/'), &app.name, "", 0) {
            out.insert(format!("{ns}/{kind}/{name}"));
        }
    }
    out
}

/// The Applications that `parent`'s Git path holds as plain manifests: what an app of apps
/// makes when it syncs.
pub fn apps_made_by(t: &Templates<'_>, parent: &TemplateApp) -> Vec<TemplateApp> {
    let Some(path) = parent.spec["source"]["path"].as_str() else {
        return Vec::new();
    };
    let dir = path.trim_matches('/');
    let mut out = Vec::new();
    for (p, text) in t.files {
        let Some((template, rest)) = p.split_once("/repo/") else {
            continue;
        };
        let Some(name) = rest.strip_prefix(dir).and_then(|n| n.strip_prefix('/')) else {
            continue;
        };
        if name.contains('/') || !(name.ends_with(".yaml") || name.ends_with(".yml")) {
            continue;
        }
        for doc in text.split("\n---") {
            let Ok(doc) = read_yaml(doc) else { continue };
            if doc["kind"] != "Application" {
                continue;
            }
            out.push(TemplateApp {
                template: template.to_string(),
                file: format!("repo/{rest}"),
                name: doc["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                spec: doc["spec"].clone(),
                parent: Some(parent.name.clone()),
            });
        }
    }
    out
}

/// Every file of the working copy at `dir/` (from any template folder), as (name, text).
fn files_in<'a>(t: &'a Templates<'_>, dir: &str) -> Vec<(&'a str, &'a str)> {
    t.files
        .iter()
        .filter_map(|(p, c)| {
            let (_, rest) = p.split_once("/repo/")?;
            let name = rest.strip_prefix(dir)?.strip_prefix('/')?;
            Some((name, c.as_str()))
        })
        .collect()
}

/// The (kind, name) of the objects the folder `dir` makes, as a Helm chart, a Kustomize
/// folder or plain manifests.
fn rendered(
    t: &Templates<'_>,
    dir: &str,
    release: &str,
    prefix: &str,
    depth: usize,
) -> Vec<(String, String)> {
    let files = files_in(t, dir);
    let mut out = Vec::new();
    if depth > 8 {
        return out;
    }
    if files.iter().any(|(n, _)| *n == "Chart.yaml") {
        for (n, text) in &files {
            if n.starts_with("templates/") && n.ends_with(".yaml") {
                out.extend(manifests(
                    &text.replace("{{ .Release.Name }}", release),
                    prefix,
                ));
            }
        }
        return out;
    }
    if let Some((_, k)) = files.iter().find(|(n, _)| *n == "kustomization.yaml") {
        let Ok(k) = read_yaml(k) else { return out };
        let prefix = format!("{prefix}{}", k["namePrefix"].as_str().unwrap_or_default());
        for r in k["resources"].as_array().into_iter().flatten() {
            let Some(r) = r.as_str() else { continue };
            let target = joined(dir, r);
            match files.iter().find(|(n, _)| *n == r) {
                Some((_, text)) => out.extend(manifests(text, &prefix)),
                None => out.extend(rendered(t, &target, release, &prefix, depth + 1)),
            }
        }
        return out;
    }
    for (n, text) in &files {
        if !n.contains('/') && (n.ends_with(".yaml") || n.ends_with(".yml")) {
            out.extend(manifests(text, prefix));
        }
    }
    out
}

/// `dir/rel` with `..` taken back.
fn joined(dir: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// The (kind, name) of each document of a manifest file, read line by line (a chart's
/// templates are not YAML until rendered); a `generateName` object has no name to check.
fn manifests(text: &str, prefix: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for doc in text.split("\n---") {
        let mut kind = None;
        let mut name = None;
        let mut in_metadata = false;
        for line in doc.lines() {
            if let Some(k) = line.strip_prefix("kind:") {
                kind = Some(k.trim().to_string());
            }
            if line.starts_with("metadata:") {
                in_metadata = true;
                continue;
            }
            if in_metadata {
                if !line.starts_with(' ') && !line.trim().is_empty() {
                    in_metadata = false;
                } else if let Some(n) = line.strip_prefix("  name:") {
                    name = Some(n.trim().trim_matches('"').to_string());
                }
            }
        }
        if let (Some(kind), Some(name)) = (kind, name) {
            out.push((kind, format!("{prefix}{name}")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_labs_objects_are_read_from_its_chart_its_overlay_and_its_manifests() {
        let files = crate::lab::catalog::builtin_templates();
        let got = deployed(&Templates { files: &files });
        for key in [
            "src-helm/Deployment/src-helm-web",
            "src-helm/ConfigMap/src-helm-greeting",
            "src-kust/Deployment/prod-api",
            "src-waves/ConfigMap/settings",
            "src-waves/Deployment/app",
            "src-waves/Job/smoke",
        ] {
            assert!(got.contains(key), "{key} not in {got:?}");
        }
        assert!(
            !got.contains("src-kust/Deployment/api"),
            "the prefix is put on"
        );
        assert!(
            !got.iter().any(|k| k.contains("migrate")),
            "generateName has no name"
        );
    }
}
