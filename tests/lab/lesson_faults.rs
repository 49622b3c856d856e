//! Cancelling a lesson at every step and re-running it, and the faults a learner can meet: each
//! gets a message saying what to do, a failing exit code, and nothing of theirs is lost.

use std::time::Duration;

use capa_tui::lab::catalog;
use capa_tui::lab::engine::{self, Progress, RunError, Runner};
use capa_tui::lab::paths::LabPaths;
use tokio::sync::{mpsc, watch};

use super::lessons::{capa, text};
use crate::common::Lab;
use crate::common::git;

/// A plan runner on `lab`'s embedded cluster and folders, in English, with the lab's lessons.
pub(super) async fn runner_on(lab: &Lab) -> (Runner, LabPaths, std::sync::Arc<catalog::Catalog>) {
    let paths = LabPaths {
        src_dir: lab.dir.path().join("capa-src"),
        bare_dir: lab.handle.bare_dir().to_path_buf(),
    };
    let catalog = std::sync::Arc::new(catalog::Catalog::embedded().unwrap());
    let runner = Runner {
        client: lab.client().await,
        paths: paths.clone(),
        kubeconfig: Some(lab.kubeconfig()),
        context: None,
        deadline: Duration::from_secs(90),
        fit: capa_tui::lab::fit::Fit::for_paths(&paths),
        catalog: catalog.clone(),
        commit_lang: capa_tui::i18n::Lang::FALLBACK,
        clock: None,
    };
    (runner, paths, catalog)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_at_every_step_then_re_running_completes_without_duplicate_commits() {
    let lab = Lab::start().await;
    let (runner, paths, catalog) = runner_on(&lab).await;
    let mut cancels = 0;
    for lesson in catalog.lessons() {
        cancels += cancelled_at_every_step_then_run_again(&runner, lesson).await;
    }
    assert!(cancels >= 30, "cancelled {cancels} times");
    let bare = git2::Repository::open_bare(paths.bare_repo("src")).unwrap();
    let mut walk = bare.revwalk().unwrap();
    walk.push_ref("refs/heads/main").unwrap();
    let messages: Vec<String> = walk
        .map(|o| {
            bare.find_commit(o.unwrap())
                .unwrap()
                .summary()
                .ok()
                .flatten()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    assert_eq!(
        messages.len(),
        5,
        "one commit per commit step, none duplicated: {messages:?}"
    );
    all_pass(
        &runner,
        &paths,
        &[
            "precedence.json",
            "tracking.json",
            "waves.json",
            "failed-hook.json",
            "ignore.json",
            "report.json",
        ],
    )
    .await;
}

/// Each evidence file passes its self-check, graded with the runner's lessons.
pub(super) async fn all_pass(runner: &Runner, paths: &LabPaths, files: &[&str]) {
    let ctx = capa_tui::lab::eval::context::Context {
        client: &runner.client,
        catalog: &runner.catalog,
        src_dir: &paths.src_dir,
        bare_dir: &paths.bare_dir,
        clock: None,
    };
    for file in files {
        let grade = capa_tui::lab::eval::check::grade(file, &ctx).await;
        assert!(grade.passed(), "{file}: {:?}", grade.findings);
    }
}

/// Runs `lesson`'s plan once per step, cancelling it as that step starts, then once to its end:
/// how many runs were cancelled. A plan stopped anywhere finishes when run again.
pub(super) async fn cancelled_at_every_step_then_run_again(
    runner: &Runner,
    lesson: &catalog::Lesson,
) -> usize {
    let mut cancels = 0;
    let steps = engine::plan(lesson).unwrap();
    for k in 1..=steps.len() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let (cancel, cancelled) = watch::channel(false);
        tokio::spawn(async move {
            while let Some(p) = rx.recv().await {
                if let Progress::Started { step, .. } = p
                    && step == k
                {
                    let _ = cancel.send(true);
                }
            }
        });
        match runner.run(lesson.spec.number, &steps, tx, cancelled).await {
            Err(RunError::Cancelled { step }) => {
                assert!(
                    step >= k,
                    "lesson {} cancelled at {step} before {k}",
                    lesson.spec.number
                );
                cancels += 1;
            }
            Ok(()) => {}
            Err(e) => panic!("lesson {} step {k}: {e}", lesson.spec.number),
        }
    }
    let (tx, _rx) = mpsc::unbounded_channel();
    runner
        .run(lesson.spec.number, &steps, tx, watch::channel(false).1)
        .await
        .unwrap_or_else(|e| panic!("re-running lesson {}: {e}", lesson.spec.number));
    cancels
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_kubeconfig_an_unreachable_cluster_and_a_wrong_token_say_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: Vec<String>| async move {
        tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
            .args(&args)
            .output()
            .await
            .unwrap()
    };
    let out = run(vec![
        "status".into(),
        "--kubeconfig".into(),
        dir.path().join("nope").display().to_string(),
    ])
    .await;
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("no kubeconfig found"), "{}", text(&out));

    let lab = Lab::start().await;
    let good = std::fs::read_to_string(lab.kubeconfig()).unwrap();
    let unreachable = dir.path().join("unreachable");
    std::fs::write(
        &unreachable,
        good.replace(&lab.handle.addr.port().to_string(), "1"),
    )
    .unwrap();
    let out = run(vec![
        "doctor".into(),
        "--kubeconfig".into(),
        unreachable.display().to_string(),
    ])
    .await;
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("API not reachable"), "{}", text(&out));

    let wrong = dir.path().join("wrong-token");
    std::fs::write(&wrong, good.replace(&lab.handle.token, "not-the-token")).unwrap();
    let out = run(vec![
        "doctor".into(),
        "--kubeconfig".into(),
        wrong.display().to_string(),
    ])
    .await;
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("Unauthorized"), "{}", text(&out));

    let out = run(vec![
        "doctor".into(),
        "--kubeconfig".into(),
        lab.kubeconfig().display().to_string(),
        "--bare-dir".into(),
        dir.path().join("bare").display().to_string(),
    ])
    .await;
    assert!(
        text(&out).contains("the Application CRD is installed"),
        "{}",
        text(&out)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_learners_work_stops_a_lesson_and_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    // Lesson 4 before lesson 1: no working copy yet.
    let out = capa(&state, &["do", "4", "--yes"]).await;
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("do lesson 1 first"), "{}", text(&out));

    let out = capa(&state, &["do", "1", "--yes"]).await;
    assert!(out.status.success(), "{}", text(&out));
    let repo = state.join("capa-src/repo");

    // Uncommitted work of the learner's.
    let values = repo.join("charts/web/values.yaml");
    std::fs::write(&values, "replicaCount: 7\ngreeting: mine\n").unwrap();
    let out = capa(&state, &["do", "4", "--yes"]).await;
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("not committed") && text(&out).contains("charts/web/values.yaml"),
        "{}",
        text(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&values).unwrap(),
        "replicaCount: 7\ngreeting: mine\n",
        "untouched"
    );
    git(&repo, &["checkout", "--", "."]).await;

    // Someone else pushed: the remote moved on.
    let other = dir.path().join("other");
    git(
        dir.path(),
        &[
            "clone",
            "-q",
            state.join("bare/src.git").to_str().unwrap(),
            other.to_str().unwrap(),
        ],
    )
    .await;
    std::fs::write(other.join("NOTES"), "hello\n").unwrap();
    git(&other, &["add", "NOTES"]).await;
    git(
        &other,
        &[
            "-c",
            "user.name=x",
            "-c",
            "user.email=x@y",
            "commit",
            "-q",
            "-m",
            "notes",
        ],
    )
    .await;
    git(&other, &["push", "-q", "origin", "main"]).await;
    let out = capa(&state, &["do", "4", "--yes"]).await;
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("pull --rebase"), "{}", text(&out));

    // A source dir that cannot be created.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = capa(
        &state,
        &[
            "do",
            "1",
            "--yes",
            "--src-dir",
            file.join("sub").to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("cannot create the source dir"),
        "{}",
        text(&out)
    );

    // Malformed evidence.
    std::fs::write(state.join("capa-src/precedence.json"), "{").unwrap();
    let out = capa(&state, &["check", "2"]).await;
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("is not JSON"), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(state.join("capa-src/precedence.json")).unwrap(),
        "{",
        "check never rewrites evidence"
    );

    // Not asking on a non-interactive input without --yes.
    let out = capa(&state, &["do", "2"]).await;
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("--yes"), "{}", text(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_that_times_out_says_what_it_was_waiting_for() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["do", "1", "--yes", "--timeout", "0", "--sim", "--state-dir"])
        .arg(&state)
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out);
    assert!(said.contains("gave up after"), "{said}");
}

