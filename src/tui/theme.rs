//! Themes: the default, a high-contrast one for projectors, and monochrome (chosen when
//! `NO_COLOR` is set), each a data file in `assets/themes/`. Status is always a glyph and a word
//! too, never colour alone.

use std::sync::OnceLock;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

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

    /// The theme the settings chose.
    pub fn named(name: crate::config::ThemeName) -> Theme {
        match name {
            crate::config::ThemeName::Default => Theme::Default,
            crate::config::ThemeName::Projector => Theme::Projector,
            crate::config::ThemeName::Monochrome => Theme::Mono,
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

    /// The theme's styles, read from `assets/themes/<name>.yaml` (built in).
    fn palette(self) -> &'static Palette {
        static PALETTES: OnceLock<[Palette; 3]> = OnceLock::new();
        let all = PALETTES.get_or_init(|| {
            [
                Palette::parse("default", include_str!("../../assets/themes/default.yaml")),
                Palette::parse(
                    "projector",
                    include_str!("../../assets/themes/projector.yaml"),
                ),
                Palette::parse(
                    "monochrome",
                    include_str!("../../assets/themes/monochrome.yaml"),
                ),
            ]
        });
        &all[self as usize]
    }

    pub fn good(self) -> Style {
        self.palette().good.style()
    }

    pub fn warn(self) -> Style {
        self.palette().warn.style()
    }

    pub fn bad(self) -> Style {
        self.palette().bad.style()
    }

    pub fn accent(self) -> Style {
        self.palette().accent.style()
    }

    pub fn dim(self) -> Style {
        self.palette().dim.style()
    }

    /// Old data: the theme's dim colour, faint and never bold (the "as of" beside it says why).
    pub fn stale(self) -> Style {
        self.dim()
            .add_modifier(Modifier::DIM)
            .remove_modifier(Modifier::BOLD)
    }

    pub fn focused_border(self) -> Style {
        self.palette().focused_border.style()
    }

    pub fn title(self) -> Style {
        self.palette().title.style()
    }
}

/// A theme file: one style per role.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Palette {
    good: StyleSpec,
    warn: StyleSpec,
    bad: StyleSpec,
    accent: StyleSpec,
    dim: StyleSpec,
    focused_border: StyleSpec,
    title: StyleSpec,
}

impl Palette {
    /// The built-in theme files are tested to parse; a broken one draws unstyled, not a panic.
    fn parse(name: &str, yaml: &str) -> Palette {
        serde_saphyr::from_str(yaml).unwrap_or_else(|e| {
            tracing::error!("theme {name} does not parse: {e}");
            Palette::plain()
        })
    }

    fn plain() -> Palette {
        let none = StyleSpec::default;
        Palette {
            good: none(),
            warn: none(),
            bad: none(),
            accent: none(),
            dim: none(),
            focused_border: none(),
            title: none(),
        }
    }
}

/// `{fg: green, bold: true}`: a colour name ratatui knows (or `#rrggbb`) and a weight.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StyleSpec {
    #[serde(default)]
    fg: Option<String>,
    #[serde(default)]
    bold: bool,
}

impl StyleSpec {
    fn style(&self) -> Style {
        let mut style = Style::default();
        if let Some(c) = self.fg.as_deref().and_then(|c| c.parse::<Color>().ok()) {
            style = style.fg(c);
        }
        if self.bold {
            style = style.add_modifier(Modifier::BOLD);
        }
        style
    }
}

/// The meaning of one of Argo CD's status words in the learner's language, shown beside the
/// word itself (`✓ Synced 已同步`): the word stays as Argo CD's CLI and UI spell it. `None` where
/// the language needs no gloss (English) or the word has none.
pub fn gloss(lang: crate::i18n::Lang, word: &str) -> Option<String> {
    use crate::t;
    let text = match word {
        "Synced" => t!(lang, "gloss-synced"),
        "OutOfSync" => t!(lang, "gloss-out-of-sync"),
        "Healthy" => t!(lang, "gloss-healthy"),
        "Progressing" => t!(lang, "gloss-progressing"),
        "Degraded" => t!(lang, "gloss-degraded"),
        "Missing" => t!(lang, "gloss-missing"),
        "Suspended" => t!(lang, "gloss-suspended"),
        "Succeeded" => t!(lang, "gloss-succeeded"),
        "Failed" => t!(lang, "gloss-failed"),
        "Error" => t!(lang, "gloss-error"),
        "Running" => t!(lang, "gloss-running"),
        "Terminating" => t!(lang, "gloss-terminating"),
        "Unknown" => t!(lang, "gloss-unknown"),
        _ => return None,
    };
    (!text.is_empty() && text != word).then_some(text)
}

/// A status word with its glyph, as every pane shows it: `✓ Synced`, `… Progressing`, `✗ Degraded`.
pub fn status_glyph(word: &str) -> &'static str {
    match word {
        "Synced" | "Healthy" | "Succeeded" | "Available" | "Pruned" => "✓",
        "OutOfSync" | "Progressing" | "Running" | "Pending" | "Terminating" => "…",
        "Degraded" | "Failed" | "Error" | "SyncFailed" | "Missing" => "✗",
        "Suspended" | "PruneSkipped" => "‖",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_file_parses_and_keeps_its_character() {
        for (name, yaml) in [
            ("default", include_str!("../../assets/themes/default.yaml")),
            (
                "projector",
                include_str!("../../assets/themes/projector.yaml"),
            ),
            (
                "monochrome",
                include_str!("../../assets/themes/monochrome.yaml"),
            ),
        ] {
            serde_saphyr::from_str::<Palette>(yaml).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert_eq!(Theme::Default.bad(), Style::default().fg(Color::Red));
        assert_eq!(Theme::Default.dim(), Style::default().fg(Color::DarkGray));
        assert!(
            Theme::Projector
                .good()
                .add_modifier
                .contains(Modifier::BOLD)
        );
        assert_eq!(Theme::Mono.bad(), Style::default());
        assert!(
            Theme::Mono
                .focused_border()
                .add_modifier
                .contains(Modifier::BOLD)
        );
    }
}
