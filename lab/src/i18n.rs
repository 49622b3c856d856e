//! The strings layer: every word a person reads comes from `assets/i18n/<lang>/capa_tui.ftl`
//! (Project Fluent), looked up by message id with [`t!`](crate::t). `i18n-embed-fl` checks each
//! id and its arguments against the English file at compile time, and a test checks that every
//! language has every id. A language is data: a translator adds a folder of `.ftl` (and the
//! lessons' `<lang>.md` files), not Rust.
//!
//! Why Fluent: it is what Firefox and many Rust tools use, a translator can reorder arguments and
//! choose plural forms without touching code, and `fl!` turns a typo in an id into a build error.
//! The language is passed explicitly (`t!(lang, "id")`) rather than set process-wide, so tests can
//! draw the same screen in two languages side by side.

use std::borrow::Cow;
use std::sync::OnceLock;

use i18n_embed::fluent::FluentLanguageLoader;
use i18n_embed::{I18nAssets, LanguageLoader};

mod words;
pub use words::{Arg, Joined, Words};

/// The Fluent domain: the file each language folder holds is `capa_tui.ftl`.
const DOMAIN: &str = "capa_tui";
/// Where the strings live among the embedded files.
const ASSETS: &str = "assets/i18n/";

/// A language the tutor speaks: one folder of `assets/i18n/`, named by its code (`en`, `zh`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lang(&'static str);

impl Lang {
    /// English: the language every message exists in, and the one a missing text falls back to.
    pub const FALLBACK: Lang = Lang("en");

    /// The language's code: `en`, `zh`.
    pub fn code(self) -> &'static str {
        self.0
    }

    /// Every language the strings layer has, English first.
    pub fn all() -> &'static [Lang] {
        static ALL: OnceLock<Vec<Lang>> = OnceLock::new();
        ALL.get_or_init(|| {
            let mut codes: Vec<&'static str> = crate::embedded::FILES
                .iter()
                .filter_map(|(path, _)| {
                    let rest = path.strip_prefix(ASSETS)?;
                    let (code, file) = rest.split_once('/')?;
                    (file == format!("{DOMAIN}.ftl")).then_some(code)
                })
                .collect();
            codes.sort_by_key(|c| (*c != Lang::FALLBACK.0, *c));
            codes.dedup();
            codes.into_iter().map(Lang).collect()
        })
    }

    /// The language a code or locale names (`zh`, `zh_CN.UTF-8`, `ko-KR`), if the tutor has it.
    pub fn parse(s: &str) -> Option<Lang> {
        let lower = s.trim().to_ascii_lowercase();
        let code = lower.split(['_', '-', '.', '@']).next().unwrap_or_default();
        Lang::all().iter().copied().find(|l| l.0 == code)
    }

    /// The languages' codes, for messages that list them: `en, zh`.
    pub fn codes() -> String {
        Lang::all()
            .iter()
            .map(|l| l.0)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The locale's language (`LC_ALL`, `LC_MESSAGES`, `LANG`), English when it names none the
    /// tutor has.
    pub fn from_locale(var: &dyn Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .find_map(|v| var(v).filter(|s| !s.is_empty()))
            .and_then(|s| Lang::parse(&s))
            .unwrap_or(Lang::FALLBACK)
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// Something said to a person — an error, a finding, a reason — in their language. Types that
/// implement it are typed inside (the facts they carry) and put into words only here, at the
/// edge; their `Display` is the English, for logs.
pub trait Say {
    fn say(&self, lang: Lang) -> String;
}

/// Shared, it says the same.
impl<T: Say + ?Sized> Say for std::sync::Arc<T> {
    fn say(&self, lang: Lang) -> String {
        (**self).say(lang)
    }
}

/// `Display` for a [`Say`] type: its English words (what a log or a test reads).
#[macro_export]
macro_rules! display_says {
    ($($t:ty),+ $(,)?) => {$(
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&$crate::i18n::Say::say(self, $crate::i18n::Lang::FALLBACK))
            }
        }
    )+};
}

