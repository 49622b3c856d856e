//! The whole lab (shared/lab, steps 1–7) done by hand with the real git CLI and the real
//! kubectl against the embedded cluster, asserting at each step what a learner must see.

use crate::common::{Lab, app_yaml, commit_and_push, src_repo, synced_healthy, wait_app, write};

const CHART: &[(&str, &str)] = &[
    (
        "charts/web/Chart.yaml",
        "apiVersion: v2\nname: web\nversion: 0.1.0\n",
    ),
    (
        "charts/web/values.yaml",
        "replicaCount: 1\ngreeting: chart-default\n",
    ),
    (
        "charts/web/values-prod.yaml",
        "replicaCount: 2\ngreeting: from-values-file\n",
    ),
    (
        "charts/web/templates/configmap.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-greeting\ndata:\n  greeting: {{ .Values.greeting | quote }}\n",
    ),
    (
        "charts/web/templates/deployment.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}-web\nspec:\n  replicas: {{ .Values.replicaCount }}\n  selector:\n    matchLabels: {app: {{ .Release.Name }}-web}\n  template:\n    metadata:\n      labels: {app: {{ .Release.Name }}-web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27-alpine\n",
    ),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_whole_lab_by_hand_with_git_and_kubectl() {
    let lab = Lab::start().await;
    let repo = src_repo(&lab).await;

    // Step 1: a chart in Git and an Application pointing at it.
    for (path, text) in CHART {
        write(&repo, path, text);
    }
    commit_and_push(&repo, "web chart").await;
    let helm_values = "    helm:\n      valueFiles: [values-prod.yaml]\n";
    let app_helm = lab.file(
        "app-src-helm.yaml",
        &app_yaml("src-helm", "charts/web", helm_values, ""),
    );
    lab.kubectl(&["apply", "-f", app_helm.to_str().unwrap()])
        .await;
    let app = wait_app(&lab, "src-helm", "Synced and Healthy", synced_healthy).await;
    assert_eq!(app["status"]["sourceType"], "Helm");
    let d = lab
        .kubectl_json(&["-n", "src-helm", "get", "deploy", "src-helm-web"])
        .await;
    assert_eq!(
        d["spec"]["replicas"], 2,
        "values-prod.yaml beats values.yaml"
    );
    let cm = lab
        .kubectl_json(&["-n", "src-helm", "get", "cm", "src-helm-greeting"])
        .await;
    assert_eq!(cm["data"]["greeting"], "from-values-file");
    let table = lab.kubectl(&["-n", "argocd", "get", "applications"]).await;
    assert!(
        table
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["src-helm", "Synced", "Healthy"]),
        "{table}"
    );

    // Step 2: valuesObject and parameters.
    let helm_values = "    helm:\n      valueFiles: [values-prod.yaml]\n      valuesObject: {replicaCount: 3, greeting: from-values-object}\n      parameters: [{name: greeting, value: from-parameter}]\n";
    let app_helm = lab.file(
        "app-src-helm.yaml",
        &app_yaml("src-helm", "charts/web", helm_values, ""),
    );
    lab.kubectl(&["apply", "-f", app_helm.to_str().unwrap()])
        .await;
    wait_app(&lab, "src-helm", "synced with 3 replicas", |a| {
        synced_healthy(a)
            && a["status"]["operationState"]["syncResult"]["source"]["helm"]["parameters"]
                .is_array()
    })
    .await;
    let d = lab
        .kubectl_json(&["-n", "src-helm", "get", "deploy", "src-helm-web"])
        .await;
    assert_eq!(d["spec"]["replicas"], 3, "valuesObject beats valueFiles");
    let cm = lab
        .kubectl_json(&["-n", "src-helm", "get", "cm", "src-helm-greeting"])
        .await;
    assert_eq!(
        cm["data"]["greeting"], "from-parameter",
        "parameters beat valuesObject"
    );

    // Step 3: no Helm release; annotation tracking.
    let secrets = lab
        .kubectl_json(&[
            "-n",
            "src-helm",
            "get",
            "secrets",
            "--field-selector",
            "type=helm.sh/release.v1",
        ])
        .await;
    assert_eq!(secrets["items"].as_array().unwrap().len(), 0);
    assert_eq!(
        cm["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"],
        "src-helm:/ConfigMap:src-helm/src-helm-greeting"
    );
    assert!(cm["metadata"]["labels"]["app.kubernetes.io/instance"].is_null());

    // Step 4: Kustomize with an image override that lives only in the Application.
    write(
        &repo,
        "kust/base/deployment.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n  labels: {app: api}\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: api}\n  template:\n    metadata:\n      labels: {app: api}\n    spec:\n      containers:\n      - name: api\n        image: nginx:1.27-alpine\n",
    );
    write(
        &repo,
        "kust/base/kustomization.yaml",
        "resources: [deployment.yaml]\n",
    );
    write(
        &repo,
        "kust/overlays/prod/kustomization.yaml",
        "resources: [../../base]\nnamePrefix: prod-\nreplicas:\n- name: api\n  count: 2\n",
    );
    commit_and_push(&repo, "kustomize layout").await;
    let kust = "    kustomize:\n      images: [nginx=nginx:1.28-alpine]\n";
    let app_kust = lab.file(
        "app-src-kust.yaml",
        &app_yaml("src-kust", "kust/overlays/prod", kust, ""),
    );
    lab.kubectl(&["apply", "-f", app_kust.to_str().unwrap()])
        .await;
    let app = wait_app(&lab, "src-kust", "Synced and Healthy", synced_healthy).await;
    assert_eq!(app["status"]["sourceType"], "Kustomize");
    let pods = lab
        .kubectl_json(&["-n", "src-kust", "get", "pods", "-l", "app=api"])
        .await;
    let images: Vec<&str> = pods["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["spec"]["containers"][0]["image"].as_str().unwrap())
        .collect();
    assert_eq!(images, ["nginx:1.28-alpine"; 2]);
    assert!(
        std::fs::read_to_string(repo.join("kust/base/deployment.yaml"))
            .unwrap()
            .contains("nginx:1.27-alpine"),
        "Git still says 1.27"
    );
    let app = wait_app(&lab, "src-kust", "showing the 1.28 image", |a| {
        a["status"]["summary"]["images"] == serde_json::json!(["nginx:1.28-alpine"])
    })
    .await;
    assert_eq!(app["status"]["summary"]["images"][0], "nginx:1.28-alpine");

    super::lab_waves::steps_5_to_7(&lab, &repo).await;
}
