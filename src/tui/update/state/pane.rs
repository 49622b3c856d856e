//! The panes: their Tab order and the live pane a lesson names (each live pane's titles, view,
//! summary and streams are in `tui::view::live`).

use strum::{EnumCount, EnumIter, FromRepr};

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
