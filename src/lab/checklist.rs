//! A lesson's checklist: each step with an observable "done when", as data in `lesson.yaml`,
//! and its evaluation from facts the tutor already has — the watched Applications and objects,
//! the bare repos' `main` (read when their refs change), the evidence files and their grades.
//! Nothing here asks the cluster: ticking is free, and it happens without the learner asking.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use super::derived::field_owner;
use super::paths::LabPaths;
use super::spec::{FieldPath, Localized, ObjectRef};
use crate::cluster::Application;

/// One step of a lesson's checklist.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChecklistItem {
    pub step: Localized,
    pub done_when: DoneWhen,
}

/// What shows a step is done.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum DoneWhen {
    /// The bare repo `<bare-dir>/<name>.git` exists.
    BareRepo(String),
    /// The working copy `<src-dir>/repo` is a clone of that bare repo.
    Cloned(String),
    /// `main` of the bare repo has a file at `path` (containing `contains`, when given).
    Pushed {
        repo: String,
        path: String,
        #[serde(default)]
        contains: Option<String>,
    },
    /// The Application exists and its spec holds `has` (every key and value given).
    AppSpec { app: String, has: Value },
    /// Synced and Healthy, no operation running, at the revision `main` is at now.
    Synced { app: String },
    /// As `Synced`, and the last operation Succeeded on that revision.
    Succeeded { app: String },
    /// The operation on `main`'s revision has failed (or is retrying after a failure).
    OperationFailed { app: String },
    /// The latest managedFields entry owning `path` of the object is `manager`'s.
    FieldOwner {
        object: ObjectRef,
        path: FieldPath,
        manager: String,
    },
    /// A live object's field has this value.
    ObjectField {
        object: ObjectRef,
        path: FieldPath,
        equals: Value,
    },
    /// The evidence file exists.
    EvidenceExists(String),
    /// The evidence file passes its self-check.
    EvidencePasses(String),
}

/// What the bare repos and the working copy hold, read when they change.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GitFacts {
    /// Bare repo name → its `main` commit (`None`: the repo exists but `main` has no commit).
    pub repos: BTreeMap<String, Option<String>>,
    /// (repo, path) → the file's content at `main`.
    pub files: BTreeMap<(String, String), String>,
    /// Repo names the working copy is a clone of.
    pub cloned: Vec<String>,
}

/// Everything a checklist is evaluated against, borrowed from the tutor's state.
pub struct Facts<'a> {
    pub apps: &'a BTreeMap<String, Application>,
    /// Each Application's `spec` as JSON, for `app-spec` (any field may be asked about).
    pub app_specs: &'a BTreeMap<String, Value>,
    /// Live objects by `namespace/Kind/name`.
    pub objects: &'a BTreeMap<String, Value>,
    pub git: &'a GitFacts,
    pub evidence_present: &'a BTreeMap<String, bool>,
    /// Evidence file → whether its last self-check passed.
    pub evidence_passed: &'a BTreeMap<String, bool>,
}

/// The bare repo an Application's source is (the URL's last part without `.git`).
fn repo_of(app: &Application) -> Option<String> {
    let url = &app.spec.source.as_ref()?.repo_url;
    let last = url.trim_end_matches('/').rsplit('/').next()?;
    Some(last.trim_end_matches(".git").to_string())
}

/// Whether `value` holds every key and value of `subset` (lists: each given item is found).
fn holds(value: &Value, subset: &Value) -> bool {
    match (value, subset) {
        (Value::Object(v), Value::Object(s)) => s
            .iter()
            .all(|(k, want)| v.get(k).is_some_and(|have| holds(have, want))),
        (Value::Array(v), Value::Array(s)) => {
            s.iter().all(|want| v.iter().any(|have| holds(have, want)))
        }
        // A number written as a string in YAML ("3") matches the number the API returns.
        (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n)) => {
            n.to_string() == *s
        }
        (v, s) => v == s,
    }
}

