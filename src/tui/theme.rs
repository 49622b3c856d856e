//! Themes: the default, a high-contrast one for projectors, and monochrome (chosen when
//! `NO_COLOR` is set). Status is always a glyph and a word too, never colour alone.

use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Default,
    Projector,
    Mono,
}

impl Theme {
    pub fn from_env() -> Theme {
        if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            Theme::Mono
        } else {
            Theme::Default
        }
    }

    pub fn next(self) -> Theme {
        match self {
            Theme::Default => Theme::Projector,
            Theme::Projector => Theme::Mono,
            Theme::Mono => Theme::Default,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Theme::Default => "default",
            Theme::Projector => "projector",
            Theme::Mono => "monochrome",
        }
    }

    fn color(self, c: Color) -> Style {
        match self {
            Theme::Mono => Style::default(),
            Theme::Projector => Style::default().fg(c).add_modifier(Modifier::BOLD),
            Theme::Default => Style::default().fg(c),
        }
    }

    pub fn good(self) -> Style {
        self.color(Color::Green)
    }

    pub fn warn(self) -> Style {
        self.color(Color::Yellow)
    }

    pub fn bad(self) -> Style {
        self.color(Color::Red)
    }

    pub fn accent(self) -> Style {
        self.color(Color::Cyan)
    }

    pub fn dim(self) -> Style {
        match self {
            Theme::Mono | Theme::Projector => Style::default(),
            Theme::Default => Style::default().fg(Color::DarkGray),
        }
    }

    pub fn focused_border(self) -> Style {
        match self {
            Theme::Mono => Style::default().add_modifier(Modifier::BOLD),
            _ => self.color(Color::Cyan).add_modifier(Modifier::BOLD),
        }
    }

    pub fn title(self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }
}

/// A status word with its glyph, as every pane shows it: `✓ Synced`, `… Progressing`, `✗ Degraded`.
pub fn status_glyph(word: &str) -> &'static str {
    match word {
        "Synced" | "Healthy" | "Succeeded" | "Available" => "✓",
        "OutOfSync" | "Progressing" | "Running" | "Pending" | "Terminating" => "…",
        "Degraded" | "Failed" | "Error" | "SyncFailed" | "Missing" => "✗",
        "Suspended" => "‖",
        _ => "?",
    }
}

pub fn status_style(theme: Theme, word: &str) -> Style {
    match status_glyph(word) {
        "✓" => theme.good(),
        "…" => theme.warn(),
        "✗" => theme.bad(),
        _ => theme.dim(),
    }
}
