//! A class's labs, collected and graded after class with no cluster: `collect` keeps what a
//! learner's self-check reads at that moment (their evidence files, progress, working copy and
//! bare repos, and every answer the cluster gave the check, through a recording client), and
//! `grade_collected` grades it again from that alone, with the same grading code, so the
//! verdicts are the ones `check` gave live.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cluster::argocd;
use crate::cluster::recorded::{Exchange, Recorder, Replayer};
use crate::i18n::{Lang, Say, Words};
use crate::lab::catalog::Catalog;
use crate::lab::eval::check::{Grade, grade_lesson};
use crate::lab::eval::context::Context;
use crate::lab::paths::LabPaths;
use crate::lab::progress::{self, Progress};
use crate::lab::spec::{LessonId, Step};
use crate::t;

/// The file in a collected lab's folder that holds the rest.
pub const FILE: &str = "collected.json";

/// One learner's lab as it was collected.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Collected {
    /// The learner (`--learner`), when the class shares a cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learner: Option<String>,
    pub collected_at: jiff::Timestamp,
    /// The verdicts the self-check gave as the lab was collected.
    pub grades: Vec<Grade>,
    /// Every answer the cluster gave the self-check (and the predictions' reveals).
    pub exchanges: Vec<Exchange>,
    #[serde(default)]
    pub progress: Progress,
}

/// Why a lab could not be collected or read back.
#[derive(Debug, thiserror::Error)]
pub enum ClassError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not a collected lab ({source})", path.display())]
    NotCollected {
        path: PathBuf,
        source: serde_json::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ClassError + '_ {
    move |source| ClassError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Copies `from` to `to` (a file or a folder), keeping each file's modified time: the checks
/// read when evidence was written.
fn copy_keeping_times(from: &Path, to: &Path) -> Result<(), ClassError> {
    if from.is_dir() {
        std::fs::create_dir_all(to).map_err(io(to))?;
        for e in std::fs::read_dir(from).map_err(io(from))?.flatten() {
            copy_keeping_times(&e.path(), &to.join(e.file_name()))?;
        }
        return Ok(());
    }
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    std::fs::copy(from, to).map_err(io(from))?;
    if let Ok(modified) = std::fs::metadata(from).and_then(|m| m.modified()) {
        let file = std::fs::File::options()
            .write(true)
            .open(to)
            .map_err(io(to))?;
        file.set_modified(modified).map_err(io(to))?;
    }
    Ok(())
}

/// Where a collected lab keeps the learner's folders.
fn paths_in(dir: &Path) -> LabPaths {
    LabPaths {
        src_dir: dir.join("src"),
        bare_dir: dir.join("bare"),
    }
}

/// The bare repos the lessons' plans make.
fn repos(catalog: &Catalog) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in catalog.lessons() {
        for a in &l.spec.actions {
            if let Step::CreateBareRepo { repo } = &a.step
                && !out.contains(repo)
            {
                out.push(repo.clone());
            }
        }
    }
    out
}

/// Grades every lesson through `client`, and reads what the predictions reveal through it too
/// (so a record of it holds what judging them needs).
async fn grade_all(client: &kube::Client, catalog: &Catalog, paths: &LabPaths) -> Vec<Grade> {
    let ctx = Context {
        client,
        catalog,
        src_dir: &paths.src_dir,
        bare_dir: &paths.bare_dir,
        clock: None,
    };
    let mut grades = Vec::new();
    for lesson in catalog.lessons() {
        grades.push(grade_lesson(lesson, &ctx).await);
        for ask in lesson.spec.actions.iter().filter_map(|a| a.ask.as_ref()) {
            let object = ask.reveal.object();
            let _ =
                argocd::raw_get_if_any(client.clone(), &object.path(&serde_json::Map::new())).await;
        }
    }
    grades
}

/// Collects the lab at `paths` (on the cluster `client` reaches) into `out`.
pub async fn collect(
    client: &kube::Client,
    catalog: &Catalog,
    paths: &LabPaths,
    learner: Option<&str>,
    out: &Path,
) -> Result<Collected, ClassError> {
    let kept = paths_in(out);
    for file in catalog.evidence_files() {
        let from = paths.evidence(file);
        if from.is_file() {
            copy_keeping_times(&from, &kept.evidence(file))?;
        }
    }
    let progress_file = progress::file(&paths.src_dir);
    if progress_file.is_file() {
        copy_keeping_times(&progress_file, &progress::file(&kept.src_dir))?;
    }
    if paths.repo().is_dir() {
        copy_keeping_times(&paths.repo(), &kept.repo())?;
    }
    for repo in repos(catalog) {
        let bare = paths.bare_repo(&repo);
        if bare.is_dir() {
            copy_keeping_times(&bare, &kept.bare_repo(&repo))?;
        }
    }
    // Graded where the learner's lab is, as `check` grades it; the cluster's answers recorded.
    let (recording, recorder) = Recorder::new(client.clone());
    let grades = grade_all(&recording, catalog, paths).await;
    let collected = Collected {
        learner: learner.map(String::from),
        collected_at: jiff::Timestamp::now(),
        grades,
        exchanges: recorder.exchanges(),
        progress: progress::load(&paths.src_dir).progress,
    };
    let text = serde_json::to_string_pretty(&collected).unwrap_or_default();
    let file = out.join(FILE);
    crate::lab::files::write_atomic(&file, &text).map_err(io(&file))?;
    Ok(collected)
}

