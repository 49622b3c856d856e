//! The translation checks: a faithful translation passes, and each kind of drift is found at
//! the translation's line where it starts, alone and in a lint of a lesson folder.

use super::*;
use crate::lab::lint::lint;
use crate::lab::lint::tests::{lessons, said};

const EN: &str = "# Title
## Goal
Scale to 4, on Argo CD 3.5.
## Why it matters
It retries 5 times; `release.v1` is not a number; `a --set <x> --values <y>`; ${replicas}.
## Steps
1. Write a Job with `backoffLimit: 0`.
2. Push.
## Common mistakes
- Leaving out `backoffLimit: 0`.
## Hints
1. One.
2. Two.
## By hand
```sh
cat <<EOF   # the Job
backoffLimit: 0
replicas: ${replicas}
EOF
```
";

/// A faithful Korean text: comments, placeholder words and prose translated; numbers next to
/// Hangul.
const KO: &str = "# 제목
## 목표
4개로 늘립니다(Argo CD 3.5).
## 왜 중요한가
5번 재시도합니다. `release.v1`은 숫자가 아닙니다. `a --set <엑스> --values <와이>`. ${replicas}.
## 절차
1. `backoffLimit: 0`인 Job을 작성합니다.
2. 푸시합니다.
## 자주 하는 실수
- `backoffLimit: 0`을 빠뜨리는 것.
## 힌트
1. 하나.
2. 둘.
## 직접 해 보기
```sh
# Job입니다
cat <<EOF   # Job입니다
backoffLimit: 0
replicas: ${replicas}
EOF
```
";

fn found(en: &str, here: &str) -> Vec<(u64, Section, Differs)> {
    differences(en, here)
        .into_iter()
        .map(|(at, s, d)| (at.line, s, d))
        .collect()
}

#[test]
fn a_faithful_translation_has_no_differences() {
    assert_eq!(found(EN, KO), Vec::new());
}

/// A dropped number, a changed code line, reordered inline code, a hint and a step fewer, and a
/// `${name}` written out: each found once (a dropped step is not also a dropped number), at the
/// line of the translation where it starts.
#[test]
fn each_kind_of_drift_is_found_at_its_line() {
    let drifted = KO
        .replace("4개로 늘립니다(Argo CD 3.5).", "4개로 늘립니다.")
        .replace(
            "`a --set <엑스> --values <와이>`",
            "`a --values <와이> --set <엑스>`",
        )
        .replace("2. 푸시합니다.\n", "")
        .replace("2. 둘.\n", "")
        .replace("backoffLimit: 0\nreplicas", "backoffLimit: 6\nreplicas")
        .replace(". ${replicas}.", ". 3.");
    let all = found(EN, &drifted);
    let want = [
        // What only en.md has is reported at the translation's heading of the section.
        (2, Section::Goal, "Numbers", "3.5"),
        (5, Section::Why, "InlineCode", "`a --values <> --set <>`"),
        (5, Section::Why, "Numbers", "\"3\""),
        (4, Section::Why, "References", "${replicas}"),
        (6, Section::Steps, "Steps", "found: 1"),
        (10, Section::Hints, "Hints", "found: 1"),
        (16, Section::ByHand, "Code", "backoffLimit: 6"),
    ];
    for (line, section, kind, item) in want {
        assert!(
            all.iter().any(|(l, s, d)| *l == line
                && *s == section
                && format!("{d:?}").starts_with(kind)
                && format!("{d:?}").contains(item)),
            "no {kind} {item:?} at line {line}: {all:#?}"
        );
    }
    assert_eq!(all.len(), want.len(), "{all:#?}");
}

/// A code block a line shorter: where it ends, with en.md's line that it lacks.
#[test]
fn a_shorter_code_block_is_found_where_it_ends() {
    let shorter = KO.replace("replicas: ${replicas}\nEOF\n", "replicas: ${replicas}\n");
    let all = found(EN, &shorter);
    assert_eq!(
        all,
        [(
            20,
            Section::ByHand,
            Differs::Code {
                block: 1,
                en: Some("EOF".into()),
                here: None
            }
        )]
    );
}

fn skeleton(code: &str) -> &'static str {
    crate::embedded::FILES
        .iter()
        .find(|(p, _)| *p == format!("assets/skeleton/{code}.md"))
        .map(|(_, t)| *t)
        .unwrap()
}

/// Instructor trial 4, problem 6: `lesson new`'s zh.md and ko.md left beside a real en.md (4
/// hints), and another lesson's text as a translation, linted clean. Now each is reported, in
/// the author's language too.
#[test]
fn a_skeleton_or_another_lessons_text_beside_a_real_en_md_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(dir.path(), &[]);
    let two = root.join("02-precedence");
    std::fs::write(two.join("zh.md"), skeleton("zh")).unwrap();
    std::fs::copy(root.join("01-helm-chart/ko.md"), two.join("ko.md")).unwrap();
    let report = lint(&root, None).unwrap();
    let all = said(&report);
    let hints_at = skeleton("zh")
        .lines()
        .position(|l| l == "## Hints")
        .unwrap()
        + 1;
    assert!(
        all.contains(&format!(
            "02-precedence/zh.md:{hints_at}:1: zh.md, Hints: 2 hints where en.md has 4: translate each hint of en.md, in its order"
        )),
        "{all:#?}"
    );
    for words in [
        "zh.md, Steps: ",
        "zh.md, By hand: ",
        "ko.md, By hand: code block 1 differs",
    ] {
        assert!(all.iter().any(|l| l.contains(words)), "{words}: {all:#?}");
    }
    assert!(
        all.iter().all(|l| l.starts_with("02-precedence/zh.md:")
            || l.starts_with("02-precedence/ko.md:")),
        "only the two translations: {all:#?}"
    );
    for (code, words) in [
        ("zh", "有 2 条提示，而 en.md 有 4 条"),
        ("ko", "힌트가 2개인데 en.md에는 4개"),
    ] {
        let lang = Lang::parse(code).unwrap();
        let lines: Vec<String> = report.problems.iter().map(|p| p.line(lang)).collect();
        assert!(
            lines.iter().any(|l| l.contains(words)),
            "{code}: {lines:#?}"
        );
        for english in [
            "hints where",
            "differs from",
            "only en.md has",
            "translate each",
        ] {
            assert!(
                !lines.join("\n").contains(english),
                "{code}: {english:?} in {lines:#?}"
            );
        }
    }
}

/// One line of a code block changed in ko.md: reported at that line, with both lines.
#[test]
fn a_code_line_changed_in_a_translation_is_reported_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = lessons(
        dir.path(),
        &[(
            "02-precedence/ko.md",
            "      selfHeal: true\n",
            "      selfHeal: false\n",
        )],
    );
    let line = std::fs::read_to_string(root.join("02-precedence/ko.md"))
        .unwrap()
        .lines()
        .position(|l| l == "      selfHeal: false")
        .unwrap()
        + 1;
    let all = said(&lint(&root, None).unwrap());
    assert_eq!(
        all,
        [format!(
            "02-precedence/ko.md:{line}:1: ko.md, By hand: code block 1 differs from en.md's: en.md has \"      selfHeal: true\", ko.md has \"      selfHeal: false\": copy the code from en.md (only a # comment may be translated)"
        )]
    );
}
