//! Grading evidence files: what each fault says, and the rules in the lessons' words.

use super::*;
use crate::i18n::{Lang, Say};
use crate::lab::catalog::Catalog;
use serde_json::json;

/// A reading context whose cluster never answers, on an empty source dir of its own.
struct Offline {
    client: kube::Client,
    catalog: Catalog,
    dir: tempfile::TempDir,
}

impl Offline {
    /// Needs a runtime: the client starts a task.
    fn new() -> Offline {
        Offline {
            client: kube::Client::try_from(kube::Config::new(
                "http://127.0.0.1:1".parse().unwrap(),
            ))
            .unwrap(),
            catalog: Catalog::embedded().unwrap(),
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn ctx(&self) -> Context<'_> {
        Context {
            client: &self.client,
            catalog: &self.catalog,
            src_dir: self.dir.path(),
            bare_dir: self.dir.path(),
            clock: None,
        }
    }
}

#[test]
fn every_lesson_with_evidence_checks_its_fields() {
    for lesson in Catalog::embedded().unwrap().lessons() {
        if let Some(e) = &lesson.spec.evidence {
            assert!(
                !e.fields.is_empty(),
                "lesson {} checks no field",
                lesson.spec.number
            );
        }
    }
}

#[tokio::test]
async fn a_wrong_type_is_named_with_the_type_the_lab_wants_and_advice_for_that_type() {
    let v = json!({"replicas": "3"});
    let f = typed(&v, "replicas", JsonType::Number);
    assert!(!f.ok);
    assert_eq!(
        f.what.say(Lang::FALLBACK),
        "replicas must be a number, found \"3\""
    );
    assert_eq!(f.hint, None, "no lesson hint: the type's advice");
    assert!(
        f.help
            .unwrap()
            .say(Lang::FALLBACK)
            .contains("without quotes")
    );
}

/// A field not in the file yet is not a wrong type: the advice is to add it when the lesson
/// says, not how to quote a value (a lesson records some fields at a later moment).
#[tokio::test]
async fn a_missing_field_is_named_with_advice_to_add_it() {
    let f = typed(&json!({}), "removed_commit", JsonType::String);
    assert!(!f.ok);
    assert_eq!(
        f.what.say(Lang::FALLBACK),
        "removed_commit is missing: it must be a string"
    );
    let help = f.help.unwrap().say(Lang::FALLBACK);
    assert!(help.starts_with("add removed_commit to the file"), "{help}");
    assert!(!help.contains("double quotes"), "{help}");
}

/// `hook_created: "yesterday"` is flagged as not a time even while `hook_job` has the wrong
/// type too: each field is checked on its own, each with the advice for what is wrong.
#[tokio::test]
async fn every_field_is_checked_on_its_own_with_the_help_for_its_own_fault() {
    let offline = Offline::new();
    let (ctx, catalog) = (offline.ctx(), &offline.catalog);
    let spec = catalog
        .lesson_for_evidence("waves.json")
        .and_then(|l| l.spec.evidence.clone())
        .unwrap();
    let v = json!({"hook_job": 5, "hook_created": "yesterday", "settings_created": true});
    let findings = apply_checks(&v, &spec, &ctx).await;
    let about = |field: &str| {
        findings
            .iter()
            .filter(|f| !f.ok && f.what.say(Lang::FALLBACK).starts_with(field))
            .collect::<Vec<_>>()
    };
    let job = about("hook_job");
    assert!(
        job.iter()
            .any(|f| f.what.say(Lang::FALLBACK).contains("must be a string")),
        "{findings:#?}"
    );
    let created = about("hook_created");
    assert!(
        created
            .iter()
            .any(|f| f.what.say(Lang::FALLBACK).contains("RFC 3339")
                && f.help
                    .as_ref()
                    .map(|h| h.say(Lang::FALLBACK))
                    .as_deref()
                    .is_some_and(|h| h.contains("copy the time"))),
        "{findings:#?}"
    );
    let settings = about("settings_created");
    assert!(
        settings
            .iter()
            .any(|f| f.what.say(Lang::FALLBACK).contains("must be a string")),
        "{findings:#?}"
    );
    // Each fault gets its own advice, never a lesson hint about something else, and no rule
    // over a faulty field repeats it.
    for f in job.iter().chain(&settings).chain(&created) {
        assert_eq!(f.hint, None, "{f:?}");
        assert!(f.help.is_some(), "{f:?}");
    }
    assert_eq!(job.len(), 1, "{job:#?}");
    assert_eq!(created.len(), 1, "{created:#?}");
}

#[tokio::test]
async fn garbage_empty_and_non_object_files_say_what_they_are() {
    let offline = Offline::new();
    let (ctx, catalog, dir) = (offline.ctx(), &offline.catalog, &offline.dir);
    let spec = catalog
        .lesson_for_evidence("waves.json")
        .and_then(|l| l.spec.evidence.clone())
        .unwrap();
    let said = |bytes: &[u8]| {
        std::fs::write(dir.path().join("waves.json"), bytes).unwrap();
        read_evidence(&spec, &ctx).unwrap_err()
    };
    let garbage: Vec<u8> = (0..300u32).map(|i| (i * 7919 % 251) as u8).collect();
    let g = said(&garbage);
    assert!(
        g.what.say(Lang::FALLBACK).contains("is not JSON")
            || g.what.say(Lang::FALLBACK).contains("is not text"),
        "{g:?}"
    );
    assert!(!g.what.say(Lang::FALLBACK).contains("missing"), "{g:?}");
    assert!(
        g.help
            .as_ref()
            .map(|h| h.say(Lang::FALLBACK))
            .as_deref()
            .unwrap()
            .contains("did the command that wrote it fail")
    );
    let e = said(b"  \n");
    assert_eq!(e.what.say(Lang::FALLBACK), "waves.json is empty");
    assert!(
        e.help
            .as_ref()
            .map(|h| h.say(Lang::FALLBACK))
            .as_deref()
            .unwrap()
            .contains("did the command that wrote it fail")
    );
    assert!(
        said(b"[1, 2]")
            .what
            .say(Lang::FALLBACK)
            .contains("must hold a JSON object")
    );
    std::fs::remove_file(dir.path().join("waves.json")).unwrap();
    assert!(
        read_evidence(&spec, &ctx)
            .unwrap_err()
            .what
            .say(Lang::FALLBACK)
            .contains("is missing")
    );
}

#[tokio::test]
async fn a_fifo_or_a_huge_file_as_evidence_is_refused_at_once() {
    let offline = Offline::new();
    let (ctx, catalog, dir) = (offline.ctx(), &offline.catalog, &offline.dir);
    let spec = catalog
        .lesson_for_evidence("waves.json")
        .and_then(|l| l.spec.evidence.clone())
        .unwrap();
    let path = dir.path().join("waves.json");
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo reads the path only.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // Before, this read waited for a writer forever. It runs beside the test, so a read that
    // waits fails the test: after 5 s the test opens the FIFO's other end, which lets the
    // read go on, and says so.
    let read = std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        let (spec, ctx) = (&spec, &ctx);
        s.spawn(move || tx.send(read_evidence(spec, ctx)));
        let read = rx.recv_timeout(std::time::Duration::from_secs(5)).ok();
        if read.is_none() {
            use std::os::unix::fs::OpenOptionsExt;
            let _unblock = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&path);
        }
        read
    });
    let fifo = read
        .expect("reading a FIFO as evidence waited for a writer")
        .unwrap_err();
    assert!(
        fifo.what
            .say(Lang::FALLBACK)
            .contains("is not a regular file"),
        "{fifo:?}"
    );
    std::fs::remove_file(&path).unwrap();
    std::fs::File::create(&path)
        .unwrap()
        .set_len(MAX_LEARNER_FILE + 1)
        .unwrap();
    let huge = read_evidence(&spec, &ctx).unwrap_err();
    assert!(
        huge.what.say(Lang::FALLBACK).contains("more than"),
        "{huge:?}"
    );
}

