//! The facts a checklist is judged against: the watched Applications and objects, the bare
//! repos' `main` (read when their refs change), the evidence files and their grades. Nothing
//! here asks the cluster: ticking is free, and it happens without the learner asking.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::cluster::Application;
use crate::lab::paths::LabPaths;
use crate::lab::spec::DoneWhen;

/// What the bare repos and the working copy hold, read when they change.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GitFacts {
    /// Bare repo name → its `main` commit (`None`: the repo exists but `main` has no commit).
    pub repos: BTreeMap<String, Option<String>>,
    /// (repo, path) → the file's content at `main`.
    pub files: BTreeMap<(String, String), String>,
    /// Repo names the working copy is a clone of.
    pub cloned: Vec<String>,
    /// Repo → each commit of `main`'s history → its top-level folders' tree ids: whether an
    /// Application at an older commit still renders what `main` holds.
    pub folders: BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
}

/// Commits of `main` looked at for [`GitFacts::folders`]; a lab repo has a few dozen.
const HISTORY_LIMIT: usize = 500;

impl GitFacts {
    /// Whether an Application whose source is `path` of `repo`, at `revision`, is at `main`:
    /// the same commit, or an older commit of `main` whose top-level folder holding `path` is
    /// unchanged since (Argo CD moves an untouched app's revision on at its next refresh).
    pub fn current(&self, repo: &str, revision: Option<&str>, path: &str) -> bool {
        let (Some(Some(main)), Some(rev)) = (self.repos.get(repo), revision) else {
            return false;
        };
        if main == rev {
            return true;
        }
        let top = path.trim_matches('/').split('/').next().unwrap_or_default();
        let tree = |commit: &str| {
            self.folders
                .get(repo)
                .and_then(|h| h.get(commit))
                .and_then(|f| f.get(top))
        };
        !top.is_empty() && tree(rev).is_some() && tree(rev) == tree(main)
    }
}

/// `main`'s commits and the tree id of each top-level folder at each.
fn folders_of(repo: &git2::Repository) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for oid in crate::git::main_history(repo)
        .into_iter()
        .take(HISTORY_LIMIT)
    {
        let Ok(tree) = repo.find_commit(oid).and_then(|c| c.tree()) else {
            continue;
        };
        let dirs = tree
            .iter()
            .filter(|e| e.kind() == Some(git2::ObjectType::Tree))
            .map(|e| {
                (
                    String::from_utf8_lossy(e.name_bytes()).into_owned(),
                    e.id().to_string(),
                )
            })
            .collect();
        out.insert(oid.to_string(), dirs);
    }
    out
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
        for (repo, path) in condition.git_needs() {
            names.push(repo.to_string());
            if let Some(p) = path {
                wanted_files.push((repo.to_string(), p.to_string()));
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
        facts.folders.insert(name.clone(), folders_of(&repo));
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
    use crate::lab::catalog::Catalog;
    use crate::lab::spec::ChecklistItem;
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
        for lesson in Catalog::embedded().unwrap().lessons() {
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