/// `capa-tui` against a separately started `capa-tui sim serve`, by kubeconfig and bare dir,
/// as on the VM; and `doctor` when Argo CD is missing there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lessons_work_against_a_separately_started_sim_serve_and_doctor_sees_argo_cd_missing() {
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    let bare = dir.path().join("bare");
    let mut serve = tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["sim", "serve", "--speed", "10", "--kubeconfig-out"])
        .arg(&kc)
        .arg("--state-dir")
        .arg(dir.path().join("state"))
        .arg("--bare-dir")
        .arg(&bare)
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    for _ in 0..200 {
        if kc.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let src = dir.path().join("capa-src");
    let run = |args: &[&str]| {
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"));
        cmd.args(args)
            .arg("--kubeconfig")
            .arg(&kc)
            .arg("--bare-dir")
            .arg(&bare)
            .arg("--src-dir")
            .arg(&src);
        cmd.output()
    };
    let out = run(&["do", "1", "--yes"]).await.unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        bare.join("src.git/HEAD").exists(),
        "the bare repo is in the bare dir sim serve serves"
    );
    let out = run(&["status", "--json"]).await.unwrap();
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["applications"][0]["sync"], "Synced", "{status}");

    let kubectl = |args: &[&str]| {
        std::process::Command::new(crate::common::kubectl_path())
            .args(args)
            .env("KUBECONFIG", &kc)
            .env("KUBECACHEDIR", dir.path().join("cache"))
            .output()
            .unwrap()
    };
    assert!(
        kubectl(&["delete", "crd", "applications.argoproj.io"])
            .status
            .success()
    );
    assert!(
        kubectl(&["-n", "argocd", "delete", "cm", "argocd-cm"])
            .status
            .success()
    );
    let out = run(&["doctor"]).await.unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out);
    assert!(
        said.contains("the Application CRD is missing: is Argo CD installed?"),
        "{said}"
    );
    assert!(said.contains("argocd-cm not readable"), "{said}");
    serve.kill().await.unwrap();
}

