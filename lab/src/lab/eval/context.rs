//! What reading evidence needs (the client, the lessons and the learner's folders)
//! and what can go wrong on the way, typed: shared by the capture, the derived values and the
//! self-check, which import it rather than each other.

use std::path::{Path, PathBuf};

use crate::cluster;
use crate::i18n::{Lang, Say};
use crate::lab::catalog::Catalog;
use crate::lab::spec::{LessonId, Localized};
use crate::t;

/// Why evidence could not be read or written, typed; said in the learner's language by [`Say`].
#[derive(Debug, thiserror::Error)]
pub enum EvidenceError {
    Cluster(#[source] cluster::ClusterError),
    /// A value is not in the cluster yet; `hint` says what to do (the lesson's words, when it
    /// gives some).
    NotYet {
        what: Missing,
        hint: Option<Localized>,
    },
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// No lesson of this lab writes the file.
    NotOurs(String),
    /// The file's path leads out of the source dir (through `..` or a symbolic link).
    Outside(crate::lab::paths::LeavesSourceDir),
    /// An earlier evidence file this one builds on is missing, not JSON, or lacks a field.
    Earlier {
        file: String,
        problem: EarlierProblem,
        /// The lesson that writes it.
        lesson: Option<LessonId>,
    },
    /// No Helm layer sets the key.
    NoLayer(String),
    /// The winning Helm layer disagrees with what an earlier evidence file recorded.
    LayerDisagrees {
        key: String,
        layer: String,
        value: String,
        recorded: String,
    },
}

/// What is not in the cluster yet.
#[derive(Debug, Clone, PartialEq)]
pub enum Missing {
    Field {
        path: String,
        object: String,
    },
    Owner {
        path: String,
        object: String,
    },
    Scale {
        deployment: String,
    },
    /// No commit of `main` made that change to the file yet.
    Commit {
        file: String,
        change: crate::lab::spec::Change,
    },
}

/// What is wrong with an earlier evidence file.
#[derive(Debug, Clone, PartialEq)]
pub enum EarlierProblem {
    Missing,
    NotJson(String),
    Lacks(String),
}

impl From<cluster::ClusterError> for EvidenceError {
    fn from(e: cluster::ClusterError) -> EvidenceError {
        EvidenceError::Cluster(e)
    }
}

impl Say for Missing {
    fn say(&self, lang: Lang) -> String {
        use crate::lab::spec::Change;
        match self {
            Missing::Field { path, object } => t!(
                lang,
                "evidence-missing-field",
                path = path.as_str(),
                object = object.as_str()
            ),
            Missing::Owner { path, object } => t!(
                lang,
                "evidence-missing-owner",
                path = path.as_str(),
                object = object.as_str()
            ),
            Missing::Commit {
                file,
                change: Change::Added,
            } => t!(lang, "evidence-missing-added", file = file.as_str()),
            Missing::Commit {
                file,
                change: Change::Removed,
            } => t!(lang, "evidence-missing-removed", file = file.as_str()),
            Missing::Scale { deployment } => t!(
                lang,
                "evidence-missing-scale",
                deployment = deployment.as_str()
            ),
        }
    }
}

impl Say for EvidenceError {
    fn say(&self, lang: Lang) -> String {
        match self {
            EvidenceError::Cluster(e) => e.say(lang),
            EvidenceError::NotYet { what, hint } => {
                let what = what.say(lang);
                let hint = hint.as_ref().map_or_else(
                    || t!(lang, "evidence-look-again"),
                    |h| h.get(lang).to_string(),
                );
                t!(lang, "evidence-not-yet", what = what, hint = hint)
            }
            EvidenceError::Write { path, source } => t!(
                lang,
                "evidence-cannot-write",
                path = path.display().to_string(),
                why = source.to_string()
            ),
            EvidenceError::NotOurs(file) => t!(lang, "check-not-evidence", file = file.as_str()),
            EvidenceError::Outside(out) => t!(
                lang,
                "evidence-outside",
                file = out.file.as_str(),
                dir = out.dir.display().to_string()
            ),
            EvidenceError::Earlier {
                file,
                problem,
                lesson,
            } => {
                let redo = match lesson {
                    Some(n) => t!(
                        lang,
                        "evidence-redo-lesson",
                        lesson = n.to_string(),
                        file = file.as_str()
                    ),
                    None => t!(lang, "evidence-redo-file", file = file.as_str()),
                };
                match problem {
                    EarlierProblem::Missing => t!(
                        lang,
                        "evidence-earlier-missing",
                        file = file.as_str(),
                        redo = redo
                    ),
                    EarlierProblem::NotJson(why) => t!(
                        lang,
                        "evidence-earlier-not-json",
                        file = file.as_str(),
                        why = why.as_str(),
                        redo = redo
                    ),
                    EarlierProblem::Lacks(field) => t!(
                        lang,
                        "evidence-earlier-lacks",
                        file = file.as_str(),
                        field = field.as_str(),
                        redo = redo
                    ),
                }
            }
            EvidenceError::NoLayer(key) => t!(lang, "evidence-no-layer", key = key.as_str()),
            EvidenceError::LayerDisagrees {
                key,
                layer,
                value,
                recorded,
            } => t!(
                lang,
                "evidence-layer-disagrees",
                key = key.as_str(),
                layer = layer.as_str(),
                value = value.as_str(),
                recorded = recorded.as_str()
            ),
        }
    }
}

crate::display_says!(EvidenceError);

pub type Result<T> = std::result::Result<T, EvidenceError>;

/// What a capture may need beyond the cluster.
pub struct Context<'a> {
    pub client: &'a kube::Client,
    /// The lessons: which one writes an evidence file another reads.
    pub catalog: &'a Catalog,
    pub src_dir: &'a Path,
    /// Where the bare repos are (`<bare_dir>/src.git`): what was pushed.
    pub bare_dir: &'a Path,
    /// The cluster's clock when it runs faster than the wall's (`--speed`): a file's time is
    /// said on it before it is compared with the cluster's.
    pub clock: Option<&'a crate::cluster::clock::FastClock>,
}
