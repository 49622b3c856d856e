//! CustomResourceDefinitions served as a 1.35 API server serves them, with the real kubectl,
//! helm and Argo CD: a CRD is accepted and Established, its group appears in discovery, its
//! custom resources are served (validated, pruned and defaulted by its schema, with `/status`,
//! `/scale`, printer columns, short names and categories), and deleting it deletes them.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Lab, lab_with_repo, wait_json};
use crate::common::{URL, commit_and_push, wait_app, write};

const CRD: &str = r"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.crd-test.example.io
spec:
  group: crd-test.example.io
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wdg], categories: [all]}
  versions:
    - name: v1
      served: true
      storage: true
      subresources:
        status: {}
        scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
      additionalPrinterColumns:
        - {name: Size, type: integer, jsonPath: .spec.size}
        - {name: Colour, type: string, jsonPath: .spec.colour, priority: 1}
      schema:
        openAPIV3Schema:
          type: object
          description: A widget.
          properties:
            spec:
              type: object
              description: What the widget should be.
              required: [size]
              properties:
                size: {type: integer, minimum: 1, description: How big.}
                colour: {type: string, enum: [red, blue], default: red}
                replicas: {type: integer}
            status:
              type: object
              properties:
                phase: {type: string}
                replicas: {type: integer}
";

fn widget(name: &str, spec: &str) -> String {
    format!(
        "apiVersion: crd-test.example.io/v1\nkind: Widget\nmetadata:\n  name: {name}\nspec: {spec}\n"
    )
}

async fn apply(lab: &Lab, name: &str, text: &str) -> String {
    let file = lab.file(name, text);
    lab.kubectl(&["apply", "-f", file.to_str().unwrap()]).await
}

