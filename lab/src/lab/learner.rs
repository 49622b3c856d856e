//! Many learners on one Argo CD: a learner's own names for the lab's Applications, their
//! namespaces and its bare repos (`alice-src-helm`, `alice-src.git`), derived in one place from
//! the names the lessons and templates use, so twenty learners can do the whole lab on one
//! cluster and each `check` grades only their own.
//!
//! The names are found in the lab's data (every Application a template defines or a lesson
//! names, their destination namespaces, the repos a plan makes), then each is renamed wherever
//! it stands as a name of its own: in `lesson.yaml`, the lesson texts and every template file
//! (`src-helm` and `src-helm-web` become `alice-src-helm` and `alice-src-helm-web`; a file name
//! such as `app-src-helm.yaml` is not a name of its own and stays).

use std::collections::BTreeSet;

use crate::i18n::{Lang, Say};
use crate::lab::catalog::read_yaml;
use crate::lab::spec::{LessonSpec, Step};
use crate::t;

/// A learner's name: a DNS label short enough that every name made from it is one too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learner(String);

/// The longest learner name: `<learner>-<name>` must stay a namespace name (63 characters).
const MOST: usize = 20;

/// Why a text is not a learner's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name:?} is not a learner name: lowercase letters, digits and '-', at most {MOST}")]
pub struct NotALearner {
    pub name: String,
}

impl Say for NotALearner {
    fn say(&self, lang: Lang) -> String {
        t!(
            lang,
            "learner-bad-name",
            name = self.name.as_str(),
            most = MOST
        )
    }
}

impl Learner {
    pub fn parse(name: &str) -> Result<Learner, NotALearner> {
        let ok = !name.is_empty()
            && name.len() <= MOST
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !name.starts_with('-')
            && !name.ends_with('-');
        match ok {
            true => Ok(Learner(name.to_string())),
            false => Err(NotALearner { name: name.into() }),
        }
    }

    pub fn name(&self) -> &str {
        &self.0
    }

    /// The learner's own name for one of the lab's.
    pub fn own(&self, name: &str) -> String {
        format!("{}-{name}", self.0)
    }
}

/// The lab's names a learner gets their own of.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LabNames {
    /// Applications and namespaces: renamed wherever they stand as a name.
    pub names: BTreeSet<String>,
    /// Bare repos: renamed as `<repo>.git`, as a lesson's `repo:`, `bare-repo:` or `cloned:`,
    /// and as `` `<repo>` ``.
    pub repos: BTreeSet<String>,
}

impl LabNames {
    /// The names in `lessons` and the `templates` files.
    pub fn of(lessons: &[&LessonSpec], templates: &[(String, String)]) -> LabNames {
        let mut out = LabNames::default();
        for (path, text) in templates {
            if !(path.ends_with(".yaml") || path.ends_with(".yml")) {
                continue;
            }
            for doc in text.split("\n---") {
                let Ok(doc) = read_yaml(doc) else { continue };
                if doc["kind"] != "Application" {
                    continue;
                }
                out.add_name(doc["metadata"]["name"].as_str());
                out.add_name(doc["spec"]["destination"]["namespace"].as_str());
            }
        }
        for spec in lessons {
            out.add_name(Some(&spec.app));
            for a in &spec.actions {
                out.add_name(a.step.app());
                match &a.step {
                    Step::CreateBareRepo { repo } | Step::Clone { repo } => {
                        out.repos.insert(repo.clone());
                    }
                    Step::Scale { namespace, .. } | Step::HoldAfterScale { namespace, .. } => {
                        out.add_name(Some(namespace));
                    }
                    _ => {}
                }
            }
            for app in spec.checklist.iter().flat_map(|i| i.done_when.apps()) {
                out.add_name(Some(app));
            }
            for o in spec.objects() {
                out.add_name(Some(&o.namespace));
                if o.is_app() {
                    out.add_name(Some(&o.name));
                }
            }
        }
        out
    }