/// A collected lab, read back.
pub fn read(dir: &Path) -> Result<Collected, ClassError> {
    let file = dir.join(FILE);
    let text = std::fs::read_to_string(&file).map_err(io(&file))?;
    serde_json::from_str(&text).map_err(|source| ClassError::NotCollected { path: file, source })
}

/// The lab collected in `dir` graded again, with no cluster: the cluster's answers are the
/// ones recorded, the learner's files the ones kept.
pub async fn grade_collected(dir: &Path, catalog: &Catalog) -> Result<Vec<Grade>, ClassError> {
    let collected = read(dir)?;
    let client = Replayer::client(&collected.exchanges);
    Ok(grade_all(&client, catalog, &paths_in(dir)).await)
}

/// Where a lesson of a collected lab stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    Passed,
    /// Its first failure, said where the report is shown.
    Failed {
        first: Words,
    },
    /// Nothing of it done: no step ticked, no finding that holds, its evidence file not there.
    NotStarted,
}

impl Say for Standing {
    fn say(&self, lang: Lang) -> String {
        match self {
            Standing::Passed => t!(lang, "class-passed"),
            Standing::Failed { first } => t!(lang, "class-failed", why = first.say(lang)),
            Standing::NotStarted => t!(lang, "class-not-started"),
        }
    }
}

/// One lesson of one learner's lab, as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonRow {
    pub lesson: LessonId,
    pub standing: Standing,
    /// Hints the learner opened.
    pub hints: usize,
    /// From the first checklist step ticked to the last, as the tutor saw them.
    pub spent: Option<jiff::SignedDuration>,
}

/// A prediction the learner made, and what the cluster showed.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    pub lesson: LessonId,
    /// The action (1-based) that asked.
    pub action: usize,
    pub chose: String,
    /// The answer the cluster showed when the lab was collected (`None`: it did not show one).
    pub live: Option<String>,
}

impl Prediction {
    pub fn right(&self) -> Option<bool> {
        self.live.as_ref().map(|l| *l == self.chose)
    }
}

/// One learner's lab, as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct LabRow {
    /// The learner, else the collected folder's name.
    pub learner: String,
    pub lessons: Vec<LessonRow>,
    pub predictions: Vec<Prediction>,
}

/// The lab collected in `dir`, graded without a cluster and read for the report.
pub async fn report(dir: &Path, catalog: &Catalog) -> Result<LabRow, ClassError> {
    let collected = read(dir)?;
    let client = Replayer::client(&collected.exchanges);
    let paths = paths_in(dir);
    let grades = grade_all(&client, catalog, &paths).await;
    let progress = &collected.progress;
    let lessons = catalog
        .lessons()
        .iter()
        .zip(&grades)
        .map(|(lesson, grade)| {
            let id = lesson.id();
            let ticks = progress.ticks.get(&id);
            let evidence_there = lesson
                .evidence_file()
                .is_some_and(|f| paths.evidence(f).is_file());
            let standing = if grade.passed() {
                Standing::Passed
            } else if ticks.is_none_or(BTreeMap::is_empty)
                && !evidence_there
                && (lesson.evidence_file().is_some() || grade.findings.iter().all(|f| !f.ok))
            {
                Standing::NotStarted
            } else {
                let first = grade.findings.iter().find(|f| !f.ok);
                Standing::Failed {
                    first: first.map_or_else(|| Words::text(""), |f| f.what.clone()),
                }
            };
            let spent = ticks.and_then(|t| {
                let (first, last) = (t.values().min()?, t.values().max()?);
                Some(last.duration_since(*first))
            });
            LessonRow {
                lesson: id,
                standing,
                hints: progress.hints.get(&id).copied().unwrap_or(0),
                spent,
            }
        })
        .collect();
    let mut predictions = Vec::new();
    for (key, chose) in &progress.answers {
        let Some((lesson, action)) = key
            .split_once(':')
            .and_then(|(l, a)| Some((LessonId(l.parse().ok()?), a.parse::<usize>().ok()?)))
        else {
            continue;
        };
        let Some(ask) = catalog
            .lesson(lesson)
            .and_then(|l| l.spec.actions.get(action.checked_sub(1)?))
            .and_then(|a| a.ask.as_ref())
        else {
            continue;
        };
        let object = ask.reveal.object();
        let mut objects = BTreeMap::new();
        if let Ok(Some(o)) =
            argocd::raw_get_if_any(client.clone(), &object.path(&serde_json::Map::new())).await
        {
            objects.insert(object.clone(), o);
        }
        predictions.push(Prediction {
            lesson,
            action,
            chose: chose.clone(),
            live: crate::lab::eval::derived::revealed(&ask.reveal, &objects),
        });
    }
    let learner = collected.learner.clone().unwrap_or_else(|| {
        dir.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    Ok(LabRow {
        learner,
        lessons,
        predictions,
    })
}