/// A plan never says done while the evidence it wrote fails its own check: lesson 7's
/// evidence written without the hold (as a plan stopped and started again could) fails its
/// "at least 40 s apart" rule, and the step says so, with the file kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_never_says_done_while_the_evidence_it_wrote_fails_its_check() {
    let lab = Lab::start().await;
    let (runner, paths, catalog) = runner_on(&lab).await;
    let run = |lesson: u8, range: std::ops::Range<usize>| {
        let runner = &runner;
        let catalog = &catalog;
        async move {
            let l = catalog
                .lesson(capa_tui::lab::spec::LessonId(lesson))
                .unwrap();
            let steps = engine::plan(l).unwrap();
            let range = range.start..range.end.min(steps.len());
            let (tx, _rx) = mpsc::unbounded_channel();
            let (_cancel, cancelled) = watch::channel(false);
            runner
                .run_through(l.spec.number, &steps, range, tx, cancelled)
                .await
        }
    };
    for lesson in 1..=4 {
        run(lesson, 0..usize::MAX).await.unwrap();
    }
    // Lesson 7 up to its scale, then straight to its evidence, skipping the hold.
    let steps = engine::plan(catalog.lesson(capa_tui::lab::spec::LessonId(7)).unwrap()).unwrap();
    let evidence_at = steps.len() - 1;
    run(7, 0..evidence_at - 1).await.unwrap();
    let err = run(7, evidence_at..evidence_at + 1).await.unwrap_err();
    let said = capa_tui::i18n::Say::say(&err, capa_tui::i18n::Lang::FALLBACK);
    assert!(
        matches!(&err, RunError::Step { step, .. } if *step == steps.len()),
        "{said}"
    );
    assert!(said.contains("ignore.json"), "{said}");
    assert!(said.contains("does not pass its own check"), "{said}");
    assert!(said.contains("capa-tui check 7"), "{said}");
    assert!(
        paths.src_dir.join("ignore.json").exists(),
        "the evidence file is kept"
    );
}

