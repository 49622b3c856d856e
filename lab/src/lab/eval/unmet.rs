//! Why a checklist condition does not hold, typed ([`Unmet`]) and said in the learner's words
//! with what to do — the one judgement the ticking checklist, the self-check and a plan's
//! prerequisites all use — and, when it holds, since when ([`DoneWhen::since`]).

use super::derived::{field_owner, writes_of};
use super::facts::Facts;
use crate::i18n::{Lang, Say};
use crate::lab::spec::{DoneWhen, FieldPath, ObjectKey};
use crate::t;

use subset::same;
pub use subset::{holds, not_held, shown};

fn short(rev: Option<&str>) -> String {
    rev.map_or_else(|| "-".into(), |r| crate::lab::short_commit(r).to_string())
}

/// An Application's state as a reason names it.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    pub app: String,
    pub sync: String,
    pub health: String,
    pub at: String,
    pub main: String,
}

/// Why an Application is not Synced and Healthy at main, as its status tells: each cause has the
/// one action that helps (waiting cannot fix a render error; a hard refresh cannot end a retry).
#[derive(Debug, Clone, PartialEq)]
pub enum Unsettled {
    /// Argo CD cannot render the source (a ComparisonError or InvalidSpecError): its message.
    CannotRender { message: String },
    /// An operation keeps retrying another commit, and main's waits behind it.
    RetryingOther { at: String, attempt: i64 },
    /// The sync of main fails with Argo CD's `message`; `retrying`: Argo CD retries it (the
    /// same commit, so it fails the same way).
    SyncFails { message: String, retrying: bool },
    /// A sync of main runs now.
    Syncing,
    /// Argo CD has not read main yet.
    NotCompared,
    /// Compared at main and OutOfSync, with nothing syncing it; `automated`: its syncPolicy
    /// would (and has not started yet).
    OutOfSync { automated: bool },
    /// Synced at main; its health is not Healthy yet.
    NotHealthy,
}

/// Why a condition does not hold.
#[derive(Debug, Clone, PartialEq)]
pub enum Unmet {
    NoBareRepo {
        repo: String,
    },
    NotCloned {
        repo: String,
    },
    NotPushed {
        repo: String,
        path: String,
    },
    PushedWithout {
        repo: String,
        path: String,
        contains: String,
    },
    /// The file is still on `main`, or no commit of `main` ever removed it.
    NotRemoved {
        repo: String,
        path: String,
    },
    GitSetsUnwanted {
        repo: String,
        file: String,
        path: String,
        have: String,
    },
    GitLacks {
        repo: String,
        file: String,
        path: String,
        want: String,
    },
    GitDiffers {
        repo: String,
        file: String,
        path: String,
        have: String,
        want: String,
    },
    /// The file sets the value the lab wants as text, but unquoted, so YAML reads a number or
    /// a boolean (`sync-wave: -1`): Kubernetes refuses it where it wants a string (annotations,
    /// labels, a ConfigMap's data), and Argo CD then cannot sync.
    GitNotText {
        repo: String,
        file: String,
        path: String,
        have: String,
    },
    /// The file Git holds on main does not parse as YAML: the parser's reason.
    GitNotYaml {
        repo: String,
        file: String,
        why: String,
    },
    NoApp {
        app: String,
    },
    AppSpecLacks {
        app: String,
        at: String,
        want: String,
        /// What the spec holds there instead, when it holds something like it.
        have: Option<String>,
    },
    /// Not Synced/Healthy at `main` yet (or an operation runs).
    NotSettled {
        state: AppState,
        why: Unsettled,
    },
    NotSucceeded {
        app: String,
        phase: String,
        at: String,
        main: String,
    },
    NotFailed {
        app: String,
        main: String,
        phase: String,
        at: String,
    },
    NotInCluster {
        object: String,
    },
    OwnedBy {
        object: String,
        path: String,
        owner: String,
        manager: String,
    },
    NoOwner {
        object: String,
        path: String,
    },
    FieldIs {
        object: String,
        path: String,
        have: String,
        want: String,
    },
    FieldMissing {
        object: String,
        path: String,
        want: String,
    },
    RunsOtherImage {
        object: String,
        images: String,
        image: String,
    },
    NotRolledOut {
        object: String,
        image: String,
        ready: i64,
        want: i64,
        updated: i64,
        total: i64,
    },
    NoEvidence {
        file: String,
    },
    EvidenceFails {
        file: String,
    },
    NotScaled {
        object: String,
    },
    /// It holds, and has to go on holding this many more seconds of cluster time.
    Holding {
        left: u64,
    },
    /// The cluster's clock is not known yet, so the time that passed cannot be told.
    NoClock,
    /// What the condition reads has not all come from the cluster yet (its Events).
    NotReadYet,
}

impl Unmet {
    /// Seconds still to pass when the condition holds and only time is missing.
    pub fn countdown(&self) -> Option<u64> {
        match self {
            Unmet::Holding { left } => Some(*left),
            _ => None,
        }
    }
}

