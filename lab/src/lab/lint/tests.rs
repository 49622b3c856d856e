//! The lint's tests: every problem a broken lesson folder can have, found and said.
use super::*;

/// The built-in lessons, written out to `dir/lessons`, with `edits` (file, from, to) made.
pub(super) fn lessons(dir: &Path, edits: &[(&str, &str, &str)]) -> PathBuf {
    let root = dir.join("lessons");
    for (path, text) in crate::embedded::FILES {
        if let Some(rel) = path.strip_prefix("lessons/") {
            crate::lab::files::write_atomic(&root.join(rel), text).unwrap();
        }
    }
    for (file, from, to) in edits {
        let p = root.join(file);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(from), "{file} has no {from:?}");
        std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    }
    root
}

pub(super) fn said(report: &Report) -> Vec<String> {
    report
        .problems
        .iter()
        .map(|p| {
            let file = p
                .file
                .strip_prefix(p.file.ancestors().nth(2).unwrap())
                .unwrap();
            format!(
                "{}:{}:{}: {}",
                file.display(),
                p.at.line,
                p.at.column,
                p.finding.say(Lang::FALLBACK)
            )
        })
        .collect()
}

/// A `${name}` in a lesson whose `let:` names nothing says so, instead of an empty list.
#[test]
fn a_name_in_a_lesson_without_let_says_let_names_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(dir.path(), &[]);
    let p = root.join("01-helm-chart/lesson.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    let (start, end) = (
        text.find("let:\n").unwrap(),
        text.find("checklist:").unwrap(),
    );
    std::fs::write(&p, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let all = said(&lint(&root, None).unwrap()).join("\n");
    assert!(
        all.contains("${chart_name}: no such value; let: names nothing"),
        "{all}"
    );
    assert!(!all.contains("(it names: )"), "{all}");
}

#[test]
fn the_lab_lints_clean() {
    let dir = tempfile::tempdir().unwrap();
    let report = lint(&lessons(dir.path(), &[]), None).unwrap();
    assert!(report.problems.is_empty(), "{}", said(&report).join("\n"));
    assert_eq!(report.lessons, 8);
}

/// Every kind of mistake in one folder: all reported at once, each at its line and column.
#[test]
fn a_broken_lab_is_reported_all_at_once_with_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(
        dir.path(),
        &[
            (
                "02-precedence/lesson.yaml",
                "app: \"${helm_app}\"\n",
                "app: src-helmm\n",
            ),
            (
                "02-precedence/lesson.yaml",
                "  live_hint: 2\n",
                "  live_hint: 2\n  colour: red\n",
            ),
            (
                "02-precedence/lesson.yaml",
                "equals: \"${replicas}\"}}",
                "equals: \"${replica}\"}}",
            ),
            (
                "04-kustomize-image/lesson.yaml",
                "equals: \"${base_replicas}\"}",
                "equals: 5}",
            ),
            (
                "04-kustomize-image/lesson.yaml",
                "{do: wait, app: \"${kust_app}\"",
                "{do: wiat, app: \"${kust_app}\"",
            ),
            (
                "05-waves-hooks/lesson.yaml",
                "{do: wait, app: \"${waves_app}\", until: succeeded",
                "{do: wait, app: \"${waves_app}\", until: synced-healthy",
            ),
            (
                "07-ignore-differences/lesson.yaml",
                "fields: [scaled_at, checked_at], hint: 4}",
                "fields: [scaled_at, checkd_at], hint: 9}",
            ),
            (
                "08-report/lesson.yaml",
                "  - {lesson: 2, done_when: {evidence-exists: precedence.json}}\n",
                "",
            ),
            (
                "01-helm-chart/lesson.yaml",
                "template: 01-helm-chart, say",
                "template: 01-helm-chrt, say",
            ),
            (
                "03-tracking/lesson.yaml",
                "focus: \"${helm_ns}/ConfigMap/${helm_app}-greeting\"",
                "focus: \"${helm_ns}/ConfigMap/${helm_app}-greting\"",
            ),
            (
                "05-waves-hooks/lesson.yaml",
                "object: \"${waves_ns}/Deployment/app\", condition: Available, hint: 3}",
                "object: \"${waves_ns}/Deployment/ap\", condition: Available, hint: 3}",
            ),
        ],
    );
    std::fs::remove_file(root.join("03-tracking/ko.md")).unwrap();
    let report = lint(&root, None).unwrap();
    let all = said(&report).join("\n");
    for want in [
        "02-precedence/lesson.yaml:8:6: no template defines an Application named src-helmm",
        "02-precedence/lesson.yaml:42:3: unknown field colour: remove it or write one of: file, fields, live_hint, rules",
        "${replica} is not named in let:",
        "03-tracking/ko.md:1:1: no ko.md",
        "04-kustomize-image/lesson.yaml:47:80: the lesson's templates set spec.replicas of kust/base/deployment.yaml to 1",
        "unknown variant `wiat`",
        "05-waves-hooks/lesson.yaml:88:5: no action of the plan can make succeeded: src-waves true: add do: wait (until: succeeded)",
        "07-ignore-differences/lesson.yaml:37:48: ignore.json has no field checkd_at",
        "hint 9: the English text has 4 hints",
        "08-report/lesson.yaml:",
        "this lesson uses precedence.json, which lesson 2 makes: add {lesson: 2, done_when: …} to requires:",
        "there is no template folder 01-helm-chrt",
        "03-tracking/lesson.yaml:9:8: no Application of the templates deploys src-helm/ConfigMap/src-helm-greting (of that kind there they deploy: src-helm/ConfigMap/src-helm-greeting)",
        "no Application of the templates deploys src-waves/Deployment/ap (of that kind there they deploy: src-waves/Deployment/app)",
    ] {
        assert!(all.contains(want), "no {want:?} in:\n{all}");
    }
    assert!(report.problems.len() >= 12, "{all}");
}

