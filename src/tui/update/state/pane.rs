//! The panes: their Tab order, their titles, and the live pane a lesson names.

use strum::{EnumCount, EnumIter, FromRepr};

use crate::i18n::Lang;
use crate::t;

/// How far a drawn pane can scroll, and how many of its lines one screen shows (a page).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reach {
    pub max: u16,
    pub page: u16,
}

/// The panes, in the order Tab visits them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, EnumIter, EnumCount, FromRepr)]
pub enum Pane {
    Lesson,
    Shell,
    Apps,
    Timeline,
    Fields,
    Values,
    Evidence,
}

impl Pane {
    /// The pane's name in a strip of every pane.
    pub fn short_title(self, lang: Lang) -> String {
        match self {
            Pane::Lesson => t!(lang, "pane-lesson-short"),
            Pane::Shell => t!(lang, "pane-shell-short"),
            Pane::Apps => t!(lang, "pane-apps-short"),
            Pane::Timeline => t!(lang, "pane-timeline-short"),
            Pane::Fields => t!(lang, "pane-fields-short"),
            Pane::Values => t!(lang, "pane-values-short"),
            Pane::Evidence => t!(lang, "pane-evidence-short"),
        }
    }

    /// The pane's title on its border.
    pub fn title(self, lang: Lang) -> String {
        match self {
            Pane::Lesson => t!(lang, "pane-lesson"),
            Pane::Shell => t!(lang, "pane-shell"),
            Pane::Apps => t!(lang, "pane-apps"),
            Pane::Timeline => t!(lang, "pane-timeline"),
            Pane::Fields => t!(lang, "pane-fields"),
            Pane::Values => t!(lang, "pane-values"),
            Pane::Evidence => t!(lang, "pane-evidence"),
        }
    }

    /// The live pane a lesson names.
    pub fn named(name: crate::lab::spec::PaneName) -> Pane {
        use crate::lab::spec::PaneName;
        match name {
            PaneName::Apps => Pane::Apps,
            PaneName::Timeline => Pane::Timeline,
            PaneName::Fields => Pane::Fields,
            PaneName::Values => Pane::Values,
            PaneName::Evidence => Pane::Evidence,
        }
    }

    /// The pane Tab (`forward`) or Shift-Tab goes to from this one.
    pub fn cycle(self, forward: bool) -> Pane {
        let n = Pane::COUNT;
        let i = self as usize;
        Pane::from_repr(if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        })
        .unwrap_or(self)
    }
}