#[tokio::test]
async fn one_of_explains_a_common_wrong_value_in_the_lessons_words() {
    let rule: Rule = serde_saphyr::from_str(
        "{rule: one-of, fields: [phase], values: [Failed, Error], hint: 1, why: record it once the hook has failed, says: {Running: still retrying}}",
    )
    .unwrap();
    let offline = Offline::new();
    let ctx = offline.ctx();
    let f = rules::apply(&rule, &json!({"phase": "Running"}), &ctx).await;
    assert_eq!(f[0].what.say(Lang::FALLBACK), "still retrying");
    let f = rules::apply(&rule, &json!({"phase": "Succeeded"}), &ctx).await;
    assert_eq!(
        f[0].what.say(Lang::FALLBACK),
        "phase is \"Succeeded\", not Failed or Error: record it once the hook has failed"
    );
    let f = rules::apply(&rule, &json!({"phase": "Failed"}), &ctx).await;
    assert!(f[0].ok);
}

/// A grade keeps its findings as words, not sentences: saved in `tutor.json` and read back, it
/// says them in whichever language the tutor is shown in, words inside words and typed values
/// (an error, a lesson's own text) included. A file saved before words were kept (its findings
/// as sentences) still reads, each sentence as it was written.
#[test]
fn a_saved_grade_reads_back_in_every_language() {
    use crate::i18n::{Lang, Say};
    let v = json!({"replicas": "3", "owner": 4});
    let typed_wrong = typed(&v, "replicas", JsonType::Number);
    let step = crate::lab::spec::Localized::from_fn(|l| format!("step in {}", l.code()));
    let unmet = crate::words!(
        "check-step-unmet",
        step = step,
        why = typed_wrong.what.clone()
    );
    let grade = Grade {
        file: "replicas.json".into(),
        lesson: crate::lab::spec::LessonId(2),
        findings: vec![typed_wrong.clone(), fail(unmet, 1)],
        checked_at: None,
        changed_since: Vec::new(),
    };
    let saved = serde_json::to_string(&grade).unwrap();
    assert!(
        saved.contains("\"id\":\"check-type-wrong\""),
        "saved as what it is: {saved}"
    );
    let back: Grade = serde_json::from_str(&saved).unwrap();
    for &lang in Lang::all() {
        for (before, after) in grade.findings.iter().zip(&back.findings) {
            assert_eq!(before.what.say(lang), after.what.say(lang), "{lang:?}");
            assert_eq!(
                before.help.as_ref().map(|h| h.say(lang)),
                after.help.as_ref().map(|h| h.say(lang))
            );
        }
        assert!(
            back.findings[1]
                .what
                .say(lang)
                .starts_with(&format!("step in {}", lang.code()))
        );
    }
    let zh = Lang::parse("zh").unwrap();
    assert_ne!(
        back.findings[0].what.say(zh),
        back.findings[0].what.say(Lang::FALLBACK),
        "said in Chinese, not kept in English"
    );
    let old = r#"{"file": "x.json", "lesson": 2, "findings": [{"ok": false, "what": "x.json is missing", "hint": 1}]}"#;
    let old: Grade = serde_json::from_str(old).unwrap();
    assert_eq!(old.findings[0].what.say(zh), "x.json is missing");
}
