//! Fidelity audit 2 (shared/reference/fidelity-audit-2.md), what a refresh writes: a target
//! state that cannot be loaded, an invalid spec, the git-refs cache. Item numbers are the
//! audit's.

use serde_json::Value;

use crate::common::{
    Lab, WEB, apply_app, cm, commit_and_push, comparison_error, lab_with_repo, synced_healthy,
    wait_app, write,
};

fn resource<'a>(app: &'a Value, kind: &str, name: &str) -> &'a Value {
    app["status"]["resources"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["kind"] == kind && r["name"] == name))
        .unwrap_or_else(|| panic!("{kind}/{name} is not in status.resources: {app:#}"))
}

/// Items 2 and 13: a source path that does not exist (the lab's common mistake) is a
/// ComparisonError, and the comparison goes on against an empty target: `kubectl get app`
/// shows `Unknown  Healthy`, the live resources are listed `Unknown` and `requiresPruning`,
/// the images are still summed up, the revision is the unresolved `main`, and no source type.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comparison_error_keeps_health_resources_and_images_audit_2_2_13() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/web.yaml",
        &WEB.replace("  namespace: default\n", ""),
    );
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "web").await;
    apply_app(&lab, "probe", "app", "", "").await;
    let synced = wait_app(&lab, "probe", "Synced and Healthy", synced_healthy).await;
    assert_eq!(synced["status"]["sourceType"], "Directory");
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "probe",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"source":{"path":"probe-nope"}}}"#,
    ])
    .await;
    let (app, condition) = comparison_error(&lab, "probe").await;
    assert!(
        condition["message"]
            .as_str()
            .unwrap()
            .contains("probe-nope: app path does not exist"),
        "{condition}"
    );
    let status = &app["status"];
    assert_eq!(status["sync"]["status"], "Unknown");
    assert_eq!(status["health"]["status"], "Healthy", "{status:#}");
    assert_eq!(status["sync"]["revision"], "main", "the unresolved target");
    assert!(status["sourceType"].is_null(), "{status:#}");
    for (kind, name) in [("Deployment", "web"), ("ConfigMap", "settings")] {
        let r = resource(&app, kind, name);
        assert_eq!(r["status"], "Unknown", "{r}");
        assert_eq!(r["requiresPruning"], true, "{r}");
    }
    assert_eq!(
        status["summary"]["images"],
        serde_json::json!(["nginx:1.27-alpine"])
    );
    let table = lab.kubectl(&["-n", "argocd", "get", "app", "probe"]).await;
    let row = table.lines().nth(1).unwrap_or_default();
    let columns: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(columns, ["probe", "Unknown", "Healthy"], "{table}");
    // Nothing is pruned or synced from a comparison that could not be made.
    lab.kubectl(&["-n", "probe", "get", "deploy", "web"]).await;
    assert!(app["operation"].is_null());
}

/// Item 2: an app whose target cannot be loaded and that tracks nothing is Healthy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comparison_error_with_nothing_tracked_is_healthy_audit_2_2() {
    let lab = Lab::start().await;
    let _repo = crate::common::src_repo(&lab).await;
    apply_app(&lab, "empty", "nowhere", "", "").await;
    let (app, _) = comparison_error(&lab, "empty").await;
    assert_eq!(app["status"]["health"]["status"], "Healthy");
    assert!(app["status"]["resources"].is_null(), "omitempty: no list");
}

/// Applies an Application `name` with this `spec` (YAML, indented two spaces).
async fn app_with_spec(lab: &Lab, name: &str, spec: &str) {
    let yaml = format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {{name: {name}, namespace: argocd}}\nspec:\n{spec}"
    );
    let file = lab.file(&format!("{name}.yaml"), &yaml);
    lab.kubectl(&["apply", "-f", file.to_str().unwrap()]).await;
}