/// In Chinese and Korean, the author reads every sentence of lint's own in that language:
/// `let:` errors, our reasons inside serde's message, an unknown variant, a missing action.
/// What stays English is the YAML (`do: wait`, `until:`) and the parser's own reason, quoted.
#[test]
fn a_broken_lab_is_said_in_the_authors_language() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(
        dir.path(),
        &[
            (
                "01-helm-chart/lesson.yaml",
                "Chart.yaml, path: name}",
                "Chart.yaml, path: nme}",
            ),
            (
                "01-helm-chart/lesson.yaml",
                "{file: repo/charts/web/Chart.yaml, path: version}",
                "{file: repo/charts/web/Chrt.yaml, path: version}",
            ),
            (
                "01-helm-chart/lesson.yaml",
                "path: metadata.name, equals: \"${helm_app}-greeting\"",
                "path: 'metadata.[name', equals: \"${helm_app}-greeting\"",
            ),
            (
                "04-kustomize-image/lesson.yaml",
                "{do: wait, app: \"${kust_app}\"",
                "{do: wiat, app: \"${kust_app}\"",
            ),
            (
                "05-waves-hooks/lesson.yaml",
                "{do: wait, app: \"${waves_app}\", until: succeeded",
                "{do: wait, app: \"${waves_app}\", until: synced-healthy",
            ),
        ],
    );
    let report = lint(&root, None).unwrap();
    let english = [
        "has nothing at",
        "has no file",
        "unclosed",
        "unknown variant",
        "no action of the plan",
        "not named in let",
    ];
    for code in ["zh", "ko"] {
        let lang = Lang::parse(code).unwrap();
        let all: Vec<String> = report.problems.iter().map(|p| p.line(lang)).collect();
        let all = all.join("\n");
        assert!(report.problems.len() >= 6, "{all}");
        for words in english {
            assert!(!all.contains(words), "{code}: {words:?} in:\n{all}");
        }
        assert!(all.contains("do: wait (until: succeeded)"), "{all}");
    }
}

#[test]
fn a_yaml_syntax_error_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(
        dir.path(),
        &[(
            "03-tracking/lesson.yaml",
            "app: \"${helm_app}\"\n",
            "app: [src-helm\n",
        )],
    );
    let report = lint(&root.join("03-tracking/lesson.yaml"), None).unwrap();
    let all = said(&report).join("\n");
    assert!(all.contains("03-tracking/lesson.yaml:"), "{all}");
    assert!(all.contains("not YAML"), "{all}");
    assert_eq!(report.lessons, 1);
}

