//! "Do it for me" after the learner did part of a lesson by hand: the plan's actions carry the
//! same "done when" conditions as the checklist, read here once from the cluster, the bare repos
//! and the evidence files, and the leading actions they show done are skipped.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Runner;
use crate::cluster::{Application, Kind, argocd};
use crate::lab::eval::{Facts, GitFacts, read_git_facts};
use crate::lab::spec::{DoneWhen, LessonId};

/// How many actions from `from` (up to `end`) the learner has already done, one after another.
pub async fn done(r: &Runner, lesson: LessonId, from: usize, end: usize) -> usize {
    let Some(l) = r.catalog.lesson(lesson) else {
        return 0;
    };
    let conditions: Vec<Option<DoneWhen>> = l
        .spec
        .actions
        .iter()
        .take(end)
        .skip(from)
        .map(|a| a.done_when.clone())
        .collect();
    if conditions.iter().all(Option::is_none) {
        return 0;
    }
    let known: Vec<&DoneWhen> = conditions.iter().flatten().collect();
    let facts = read_facts(r, &known).await;
    let passed = BTreeMap::new();
    let f = Facts {
        apps: &facts.apps,
        app_specs: &facts.specs,
        objects: &facts.objects,
        git: &facts.git,
        evidence_present: &facts.present,
        evidence_passed: &passed,
    };
    conditions
        .iter()
        .take_while(|c| c.as_ref().is_some_and(|c| c.holds(&f)))
        .count()
}

struct Owned {
    apps: BTreeMap<String, Application>,
    specs: BTreeMap<String, Value>,
    objects: BTreeMap<String, Value>,
    git: GitFacts,
    present: BTreeMap<String, bool>,
}

/// What the conditions need, read once.
async fn read_facts(r: &Runner, conditions: &[&DoneWhen]) -> Owned {
    let mut owned = Owned {
        apps: BTreeMap::new(),
        specs: BTreeMap::new(),
        objects: BTreeMap::new(),
        git: read_git_facts(&r.paths, conditions.iter().copied()),
        present: BTreeMap::new(),
    };
    let list = Kind::Application.collection_path(argocd::NAMESPACE);
    if let Ok(apps) = argocd::raw_get(r.client.clone(), &list).await {
        for raw in apps["items"].as_array().into_iter().flatten() {
            if let Some(app) = Application::from_json(raw) {
                owned
                    .specs
                    .insert(app.metadata.name.clone(), raw["spec"].clone());
                owned.apps.insert(app.metadata.name.clone(), app);
            }
        }
    }
    for c in conditions {
        match c {
            DoneWhen::FieldOwner { object, .. } | DoneWhen::ObjectField { object, .. } => {
                let path = object.path(&serde_json::Map::new());
                if let Ok(obj) = argocd::raw_get(r.client.clone(), &path).await {
                    owned.objects.insert(object.key(), obj);
                }
            }
            DoneWhen::EvidenceExists(file) => {
                owned
                    .present
                    .insert(file.clone(), r.paths.evidence(file).exists());
            }
            _ => {}
        }
    }
    owned
}
