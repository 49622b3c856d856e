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
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["app", "terminate-op", "idle", "--kubeconfig"])
        .arg(lab.kubeconfig())
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("Unable to terminate operation. No operation is in progress")
    );
}
