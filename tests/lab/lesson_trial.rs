//! `capa-tui lesson test` as an instructor meets it when something is wrong: a lesson whose
//! rules let broken evidence through, a lesson that does not lint, and one lesson tried with
//! only the lessons it requires. (The whole lab passing is in `lessons.rs`.)

use std::path::{Path, PathBuf};

use super::lessons::{capa, text};

/// Copies the built-in lesson folders whose names start with `numbers` into `dir/lessons`, with
/// the schema their modelines name (lint reports a modeline whose schema is not there).
fn copied_lessons(dir: &Path, numbers: &[&str]) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let to = dir.join("lessons");
    std::fs::create_dir_all(&to).unwrap();
    std::fs::copy(
        from.join("lesson.schema.json"),
        to.join("lesson.schema.json"),
    )
    .unwrap();
    for e in std::fs::read_dir(&from).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !numbers.iter().any(|n| name.starts_with(n)) {
            continue;
        }
        std::fs::create_dir_all(to.join(&name)).unwrap();
        for f in std::fs::read_dir(e.path()).unwrap().flatten() {
            std::fs::copy(f.path(), to.join(&name).join(f.file_name())).unwrap();
        }
    }
    to
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// Lesson 2 with its greeting no longer compared with the cluster: nothing refuses a greeting
/// one off, so the test fails, names the field and what to do, and keeps the lab to look at.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_whose_rules_let_broken_evidence_through_fails_its_test() {
    let dir = tempfile::tempdir().unwrap();
    let lessons = copied_lessons(dir.path(), &["01-", "02-"]);
    edit(
        &lessons.join("02-precedence/lesson.yaml"),
        "    - name: greeting\n      type: string\n      live: true\n",
        "    - name: greeting\n      type: string\n",
    );
    let state = dir.path().join("state");
    let out = capa(&state, &["lesson", "test", lessons.to_str().unwrap()]).await;
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("✗ accepts greeting one off (\"from-parametes\"): nothing in lesson 2's lesson.yaml refuses it; mark the field live: true, or add a rule that pins it"),
        "{said}"
    );
    // What is still checked is still refused.
    assert!(said.contains("✓ refuses replicas one off (4)"), "{said}");
    assert!(
        said.contains("✓ refuses greeting of the wrong type (null)"),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "The lab is kept for a look: capa-tui --sim --state-dir {}",
            state.display()
        )),
        "{said}"
    );
    let summary = said
        .lines()
        .find(|l| l.contains("broken evidence refused"))
        .unwrap();
    assert!(summary.starts_with("✗ 2 lessons"), "{summary}");
    // The good evidence is back in place after every broken copy.
    let kept: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(state.join("capa-src/precedence.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(kept["greeting"], "from-parameter");
    assert_eq!(kept["replicas"], 3);
}

/// A lesson that does not lint is reported at its file and line, and no cluster starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_that_does_not_lint_is_named_and_no_cluster_starts() {
    let dir = tempfile::tempdir().unwrap();
    let lessons = copied_lessons(dir.path(), &["01-"]);
    edit(
        &lessons.join("01-helm-chart/lesson.yaml"),
        "slug: helm-chart\n",
        "slug: helm-chart\nsulg: typo\n",
    );
    let state = dir.path().join("state");
    let out = capa(&state, &["lesson", "test", lessons.to_str().unwrap()]).await;
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("01-helm-chart/lesson.yaml:4:"), "{said}");
    assert!(said.contains("unknown field sulg"), "{said}");
    assert!(
        said.contains("the lessons do not lint clean: fix the problems above, then test again"),
        "{said}"
    );
    assert!(!state.exists(), "no lab was started: {said}");
}

/// One lesson is tried with what it builds on: lesson 7 runs after lessons 1 and 4, and no
/// other lesson runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_lesson_is_tried_with_the_lessons_it_requires() {
    let dir = tempfile::tempdir().unwrap();
    let lessons = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let state = dir.path().join("state");
    let out = capa(&state, &["lesson", "test", lessons.to_str().unwrap(), "7"]).await;
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let ran: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("== Lesson "))
        .map(|l| &l[..11])
        .collect();
    assert_eq!(ran, ["== Lesson 1", "== Lesson 4", "== Lesson 7"], "{said}");
    assert!(
        said.contains("✓ lesson 7: the self-check passes (ignore.json)"),
        "{said}"
    );
    // Each step is timed.
    assert!(
        said.lines()
            .any(|l| l.contains("wait 40 s after scaling prod-api · ") && l.contains(" s · ")),
        "{said}"
    );
}

