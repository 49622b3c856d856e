//! What `lint`'s findings say, in the author's language: one arm per finding.

use super::{Finding, Needs, translations};
use crate::i18n::{Lang, Say};
use crate::lab::spec::SpecError;
use crate::t;

impl Say for Needs {
    fn say(&self, lang: Lang) -> String {
        match self {
            Needs::Action(yaml) => (*yaml).to_string(),
            Needs::WriteAndPush => t!(lang, "lint-needs-write-push"),
            Needs::ApplyApp => t!(lang, "lint-needs-apply-app"),
            Needs::Hold => t!(lang, "lint-needs-hold"),
        }
    }
}

impl Say for Finding {
    // One arm per message: split, the messages would only be scattered.
    #[allow(clippy::too_many_lines)]
    fn say(&self, lang: Lang) -> String {
        let s = |x: &str| x.to_string();
        match self {
            Finding::Yaml { why } => t!(lang, "lint-yaml", why = s(why)),
            Finding::UnknownField { field, expected } => t!(
                lang,
                "lint-unknown-field",
                field = s(field),
                expected = s(expected)
            ),
            Finding::NotText => t!(lang, "lint-not-text"),
            Finding::CannotRead { why } => t!(lang, "lint-cannot-read", why = s(why)),
            Finding::Shape { part, why } => {
                let part = part.to_string();
                if let Some(e) = SpecError::recognize(why) {
                    return t!(lang, "lint-shape", part = part, why = e.say(lang));
                }
                if let Some((variant, expected)) = why
                    .strip_prefix("unknown variant `")
                    .and_then(|r| r.split_once("`, expected "))
                {
                    let choices = expected.trim_start_matches("one of ").replace('`', "");
                    return t!(
                        lang,
                        "lint-unknown-variant",
                        part = part,
                        variant = variant.to_string(),
                        choices = choices
                    );
                }
                if let Some(field) = why
                    .strip_prefix("missing field `")
                    .and_then(|r| r.strip_suffix('`'))
                {
                    return t!(
                        lang,
                        "lint-missing-field",
                        part = part,
                        field = field.to_string()
                    );
                }
                t!(
                    lang,
                    "lint-shape-parser",
                    part = part,
                    why = why.to_string()
                )
            }
            Finding::Let { why } => t!(lang, "lint-let", why = why.say(lang)),
            // A lesson whose let: names nothing has no list to offer.
            Finding::UnknownName { name, known } if known.is_empty() => {
                t!(lang, "let-unknown-none", name = s(name))
            }
            Finding::UnknownName { name, known } => {
                t!(lang, "lint-unknown-name", name = s(name), known = s(known))
            }
            Finding::LiteralValue { name, value } => {
                t!(lang, "lint-literal-value", name = s(name), value = s(value))
            }
            Finding::OldValue { name, old, new } => t!(
                lang,
                "lint-old-value",
                name = s(name),
                old = s(old),
                new = s(new)
            ),
            Finding::NoTemplate { template } => {
                t!(lang, "lint-no-template", template = s(template))
            }
            Finding::TemplateNotListed { template } => {
                t!(lang, "lint-template-not-listed", template = s(template))
            }
            Finding::NoAppFile { file } => t!(lang, "lint-no-app-file", file = s(file)),
            Finding::UnknownApp { app, known } => {
                t!(lang, "lint-unknown-app", app = s(app), known = s(known))
            }
            Finding::UnknownObject { object, known } => t!(
                lang,
                "lint-unknown-object",
                object = s(object),
                known = s(known)
            ),
            Finding::UnknownNamespace { namespace, known } => t!(
                lang,
                "lint-unknown-namespace",
                namespace = s(namespace),
                known = s(known)
            ),
            Finding::NoEvidenceField { field, file } => t!(
                lang,
                "lint-no-evidence-field",
                field = s(field),
                file = s(file)
            ),
            Finding::NoEvidenceFile { file } => t!(lang, "lint-no-evidence-file", file = s(file)),
            Finding::NotOwnEvidence { file, own } => {
                t!(lang, "lint-not-own-evidence", file = s(file), own = s(own))
            }
            Finding::NoLesson { number } => t!(lang, "lint-no-lesson", number = u32::from(*number)),
            Finding::NeedsLesson {
                what,
                lesson: Some(n),
            } => t!(
                lang,
                "lint-needs-lesson",
                what = s(what),
                lesson = u32::from(*n)
            ),
            Finding::NeedsLesson { what, lesson: None } => {
                t!(lang, "lint-needs-some-lesson", what = s(what))
            }
            Finding::Unreachable { condition, needs } => t!(
                lang,
                "lint-unreachable",
                condition = s(condition),
                needs = needs.say(lang)
            ),
            Finding::ValueDiffers { file, path, found } => t!(
                lang,
                "lint-value-differs",
                file = s(file),
                path = s(path),
                found = s(found)
            ),
            Finding::AppSpecDiffers {
                app,
                at,
                field,
                wants,
            } => t!(
                lang,
                "lint-app-spec-differs",
                app = s(app),
                at = s(at),
                field = s(field),
                wants = s(wants)
            ),
            Finding::Hint { hint, count } => t!(
                lang,
                "lint-hint",
                hint = (*hint as u64),
                count = (*count as u64)
            ),
            Finding::NoLanguage { code } => t!(lang, "lint-no-language", code = s(code)),
            Finding::Sections { code, found } => {
                t!(
                    lang,
                    "lint-sections",
                    code = s(code),
                    found = (*found as u64)
                )
            }
            Finding::MissingText { code } => t!(lang, "lint-missing-text", code = s(code)),
            Finding::Translation {
                code,
                section,
                differs,
            } => translations::Untranslated {
                code,
                section: *section,
                differs,
            }
            .say(lang),
            Finding::NoSchema { schema, path } => {
                t!(lang, "lint-no-schema", schema = s(schema), path = s(path))
            }
            Finding::NarrationGivesAway { choice, code } => t!(
                lang,
                "lint-narration-gives-away",
                choice = s(choice),
                code = s(code)
            ),
            Finding::AskedAfterItStarted { action, does } => t!(
                lang,
                "lint-asked-after-it-started",
                action = action.to_string(),
                does = s(does)
            ),
            Finding::SameNumber { number, other } => {
                t!(
                    lang,
                    "lint-same-number",
                    number = u32::from(*number),
                    other = s(other)
                )
            }
        }
    }
}
