//! The tutor's keys, as data: what each key does and the words the help overlay and the footer
//! show, so neither can disagree with the keys. Presenter clickers send PgDn/PgUp/arrows/space;
//! in presenter step mode those run the next action, and the help and footer say so.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::i18n::Lang;
use crate::t;

#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumIter)]
pub enum Action {
    Quit,
    Help,
    Close,
    NextPane,
    PrevPane,
    Zoom,
    NextSection,
    PrevSection,
    NextLesson,
    PrevLesson,
    Run,
    Cancel,
    Check,
    Hint,
    Theme,
    /// The screen's language: the next one the tutor speaks.
    Language,
    Raw,
    NextApp,
    NextObject,
    Shell,
    LeaveShell,
    ScrollUp,
    ScrollDown,
    Step,
    ScrollTop,
    ScrollBottom,
    NextCommand,
    PrevCommand,
    TypeCommand,
    CopyCommand,
}

/// What the keys mean right now: presenter step mode turns the clicker's keys into "next action".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Normal,
    /// Step mode with `--present`: PgDn/→/space run the next action.
    PresentStep,
}

/// A key's place in the footer: the keys as shown there and a word or two.
pub struct Footer {
    pub keys: &'static str,
    pub words: fn(Lang) -> String,
}

pub struct Binding {
    pub keys: &'static [KeyCode],
    pub action: Action,
    /// The keys as the help lists them.
    pub label: &'static str,
    /// What the keys do, in the learner's language.
    pub help: fn(Lang) -> String,
    /// What they do instead in presenter step mode, when that differs.
    pub help_stepping: Option<fn(Lang) -> String>,
    /// Shown in the footer (in this list's order), when it is.
    pub footer: Option<Footer>,
}

impl Binding {
    /// What the keys do in `mode`.
    pub fn help_in(&self, lang: Lang, mode: Mode) -> String {
        match (mode, self.help_stepping) {
            (Mode::PresentStep, Some(stepping)) => stepping(lang),
            _ => (self.help)(lang),
        }
    }
}

const fn bind(
    keys: &'static [KeyCode],
    action: Action,
    label: &'static str,
    help: fn(Lang) -> String,
) -> Binding {
    Binding {
        keys,
        action,
        label,
        help,
        help_stepping: None,
        footer: None,
    }
}

const fn with_footer(b: Binding, keys: &'static str, words: fn(Lang) -> String) -> Binding {
    Binding {
        footer: Some(Footer { keys, words }),
        ..b
    }
}