async fn established(lab: &Lab) {
    lab.kubectl(&[
        "wait",
        "--for",
        "condition=established",
        "--timeout=20s",
        "crd/widgets.crd-test.example.io",
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crd_is_accepted_established_and_its_resources_served() {
    let lab = Lab::start().await;
    apply(&lab, "crd.yaml", CRD).await;
    established(&lab).await;
    let crd = lab
        .kubectl_json(&["get", "crd", "widgets.crd-test.example.io"])
        .await;
    let status = &crd["status"];
    assert_eq!(
        status["acceptedNames"],
        json!({"categories": ["all"], "kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "shortNames": ["wdg"], "singular": "widget"})
    );
    assert_eq!(status["storedVersions"], json!(["v1"]));
    let conditions: Vec<Value> = status["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| json!([c["type"], c["status"], c["reason"], c["message"]]))
        .collect();
    assert_eq!(
        conditions,
        [
            json!(["NamesAccepted", "True", "NoConflicts", "no conflicts found"]),
            json!([
                "Established",
                "True",
                "InitialNamesAccepted",
                "the initial names have been accepted"
            ])
        ]
    );
    assert_eq!(crd["spec"]["conversion"], json!({"strategy": "None"}));

    // Discovery: the group, the version, the resource with its short name and subresources.
    let apis = lab.kubectl(&["api-versions"]).await;
    assert!(
        apis.lines().any(|l| l == "crd-test.example.io/v1"),
        "{apis}"
    );
    let list: Value = serde_json::from_str(
        &lab.kubectl(&["get", "--raw", "/apis/crd-test.example.io/v1"])
            .await,
    )
    .unwrap();
    let names: Vec<&str> = list["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["widgets", "widgets/status", "widgets/scale"]);
    assert_eq!(
        list["resources"][0]["verbs"],
        json!([
            "delete",
            "deletecollection",
            "get",
            "list",
            "patch",
            "create",
            "update",
            "watch"
        ])
    );

    // A custom resource: defaulted, its status dropped on create, printed with its columns.
    assert_eq!(
        apply(&lab, "w1.yaml", &widget("w1", "{size: 3, replicas: 2}")).await,
        "widget.crd-test.example.io/w1 created\n"
    );
    let w1 = lab.kubectl_json(&["get", "wdg", "w1"]).await;
    assert_eq!(
        w1["spec"],
        json!({"colour": "red", "replicas": 2, "size": 3})
    );
    assert_eq!(w1["metadata"]["generation"], 1);
    let table = lab.kubectl(&["get", "widgets"]).await;
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0], ["NAME", "SIZE"]);
    assert_eq!(rows[1][..2], ["w1", "3"]);
    let wide = lab.kubectl(&["get", "widgets", "-o", "wide"]).await;
    assert!(wide.starts_with("NAME   SIZE   COLOUR"), "{wide}");
    assert_eq!(
        lab.kubectl(&["get", "wdg", "-o", "name"]).await,
        "widget.crd-test.example.io/w1\n"
    );
    // explain reads the schema from the group-version's OpenAPI v3 document.
    let explained = lab.kubectl(&["explain", "widget.spec"]).await;
    let head: Vec<&str> = explained.lines().take(8).map(str::trim_end).collect();
    assert_eq!(
        head,
        [
            "GROUP:      crd-test.example.io",
            "KIND:       Widget",
            "VERSION:    v1",
            "",
            "FIELD: spec <Object>",
            "",
            "",
            "DESCRIPTION:"
        ],
        "{explained}"
    );
    let all = lab.kubectl(&["get", "all", "-o", "name"]).await;
    assert!(all.contains("widget.crd-test.example.io/w1"), "{all}");

    // Validation by the schema, in the server's words: unknown fields (kubectl asks for
    // Strict), then the values.
    let bad = lab
        .kubectl_fails(&[
            "apply",
            "-f",
            lab.file("w2.yaml", &widget("w2", "{size: 0, shape: round}"))
                .to_str()
                .unwrap(),
        ])
        .await;
    // An unknown field is refused before the values are looked at (size 0 is not reported).
    assert_eq!(
        bad,
        "Error from server (BadRequest): error when creating \"{file}\": Widget in version \"v1\" cannot be handled as a Widget: strict decoding error: unknown field \"spec.shape\"\n"
            .replace("{file}", lab.dir.path().join("w2.yaml").to_str().unwrap()),
    );
    let bad = lab
        .kubectl_fails(&[
            "apply",
            "-f",
            lab.file("w3.yaml", &widget("w3", "{size: 0, colour: green}"))
                .to_str()
                .unwrap(),
        ])
        .await;
    assert!(
        bad.contains(r#"The Widget "w3" is invalid: "#)
            && bad.contains(r#"spec.colour: Unsupported value: "green": supported values: "red", "blue""#)
            && bad.contains("spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1"),
        "{bad}"
    );

    // status only through /status, which does not count as a generation.
    let main = lab
        .kubectl(&[
            "patch",
            "widget",
            "w1",
            "--type",
            "merge",
            "-p",
            r#"{"status":{"phase":"ignored"}}"#,
            "-o",
            "jsonpath={.status}",
        ])
        .await;
    assert_eq!(main, "");
    let status = lab
        .kubectl(&[
            "patch",
            "widget",
            "w1",
            "--subresource=status",
            "--type",
            "merge",
            "-p",
            r#"{"status":{"phase":"Ready","replicas":2}}"#,
            "-o",
            "jsonpath={.status.phase} {.metadata.generation}",
        ])
        .await;
    assert_eq!(status, "Ready 1");

    // /scale: the paths the CRD names.
    lab.kubectl(&["scale", "widget", "w1", "--replicas=4"])
        .await;
    let scale: Value = serde_json::from_str(
        &lab.kubectl(&[
            "get",
            "--raw",
            "/apis/crd-test.example.io/v1/namespaces/default/widgets/w1/scale",
        ])
        .await,
    )
    .unwrap();
    assert_eq!(
        (&scale["kind"], &scale["spec"], &scale["status"]),
        (
            &json!("Scale"),
            &json!({"replicas": 4}),
            &json!({"replicas": 2})
        )
    );
    let w1 = lab.kubectl_json(&["get", "widget", "w1"]).await;
    assert_eq!(
        (&w1["spec"]["replicas"], &w1["metadata"]["generation"]),
        (&json!(4), &json!(2))
    );

    // Server-side apply, and a watch that sees it.
    let watch = lab.kubectl_output(&[
        "get",
        "widgets",
        "--watch-only",
        "--output-watch-events",
        "-o",
        "name",
        "--request-timeout=3s",
    ]);
    let ssa = async {
        tokio::time::sleep(Duration::from_millis(800)).await;
        let file = lab.file("w4.yaml", &widget("w4", "{size: 4}"));
        lab.kubectl(&[
            "apply",
            "--server-side",
            "--field-manager=me",
            "-f",
            file.to_str().unwrap(),
        ])
        .await
    };
    let (watched, applied) = tokio::join!(watch, ssa);
    assert_eq!(
        applied,
        "widget.crd-test.example.io/w4 serverside-applied\n"
    );
    let watched = String::from_utf8_lossy(&watched.stdout).into_owned();
    // The name printer drops the event's type (it prints the object of a WatchEvent).
    assert!(
        watched
            .lines()
            .any(|l| l == "widget.crd-test.example.io/w4"),
        "{watched}"
    );
    let w4 = lab
        .kubectl_json(&["get", "widget", "w4", "--show-managed-fields"])
        .await;
    assert_eq!(w4["metadata"]["managedFields"][0]["manager"], "me");
    assert_eq!(w4["spec"]["colour"], "red");

    // Deleting the CRD deletes its resources, and the kind leaves discovery.
    lab.kubectl(&["delete", "crd", "widgets.crd-test.example.io"])
        .await;
    let left: Vec<String> = lab
        .handle
        .objects()
        .iter()
        .filter(|o| o.kind == "Widget" || o.name == "widgets.crd-test.example.io")
        .map(|o| format!("{}/{}", o.kind, o.name))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let apis = lab.kubectl(&["api-versions"]).await;
    assert!(!apis.contains("crd-test.example.io"), "{apis}");
    let gone = lab.kubectl_fails(&["get", "widgets"]).await;
    assert_eq!(
        gone,
        "error: the server doesn't have a resource type \"widgets\"\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn argo_cds_own_crds_are_established() {
    let lab = Lab::start().await;
    let out = lab
        .kubectl(&[
            "wait",
            "--for",
            "condition=established",
            "--timeout=20s",
            "crd/applications.argoproj.io",
            "crd/appprojects.argoproj.io",
            "crd/applicationsets.argoproj.io",
        ])
        .await;
    assert_eq!(out.lines().count(), 3, "{out}");
    let crd = lab
        .kubectl_json(&["get", "crd", "applications.argoproj.io"])
        .await;
    assert_eq!(crd["status"]["storedVersions"], json!(["v1alpha1"]));
    assert_eq!(crd["status"]["acceptedNames"]["kind"], "Application");
    let types: Vec<&str> = crd["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["NamesAccepted", "Established"]);
    // describe shows the accepted names under Status, after the spec's.
    let described = lab
        .kubectl(&["describe", "crd", "appprojects.argoproj.io"])
        .await;
    let kinds: Vec<&str> = described
        .lines()
        .filter(|l| l.starts_with("    Kind:"))
        .collect();
    assert_eq!(kinds.len(), 2, "{described}");
    assert!(
        described.contains("  Accepted Names:\n    Kind:       AppProject\n"),
        "{described}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_another_crd_of_the_group_has_is_not_accepted() {
    let lab = Lab::start().await;
    apply(&lab, "crd.yaml", CRD).await;
    established(&lab).await;
    let twin = CRD
        .replace("widgets.crd-test", "gadgets.crd-test")
        .replace("plural: widgets", "plural: gadgets")
        .replace("singular: widget", "singular: gadget")
        .replace("shortNames: [wdg]", "shortNames: [gdg]");
    apply(&lab, "twin.yaml", &twin).await;
    let crd = wait_json(&lab, &["get", "crd", "gadgets.crd-test.example.io"], |c| {
        c["status"]["conditions"].is_array()
    })
    .await;
    let accepted = &crd["status"]["conditions"][0];
    assert_eq!(
        (
            &accepted["status"],
            &accepted["reason"],
            &accepted["message"]
        ),
        (
            &json!("False"),
            &json!("ListKindConflict"),
            &json!("\"WidgetList\" is already in use")
        )
    );
    let established = &crd["status"]["conditions"][1];
    assert_eq!(
        (&established["status"], &established["reason"]),
        (&json!("False"), &json!("NotAccepted"))
    );
    let resources = lab
        .kubectl(&[
            "api-resources",
            "--api-group=crd-test.example.io",
            "-o",
            "name",
        ])
        .await;
    assert_eq!(resources, "widgets.crd-test.example.io\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_resources_outlive_a_restart() {
    let state = tempfile::tempdir().unwrap();
    let config = || capa_sim::Config {
        state_dir: Some(state.path().to_path_buf()),
        speed: 10.0,
        ..capa_sim::Config::default()
    };
    let lab = Lab::start_with(config()).await;
    apply(&lab, "crd.yaml", CRD).await;
    established(&lab).await;
    apply(&lab, "w1.yaml", &widget("w1", "{size: 3}")).await;
    lab.handle.shutdown().await;
    let lab = Lab::start_with(config()).await;
    let w1 = wait_json(&lab, &["get", "widget", "w1"], |_| true).await;
    assert_eq!(w1["spec"]["size"], 3);
}

/// The real helm with this cluster's kubeconfig and private folders.
async fn helm(lab: &Lab, args: &[&str]) -> String {
    let helm = capa_sim::tools::find("helm").expect("helm: run scripts/install-tools");
    let home = lab.dir.path().join("helm-home");
    let out = tokio::process::Command::new(helm)
        .args(args)
        .env("KUBECONFIG", lab.kubeconfig())
        .env("HELM_CACHE_HOME", home.join("cache"))
        .env("HELM_CONFIG_HOME", home.join("config"))
        .env("HELM_DATA_HOME", home.join("data"))
        .kill_on_drop(true)
        .output()
        .await
        .expect("helm runs");
    assert!(
        out.status.success(),
        "helm {} failed:\n{}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn helm_installs_a_chart_that_ships_its_crds() {
    let lab = Lab::start().await;
    let chart = lab.dir.path().join("chart");
    std::fs::create_dir_all(chart.join("crds")).unwrap();
    std::fs::create_dir_all(chart.join("templates")).unwrap();
    std::fs::write(
        chart.join("Chart.yaml"),
        "apiVersion: v2\nname: widgets\nversion: 0.1.0\n",
    )
    .unwrap();
    std::fs::write(chart.join("crds/widgets.yaml"), CRD).unwrap();
    std::fs::write(
        chart.join("templates/w1.yaml"),
        widget("w1", "{size: 5, colour: blue}"),
    )
    .unwrap();
    let out = helm(
        &lab,
        &[
            "install",
            "w",
            chart.to_str().unwrap(),
            "--wait",
            "--timeout=60s",
        ],
    )
    .await;
    assert!(out.contains("STATUS: deployed"), "{out}");
    let table = lab.kubectl(&["get", "widgets", "-o", "wide"]).await;
    assert!(
        table
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("w1     5      blue"),
        "{table}"
    );
    let conditions: Vec<(String, String)> = lab
        .kubectl_json(&["get", "crd", "widgets.crd-test.example.io"])
        .await["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["type"].to_string(), c["status"].to_string()))
        .collect();
    assert_eq!(
        conditions,
        [
            ("\"NamesAccepted\"".into(), "\"True\"".into()),
            ("\"Established\"".into(), "\"True\"".into())
        ]
    );
    assert_eq!(
        lab.kubectl(&[
            "api-resources",
            "--api-group=crd-test.example.io",
            "-o",
            "name"
        ])
        .await,
        "widgets.crd-test.example.io\n"
    );
    helm(&lab, &["uninstall", "w", "--wait"]).await;
    // helm keeps the CRDs it installed from crds/, and the kind is still served, empty.
    lab.kubectl(&["get", "crd", "widgets.crd-test.example.io"])
        .await;
    assert_eq!(lab.kubectl(&["get", "widgets", "-o", "name"]).await, "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_argo_cd_app_that_ships_a_crd_and_a_resource_of_it_syncs() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/crd.yaml", CRD);
    write(
        &repo,
        "app/w1.yaml",
        &widget("w1", "{size: 2}").replace(
            "  name: w1\n",
            "  name: w1\n  annotations:\n    argocd.argoproj.io/sync-options: SkipDryRunOnMissingResource=true\n",
        ),
    );
    commit_and_push(&repo, "widgets").await;
    let yaml = format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: widgets, namespace: argocd}}\nspec:\n  project: default\n  source: {{repoURL: \"{URL}\", targetRevision: main, path: app}}\n  destination: {{server: \"https://kubernetes.default.svc\", namespace: widgets}}\n  syncPolicy:\n    automated: {{}}\n    syncOptions: [CreateNamespace=true]\n"
    );
    apply(&lab, "app.yaml", &yaml).await;
    let app = wait_app(&lab, "widgets", "a finished sync", |a| {
        a["status"]["operationState"]["phase"]
            .as_str()
            .is_some_and(|p| p != "Running")
    })
    .await;
    let op = &app["status"]["operationState"];
    assert_eq!(op["phase"], "Succeeded", "{op:#}");
    // One sync, no retry: the CRD is created (not "unchanged" by a second attempt).
    assert_eq!(
        op["message"], "successfully synced (all tasks run)",
        "{op:#}"
    );
    let results: Vec<(&str, &str)> = op["syncResult"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["kind"].as_str().unwrap(), r["message"].as_str().unwrap()))
        .collect();
    assert!(
        results.contains(&("Widget", "widget.crd-test.example.io/w1 created"))
            && results.contains(&(
                "CustomResourceDefinition",
                "customresourcedefinition.apiextensions.k8s.io/widgets.crd-test.example.io created"
            )),
        "{results:?}"
    );
    let w1 = lab
        .kubectl_json(&["get", "widget", "w1", "-n", "widgets"])
        .await;
    assert_eq!(w1["spec"]["size"], 2);
}
