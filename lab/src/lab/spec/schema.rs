//! The JSON Schema of `lesson.yaml`, generated from the spec types (`schemars`), so an editor that
//! reads the file's `# yaml-language-server: $schema=…` line completes and checks it. The schema
//! lives in the folder of lessons itself (`lessons/lesson.schema.json`, and the adapted lab's
//! copy), so a copied folder of lessons takes it along and every lesson's modeline is the same
//! `../lesson.schema.json`; the committed copies are kept equal to this by a test.

use super::LessonSpec;

/// The schema's file name, in a folder of lessons beside the lesson folders.
pub const SCHEMA_FILE: &str = "lesson.schema.json";

/// The modeline every `lesson.yaml` opens with: the schema in the folder of lessons.
pub const MODELINE: &str = "# yaml-language-server: $schema=../lesson.schema.json";

/// The schema, as pretty JSON with a trailing newline (the committed file's exact text).
pub fn lesson_schema_text() -> String {
    let schema = schemars::generate::SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<LessonSpec>();
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// A `${name}` where a number goes: the schema admits the reference too.
pub fn number_or_let(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "anyOf": [
            {"type": "number"},
            {"type": "string", "pattern": "^\\$\\{[A-Za-z0-9_-]+\\}$", "description": "a value named in let:"}
        ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regenerate with `cargo run -- lesson schema > lessons/lesson.schema.json` (and the same
    /// for `examples/adapted-lab/lessons/`).
    #[test]
    fn the_committed_schema_is_the_generated_one() {
        for (path, committed) in [
            (
                "lessons/lesson.schema.json",
                include_str!("../../../../lessons/lesson.schema.json"),
            ),
            (
                "examples/adapted-lab/lessons/lesson.schema.json",
                include_str!("../../../../examples/adapted-lab/lessons/lesson.schema.json"),
            ),
        ] {
            assert!(
                committed == lesson_schema_text(),
                "{path} is stale: run `cargo run -- lesson schema > {path}`"
            );
        }
    }

    /// Every field and kind the types have (each property, tag and enum value of the schema) is
    /// in docs/lessons.md, written as code.
    #[test]
    fn every_field_and_kind_is_in_the_authors_doc() {
        fn walk(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
            match v {
                serde_json::Value::Object(m) => {
                    for (k, x) in m {
                        match (k.as_str(), x) {
                            ("properties", serde_json::Value::Object(p)) => {
                                out.extend(p.keys().cloned());
                            }
                            ("const", serde_json::Value::String(c)) => {
                                out.insert(c.clone());
                            }
                            ("enum", serde_json::Value::Array(e)) => {
                                out.extend(e.iter().filter_map(|s| s.as_str().map(String::from)));
                            }
                            _ => {}
                        }
                        walk(x, out);
                    }
                }
                serde_json::Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
                _ => {}
            }
        }
        let schema: serde_json::Value = serde_json::from_str(&lesson_schema_text()).unwrap();
        let mut names = std::collections::BTreeSet::new();
        walk(&schema, &mut names);
        let doc = include_str!("../../../../docs/lessons.md");
        let missing: Vec<&String> = names
            .iter()
            .filter(|n| !doc.contains(&format!("`{n}`")))
            .collect();
        assert!(names.len() > 100, "{names:?}");
        assert!(
            missing.is_empty(),
            "docs/lessons.md does not list: {missing:?}"
        );
    }

    #[test]
    fn every_lesson_yaml_opens_with_the_modeline() {
        for (path, text) in crate::embedded::FILES {
            if path.starts_with("lessons/") && path.ends_with("/lesson.yaml") {
                assert_eq!(text.lines().next(), Some(MODELINE), "{path}");
            }
        }
        assert!(
            crate::embedded::FILES
                .iter()
                .any(|(path, _)| *path == format!("lessons/{SCHEMA_FILE}")),
            "the schema the modeline names is in lessons/"
        );
    }
}