/// Narration on screen while step mode asks a question, naming one of its answers, is found in
/// every language it is written in; a count stated as an input ("replicaCount 3") is not.
#[test]
fn narration_that_names_an_answer_while_the_question_is_asked_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(
        dir.path(),
        &[
            (
                "06-failed-hook/lesson.yaml",
                "the PreSync hook runs before anything else.\"",
                "settings stays mode: ${old_mode}.\"",
            ),
            (
                "02-precedence/lesson.yaml",
                "Apply it. Watch Values provenance: the winning layer moves up.",
                "Apply it: ${parameter_greeting} wins.",
            ),
        ],
    );
    let all = said(&lint(&root, None).unwrap());
    let about = |lesson: &str| {
        all.iter()
            .filter(|l| l.starts_with(lesson) && l.contains("names one of its answers"))
            .cloned()
            .collect::<Vec<_>>()
    };
    let six = about("06-failed-hook");
    assert_eq!(six.len(), 1, "{all:#?}");
    assert!(six[0].contains("(mode: blue, in en)"), "{six:?}");
    let two = about("02-precedence");
    assert_eq!(two.len(), 1, "{all:#?}");
    assert!(two[0].contains("from-parameter"), "{two:?}");
    assert_eq!(all.len(), 2, "nothing else, and no number: {all:#?}");
}

/// A question asked after an earlier action already set off the sync that answers it is found
/// (lesson 6 once asked what settings reads after the hard refresh had started the failing
/// sync, with the timeline showing it); one asked at that action, or after a scale, is not.
#[test]
fn a_question_asked_after_its_answer_was_set_going_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(
        dir.path(),
        &[(
            "06-failed-hook/lesson.yaml",
            "    until: operation-failed\n",
            "    until: operation-failed\n    ask: {question: {en: \"Which?\", zh: \"哪个？\", ko: \"어느 것?\"}, choices: [one, two], reveal: {field: {object: src-waves/ConfigMap/settings, path: data.mode}}}\n",
        )],
    );
    let report = lint(&root, None).unwrap();
    let all = said(&report);
    let found: Vec<_> = all
        .iter()
        .filter(|l| l.contains("after action 3 (hard-refresh) set off the sync"))
        .collect();
    assert_eq!(found.len(), 1, "{all:#?}");
    assert!(
        found[0].starts_with("06-failed-hook/lesson.yaml:103:5:"),
        "at the asking action: {found:?}"
    );
    assert_eq!(all.len(), 1, "the lessons as shipped ask in time: {all:#?}");
}

/// A lesson pack whose evidence file leads out of the source dir (`../`, an absolute path) is
/// refused by lint, in the author's language, and by loading: `do` once wrote JSON over a
/// binary outside the lab (reliability-4 D5).
#[test]
fn an_evidence_path_out_of_the_source_dir_is_refused_by_lint_and_load() {
    for hostile in ["../../../x.json", "/tmp/victim-bin"] {
        let dir = tempfile::tempdir().unwrap();
        let root = lessons(
            dir.path(),
            &[(
                "02-precedence/lesson.yaml",
                "  file: precedence.json\n",
                &format!("  file: {hostile}\n"),
            )],
        );
        let report = lint(&root, None).unwrap();
        let all = said(&report).join("\n");
        assert!(
            all.contains("02-precedence/lesson.yaml:40:")
                && all.contains("leads out of the source dir"),
            "{hostile}: {all}"
        );
        for (code, words) in [("zh", "指向源目录之外"), ("ko", "소스 디렉터리 밖을")]
        {
            let lang = Lang::parse(code).unwrap();
            let said: Vec<String> = report.problems.iter().map(|p| p.line(lang)).collect();
            assert!(said.join("\n").contains(words), "{code}: {said:?}");
        }
        let loaded = crate::lab::catalog::Catalog::load(Some(&root), None);
        let why = loaded.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            why.contains("leads out of the source dir"),
            "{hostile}: {why}"
        );
    }
}

