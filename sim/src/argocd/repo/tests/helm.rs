//! Helm sources through the repo server: value precedence layer by layer, release name and
//! namespace, and the errors helm itself gives.

use super::*;

#[test]
fn lab_precedence_parameters_beat_values_object_beat_value_files() {
    if !have_tools() {
        return;
    }
    let lab = Lab::new();
    lab.commit("main", &chart_files());
    let m = lab
        .render(
            "src-helm",
            "src-helm",
            helm(json!({"helm": {
                "valueFiles": ["values-prod.yaml"],
                "valuesObject": {"replicaCount": 3, "greeting": "from-values-object"},
                "parameters": [{"name": "greeting", "value": "from-parameter"}],
            }})),
        )
        .unwrap();
    assert_eq!(m.source_type, SourceType::Helm);
    assert_eq!(m.revision.len(), 40);
    let dep = find(&m.objects, "Deployment", "src-helm-web");
    assert_eq!(dep["spec"]["replicas"], 3);
    let cm = find(&m.objects, "ConfigMap", "src-helm-greeting");
    assert_eq!(cm["data"]["greeting"], "from-parameter");
    assert_eq!(
        cm["metadata"]["annotations"][TRACKING_ID],
        "src-helm:/ConfigMap:src-helm/src-helm-greeting"
    );
    assert_eq!(
        dep["metadata"]["annotations"][TRACKING_ID],
        "src-helm:apps/Deployment:src-helm/src-helm-web"
    );
    // Annotation tracking only: no instance label from Argo CD.
    assert!(
        cm["metadata"]["labels"]
            .get("app.kubernetes.io/instance")
            .is_none()
    );
    assert_eq!(cm["metadata"]["labels"]["release-namespace"], "src-helm");
    // CRDs come out (--include-crds) without a tracking annotation.
    let crd = find(
        &m.objects,
        "CustomResourceDefinition",
        "widgets.example.com",
    );
    assert!(crd["metadata"].get("annotations").is_none());
}

#[test]
fn each_precedence_layer_on_its_own() {
    if !have_tools() {
        return;
    }
    let lab = Lab::new();
    lab.commit("main", &chart_files());
    let greeting = |helm_block: Value| {
        let m = lab
            .render("web", "ns", helm(json!({ "helm": helm_block })))
            .unwrap();
        let cm = find(&m.objects, "ConfigMap", "web-greeting").clone();
        let dep = find(&m.objects, "Deployment", "web-web").clone();
        (
            cm["data"]["greeting"].as_str().unwrap().to_string(),
            dep["spec"]["replicas"].as_i64().unwrap(),
        )
    };
    // No helm block at all: chart defaults, detected by Chart.yaml.
    let m = lab.render("web", "ns", helm(json!({}))).unwrap();
    assert_eq!(
        find(&m.objects, "ConfigMap", "web-greeting")["data"]["greeting"],
        "chart-default"
    );
    assert_eq!(
        greeting(json!({"valueFiles": ["values-prod.yaml"]})),
        ("from-values-file".into(), 2)
    );
    // Later value files win; `/` starts at the repo root.
    assert_eq!(
        greeting(json!({"valueFiles": ["values-prod.yaml", "/common/extra.yaml"]})),
        ("from-root-file".into(), 2)
    );
    // values (string) is used when there is no valuesObject...
    assert_eq!(
        greeting(json!({"valueFiles": ["values-prod.yaml"], "values": "greeting: from-values\n"})),
        ("from-values".into(), 2)
    );
    // ...and valuesObject replaces it entirely.
    assert_eq!(
        greeting(
            json!({"values": "greeting: from-values\nreplicaCount: 5\n", "valuesObject": {"greeting": "obj"}})
        ),
        ("obj".into(), 1)
    );
}

#[test]
fn release_name_namespace_and_force_string() {
    if !have_tools() {
        return;
    }
    let lab = Lab::new();
    lab.commit("main", &chart_files());
    let m = lab
        .render(
            "app",
            "dest",
            helm(json!({"helm": {
                "releaseName": "rel",
                "namespace": "helm-ns",
                "parameters": [{"name": "greeting", "value": "true", "forceString": true}],
                "skipCrds": true,
            }})),
        )
        .unwrap();
    let cm = find(&m.objects, "ConfigMap", "rel-greeting");
    assert_eq!(cm["metadata"]["labels"]["release-namespace"], "helm-ns");
    assert_eq!(cm["data"]["greetingKind"], "string");
    // The tracking namespace is the destination's (the manifest has none).
    assert_eq!(
        cm["metadata"]["annotations"][TRACKING_ID],
        "app:/ConfigMap:dest/rel-greeting"
    );
    assert!(
        !m.objects
            .iter()
            .any(|o| o["kind"] == "CustomResourceDefinition")
    );

    let m = lab
        .render(
            "app",
            "dest",
            helm(json!({"helm": {"parameters": [{"name": "greeting", "value": "true"}]}})),
        )
        .unwrap();
    assert_eq!(
        find(&m.objects, "ConfigMap", "app-greeting")["data"]["greetingKind"],
        "bool"
    );
}