/// Every key, in the order the help lists them and the footer shows those it shows.
pub const BINDINGS: &[Binding] = &[
    with_footer(
        bind(&[KeyCode::Char('?')], Action::Help, "?", |l| {
            t!(l, "key-help")
        }),
        "?",
        |l| t!(l, "footer-help"),
    ),
    Binding {
        help_stepping: Some(|l| t!(l, "key-next-section-stepping")),
        ..with_footer(
            bind(
                &[KeyCode::PageDown, KeyCode::Right, KeyCode::Char(' ')],
                Action::NextSection,
                "PgDn → space",
                |l| t!(l, "key-next-section"),
            ),
            "PgDn/PgUp",
            |l| t!(l, "footer-next-section"),
        )
    },
    bind(
        &[KeyCode::PageUp, KeyCode::Left],
        Action::PrevSection,
        "PgUp ←",
        |l| t!(l, "key-prev-section"),
    ),
    bind(&[KeyCode::Char('n')], Action::NextLesson, "n", |l| {
        t!(l, "key-next-lesson")
    }),
    bind(&[KeyCode::Char('p')], Action::PrevLesson, "p", |l| {
        t!(l, "key-prev-lesson")
    }),
    with_footer(
        bind(
            &[KeyCode::Char('s'), KeyCode::Enter],
            Action::Shell,
            "s Enter",
            |l| t!(l, "key-shell"),
        ),
        "s",
        |l| t!(l, "footer-shell"),
    ),
    with_footer(
        bind(&[KeyCode::Char(']')], Action::NextCommand, "]", |l| {
            t!(l, "key-next-command")
        }),
        "]/[",
        |l| t!(l, "footer-next-command"),
    ),
    bind(&[KeyCode::Char('[')], Action::PrevCommand, "[", |l| {
        t!(l, "key-prev-command")
    }),
    with_footer(
        bind(&[KeyCode::Char('y')], Action::TypeCommand, "y", |l| {
            t!(l, "key-type-command")
        }),
        "y",
        |l| t!(l, "footer-type-command"),
    ),
    bind(&[KeyCode::Char('Y')], Action::CopyCommand, "Y", |l| {
        t!(l, "key-copy-command")
    }),
    // Ctrl-] is read while typing into the shell (every other key goes to the shell).
    bind(&[], Action::LeaveShell, "Ctrl-]", |l| {
        t!(l, "key-leave-shell")
    }),
    with_footer(
        bind(&[KeyCode::Char('r')], Action::Run, "r", |l| {
            t!(l, "key-run")
        }),
        "r",
        |l| t!(l, "footer-run"),
    ),
    with_footer(
        bind(&[KeyCode::Char('g')], Action::Step, "g", |l| {
            t!(l, "key-step")
        }),
        "g",
        |l| t!(l, "footer-step"),
    ),
    with_footer(
        bind(&[KeyCode::Char('x')], Action::Cancel, "x", |l| {
            t!(l, "key-cancel")
        }),
        "x",
        |l| t!(l, "footer-cancel"),
    ),
    with_footer(
        bind(&[KeyCode::Char('c')], Action::Check, "c", |l| {
            t!(l, "key-check")
        }),
        "c",
        |l| t!(l, "footer-check"),
    ),
    with_footer(
        bind(&[KeyCode::Char('h')], Action::Hint, "h", |l| {
            t!(l, "key-hint")
        }),
        "h",
        |l| t!(l, "footer-hint"),
    ),
    with_footer(
        bind(&[KeyCode::Tab], Action::NextPane, "Tab", |l| {
            t!(l, "key-next-pane")
        }),
        "Tab",
        |l| t!(l, "footer-next-pane"),
    ),
    bind(&[KeyCode::BackTab], Action::PrevPane, "S-Tab", |l| {
        t!(l, "key-prev-pane")
    }),
    with_footer(
        bind(&[KeyCode::Char('z')], Action::Zoom, "z", |l| {
            t!(l, "key-zoom")
        }),
        "z",
        |l| t!(l, "footer-zoom"),
    ),
    bind(
        &[KeyCode::Up, KeyCode::Char('k')],
        Action::ScrollUp,
        "↑ k",
        |l| t!(l, "key-scroll-up"),
    ),
    bind(
        &[KeyCode::Down, KeyCode::Char('j')],
        Action::ScrollDown,
        "↓ j",
        |l| t!(l, "key-scroll-down"),
    ),
    bind(&[KeyCode::Home], Action::ScrollTop, "Home", |l| {
        t!(l, "key-scroll-top")
    }),
    bind(&[KeyCode::End], Action::ScrollBottom, "End", |l| {
        t!(l, "key-scroll-bottom")
    }),
    bind(&[KeyCode::Char('t')], Action::Theme, "t", |l| {
        t!(l, "key-theme")
    }),
    bind(&[KeyCode::Char('L')], Action::Language, "L", |l| {
        t!(l, "key-language")
    }),
    bind(&[KeyCode::Char('v')], Action::Raw, "v", |l| {
        t!(l, "key-raw")
    }),
    bind(&[KeyCode::Char('a')], Action::NextApp, "a", |l| {
        t!(l, "key-next-app")
    }),
    bind(&[KeyCode::Char('o')], Action::NextObject, "o", |l| {
        t!(l, "key-next-object")
    }),
    bind(&[KeyCode::Esc], Action::Close, "Esc", |l| {
        t!(l, "key-close")
    }),
    with_footer(
        bind(&[KeyCode::Char('q')], Action::Quit, "q", |l| {
            t!(l, "key-quit")
        }),
        "q",
        |l| t!(l, "footer-quit"),
    ),
];

/// The binding of an action.
pub fn binding(action: Action) -> Option<&'static Binding> {
    BINDINGS.iter().find(|b| b.action == action)
}

/// The action a key press means (key releases and repeats are ignored by the caller).
pub fn action_for(key: &KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    BINDINGS
        .iter()
        .find(|b| b.keys.contains(&key.code))
        .map(|b| b.action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presenter_clicker_keys_move_through_the_lesson() {
        for code in [KeyCode::PageDown, KeyCode::Right, KeyCode::Char(' ')] {
            assert_eq!(action_for(&KeyEvent::from(code)), Some(Action::NextSection));
        }
        assert_eq!(
            action_for(&KeyEvent::from(KeyCode::PageUp)),
            Some(Action::PrevSection)
        );
        assert_eq!(
            action_for(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
    }

    #[test]
    fn no_key_is_bound_twice_and_no_label_is_listed_twice() {
        let mut seen = Vec::new();
        let mut labels = Vec::new();
        for b in BINDINGS {
            for k in b.keys {
                assert!(!seen.contains(k), "{k:?} bound twice");
                seen.push(*k);
            }
            assert!(!labels.contains(&b.label), "{} listed twice", b.label);
            labels.push(b.label);
        }
    }

    #[test]
    fn every_action_has_a_binding_the_help_lists() {
        use strum::IntoEnumIterator;
        for a in Action::iter() {
            assert!(binding(a).is_some(), "{a:?} is in no binding");
        }
    }
}