/// A field an evidence action records at one moment is one the file has: a misspelt one is
/// found where it is written, with the file it is missing from.
#[test]
fn an_evidence_action_recording_an_unknown_field_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(
        dir.path(),
        &[(
            "02-precedence/lesson.yaml",
            "{do: evidence, file: precedence.json, say:",
            "{do: evidence, file: precedence.json, fields: [replicas, greetin], say:",
        )],
    );
    let all = said(&lint(&root, None).unwrap()).join("\n");
    assert!(
        all.contains("02-precedence/lesson.yaml:76:")
            && all.contains("precedence.json has no field greetin"),
        "{all}"
    );
    assert!(!all.contains("no field replicas"), "{all}");
}

/// The built-in templates, written out to `dir/templates`, with `edits` (file, from, to) made
/// to every file whose path ends with `file`.
fn templates(dir: &Path, edits: &[(&str, &str, &str)]) -> PathBuf {
    let root = dir.join("templates");
    for (path, text) in crate::embedded::FILES {
        if let Some(rel) = path.strip_prefix("repo-template/") {
            let mut text = text.to_string();
            for (file, from, to) in edits {
                if rel.ends_with(file) {
                    text = text.replace(from, to);
                }
            }
            crate::lab::files::write_atomic(&root.join(rel), &text).unwrap();
        }
    }
    root
}

/// Instructor trial 4, problem 9: after a namespace was renamed in the templates, lint showed
/// one place per lesson per run, and blamed a missing apply-app for an app-spec whose
/// apply-app was there. The shipped lessons now read the namespace from the templates and
/// follow it; a lesson that writes the old one out (an instructor's own) is reported at every
/// place in one run, and the cause is the field.
#[test]
fn a_renamed_namespace_is_reported_at_every_place_with_the_right_cause() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(dir.path(), &[]);
    let renamed = templates(
        dir.path(),
        &[(
            "app-src-helm.yaml",
            "namespace: src-helm",
            "namespace: greeter",
        )],
    );
    let all = said(&lint(&root, Some(&renamed)).unwrap());
    assert!(all.is_empty(), "the shipped lessons follow: {all:#?}");
    // The namespace written out where the lessons say ${helm_ns}.
    for lesson in ["01-helm-chart", "02-precedence", "03-tracking", "08-report"] {
        let file = root.join(lesson).join("lesson.yaml");
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, text.replace("${helm_ns}", "src-helm")).unwrap();
    }
    let tpl = templates(
        dir.path(),
        &[(
            "app-src-helm.yaml",
            "namespace: src-helm",
            "namespace: greeter",
        )],
    );
    let all = said(&lint(&root, Some(&tpl)).unwrap());
    let at = |lesson: &str| {
        all.iter()
            .filter(|l| l.starts_with(lesson) && l.contains("namespace src-helm"))
            .count()
    };
    // 01: focus, has: destination, two checks; 02: focus, two values keys, two evidence fields,
    // a check, two reveals; 03: focus, a count, two fields; 08: an exists.
    assert_eq!(
        [at("01-"), at("02-"), at("03-"), at("08-")],
        [4, 8, 4, 1],
        "{all:#?}"
    );
    assert!(
        all.iter()
            .any(|l| l.starts_with("01-helm-chart/lesson.yaml:61:14:")
                && l.contains("does not have destination.namespace: src-helm")),
        "{all:#?}"
    );
    assert!(
        !all.iter().any(|l| l.contains("no action of the plan")),
        "the apply-app is there: {all:#?}"
    );
}