impl DoneWhen {
    pub fn holds(&self, f: &Facts<'_>) -> bool {
        let main_of =
            |app: &Application| repo_of(app).and_then(|r| f.git.repos.get(&r).cloned().flatten());
        let at_main = |app: &Application, rev: Option<&str>| {
            main_of(app).is_some_and(|m| rev == Some(m.as_str()))
        };
        let settled = |app: &Application| {
            app.operation.is_none()
                && app.status.sync.status == "Synced"
                && app.status.health.status == "Healthy"
                && at_main(app, app.git_revision())
        };
        match self {
            DoneWhen::BareRepo(repo) => f.git.repos.contains_key(repo),
            DoneWhen::Cloned(repo) => f.git.cloned.contains(repo),
            DoneWhen::Pushed {
                repo,
                path,
                contains,
            } => f
                .git
                .files
                .get(&(repo.clone(), path.clone()))
                .is_some_and(|text| contains.as_ref().is_none_or(|c| text.contains(c.as_str()))),
            DoneWhen::AppSpec { app, has } => {
                f.app_specs.get(app).is_some_and(|spec| holds(spec, has))
            }
            DoneWhen::Synced { app } => f.apps.get(app).is_some_and(settled),
            DoneWhen::Succeeded { app } => f.apps.get(app).is_some_and(|a| {
                settled(a)
                    && a.status
                        .operation_state
                        .as_ref()
                        .is_some_and(|o| o.phase == "Succeeded")
                    && at_main(a, a.synced_revision())
            }),
            DoneWhen::OperationFailed { app } => f.apps.get(app).is_some_and(|a| {
                a.status
                    .operation_state
                    .as_ref()
                    .is_some_and(|o| o.failed() || o.message.contains("Retrying attempt"))
                    && at_main(a, a.operation_revision())
            }),
            DoneWhen::FieldOwner {
                object,
                path,
                manager,
            } => f
                .objects
                .get(&object.key())
                .and_then(|o| field_owner(o, path))
                .is_some_and(|m| m == *manager),
            DoneWhen::ObjectField {
                object,
                path,
                equals,
            } => f
                .objects
                .get(&object.key())
                .and_then(|o| path.get(o))
                .is_some_and(|v| holds(v, equals)),
            DoneWhen::EvidenceExists(file) => {
                f.evidence_present.get(file).copied().unwrap_or(false)
            }
            DoneWhen::EvidencePasses(file) => f.evidence_passed.get(file).copied().unwrap_or(false),
        }
    }

    /// The bare repo and the file at `main` this condition reads, if any.
    fn git_needs(&self) -> (Option<&str>, Option<&str>) {
        match self {
            DoneWhen::BareRepo(r) | DoneWhen::Cloned(r) => (Some(r), None),
            DoneWhen::Pushed { repo, path, .. } => (Some(repo), Some(path)),
            _ => (None, None),
        }
    }
}

/// Reads what the checklists of `items` need from the bare repos and the working copy, plus
/// the `main` of every bare repo in the bare dir (Applications point at them).
pub fn read_git_facts<'a>(
    paths: &LabPaths,
    conditions: impl IntoIterator<Item = &'a DoneWhen>,
) -> GitFacts {
    let mut facts = GitFacts::default();
    let mut wanted_files: Vec<(String, String)> = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(&paths.bare_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".git").map(String::from)
        })
        .collect();
    for condition in conditions {
        let (repo, path) = condition.git_needs();
        if let Some(r) = repo {
            names.push(r.to_string());
            if let Some(p) = path {
                wanted_files.push((r.to_string(), p.to_string()));
            }
        }
    }
    names.sort();
    names.dedup();
    for name in names {
        let Ok(repo) = crate::git::open(&paths.bare_repo(&name)) else {
            continue;
        };
        let main = repo
            .revparse_single("refs/heads/main")
            .ok()
            .map(|o| o.id().to_string());
        for (r, p) in wanted_files.iter().filter(|(r, _)| *r == name) {
            if let Some(m) = &main
                && let Some(text) = crate::git::file_at(&repo, m, p)
            {
                facts.files.insert((r.clone(), p.clone()), text);
            }
        }
        if is_clone_of(&paths.repo(), &paths.bare_repo(&name)) {
            facts.cloned.push(name.clone());
        }
        facts.repos.insert(name, main);
    }
    facts
}

