//! `capa-tui lesson new NAME`: a lesson folder from a commented skeleton that lints clean, so an
//! author starts from something that runs and changes it one field at a time.

use std::path::Path;

use crate::i18n::Lang;
use crate::lab::spec::schema::MODELINE;
use crate::t;

/// The skeleton's `lesson.yaml`; `{number}`, `{slug}` and `{modeline}` are filled in.
const LESSON_YAML: &str = r#"{modeline}
# A lesson is data: this file, its text in one <lang>.md per language, and the files it writes
# (templates). Field by field: docs/lessons.md. Check it with `capa-tui lesson lint`, run it with
# `capa-tui lesson test`.
number: {number}
slug: {slug}
title:
  en: "Read the greeting back from the cluster"
  zh: "从集群读回问候语"
  ko: "클러스터에서 인사말 다시 읽기"
# The Application this lesson is about, and the object whose managedFields matter.
app: src-helm
focus: src-helm/ConfigMap/src-helm-greeting
panes: [apps, values]
# The template folders (repo-template/ or --templates DIR) the plan writes.
templates: [01-helm-chart]
# Values the checks and the text state, each read once from the file that defines it: say
# ${name}. An instructor who changes the file changes the lesson with it.
let:
  greeting: {file: repo/charts/web/values-prod.yaml, path: greeting}
# The evidence file: each field's type and where it is read from (never a value known in advance).
evidence:
  file: greeting-{number}.json
  live_hint: 1
  fields:
    - name: greeting
      type: string
      live: true
      from: {read: field, object: src-helm/ConfigMap/src-helm-greeting, path: data.greeting}
  rules:
    - {rule: one-of, fields: [greeting], values: ["${greeting}"], hint: 2, why: {en: "the values file sets it", zh: "values 文件设置了它", ko: "values 파일이 그 값을 정합니다"}}
# What the learner does by hand, each with the condition that shows it done.
checklist:
  - step: {en: "Push the chart to main", zh: "把 Chart 推送到 main", ko: "차트를 main에 푸시하기"}
    hint: 1
    done_when: {pushed: {repo: src, path: charts/web/values-prod.yaml}}
  - step: {en: "src-helm is Synced and Healthy", zh: "src-helm Synced 且 Healthy", ko: "src-helm이 Synced, Healthy"}
    done_when: {synced: {app: src-helm}}
  - step: {en: "The greeting reads ${greeting}", zh: "问候语为 ${greeting}", ko: "인사말이 ${greeting}"}
    hint: 2
    done_when: {object-field: {object: src-helm/ConfigMap/src-helm-greeting, path: data.greeting, equals: "${greeting}"}}
  - step: {en: "greeting-{number}.json passes the self-check", zh: "greeting-{number}.json 通过自检", ko: "greeting-{number}.json이 자가 점검 통과"}
    done_when: {evidence-passes: greeting-{number}.json}
# "Do it for me": typed steps, each with what a presenter says before (say) and after (then).
actions:
  - {do: create-bare-repo, repo: src, say: {en: "Create the bare repo.", zh: "创建裸仓库。", ko: "베어 저장소를 만듭니다."}, done_when: {bare-repo: src}}
  - {do: clone, repo: src, say: {en: "Clone it.", zh: "克隆它。", ko: "클론합니다."}, done_when: {cloned: src}}
  - {do: write-templates, template: 01-helm-chart, say: {en: "Write the chart.", zh: "写出 Chart。", ko: "차트를 작성합니다."}}
  - {do: commit-push, message: {en: "Add the chart", zh: "添加 Chart", ko: "차트 추가"}, say: {en: "Commit and push.", zh: "提交并推送。", ko: "커밋하고 푸시합니다."}}
  - {do: apply-app, file: app-src-helm.yaml, say: {en: "Apply the Application.", zh: "应用 Application。", ko: "Application을 적용합니다."}}
  - {do: wait, app: src-helm, until: synced-healthy, say: {en: "Wait for the sync.", zh: "等待同步。", ko: "동기화를 기다립니다."}, then: {en: "The greeting is ${greeting}.", zh: "问候语是 ${greeting}。", ko: "인사말은 ${greeting}입니다."}}
  - {do: evidence, file: greeting-{number}.json, say: {en: "Record the greeting.", zh: "记录问候语。", ko: "인사말을 기록합니다."}}
"#;

/// The six sections every lesson text has, in `lang`'s words.
fn text(lang: &str) -> String {
    let (goal, why, steps, mistakes, hints, by_hand) = match lang {
        "zh" => (
            "从集群读回 Chart 的问候语。",
            "Argo CD 按 Chart 渲染的内容就是集群运行的内容。",
            "1. 推送 Chart。\n2. 应用 Application。\n3. 读回问候语。",
            "- 忘记推送：Argo CD 只能看到已推送的内容。",
            "1. 先推送，再应用。\n2. 问候语来自 values-prod.yaml。",
            "以下命令读回问候语：",
        ),
        "ko" => (
            "클러스터에서 차트의 인사말을 다시 읽습니다.",
            "Argo CD가 차트로 렌더링한 것이 곧 클러스터가 실행하는 것입니다.",
            "1. 차트를 푸시합니다.\n2. Application을 적용합니다.\n3. 인사말을 읽습니다.",
            "- 푸시를 잊음: Argo CD는 푸시된 것만 봅니다.",
            "1. 먼저 푸시하고 적용하세요.\n2. 인사말은 values-prod.yaml에서 옵니다.",
            "다음 명령으로 인사말을 읽습니다:",
        ),
        _ => (
            "Read the chart's greeting back from the cluster.",
            "What Argo CD rendered from the chart is what the cluster runs.",
            "1. Push the chart.\n2. Apply the Application.\n3. Read the greeting back.",
            "- Forgetting to push: Argo CD sees only what is pushed.",
            "1. Push first, then apply.\n2. The greeting comes from values-prod.yaml.",
            "This reads the greeting back:",
        ),
    };
    format!(
        "# {title}\n\n## Goal\n{goal}\n\n## Why\n{why}\n\n## Steps\n{steps}\n\n## Mistakes\n{mistakes}\n\n## Hints\n{hints}\n\n## By hand\n{by_hand}\n\n```sh\nkubectl -n src-helm get configmap src-helm-greeting -o jsonpath='{{.data.greeting}}'\n```\n",
        title = "greeting"
    )
}

