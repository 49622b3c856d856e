//! The learner's files as messages: evidence files, chart values, commits and Git facts, read
//! at the start and again after each burst of changes the folder watch reports.

use crate::tui::update::LabMsg;

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;

use crate::lab::catalog::Catalog;
use crate::lab::eval::read_git_facts;
use crate::lab::fswatch::{self, FolderWatch};
use crate::lab::paths::LabPaths;
use crate::tui::update::Msg;

/// What the panes and the checklists need from the learner's files, as messages.
pub(super) fn lab_files(paths: &LabPaths, catalog: &Catalog) -> Vec<Msg> {
    let FilesSnapshot {
        evidence,
        chart_values,
        commits,
    } = files_snapshot(paths, catalog);
    let items = catalog
        .lessons()
        .iter()
        .flat_map(|l| &l.spec.checklist)
        .map(|i| &i.done_when);
    vec![
        Msg::Lab(LabMsg::Evidence(evidence)),
        Msg::Lab(LabMsg::ChartValues(chart_values)),
        Msg::Lab(LabMsg::Commits(commits)),
        Msg::Lab(LabMsg::Git(read_git_facts(paths, items))),
    ]
}

/// Watches the bare repos and the source dir: after each change, the files' facts again, and
/// which evidence files changed (so they are graded).
pub(super) fn watch_lab_files(
    paths: &LabPaths,
    catalog: &Arc<Catalog>,
    tx: mpsc::UnboundedSender<Msg>,
) -> Option<FolderWatch> {
    let (paths, catalog) = (paths.clone(), catalog.clone());
    let dirs = [paths.bare_dir.clone(), paths.src_dir.clone()];
    let modified =
        |paths: &LabPaths, catalog: &Catalog| -> Vec<(String, Option<std::time::SystemTime>)> {
            catalog
                .evidence_files()
                .map(|f| {
                    let time = std::fs::metadata(paths.evidence(f))
                        .and_then(|m| m.modified())
                        .ok();
                    (f.to_string(), time)
                })
                .collect()
        };
    let mut last = modified(&paths, &catalog);
    let watched = fswatch::watch(&dirs, move || {
        let now = modified(&paths, &catalog);
        let changed: Vec<String> = now
            .iter()
            .filter(|(f, t)| t.is_some() && !last.iter().any(|(g, u)| g == f && u == t))
            .map(|(f, _)| f.clone())
            .collect();
        last = now;
        for msg in lab_files(&paths, &catalog) {
            let _ = tx.send(msg);
        }
        if !changed.is_empty() {
            let _ = tx.send(Msg::Lab(LabMsg::EvidenceChanged(changed)));
        }
    });
    match watched {
        Ok(w) => Some(w),
        Err(e) => {
            tracing::warn!("{e}; the checklist ticks only after plans and checks");
            None
        }
    }
}

/// What the panes show from the learner's files.
pub struct FilesSnapshot {
    /// (evidence file, when it was last written: `None` when it is not there).
    pub evidence: Vec<(String, Option<jiff::Timestamp>)>,
    /// The chart's values files in the working copy: (file name, values).
    pub chart_values: Vec<(String, Value)>,
    /// (full SHA, subject) of recent commits.
    pub commits: Vec<(String, String)>,
}

/// Reads what the panes show from the learner's files: the lessons' evidence files and the
/// chart whose values the values pane traces.
pub fn files_snapshot(paths: &LabPaths, catalog: &Catalog) -> FilesSnapshot {
    let present = catalog
        .evidence_files()
        .map(|f| {
            (
                f.to_string(),
                crate::lab::eval::facts::modified(&paths.evidence(f)),
            )
        })
        .collect();
    let chart = catalog
        .lessons()
        .iter()
        .find_map(|l| l.spec.values.as_ref())
        .map(|v| paths.repo().join(&v.chart));
    let values = chart
        .iter()
        .filter_map(|c| std::fs::read_dir(c).ok())
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            if !name.ends_with(".yaml") || name == "Chart.yaml" {
                return None;
            }
            let v =
                serde_saphyr::from_str::<Value>(&std::fs::read_to_string(e.path()).ok()?).ok()?;
            Some((name, v))
        })
        .collect();
    FilesSnapshot {
        evidence: present,
        chart_values: values,
        commits: commit_subjects(&paths.repo()),
    }
}

/// (full SHA, subject) of the working copy's recent commits, so revisions read as words.
fn commit_subjects(repo_dir: &Path) -> Vec<(String, String)> {
    let Ok(repo) = crate::git::open(repo_dir) else {
        return Vec::new();
    };
    let Ok(mut walk) = repo.revwalk() else {
        return Vec::new();
    };
    if walk.push_glob("refs/*").is_err() {
        return Vec::new();
    }
    walk.flatten()
        .take(200)
        .filter_map(|oid| {
            let c = repo.find_commit(oid).ok()?;
            Some((
                oid.to_string(),
                c.summary().ok().flatten().unwrap_or_default().to_string(),
            ))
        })
        .collect()
}
