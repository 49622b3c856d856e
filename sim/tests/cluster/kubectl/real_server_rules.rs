//! Real kubectl 1.35 meeting the rules of a real API server (measured against Kubernetes
//! v1.35.4): immutable fields on update, the self reviews behind `kubectl auth`, selector
//! parse errors, the Deployment controller's status writes, `kubectl apply --prune` over the
//! kinds of its default allowlist, and `deletecollection`.

use crate::common::{Lab, WEB, wait_json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn immutable_fields_are_refused_on_update_with_the_real_servers_words() {
    let lab = Lab::start().await;
    let web = lab.file("web.yaml", WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    // A Deployment's selector: every problem listed, as kubectl lists a 422's causes.
    let err = lab
        .kubectl_fails(&[
            "patch",
            "deployment",
            "web",
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"selector":{"matchLabels":{"app":"other"}}}}"#,
        ])
        .await;
    assert_eq!(
        err,
        "The Deployment \"web\" is invalid: \n\
         * spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`\n\
         * spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"other\"}}: field is immutable\n"
    );
    // ...and checked on create too, for every workload kind.
    let nosel = lab.file(
        "nosel.yaml",
        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  template:\n    metadata: {labels: {app: a}}\n    spec: {containers: [{name: c, image: nginx}]}\n",
    );
    let err = lab
        .kubectl_fails(&["create", "-f", nosel.to_str().unwrap()])
        .await;
    assert_eq!(
        err,
        "The StatefulSet \"db\" is invalid: \n\
         * spec.selector: Required value\n\
         * spec.template.metadata.labels: Invalid value: {\"app\":\"a\"}: `selector` does not match template `labels`\n"
    );
    // A running Job's template. The real server prints its internal Go struct as the value.
    lab.kubectl(&[
        "create",
        "job",
        "ok",
        "--image=busybox:1.36",
        "--",
        "sh",
        "-c",
        "echo ok",
    ])
    .await;
    let err = lab
        .kubectl_fails(&[
            "patch",
            "job",
            "ok",
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"template":{"spec":{"containers":[{"name":"ok","image":"busybox:1.37"}]}}}}"#,
        ])
        .await;
    assert!(
        err.starts_with("The Job \"ok\" is invalid: spec.template: Invalid value: {\"labels\":{"),
        "{err}"
    );
    assert!(err.ends_with("}}: field is immutable\n"), "{err}");
    let err = lab
        .kubectl_fails(&[
            "patch",
            "job",
            "ok",
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"completions":3}}"#,
        ])
        .await;
    assert_eq!(
        err,
        "The Job \"ok\" is invalid: spec.completions: Invalid value: 3: field is immutable\n"
    );
    // A Service's cluster IP.
    lab.kubectl(&["create", "service", "clusterip", "svc", "--tcp=80:8080"])
        .await;
    let err = lab
        .kubectl_fails(&[
            "patch",
            "svc",
            "svc",
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"clusterIP":"10.43.0.99"}}"#,
        ])
        .await;
    assert_eq!(
        err,
        "The Service \"svc\" is invalid: spec.clusterIPs[0]: Invalid value: [\"10.43.0.99\"]: may not change once set\n"
    );
    // An immutable ConfigMap's data.
    lab.kubectl(&["create", "configmap", "frozen", "--from-literal=a=b"])
        .await;
    lab.kubectl(&[
        "patch",
        "cm",
        "frozen",
        "--type",
        "merge",
        "-p",
        r#"{"immutable":true}"#,
    ])
    .await;
    let err = lab
        .kubectl_fails(&[
            "patch",
            "cm",
            "frozen",
            "--type",
            "merge",
            "-p",
            r#"{"immutable":false,"data":{"a":"c"}}"#,
        ])
        .await;
    assert_eq!(
        err,
        "The ConfigMap \"frozen\" is invalid: \n\
         * immutable: Forbidden: field is immutable when `immutable` is set\n\
         * data: Forbidden: field is immutable when `immutable` is set\n"
    );
    // A Pod's spec, except its images; the forbidden change comes with a diff.
    lab.kubectl(&["run", "one", "--image=nginx:1.27-alpine"])
        .await;
    lab.kubectl(&[
        "patch",
        "pod",
        "one",
        "--type",
        "json",
        "-p",
        r#"[{"op":"replace","path":"/spec/containers/0/image","value":"nginx:1.28-alpine"}]"#,
    ])
    .await;
    let err = lab
        .kubectl_fails(&[
            "patch",
            "pod",
            "one",
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"hostname":"x"}}"#,
        ])
        .await;
    assert!(
        err.starts_with(
            "The Pod \"one\" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"
        ),
        "{err}"
    );
    assert!(
        err.contains("\n@@ -") && err.contains("\n+ \"hostname\": \"x\",\n"),
        "{err}"
    );
    // Nor may a patch rename or move an object.
    let err = lab
        .kubectl_fails(&[
            "patch",
            "cm",
            "frozen",
            "--type",
            "merge",
            "-p",
            r#"{"metadata":{"name":"thawed"}}"#,
        ])
        .await;
    assert_eq!(
        err,
        "Error from server (BadRequest): the name of the object (thawed) does not match the name on the URL (frozen)\n"
    );
    // The uid of the stored object.
    let err = lab
        .kubectl_fails(&[
            "patch",
            "cm",
            "frozen",
            "--type",
            "merge",
            "-p",
            r#"{"metadata":{"uid":"abc"}}"#,
        ])
        .await;
    assert_eq!(
        err,
        "The ConfigMap \"frozen\" is invalid: metadata.uid: Invalid value: \"abc\": field is immutable\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_auth_asks_the_self_reviews_and_the_admin_may_do_anything() {
    let lab = Lab::start().await;
    let yes = lab
        .kubectl(&["auth", "can-i", "create", "deployments", "-n", "x"])
        .await;
    assert_eq!(yes, "yes\n");
    assert_eq!(lab.kubectl(&["auth", "can-i", "*", "*"]).await, "yes\n");
    let list = lab.kubectl(&["auth", "can-i", "--list"]).await;
    let rows: Vec<Vec<&str>> = list
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows[0],
        [
            "Resources",
            "Non-Resource",
            "URLs",
            "Resource",
            "Names",
            "Verbs"
        ]
    );
    assert_eq!(rows[1], ["*.*", "[]", "[]", "[*]"]);
    assert!(
        list.contains("selfsubjectreviews.authentication.k8s.io"),
        "{list}"
    );
    let who = lab.kubectl(&["auth", "whoami"]).await;
    let lines: Vec<Vec<&str>> = who
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(lines[1], ["Username", "system:admin"]);
    assert_eq!(
        lines[2],
        ["Groups", "[system:masters", "system:authenticated]"]
    );
    assert_eq!(
        lines[3][..2],
        ["Extra:", "authentication.kubernetes.io/credential-id"]
    );
    let review = lab.file(
        "ssar.yaml",
        "apiVersion: authorization.k8s.io/v1\nkind: SelfSubjectAccessReview\nspec:\n  resourceAttributes: {verb: create, resource: deployments, group: apps, namespace: x}\n",
    );
    // Without --validate=false kubectl would check the file against the OpenAPI v2 schema,
    // which this cluster does not serve.
    let answer = lab
        .kubectl_json(&[
            "create",
            "-f",
            review.to_str().unwrap(),
            "--validate=false",
            "--show-managed-fields",
        ])
        .await;
    assert_eq!(answer["status"], serde_json::json!({"allowed": true}));
    assert_eq!(
        answer["metadata"]["managedFields"][0]["manager"],
        "kubectl-create"
    );
    let resources = lab
        .kubectl(&[
            "api-resources",
            "--api-group=authorization.k8s.io",
            "-o",
            "wide",
        ])
        .await;
    assert!(
        resources
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == [
                    "selfsubjectaccessreviews",
                    "authorization.k8s.io/v1",
                    "false",
                    "SelfSubjectAccessReview",
                    "create"
                ]),
        "{resources}"
    );
    let err = lab
        .kubectl_fails(&[
            "get",
            "--raw",
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        ])
        .await;
    assert_eq!(
        err,
        "Error from server (MethodNotAllowed): the server does not allow this method on the requested resource\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn selector_errors_are_the_parsers_own() {
    let lab = Lab::start().await;
    let list_err = |label: &str, field: &str, why: &str| {
        format!(
            "Error from server (BadRequest): Unable to find \"/v1, Resource=configmaps\" that match label selector \"{label}\", field selector \"{field}\": {why}\n"
        )
    };
    for (label, why) in [
        (
            "a in b",
            "unable to parse requirement: found 'b' expected: '('",
        ),
        (
            "=x",
            "found '=', expected: !, identifier, or 'end of string'",
        ),
        ("a,,b", "found ',', expected: identifier after ','"),
        (
            "a b",
            "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
        ),
    ] {
        let err = lab.kubectl_fails(&["get", "cm", "-l", label]).await;
        assert_eq!(err, list_err(label, "", why), "{label}");
    }
    for (field, why) in [
        (
            "spec.x=y",
            "\"spec.x\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"",
        ),
        (
            "metadata.name",
            "invalid selector: 'metadata.name'; can't understand 'metadata.name'",
        ),
        (
            "metadata.name=a=b",
            "invalid field selector: unescaped character in value: 61",
        ),
    ] {
        let err = lab
            .kubectl_fails(&["get", "cm", "--field-selector", field])
            .await;
        assert_eq!(err, list_err("", field, why), "{field}");
    }
    let err = lab
        .kubectl_fails(&["get", "pods", "--field-selector", "spec.foo=1"])
        .await;
    assert!(
        err.ends_with(": field label not supported: spec.foo\n"),
        "{err}"
    );
    // An empty value is a value: nothing is named "".
    let out = lab
        .kubectl_output(&["get", "cm", "--field-selector", "metadata.name=="])
        .await;
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "No resources found in default namespace.\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deployment_controller_writes_its_revision_and_counts_through_status() {
    let lab = Lab::start().await;
    let web = lab.file("web.yaml", WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    let d = wait_json(
        &lab,
        &["get", "deploy", "web", "--show-managed-fields"],
        |d| d["status"]["availableReplicas"] == 2,
    )
    .await;
    assert_eq!(d["status"]["terminatingReplicas"], 0);
    let by_k3s: Vec<&serde_json::Value> = d["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["manager"] == "k3s")
        .collect();
    assert_eq!(by_k3s.len(), 1, "{by_k3s:#?}");
    assert_eq!(by_k3s[0]["subresource"], "status");
    let fields = &by_k3s[0]["fieldsV1"];
    assert!(
        fields["f:metadata"]["f:annotations"]["f:deployment.kubernetes.io/revision"].is_object(),
        "{fields:#}"
    );
    assert!(
        fields["f:status"]["f:terminatingReplicas"].is_object(),
        "{fields:#}"
    );
    let rs = lab.kubectl_json(&["get", "rs"]).await;
    assert_eq!(rs["items"][0]["status"]["terminatingReplicas"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_prune_prunes_every_kind_of_its_default_allowlist() {
    let lab = Lab::start().await;
    let test_dir = lab.file("notes.txt", "").parent().unwrap().to_path_buf();
    let dir = test_dir.join("manifests");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("keep.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n  labels: {set: lab}\n",
    )
    .unwrap();
    let gone = [
        (
            "cm.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gone\n  labels: {set: lab}\n",
        ),
        (
            "pvc.yaml",
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\n  labels: {set: lab}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n",
        ),
        (
            "cj.yaml",
            "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\n  labels: {set: lab}\nspec:\n  schedule: \"*/5 * * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers: [{name: c, image: busybox}]\n",
        ),
        (
            "ing.yaml",
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\n  labels: {set: lab}\nspec:\n  rules:\n  - host: a.example.com\n    http:\n      paths:\n      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}\n",
        ),
    ];
    for (file, text) in gone {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let dir = dir.to_str().unwrap();
    let out = lab.kubectl(&["apply", "-f", dir, "-l", "set=lab"]).await;
    assert!(out.contains("persistentvolumeclaim/data created"), "{out}");
    let pvc = lab.kubectl_json(&["get", "pvc", "data"]).await;
    assert_eq!(pvc["spec"]["storageClassName"], "local-path");
    assert_eq!(pvc["status"]["phase"], "Pending");
    for (file, _) in gone {
        std::fs::remove_file(std::path::Path::new(dir).join(file)).unwrap();
    }
    let out = lab
        .kubectl(&["apply", "-f", dir, "-l", "set=lab", "--prune"])
        .await;
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            "configmap/gone pruned",
            "configmap/keep unchanged",
            "cronjob.batch/nightly pruned",
            "ingress.networking.k8s.io/web pruned",
            "persistentvolumeclaim/data pruned",
        ]
    );
    // The claim's protection finalizer goes once no Pod uses it.
    wait_json(&lab, &["get", "pvc", "-l", "set=lab"], |l| {
        l["items"].as_array().is_some_and(Vec::is_empty)
    })
    .await;
    let left = lab
        .kubectl(&["get", "cm,pvc,cj,ing", "-l", "set=lab", "-o", "name"])
        .await;
    assert_eq!(left, "configmap/keep\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletecollection_deletes_what_the_selectors_pick() {
    let lab = Lab::start().await;
    for name in ["a", "b", "c"] {
        lab.kubectl(&["create", "configmap", name]).await;
    }
    lab.kubectl(&["label", "cm", "a", "b", "grp=x"]).await;
    let answer: serde_json::Value = serde_json::from_str(
        &lab.kubectl(&[
            "delete",
            "--raw",
            "/api/v1/namespaces/default/configmaps?labelSelector=grp%3Dx",
        ])
        .await,
    )
    .unwrap();
    assert_eq!(answer["kind"], "ConfigMapList");
    let names: Vec<&str> = answer["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "b"]);
    let left = lab.kubectl(&["get", "cm", "-o", "name"]).await;
    assert_eq!(left, "configmap/c\nconfigmap/kube-root-ca.crt\n");
    lab.kubectl(&[
        "delete",
        "--raw",
        "/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Dc",
    ])
    .await;
    assert_eq!(
        lab.kubectl(&["get", "cm", "-o", "name"]).await,
        "configmap/kube-root-ca.crt\n"
    );
    let err = lab
        .kubectl_fails(&[
            "delete",
            "--raw",
            "/api/v1/namespaces?labelSelector=grp%3Dx",
        ])
        .await;
    assert_eq!(
        err,
        "Error from server (MethodNotAllowed): the server does not allow this method on the requested resource\n"
    );
    let resources = lab
        .kubectl(&["api-resources", "--api-group=", "-o", "wide"])
        .await;
    let verbs = |name: &str| {
        resources
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .and_then(|l| l.split_whitespace().find(|w| w.contains("create")))
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        verbs("configmaps"),
        "create,delete,deletecollection,get,list,patch,update,watch"
    );
    assert_eq!(
        verbs("namespaces"),
        "create,delete,get,list,patch,update,watch"
    );
}
