//! Lab steps 5–7: waves and hooks, the failed hook that blocks the next commit, and
//! `ignoreDifferences` with `RespectIgnoreDifferences` under selfHeal.

use std::path::Path;
use std::time::Duration;

use jiff::Timestamp;
use serde_json::Value;

use crate::common::Lab;
use crate::common::{app_yaml, commit_and_push, synced_healthy, wait_app, write};

fn ts(v: &Value) -> Timestamp {
    v.as_str()
        .unwrap_or_else(|| panic!("not a timestamp: {v}"))
        .parse()
        .unwrap()
}

pub fn waves_files(mode: &str, migrate: &str) -> Vec<(&'static str, String)> {
    vec![
        ("waves/config.yaml", format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  annotations: {{argocd.argoproj.io/sync-wave: \"-1\"}}\ndata:\n  mode: {mode}\n")),
        ("waves/app.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\n  annotations: {argocd.argoproj.io/sync-wave: \"0\"}\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: app}\n  template:\n    metadata:\n      labels: {app: app}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27-alpine\n        readinessProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 3, periodSeconds: 2}\n".to_string()),
        ("waves/smoke.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: smoke\n  annotations: {argocd.argoproj.io/sync-wave: \"1\"}\nspec:\n  backoffLimit: 0\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {name: smoke, image: \"busybox:1.36\", command: [sh, -c, echo smoke ok]}\n".to_string()),
        ("waves/migrate.yaml", format!("apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: migrate-\n  annotations:\n    argocd.argoproj.io/hook: PreSync\n    argocd.argoproj.io/hook-delete-policy: BeforeHookCreation\nspec:\n  backoffLimit: 0\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {{name: migrate, image: \"busybox:1.36\", command: [sh, -c, \"{migrate}\"]}}\n")),
    ]
}

/// `kubectl annotate app NAME argocd.argoproj.io/refresh=hard`, as the lab tells learners to.
async fn hard_refresh(lab: &Lab, app: &str) {
    lab.kubectl(&[
        "-n",
        "argocd",
        "annotate",
        "app",
        app,
        "argocd.argoproj.io/refresh=hard",
        "--overwrite",
    ])
    .await;
}

pub async fn steps_5_to_7(lab: &Lab, repo: &Path) {
    // Step 5: phases, waves and hooks.
    eprintln!("lab walk: step 5");
    for (path, text) in waves_files("blue", "echo migrate ok") {
        write(repo, path, &text);
    }
    let first = commit_and_push(repo, "waves").await;
    let app_waves = lab.file(
        "app-src-waves.yaml",
        &app_yaml("src-waves", "waves", "", ""),
    );
    lab.kubectl(&["apply", "-f", app_waves.to_str().unwrap()])
        .await;
    let app = wait_app(lab, "src-waves", "Synced, Healthy, Succeeded", |a| {
        synced_healthy(a) && a["status"]["operationState"]["phase"] == "Succeeded"
    })
    .await;
    assert_eq!(
        app["status"]["operationState"]["syncResult"]["revision"],
        first
    );
    let result = app["status"]["operationState"]["syncResult"]["resources"]
        .as_array()
        .unwrap();
    let hook = result
        .iter()
        .find(|r| r["hookType"] == "PreSync")
        .unwrap_or_else(|| {
            panic!(
                "the PreSync hook is in the sync result: {}",
                serde_json::to_string_pretty(&app["status"]).unwrap()
            )
        });
    let hook_name = hook["name"].as_str().unwrap().to_string();
    assert!(
        hook_name.starts_with(&format!("migrate-{}-presync-", &first[..7])),
        "{hook_name}"
    );
    assert_eq!(hook["hookPhase"], "Succeeded");
    let job = lab
        .kubectl_json(&["-n", "src-waves", "get", "job", &hook_name])
        .await;
    let settings = lab
        .kubectl_json(&["-n", "src-waves", "get", "cm", "settings"])
        .await;
    let deploy = lab
        .kubectl_json(&["-n", "src-waves", "get", "deploy", "app"])
        .await;
    let smoke = lab
        .kubectl_json(&["-n", "src-waves", "get", "job", "smoke"])
        .await;
    let available = deploy["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Available")
        .unwrap();
    let (hook_t, settings_t, app_t, smoke_t) = (
        ts(&job["metadata"]["creationTimestamp"]),
        ts(&settings["metadata"]["creationTimestamp"]),
        ts(&deploy["metadata"]["creationTimestamp"]),
        ts(&smoke["metadata"]["creationTimestamp"]),
    );
    assert!(
        hook_t < settings_t,
        "the PreSync hook ({hook_t}) before settings ({settings_t}): hook completion and the 2 s wave delay come between"
    );
    assert!(
        settings_t < app_t,
        "settings ({settings_t}) before app ({app_t})"
    );
    assert!(
        smoke_t >= ts(&available["lastTransitionTime"]),
        "smoke ({smoke_t}) only after app became Available ({})",
        available["lastTransitionTime"]
    );

    // Step 6: a failing hook keeps the changed config out, and its retries block the fix.
    eprintln!("lab walk: step 6");
    for (path, text) in waves_files("green", "echo migrate failed; exit 1") {
        write(repo, path, &text);
    }
    let broken = commit_and_push(repo, "green, with a failing migration").await;
    hard_refresh(lab, "src-waves").await;
    let app = wait_app(lab, "src-waves", "failing on the broken commit", |a| {
        a["status"]["operationState"]["operation"]["sync"]["revision"] == broken.as_str()
            && a["status"]["operationState"]["message"]
                .as_str()
                .is_some_and(|m| {
                    m.starts_with("one or more synchronization tasks completed unsuccessfully")
                })
    })
    .await;
    let message = app["status"]["operationState"]["message"].as_str().unwrap();
    assert!(message.contains("Retrying attempt #1"), "{message}");
    let settings = lab
        .kubectl_json(&["-n", "src-waves", "get", "cm", "settings"])
        .await;
    assert_eq!(settings["data"]["mode"], "blue", "the Sync phase never ran");

    for (path, text) in waves_files("green", "echo migrate ok") {
        write(repo, path, &text);
    }
    let fix = commit_and_push(repo, "fix the migration").await;
    hard_refresh(lab, "src-waves").await;
    let app = wait_app(
        lab,
        "src-waves",
        "OutOfSync on the fix, still retrying the broken commit",
        |a| {
            a["status"]["sync"]["revision"] == fix.as_str()
                && a["status"]["sync"]["status"] == "OutOfSync"
        },
    )
    .await;
    assert_eq!(
        app["operation"]["sync"]["revision"], broken,
        "the retrying operation still targets the broken commit"
    );
    tokio::time::sleep(lab.handle_real(Duration::from_secs(15))).await;
    let still = lab
        .kubectl_json(&["-n", "argocd", "get", "app", "src-waves"])
        .await;
    assert_eq!(
        still["status"]["operationState"]["operation"]["sync"]["revision"], broken,
        "the fix is blocked"
    );
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(["app", "terminate-op", "src-waves", "--kubeconfig"])
        .arg(lab.kubeconfig())
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "Application 'src-waves' operation terminating"
    );
    let app = wait_app(
        lab,
        "src-waves",
        "Synced, Healthy, Succeeded on the fix",
        |a| {
            synced_healthy(a)
                && a["status"]["operationState"]["phase"] == "Succeeded"
                && a["status"]["operationState"]["syncResult"]["revision"] == fix.as_str()
        },
    )
    .await;
    assert_eq!(app["status"]["sync"]["revision"], fix);
    let settings = lab
        .kubectl_json(&["-n", "src-waves", "get", "cm", "settings"])
        .await;
    assert_eq!(settings["data"]["mode"], "green");

    // Step 7: replicas set by hand survive selfHeal with ignoreDifferences + RespectIgnoreDifferences.
    eprintln!("lab walk: step 7");
    let kust = "    kustomize:\n      images: [nginx=nginx:1.28-alpine]\n";
    let ignore = "  ignoreDifferences:\n  - {group: apps, kind: Deployment, jsonPointers: [/spec/replicas]}\n";
    let yaml = app_yaml("src-kust", "kust/overlays/prod", kust, ignore).replace(
        "[CreateNamespace=true]",
        "[CreateNamespace=true, RespectIgnoreDifferences=true]",
    );
    let app_kust = lab.file("app-src-kust.yaml", &yaml);
    lab.kubectl(&["apply", "-f", app_kust.to_str().unwrap()])
        .await;
    wait_app(lab, "src-kust", "Synced with ignoreDifferences", |a| {
        synced_healthy(a) && a["status"]["sync"]["comparedTo"]["ignoreDifferences"].is_array()
    })
    .await;
    lab.kubectl(&["-n", "src-kust", "scale", "deploy/prod-api", "--replicas=4"])
        .await;
    tokio::time::sleep(lab.handle_real(Duration::from_secs(40))).await;
    let d = lab
        .kubectl_json(&[
            "-n",
            "src-kust",
            "get",
            "deploy",
            "prod-api",
            "--show-managed-fields",
        ])
        .await;
    assert_eq!(
        d["spec"]["replicas"], 4,
        "selfHeal left the hand-set replicas alone"
    );
    let app = lab
        .kubectl_json(&["-n", "argocd", "get", "app", "src-kust"])
        .await;
    assert_eq!(app["status"]["sync"]["status"], "Synced");
    let owners: Vec<String> = crate::common::entries_where(&d, true)
        .into_iter()
        .map(|(m, _, _)| m)
        .collect();
    assert_eq!(owners, ["kubectl"]);
}
