//! Words said where they are drawn. A [`Words`] is a message's id and its arguments, kept as they
//! are until a view or a printer knows the language, as Fluent's own DOM bindings keep
//! `data-l10n-id` and `data-l10n-args` on an element and localize it when it is shown. So a
//! value built once (a plan's progress) draws in any language, and a test can read it in all.
//! [`words!`](crate::words) checks the id and the argument names against the English file at
//! compile time, as [`t!`](crate::t) does.

use std::collections::HashMap;
use std::sync::Arc;

use i18n_embed::fluent::FluentLanguageLoader;

use super::{Lang, Say};

/// A message to be said: its id and arguments, or a typed value that says itself (an error).
#[derive(Debug, Clone, PartialEq)]
pub struct Words(Said);

#[derive(Debug, Clone, PartialEq)]
enum Said {
    Message {
        id: &'static str,
        args: Vec<(&'static str, Arg)>,
    },
    Value(Arg),
}

/// One argument of a message: text said as it is (a name, a path, a command), a number (which
/// a translation may choose a plural form by), or a typed value said in the same language.
#[derive(Debug, Clone)]
pub enum Arg {
    Text(String),
    Number(i64),
    Said(Arc<dyn Sayable>),
}

/// What can be said inside other words: any [`Say`] value (an error, a finding, more words).
pub trait Sayable: Say + std::fmt::Debug + Send + Sync {
    /// The value as words, when it is words (kept as words when saved).
    fn as_words(&self) -> Option<&Words>;
}
impl<T: Say + std::fmt::Debug + Send + Sync + 'static> Sayable for T {
    fn as_words(&self) -> Option<&Words> {
        (self as &dyn std::any::Any).downcast_ref::<Words>()
    }
}

impl PartialEq for Arg {
    fn eq(&self, other: &Arg) -> bool {
        match (self, other) {
            (Arg::Text(a), Arg::Text(b)) => a == b,
            (Arg::Number(a), Arg::Number(b)) => a == b,
            // Typed values of different types compare by what they say.
            (Arg::Said(a), Arg::Said(b)) => a.say(Lang::FALLBACK) == b.say(Lang::FALLBACK),
            _ => false,
        }
    }
}

impl Words {
    /// Use [`words!`](crate::words), which checks `id` and the arguments' names.
    #[doc(hidden)]
    pub fn new(id: &'static str, args: Vec<(&'static str, Arg)>) -> Words {
        Words(Said::Message { id, args })
    }

    /// Text said as it is, in every language: another program's own words (Argo CD's
    /// "waiting for completion of hook …"), a name.
    pub fn text(text: impl Into<String>) -> Words {
        Words(Said::Value(Arg::Text(text.into())))
    }

    /// A typed value (an error, a finding) as words, said in the language it is drawn in.
    pub fn of(value: impl Sayable + 'static) -> Words {
        Words(Said::Value(Arg::Said(Arc::new(value))))
    }

    /// The message's id (what a test or a log can match on without its words); `None` for a
    /// typed value.
    pub fn id(&self) -> Option<&'static str> {
        match &self.0 {
            Said::Message { id, .. } => Some(id),
            Said::Value(_) => None,
        }
    }
}

impl Say for Words {
    fn say(&self, lang: Lang) -> String {
        let (id, args) = match &self.0 {
            Said::Message { id, args } => (*id, args),
            Said::Value(value) => return value.say(lang),
        };
        let loader: &FluentLanguageLoader = super::loader(lang);
        if args.is_empty() {
            return loader.get(id);
        }
        let said: HashMap<&str, fluent_bundle::FluentValue<'static>> = args
            .iter()
            .map(|(name, arg)| {
                let value = match arg {
                    Arg::Number(n) => fluent_bundle::FluentValue::from(*n),
                    other => fluent_bundle::FluentValue::from(other.say(lang)),
                };
                (*name, value)
            })
            .collect();
        loader.get_args_concrete(id, said)
    }
}

impl Arg {
    /// The argument on its own, in `lang`.
    fn say(&self, lang: Lang) -> String {
        match self {
            Arg::Text(text) => text.clone(),
            Arg::Number(n) => n.to_string(),
            Arg::Said(said) => said.say(lang),
        }
    }
}

// No `Display`: it could only say words in English, and printing a finding with `{}` put
// English into a Korean `check` (every_word found it). Say them in the language at hand.

/// Text said as it is (a test's step title, another program's words).
impl From<&str> for Words {
    fn from(text: &str) -> Words {
        Words::text(text)
    }
}

impl From<String> for Words {
    fn from(text: String) -> Words {
        Words::text(text)
    }
}

impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg::Text(text)
    }
}

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg::Text(text.to_string())
    }
}

impl From<&String> for Arg {
    fn from(text: &String) -> Arg {
        Arg::Text(text.clone())
    }
}

impl<T: Sayable + 'static> From<T> for Arg {
    fn from(said: T) -> Arg {
        Arg::Said(Arc::new(said))
    }
}

macro_rules! numbers {
    ($($t:ty),+) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
        impl From<&$t> for Arg {
            fn from(n: &$t) -> Arg {
                Arg::from(*n)
            }
        }
    )+};
}
numbers!(i64, u64, usize, i32, u32);

/// A message to say later, checked now: `words!("did-apply", file = name)`. The id and each
/// argument's name must be in the English file (the build fails otherwise, as with `t!`).
#[macro_export]
macro_rules! words {
    ($id:literal) => {{
        if false {
            let _ = $crate::t!($crate::i18n::Lang::FALLBACK, $id);
        }
        $crate::i18n::Words::new($id, Vec::new())
    }};
    ($id:literal, $($name:ident = $value:expr),+ $(,)?) => {{
        if false {
            let _ = $crate::t!($crate::i18n::Lang::FALLBACK, $id, $($name = ""),+);
        }
        $crate::i18n::Words::new(
            $id,
            vec![$((stringify!($name), $crate::i18n::Arg::from($value))),+],
        )
    }};
}