/// `lesson lint` and `lesson test` of an example folder of this repository (its `lessons/` with
/// its `repo-template/`), on a lab in `state`: what each said, once both passed.
pub(super) async fn lint_and_test(example: &str, state: &Path) -> (String, String) {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join(example);
    let (lessons, templates) = (example.join("lessons"), example.join("repo-template"));
    let (lessons, templates) = (lessons.to_str().unwrap(), templates.to_str().unwrap());
    let out = capa(
        state,
        &["lesson", "lint", lessons, "--templates", templates],
    )
    .await;
    let linted = text(&out);
    assert!(out.status.success(), "{linted}");
    let out = capa(
        state,
        &["lesson", "test", lessons, "--templates", templates],
    )
    .await;
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(!said.contains('✗'), "{said}");
    (linted, said)
}

/// `examples/adapted-lab`: the whole lab renamed and re-valued with no code change lints clean
/// and passes its test, graded by its own values (4 replicas, its own greeting, 5 scaled).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_adapted_lab_in_examples_lints_and_passes_its_test() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let (linted, said) = lint_and_test("examples/adapted-lab", &state).await;
    assert!(linted.contains("8 lessons, no problems"), "{linted}");
    assert!(
        said.contains("== Lesson 4 · Git says 1.26, the cluster says 1.29"),
        "{said}"
    );
    let evidence = |file: &str| super::lessons::evidence(&state, file);
    let precedence = evidence("precedence.json");
    assert_eq!(precedence["replicas"], 4);
    assert_eq!(precedence["greeting"], "hello-from-a-parameter");
    assert_eq!(
        evidence("tracking.json")["tracking_annotation"],
        "shop-web:/ConfigMap:shop-web/shop-web-greeting"
    );
    assert_eq!(evidence("failed-hook.json")["live_mode"], "steady");
    assert_eq!(evidence("ignore.json")["replicas"], 5);
    assert!(state.join("bare/shop.git").is_dir());
}

/// `lesson new`'s skeleton, alone in a folder, passes `lesson test`: an author starts from a
/// lesson that runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_lessons_skeleton_passes_its_test() {
    let dir = tempfile::tempdir().unwrap();
    let lessons = dir.path().join("lessons");
    std::fs::create_dir_all(&lessons).unwrap();
    let state = dir.path().join("state");
    let l = lessons.to_str().unwrap();
    let out = capa(&state, &["lesson", "new", "09-greeting", "--dir", l]).await;
    assert!(out.status.success(), "{}", text(&out));
    let out = capa(&state, &["lesson", "test", l]).await;
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("Testing one lesson from"), "{said}");
    assert!(said.contains("✓ 1 lesson · 7 steps in"), "{said}");
    assert!(said.contains("broken evidence refused 2 of 2"), "{said}");
}

/// The adapted lab's texts, as a learner reads them in each language (Steps, Hints, Common
/// mistakes and the By-hand commands `y` types), say its own values: none of the original
/// lab's values that it changed is left (instructor-4: a learner following the texts failed
/// `check 2`, and lesson 8's by-hand script wrote nulls).
#[test]
fn the_adapted_labs_texts_say_its_own_values_in_every_language() {
    use capa_tui::i18n::Lang;
    use capa_tui::lab::catalog::{Catalog, Section};
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/adapted-lab");
    let catalog = Catalog::load(
        Some(&example.join("lessons")),
        Some(&example.join("repo-template")),
    )
    .unwrap();
    // The original lab's values the adapted one changed (its README's table).
    let original = [
        "charts/web",
        "chart-default",
        "from-values-file",
        "from-values-object",
        "from-parameter",
        "replicaCount: 3",
        "nginx:1.27",
        "nginx:1.28",
        "1.27",
        "1.28",
        "mode: blue",
        "mode: green",
        "`blue`",
        "`green`",
        "--replicas=4",
        "\"3\": \"valuesObject\"",
    ];
    let found = said_anywhere(&catalog, &original);
    assert!(found.is_empty(), "{}", found.join("\n"));
    // And the values it chose are what the texts say.
    let by_hand = catalog.lessons()[7]
        .text(Lang::FALLBACK)
        .section(Section::ByHand);
    assert!(
        by_hand.contains("\"4\": \"valuesObject\"") && by_hand.contains("hello-from-a-parameter"),
        "{by_hand}"
    );
}

