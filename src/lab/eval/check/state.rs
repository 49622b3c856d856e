//! What a lesson's steps must have left in the cluster and in Git, read live once and judged by
//! the same conditions as the ticking checklist (its lasting steps).

use std::collections::BTreeMap;

use serde_json::Value;

use super::{Finding, fail, pass};
use crate::cluster::{Application, ClusterError, Kind, argocd};
use crate::lab::catalog::Lesson;
use crate::lab::eval::evidence::Context;
use crate::lab::eval::{Facts, GitFacts, read_git_facts};
use crate::lab::paths::LabPaths;
use crate::lab::spec::{ChecklistItem, DoneWhen};

/// The facts the checklist is judged against, read from the cluster and Git now.
#[derive(Default)]
struct LiveFacts {
    apps: BTreeMap<String, Application>,
    app_specs: BTreeMap<String, Value>,
    objects: BTreeMap<String, Value>,
    git: GitFacts,
    none: BTreeMap<String, bool>,
}

impl LiveFacts {
    fn facts(&self) -> Facts<'_> {
        Facts {
            apps: &self.apps,
            app_specs: &self.app_specs,
            objects: &self.objects,
            git: &self.git,
            evidence_present: &self.none,
            evidence_passed: &self.none,
        }
    }
}

/// The steps the self-check asks to still hold: not moments, not the evidence itself.
fn lasting(lesson: &Lesson) -> Vec<&ChecklistItem> {
    lesson
        .spec
        .checklist
        .iter()
        .filter(|i| {
            !i.moment
                && !matches!(
                    i.done_when,
                    DoneWhen::EvidenceExists(_) | DoneWhen::EvidencePasses(_)
                )
        })
        .collect()
}

pub async fn findings(lesson: &Lesson, ctx: &Context<'_>) -> Vec<Finding> {
    let items = lasting(lesson);
    if items.is_empty() {
        return Vec::new();
    }
    let live = match read(ctx, &items).await {
        Ok(l) => l,
        Err(e) => {
            return vec![fail(
                format!(
                    "cannot read the cluster to check lesson {}'s steps: {e}",
                    lesson.spec.number
                ),
                1,
            )];
        }
    };
    let facts = live.facts();
    items
        .iter()
        .map(|item| match item.done_when.unmet(&facts) {
            None => pass(item.step.get(ctx.lang)),
            // The reason already says what to do; a hint only where the lesson names one.
            Some(why) => Finding {
                ok: false,
                what: format!("{} — {why}", item.step.get(ctx.lang)),
                hint: item.hint,
            },
        })
        .collect()
}

async fn read(ctx: &Context<'_>, items: &[&ChecklistItem]) -> Result<LiveFacts, ClusterError> {
    let mut live = LiveFacts::default();
    let list = argocd::raw_get(
        ctx.client.clone(),
        &Kind::Application.collection_path(argocd::NAMESPACE),
    )
    .await?;
    for item in list["items"].as_array().into_iter().flatten() {
        if let (Some(name), Some(app)) = (
            item["metadata"]["name"].as_str(),
            Application::from_json(item),
        ) {
            live.app_specs
                .insert(name.to_string(), item["spec"].clone());
            live.apps.insert(name.to_string(), app);
        }
    }
    for object in items.iter().flat_map(|i| i.done_when.objects()) {
        let path = object.path(&serde_json::Map::new());
        if let Some(o) = argocd::raw_get_if_any(ctx.client.clone(), &path).await? {
            live.objects.insert(object.key(), o);
        }
    }
    let paths = LabPaths {
        src_dir: ctx.src_dir.to_path_buf(),
        bare_dir: ctx.bare_dir.to_path_buf(),
    };
    live.git = read_git_facts(&paths, items.iter().map(|i| &i.done_when));
    Ok(live)
}
