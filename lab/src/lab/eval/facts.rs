//! The facts a checklist is judged against: the Applications and objects (as the tutor's
//! watches hold them, or read once for a plan or a self-check), the bare repos' `main` and the
//! working copy, the evidence files and their grades, and the cluster's clock. Each fact keeps
//! the moment it became so where the world records one, so a tick says when the step was done.

use std::collections::BTreeMap;
use std::path::Path;

use jiff::Timestamp;
use serde_json::Value;

use crate::cluster::{Application, ClusterError, Kind, ObjectKey, argocd};
use crate::lab::paths::LabPaths;
use crate::lab::spec::DoneWhen;

/// What the bare repos and the working copy hold, read when they change.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GitFacts {
    /// Bare repo name → its `main` commit (`None`: the repo exists but `main` has no commit).
    pub repos: BTreeMap<String, Option<String>>,
    /// Bare repo name → when it was made.
    pub made: BTreeMap<String, Timestamp>,
    /// (repo, path) → the file's content at `main`.
    #[serde(with = "pairs")]
    pub files: BTreeMap<(String, String), String>,
    /// (repo, path) → when the newest commit of `main` that changed the file was made (for a
    /// file not on `main`, the newest that removed it).
    #[serde(with = "pairs")]
    pub changed: BTreeMap<(String, String), Timestamp>,
    /// Repo names the working copy is a clone of.
    pub cloned: Vec<String>,
    /// When the working copy was made.
    pub cloned_at: Option<Timestamp>,
    /// Repo → each commit of `main`'s history → its top-level folders' tree ids: whether an
    /// Application at an older commit still renders what `main` holds.
    pub folders: BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
}

/// Commits of `main` looked at for [`GitFacts::folders`]; a lab repo has a few dozen.
const HISTORY_LIMIT: usize = 500;

impl GitFacts {
    /// These facts with the times read from the file system (when a repo or the working copy
    /// was made) said on the cluster's clock by `on_the_cluster`. Commit times are left: a
    /// commit made in the lab's shell or by a plan is dated on the cluster's clock already.
    pub fn file_times_on(mut self, on_the_cluster: impl Fn(Timestamp) -> Timestamp) -> GitFacts {
        for t in self.made.values_mut() {
            *t = on_the_cluster(*t);
        }
        self.cloned_at = self.cloned_at.map(&on_the_cluster);
        self
    }

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

/// An Application as the facts hold it: typed, its raw `spec` (a checklist step may ask about
/// any field), and when a person last applied it.
#[derive(Debug, Clone)]
pub struct AppFacts {
    pub app: Application,
    pub spec: Value,
    /// The newest managedFields time of a manager that is not Argo CD's controller.
    pub applied_at: Option<Timestamp>,
}

impl AppFacts {
    /// The facts of an Application as the API returns it (`None` when it does not read as one).
    pub fn from_json(json: &Value) -> Option<AppFacts> {
        let app = Application::from_json(json).filter(|a| !a.metadata.name.is_empty())?;
        let applied_at = json["metadata"]["managedFields"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| {
                !m["manager"]
                    .as_str()
                    .is_some_and(|n| n.starts_with("argocd"))
            })
            .filter_map(|m| m["time"].as_str()?.parse().ok())
            .max()
            .or_else(|| {
                json["metadata"]["creationTimestamp"]
                    .as_str()
                    .and_then(|t| t.parse().ok())
            });
        Some(AppFacts {
            app,
            spec: json["spec"].clone(),
            applied_at,
        })
    }
}

/// An evidence file as the facts hold it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct EvidenceFacts {
    /// When it was last written, if it is there.
    pub written: Option<Timestamp>,
    /// When the self-check that passed it ran, if its last check passed.
    pub passed: Option<Timestamp>,
}

/// Everything a checklist is evaluated against, borrowed.
pub struct Facts<'a> {
    pub apps: &'a BTreeMap<String, AppFacts>,
    pub objects: &'a BTreeMap<ObjectKey, Value>,
    pub git: &'a GitFacts,
    /// Evidence file → what is known of it.
    pub evidence: &'a BTreeMap<String, EvidenceFacts>,
    /// The cluster's clock, when known (a step that needs time to pass waits on it).
    pub now: Option<Timestamp>,
    /// The scale Events among `objects` are all the cluster has (read, not still on their
    /// way): only then does a scale with none say it is older than their hour.
    pub events_read: bool,
}

/// Facts read once, from the cluster, Git and the source dir: for a plan deciding what is done
/// or what a lesson needs first, and for the self-check.
#[derive(Default)]
pub struct LiveFacts {
    pub apps: BTreeMap<String, AppFacts>,
    pub objects: BTreeMap<ObjectKey, Value>,
    pub git: GitFacts,
    pub evidence: BTreeMap<String, EvidenceFacts>,
    pub now: Option<Timestamp>,
}

impl LiveFacts {
    /// These facts with every time the file system gave (the evidence files', the repos' and
    /// the working copy's) said on the cluster's clock by `on_the_cluster`, as the tutor says
    /// them: under `--speed` the two clocks differ.
    pub fn file_times_on(mut self, on_the_cluster: impl Fn(Timestamp) -> Timestamp) -> LiveFacts {
        for e in self.evidence.values_mut() {
            e.written = e.written.map(&on_the_cluster);
        }
        self.git = self.git.file_times_on(on_the_cluster);
        self
    }