impl Unmet {
    /// Argo CD's own words for why the condition does not hold, when it has them: its render
    /// error, or the message of main's failing sync.
    pub fn argo_cd_says(&self) -> Option<&str> {
        match self {
            Unmet::NotSettled {
                why: Unsettled::CannotRender { message } | Unsettled::SyncFails { message, .. },
                ..
            } => Some(message),
            _ => None,
        }
    }
}

/// A reason said whole (its fact, then what to do), or its fact alone.
#[derive(Clone, Copy)]
enum Part {
    Whole,
    Fact,
}

/// A reason's message whole, or its `.fact` attribute: the fact without the advice.
/// `[fact arguments], [advice arguments]` when the advice names more than the fact.
macro_rules! told {
    ($part:expr, $lang:expr, $id:literal, [$($fact:tt)*], [$($advice:tt)*]) => {
        match $part {
            Part::Whole => t!($lang, $id, $($fact)*, $($advice)*),
            Part::Fact => t!($lang, $id, "fact", $($fact)*),
        }
    };
    ($part:expr, $lang:expr, $id:literal $(, $($args:tt)*)?) => {
        match $part {
            Part::Whole => t!($lang, $id $(, $($args)*)?),
            Part::Fact => t!($lang, $id, "fact" $(, $($args)*)?),
        }
    };
}

impl Say for Unmet {
    fn say(&self, lang: Lang) -> String {
        Told {
            unmet: self,
            part: Part::Whole,
        }
        .say(lang)
    }
}

impl Unmet {
    /// What is not so, without what to do about it: for a message that gives its own advice
    /// (a lesson's prerequisite says to do that lesson first).
    pub fn fact(&self, lang: Lang) -> String {
        Told {
            unmet: self,
            part: Part::Fact,
        }
        .say(lang)
    }
}

/// A reason as it is told: whole, or its fact alone.
struct Told<'a> {
    unmet: &'a Unmet,
    part: Part,
}