/// Whether the working copy's `origin` is this bare repo (by path or by a URL ending in it).
fn is_clone_of(working_copy: &Path, bare: &Path) -> bool {
    let Ok(repo) = crate::git::open(working_copy) else {
        return false;
    };
    let Some(url) = repo
        .find_remote("origin")
        .ok()
        .and_then(|o| o.url().ok().map(String::from))
    else {
        return false;
    };
    let same_path = std::fs::canonicalize(&url).ok() == std::fs::canonicalize(bare).ok();
    let name = bare.file_name().map(|n| n.to_string_lossy().into_owned());
    same_path || name.is_some_and(|n| url.trim_end_matches('/').ends_with(&format!("/{n}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::catalog;
    use serde_json::json;

    fn facts_with<'a>(
        apps: &'a BTreeMap<String, Application>,
        specs: &'a BTreeMap<String, Value>,
        objects: &'a BTreeMap<String, Value>,
        git: &'a GitFacts,
        present: &'a BTreeMap<String, bool>,
        passed: &'a BTreeMap<String, bool>,
    ) -> Facts<'a> {
        Facts {
            apps,
            app_specs: specs,
            objects,
            git,
            evidence_present: present,
            evidence_passed: passed,
        }
    }

    #[test]
    fn every_lesson_has_a_checklist_and_every_condition_loads() {
        for lesson in catalog::lessons().unwrap() {
            assert!(
                !lesson.spec.checklist.is_empty(),
                "lesson {} has no checklist",
                lesson.spec.number
            );
        }
    }

    #[test]
    fn a_synced_app_ticks_only_at_the_revision_main_is_at() {
        let app = |rev: &str| {
            Application::from_json(&json!({
                "metadata": {"name": "src-helm"},
                "spec": {"source": {"repoURL": "git://gitd.gitsrv.svc.cluster.local:9418/src.git", "path": "charts/web"}},
                "status": {"sync": {"status": "Synced", "revision": rev}, "health": {"status": "Healthy"}}
            }))
            .unwrap()
        };
        let mut apps = BTreeMap::new();
        apps.insert("src-helm".to_string(), app("aaa"));
        let mut git = GitFacts::default();
        git.repos.insert("src".into(), Some("bbb".into()));
        let (specs, objects, present, passed) = Default::default();
        let cond = DoneWhen::Synced {
            app: "src-helm".into(),
        };
        assert!(!cond.holds(&facts_with(
            &apps, &specs, &objects, &git, &present, &passed
        )));
        apps.insert("src-helm".to_string(), app("bbb"));
        assert!(cond.holds(&facts_with(
            &apps, &specs, &objects, &git, &present, &passed
        )));
    }

    #[test]
    fn an_app_spec_holds_what_the_step_asks_for_and_yaml_numbers_match() {
        let mut specs = BTreeMap::new();
        specs.insert(
            "src-helm".to_string(),
            json!({"source": {"path": "charts/web", "helm": {"valueFiles": ["values-prod.yaml"], "parameters": [{"name": "greeting", "value": "from-parameter"}], "valuesObject": {"replicaCount": 3}}}}),
        );
        let (apps, objects, git, present, passed) = Default::default();
        let f = facts_with(&apps, &specs, &objects, &git, &present, &passed);
        let ok: DoneWhen = serde_saphyr::from_str(
            "app-spec: {app: src-helm, has: {source: {helm: {parameters: [{name: greeting}], valuesObject: {replicaCount: 3}}}}}",
        )
        .unwrap();
        assert!(ok.holds(&f));
        let not_yet: DoneWhen =
            serde_saphyr::from_str("app-spec: {app: src-helm, has: {source: {path: kust}}}")
                .unwrap();
        assert!(!not_yet.holds(&f));
    }

    #[test]
    fn git_facts_come_from_a_real_bare_repo_and_its_clone() {
        let dir = tempfile::tempdir().unwrap();
        let paths = LabPaths {
            src_dir: dir.path().join("src"),
            bare_dir: dir.path().join("bare"),
        };
        let item: ChecklistItem = serde_saphyr::from_str(
            "{step: {en: push, zh: push}, done_when: {pushed: {repo: src, path: charts/web/Chart.yaml, contains: 'name: web'}}}",
        )
        .unwrap();
        assert!(read_git_facts(&paths, [&item.done_when]).repos.is_empty());
        crate::git::init_bare(&paths.bare_repo("src")).unwrap();
        let facts = read_git_facts(&paths, [&item.done_when]);
        assert_eq!(facts.repos.get("src"), Some(&None), "exists, no commit yet");
        let repo = crate::git::clone(&paths.bare_repo("src").display().to_string(), &paths.repo())
            .unwrap();
        std::fs::create_dir_all(paths.repo().join("charts/web")).unwrap();
        std::fs::write(paths.repo().join("charts/web/Chart.yaml"), "name: web\n").unwrap();
        let sig = git2::Signature::now("t", "t@t").unwrap();
        crate::git::commit_all(&repo, "chart", &sig).unwrap();
        crate::git::push(&repo, "main", |_| {}).unwrap();
        let facts = read_git_facts(&paths, [&item.done_when]);
        assert!(facts.repos["src"].is_some());
        assert_eq!(facts.cloned, ["src"]);
        let (apps, specs, objects, present, passed) = Default::default();
        assert!(item.done_when.holds(&facts_with(
            &apps, &specs, &objects, &facts, &present, &passed
        )));
    }
}
