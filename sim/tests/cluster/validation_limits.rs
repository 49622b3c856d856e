//! Validation that teaches (survey item 8): the sizes a real API server refuses, and label,
//! annotation and ConfigMap key syntax, in apimachinery's words; and what a client-side apply
//! of a large ConfigMap does to an Argo CD sync.

use crate::common::{
    Lab, apply_app, commit_and_push, lab_with_repo, op_state, synced_healthy, wait_app, write,
};

fn big_cm(name: &str, bytes: usize) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n  blob: \"{}\"\n",
        "x".repeat(bytes)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sizes_and_metadata_syntax_are_refused_as_a_real_server_refuses_them_survey_8() {
    let lab = Lab::start().await;
    let file = lab.file("big.txt", &"x".repeat(2_000_000));
    let err = lab
        .kubectl_fails(&[
            "create",
            "cm",
            "big",
            &format!("--from-file={}", file.display()),
        ])
        .await;
    assert!(
        err.contains(
            "ConfigMap \"big\" is invalid: []: Too long: may not be more than 1048576 bytes"
        ),
        "{err}"
    );
    let med = lab.file("med.yaml", &big_cm("med", 300_000));
    let err = lab
        .kubectl_fails(&["apply", "-f", med.to_str().unwrap()])
        .await;
    assert!(
        err.contains("metadata.annotations: Too long: may not be more than 262144 bytes"),
        "{err}"
    );
    lab.kubectl(&["apply", "--server-side", "-f", med.to_str().unwrap()])
        .await;
    lab.kubectl(&["create", "cm", "cm0", "--from-literal=a=1"])
        .await;
    let err = lab
        .kubectl_fails(&["label", "cm", "cm0", "bad key!=x"])
        .await;
    assert!(err.contains("metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters"), "{err}");
    let err = lab
        .kubectl_fails(&[
            "patch",
            "cm",
            "cm0",
            "--type",
            "merge",
            "-p",
            r#"{"metadata":{"labels":{"ok":"has space"}}}"#,
        ])
        .await;
    assert!(
        err.contains(
            "Invalid value: \"has space\": a valid label must be an empty string or consist of"
        ),
        "{err}"
    );
    let err = lab
        .kubectl_fails(&[
            "patch",
            "cm",
            "cm0",
            "--type",
            "merge",
            "-p",
            r#"{"metadata":{"annotations":{"Bad/Key/x":"1"}}}"#,
        ])
        .await;
    assert!(
        err.contains(
            "metadata.annotations: Invalid value: \"Bad/Key/x\": a valid label key must consist"
        ),
        "{err}"
    );
    let err = lab
        .kubectl_fails(&[
            "patch",
            "cm",
            "cm0",
            "--type",
            "merge",
            "-p",
            r#"{"data":{"bad key":"x"}}"#,
        ])
        .await;
    assert!(err.contains("data[bad key]: Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.'"), "{err}");
    let err = lab
        .kubectl_fails(&[
            "patch",
            "cm",
            "cm0",
            "--type",
            "merge",
            "-p",
            r#"{"binaryData":{"a":"MQ=="}}"#,
        ])
        .await;
    assert!(
        err.contains("data[a]: Invalid value: \"a\": duplicate of key present in binaryData"),
        "{err}"
    );
}

/// The well-known reason for `ServerSideApply=true`: Argo CD's client-side apply writes the
/// whole ConfigMap into the last-applied annotation, which a 300 KB ConfigMap pushes over
/// 256 KiB, so the sync fails; with server-side apply it syncs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_configmap_fails_client_side_apply_but_not_server_side_survey_8() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/big.yaml", &big_cm("t-bigcm", 300_000));
    commit_and_push(&repo, "a big ConfigMap").await;
    apply_app(&lab, "t-bigcm", "app", "", "").await;
    let app = wait_app(&lab, "t-bigcm", "failed and retrying", |a| {
        op_state(a)["retryCount"].as_i64() >= Some(1)
    })
    .await;
    let message = op_state(&app)["message"].as_str().unwrap();
    assert!(
        message.starts_with("one or more objects failed to apply, reason: ")
            && message
                .contains("metadata.annotations: Too long: may not be more than 262144 bytes"),
        "{message}"
    );
    // The same failed revision is not tried again by automated sync: a sync by hand with
    // ServerSideApply=true, as a learner would run it.
    crate::common::terminate_op(&lab, "t-bigcm").await;
    wait_app(&lab, "t-bigcm", "terminated", |a| a["operation"].is_null()).await;
    lab.kubectl(&["-n", "argocd", "patch", "app", "t-bigcm", "--type", "merge", "-p",
        r#"{"operation":{"initiatedBy":{"username":"learner"},"sync":{"syncOptions":["CreateNamespace=true","ServerSideApply=true"]}}}"#]).await;
    wait_app(
        &lab,
        "t-bigcm",
        "Synced with server-side apply",
        synced_healthy,
    )
    .await;
}

/// CRD `required` (audit 2, item 3): an Application without a project or destination, or a
/// source without its repoURL, is refused before the controller sees it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_application_missing_required_fields_is_refused_audit_2_3() {
    let lab = Lab::start().await;
    let noproj = lab.file("noproj.yaml", "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: noproj, namespace: argocd}\nspec:\n  source: {path: app}\n");
    let err = lab
        .kubectl_fails(&["apply", "-f", noproj.to_str().unwrap()])
        .await;
    for field in [
        "spec.destination: Required value",
        "spec.project: Required value",
        "spec.source.repoURL: Required value",
    ] {
        assert!(err.contains(field), "{field}: {err}");
    }
    assert!(err.contains("Application \"noproj\" is invalid"), "{err}");
    let out = lab
        .kubectl_output(&["-n", "argocd", "get", "app", "noproj"])
        .await;
    assert!(!out.status.success(), "nothing was stored");
}