/// `capa-tui do 6` stopped with Ctrl-C (SIGINT, the embedded cluster it serves going with it) at
/// each step, one run after another, then run again: it completes, and every evidence file so
/// far passes (issue 31: interrupted at step 8, every re-run waited its whole deadline and
/// failed). Stopped as each step starts, and again on a new lab a moment into each step (in the
/// middle of its wait, its push or its evidence).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lesson_six_stopped_by_ctrl_c_at_each_step_then_run_again_passes() {
    for into_the_step in [Duration::ZERO, Duration::from_millis(400)] {
        stopped_at_each_step_then_run_again(into_the_step).await;
    }
}

async fn stopped_at_each_step_then_run_again(into_the_step: Duration) {
    use tokio::io::AsyncBufReadExt;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    for lesson in ["1", "5"] {
        let out = capa(&state, &["do", lesson, "--yes"]).await;
        assert!(out.status.success(), "do {lesson}: {}", text(&out));
    }
    let catalog = catalog::Catalog::embedded().unwrap();
    let steps = engine::plan(catalog.lesson(capa_tui::lab::spec::LessonId(6)).unwrap())
        .unwrap()
        .len();
    for k in 1..=steps {
        let mut run = tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
            .args(["do", "6", "--yes", "--sim", "--speed", "10", "--state-dir"])
            .arg(&state)
            .env("PATH", crate::common::lab_cli::tools_path())
            .env("LANG", "en_US.UTF-8")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut lines = tokio::io::BufReader::new(run.stdout.take().unwrap()).lines();
        let mark = format!("[{k}] ");
        let mut said = Vec::new();
        let reached = tokio::time::timeout(Duration::from_secs(120), async {
            while let Ok(Some(line)) = lines.next_line().await {
                if line.starts_with(&mark) {
                    return true;
                }
                said.push(line);
            }
            false
        })
        .await
        .unwrap_or(false);
        // On failure, src-waves as the cluster (still served by that run) shows it.
        let app = if reached {
            String::new()
        } else {
            let out = crate::common::lab_cli::kubectl(
                &state,
                &["-n", "argocd", "get", "app", "src-waves", "-o", "json"],
            );
            String::from_utf8_lossy(&out.stdout).to_string()
        };
        // The rest of its output is read, so it never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        tokio::time::sleep(into_the_step).await;
        let pid = i32::try_from(run.id().unwrap_or_default()).unwrap();
        // Ctrl-C, as the README says to stop it.
        unsafe { libc::kill(pid, libc::SIGINT) };
        let _ = tokio::time::timeout(Duration::from_secs(30), run.wait()).await;
        assert!(
            reached,
            "the run to stop at step {k} ({into_the_step:?} into it) never reached it:\n{}\nsrc-waves:\n{app}",
            said.join("\n")
        );
    }
    let out = capa(&state, &["do", "6", "--yes"]).await;
    assert!(
        out.status.success(),
        "do 6 after the interruptions ({into_the_step:?} into each step): {}",
        text(&out)
    );
    let check = capa(&state, &["check", "all"]).await;
    let said = text(&check);
    for file in ["waves.json", "failed-hook.json"] {
        assert!(
            said.contains(&format!("PASS {file}")),
            "{file} does not pass ({into_the_step:?} into each step):\n{said}"
        );
    }
}