    pub fn facts(&self) -> Facts<'_> {
        Facts {
            apps: &self.apps,
            objects: &self.objects,
            git: &self.git,
            evidence: &self.evidence,
            now: self.now,
            // `read` asks for the scale Events of every Deployment a condition names.
            events_read: true,
        }
    }

    /// What `conditions` need, read now: the Applications and the objects the conditions
    /// name, Git, the evidence files' presence, and the cluster's clock. Each app is read by
    /// name: a classroom's `argocd` can hold a thousand others, and a self-check runs after
    /// every change the tutor sees.
    pub async fn read(
        client: &kube::Client,
        paths: &LabPaths,
        conditions: &[&DoneWhen],
    ) -> Result<LiveFacts, ClusterError> {
        let mut live = LiveFacts {
            git: read_git_facts(paths, conditions.iter().copied()),
            ..LiveFacts::default()
        };
        let apps: std::collections::BTreeSet<&str> =
            conditions.iter().flat_map(|c| c.apps()).collect();
        let collection = Kind::Application.collection_path(argocd::NAMESPACE);
        for name in apps {
            let path = format!("{collection}/{name}");
            let found = argocd::raw_get_if_any(client.clone(), &path).await?;
            if let Some(app) = found.as_ref().and_then(AppFacts::from_json) {
                live.apps.insert(app.app.metadata.name.clone(), app);
            }
        }
        for object in conditions.iter().flat_map(|c| c.objects()) {
            let path = object.path(&serde_json::Map::new());
            if let Some(o) = argocd::raw_get_if_any(client.clone(), &path).await? {
                live.objects.insert(object.clone(), o);
            }
        }
        for object in conditions.iter().flat_map(|c| c.scaled_objects()) {
            for event in scale_events(client, &object.namespace, &object.name).await? {
                live.objects
                    .insert(ObjectKey::of(&event, Kind::Event), event);
            }
        }
        for file in conditions.iter().flat_map(|c| c.evidence_files()) {
            live.evidence.insert(
                file.to_string(),
                EvidenceFacts {
                    written: modified(&paths.evidence(file)),
                    passed: None,
                },
            );
        }
        live.now = crate::cluster::now(client).await.ok();
        Ok(live)
    }
}

/// The deployment controller's Events recording scales of Deployment `name`
/// (`cluster::scaled`).
pub async fn scale_events(
    client: &kube::Client,
    namespace: &str,
    name: &str,
) -> Result<Vec<Value>, ClusterError> {
    let list = argocd::raw_get(
        client.clone(),
        &crate::cluster::scaled::events_path(namespace, name),
    )
    .await?;
    Ok(list["items"].as_array().cloned().unwrap_or_default())
}

/// When a file was last written, if it is there.
pub fn modified(path: &Path) -> Option<Timestamp> {
    let at = std::fs::metadata(path).and_then(|m| m.modified()).ok()?;
    Timestamp::try_from(at).ok()
}

/// `main`'s commits and the tree id of each top-level folder at each.
fn folders_of(repo: &crate::git::Repository) -> BTreeMap<String, BTreeMap<String, String>> {
    crate::git::folders_at(repo, HISTORY_LIMIT)
}

/// When the newest commit of `main` that changed `path` was made.
fn changed_at(repo: &crate::git::Repository, path: &str) -> Option<Timestamp> {
    Timestamp::from_second(crate::git::changed_at(repo, path, HISTORY_LIMIT)?).ok()
}

/// When the newest commit of `main` that removed `path` was made (a file not there now).
fn removed_at(repo: &crate::git::Repository, path: &str) -> Option<Timestamp> {
    let removal = crate::git::FileChange::Removed;
    let sha = crate::git::newest_file_change(repo, path, removal, HISTORY_LIMIT)?;
    let oid = crate::git::Oid::from_str(&sha).ok()?;
    Timestamp::from_second(repo.find_commit(oid).ok()?.time().seconds()).ok()
}

