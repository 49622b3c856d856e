//! What the lessons say about Argo CD's timing, held against what the embedded cluster does: a
//! lesson that names a schedule must name the one a learner will watch.

use std::time::Duration;

use serde_json::Value;

use crate::common::{Lab, commit_and_push, src_repo, wait_app, write};

/// The numbers of the first "a + b + c" run in `text` after `after`, before `unit`.
fn sum_after(text: &str, after: &str, unit: &str) -> Vec<u64> {
    let start = text
        .find(after)
        .unwrap_or_else(|| panic!("the lesson says {after:?}"))
        + after.len();
    let rest = &text[start..];
    let end = rest.find(unit).expect("the schedule ends with its unit");
    rest[..end]
        .split('+')
        .map(|n| n.trim().parse().expect("a number of seconds"))
        .collect()
}

/// Lesson 6 (both languages) names the waits between automated retries: they must be the
/// gaps the embedded cluster leaves between one failed attempt and the next (each gap is the
/// wait plus the next attempt's 2 s pause and hook run). Audit 2, item 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lesson_six_states_the_retry_schedule_the_cluster_runs_audit_2_1() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/06-failed-hook");
    let en = std::fs::read_to_string(root.join("en.md")).unwrap();
    let zh = std::fs::read_to_string(root.join("zh.md")).unwrap();
    let waits = sum_after(&en, "the retries wait ", " s");
    assert_eq!(
        sum_after(&zh, "重试间隔 ", " 秒"),
        waits,
        "both languages agree"
    );

    // Fast enough to be short, slow enough that a poll (a kubectl process, slow on a loaded
    // 2-core machine) never misses a whole attempt: the shortest gap is 10 s, 0.6 s here.
    let lab = Lab::start_with(capa_sim::Config {
        speed: 16.0,
        ..capa_sim::Config::default()
    })
    .await;
    let repo = src_repo(&lab).await;
    write(
        &repo,
        "app/pre.yaml",
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  annotations: {argocd.argoproj.io/hook: PreSync}\nspec:\n  backoffLimit: 0\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: m, image: busybox, command: [sh, -c, \"exit 1\"]}]\n",
    );
    write(
        &repo,
        "app/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {mode: blue}\n",
    );
    commit_and_push(&repo, "a failing hook").await;
    let app = lab.file(
        "app.yaml",
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: retries, namespace: argocd}\nspec:\n  project: default\n  source: {repoURL: \"git://gitd.gitsrv.svc.cluster.local:9418/src.git\", targetRevision: main, path: app}\n  destination: {server: \"https://kubernetes.default.svc\", namespace: retries}\n  syncPolicy:\n    automated: {}\n    syncOptions: [CreateNamespace=true]\n",
    );
    lab.kubectl(&["apply", "-f", app.to_str().unwrap()]).await;
    // Every failed attempt writes its finishedAt; the last one ends the operation.
    let mut finished: Vec<jiff::Timestamp> = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let app = lab
            .kubectl_json(&["-n", "argocd", "get", "app", "retries"])
            .await;
        let state = &app["status"]["operationState"];
        if let Some(t) = state["finishedAt"].as_str().and_then(|t| t.parse().ok())
            && finished.last() != Some(&t)
        {
            finished.push(t);
        }
        if state["phase"] == "Failed" {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the retries never ran out: {state}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let gaps: Vec<i64> = finished
        .windows(2)
        .map(|w| w[1].duration_since(w[0]).as_secs())
        .collect();
    assert_eq!(gaps.len(), waits.len(), "one gap per retry: {finished:?}");
    for (gap, wait) in gaps.iter().zip(&waits) {
        let extra = gap - *wait as i64;
        assert!(
            (1..=10).contains(&extra),
            "a retry the lesson says waits {wait} s came {gap} s after the failure before it: {gaps:?}"
        );
    }
    let last: Value = wait_app(&lab, "retries", "Failed", |a| {
        a["status"]["operationState"]["phase"] == "Failed"
    })
    .await;
    assert!(
        last["status"]["operationState"]["message"]
            .as_str()
            .unwrap()
            .ends_with(&format!("(retried {} times).", waits.len()))
    );
}
