//! Fidelity audit 2, the repo server's side: what helm is told about the cluster, and when a
//! push is seen (the 3-minute cache of a repo's refs). Item numbers are the audit's.

use serde_json::Value;

use crate::common::{
    apply_app, commit_and_push, comparison_error, lab_with_repo, synced_healthy, wait_app, write,
};

/// Item 9: helm renders for the destination cluster — `--kube-version` and every
/// `--api-versions` — so `.Capabilities` is the cluster's, and a failing render's command
/// line shows the version and hides the API versions as upstream does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn helm_is_told_the_clusters_version_and_api_versions_audit_2_9() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "chart/Chart.yaml",
        "apiVersion: v2\nname: caps\nversion: 0.1.0\n",
    );
    write(
        &repo,
        "chart/templates/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: caps\ndata:\n  kube: {{ .Capabilities.KubeVersion.Version | quote }}\n  deployments: {{ .Capabilities.APIVersions.Has \"apps/v1/Deployment\" | quote }}\n  nonsense: {{ .Capabilities.APIVersions.Has \"nope.example.com/v9\" | quote }}\n",
    );
    commit_and_push(&repo, "capabilities").await;
    apply_app(&lab, "caps", "chart", "", "").await;
    wait_app(&lab, "caps", "Synced and Healthy", synced_healthy).await;
    let cm: Value = lab.kubectl_json(&["-n", "caps", "get", "cm", "caps"]).await;
    let kubectl = lab.kubectl(&["version", "-o", "json"]).await;
    let server: Value = serde_json::from_str(&kubectl).unwrap();
    let server_version = server["serverVersion"]["gitVersion"].as_str().unwrap();
    let expected = server_version.split('+').next().unwrap();
    assert_eq!(cm["data"]["kube"], expected, "{cm}");
    assert_eq!(cm["data"]["deployments"], "true");
    assert_eq!(cm["data"]["nonsense"], "false");
    // A value file that does not exist: the command line as the ComparisonError shows it.
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "caps",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"source":{"helm":{"valueFiles":["values-prod.yaml"]}}}}"#,
    ])
    .await;
    let (_, condition) = comparison_error(&lab, "caps").await;
    let message = condition["message"].as_str().unwrap();
    let bare = expected.trim_start_matches('v');
    assert!(
        message.contains(&format!(
            "`helm template . --name-template caps --namespace caps --kube-version {bare} --values <path to cached source>/chart/values-prod.yaml <api versions removed> --include-crds`"
        )),
        "{message}"
    );
}
