//! What is wrong with a value a lesson author wrote in `lesson.yaml`, typed. These reach the
//! author inside the YAML parser's message (with the line it points at): `Display` is the
//! English, the language lessons are written in first, and [`SpecError::recognize`] reads such a
//! message back so `lesson lint` can say it in the author's language ([`Say`]).

use crate::i18n::{Lang, Say};
use crate::t;

/// A reference, path or text in `lesson.yaml` that does not read as one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SpecError {
    #[error("{0:?} is not FILE#FIELD (e.g. precedence.json#replicas)")]
    NotEvidenceRef(String),
    #[error("{0:?} is not namespace/Kind/name")]
    NotObjectRef(String),
    #[error("{reference:?}: unknown kind {kind:?} ({})", KINDS)]
    UnknownKind { reference: String, kind: String },
    #[error("path {path:?}: {why}")]
    BadPath { path: String, why: &'static str },
    #[error(
        "{0:?} leads out of the source dir: an evidence file is a relative path inside it, without .."
    )]
    EvidenceOutside(String),
    #[error("a text needs its English ({code}:), which stands in for a language it lacks")]
    NoEnglish { code: &'static str },
}

/// The kinds a reference may name, as the message lists them.
const KINDS: &str = "Application, ConfigMap, Deployment, Job, Pod, Secret, Service";

/// Why a field path does not read: `FieldPath`'s reasons, longest first where one ends another.
const PATH_REASONS: &[&str] = &[
    "unclosed [\"",
    "unclosed [",
    "a list filter is [key=value,...]",
    "empty key",
    "empty",
];

impl SpecError {
    /// The error a parser's message is, when the message is exactly one of ours (serde passes a
    /// `try_from` error on as its text); `None` for the parser's own reasons.
    pub fn recognize(message: &str) -> Option<SpecError> {
        if let Some(text) =
            message.strip_suffix(" is not FILE#FIELD (e.g. precedence.json#replicas)")
        {
            return unquote(text).map(SpecError::NotEvidenceRef);
        }
        if let Some(text) = message.strip_suffix(
            " leads out of the source dir: an evidence file is a relative path inside it, without ..",
        ) {
            return unquote(text).map(SpecError::EvidenceOutside);
        }
        if let Some(text) = message.strip_suffix(" is not namespace/Kind/name") {
            return unquote(text).map(SpecError::NotObjectRef);
        }
        if let Some(rest) = message.strip_suffix(&format!(" ({KINDS})")) {
            let (reference, kind) = rest.rsplit_once(": unknown kind ")?;
            return Some(SpecError::UnknownKind {
                reference: unquote(reference)?,
                kind: unquote(kind)?,
            });
        }
        if let Some(rest) = message.strip_prefix("path ") {
            return PATH_REASONS.iter().find_map(|why| {
                let path = rest.strip_suffix(why)?.strip_suffix(": ")?;
                Some(SpecError::BadPath {
                    path: unquote(path)?,
                    why,
                })
            });
        }
        let english = SpecError::NoEnglish {
            code: Lang::FALLBACK.code(),
        };
        (message == english.to_string()).then_some(english)
    }
}

impl Say for SpecError {
    fn say(&self, lang: Lang) -> String {
        let q = |x: &str| format!("{x:?}");
        match self {
            SpecError::NotEvidenceRef(text) => t!(lang, "spec-not-evidence-ref", text = q(text)),
            SpecError::NotObjectRef(text) => t!(lang, "spec-not-object-ref", text = q(text)),
            SpecError::UnknownKind { reference, kind } => t!(
                lang,
                "spec-unknown-kind",
                reference = q(reference),
                kind = q(kind)
            ),
            SpecError::BadPath { path, why } => {
                let why = match *why {
                    "unclosed [\"" => t!(lang, "spec-path-unclosed-quote"),
                    "unclosed [" => t!(lang, "spec-path-unclosed"),
                    "a list filter is [key=value,...]" => t!(lang, "spec-path-filter"),
                    "empty key" => t!(lang, "spec-path-empty-key"),
                    "empty" => t!(lang, "spec-path-empty"),
                    other => format!("“{other}”"),
                };
                t!(lang, "spec-bad-path", path = q(path), why = why)
            }
            SpecError::EvidenceOutside(text) => {
                t!(lang, "spec-evidence-outside", text = q(text))
            }
            SpecError::NoEnglish { code } => t!(lang, "spec-no-english", code = code.to_string()),
        }
    }
}

/// A string as `{:?}` wrote it, read back: the quotes taken off and the escapes undone.
fn unquote(debug: &str) -> Option<String> {
    let inner = debug.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            'u' => {
                let hex: String = chars.by_ref().skip(1).take_while(|c| *c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of our messages, as serde passes it on, is read back as the error it was, and said
    /// in another language; a parser's own reason is not taken for one of ours.
    #[test]
    fn our_messages_are_recognized_and_said_in_the_authors_language() {
        let all = [
            SpecError::NotEvidenceRef("precedence.json".into()),
            SpecError::NotObjectRef("src-helm/Deployment".into()),
            SpecError::UnknownKind {
                reference: "a/\"Deploymnt\"/b\u{1f600}".into(),
                kind: "Deploymnt".into(),
            },
            SpecError::BadPath {
                path: "spec.[".into(),
                why: "unclosed [",
            },
            SpecError::BadPath {
                path: "spec.[\"x".into(),
                why: "unclosed [\"",
            },
            SpecError::BadPath {
                path: "".into(),
                why: "empty",
            },
            SpecError::EvidenceOutside("../../x".into()),
            SpecError::NoEnglish { code: "en" },
        ];
        for e in all {
            assert_eq!(SpecError::recognize(&e.to_string()), Some(e.clone()), "{e}");
            assert_eq!(e.say(Lang::FALLBACK), e.to_string());
            let zh = e.say(Lang::parse("zh").unwrap_or(Lang::FALLBACK));
            assert!(!zh.is_ascii(), "{zh}");
        }
        assert_eq!(
            SpecError::recognize("unknown variant `wiat`, expected one of `wait`"),
            None
        );
    }
}