/// Items said one after another with words between them (`a or b or c`).
#[derive(Debug, Clone)]
pub struct Joined(pub Vec<String>, pub Words);

impl Say for Joined {
    fn say(&self, lang: Lang) -> String {
        self.0.join(&self.1.say(lang))
    }
}

/// Saved (a grade in `tutor.json`) as what it is, not as a sentence, so it reads again in any
/// language: a message as `{"id", "args"}`, text as a string, a number as a number. A typed value
/// that is not words (an error) is saved as what it says in each language. A plain string read
/// back (a file saved before words were kept) is text, said as it was written.
impl serde::Serialize for Words {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Words {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Words, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        Ok(Words::from_json(&v))
    }
}

impl Words {
    fn to_json(&self) -> serde_json::Value {
        match &self.0 {
            Said::Message { id, args } => {
                let args: serde_json::Map<String, serde_json::Value> = args
                    .iter()
                    .map(|(name, arg)| ((*name).to_string(), arg.to_json()))
                    .collect();
                serde_json::json!({"id": id, "args": args})
            }
            Said::Value(arg) => arg.to_json(),
        }
    }

    fn from_json(v: &serde_json::Value) -> Words {
        match v {
            serde_json::Value::Object(o) => {
                match (o.get("id").and_then(|i| i.as_str()), o.get("said")) {
                    (Some(id), _) => match known_id(id) {
                        Some(id) => {
                            let args = o
                                .get("args")
                                .and_then(|a| a.as_object())
                                .into_iter()
                                .flatten()
                                .filter_map(|(name, arg)| {
                                    Some((known_arg(name)?, Arg::from_json(arg)))
                                })
                                .collect();
                            Words::new(id, args)
                        }
                        // A message this version does not have: its id, rather than nothing.
                        None => Words::text(id),
                    },
                    (None, Some(said)) => Words(Said::Value(Arg::from_json(
                        &serde_json::json!({"said": said}),
                    ))),
                    _ => Words::text(v.to_string()),
                }
            }
            other => Words(Said::Value(Arg::from_json(other))),
        }
    }
}

impl Arg {
    fn to_json(&self) -> serde_json::Value {
        match self {
            Arg::Text(text) => serde_json::Value::from(text.as_str()),
            Arg::Number(n) => serde_json::Value::from(*n),
            Arg::Said(said) => match said.as_words() {
                Some(words) => words.to_json(),
                None => {
                    let each: serde_json::Map<String, serde_json::Value> = Lang::all()
                        .iter()
                        .map(|&l| (l.code().to_string(), said.say(l).into()))
                        .collect();
                    serde_json::json!({"said": each})
                }
            },
        }
    }

    fn from_json(v: &serde_json::Value) -> Arg {
        match v {
            serde_json::Value::String(text) => Arg::Text(text.clone()),
            serde_json::Value::Number(n) => n
                .as_i64()
                .map_or_else(|| Arg::Text(n.to_string()), Arg::Number),
            serde_json::Value::Object(o) if o.contains_key("id") => {
                Arg::Said(Arc::new(Words::from_json(v)))
            }
            serde_json::Value::Object(o) => match o.get("said").and_then(|s| s.as_object()) {
                Some(each) => Arg::Said(Arc::new(SaidIn(
                    each.iter()
                        .filter_map(|(code, text)| Some((code.clone(), text.as_str()?.to_string())))
                        .collect(),
                ))),
                None => Arg::Text(v.to_string()),
            },
            other => Arg::Text(other.to_string()),
        }
    }
}

/// What a saved value said in each language (by code), said in the one asked for, else in the
/// fallback's.
#[derive(Debug, Clone)]
struct SaidIn(std::collections::BTreeMap<String, String>);

impl Say for SaidIn {
    fn say(&self, lang: Lang) -> String {
        self.0
            .get(lang.code())
            .or_else(|| self.0.get(Lang::FALLBACK.code()))
            .or_else(|| self.0.values().next())
            .cloned()
            .unwrap_or_default()
    }
}

/// The message id as the English file spells it, when it has it: ids are kept `'static`.
fn known_id(id: &str) -> Option<&'static str> {
    super::message_ids()
        .iter()
        .copied()
        .find(|known| *known == id)
}

/// An argument's name, kept `'static` as the messages' are.
fn known_arg(name: &str) -> Option<&'static str> {
    super::argument_names()
        .iter()
        .copied()
        .find(|known| *known == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same words, built once, said in every language as `t!` says them there; words inside
    /// words are said in the same language.
    #[test]
    fn words_are_said_in_the_language_they_are_drawn_in() {
        let inner = crate::words!("did-skip-passes", lesson = "5");
        let outer = crate::words!("plan-started-over", why = inner.clone());
        for &lang in Lang::all() {
            let why = crate::t!(lang, "did-skip-passes", lesson = "5");
            assert_eq!(inner.say(lang), why);
            assert_eq!(
                outer.say(lang),
                crate::t!(lang, "plan-started-over", why = why)
            );
        }
        assert_ne!(
            inner.say(Lang::FALLBACK),
            inner.say(Lang::parse("zh").unwrap())
        );
        assert_eq!(
            crate::words!("did-skip-resume").say(Lang::FALLBACK),
            crate::t!(Lang::FALLBACK, "did-skip-resume")
        );
    }
}
