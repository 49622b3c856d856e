//! The tutor's keys, as data: what each key does and the words the help overlay shows, so the
//! help can never disagree with the keys. Presenter clickers send PgDn/PgUp/arrows/space.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    Raw,
    NextApp,
    NextObject,
}

pub struct Binding {
    pub keys: &'static [KeyCode],
    pub action: Action,
    pub label: &'static str,
    pub help: &'static str,
}

pub const BINDINGS: &[Binding] = &[
    Binding {
        keys: &[KeyCode::Char('q')],
        action: Action::Quit,
        label: "q",
        help: "quit",
    },
    Binding {
        keys: &[KeyCode::Char('?')],
        action: Action::Help,
        label: "?",
        help: "help",
    },
    Binding {
        keys: &[KeyCode::Esc],
        action: Action::Close,
        label: "Esc",
        help: "close help / raw view",
    },
    Binding {
        keys: &[KeyCode::Tab],
        action: Action::NextPane,
        label: "Tab",
        help: "next pane",
    },
    Binding {
        keys: &[KeyCode::BackTab],
        action: Action::PrevPane,
        label: "S-Tab",
        help: "previous pane",
    },
    Binding {
        keys: &[KeyCode::Char('z')],
        action: Action::Zoom,
        label: "z",
        help: "zoom the focused pane",
    },
    Binding {
        keys: &[KeyCode::PageDown, KeyCode::Right, KeyCode::Char(' ')],
        action: Action::NextSection,
        label: "PgDn → space",
        help: "next part of the lesson",
    },
    Binding {
        keys: &[KeyCode::PageUp, KeyCode::Left],
        action: Action::PrevSection,
        label: "PgUp ←",
        help: "previous part of the lesson",
    },
    Binding {
        keys: &[KeyCode::Char('n')],
        action: Action::NextLesson,
        label: "n",
        help: "next lesson",
    },
    Binding {
        keys: &[KeyCode::Char('p')],
        action: Action::PrevLesson,
        label: "p",
        help: "previous lesson",
    },
    Binding {
        keys: &[KeyCode::Char('r')],
        action: Action::Run,
        label: "r",
        help: "do it for me (run the lesson's plan)",
    },
    Binding {
        keys: &[KeyCode::Char('x')],
        action: Action::Cancel,
        label: "x",
        help: "cancel the running plan",
    },
    Binding {
        keys: &[KeyCode::Char('c')],
        action: Action::Check,
        label: "c",
        help: "self-check this lesson's evidence",
    },
    Binding {
        keys: &[KeyCode::Char('h')],
        action: Action::Hint,
        label: "h",
        help: "one more hint",
    },
    Binding {
        keys: &[KeyCode::Char('t')],
        action: Action::Theme,
        label: "t",
        help: "theme: default / projector / monochrome",
    },
    Binding {
        keys: &[KeyCode::Char('v')],
        action: Action::Raw,
        label: "v",
        help: "raw managedFields",
    },
    Binding {
        keys: &[KeyCode::Char('a')],
        action: Action::NextApp,
        label: "a",
        help: "timeline: next Application",
    },
    Binding {
        keys: &[KeyCode::Char('o')],
        action: Action::NextObject,
        label: "o",
        help: "managedFields: next object",
    },
];

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
    fn no_key_is_bound_twice() {
        let mut seen = Vec::new();
        for b in BINDINGS {
            for k in b.keys {
                assert!(!seen.contains(k), "{k:?} bound twice");
                seen.push(*k);
            }
        }
    }
}
