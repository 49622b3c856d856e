//! Mistakes a lesson lists, known by Argo CD's words (its render error, or the message of a sync
//! that fails), so the checklist can name the mistake beside them.

use serde::Deserialize;

use super::{LessonSpec, Localized};
use crate::i18n::Lang;

/// A mistake the lesson lists, as Argo CD reports it.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KnownMistake {
    /// Words of Argo CD's message (a render error, or a failing sync's message) that only this
    /// mistake makes.
    pub when: String,
    /// What the learner did and what to do instead, per language.
    pub say: Localized,
}

impl LessonSpec {
    /// The mistake this lesson lists that `unmet` shows, in `lang`: Argo CD's message holds a
    /// known mistake's words.
    pub fn known_mistake(&self, unmet: &crate::lab::eval::Unmet, lang: Lang) -> Option<&str> {
        let message = unmet.argo_cd_says()?;
        self.mistakes
            .iter()
            .find(|m| message.contains(&m.when))
            .map(|m| m.say.get(lang))
    }
}

#[cfg(test)]
mod tests {
    use crate::i18n::Lang;
    use crate::lab::eval::{AppState, Unmet, Unsettled};

    fn render_error(message: &str) -> Unmet {
        Unmet::NotSettled {
            state: AppState {
                app: "src-kust".into(),
                sync: "Unknown".into(),
                health: "Healthy".into(),
                at: "abc1234".into(),
                main: "abc1234".into(),
            },
            why: Unsettled::CannotRender {
                message: message.into(),
            },
        }
    }

    /// Argo CD's render error for a mistake the lesson lists names that mistake, in the
    /// learner's language; any other error, or a cause that is not a render error, names none.
    #[test]
    fn a_listed_mistake_is_known_by_argo_cds_words() {
        let catalog = crate::lab::catalog::Catalog::embedded().unwrap();
        let lesson = |n: usize| &catalog.lessons()[n - 1].spec;
        let base = render_error(
            "Error: accumulating resources: accumulation err='accumulating resources from 'base'",
        );
        let said = lesson(4).known_mistake(&base, Lang::FALLBACK).unwrap();
        assert!(said.contains("../../base"), "{said}");
        let zh = lesson(4)
            .known_mistake(&base, Lang::parse("zh").unwrap())
            .unwrap();
        assert!(zh.contains("../../base") && zh.contains("相对于"), "{zh}");
        let wave = render_error(
            "contains non-string value in the map under key \"argocd.argoproj.io/sync-wave\": -1 is of the type int64, expected string",
        );
        assert!(
            lesson(5)
                .known_mistake(&wave, Lang::FALLBACK)
                .unwrap()
                .contains("\"-1\"")
        );
        assert_eq!(lesson(4).known_mistake(&wave, Lang::FALLBACK), None);
        // The values file named from the repo root: the chart path twice in helm's error.
        let from_root = render_error(
            "Error: open <path to cached source>/charts/web/charts/web/values-prod.yaml: no such file or directory",
        );
        let said = lesson(1).known_mistake(&from_root, Lang::FALLBACK).unwrap();
        assert!(
            said.contains("write values-prod.yaml, not charts/web/values-prod.yaml"),
            "{said}"
        );
        // Known by a failing sync's words too, not only a render error's.
        let no_namespace = Unmet::NotSettled {
            state: AppState {
                app: "src-helm".into(),
                sync: "OutOfSync".into(),
                health: "Missing".into(),
                at: "abc1234".into(),
                main: "abc1234".into(),
            },
            why: Unsettled::SyncFails {
                message: "one or more synchronization tasks are not valid; Deployment/src-helm-web: namespaces \"src-helm\" not found".into(),
                retrying: true,
            },
        };
        let said = lesson(1)
            .known_mistake(&no_namespace, Lang::FALLBACK)
            .unwrap();
        assert!(said.contains("CreateNamespace=true"), "{said}");
        assert_eq!(
            lesson(4).known_mistake(&Unmet::NoClock, Lang::FALLBACK),
            None
        );
    }
}
