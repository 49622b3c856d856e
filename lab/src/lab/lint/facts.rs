//! What the templates hold, as `lint` needs it: the Applications they define (name, file,
//! destination), the namespaces, and the YAML at a path of a file.

use serde_json::Value;

use crate::lab::catalog::read_yaml;
use crate::lab::spec::{DoneWhen, FieldPath};

/// An Application a template defines: applied from a top-level `app-*.yaml`, or made by another
/// Application whose Git path holds it (an app of apps).
pub struct TemplateApp {
    pub template: String,
    /// `app-src-root.yaml`, or `repo/apps/hello.yaml` for one an Application makes.
    pub file: String,
    pub name: String,
    pub spec: Value,
    /// The Application whose path holds this one; `None` for one the plan applies.
    pub parent: Option<String>,
}

pub struct Templates<'a> {
    pub files: &'a [(String, String)],
}

impl Templates<'_> {
    pub fn exists(&self, template: &str) -> bool {
        let prefix = format!("{template}/");
        self.files.iter().any(|(p, _)| p.starts_with(&prefix))
    }

    pub fn file(&self, template: &str, file: &str) -> Option<&str> {
        let path = format!("{template}/{file}");
        self.files
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, c)| c.as_str())
    }

    /// Every Application the templates' top-level files define.
    pub fn apps(&self) -> Vec<TemplateApp> {
        self.files
            .iter()
            .filter_map(|(p, c)| {
                let (template, file) = p.split_once('/')?;
                if file.contains('/') {
                    return None;
                }
                let doc = read_yaml(c).ok()?;
                (doc["kind"] == "Application").then(|| TemplateApp {
                    template: template.to_string(),
                    file: file.to_string(),
                    name: doc["metadata"]["name"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                    spec: doc["spec"].clone(),
                    parent: None,
                })
            })
            .collect()
    }

    /// The Applications the plan applies and, through their Git paths, every Application they
    /// make (an app of apps, to any depth).
    pub fn all_apps(&self) -> Vec<TemplateApp> {
        let mut all = self.apps();
        let mut i = 0;
        while i < all.len() && all.len() < 256 {
            let made = super::objects::apps_made_by(self, &all[i]);
            for app in made {
                if !all.iter().any(|a| a.name == app.name) {
                    all.push(app);
                }
            }
            i += 1;
        }
        all
    }

    /// The namespaces the lab's objects can be in: Argo CD's, and each Application's destination.
    pub fn namespaces(&self) -> Vec<String> {
        let mut out = vec!["argocd".to_string()];
        for a in self.all_apps() {
            if let Some(ns) = a.spec["destination"]["namespace"].as_str()
                && !out.iter().any(|n| n == ns)
            {
                out.push(ns.to_string());
            }
        }
        out
    }

    /// The value at `path` of `<template>/repo/<file>`: `None` when there is no such file,
    /// `Some(Null)` when the file does not set it.
    pub fn repo_value(&self, template: &str, file: &str, path: &FieldPath) -> Option<Value> {
        let text = self.file(template, &format!("repo/{file}"))?;
        let doc = read_yaml(text).ok()?;
        Some(path.get(&doc).cloned().unwrap_or(Value::Null))
    }
}

/// Each single condition of `d`: `all:` and `held-after-scale:` opened up.
pub fn conditions<'a>(d: &'a DoneWhen, out: &mut Vec<&'a DoneWhen>) {
    match d {
        DoneWhen::All(all) => all.iter().for_each(|c| conditions(c, out)),
        DoneWhen::HeldAfterScale { condition, .. } => {
            out.push(d);
            conditions(condition, out);
        }
        _ => out.push(d),
    }
}