/// The embedded `.ftl` files, as i18n-embed reads assets.
struct Embedded;

impl I18nAssets for Embedded {
    fn get_files(&self, file_path: &str) -> Vec<Cow<'_, [u8]>> {
        crate::embedded::FILES
            .iter()
            .filter(|(p, _)| p.strip_prefix(ASSETS) == Some(file_path))
            .map(|(_, text)| Cow::Borrowed(text.as_bytes()))
            .collect()
    }

    fn filenames_iter(&self) -> Box<dyn Iterator<Item = String> + '_> {
        Box::new(
            crate::embedded::FILES
                .iter()
                .filter_map(|(p, _)| p.strip_prefix(ASSETS).map(String::from)),
        )
    }
}

/// The English file's text: every message id and argument name is spelled there first.
fn english_text() -> &'static str {
    let file = format!("{ASSETS}{}/{DOMAIN}.ftl", Lang::FALLBACK.code());
    crate::embedded::FILES
        .iter()
        .find(|(p, _)| *p == file)
        .map(|(_, t)| *t)
        .unwrap_or_default()
}

/// Every message id of the English file, to read saved [`Words`] back with `'static` ids.
pub(crate) fn message_ids() -> &'static [&'static str] {
    static IDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    IDS.get_or_init(|| {
        english_text()
            .lines()
            .filter(|l| !l.starts_with([' ', '#', '-', '\t', '.', '[', '*', '}']))
            .filter_map(|l| l.split_once(" =").map(|(id, _)| id.trim()))
            .filter(|id| !id.is_empty())
            .collect()
    })
}

/// Every argument name (`{ $name }`) of the English file.
pub(crate) fn argument_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<&'static str> = english_text()
            .split("$")
            .skip(1)
            .filter_map(|rest| {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                    .unwrap_or(rest.len());
                (end > 0).then(|| &rest[..end])
            })
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    })
}

/// The loader for `lang`, with English behind it for any message a translation lacks.
pub fn loader(lang: Lang) -> &'static FluentLanguageLoader {
    static LOADERS: OnceLock<Vec<(Lang, FluentLanguageLoader)>> = OnceLock::new();
    let all = LOADERS.get_or_init(|| {
        Lang::all()
            .iter()
            .map(|&l| (l, load(l)))
            .collect::<Vec<_>>()
    });
    all.iter()
        .find(|(l, _)| *l == lang)
        .or_else(|| all.first())
        .map(|(_, loader)| loader)
        .unwrap_or_else(|| fallback_loader())
}

/// A loader with no messages, used only if no language loaded at all (a broken build).
fn fallback_loader() -> &'static FluentLanguageLoader {
    static EMPTY: OnceLock<FluentLanguageLoader> = OnceLock::new();
    EMPTY.get_or_init(|| FluentLanguageLoader::new(DOMAIN, langid(Lang::FALLBACK)))
}

fn langid(lang: Lang) -> unic_langid::LanguageIdentifier {
    lang.0
        .parse()
        .unwrap_or_else(|_| unic_langid::LanguageIdentifier::default())
}

fn load(lang: Lang) -> FluentLanguageLoader {
    let loader = FluentLanguageLoader::new(DOMAIN, langid(Lang::FALLBACK));
    let wanted = [langid(lang), langid(Lang::FALLBACK)];
    if let Err(e) = loader.load_languages(&Embedded, &wanted) {
        tracing::error!("the strings of {lang} do not load: {e}");
    }
    // Terminals draw Unicode isolation marks as stray cells: no FSI/PDI around arguments.
    loader.set_use_isolating(false);
    loader
}

