//! Texts that follow the values: literals, unknown names and old values found in `<lang>.md`.

use std::path::Path;

use crate::lab::lint::lint;
use crate::lab::lint::tests::{lessons, said};

/// The built-in lessons with `edits`, linted with `templates` (the built-in ones if `None`).
fn linted(edits: &[(&str, &str, &str)], templates: Option<&Path>) -> String {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(dir.path(), edits);
    said(&lint(&root, templates).unwrap()).join("\n")
}

/// The shipped lessons say every value through `${…}`: nothing to report.
#[test]
fn the_shipped_texts_state_no_value_literally() {
    let all = linted(&[], None);
    assert!(!all.contains("this text"), "{all}");
}

/// A value typed into a text instead of `${name}` is found where it is, in any language:
/// a value-like text anywhere, a number beside its key, a plain word as a setting's value.
#[test]
fn a_value_spelled_out_in_a_text_is_found_with_its_name() {
    let all = linted(
        &[
            (
                "02-precedence/en.md",
                "`replicaCount: ${replicas}`",
                "`replicaCount: 3`",
            ),
            (
                "04-kustomize-image/zh.md",
                "`${override}`",
                "`nginx=nginx:1.28-alpine`",
            ),
            ("06-failed-hook/ko.md", "`${new_mode}`", "`green`"),
            ("06-failed-hook/en.md", "mode: ${old_mode}/", "mode: blue/"),
        ],
        None,
    );
    for expected in [
        "02-precedence/en.md:20:",
        "spells out 3, which let.replicas reads from the templates: write ${replicas}",
        "04-kustomize-image/zh.md:",
        "spells out nginx=nginx:1.28-alpine, which let.override",
        "06-failed-hook/en.md:43:",
        "spells out blue, which let.old_mode",
    ] {
        assert!(all.contains(expected), "{expected:?} in:\n{all}");
    }
    // `green` alone (not `mode: green`) is the lab's vocabulary, not a stated value.
    assert!(!all.contains("spells out green"), "{all}");
}

/// A number that is not beside the value's name (`step 3`, `(default 0`) is left alone, and a
/// Korean particle after a value does not hide it (`1.28로`).
#[test]
fn numbers_count_only_beside_their_key_and_particles_do_not_hide_values() {
    let all = linted(
        &[
            (
                "02-precedence/en.md",
                "wait until the sync is done.",
                "wait 3 minutes.",
            ),
            ("04-kustomize-image/ko.md", "${tag}로", "1.28로"),
        ],
        None,
    );
    assert!(!all.contains("02-precedence/en.md"), "{all}");
    assert!(
        all.contains("04-kustomize-image/ko.md") && all.contains("spells out 1.28, which let.tag"),
        "{all}"
    );
    // Only a whole key counts: `replicas` is not the end of `maxReplicas` nor the start of
    // `replicasets`.
    let all = linted(
        &[(
            "02-precedence/en.md",
            "wait until the sync is done.",
            "set maxReplicas: 3, or count 3 replicasets.",
        )],
        None,
    );
    assert!(!all.contains("spells out 3"), "{all}");
}

/// `${typo}` in a `.md` is reported at its line and column (it had linted clean, and the
/// catalog then refused to load the lesson).
#[test]
fn an_unknown_name_in_a_text_is_found() {
    let all = linted(
        &[("02-precedence/zh.md", "${replicas}", "${replica}")],
        None,
    );
    assert!(
        all.contains("02-precedence/zh.md:") && all.contains("${replica} is not named in let:"),
        "{all}"
    );
}

/// Linted with templates that set other values, a text that still spells the built-in value
/// is found with both values: the instructor changed the templates and forgot the text.
#[test]
fn a_text_that_still_says_the_built_in_value_is_found_against_other_templates() {
    let dir = tempfile::tempdir().unwrap();
    let templates = dir.path().join("templates");
    for (path, text) in crate::embedded::FILES {
        if let Some(rel) = path.strip_prefix("repo-template/") {
            crate::lab::files::write_atomic(&templates.join(rel), text).unwrap();
        }
    }
    let app = templates.join("02-precedence/app-src-helm.yaml");
    let text = std::fs::read_to_string(&app).unwrap();
    assert!(text.contains("replicaCount: 3"));
    std::fs::write(&app, text.replace("replicaCount: 3", "replicaCount: 4")).unwrap();
    let all = linted(
        &[(
            "02-precedence/ko.md",
            "`replicaCount: ${replicas}`",
            "`replicaCount: 3`",
        )],
        Some(&templates),
    );
    assert!(
        all.contains("02-precedence/ko.md:")
            && all.contains("still says 3, as the built-in templates set it, but these templates set 4: write ${replicas}"),
        "{all}"
    );
}