/// Reads what the conditions need from the bare repos and the working copy, plus the `main` of
/// every bare repo in the bare dir (Applications point at them).
pub fn read_git_facts<'a>(
    paths: &LabPaths,
    conditions: impl IntoIterator<Item = &'a DoneWhen>,
) -> GitFacts {
    let mut facts = GitFacts::default();
    let mut wanted_files: Vec<(String, String)> = Vec::new();
    // Only a `removed` condition looks back through history for a file `main` lacks: a file
    // not pushed yet (every lesson's start) costs no walk.
    let mut removals: Vec<(String, String)> = Vec::new();
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
        removals.extend(
            condition
                .removals()
                .into_iter()
                .map(|(r, p)| (r.to_string(), p.to_string())),
        );
    }
    names.sort();
    names.dedup();
    wanted_files.sort();
    wanted_files.dedup();
    // `.git/description` is written when the repo is made (by git and libgit2 alike) and by
    // nothing after; the `.git` folder's own time moves with every fetch or commit (a clone
    // was said to come after the push it made possible).
    let git_dir = paths.repo().join(".git");
    facts.cloned_at = modified(&git_dir.join("description")).or_else(|| modified(&git_dir));
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
                if let Some(t) = changed_at(&repo, p) {
                    facts.changed.insert((r.clone(), p.clone()), t);
                }
            } else if removals.contains(&(r.clone(), p.clone()))
                && let Some(t) = removed_at(&repo, p)
            {
                facts.changed.insert((r.clone(), p.clone()), t);
            }
        }
        facts.folders.insert(name.clone(), folders_of(&repo));
        if is_clone_of(&paths.repo(), &paths.bare_repo(&name)) {
            facts.cloned.push(name.clone());
        }
        if let Some(t) = modified(&paths.bare_repo(&name).join("config")) {
            facts.made.insert(name.clone(), t);
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

    fn app(json: &Value) -> AppFacts {
        AppFacts::from_json(json).unwrap()
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
        let at = |rev: &str| {
            app(&json!({
                "metadata": {"name": "src-helm"},
                "spec": {"source": {"repoURL": "git://gitd.gitsrv.svc.cluster.local:9418/src.git", "path": "charts/web"}},
                "status": {"sync": {"status": "Synced", "revision": rev}, "health": {"status": "Healthy"}}
            }))
        };
        let mut live = LiveFacts::default();
        live.apps.insert("src-helm".to_string(), at("aaa"));
        live.git.repos.insert("src".into(), Some("bbb".into()));
        let cond = DoneWhen::Synced {
            app: "src-helm".into(),
        };
        assert!(!cond.holds(&live.facts()));
        live.apps.insert("src-helm".to_string(), at("bbb"));
        assert!(cond.holds(&live.facts()));
    }

    #[test]
    fn an_app_spec_holds_what_the_step_asks_for_and_yaml_numbers_match() {
        let mut live = LiveFacts::default();
        live.apps.insert(
            "src-helm".to_string(),
            app(&json!({"metadata": {"name": "src-helm"}, "spec": {"source": {"path": "charts/web", "helm": {"valueFiles": ["values-prod.yaml"], "parameters": [{"name": "greeting", "value": "from-parameter"}], "valuesObject": {"replicaCount": 3}}}}})),
        );
        let ok: DoneWhen = serde_saphyr::from_str(
            "app-spec: {app: src-helm, has: {source: {helm: {parameters: [{name: greeting}], valuesObject: {replicaCount: 3}}}}}",
        )
        .unwrap();
        assert!(ok.holds(&live.facts()));
        let not_yet: DoneWhen =
            serde_saphyr::from_str("app-spec: {app: src-helm, has: {source: {path: kust}}}")
                .unwrap();
        assert!(!not_yet.holds(&live.facts()));
    }

    #[test]
    fn git_facts_come_from_a_real_bare_repo_and_its_clone_with_their_times() {
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
        assert!(facts.made.contains_key("src"), "and when it was made");
        let repo = crate::git::clone(&paths.bare_repo("src").display().to_string(), &paths.repo())
            .unwrap();
        let cloned = read_git_facts(&paths, [&item.done_when]).cloned_at.unwrap();
        std::fs::create_dir_all(paths.repo().join("charts/web")).unwrap();
        std::fs::write(paths.repo().join("charts/web/Chart.yaml"), "name: web\n").unwrap();
        let sig = crate::git::signature("t", "t@t", Some(1_700_000_000)).unwrap();
        crate::git::commit_all(&repo, "chart", &sig).unwrap();
        crate::git::push(&repo, "main", |_| {}).unwrap();
        let mut live = LiveFacts {
            git: read_git_facts(&paths, [&item.done_when]),
            ..LiveFacts::default()
        };
        assert!(live.git.repos["src"].is_some());
        assert_eq!(live.git.cloned, ["src"]);
        // The push wrote into .git after the clone; the clone is still dated when it was made.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(paths.repo().join(".git/FETCH_HEAD"), "").unwrap();
        assert_eq!(
            read_git_facts(&paths, [&item.done_when]).cloned_at,
            Some(cloned)
        );
        assert_eq!(
            live.git.changed[&("src".to_string(), "charts/web/Chart.yaml".to_string())],
            Timestamp::from_second(1_700_000_000).unwrap(),
            "pushed when the commit that made the file so was made"
        );
        assert!(item.done_when.holds(&live.facts()));
        assert_eq!(
            item.done_when.since(&live.facts()),
            Timestamp::from_second(1_700_000_000).ok()
        );
        live.git.files.clear();
        assert!(!item.done_when.holds(&live.facts()));
    }
}

/// A map keyed by (repo, path) saved as a list of pairs: JSON's keys are strings only.
mod pairs {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    type Key = (String, String);

    pub fn serialize<V: Serialize, S: Serializer>(
        map: &BTreeMap<Key, V>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(map.iter())
    }

    pub fn deserialize<'de, V: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<Key, V>, D::Error> {
        Ok(Vec::<(Key, V)>::deserialize(d)?.into_iter().collect())
    }
}
