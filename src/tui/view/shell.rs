//! The shell pane: the shell's own screen, colours and all, drawn from the vt100 screen `update`
//! keeps; or, when no shell runs, what starts one and what it will get.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use tui_term::widget::{Cursor, PseudoTerminal};

use crate::lab::catalog::Lang;
use crate::tui::state::{ShellStatus, State};

pub struct ShellPane<'a>(pub &'a State);

impl Widget for &ShellPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let s = self.0;
        let shell = &s.shell;
        let note = |text: String| {
            Paragraph::new(text)
                .style(s.theme.warn())
                .wrap(Wrap { trim: true })
        };
        match &shell.status {
            ShellStatus::NotStarted => {
                let zh = s.lang == Lang::Zh;
                let lines = vec![
                    Line::from(Span::styled(
                        if zh {
                            "按 s（或在此按回车）打开实验用的终端。"
                        } else {
                            "Press s (or Enter here) to open a shell for the lab."
                        },
                        s.theme.title(),
                    )),
                    Line::raw(shell.about.clone()),
                    Line::raw(if zh {
                        "之后每个按键都交给终端；Ctrl-] 把按键交回导师。"
                    } else {
                        "Every key then goes to the shell; Ctrl-] hands the keys back to the tutor."
                    }),
                ];
                Paragraph::new(lines)
                    .wrap(Wrap { trim: true })
                    .render(area, buf);
            }
            ShellStatus::Failed(why) if s.lang == Lang::Zh => {
                note(format!("✗ 终端无法启动：{why}。导师仍可使用；按 s 重试。")).render(area, buf);
            }
            ShellStatus::Failed(why) => note(format!(
                "✗ The shell could not start: {why}. The tutor keeps working; press s to try again."
            ))
            .render(area, buf),
            ShellStatus::Running | ShellStatus::Exited(_) => {
                let mut cursor = Cursor::default();
                if !shell.typing || shell.screen.screen().scrollback() > 0 {
                    cursor.hide();
                }
                PseudoTerminal::new(shell.screen.screen())
                    .cursor(cursor)
                    .render(area, buf);
                let bottom = Rect::new(area.x, area.bottom().saturating_sub(1), area.width, 1);
                let status = match &shell.status {
                    ShellStatus::Exited(code) => Some(Span::styled(
                        if s.lang == Lang::Zh {
                            format!(
                                " 终端已退出{} · 回车启动新的 ",
                                code.map(|c| format!("（代码 {c}）")).unwrap_or_default()
                            )
                        } else {
                            format!(
                                " the shell exited{} · Enter starts another ",
                                code.map(|c| format!(" (code {c})")).unwrap_or_default()
                            )
                        },
                        s.theme.warn().add_modifier(Modifier::REVERSED),
                    )),
                    _ if shell.screen.screen().scrollback() > 0 => Some(Span::styled(
                        format!(
                            " ↑ {} lines back · ↓/j forward, typing returns ",
                            shell.screen.screen().scrollback()
                        ),
                        s.theme.accent().add_modifier(Modifier::REVERSED),
                    )),
                    _ => None,
                };
                if let Some(span) = status {
                    Paragraph::new(Line::from(span)).render(bottom, buf);
                }
            }
        }
    }
}
