//! Real kubectl against the embedded cluster's field validation: a typo in a manifest is
//! refused as k3s refuses it (kubectl asks for strict validation by default), `--validate=warn`
//! prints the warning, `--validate=false` drops the field.

use crate::common::{Lab, WEB};

fn typo() -> String {
    WEB.replace("  replicas: 2\n", "  replica: 3\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typo_in_a_new_deployment_is_refused_with_the_real_message() {
    let lab = Lab::start().await;
    let file = lab.file("web.yaml", &typo());
    let path = file.to_str().unwrap();
    let err = lab.kubectl_fails(&["apply", "-f", path]).await;
    assert_eq!(
        err.trim(),
        format!(
            "Error from server (BadRequest): error when creating \"{path}\": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replica\""
        )
    );
    let err = lab.kubectl_fails(&["create", "-f", path]).await;
    assert!(
        err.contains("strict decoding error: unknown field \"spec.replica\""),
        "{err}"
    );
    let out = lab.kubectl_output(&["get", "deploy", "web"]).await;
    assert!(!out.status.success(), "nothing was stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn validate_warn_prints_the_warning_and_validate_false_drops_silently() {
    let lab = Lab::start().await;
    let path = lab.file("web.yaml", &typo());
    let out = lab
        .kubectl_output(&["apply", "--validate=warn", "-f", path.to_str().unwrap()])
        .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.trim(), "Warning: unknown field \"spec.replica\"");
    let d = lab.kubectl_json(&["get", "deploy", "web"]).await;
    assert!(d["spec"].get("replica").is_none(), "{}", d["spec"]);
    assert_eq!(d["spec"]["replicas"], 1, "defaulted, the typo is gone");

    lab.kubectl(&["delete", "deploy", "web"]).await;
    let out = lab
        .kubectl_output(&["apply", "--validate=false", "-f", path.to_str().unwrap()])
        .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.trim(), "", "Ignore drops without a word");
    let d = lab.kubectl_json(&["get", "deploy", "web"]).await;
    assert!(d["spec"].get("replica").is_none(), "{}", d["spec"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typo_applied_to_an_existing_deployment_is_an_invalid_patch() {
    let lab = Lab::start().await;
    lab.kubectl(&["apply", "-f", lab.file("web.yaml", WEB).to_str().unwrap()])
        .await;
    let path = lab.file("typo.yaml", &typo());
    let err = lab
        .kubectl_fails(&["apply", "-f", path.to_str().unwrap()])
        .await;
    // kubectl prints an Invalid error without kind or name as "The request is invalid".
    assert!(
        err.starts_with("The request is invalid: patch: Invalid value: \"map[metadata:map[annotations:map[kubectl.kubernetes.io/last-applied-configuration:"),
        "{err}"
    );
    assert!(
        err.trim_end().ends_with("spec:map[replica:3 replicas:<nil>]]\": strict decoding error: unknown field \"spec.replica\""),
        "{err}"
    );
    let d = lab.kubectl_json(&["get", "deploy", "web"]).await;
    assert_eq!(
        d["spec"]["replicas"], 2,
        "the refused patch changed nothing"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_side_apply_refuses_an_undeclared_field_even_without_validation() {
    let lab = Lab::start().await;
    let path = lab.file("web.yaml", &typo());
    for validate in ["--validate=strict", "--validate=false"] {
        let err = lab
            .kubectl_fails(&[
                "apply",
                "--server-side",
                validate,
                "-f",
                path.to_str().unwrap(),
            ])
            .await;
        assert_eq!(
            err.trim(),
            "Error from server: failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.replica: field not declared in schema",
            "{validate}"
        );
    }
}

/// Sends one raw request with kube-rs's client and returns the status code and JSON body.
async fn send(lab: &Lab, method: &str, uri: &str, body: &str) -> (u16, serde_json::Value) {
    let request = http::Request::builder()
        .method(method)
        .uri(uri)
        .header("Content-Type", "application/json")
        .body(kube::client::Body::from(body.as_bytes().to_vec()))
        .unwrap();
    let response = lab.client().await.send(request).await.unwrap();
    let code = response.status().as_u16();
    let bytes = response.into_body().collect_bytes().await.unwrap();
    (code, serde_json::from_slice(&bytes).unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_label_or_annotation_that_is_not_a_string_is_refused_as_the_decoder_refuses_it() {
    // kubectl refuses this itself before sending; any other client meets the server's check.
    let lab = Lab::start().await;
    let (code, status) = send(
        &lab,
        "POST",
        "/api/v1/namespaces/default/configmaps",
        r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "annotations": {"argocd.argoproj.io/sync-wave": -1}}}"#,
    )
    .await;
    assert_eq!(
        (code, &status["reason"]),
        (400, &serde_json::json!("BadRequest"))
    );
    assert_eq!(
        status["message"],
        "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string"
    );
    let (code, status) = send(
        &lab,
        "POST",
        "/apis/argoproj.io/v1alpha1/namespaces/argocd/applications?fieldValidation=Ignore",
        r#"{"apiVersion": "argoproj.io/v1alpha1", "kind": "Application", "metadata": {"name": "a", "labels": {"tier": true}}, "spec": {}}"#,
    )
    .await;
    assert_eq!(code, 400, "{status}");
    assert_eq!(
        status["message"],
        "Application in version \"v1alpha1\" cannot be handled as a Application: json: cannot unmarshal bool into Go struct field ObjectMeta.labels of type string"
    );
}

const APP: &str = r#"apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: web
  namespace: argocd
spec:
  project: default
  source:
    repoURL: git://gitd.gitsrv.svc.cluster.local:9418/lab.git
    path: apps/web
    targetRevision: main
  destination:
    server: https://kubernetes.default.svc
    namespace: default
  syncPolicy:
    automated:
      prune: true
      selfheal: true
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_application_with_selfheal_in_lower_case_is_refused_and_pruned_when_not_strict() {
    let lab = Lab::start().await;
    let path = lab.file("app.yaml", APP);
    let path = path.to_str().unwrap();
    let err = lab.kubectl_fails(&["apply", "-f", path]).await;
    assert_eq!(
        err.trim(),
        format!(
            "Error from server (BadRequest): error when creating \"{path}\": Application in version \"v1alpha1\" cannot be handled as a Application: strict decoding error: unknown field \"spec.syncPolicy.automated.selfheal\""
        )
    );
    let err = lab
        .kubectl_fails(&["apply", "--server-side", "-f", path])
        .await;
    assert_eq!(
        err.trim(),
        "Error from server: failed to create typed patch object (argocd/web; argoproj.io/v1alpha1, Kind=Application): .spec.syncPolicy.automated.selfheal: field not declared in schema"
    );
    let out = lab
        .kubectl_output(&["apply", "--validate=false", "-f", path])
        .await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let app = lab
        .kubectl_json(&["get", "application", "web", "-n", "argocd"])
        .await;
    assert_eq!(
        app["spec"]["syncPolicy"]["automated"],
        serde_json::json!({"prune": true}),
        "pruned as the CRD's structural schema prunes"
    );

    // Applied again to the existing Application, the typo meets the merge-patch path (custom
    // resources take no strategic merge): the patched object is shown as JSON.
    let err = lab.kubectl_fails(&["apply", "-f", path]).await;
    assert!(
        err.starts_with(r#"The request is invalid: patch: Invalid value: "{\"apiVersion\":\"argoproj.io/v1alpha1\""#),
        "{err}"
    );
    assert!(
        err.trim_end().ends_with(
            r#"": strict decoding error: unknown field "spec.syncPolicy.automated.selfheal""#
        ),
        "{err}"
    );
    let out = lab
        .kubectl_output(&["apply", "--validate=warn", "-f", path])
        .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr.trim(),
        r#"Warning: unknown field "spec.syncPolicy.automated.selfheal""#
    );

    // A value of the wrong type is refused by the CRD's schema validation.
    let wrong = lab.file(
        "wrong.yaml",
        &APP.replace("selfheal: true", "selfHeal: \"yes\""),
    );
    let err = lab
        .kubectl_fails(&["apply", "-f", wrong.to_str().unwrap()])
        .await;
    assert!(
        err.contains(r#"spec.syncPolicy.automated.selfHeal: Invalid value: "string": spec.syncPolicy.automated.selfHeal in body must be of type boolean: "string""#),
        "{err}"
    );
}

/// What the cluster's own controllers and Argo CD write is what a real server would keep: no
/// stored object has a field its kind's schema does not declare. (A field that slipped in would
/// make every later `kubectl apply` or `edit` of that object fail strict validation.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_the_cluster_writes_itself_has_only_declared_fields() {
    use crate::common::{app_yaml, commit_and_push, src_repo, synced_healthy, wait_app, write};
    let lab = Lab::start().await;
    let repo = src_repo(&lab).await;
    write(
        &repo,
        "app/web.yaml",
        &WEB.replace("  namespace: default\n", ""),
    );
    write(
        &repo,
        "app/svc.yaml",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports: [{port: 80, targetPort: 80}]\n",
    );
    write(
        &repo,
        "app/hook.yaml",
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  annotations:\n    argocd.argoproj.io/hook: PreSync\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: m, image: busybox, command: [\"true\"]}]\n",
    );
    commit_and_push(&repo, "web").await;
    let app = lab.file("app.yaml", &app_yaml("web", "app", "", ""));
    lab.kubectl(&["apply", "-f", app.to_str().unwrap()]).await;
    wait_app(&lab, "web", "Synced and Healthy", synced_healthy).await;
    let mut kinds = std::collections::BTreeSet::new();
    for stored in lab.handle.objects() {
        let unknown = stored.undeclared_fields();
        assert!(
            unknown.is_empty(),
            "{} {}/{} has {unknown:?}",
            stored.kind,
            stored.namespace,
            stored.name
        );
        kinds.insert(stored.kind);
    }
    for kind in [
        "Application",
        "AppProject",
        "Deployment",
        "ReplicaSet",
        "Pod",
        "Service",
        "Job",
        "Event",
        "Namespace",
        "CustomResourceDefinition",
    ] {
        assert!(kinds.contains(kind), "no {kind} was checked: {kinds:?}");
    }
}