/// The class behind the adapted lab: capa-tui's own lessons, loaded with templates whose
/// values changed (nothing else), say the new values everywhere a learner reads or `y` types.
/// Each text names its values through `${…}`, so no edit of the lessons is needed.
#[test]
fn the_lessons_texts_follow_changed_template_values() {
    use capa_tui::i18n::Lang;
    use capa_tui::lab::catalog::{Catalog, Section};
    let dir = tempfile::tempdir().unwrap();
    let templates = copy_of_the_templates(dir.path());
    // (file, original value, new value): every value a lesson's texts state.
    let changes = [
        (
            "01-helm-chart/repo/charts/web/values.yaml",
            "chart-default",
            "hello-chart",
        ),
        (
            "01-helm-chart/repo/charts/web/values-prod.yaml",
            "from-values-file",
            "hello-file",
        ),
        (
            "02-precedence/app-src-helm.yaml",
            "from-values-object",
            "hello-object",
        ),
        (
            "02-precedence/app-src-helm.yaml",
            "from-parameter",
            "hello-parameter",
        ),
        (
            "02-precedence/app-src-helm.yaml",
            "replicaCount: 3",
            "replicaCount: 6",
        ),
        (
            "04-kustomize-image/app-src-kust.yaml",
            "nginx:1.28-alpine",
            "nginx:1.29-alpine",
        ),
        (
            "07-ignore-differences/app-src-kust.yaml",
            "nginx:1.28-alpine",
            "nginx:1.29-alpine",
        ),
        (
            "06-failed-hook/repo/waves/config.yaml",
            "mode: green",
            "mode: canary",
        ),
        (
            "05-waves-hooks/repo/waves/config.yaml",
            "mode: blue",
            "mode: steady",
        ),
    ];
    for (file, from, to) in changes {
        let path = templates.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has {from}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
    }
    let catalog = Catalog::load(None, Some(&templates)).unwrap();
    let gone = [
        "chart-default",
        "from-values-file",
        "from-values-object",
        "from-parameter",
        "replicaCount: 3",
        "nginx:1.28",
        "1.28",
        "mode: green",
        "mode: blue",
        "`green`",
        "`blue`",
    ];
    let found = said_anywhere(&catalog, &gone);
    assert!(found.is_empty(), "{}", found.join("\n"));
    let report = catalog.lessons()[7]
        .text(Lang::parse("ko").unwrap())
        .section(Section::ByHand);
    assert!(
        report.contains("\"6\": \"valuesObject\"")
            && report.contains("\"hello-parameter\": \"parameters\""),
        "{report}"
    );
}

/// The built-in templates, copied into `dir/templates` for a test to change.
fn copy_of_the_templates(dir: &Path) -> std::path::PathBuf {
    let templates = dir.join("templates");
    let status = std::process::Command::new("cp")
        .arg("-r")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("repo-template"))
        .arg(&templates)
        .status()
        .unwrap();
    assert!(status.success());
    templates
}

/// Where any of `values` is said in the catalog's texts, each section of each lesson in each
/// language, as `lesson N <lang>.md <Section>: <value>`.
fn said_anywhere(catalog: &capa_tui::lab::catalog::Catalog, values: &[&str]) -> Vec<String> {
    use capa_tui::i18n::Lang;
    use capa_tui::lab::catalog::Section;
    use strum::IntoEnumIterator;
    let mut found = Vec::new();
    for lesson in catalog.lessons() {
        for &lang in Lang::all() {
            for section in Section::iter() {
                let text = lesson.text(lang).section(section);
                for value in values.iter().filter(|v| text.contains(*v)) {
                    found.push(format!(
                        "lesson {} {}.md {section:?}: {value}",
                        lesson.spec.number,
                        lang.code()
                    ));
                }
            }
        }
    }
    found
}