impl Say for Told<'_> {
    // One arm per message: split, the messages would only be scattered.
    #[allow(clippy::too_many_lines)]
    fn say(&self, lang: Lang) -> String {
        let part = self.part;
        match self.unmet {
            Unmet::NoBareRepo { repo } => {
                told!(part, lang, "unmet-no-bare-repo", repo = repo.as_str())
            }
            Unmet::NotCloned { repo } => {
                told!(part, lang, "unmet-not-cloned", repo = repo.as_str())
            }
            Unmet::NotPushed { repo, path } => told!(
                part,
                lang,
                "unmet-not-pushed",
                repo = repo.as_str(),
                path = path.as_str()
            ),
            Unmet::NotRemoved { repo, path } => told!(
                part,
                lang,
                "unmet-not-removed",
                repo = repo.as_str(),
                path = path.as_str()
            ),
            Unmet::PushedWithout {
                repo,
                path,
                contains,
            } => told!(
                part,
                lang,
                "unmet-pushed-without",
                repo = repo.as_str(),
                path = path.as_str(),
                contains = contains.as_str()
            ),
            Unmet::GitSetsUnwanted {
                repo,
                file,
                path,
                have,
            } => t!(
                lang,
                "unmet-git-sets-unwanted",
                repo = repo.as_str(),
                file = file.as_str(),
                path = path.as_str(),
                have = have.as_str()
            ),
            Unmet::GitLacks {
                repo,
                file,
                path,
                want,
            } => t!(
                lang,
                "unmet-git-lacks",
                repo = repo.as_str(),
                file = file.as_str(),
                path = path.as_str(),
                want = want.as_str()
            ),
            Unmet::GitNotYaml { repo, file, why } => told!(
                part,
                lang,
                "unmet-git-not-yaml",
                repo = repo.as_str(),
                file = file.as_str(),
                why = why.as_str()
            ),
            Unmet::GitNotText {
                repo,
                file,
                path,
                have,
            } => told!(
                part,
                lang,
                "unmet-git-not-text",
                repo = repo.as_str(),
                file = file.as_str(),
                path = path.as_str(),
                have = have.as_str()
            ),
            Unmet::GitDiffers {
                repo,
                file,
                path,
                have,
                want,
            } => t!(
                lang,
                "unmet-git-differs",
                repo = repo.as_str(),
                file = file.as_str(),
                path = path.as_str(),
                have = have.as_str(),
                want = want.as_str()
            ),
            Unmet::NoApp { app } => told!(part, lang, "unmet-no-app", app = app.as_str()),
            Unmet::AppSpecLacks {
                app,
                at,
                want,
                have: None,
            } => told!(
                part,
                lang,
                "unmet-app-spec-lacks",
                app = app.as_str(),
                at = at.as_str(),
                want = want.as_str()
            ),
            Unmet::AppSpecLacks {
                app,
                at,
                want,
                have: Some(have),
            } => told!(
                part,
                lang,
                "unmet-app-spec-differs",
                app = app.as_str(),
                at = at.as_str(),
                want = want.as_str(),
                have = have.as_str()
            ),
            Unmet::NotSettled { state, why } => {
                let now = t!(
                    lang,
                    "unmet-app-state",
                    app = state.app.as_str(),
                    sync = state.sync.as_str(),
                    health = state.health.as_str(),
                    at = state.at.as_str(),
                    main = state.main.as_str()
                );
                let app = state.app.as_str();
                match why {
                    Unsettled::CannotRender { message } => told!(
                        part,
                        lang,
                        "unmet-cannot-render",
                        state = now,
                        message = message.as_str()
                    ),
                    Unsettled::RetryingOther { at, attempt } => told!(
                        part,
                        lang,
                        "unmet-retrying-other",
                        [state = now, at = at.as_str(), attempt = attempt],
                        [app = app]
                    ),
                    Unsettled::SyncFails {
                        message,
                        retrying: true,
                    } => told!(
                        part,
                        lang,
                        "unmet-sync-fails-retrying",
                        state = now,
                        message = message.as_str()
                    ),
                    Unsettled::SyncFails {
                        message,
                        retrying: false,
                    } => told!(
                        part,
                        lang,
                        "unmet-sync-failed",
                        state = now,
                        message = message.as_str()
                    ),
                    Unsettled::Syncing => told!(part, lang, "unmet-syncing", state = now),
                    Unsettled::NotCompared => {
                        told!(part, lang, "unmet-not-compared", [state = now], [app = app])
                    }
                    Unsettled::OutOfSync { automated: false } => {
                        told!(part, lang, "unmet-out-of-sync", state = now)
                    }
                    Unsettled::OutOfSync { automated: true } => {
                        told!(
                            part,
                            lang,
                            "unmet-out-of-sync-automated",
                            [state = now],
                            [app = app]
                        )
                    }
                    Unsettled::NotHealthy => told!(part, lang, "unmet-not-healthy", state = now),
                }
            }
            Unmet::NotSucceeded {
                app,
                phase,
                at,
                main,
            } => t!(
                lang,
                "unmet-not-succeeded",
                app = app.as_str(),
                phase = phase.as_str(),
                at = at.as_str(),
                main = main.as_str()
            ),
            Unmet::NotFailed {
                app,
                main,
                phase,
                at,
            } => t!(
                lang,
                "unmet-not-failed",
                app = app.as_str(),
                main = main.as_str(),
                phase = phase.as_str(),
                at = at.as_str()
            ),
            Unmet::NotInCluster { object } => {
                t!(lang, "unmet-not-in-cluster", object = object.as_str())
            }
            Unmet::OwnedBy {
                object,
                path,
                owner,
                manager,
            } => t!(
                lang,
                "unmet-owned-by",
                object = object.as_str(),
                path = path.as_str(),
                owner = owner.as_str(),
                manager = manager.as_str()
            ),
            Unmet::NoOwner { object, path } => t!(
                lang,
                "unmet-no-owner",
                object = object.as_str(),
                path = path.as_str()
            ),
            Unmet::FieldIs {
                object,
                path,
                have,
                want,
            } => t!(
                lang,
                "unmet-field-is",
                object = object.as_str(),
                path = path.as_str(),
                have = have.as_str(),
                want = want.as_str()
            ),
            Unmet::FieldMissing { object, path, want } => t!(
                lang,
                "unmet-field-missing",
                object = object.as_str(),
                path = path.as_str(),
                want = want.as_str()
            ),
            Unmet::RunsOtherImage {
                object,
                images,
                image,
            } => t!(
                lang,
                "unmet-runs-other-image",
                object = object.as_str(),
                images = images.as_str(),
                image = image.as_str()
            ),
            Unmet::NotRolledOut {
                object,
                image,
                ready,
                want,
                updated,
                total,
            } => told!(
                part,
                lang,
                "unmet-not-rolled-out",
                object = object.as_str(),
                image = image.as_str(),
                ready = ready.to_string(),
                want = want.to_string(),
                updated = updated.to_string(),
                total = total.to_string()
            ),
            Unmet::NoEvidence { file } => t!(lang, "unmet-no-evidence", file = file.as_str()),
            Unmet::EvidenceFails { file } => {
                t!(lang, "unmet-evidence-fails", file = file.as_str())
            }
            Unmet::NotScaled { object } => {
                told!(part, lang, "unmet-not-scaled", object = object.as_str())
            }
            Unmet::Holding { left } => t!(lang, "unmet-holding", seconds = left.to_string()),
            Unmet::NoClock => t!(lang, "unmet-no-clock"),
            Unmet::NotReadYet => t!(lang, "unmet-not-read-yet"),
        }
    }
}

crate::display_says!(Unmet);

mod judge;
mod subset;

#[cfg(test)]
mod said_tests;
#[cfg(test)]
mod tests;