    fn add_name(&mut self, name: Option<&str>) {
        // Argo CD's own namespace is everyone's.
        if let Some(n) = name.filter(|n| !n.is_empty() && *n != "argocd") {
            self.names.insert(n.to_string());
        }
    }

    /// `text` with each of the lab's names as `learner`'s own.
    pub fn rename(&self, text: &str, learner: &Learner) -> String {
        // Longest first, so `src-helm-web` is not taken for `src-helm` then `-web` twice.
        let mut names: Vec<(String, String)> = self
            .names
            .iter()
            .map(|n| (n.clone(), learner.own(n)))
            .collect();
        for repo in &self.repos {
            let own = learner.own(repo);
            names.push((format!("{repo}.git"), format!("{own}.git")));
            names.push((format!("`{repo}`"), format!("`{own}`")));
            // A lesson's `repo:`, and the conditions that name a repo alone.
            for key in ["repo", "bare-repo", "cloned"] {
                for quote in ["", "\"", "'"] {
                    names.push((
                        format!("{key}: {quote}{repo}{quote}"),
                        format!("{key}: {quote}{own}{quote}"),
                    ));
                }
            }
        }
        names.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        let part_of_a_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut out = String::with_capacity(text.len() + text.len() / 8);
        let mut at = 0;
        let mut prev: Option<char> = None;
        while at < text.len() {
            let here = &text[at..];
            let starts = !prev.is_some_and(|p| part_of_a_name(p) || p == '-');
            let found = starts
                .then(|| {
                    names.iter().find(|(from, _)| {
                        here.starts_with(from.as_str())
                            && !here[from.len()..]
                                .chars()
                                .next()
                                .is_some_and(part_of_a_name)
                    })
                })
                .flatten();
            match found {
                Some((from, to)) => {
                    out.push_str(to);
                    at += from.len();
                    prev = from.chars().next_back();
                }
                None => {
                    let c = here.chars().next().unwrap_or_default();
                    out.push(c);
                    at += c.len_utf8().max(1);
                    prev = Some(c);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> LabNames {
        LabNames {
            names: ["src-helm".into(), "src-kust".into()].into(),
            repos: ["src".into()].into(),
        }
    }

    #[test]
    fn a_lab_name_is_renamed_where_it_stands_as_a_name_and_nowhere_else() {
        let alice = Learner::parse("alice").unwrap();
        let said = |t: &str| names().rename(t, &alice);
        assert_eq!(
            said("app: src-helm\nfocus: src-helm/Deployment/src-helm-web"),
            "app: alice-src-helm\nfocus: alice-src-helm/Deployment/alice-src-helm-web"
        );
        assert_eq!(
            said("argocd/Application/src-kust · `src-helm`"),
            "argocd/Application/alice-src-kust · `alice-src-helm`"
        );
        // A file name, a longer word and Argo CD's own namespace stay.
        assert_eq!(said("file: app-src-helm.yaml"), "file: app-src-helm.yaml");
        assert_eq!(said("src-helmet my-src-helm"), "src-helmet my-src-helm");
        // The repo: as a bare repo's file, a lesson's repo: and quoted in a text.
        assert_eq!(
            said("{do: clone, repo: src} git://gitd:9418/src.git the `src` repo; capa-src, src/"),
            "{do: clone, repo: alice-src} git://gitd:9418/alice-src.git the `alice-src` repo; capa-src, src/"
        );
        assert_eq!(
            said(
                "{do: create-bare-repo, repo: src, done_when: {bare-repo: src}} {cloned: \"src\"}"
            ),
            "{do: create-bare-repo, repo: alice-src, done_when: {bare-repo: alice-src}} {cloned: \"alice-src\"}"
        );
        assert_eq!(said("中文 src-helm 한국어"), "中文 alice-src-helm 한국어");
    }

    #[test]
    fn a_learner_name_is_a_short_dns_label() {
        for ok in ["alice", "b0b", "team-7"] {
            assert!(Learner::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "Alice",
            "al ice",
            "-a",
            "a-",
            "x".repeat(21).as_str(),
            "a_b",
        ] {
            assert!(Learner::parse(bad).is_err(), "{bad}");
        }
    }
}
