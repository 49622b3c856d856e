//! What the panes show from the learner's files, read in one go: when each evidence file was
//! last written, the values files of the chart the values pane traces, and the working copy's
//! recent commits (so a revision reads as its subject).

use serde_json::Value;

use crate::lab::catalog::Catalog;
use crate::lab::paths::LabPaths;

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
        .map(|f| (f.to_string(), super::facts::modified(&paths.evidence(f))))
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
        commits: crate::git::commit_subjects(&paths.repo()),
    }
}