/// A message of the strings layer in a language: `t!(lang, "id")`, `t!(lang, "id", name = v)`.
/// The id and the argument names are checked against the English strings at compile time.
#[macro_export]
macro_rules! t {
    ($lang:expr, $id:literal) => {
        i18n_embed_fl::fl!($crate::i18n::loader($lang), $id)
    };
    ($lang:expr, $id:literal, $($args:tt)*) => {
        i18n_embed_fl::fl!($crate::i18n::loader($lang), $id, $($args)*)
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// One language's strings file: its path among the embedded files, and its text.
    fn strings_of(lang: Lang) -> (String, &'static str) {
        let file = format!("{ASSETS}{}/{DOMAIN}.ftl", lang.code());
        let text = crate::embedded::FILES
            .iter()
            .find(|(p, _)| *p == file)
            .map(|(_, t)| *t)
            .unwrap_or_default();
        (file, text)
    }

    /// Message ids of one language's file (terms and comments aside).
    fn ids(lang: Lang) -> BTreeSet<String> {
        let text = strings_of(lang).1;
        text.lines()
            .filter(|l| !l.starts_with([' ', '#', '-', '\t', '.', '[', '*', '}']))
            .filter_map(|l| l.split_once(" =").map(|(id, _)| id.trim().to_string()))
            .filter(|id| !id.is_empty())
            .collect()
    }

    #[test]
    fn every_message_id_exists_in_every_language_and_no_other() {
        let english = ids(Lang::FALLBACK);
        assert!(english.len() > 10, "the English strings load");
        for &lang in Lang::all() {
            let these = ids(lang);
            let missing: Vec<&String> = english.difference(&these).collect();
            let extra: Vec<&String> = these.difference(&english).collect();
            assert!(missing.is_empty(), "{lang} lacks {missing:?}");
            assert!(extra.is_empty(), "{lang} has ids English lacks: {extra:?}");
        }
    }

    /// `message.attribute` of every attribute in one language's file.
    fn attributes(lang: Lang) -> BTreeSet<String> {
        let text = strings_of(lang).1;
        let resource = fluent_syntax::parser::parse(text).unwrap_or_else(|(r, _)| r);
        resource
            .body
            .iter()
            .filter_map(|entry| match entry {
                fluent_syntax::ast::Entry::Message(m) => Some(m),
                _ => None,
            })
            .flat_map(|m| {
                m.attributes
                    .iter()
                    .map(move |a| format!("{}.{}", m.id.name, a.id.name))
            })
            .collect()
    }

    /// An attribute is a message's part said alone (a reason's `.fact`): a language that lacks
    /// one would say the message's id in its place.
    #[test]
    fn every_attribute_exists_in_every_language_and_no_other() {
        let english = attributes(Lang::FALLBACK);
        assert!(english.contains("unmet-no-app.fact"), "{english:?}");
        for &lang in Lang::all() {
            assert_eq!(attributes(lang), english, "{lang}");
        }
    }

    #[test]
    fn every_language_parses_without_errors() {
        for &lang in Lang::all() {
            let (file, text) = strings_of(lang);
            if let Err((_, errors)) = fluent_syntax::parser::parse(text) {
                panic!("{file}: {errors:?}");
            }
        }
    }

    #[test]
    fn locales_and_codes_name_the_languages_the_tutor_has() {
        let zh = Lang::parse("zh_CN.UTF-8").expect("Chinese is there");
        assert_eq!(zh.code(), "zh");
        assert_eq!(Lang::parse("EN-us"), Some(Lang::FALLBACK));
        assert_eq!(Lang::parse("xx"), None);
        let env = |v: &str| (v == "LANG").then(|| "zh_TW.UTF-8".to_string());
        assert_eq!(Lang::from_locale(&env), zh);
        assert_eq!(Lang::from_locale(&|_| None), Lang::FALLBACK);
        assert_eq!(Lang::all()[0], Lang::FALLBACK);
    }

    #[test]
    fn arguments_are_filled_in_without_isolation_marks() {
        let zh = Lang::parse("zh").expect("Chinese is there");
        let text = crate::t!(zh, "age-seconds", seconds = 5);
        assert!(!text.contains('\u{2068}') && text.contains('5'), "{text:?}");
    }
}
