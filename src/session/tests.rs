//! A session's refusals, said in the learner's language; and who serves a lab it shares.

use super::*;
use crate::i18n::Say;

/// The cluster refuses a state dir others may write to in English; the tutor says it in the
/// learner's language, with what to do.
#[tokio::test]
async fn an_unsafe_state_dir_is_refused_in_the_learners_language() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("shared");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o777)).unwrap();
    let refused = Session::open(Options {
        sim: true,
        speed: 1.0,
        state_dir: Some(&state),
        kubeconfig: None,
        context: None,
        src_dir: None,
        bare_dir: None,
        fresh: false,
        learner: None,
    })
    .await
    .err()
    .unwrap();
    assert!(
        matches!(
            refused,
            SessionError::Sim(capa_sim::SimError::UnsafeFolder(_))
        ),
        "{refused:?}"
    );
    let zh = refused.say(Lang::parse("zh").unwrap());
    assert!(
        zh.contains("其他用户可以写入") && zh.contains("chmod go-w"),
        "{zh}"
    );
    let ko = refused.say(Lang::parse("ko").unwrap());
    assert!(ko.contains("다른 사용자가"), "{ko}");
}

/// The tutor's own folder in a source dir others may write into is refused, in the learner's
/// language, before anything is written there: its files decide what the lab shell runs.
#[tokio::test]
async fn a_source_dir_others_may_write_into_is_refused_in_the_learners_language() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("shared-src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::set_permissions(&src, std::fs::Permissions::from_mode(0o777)).unwrap();
    let refused = Session::open(Options {
        sim: false,
        speed: 1.0,
        state_dir: None,
        kubeconfig: Some(&dir.path().join("no-kubeconfig")),
        context: None,
        src_dir: Some(&src),
        bare_dir: Some(&dir.path().join("bare")),
        fresh: false,
        learner: None,
    })
    .await
    .err()
    .unwrap();
    assert!(
        matches!(
            refused,
            SessionError::TutorFolder(capa_sim::UnsafeFolder::OthersMayWrite { .. })
        ),
        "{refused:?}"
    );
    let zh = refused.say(Lang::parse("zh").unwrap());
    assert!(
        zh.contains("实验 shell") && zh.contains("chmod go-w"),
        "{zh}"
    );
    // Its own folder, made there before the refusal, is the learner's alone.
    let made = std::fs::metadata(src.join(".capa-tui")).unwrap();
    assert_eq!(made.permissions().mode() & 0o777, 0o700);
}

/// A session attached to a lab another serves does not serve it; once it took the lab over
/// from a server that ended, it says where it serves, as a session that served from the start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_that_took_a_lab_over_knows_where_it_serves() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let (src, bare) = (dir.path().join("src"), dir.path().join("bare"));
    let options = || Options {
        sim: true,
        speed: 1.0,
        state_dir: Some(&state),
        kubeconfig: None,
        context: None,
        src_dir: Some(&src),
        bare_dir: Some(&bare),
        fresh: false,
        learner: None,
    };
    let first = Session::open(options()).await.unwrap();
    let first_url = first.sim_url().expect("the first session serves the lab");
    let second = Session::open(options()).await.unwrap();
    assert_eq!(second.sim_url(), None, "attached, not serving");
    assert_eq!(second.sim_git_url("src"), None);

    let take_over = second.adopt_when_orphaned().expect("attached to a lab");
    first.close().await;
    let target = tokio::time::timeout(Duration::from_secs(30), take_over)
        .await
        .expect("took the lab over in time")
        .expect("serves the lab itself");
    let Target::Embedded { url, served_by, .. } = target else {
        panic!("not the embedded cluster: {target:?}");
    };
    assert_eq!(served_by, None);
    assert_ne!(url, first_url, "a new address of its own");
    assert_eq!(second.sim_url().as_deref(), Some(url.as_str()));
    assert!(
        second
            .sim_git_url("src")
            .is_some_and(|git| git.starts_with("git://") && git.ends_with("/src.git")),
        "{:?}",
        second.sim_git_url("src")
    );
    second.close().await;
}
