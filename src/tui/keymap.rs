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

pub struct Binding {
    pub keys: &'static [KeyCode],
    pub action: Action,
    pub label: &'static str,
    pub help: &'static str,
    /// The same, in Chinese.
    pub help_zh: &'static str,
}

pub const BINDINGS: &[Binding] = &[
    Binding {
        keys: &[KeyCode::Char('s'), KeyCode::Enter],
        action: Action::Shell,
        label: "s Enter",
        help: "shell: type the lab's commands here (starts one with the lab's environment)",
        help_zh: "终端：在这里输入实验命令（以实验环境启动）",
    },
    Binding {
        keys: &[KeyCode::Char(']')],
        action: Action::NextCommand,
        label: "] [",
        help: "select the next / previous command of the lesson",
        help_zh: "选择课程中的下一条 / 上一条命令",
    },
    Binding {
        keys: &[KeyCode::Char('[')],
        action: Action::PrevCommand,
        label: "[",
        help: "select the previous command",
        help_zh: "选择上一条命令",
    },
    Binding {
        keys: &[KeyCode::Char('y')],
        action: Action::TypeCommand,
        label: "y",
        help: "type the selected command into the shell (you press Enter)",
        help_zh: "把选中的命令输入终端（由你按回车）",
    },
    Binding {
        keys: &[KeyCode::Char('Y')],
        action: Action::CopyCommand,
        label: "Y",
        help: "copy the selected command to the clipboard (OSC 52)",
        help_zh: "把选中的命令复制到剪贴板（OSC 52）",
    },
    Binding {
        // Ctrl-] is read while typing into the shell (every other key goes to the shell).
        keys: &[],
        action: Action::LeaveShell,
        label: "Ctrl-]",
        help: "leave the shell: keys go to the tutor again",
        help_zh: "离开终端：按键重新交给导师",
    },
    Binding {
        keys: &[KeyCode::Up, KeyCode::Char('k')],
        action: Action::ScrollUp,
        label: "↑ k",
        help: "scroll the focused pane up (the shell: back through its output)",
        help_zh: "向上滚动当前窗格（终端：回看输出）",
    },
    Binding {
        keys: &[KeyCode::Down, KeyCode::Char('j')],
        action: Action::ScrollDown,
        label: "↓ j",
        help: "scroll the focused pane down",
        help_zh: "向下滚动当前窗格",
    },
    Binding {
        keys: &[KeyCode::Home],
        action: Action::ScrollTop,
        label: "Home",
        help: "to the top of the focused pane",
        help_zh: "到当前窗格顶部",
    },
    Binding {
        keys: &[KeyCode::End],
        action: Action::ScrollBottom,
        label: "End",
        help: "to the bottom of the focused pane",
        help_zh: "到当前窗格底部",
    },
    Binding {
        keys: &[KeyCode::Char('q')],
        action: Action::Quit,
        label: "q",
        help: "quit",
        help_zh: "退出",
    },
    Binding {
        keys: &[KeyCode::Char('?')],
        action: Action::Help,
        label: "?",
        help: "help",
        help_zh: "帮助",
    },
    Binding {
        keys: &[KeyCode::Esc],
        action: Action::Close,
        label: "Esc",
        help: "close help / raw view",
        help_zh: "关闭帮助 / 原始视图",
    },
    Binding {
        keys: &[KeyCode::Tab],
        action: Action::NextPane,
        label: "Tab",
        help: "next pane",
        help_zh: "下一个窗格",
    },
    Binding {
        keys: &[KeyCode::BackTab],
        action: Action::PrevPane,
        label: "S-Tab",
        help: "previous pane",
        help_zh: "上一个窗格",
    },
    Binding {
        keys: &[KeyCode::Char('z')],
        action: Action::Zoom,
        label: "z",
        help: "zoom the focused pane",
        help_zh: "放大当前窗格",
    },
    Binding {
        keys: &[KeyCode::PageDown, KeyCode::Right, KeyCode::Char(' ')],
        action: Action::NextSection,
        label: "PgDn → space",
        help: "next part of the lesson",
        help_zh: "课程下一部分",
    },
    Binding {
        keys: &[KeyCode::PageUp, KeyCode::Left],
        action: Action::PrevSection,
        label: "PgUp ←",
        help: "previous part of the lesson",
        help_zh: "课程上一部分",
    },
    Binding {
        keys: &[KeyCode::Char('n')],
        action: Action::NextLesson,
        label: "n",
        help: "next lesson",
        help_zh: "下一课",
    },
    Binding {
        keys: &[KeyCode::Char('p')],
        action: Action::PrevLesson,
        label: "p",
        help: "previous lesson",
        help_zh: "上一课",
    },
    Binding {
        keys: &[KeyCode::Char('r')],
        action: Action::Run,
        label: "r",
        help: "do it for me (run the lesson's plan)",
        help_zh: "替我做（执行本课计划）",
    },
    Binding {
        keys: &[KeyCode::Char('g')],
        action: Action::Step,
        label: "g",
        help: "step mode: show the next action of the lesson's plan, then run it",
        help_zh: "分步模式：先展示本课计划的下一步，再执行",
    },
    Binding {
        keys: &[KeyCode::Char('x')],
        action: Action::Cancel,
        label: "x",
        help: "cancel the running plan",
        help_zh: "取消正在执行的计划",
    },
    Binding {
        keys: &[KeyCode::Char('c')],
        action: Action::Check,
        label: "c",
        help: "self-check this lesson's evidence",
        help_zh: "自检本课的证据文件",
    },
    Binding {
        keys: &[KeyCode::Char('h')],
        action: Action::Hint,
        label: "h",
        help: "one more hint",
        help_zh: "再给一个提示",
    },
    Binding {
        keys: &[KeyCode::Char('t')],
        action: Action::Theme,
        label: "t",
        help: "theme: default / projector / monochrome",
        help_zh: "主题：默认 / 投影 / 单色",
    },
    Binding {
        keys: &[KeyCode::Char('v')],
        action: Action::Raw,
        label: "v",
        help: "raw managedFields",
        help_zh: "原始 managedFields",
    },
    Binding {
        keys: &[KeyCode::Char('a')],
        action: Action::NextApp,
        label: "a",
        help: "timeline: next Application",
        help_zh: "时间线：下一个 Application",
    },
    Binding {
        keys: &[KeyCode::Char('o')],
        action: Action::NextObject,
        label: "o",
        help: "managedFields: next object",
        help_zh: "managedFields：下一个对象",
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
