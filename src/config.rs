//! The learner's defaults — theme, language, presenter mode — from `capa-tui/config.toml` in the
//! XDG config dir, overridden by environment variables, then by flags. Each setting remembers
//! where it came from, so `capa-tui config` can say why the tutor looks as it does.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::i18n::{Lang, Say};
use crate::t;

/// The tutor's themes, by the names the file, `CAPA_THEME` and `--theme` use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ThemeName {
    Default,
    Projector,
    Monochrome,
}

impl ThemeName {
    fn parse(s: &str) -> Option<ThemeName> {
        match s.trim().to_ascii_lowercase().as_str() {
            "default" => Some(ThemeName::Default),
            "projector" => Some(ThemeName::Projector),
            "monochrome" | "mono" => Some(ThemeName::Monochrome),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ThemeName::Default => "default",
            ThemeName::Projector => "projector",
            ThemeName::Monochrome => "monochrome",
        }
    }
}

/// What the config file may say; anything else is refused with its line.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    theme: Option<ThemeName>,
    lang: Option<String>,
    present: Option<bool>,
    /// One of many learners on one cluster (`--learner`).
    learner: Option<String>,
}

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Flag(&'static str),
    Env(&'static str),
    File(PathBuf),
    /// Nothing set it: the built-in choice, and why.
    Builtin(Builtin),
}

/// Why the built-in choice is what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    NotPresenting,
    Locale,
    Presenting,
    Default,
}

impl Say for Origin {
    fn say(&self, lang: Lang) -> String {
        match self {
            Origin::Flag(flag) => t!(lang, "origin-flag", flag = flag.to_string()),
            Origin::Env(var) => format!("${var}"),
            Origin::File(p) => p.display().to_string(),
            Origin::Builtin(Builtin::NotPresenting) => t!(lang, "origin-not-presenting"),
            Origin::Builtin(Builtin::Locale) => t!(lang, "origin-locale"),
            Origin::Builtin(Builtin::Presenting) => t!(lang, "origin-presenting"),
            Origin::Builtin(Builtin::Default) => t!(lang, "origin-default"),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.say(Lang::FALLBACK))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting<T> {
    pub value: T,
    pub origin: Origin,
}

/// The settings in effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub theme: Setting<ThemeName>,
    pub lang: Setting<Lang>,
    pub present: Setting<bool>,
}

/// What the command line said (each `None` when not given).
#[derive(Debug, Clone, Copy, Default)]
pub struct Flags<'a> {
    pub theme: Option<ThemeName>,
    pub lang: Option<&'a str>,
    pub present: Option<bool>,
}

/// Why the settings cannot be read, typed; said with what to do by [`Say`].
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    Malformed {
        path: PathBuf,
        line: usize,
        message: String,
    },
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A value of the right type but not one capa-tui knows, on its line.
    BadValue {
        path: PathBuf,
        line: usize,
        key: &'static str,
        value: String,
        expected: Expected,
    },
    BadEnv {
        var: &'static str,
        value: String,
        expected: Expected,
    },
    BadFlag {
        flag: &'static str,
        value: String,
        expected: Expected,
    },
}

/// What a setting takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    Languages,
    Themes,
    YesNo,
    Learner,
}

impl Expected {
    fn say(self, lang: Lang) -> String {
        match self {
            Expected::Languages => t!(lang, "config-use-languages", codes = Lang::codes()),
            Expected::Themes => t!(lang, "config-use-themes"),
            Expected::YesNo => t!(lang, "config-use-yes-no"),
            Expected::Learner => t!(lang, "config-use-learner"),
        }
    }
}

impl Say for ConfigError {
    fn say(&self, lang: Lang) -> String {
        match self {
            ConfigError::Malformed {
                path,
                line,
                message,
            } => t!(
                lang,
                "config-malformed",
                path = path.display().to_string(),
                line = line.to_string(),
                message = message.as_str()
            ),
            ConfigError::BadValue {
                path,
                line,
                key,
                value,
                expected,
            } => t!(
                lang,
                "config-bad-value",
                path = path.display().to_string(),
                line = line.to_string(),
                key = key.to_string(),
                value = value.as_str(),
                expected = expected.say(lang)
            ),
            ConfigError::Unreadable { path, source } => t!(
                lang,
                "config-unreadable",
                path = path.display().to_string(),
                why = source.to_string()
            ),
            ConfigError::BadEnv {
                var,
                value,
                expected,
            } => t!(
                lang,
                "config-bad-env",
                var = var.to_string(),
                value = value.as_str(),
                expected = expected.say(lang)
            ),
            ConfigError::BadFlag {
                flag,
                value,
                expected,
            } => t!(
                lang,
                "config-bad-flag",
                flag = flag.to_string(),
                value = value.as_str(),
                expected = expected.say(lang)
            ),
        }
    }
}

crate::display_says!(ConfigError);

/// `$CAPA_CONFIG`, else `<XDG config dir>/capa-tui/config.toml`.
pub fn path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CAPA_CONFIG").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(p));
    }
    use etcetera::BaseStrategy;
    etcetera::choose_base_strategy()
        .ok()
        .map(|s| s.config_dir().join("capa-tui").join("config.toml"))
}

