//! `capa-tui app terminate-op` against the embedded Argo CD, when there is nothing to end.

use crate::common::{
    apply_app, cm, commit_and_push, lab_with_repo, synced_healthy, wait_app, write,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminate_op_without_an_operation_says_so_5_3() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "cm").await;
    apply_app(&lab, "idle", "app", "", "").await;
    wait_app(&lab, "idle", "Synced", synced_healthy).await;
    // Said in the learner's language, with Argo CD's own words quoted (a walk in Korean read
    // only Argo CD's English).
    for (lang, says) in [
        ("en", "idle has no operation running"),
        ("zh", "idle 没有正在运行的操作"),
        ("ko", "idle에는 실행 중인 작업이 없어서"),
    ] {
        let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
            .args([
                "--lang",
                lang,
                "app",
                "terminate-op",
                "idle",
                "--kubeconfig",
            ])
            .arg(lab.kubeconfig())
            .output()
            .await
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(says)
                && err.contains("Unable to terminate operation. No operation is in progress"),
            "{lang}: {err}"
        );
    }
}