/// A hard refresh ends once Argo CD has read the app again: right after the step, the app is at
/// the commit just pushed, so narration about what the refresh shows is true when the next
/// action is shown (on a busy machine the step returned before the controller had looked, and
/// lesson 6's banner was not yet there).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hard_refresh_ends_once_argo_cd_has_read_the_commit_just_pushed() {
    use capa_tui::lab::spec::Step;
    let lab = Lab::start().await;
    let (runner, paths, catalog) = runner_on(&lab).await;
    let lesson = &catalog.lessons()[0];
    let (tx, _rx) = mpsc::unbounded_channel();
    let (_cancel, cancelled) = watch::channel(false);
    runner
        .run(
            lesson.spec.number,
            &engine::plan(lesson).unwrap(),
            tx,
            cancelled,
        )
        .await
        .unwrap();
    let repo = paths.src_dir.join("repo");
    let run = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .current_dir(&repo)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    for n in 0..3 {
        std::fs::write(repo.join("charts/web/NOTES.txt"), format!("change {n}\n")).unwrap();
        run(&["add", "-A"]);
        run(&[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "a change",
        ]);
        run(&["push", "-q", "origin", "main"]);
        let pushed = run(&["rev-parse", "HEAD"]);
        runner
            .run_one(
                &Step::HardRefresh {
                    app: "src-helm".into(),
                },
                &|_| {},
            )
            .await
            .unwrap();
        let app = capa_tui::cluster::application::api(lab.client().await, "argocd")
            .get("src-helm")
            .await
            .unwrap();
        let app = serde_json::to_value(app).unwrap();
        assert_eq!(
            app["status"]["sync"]["revision"],
            pushed.as_str(),
            "change {n}"
        );
        assert!(
            app["metadata"]["annotations"]["argocd.argoproj.io/refresh"].is_null(),
            "change {n}: the refresh is done"
        );
    }
}

/// Lesson 6 stopped by Ctrl-C just before its recording step and left until the broken commit's
/// retries ran out and the fix synced: the failure is gone from the cluster (a learner's lunch
/// break; and CI's flake, when a slow machine let the retries run out). Run again, it resumes at
/// the recording step, which does not wait its whole deadline for a failure that cannot come: the
/// plan says why, puts back lesson 5's files, lets them sync, starts over and passes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lesson_six_stopped_before_recording_until_the_fix_synced_is_staged_again_and_passes() {
    moment_passed_then_run_again(Stopped::ByCtrlC).await;
}

/// The same, with no record of where it stopped (the steps run one by one, as step mode does):
/// the whole run starts at step 1, and its broken commit changes nothing Argo CD compares.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lesson_six_stepped_until_the_fix_synced_is_staged_again_and_passes() {
    moment_passed_then_run_again(Stopped::Stepped).await;
}

/// How lesson 6's plan was left before its recording step.
#[derive(Clone, Copy, PartialEq)]
enum Stopped {
    /// A whole run cancelled once the step before it was done: it resumes at the recording step.
    ByCtrlC,
    /// The steps before it run on their own: nothing says where it got to.
    Stepped,
}

