//! The learner's files as messages: evidence files, chart values, commits and Git facts, read
//! at the start and again after each burst of changes the folder watch reports.

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::lab::catalog::Catalog;
use crate::lab::eval::files::{FilesSnapshot, files_snapshot};
use crate::lab::eval::read_git_facts;
use crate::lab::fswatch::{self, FolderWatch};
use crate::lab::paths::LabPaths;
use crate::tui::update::LabMsg;
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
