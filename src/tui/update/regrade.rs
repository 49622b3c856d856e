//! The learner's files and the self-checks: the same files read again change nothing; a change
//! makes the self-checks on show stale, and they run again once the facts have been quiet.

use serde_json::Value;

use super::{Effect, LabMsg, watch};
use crate::lab::spec::LessonId;
use crate::tui::state::State;

/// How long the facts must stay quiet before the self-checks shown run again, and the longest a
/// stream of changes may hold them back.
pub const REGRADE_QUIET: std::time::Duration = std::time::Duration::from_millis(800);
pub const REGRADE_AT_MOST: std::time::Duration = std::time::Duration::from_secs(5);

/// The learner's files read again, as they were.
pub(super) fn same_lab_facts(s: &State, msg: &LabMsg) -> bool {
    let same = |pairs: &[(String, Value)], kept: &std::collections::BTreeMap<String, Value>| {
        pairs.len() == kept.len() && pairs.iter().all(|(k, v)| kept.get(k) == Some(v))
    };
    match msg {
        LabMsg::Git(facts) => on_the_clusters_clock(s, facts.clone()) == s.lab.git,
        LabMsg::ChartValues(values) => same(values, &s.lab.chart_values),
        LabMsg::Commits(commits) => {
            commits.len() == s.lab.commits.len()
                && commits
                    .iter()
                    .all(|(sha, subject)| s.lab.commits.get(sha) == Some(subject))
        }
        LabMsg::Evidence(files) => {
            files.len() == s.lab.evidence.len()
                && files.iter().all(|(f, t)| s.lab.evidence.get(f) == Some(t))
        }
        // Grades, the clock and what is due are news each time.
        LabMsg::Graded(_)
        | LabMsg::EvidenceChanged(_)
        | LabMsg::ClusterClock(_)
        | LabMsg::RegradeDue => false,
    }
}

/// The self-checks on show are stale: run them again once the facts have been quiet a moment
/// (and at most a few seconds after the first change, during a long sync).
pub(super) fn schedule_regrade(s: &mut State) {
    if s.lab.grades.is_empty() {
        return;
    }
    let now = std::time::Instant::now();
    let first = *s.lab.regrade_since.get_or_insert(now);
    s.lab.regrade_at = Some((now + REGRADE_QUIET).min(first + REGRADE_AT_MOST));
}

/// What the learner's files, Git, the cluster's clock and the self-checks say now.
pub(super) fn on_lab(s: &mut State, msg: LabMsg) -> Vec<Effect> {
    match msg {
        LabMsg::Graded(grades) => {
            for g in grades {
                // A file that passed, failing now only where the cluster moved on, stands as of
                // then (lesson 5's hook Job, replaced by lesson 6's sync).
                let written = s.lab.evidence.get(&g.file).copied().flatten();
                let key = g.key();
                let g = crate::lab::eval::check::as_of_then(g, s.lab.grades.get(&key), written);
                s.lab.grades.insert(g.key(), g);
            }
        }
        LabMsg::ChartValues(values) => s.lab.chart_values = values.into_iter().collect(),
        LabMsg::Commits(commits) => s.lab.commits = commits.into_iter().collect(),
        LabMsg::Git(facts) => {
            s.lab.git = on_the_clusters_clock(s, facts);
            s.lab.git_read = true;
        }
        LabMsg::Evidence(files) => {
            let files: std::collections::BTreeMap<_, _> = files.into_iter().collect();
            // A file written or removed changes what the lesson's checks can say.
            if files != s.lab.evidence {
                s.lab.evidence = files;
                schedule_regrade(s);
            }
        }
        LabMsg::EvidenceChanged(files) => {
            let lessons: Vec<LessonId> = s
                .lessons()
                .iter()
                .filter(|l| {
                    l.evidence_file()
                        .is_some_and(|f| files.iter().any(|c| c == f))
                })
                .map(|l| l.id())
                .collect();
            return watch::checks(s, lessons);
        }
        LabMsg::ClusterClock(now) => {
            s.live.cluster_now = Some(now);
            s.live.clock_asked = false;
        }
        LabMsg::RegradeDue => return regrade(s),
    }
    Vec::new()
}

/// Git's facts with the file system's times said on the cluster's clock.
fn on_the_clusters_clock(
    s: &State,
    facts: crate::lab::eval::GitFacts,
) -> crate::lab::eval::GitFacts {
    facts.file_times_on(|t| s.session.on_the_clusters_clock(t))
}

/// The self-checks on show run again: every lesson with a grade, once the cluster answers.
fn regrade(s: &mut State) -> Vec<Effect> {
    match s.lab.regrade_at {
        Some(at) if at <= std::time::Instant::now() => {}
        _ => return Vec::new(),
    }
    s.lab.regrade_at = None;
    s.lab.regrade_since = None;
    let lessons: std::collections::BTreeSet<LessonId> =
        s.lab.grades.values().map(|g| g.lesson).collect();
    watch::checks(s, lessons)
}
