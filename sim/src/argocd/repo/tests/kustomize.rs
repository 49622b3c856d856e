//! Kustomize sources through the repo server: the Application's image overrides and other
//! fields, and the errors kustomize itself gives.

use super::*;

const BASE_DEPLOY: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels: {app: api}
spec:
  replicas: 1
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - name: api
        image: nginx:1.27-alpine
"#;

fn kust_files() -> Vec<(&'static str, &'static str)> {
    vec![
        ("kust/base/deployment.yaml", BASE_DEPLOY),
        (
            "kust/base/kustomization.yaml",
            "resources:\n- deployment.yaml\n",
        ),
        (
            "kust/overlays/prod/kustomization.yaml",
            "resources:\n- ../../base\nnamePrefix: prod-\nreplicas:\n- name: api\n  count: 2\n",
        ),
    ]
}

#[test]
fn lab_kustomize_images_override() {
    if !have_tools() {
        return;
    }
    let lab = Lab::new();
    lab.commit("main", &kust_files());
    let src =
        json!({"path": "kust/overlays/prod", "kustomize": {"images": ["nginx=nginx:1.28-alpine"]}});
    let m = lab.render("src-kust", "src-kust", src).unwrap();
    assert_eq!(m.source_type, SourceType::Kustomize);
    let dep = find(&m.objects, "Deployment", "prod-api");
    assert_eq!(dep["spec"]["replicas"], 2);
    assert_eq!(
        dep["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.28-alpine"
    );
    assert_eq!(
        dep["metadata"]["annotations"][TRACKING_ID],
        "src-kust:apps/Deployment:src-kust/prod-api"
    );
    // The edit happened in a private copy: Git (and the cache) still say 1.27.
    let m = lab
        .render(
            "src-kust",
            "src-kust",
            json!({"path": "kust/overlays/prod"}),
        )
        .unwrap();
    let dep = find(&m.objects, "Deployment", "prod-api");
    assert_eq!(
        dep["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.27-alpine"
    );
}

#[test]
fn kustomize_fields_and_env() {
    if !have_tools() {
        return;
    }
    let lab = Lab::new();
    lab.commit("main", &kust_files());
    let src = json!({"path": "kust/overlays/prod", "kustomize": {
        "namePrefix": "blue-",
        "nameSuffix": "-v2",
        "namespace": "team",
        "images": ["nginx:${ARGOCD_APP_NAME}"],
        "replicas": [{"name": "api", "count": "4"}],
        "commonLabels": {"team": "$ARGOCD_APP_NAME"},
        "commonAnnotations": {"note": "$ARGOCD_APP_NAME"},
    }});
    let m = lab.render("app", "dest", src).unwrap();
    let dep = find(&m.objects, "Deployment", "blue-api-v2");
    assert_eq!(dep["metadata"]["namespace"], "team");
    assert_eq!(dep["spec"]["replicas"], 4);
    assert_eq!(
        dep["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:app"
    );
    assert_eq!(dep["metadata"]["labels"]["team"], "app");
    // Annotations are substituted only with commonAnnotationsEnvsubst.
    assert_eq!(dep["metadata"]["annotations"]["note"], "$ARGOCD_APP_NAME");
    assert_eq!(
        dep["metadata"]["annotations"][TRACKING_ID],
        "app:apps/Deployment:team/blue-api-v2"
    );
}

#[test]
fn broken_kustomization_reports_kustomize_error() {
    if !have_tools() {
        return;
    }
    let lab = Lab::new();
    let mut files = kust_files();
    files.push((
        "kust/overlays/bad/kustomization.yaml",
        "resources:\n- ../missing\n",
    ));
    lab.commit("main", &files);
    let err = lab
        .render("a", "ns", json!({"path": "kust/overlays/bad"}))
        .unwrap_err();
    let msg = err.detail();
    assert!(
        msg.starts_with("`kustomize build <path to cached source>/kust/overlays/bad` failed exit status 1: Error: accumulating resources:"),
        "{msg}"
    );
    let err = lab
        .render(
            "a",
            "ns",
            json!({"path": "kust/base", "kustomize": {"images": ["nginx"]}}),
        )
        .unwrap_err();
    assert!(err.detail().starts_with(
        "`kustomize edit set image nginx` failed exit status 1: Error: invalid format of image"
    ));
}
