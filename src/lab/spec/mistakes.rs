//! Mistakes a lesson lists, known by the words of Argo CD's render error, so the checklist can
//! name the mistake beside the error.

use serde::Deserialize;

use super::{LessonSpec, Localized};
use crate::i18n::Lang;

/// A mistake the lesson lists, as Argo CD reports it.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KnownMistake {
    /// Words of Argo CD's message (a render error) that only this mistake makes.
    pub when: String,
    /// What the learner did and what to do instead, per language.
    pub say: Localized,
}

impl LessonSpec {
    /// The mistake this lesson lists that `unmet` shows, in `lang`: a render error whose
    /// message holds a known mistake's words.
    pub fn known_mistake(&self, unmet: &crate::lab::eval::Unmet, lang: Lang) -> Option<&str> {
        let message = unmet.render_error()?;
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
        assert_eq!(
            lesson(4).known_mistake(&Unmet::NoClock, Lang::FALLBACK),
            None
        );
    }
}