#[test]
fn value_file_errors() {
    if !have_tools() {
        return;
    }
    let lab = Lab::new();
    lab.commit("main", &chart_files());
    let err = lab
        .render(
            "web",
            "ns",
            helm(json!({"helm": {"valueFiles": ["values-missing.yaml"]}})),
        )
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = failed to execute helm template command: failed running helm: `helm template . --name-template web --namespace ns --values <path to cached source>/charts/web/values-missing.yaml --include-crds` failed exit status 1: Error: open <path to cached source>/charts/web/values-missing.yaml: no such file or directory"),
        "{msg}"
    );
    let ok = lab.render(
        "web",
        "ns",
        helm(json!({"helm": {"valueFiles": ["values-missing.yaml", "values-prod.yaml"], "ignoreMissingValueFiles": true}})),
    );
    assert_eq!(
        find(&ok.unwrap().objects, "Deployment", "web-web")["spec"]["replicas"],
        2
    );
    let err = lab
        .render(
            "web",
            "ns",
            helm(json!({"helm": {"valueFiles": ["../../../../etc/passwd"]}})),
        )
        .unwrap_err();
    assert_eq!(
        err.detail(),
        "error resolving helm value files: error resolving value file path: file '../../../../etc/passwd' resolved to outside repository root"
    );
    let err = lab
        .render(
            "web",
            "ns",
            helm(json!({"helm": {"valueFiles": ["envs/*.yaml"]}})),
        )
        .unwrap_err();
    assert_eq!(err.code(), RpcCode::NotFound);
}

#[test]
fn broken_chart_reports_helms_own_error() {
    if !have_tools() {
        return;
    }
    let lab = Lab::new();
    let mut files = chart_files();
    files.push((
        "charts/web/templates/broken.yaml",
        "kind: ConfigMap\nname: {{ .Release.Name }-x\n",
    ));
    lab.commit("main", &files);
    let err = lab.render("web", "ns", helm(json!({}))).unwrap_err();
    assert_eq!(err.code(), RpcCode::Unknown);
    let msg = err.to_string();
    assert!(msg.contains("failed to execute helm template command: failed running helm: `helm template . --name-template web"), "{msg}");
    assert!(
        msg.contains("failed exit status 1: Error: parse error at (web/templates/broken.yaml:2)"),
        "{msg}"
    );
}

#[test]
fn cluster_versions_are_passed_and_hidden_in_errors() {
    if !have_tools() {
        return;
    }
    let lab = Lab::new();
    let mut files = chart_files();
    files.push((
        "charts/web/templates/caps.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: caps}\ndata:\n  kube: {{ .Capabilities.KubeVersion.Version | quote }}\n  widgets: {{ .Capabilities.APIVersions.Has \"example.com/v1/Widget\" | quote }}\n{{ if .Values.fail }}{{ fail \"boom\" }}{{ end }}\n",
    ));
    lab.commit("main", &files);
    let tmp = tempfile::tempdir().unwrap();
    let server = RepoServer::new(tmp.path().to_path_buf(), HostMap::default())
        .reading_local_paths()
        .with_cluster(
            "v1.35.2+k3s1",
            vec!["v1".into(), "example.com/v1/Widget".into()],
        );
    let sha = server.resolve(&lab.url, "main").unwrap();
    let m = server
        .generate("web", "ns", &lab.source(helm(json!({}))), &sha)
        .unwrap();
    let caps = find(&m.objects, "ConfigMap", "caps");
    assert_eq!(caps["data"]["kube"], "v1.35.2");
    assert_eq!(caps["data"]["widgets"], "true");
    let src = lab.source(helm(
        json!({"helm": {"parameters": [{"name": "fail", "value": "true"}]}}),
    ));
    let err = server.generate("web", "ns", &src, &sha).unwrap_err();
    assert!(
        err.detail().contains("--kube-version 1.35.2 --set fail=true <api versions removed> --include-crds` failed exit status 1: Error:"),
        "{}",
        err.detail()
    );
}