fn read(path: &Path) -> Result<File, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(File::default()),
        Err(source) => {
            return Err(ConfigError::Unreadable {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    toml::from_str::<File>(&text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        ConfigError::Malformed {
            path: path.to_path_buf(),
            line: text[..at.min(text.len())].matches('\n').count() + 1,
            message: e.message().trim().to_string(),
        }
    })
}

/// The config file's `learner` (`--learner` and `CAPA_LEARNER` come first, through the command
/// line): none when the file says none or there is no file.
pub fn learner_in_file(
    file_path: Option<&Path>,
) -> Result<Option<crate::lab::learner::Learner>, ConfigError> {
    let Some(path) = file_path else {
        return Ok(None);
    };
    match read(path)?.learner {
        None => Ok(None),
        Some(name) => crate::lab::learner::Learner::parse(&name)
            .map(Some)
            .map_err(|_| malformed_value(Some(path), "learner", &name, Expected::Learner)),
    }
}

fn lang_word(s: &str) -> Option<Lang> {
    Lang::parse(s)
}

fn yes_no(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" | "" => Some(false),
        _ => None,
    }
}

/// The settings in effect: flags, then `CAPA_THEME`/`CAPA_LANG`/`CAPA_PRESENT`, then the file,
/// then the built-in choice (the locale's language; monochrome when `NO_COLOR` is set, the
/// projector theme when presenting).
pub fn resolve(
    flags: Flags<'_>,
    env: &dyn Fn(&str) -> Option<String>,
    file_path: Option<&Path>,
) -> Result<Settings, ConfigError> {
    let file = match file_path {
        Some(p) => read(p)?,
        None => File::default(),
    };
    let in_file = || Origin::File(file_path.map(Path::to_path_buf).unwrap_or_default());
    let bad_env = |var: &'static str, value: String, expected: Expected| ConfigError::BadEnv {
        var,
        value,
        expected,
    };
    let env_var = |var: &'static str| env(var).filter(|v| !v.is_empty());

    let present = if let Some(p) = flags.present {
        Setting {
            value: p,
            origin: Origin::Flag(if p { "--present" } else { "--no-present" }),
        }
    } else if let Some(v) = env_var("CAPA_PRESENT") {
        let value = yes_no(&v).ok_or_else(|| bad_env("CAPA_PRESENT", v, Expected::YesNo))?;
        Setting {
            value,
            origin: Origin::Env("CAPA_PRESENT"),
        }
    } else if let Some(p) = file.present {
        Setting {
            value: p,
            origin: in_file(),
        }
    } else {
        Setting {
            value: false,
            origin: Origin::Builtin(Builtin::NotPresenting),
        }
    };

    let lang = resolve_lang(flags.lang, env, file.lang.as_deref(), file_path)?;

    let theme = if let Some(t) = flags.theme {
        Setting {
            value: t,
            origin: Origin::Flag("--theme"),
        }
    } else if let Some(v) = env_var("CAPA_THEME") {
        let value =
            ThemeName::parse(&v).ok_or_else(|| bad_env("CAPA_THEME", v, Expected::Themes))?;
        Setting {
            value,
            origin: Origin::Env("CAPA_THEME"),
        }
    } else if let Some(t) = file.theme {
        Setting {
            value: t,
            origin: in_file(),
        }
    } else if present.value {
        Setting {
            value: ThemeName::Projector,
            origin: Origin::Builtin(Builtin::Presenting),
        }
    } else if env_var("NO_COLOR").is_some() {
        Setting {
            value: ThemeName::Monochrome,
            origin: Origin::Env("NO_COLOR"),
        }
    } else {
        Setting {
            value: ThemeName::Default,
            origin: Origin::Builtin(Builtin::Default),
        }
    };
    Ok(Settings {
        theme,
        lang,
        present,
    })
}

/// The language: `--lang`, then `CAPA_LANG`, then the file's `lang`, then the locale.
fn resolve_lang(
    flag: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
    in_file: Option<&str>,
    file_path: Option<&Path>,
) -> Result<Setting<Lang>, ConfigError> {
    Ok(if let Some(l) = flag {
        Setting {
            value: lang_word(l).ok_or_else(|| ConfigError::BadFlag {
                flag: "--lang",
                value: l.to_string(),
                expected: Expected::Languages,
            })?,
            origin: Origin::Flag("--lang"),
        }
    } else if let Some(v) = env("CAPA_LANG").filter(|v| !v.is_empty()) {
        let value = lang_word(&v).ok_or(ConfigError::BadEnv {
            var: "CAPA_LANG",
            value: v,
            expected: Expected::Languages,
        })?;
        Setting {
            value,
            origin: Origin::Env("CAPA_LANG"),
        }
    } else if let Some(l) = in_file {
        match lang_word(l) {
            Some(value) => Setting {
                value,
                origin: Origin::File(file_path.map(Path::to_path_buf).unwrap_or_default()),
            },
            None => {
                return Err(malformed_value(file_path, "lang", l, Expected::Languages));
            }
        }
    } else {
        Setting {
            value: Lang::from_locale(env),
            origin: Origin::Builtin(Builtin::Locale),
        }
    })
}

/// A value of the right type but not one we know, with the line that holds it.
fn malformed_value(
    path: Option<&Path>,
    key: &'static str,
    value: &str,
    expected: Expected,
) -> ConfigError {
    let path = path.map(Path::to_path_buf).unwrap_or_default();
    let line = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| {
            t.lines()
                .position(|l| l.trim_start().starts_with(key))
                .map(|i| i + 1)
        })
        .unwrap_or(1);
    ConfigError::BadValue {
        path,
        line,
        key,
        value: value.to_string(),
        expected,
    }
}

#[cfg(test)]
mod tests;