/// `NN-slug` → (NN, slug).
fn parse_name(name: &str) -> Option<(u8, &str)> {
    let (number, slug) = name.split_once('-')?;
    let ok_slug = !slug.is_empty()
        && slug.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        });
    (number.len() == 2 && ok_slug)
        .then(|| number.parse().ok())
        .flatten()
        .map(|n| (n, slug))
}

/// Makes `<dir>/<name>/`; returns the exit code after saying what it made or why not.
pub fn new(name: &str, dir: &Path, lang: Lang) -> i32 {
    let Some((number, slug)) = parse_name(name) else {
        eprintln!("capa-tui: {}", t!(lang, "lesson-new-bad-name", name = name));
        return 2;
    };
    let folder = dir.join(name);
    if folder.exists() {
        eprintln!(
            "capa-tui: {}",
            t!(
                lang,
                "lesson-new-exists",
                dir = folder.display().to_string()
            )
        );
        return 2;
    }
    // The modeline points at the schema: the repository's when the folder is its lessons/,
    // else a copy written beside the lessons.
    let modeline = if dir.join("../docs/lesson.schema.json").is_file() {
        MODELINE.to_string()
    } else {
        "# yaml-language-server: $schema=../lesson.schema.json".to_string()
    };
    let mut files = vec![(
        folder.join("lesson.yaml"),
        LESSON_YAML
            .replace("{modeline}", &modeline)
            .replace("{number}", &number.to_string())
            .replace("{slug}", slug),
    )];
    for &l in Lang::all() {
        files.push((folder.join(format!("{}.md", l.code())), text(l.code())));
    }
    if !modeline.contains("docs/") && !dir.join("lesson.schema.json").exists() {
        files.push((
            dir.join("lesson.schema.json"),
            crate::lab::spec::schema::lesson_schema_text(),
        ));
    }
    for (path, text) in files {
        if let Err(e) = crate::lab::files::write_atomic(&path, &text) {
            eprintln!(
                "capa-tui: {}",
                t!(
                    lang,
                    "lesson-new-cannot-write",
                    path = path.display().to_string(),
                    why = e.to_string()
                )
            );
            return 1;
        }
    }
    println!(
        "{}",
        t!(lang, "lesson-new-made", dir = folder.display().to_string())
    );
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_two_digits_and_a_slug() {
        assert_eq!(parse_name("09-greeting"), Some((9, "greeting")));
        assert_eq!(parse_name("12-read-it-back"), Some((12, "read-it-back")));
        assert_eq!(parse_name("greeting"), None);
        assert_eq!(parse_name("9-greeting"), None);
        assert_eq!(parse_name("09-Greeting"), None);
        assert_eq!(parse_name("09-"), None);
    }

    /// The skeleton lints clean on its own and beside the built-in lessons, and the catalog loads
    /// it.
    #[test]
    fn the_skeleton_lints_clean_alone_and_beside_the_lessons() {
        let alone = tempfile::tempdir().unwrap();
        assert_eq!(new("09-greeting", alone.path(), Lang::FALLBACK), 0);
        let report = crate::lab::lint::lint(alone.path(), None).unwrap();
        let said: Vec<String> = report
            .problems
            .iter()
            .map(|p| p.line(Lang::FALLBACK))
            .collect();
        assert!(said.is_empty(), "{}", said.join("\n"));
        assert_eq!(report.lessons, 1);
        let c = crate::lab::catalog::Catalog::load(Some(alone.path()), None).unwrap();
        let l = c.find("greeting").unwrap();
        assert_eq!(
            l.spec.checklist[2].step.get(Lang::FALLBACK),
            "The greeting reads from-values-file"
        );
        assert_eq!(
            new("09-greeting", alone.path(), Lang::FALLBACK),
            2,
            "it is there already"
        );

        let beside = tempfile::tempdir().unwrap();
        let lessons = beside.path().join("lessons");
        for (path, text) in crate::embedded::FILES {
            if let Some(rel) = path.strip_prefix("lessons/") {
                crate::lab::files::write_atomic(&lessons.join(rel), text).unwrap();
            }
        }
        assert_eq!(new("09-greeting", &lessons, Lang::FALLBACK), 0);
        let report = crate::lab::lint::lint(&lessons, None).unwrap();
        let said: Vec<String> = report
            .problems
            .iter()
            .map(|p| p.line(Lang::FALLBACK))
            .collect();
        assert!(said.is_empty(), "{}", said.join("\n"));
        assert_eq!(report.lessons, 9);
    }
}