/// Names are values too: rename the lab's Applications, their namespaces (each its own name,
/// not the Application's) and its bare repo in the templates alone, and capa-tui's own lessons
/// (their texts in every language, checks, plans and the objects they read) follow, lint clean
/// and pass their test. The lessons say every name
/// through `let:`; an instructor chooses the scheme where the Applications are defined.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lessons_follow_applications_renamed_in_the_templates() {
    use capa_tui::lab::catalog::{Catalog, Section};
    use strum::IntoEnumIterator;
    let dir = tempfile::tempdir().unwrap();
    let templates = copy_of_the_templates(dir.path());
    let renamed = [
        ("src-helm", "team1-web"),
        ("src-kust", "team1-api"),
        ("src-waves", "team1-jobs"),
    ];
    for template in std::fs::read_dir(&templates).unwrap().flatten() {
        for file in std::fs::read_dir(template.path()).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            if !(name.starts_with("app-") && name.ends_with(".yaml")) {
                continue;
            }
            let mut text = std::fs::read_to_string(file.path()).unwrap();
            for (from, to) in renamed {
                text = text.replace(&format!("name: {from}\n"), &format!("name: {to}\n"));
                text = text.replace(
                    &format!("namespace: {from}\n"),
                    &format!("namespace: {to}-ns\n"),
                );
            }
            text = text.replace("9418/src.git", "9418/team1.git");
            std::fs::write(file.path(), text).unwrap();
        }
    }
    let catalog = Catalog::load(None, Some(&templates)).unwrap();
    assert_eq!(catalog.apps(), ["team1-web", "team1-api", "team1-jobs"]);
    // No lesson says an old name anywhere but in its Application's file name, which the
    // templates keep (`app-src-helm.yaml`).
    let old = |text: &str| -> bool {
        let mut text = text.to_string();
        for (from, _) in renamed {
            text = text.replace(&format!("app-{from}.yaml"), "");
        }
        renamed.iter().any(|(from, _)| text.contains(from)) || text.contains("src.git")
    };
    for lesson in catalog.lessons() {
        assert!(
            !old(&format!("{:?}", lesson.spec)),
            "lesson {}: {:#?}",
            lesson.spec.number,
            lesson.spec
        );
        for &lang in capa_tui::i18n::Lang::all() {
            for section in Section::iter() {
                let text = lesson.text(lang).section(section);
                assert!(
                    !old(&text),
                    "lesson {} {} {section:?}: {text}",
                    lesson.spec.number,
                    lang.code()
                );
            }
        }
    }
    let by_hand = catalog.lessons()[1]
        .text(capa_tui::i18n::Lang::FALLBACK)
        .section(Section::ByHand);
    assert!(by_hand.contains("-n team1-web-ns"), "{by_hand}");
    assert!(!by_hand.contains("-n team1-web "), "{by_hand}");
    let first = catalog.lessons()[0]
        .text(capa_tui::i18n::Lang::FALLBACK)
        .section(Section::ByHand);
    assert!(
        first.contains("{bare_dir}/team1.git") || first.contains("/team1.git"),
        "{first}"
    );
    // And the renamed lab runs: every plan, every check, on a fresh embedded cluster.
    let state = dir.path().join("state");
    let lessons = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let (l, t) = (lessons.to_str().unwrap(), templates.to_str().unwrap());
    let out = capa(&state, &["lesson", "lint", l, "--templates", t]).await;
    assert!(out.status.success(), "{}", text(&out));
    let out = capa(&state, &["lesson", "test", l, "--templates", t]).await;
    let said = text(&out);
    assert!(out.status.success() && !said.contains("✗"), "{said}");
    assert!(
        state.join("bare/team1.git").is_dir(),
        "the renamed bare repo is the one made"
    );
}