/// Two different wrong names in one lesson, one of them written twice: all three places in one
/// run.
#[test]
fn every_wrong_name_of_a_lesson_is_reported_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(
        dir.path(),
        &[
            (
                "03-tracking/lesson.yaml",
                "focus: \"${helm_ns}/ConfigMap/${helm_app}-greeting\"",
                "focus: \"${helm_ns}/ConfigMap/${helm_app}-greting\"",
            ),
            (
                "03-tracking/lesson.yaml",
                "object: \"${helm_ns}/ConfigMap/${helm_app}-greeting\"",
                "object: \"${helm_ns}/ConfigMap/${helm_app}-greting\"",
            ),
            (
                "03-tracking/lesson.yaml",
                "app: \"${helm_app}\"\n",
                "app: src-helmm\n",
            ),
        ],
    );
    let all = said(&lint(&root, None).unwrap());
    let greting: Vec<&String> = all
        .iter()
        .filter(|l| l.contains("src-helm-greting ("))
        .collect();
    assert_eq!(greting.len(), 2, "{all:#?}");
    assert!(
        greting[0].starts_with("03-tracking/lesson.yaml:9:8:"),
        "{all:#?}"
    );
    assert!(
        greting[1].starts_with("03-tracking/lesson.yaml:33:"),
        "{all:#?}"
    );
    assert!(
        all.iter()
            .any(|l| l.starts_with("03-tracking/lesson.yaml:8:6:")
                && l.contains("Application named src-helmm")),
        "{all:#?}"
    );
}

/// Instructor trial 4, problem 10: a copied lesson whose modeline names a schema that is not
/// there is reported at the schema's path, with the command that writes it, in every language;
/// with the schema beside the lessons (as `lessons/` ships it) nothing is.
#[test]
fn a_modeline_whose_schema_is_not_there_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(dir.path(), &[]);
    assert!(
        root.join("lesson.schema.json").is_file(),
        "lessons/ holds it"
    );
    std::fs::remove_file(root.join("lesson.schema.json")).unwrap();
    let report = lint(&root, None).unwrap();
    let all = said(&report);
    assert_eq!(all.len(), 8, "one per lesson.yaml: {all:#?}");
    let schema = root.join("lesson.schema.json").display().to_string();
    assert!(
        all[0].starts_with("01-helm-chart/lesson.yaml:1:33: the modeline names the schema ../lesson.schema.json")
            && all[0].ends_with(&format!(
                "there is no file {schema}: write it with capa-tui lesson schema > {schema}, or fix the path"
            )),
        "{all:#?}"
    );
    for (code, words) in [("zh", "生成它"), ("ko", "만들거나")] {
        let line = report.problems[0].line(Lang::parse(code).unwrap());
        assert!(
            line.contains(words) && line.contains(&schema),
            "{code}: {line}"
        );
    }
}

/// A lesson file that is not UTF-8 (Latin-1, as an editor may save it) is named, at its first
/// byte that is not, by lint and by load: read as nothing, its lesson was silently left out
/// ("there is no lesson 1 here"), and a `zh.md` so saved was called missing.
#[test]
fn a_lesson_file_that_is_not_utf8_is_named_where_it_stops_being_text() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(dir.path(), &[]);
    let yaml = root.join("01-helm-chart/lesson.yaml");
    let mut bytes = std::fs::read(&yaml).unwrap();
    bytes.extend_from_slice(b"# caf\xe9\n");
    let line = bytes.iter().filter(|b| **b == b'\n').count();
    std::fs::write(&yaml, &bytes).unwrap();
    let zh = root.join("02-precedence/zh.md");
    let mut text = std::fs::read(&zh).unwrap();
    text.splice(0..0, b"\xff".iter().copied());
    std::fs::write(&zh, &text).unwrap();
    let all = said(&lint(&root, None).unwrap());
    let wanted = format!("01-helm-chart/lesson.yaml:{line}:6: not UTF-8 text");
    assert!(all.iter().any(|l| l.starts_with(&wanted)), "{all:#?}");
    assert!(
        all.iter()
            .any(|l| l.starts_with("02-precedence/zh.md:1:1: not UTF-8 text")),
        "{all:#?}"
    );
    assert!(!all.iter().any(|l| l.contains("no zh.md")), "{all:#?}");
    let why = crate::lab::catalog::Catalog::load(Some(&root), None)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        // The first bad file met names itself; which one that is depends on the folder order.
        why.contains("not UTF-8 text")
            && (why.contains(&format!("lesson.yaml:{line}:6")) || why.contains("zh.md:1:1")),
        "{why}"
    );
}

mod app_of_apps;