fn conditions_of(app: &Value, kind: &str) -> Vec<String> {
    app["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["type"] == kind)
        .filter_map(|c| c["message"].as_str().map(String::from))
        .collect()
}

async fn invalid(lab: &Lab, name: &str) -> Value {
    wait_app(lab, name, "an InvalidSpecError", |a| {
        !conditions_of(a, "InvalidSpecError").is_empty()
    })
    .await
}

const AUTOMATED: &str =
    "  syncPolicy:\n    automated: {prune: true}\n    syncOptions: [CreateNamespace=true]\n";

/// Item 3 and survey item 3: a spec Argo CD cannot reconcile is an InvalidSpecError with
/// upstream's message, `Unknown Unknown`, and nothing is deployed: no destination server, one
/// that is not a known cluster, a project that does not exist, an empty path; and an AppProject
/// whose `sourceRepos` and `destinations` refuse the app. Fixing the spec lets it sync.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_specs_are_refused_with_upstreams_messages_audit_2_3_survey_3() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    commit_and_push(&repo, "cm").await;
    let source = format!(
        "  source: {{repoURL: \"{}\", targetRevision: main, path: app}}\n",
        crate::common::URL
    );
    let cases = [
        ("inv-noserver", format!("  project: default\n{source}  destination: {{namespace: inv-noserver}}\n"), "Destination server missing from app spec".to_string()),
        ("inv-server", format!("  project: default\n{source}  destination: {{server: \"https://10.0.0.99:6443\", namespace: inv-server}}\n"),
            "error getting cluster by server \"https://10.0.0.99:6443\": rpc error: code = NotFound desc = cluster \"https://10.0.0.99:6443\" not found".to_string()),
        ("inv-proj", format!("  project: nosuchproject\n{source}  destination: {{server: \"https://kubernetes.default.svc\", namespace: inv-proj}}\n"),
            "Application referencing project nosuchproject which does not exist".to_string()),
        ("inv-nopath", format!("  project: default\n  source: {{repoURL: \"{}\", targetRevision: main, path: \"\"}}\n  destination: {{server: \"https://kubernetes.default.svc\", namespace: inv-nopath}}\n", crate::common::URL),
            "spec.source.repoURL and either spec.source.path or spec.source.chart are required".to_string()),
    ];
    for (name, spec, _) in &cases {
        app_with_spec(&lab, name, &format!("{spec}{AUTOMATED}")).await;
    }
    let restricted = lab.file(
        "restricted.yaml",
        "apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata: {name: restricted, namespace: argocd}\nspec:\n  sourceRepos: [\"https://example.com/only.git\"]\n  destinations: [{server: \"https://kubernetes.default.svc\", namespace: \"allowed-*\"}]\n",
    );
    lab.kubectl(&["apply", "-f", restricted.to_str().unwrap()])
        .await;
    app_with_spec(
        &lab,
        "t-restricted",
        &format!("  project: restricted\n{source}  destination: {{server: \"https://kubernetes.default.svc\", namespace: t-restricted}}\n{AUTOMATED}"),
    )
    .await;
    for (name, _, message) in &cases {
        let app = invalid(&lab, name).await;
        assert_eq!(
            conditions_of(&app, "InvalidSpecError"),
            std::slice::from_ref(message),
            "{name}"
        );
        assert_eq!(app["status"]["sync"]["status"], "Unknown", "{name}");
        assert_eq!(app["status"]["health"]["status"], "Unknown", "{name}");
        assert!(
            app["operation"].is_null() && app["status"]["operationState"].is_null(),
            "{name} never syncs"
        );
    }
    let app = invalid(&lab, "t-restricted").await;
    assert_eq!(
        conditions_of(&app, "InvalidSpecError"),
        // Sorted by type and message, as `SetConditions` keeps them.
        [
            "application destination server 'https://kubernetes.default.svc' and namespace 't-restricted' do not match any of the allowed destinations in project 'restricted'".to_string(),
            format!("application repo {} is not permitted in project 'restricted'", crate::common::URL),
        ]
    );
    let table = lab
        .kubectl(&["-n", "argocd", "get", "app", "inv-server"])
        .await;
    assert_eq!(
        table
            .lines()
            .nth(1)
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["inv-server", "Unknown", "Unknown"]
    );
    for ns in [
        "inv-noserver",
        "inv-server",
        "inv-proj",
        "inv-nopath",
        "t-restricted",
    ] {
        let out = lab.kubectl_output(&["get", "ns", ns]).await;
        assert!(
            !out.status.success(),
            "{ns} was created: nothing may be deployed"
        );
    }
    // A sync asked for by hand is refused too, as the controller refuses it.
    lab.kubectl(&[
        "-n", "argocd", "patch", "app", "inv-proj", "--type", "merge", "-p",
        r#"{"operation":{"initiatedBy":{"username":"learner"},"sync":{"syncOptions":["CreateNamespace=true"]}}}"#,
    ])
    .await;
    let app = wait_app(&lab, "inv-proj", "a refused operation", |a| {
        a["status"]["operationState"]["phase"] == "Error"
    })
    .await;
    assert_eq!(
        app["status"]["operationState"]["message"],
        "Failed to load application project: appproject.argoproj.io \"nosuchproject\" not found"
    );
    // Put right, the app syncs.
    lab.kubectl(&[
        "-n",
        "argocd",
        "patch",
        "app",
        "inv-server",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"destination":{"server":"https://kubernetes.default.svc"}}}"#,
    ])
    .await;
    let app = wait_app(&lab, "inv-server", "Synced and Healthy", synced_healthy).await;
    assert!(conditions_of(&app, "InvalidSpecError").is_empty());
}

/// Items 18 and 20: `summary.images` counts the Pods of live hooks too (the resource tree
/// holds them), and Argo CD's Events name the destination in annotations and fill no
/// reporting fields, as its audit logger writes them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hook_images_are_summed_and_events_carry_the_destination_audit_2_18_20() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    write(
        &repo,
        "app/pre.yaml",
        &crate::common::job("pre", "argocd.argoproj.io/hook: PreSync", "echo ok"),
    );
    commit_and_push(&repo, "a hook").await;
    apply_app(&lab, "hooked", "app", "", "").await;
    let app = wait_app(
        &lab,
        "hooked",
        "Synced and Healthy with the hook's image",
        |a| {
            synced_healthy(a)
                && a["status"]["summary"]["images"]
                    .as_array()
                    .is_some_and(|i| !i.is_empty())
        },
    )
    .await;
    assert_eq!(
        app["status"]["summary"]["images"],
        serde_json::json!(["busybox:1.36"])
    );
    let events = lab
        .kubectl_json(&[
            "-n",
            "argocd",
            "get",
            "events",
            "--field-selector",
            "involvedObject.name=hooked",
        ])
        .await;
    let started = events["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["reason"] == "OperationStarted")
        .cloned()
        .unwrap_or_else(|| panic!("{events:#}"));
    assert_eq!(
        started["metadata"]["annotations"]["dest-server"],
        "https://kubernetes.default.svc"
    );
    assert_eq!(
        started["metadata"]["annotations"]["dest-namespace"],
        "hooked"
    );
    assert_eq!(started["reportingComponent"], "");
    assert_eq!(
        started["source"]["component"],
        "argocd-application-controller"
    );
}