async fn moment_passed_then_run_again(stopped: Stopped) {
    let lab = Lab::start().await;
    let (runner, paths, catalog) = runner_on(&lab).await;
    let run = |lesson, range| run_with_progress(&runner, lesson, range);
    for lesson in &catalog.lessons()[..5] {
        let (result, _) = run(lesson, 0..usize::MAX).await;
        result.unwrap_or_else(|e| panic!("lesson {}: {e}", lesson.spec.number));
    }
    let six = &catalog.lessons()[5];
    let steps = engine::plan(six).unwrap();
    let record = steps
        .iter()
        .position(|s| matches!(s, capa_tui::lab::spec::Step::EndOperationAndRecord { .. }))
        .unwrap();
    match stopped {
        Stopped::Stepped => run(six, 0..record).await.0.unwrap(),
        Stopped::ByCtrlC => {
            // Cancelled as the step before starts: that step (a hard refresh) runs to its end,
            // is recorded as done, and the run stops before the recording step.
            let (tx, mut rx) = mpsc::unbounded_channel();
            let (cancel, cancelled) = watch::channel(false);
            tokio::spawn(async move {
                while let Some(p) = rx.recv().await {
                    if matches!(p, Progress::Started { step, .. } if step == record) {
                        let _ = cancel.send(true);
                    }
                }
            });
            let result = runner.run(six.spec.number, &steps, tx, cancelled).await;
            assert!(
                matches!(result, Err(RunError::Cancelled { step }) if step == record + 1),
                "stopped before the recording step: {result:?}"
            );
        }
    }
    // The retries run out and the fix syncs, with nobody recording it.
    crate::common::wait_app(&lab, "src-waves", "synced on the fix", |app| {
        let op = &app["status"]["operationState"];
        op["phase"] == "Succeeded"
            && op["operation"]["sync"]["revision"] == app["status"]["sync"]["revision"]
    })
    .await;
    let began = std::time::Instant::now();
    let (result, said) = run(six, 0..usize::MAX).await;
    result.unwrap_or_else(|e| panic!("lesson 6 run again: {e}"));
    let why = said
        .iter()
        .find_map(|p| match p {
            Progress::StartedOver { why } => Some(capa_tui::i18n::Say::say(
                why,
                capa_tui::i18n::Lang::FALLBACK,
            )),
            _ => None,
        })
        .expect("the run says it started over");
    let at = match stopped {
        Stopped::ByCtrlC => record + 1,
        // The first wait for the broken commit's failure.
        Stopped::Stepped => {
            1 + steps
                .iter()
                .position(|s| {
                    matches!(s, capa_tui::lab::spec::Step::Wait { until, .. }
                        if *until == capa_tui::lab::spec::Until::OperationFailed)
                })
                .unwrap()
        }
    };
    assert!(
        why.contains("src-waves")
            && why.contains("lesson 5")
            && why.contains(&format!("step {at} ")),
        "why it starts over names the app, the step that could not happen and the lesson it goes back to: {why}"
    );
    assert!(
        began.elapsed() < runner.deadline * 2,
        "staged again without waiting out a deadline: {:?}",
        began.elapsed()
    );
    let bare = git2::Repository::open_bare(paths.bare_repo("src")).unwrap();
    let head = bare.head().unwrap().peel_to_commit().unwrap();
    let mut walk = bare.revwalk().unwrap();
    walk.push(head.id()).unwrap();
    let messages: Vec<String> = walk
        .map(|o| {
            let c = bare.find_commit(o.unwrap()).unwrap();
            c.summary().ok().flatten().unwrap_or_default().to_string()
        })
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m == "Back to lesson 5's files, to stage this lesson again"),
        "the commit that goes back says why: {messages:?}"
    );
    let ctx = runner.context();
    let grade = capa_tui::lab::eval::check::grade("failed-hook.json", &ctx).await;
    assert!(grade.passed(), "failed-hook.json: {:?}", grade.findings);
}

/// `lesson`'s plan run over `range` (clamped to its length): the result and everything it said.
async fn run_with_progress(
    runner: &Runner,
    lesson: &catalog::Lesson,
    range: std::ops::Range<usize>,
) -> (Result<(), RunError>, Vec<Progress>) {
    let steps = engine::plan(lesson).unwrap();
    let (tx, mut rx) = mpsc::unbounded_channel();
    let said = tokio::spawn(async move {
        let mut said = Vec::new();
        while let Some(p) = rx.recv().await {
            said.push(p);
        }
        said
    });
    let end = range.end.min(steps.len());
    let result = runner
        .run_through(
            lesson.spec.number,
            &steps,
            range.start..end,
            tx,
            watch::channel(false).1,
        )
        .await;
    (result, said.await.unwrap())
}
