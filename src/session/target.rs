//! The cluster a session works on, as the learner reads it (the header, `status`, the plans'
//! confirmation): the embedded lab cluster, served here or by another process, or a kubeconfig
//! context.

use std::path::PathBuf;

use super::serving;
use crate::i18n::{Lang, Say};
use crate::t;

/// The cluster a session works on, as the learner reads it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Target {
    Embedded {
        url: String,
        state: PathBuf,
        /// The process serving it, when it is not this one.
        served_by: Option<u32>,
    },
    Context {
        context: Option<String>,
        kubeconfig: Option<PathBuf>,
    },
}

impl Say for Target {
    fn say(&self, lang: Lang) -> String {
        match self {
            Target::Embedded {
                url,
                state,
                served_by: None,
            } => t!(
                lang,
                "target-embedded",
                url = url.as_str(),
                state = state.display().to_string()
            ),
            Target::Embedded {
                url,
                state,
                served_by: Some(pid),
            } => t!(
                lang,
                "target-embedded-attached",
                url = url.as_str(),
                state = state.display().to_string(),
                pid = pid.to_string()
            ),
            Target::Context {
                context,
                kubeconfig,
            } => t!(
                lang,
                "target-context",
                context = context
                    .clone()
                    .unwrap_or_else(|| t!(lang, "target-current")),
                kubeconfig = kubeconfig.as_ref().map_or_else(
                    || "$KUBECONFIG ~/.kube/config".to_string(),
                    |p| p.display().to_string()
                )
            ),
        }
    }
}

crate::display_says!(Target);

impl Target {
    /// What the cluster is, longest first: the whole of `say`, then shorter forms for a line
    /// with no room for it (a cut in the middle of a path reads as noise).
    pub fn forms(&self, lang: Lang) -> Vec<String> {
        let shorter = match self {
            Target::Embedded { url, .. } => vec![
                t!(lang, "target-embedded-short", url = url.as_str()),
                t!(lang, "target-embedded-shortest"),
            ],
            Target::Context { context, .. } => vec![t!(
                lang,
                "target-context-short",
                context = context
                    .clone()
                    .unwrap_or_else(|| t!(lang, "target-current"))
            )],
        };
        std::iter::once(self.say(lang)).chain(shorter).collect()
    }
}

impl Target {
    /// The same lab as it serves now: an embedded cluster another process serves may have been
    /// restarted by a new process, at a new address (the kubeconfig it rewrites says where;
    /// `serving.json` says who). `None` when nothing changed or nothing says.
    pub fn as_served_now(&self) -> Option<Target> {
        let Target::Embedded {
            state,
            served_by: Some(_),
            ..
        } = self
        else {
            return None;
        };
        let now = serving::live(state)?;
        // This process, having taken the lab over from the one that served it, serves it itself.
        let served_by = (now.pid != std::process::id()).then_some(now.pid);
        let target = Target::Embedded {
            url: now.url,
            state: state.clone(),
            served_by,
        };
        (target != *self).then_some(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Attached to a lab another process serves; that process is replaced by a new one (a
    /// restart, at a new address): the target names the one serving now, and says nothing when
    /// it is the same.
    #[test]
    fn an_attached_target_follows_the_process_serving_now() {
        let dir = tempfile::tempdir().unwrap();
        let was = Target::Embedded {
            url: "https://127.0.0.1:1111".into(),
            state: dir.path().to_path_buf(),
            served_by: Some(1),
        };
        // Nobody serves: nothing to follow.
        assert_eq!(was.as_served_now(), None);
        let serving::Claim::Owner { owner, .. } = serving::claim(dir.path()).unwrap() else {
            panic!("a new state dir is free")
        };
        owner
            .publish(&serving::Serving {
                pid: 2,
                url: "https://127.0.0.1:2222".into(),
                kubeconfig: dir.path().join("kubeconfig"),
                speed: None,
            })
            .unwrap();
        let now = was.as_served_now().unwrap();
        assert_eq!(
            now,
            Target::Embedded {
                url: "https://127.0.0.1:2222".into(),
                state: dir.path().to_path_buf(),
                served_by: Some(2),
            }
        );
        assert_eq!(now.as_served_now(), None);
        assert!(now.say(Lang::FALLBACK).contains("process 2"));
        // A lab this process serves, or a kubeconfig's context, has nobody else to follow.
        let here = Target::Embedded {
            url: "https://127.0.0.1:1111".into(),
            state: dir.path().to_path_buf(),
            served_by: None,
        };
        assert_eq!(here.as_served_now(), None);
    }
}
