//! `examples/lesson-pack`: lessons beyond the lab (an app of apps that creates and prunes a
//! child, hooks on success and on failure, prune options, a retry that refreshes) lint clean in
//! three languages and pass `lesson test` on the embedded cluster, each graded from what the
//! cluster and Git hold, and each refusing its broken evidence.

use std::path::Path;

use super::lesson_trial::lint_and_test;
use super::lessons::{capa, text};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lesson_pack_lints_and_passes_its_test() {
    let dir = tempfile::tempdir().unwrap();
    let pack = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/lesson-pack");
    let (lessons, templates) = (pack.join("lessons"), pack.join("repo-template"));
    let (lessons, templates) = (lessons.to_str().unwrap(), templates.to_str().unwrap());
    let state = dir.path().join("state");
    let (_, said) = lint_and_test("examples/lesson-pack", &state).await;
    let evidence = |file: &str| super::lessons::evidence(&state, file);

    // Lesson 9: the child lived between two commits, recorded at two moments; its ConfigMap
    // outlived it (no resources finalizer).
    let apps = evidence("app-of-apps.json");
    assert_eq!(apps["configmap_left"], true);
    let (added, removed) = (
        apps["added_commit"].as_str().unwrap(),
        apps["removed_commit"].as_str().unwrap(),
    );
    assert_ne!(added, removed);
    assert_eq!(apps["child_uid"].as_str().unwrap().len(), 36, "{apps}");
    // A uid the learner could not have seen is refused.
    assert!(said.contains("refuses child_uid one off"), "{said}");
    assert!(
        said.contains("no event of the cluster names Application src-hello with uid"),
        "{said}"
    );
    // Lesson 10: the PostSync hook ran and HookSucceeded deleted it; the failed sync ran the
    // SyncFail hook, never the PostSync one.
    let hooks = evidence("hooks.json");
    assert_eq!(hooks["post_phase"], "Succeeded");
    assert_eq!(hooks["post_left"], false);
    assert_eq!(hooks["phase"], "Failed");
    assert_eq!(hooks["fail_hook_phase"], "Succeeded");
    assert_eq!(hooks["verify_phase"], "Failed");

    // Lesson 11: Prune=false kept `keep` (and IgnoreExtraneous the app Synced), `old` was
    // pruned, and PruneLast recorded the prune after the apply.
    let prune = evidence("prune.json");
    assert_eq!(
        prune,
        serde_json::json!({"keep_left": true, "keep_result": "PruneSkipped", "old_left": false,
            "old_result": "Pruned", "sync_status": "Synced", "last_result": "old"})
    );

    // Lesson 12: a retry of the broken commit's operation synced the fix (never terminated).
    let retry = evidence("retry.json");
    assert_eq!(retry["phase"], "Succeeded");
    assert_eq!(retry["live_mode"], "green");
    assert!(retry["retry_count"].as_i64().unwrap() >= 1, "{retry}");
    assert!(said.contains("4 lessons · "), "{said}");

    // On the lab as it was left, the events still prove the child (the cluster started again
    // from its state), and the two commits swapped are refused with what to write.
    let check = |state| async move {
        capa(
            state,
            &["check", "9", "--lessons", lessons, "--templates", templates],
        )
        .await
    };
    let out = check(&state).await;
    assert!(out.status.success(), "{}", text(&out));
    let file = state.join("capa-src/app-of-apps.json");
    let mut swapped = apps.clone();
    swapped["added_commit"] = removed.into();
    swapped["removed_commit"] = added.into();
    std::fs::write(&file, swapped.to_string()).unwrap();
    let out = check(&state).await;
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains(&format!(
            "added_commit \"{removed}\" is not a commit of src.git's main that added apps/hello.yaml: write the SHA of the commit that did (that is {added})"
        )),
        "{said}"
    );
}

/// Each lesson of the pack stopped as each of its steps starts, then run again, finishes with
/// its evidence passing: a plan that removes files, records evidence at two moments and breaks a
/// sync on purpose picks up where it stopped, with one commit per commit step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pack_stopped_at_every_step_then_run_again_passes() {
    use super::lesson_faults::{all_pass, cancelled_at_every_step_then_run_again, runner_on};
    let lab = crate::common::Lab::start().await;
    let (mut runner, paths, _) = runner_on(&lab).await;
    let pack = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/lesson-pack");
    let catalog = std::sync::Arc::new(
        capa_tui::lab::catalog::Catalog::load(
            Some(&pack.join("lessons")),
            Some(&pack.join("repo-template")),
        )
        .unwrap(),
    );
    runner.catalog = catalog.clone();
    let mut cancels = 0;
    for lesson in catalog.lessons() {
        cancels += cancelled_at_every_step_then_run_again(&runner, lesson).await;
    }
    assert!(cancels >= 40, "cancelled {cancels} times");
    all_pass(
        &runner,
        &paths,
        &["app-of-apps.json", "hooks.json", "prune.json", "retry.json"],
    )
    .await;
    // One commit per commit step of the pack's plans, none made twice.
    let bare = git2::Repository::open_bare(paths.bare_repo("src")).unwrap();
    let mut walk = bare.revwalk().unwrap();
    walk.push_ref("refs/heads/main").unwrap();
    assert_eq!(walk.count(), 9);
}
