//! A session's errors in the learner's words: what went wrong and what to do, in their
//! language (the embedded cluster's own messages are English).

use super::SessionError;
use crate::i18n::{Lang, Say};
use crate::t;

impl Say for SessionError {
    fn say(&self, lang: Lang) -> String {
        match self {
            SessionError::Sim(e) => sim_words(e, lang),
            SessionError::Cluster(e) => e.say(lang),
            SessionError::MoveAside { from, to, source } => t!(
                lang,
                "session-move-aside",
                from = from.display().to_string(),
                to = to.display().to_string(),
                why = source.to_string()
            ),
            SessionError::StateDir { path, source } => t!(
                lang,
                "session-state-dir",
                path = path.display().to_string(),
                why = source.to_string()
            ),
            SessionError::Served { pid, url } => t!(
                lang,
                "session-served",
                pid = pid.map_or_else(|| "?".into(), |p| p.to_string()),
                url = url.clone().unwrap_or_else(|| "?".into())
            ),
            SessionError::NotSaying { state } => t!(
                lang,
                "session-not-saying",
                state = state.display().to_string()
            ),
            SessionError::InUse { state } => t!(
                lang,
                "session-fresh-in-use",
                state = state.display().to_string()
            ),
            SessionError::TutorFolder(u) => unsafe_folder_words(u, Whose::Tutor, lang),
        }
    }
}

/// The embedded cluster's own errors, in the learner's words where they ask the learner to act.
fn sim_words(e: &capa_sim::SimError, lang: Lang) -> String {
    use capa_sim::SimError;
    if let Some(u) = e.unsafe_folder() {
        return unsafe_folder_words(u, Whose::Cluster, lang);
    }
    match e {
        SimError::NotLoopback(addr) => t!(lang, "sim-not-loopback", addr = addr.to_string()),
        SimError::Listen { addr, source } => t!(
            lang,
            "sim-cannot-listen",
            addr = addr.to_string(),
            why = source.to_string()
        ),
        SimError::BadSpeed(speed) => t!(lang, "sim-bad-speed", speed = speed.to_string()),
        SimError::BareDir { path, source } => t!(
            lang,
            "sim-bare-dir",
            path = path.display().to_string(),
            why = source.to_string()
        ),
        SimError::Kubeconfig { path, source } => t!(
            lang,
            "sim-kubeconfig",
            path = path.display().to_string(),
            why = source.to_string()
        ),
        // The store, TLS and git daemon fail in their own words (a damaged store says how).
        other => other.to_string(),
    }
}

/// Whose files an unsafe folder would hold: what another user could then change differs.
#[derive(Clone, Copy)]
enum Whose {
    /// The embedded cluster's (its store, Secrets, token, kubeconfig).
    Cluster,
    /// The tutor's own (progress, the lab shell's start-up file).
    Tutor,
}

/// A folder refused for the cluster's or the tutor's files, and what to do, in the learner's
/// words (the cluster's own message is English).
fn unsafe_folder_words(u: &capa_sim::UnsafeFolder, whose: Whose, lang: Lang) -> String {
    use capa_sim::UnsafeFolder;
    match (u, whose) {
        (UnsafeFolder::NotYours { path, owner }, Whose::Cluster) => t!(
            lang,
            "sim-folder-not-yours",
            path = path.display().to_string(),
            owner = owner.to_string()
        ),
        (UnsafeFolder::NotYours { path, owner }, Whose::Tutor) => t!(
            lang,
            "tutor-folder-not-yours",
            path = path.display().to_string(),
            owner = owner.to_string()
        ),
        (UnsafeFolder::OthersMayWrite { path, mode }, Whose::Cluster) => t!(
            lang,
            "sim-folder-others-write",
            path = path.display().to_string(),
            mode = format!("{mode:o}")
        ),
        (UnsafeFolder::OthersMayWrite { path, mode }, Whose::Tutor) => t!(
            lang,
            "tutor-folder-others-write",
            path = path.display().to_string(),
            mode = format!("{mode:o}")
        ),
        (UnsafeFolder::Unreadable { path, source }, _) => t!(
            lang,
            "sim-folder-unreadable",
            path = path.display().to_string(),
            why = source.to_string()
        ),
    }
}
