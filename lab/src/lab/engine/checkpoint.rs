//! Where an interrupted plan got to, and what the world looked like then. A lesson like the
//! failed-hook one stages events in time (break, fail, fix), so a run cancelled half-way must
//! carry on, not replay the breakage; but only while the world is as that run left it. The
//! checkpoint keeps the step reached with a fingerprint of what the plan touches — every bare
//! repo's `main`, and the lesson's Application as applied — and a re-run resumes after it only
//! when both still match; otherwise it starts over, every step re-checking what holds now.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::Runner;
use crate::cluster::argocd;
use crate::lab::eval::read_git_facts;
use crate::lab::spec::LessonId;

/// What the plan touches, as it was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct World {
    /// Bare repo → its `main` commit.
    repos: BTreeMap<String, Option<String>>,
    /// The lesson's Application's spec as JSON (`None` when it does not exist).
    app: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Mark {
    /// Steps done, counted from the first.
    done: usize,
    world: World,
}

fn file(r: &Runner) -> PathBuf {
    r.paths.tutor_dir().join("progress.json")
}

fn read_all(r: &Runner) -> BTreeMap<String, Mark> {
    std::fs::read_to_string(file(r))
        .ok()
        // An older lab's checkpoints (bare step counts) carry no world: they start over.
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn write_all(r: &Runner, marks: &BTreeMap<String, Mark>) {
    let path = file(r);
    let text = serde_json::to_string_pretty(marks).unwrap_or_default();
    if let Err(e) = crate::lab::files::write_atomic(&path, &text) {
        tracing::warn!("cannot record lesson progress in {}: {e}", path.display());
    }
}

async fn world(r: &Runner, lesson: LessonId) -> World {
    let repos = read_git_facts(&r.paths, []).repos;
    let app = match r.catalog.lesson(lesson) {
        Some(l) => argocd::raw_get_if_any(
            r.client.clone(),
            &format!(
                "{}/{}",
                crate::cluster::Kind::Application.collection_path(argocd::NAMESPACE),
                l.spec.app
            ),
        )
        .await
        .ok()
        .flatten()
        .map(|a| a["spec"].to_string()),
        None => None,
    };
    World { repos, app }
}

/// The steps an interrupted run of `lesson` did, when the world is still as it left it.
pub async fn resume(r: &Runner, lesson: LessonId) -> usize {
    let Some(mark) = read_all(r).remove(&lesson.to_string()) else {
        return 0;
    };
    if world(r, lesson).await == mark.world {
        mark.done
    } else {
        0
    }
}

/// `done` steps of `lesson` are done, as the world is now.
pub async fn record(r: &Runner, lesson: LessonId, done: usize) {
    let world = world(r, lesson).await;
    let mut marks = read_all(r);
    marks.insert(lesson.to_string(), Mark { done, world });
    write_all(r, &marks);
}

/// The plan of `lesson` finished: the next run starts from its first step.
pub fn clear(r: &Runner, lesson: LessonId) {
    let mut marks = read_all(r);
    if marks.remove(&lesson.to_string()).is_some() {
        write_all(r, &marks);
    }
}
