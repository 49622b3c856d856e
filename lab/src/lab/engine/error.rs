//! Why a plan step failed, typed: what came from below (Git, the cluster, the evidence), and
//! what in the lab's state asks the learner to act — each said, with what to do, in the
//! learner's language.

use std::path::PathBuf;

use crate::cluster;
use crate::git;
use crate::i18n::{Lang, Say, Words};
use crate::lab::eval::context;
use crate::lab::spec::LessonId;
use crate::t;

/// Its `Display` is its English words (`display_says!`); its `source` is what failed below.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    Git(#[source] git::GitError),
    Cluster(#[source] cluster::ClusterError),
    Evidence(#[source] context::EvidenceError),
    /// The bare repo cannot be made where the bare dir says.
    BareDir {
        why: Words,
    },
    /// The working copy is a clone of another repo.
    CloneOfOther {
        dest: PathBuf,
        url: String,
        wanted: String,
    },
    /// The bare repo to clone does not exist.
    NoBareRepo {
        bare: PathBuf,
    },
    /// A folder of the lab cannot be made or written.
    CannotWriteIn {
        path: PathBuf,
        source: std::io::Error,
    },
    CannotMoveClone {
        dest: PathBuf,
        source: std::io::Error,
    },
    NoTemplate(String),
    /// A file a step would remove holds changes that are only in the working copy.
    WouldLoseChanges {
        path: PathBuf,
    },
    CannotWrite {
        path: PathBuf,
        source: std::io::Error,
    },
    CannotRead {
        path: PathBuf,
        source: std::io::Error,
    },
    NotYaml {
        path: PathBuf,
        /// Boxed: a parser's error is large, and every step returns this type.
        source: Box<serde_saphyr::Error>,
    },
    NoName(PathBuf),
    /// The last sync of the target revision failed: Argo CD's message.
    SyncFailed(String),
    /// A wait for a failure that cannot come: the app is Synced at Git's commit and no
    /// operation ever ran on it.
    NothingToSync {
        app: String,
        commit: String,
    },
    /// Argo CD cannot render the app: its ComparisonError.
    CannotRender(String),
    /// The wait ran out: how long, and what it last saw.
    GaveUp {
        seconds: u64,
        last: Option<Words>,
    },
    WatchEnded,
    NoCommit,
    NeverSaw {
        app: String,
        commit: String,
    },
    DidNotEnd {
        app: String,
        phase: String,
    },
    /// The moment a step records is over: the failing operation ended without being recorded
    /// and `app` has synced `revision` since, so the cluster no longer shows it.
    MomentPassed {
        app: String,
        revision: String,
        lesson: LessonId,
    },
    NoLessonWrites(String),
    NoKubectl,
    CannotRunKubectl(String),
    /// kubectl's own words.
    KubectlFailed(String),
    /// There is no working copy yet: the lesson that makes it.
    NoWorkingCopy {
        dir: PathBuf,
        lesson: Option<LessonId>,
    },
    Uncommitted {
        dir: PathBuf,
        files: Vec<String>,
        more: bool,
    },
    Behind {
        dir: PathBuf,
        count: usize,
    },
    Unpushed {
        dir: PathBuf,
        count: usize,
    },
    /// The cluster stayed away until the deadline.
    ClusterAway {
        seconds: u64,
        why: crate::cluster::problem::Problem,
    },
    /// The evidence just written does not pass its own check: the first failure (and its
    /// advice), and how many more there are.
    EvidenceFails {
        file: String,
        lesson: LessonId,
        what: Words,
        help: Option<Words>,
        more: usize,
    },
    /// Every step ran, but the lesson's check does not pass: its first failure.
    LessonFails {
        lesson: LessonId,
        what: Words,
        help: Option<Words>,
        more: usize,
    },
}

impl StepError {
    /// The app whose lab is past where the lesson's staged moment starts: the failure it records
    /// ended unrecorded, or a commit meant to fail changes nothing Argo CD compares.
    pub fn past_the_start(&self) -> Option<&str> {
        match self {
            StepError::MomentPassed { app, .. } | StepError::NothingToSync { app, .. } => Some(app),
            _ => None,
        }
    }
}

impl Say for StepError {
    // One arm per message: split, the messages would only be scattered.
    #[allow(clippy::too_many_lines)]
    fn say(&self, lang: Lang) -> String {
        let path = |p: &PathBuf| p.display().to_string();
        match self {
            StepError::Git(e) => e.say(lang),
            StepError::Cluster(e) => e.say(lang),
            StepError::Evidence(e) => e.say(lang),
            StepError::BareDir { why } => t!(lang, "step-error-bare-dir", why = why.say(lang)),
            StepError::CloneOfOther { dest, url, wanted } => t!(
                lang,
                "step-error-clone-of-other",
                dest = path(dest),
                url = url.as_str(),
                wanted = wanted.as_str()
            ),
            StepError::NoBareRepo { bare } => {
                t!(lang, "step-error-no-bare-repo", bare = path(bare))
            }
            StepError::CannotWriteIn { path: p, source } => t!(
                lang,
                "step-error-cannot-write-in",
                path = path(p),
                why = source.to_string()
            ),
            StepError::CannotMoveClone { dest, source } => t!(
                lang,
                "step-error-cannot-move-clone",
                dest = path(dest),
                why = source.to_string()
            ),
            StepError::NoTemplate(name) => {
                t!(lang, "step-error-no-template", template = name.as_str())
            }
            StepError::CannotWrite { path: p, source } => t!(
                lang,
                "step-error-cannot-write",
                path = path(p),
                why = source.to_string()
            ),
            StepError::CannotRead { path: p, source } => t!(
                lang,
                "step-error-cannot-read",
                path = path(p),
                why = source.to_string()
            ),
            StepError::NotYaml { path: p, source } => t!(
                lang,
                "step-error-not-yaml",
                path = path(p),
                why = source.to_string()
            ),
            StepError::NoName(p) => t!(lang, "step-error-no-name", path = path(p)),
            StepError::SyncFailed(message) => {
                t!(lang, "step-error-sync-failed", message = message.as_str())
            }
            StepError::NothingToSync { app, commit } => t!(
                lang,
                "step-error-nothing-to-sync",
                app = app.as_str(),
                commit = commit.as_str()
            ),
            StepError::CannotRender(message) => {
                t!(lang, "step-error-cannot-render", message = message.as_str())
            }
            StepError::GaveUp { seconds, last } => t!(
                lang,
                "step-error-gave-up",
                seconds = seconds.to_string(),
                last = last
                    .as_ref()
                    .map_or_else(|| "-".to_string(), |l| l.say(lang))
            ),
            StepError::WatchEnded => t!(lang, "step-error-watch-ended"),
            StepError::NoCommit => t!(lang, "step-error-no-commit"),
            StepError::WouldLoseChanges { path: p } => {
                t!(lang, "step-error-would-lose-changes", path = path(p))
            }
            StepError::NeverSaw { app, commit } => t!(
                lang,
                "step-error-never-saw",
                app = app.as_str(),
                commit = commit.as_str()
            ),
            StepError::DidNotEnd { app, phase } => t!(
                lang,
                "step-error-did-not-end",
                app = app.as_str(),
                phase = phase.as_str()
            ),
            StepError::MomentPassed {
                app,
                revision,
                lesson,
            } => t!(
                lang,
                "step-error-moment-passed",
                app = app.as_str(),
                revision = crate::lab::short_commit(revision),
                lesson = lesson.to_string()
            ),
            StepError::NoLessonWrites(file) => {
                t!(lang, "step-error-no-lesson-writes", file = file.as_str())
            }
            StepError::NoKubectl => t!(lang, "step-error-no-kubectl"),
            StepError::CannotRunKubectl(why) => {
                t!(lang, "step-error-cannot-run-kubectl", why = why.as_str())
            }
            StepError::KubectlFailed(said) => {
                t!(lang, "step-error-kubectl-failed", said = said.as_str())
            }
            StepError::NoWorkingCopy {
                dir,
                lesson: Some(n),
            } => t!(
                lang,
                "step-error-no-working-copy-lesson",
                dir = path(dir),
                lesson = n.to_string()
            ),
            StepError::NoWorkingCopy { dir, lesson: None } => {
                t!(lang, "step-error-no-working-copy", dir = path(dir))
            }
            StepError::Uncommitted { dir, files, more } => t!(
                lang,
                "step-error-uncommitted",
                dir = path(dir),
                files = format!("{}{}", files.join(", "), if *more { ", …" } else { "" })
            ),
            StepError::Behind { dir, count } => t!(
                lang,
                "step-error-behind",
                dir = path(dir),
                count = count.to_string()
            ),
            StepError::Unpushed { dir, count } => t!(
                lang,
                "step-error-unpushed",
                dir = path(dir),
                count = count.to_string()
            ),
            StepError::ClusterAway { seconds, why } => t!(
                lang,
                "step-error-cluster-away",
                seconds = seconds.to_string(),
                why = why.say(lang)
            ),
            StepError::EvidenceFails {
                file,
                lesson,
                what,
                help,
                more,
            } => with_help(
                t!(
                    lang,
                    "step-error-evidence-fails",
                    file = file.as_str(),
                    what = what.say(lang),
                    more = u64::try_from(*more).unwrap_or(u64::MAX),
                    lesson = lesson.to_string()
                ),
                help.as_ref().map(|h| h.say(lang)).as_deref(),
            ),
            StepError::LessonFails {
                lesson,
                what,
                help,
                more,
            } => with_help(
                t!(
                    lang,
                    "step-error-lesson-fails",
                    what = what.say(lang),
                    more = u64::try_from(*more).unwrap_or(u64::MAX),
                    lesson = lesson.to_string()
                ),
                help.as_ref().map(|h| h.say(lang)).as_deref(),
            ),
        }
    }
}

crate::display_says!(StepError);

impl From<git::GitError> for StepError {
    fn from(e: git::GitError) -> StepError {
        StepError::Git(e)
    }
}

impl From<cluster::ClusterError> for StepError {
    fn from(e: cluster::ClusterError) -> StepError {
        StepError::Cluster(e)
    }
}

impl From<context::EvidenceError> for StepError {
    fn from(e: context::EvidenceError) -> StepError {
        StepError::Evidence(e)
    }
}

/// A failure's words, then the advice that fits it.
fn with_help(said: String, help: Option<&str>) -> String {
    match help {
        Some(help) => format!("{said} · {help}"),
        None => said,
    }
}
