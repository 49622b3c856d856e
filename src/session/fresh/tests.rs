//! `--fresh`: moved aside whole, never while open, and wired to its own bare repos.

use super::*;

#[test]
fn a_fresh_lab_moves_the_old_one_aside_and_deletes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("sim");
    assert_eq!(move_aside(&state).unwrap(), None, "nothing to move");
    std::fs::create_dir_all(state.join("capa-src")).unwrap();
    std::fs::write(state.join("capa-src/precedence.json"), "{}").unwrap();
    let kept = move_aside(&state).unwrap().unwrap();
    assert!(!state.exists());
    assert!(
        kept.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("sim-")
    );
    assert_eq!(
        std::fs::read_to_string(kept.join("capa-src/precedence.json")).unwrap(),
        "{}"
    );
    std::fs::create_dir_all(&state).unwrap();
    let again = move_aside(&state).unwrap().unwrap();
    assert_ne!(
        again, kept,
        "a second move in the same second gets its own name"
    );
}
#[test]
fn the_kept_aside_working_copy_points_at_its_own_bare_repo() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("sim");
    let bare = state.join("bare/src.git");
    git2::Repository::init_bare(&bare).unwrap();
    let work = git2::Repository::init(state.join("capa-src/repo")).unwrap();
    work.remote("origin", &bare.display().to_string()).unwrap();
    let kept = move_aside(&state).unwrap().unwrap();
    let moved = git2::Repository::open(kept.join("capa-src/repo")).unwrap();
    let url = moved
        .find_remote("origin")
        .unwrap()
        .url()
        .unwrap()
        .to_string();
    assert_eq!(url, kept.join("bare/src.git").display().to_string());
}

#[tokio::test]
async fn fresh_refuses_while_a_session_has_the_lab_open() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("sim");
    std::fs::create_dir_all(state.join("capa-src")).unwrap();
    let attached = InUse::hold(&state).unwrap();
    let options = || crate::session::Options {
        sim: true,
        speed: 1.0,
        state_dir: Some(&state),
        kubeconfig: None,
        context: None,
        src_dir: None,
        bare_dir: None,
        fresh: true,
        learner: None,
    };
    let refused = crate::session::Session::open(options()).await.err();
    assert!(
        matches!(refused, Some(SessionError::InUse { .. })),
        "{refused:?}"
    );
    assert!(state.join("capa-src").exists(), "the lab stays where it is");
    let said = crate::i18n::Say::say(&refused.unwrap(), crate::i18n::Lang::FALLBACK);
    assert!(said.contains("open"), "{said}");
    drop(attached);
    assert!(InUse::alone(&state).unwrap().is_some(), "free once closed");
}
