//! The shell pane: the shell's own screen, colours and all, drawn from the vt100 screen `update`
//! keeps; or, when no shell runs, what starts one and what it will get.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use tui_term::widget::{Cursor, PseudoTerminal};

use super::Look;
use crate::t;
use crate::tui::state::{ShellStatus, ShellView};

pub struct ShellPane<'a> {
    pub shell: &'a ShellView,
    /// Keys go to it now (it shows the cursor).
    pub focused: bool,
    pub look: Look<'a>,
}

impl Widget for &ShellPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (shell, look) = (self.shell, self.look);
        let lang = look.lang;
        let note = |text: String| {
            Paragraph::new(crate::tui::wrap::wrap(vec![Line::raw(text)], area.width))
                .style(look.theme.warn())
        };
        match &shell.status {
            ShellStatus::NotStarted => {
                let about = &shell.about;
                let kubeconfig = if about.kubeconfig.is_empty() {
                    t!(lang, "shell-kubeconfig-inherited")
                } else {
                    about.kubeconfig.clone()
                };
                let mut lines = vec![
                    Line::from(Span::styled(t!(lang, "shell-press-s"), look.theme.title())),
                    Line::raw(t!(
                        lang,
                        "shell-about",
                        marker = about.marker.as_str(),
                        cwd = about.cwd.as_str(),
                        kubeconfig = kubeconfig
                    )),
                    Line::raw(t!(lang, "shell-keys")),
                ];
                if let Some(clock) = &about.clock {
                    let speed = clock.speed.to_string();
                    let ahead = clock.ahead_seconds.map(super::chrome::said_ahead);
                    lines.push(match (clock.follows, ahead) {
                        (true, None) => Line::raw(t!(lang, "shell-clock-follows", speed = speed)),
                        (true, Some(ahead)) => {
                            Line::raw(t!(lang, "shell-clock-ahead-follows", ahead = ahead))
                        }
                        (false, None) => Line::styled(
                            t!(lang, "shell-clock-wall", speed = speed),
                            look.theme.warn(),
                        ),
                        (false, Some(ahead)) => Line::styled(
                            t!(lang, "shell-clock-ahead-wall", ahead = ahead),
                            look.theme.warn(),
                        ),
                    });
                }
                Paragraph::new(crate::tui::wrap::wrap(lines, area.width)).render(area, buf);
            }
            ShellStatus::Failed(why) => {
                note(t!(
                    lang,
                    "shell-failed",
                    why = crate::i18n::Say::say(why, lang)
                ))
                .render(area, buf);
            }
            ShellStatus::Running | ShellStatus::Exited(_) => {
                let mut cursor = Cursor::default();
                if !(shell.typing && self.focused) || shell.screen.screen().scrollback() > 0 {
                    cursor.hide();
                }
                PseudoTerminal::new(shell.screen.screen())
                    .cursor(cursor)
                    .render(area, buf);
                let bottom = Rect::new(area.x, area.bottom().saturating_sub(1), area.width, 1);
                let status = match &shell.status {
                    ShellStatus::Exited(code) => Some(Span::styled(
                        match code {
                            Some(c) => t!(lang, "shell-exited-code", code = c),
                            None => t!(lang, "shell-exited"),
                        },
                        look.theme.warn().add_modifier(Modifier::REVERSED),
                    )),
                    _ if shell.screen.screen().scrollback() > 0 => Some(Span::styled(
                        t!(
                            lang,
                            "shell-scrolled-back",
                            lines = shell.screen.screen().scrollback()
                        ),
                        look.theme.accent().add_modifier(Modifier::REVERSED),
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
