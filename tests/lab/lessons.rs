//! The lessons' "do it for me", evidence and self-check, driven as a learner would: the
//! `capa-tui` binary on the embedded cluster (`--sim`), with the real kubectl on PATH.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{Independent, kubectl_path};

/// `.tools/bin` (the real kubectl and helm) first on PATH.
pub fn tools_path() -> String {
    let tools = kubectl_path().parent().unwrap().to_path_buf();
    format!(
        "{}:{}",
        tools.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Runs `capa-tui ARGS --sim --speed 10 --state-dir STATE` with kubectl on PATH.
pub async fn capa(state: &Path, args: &[&str]) -> Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_capa-tui"))
        .args(args)
        .args(["--sim", "--speed", "10", "--state-dir"])
        .arg(state)
        .env("PATH", tools_path())
        .env("LANG", "en_US.UTF-8")
        .kill_on_drop(true)
        .output()
        .await
        .expect("capa-tui runs")
}

pub fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

pub(super) fn evidence(state: &Path, file: &str) -> Value {
    let path = state.join("capa-src").join(file);
    serde_json::from_str(
        &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

/// The whole lab, once: `lesson test lessons` runs every plan on a fresh cluster, grades the
/// evidence and refuses every broken copy of it; then `check all` passes on the lab it leaves,
/// and every evidence value is the cluster's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lesson_test_passes_the_lab_and_every_evidence_value_is_the_clusters() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let lessons = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let out = capa(&state, &["lesson", "test", lessons.to_str().unwrap()]).await;
    let said = text(&out);
    assert!(out.status.success(), "lesson test failed:\n{said}");
    assert_eq!(said.matches("the self-check passes").count(), 16, "{said}");
    assert!(!said.contains("✗"), "{said}");
    for broken in [
        "refuses replicas of the wrong type (\"3\")",
        "refuses replicas one off (4)",
        "refuses phase one off (\"Failee\")",
        "refuses commit past its full-sha rule",
        "past its at-least-apart rule",
        "refuses an earlier ignore.json whose scaled_at has the wrong type",
    ] {
        assert!(said.contains(broken), "no {broken:?} in:\n{said}");
    }
    let summary = said
        .lines()
        .find(|l| l.contains("broken evidence refused"))
        .unwrap_or_else(|| panic!("no summary in:\n{said}"));
    let counts: Vec<u32> = summary
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    // lessons · steps · seconds (whole, tenths) · passed of graded · refused of broken
    let (refused, broken) = (counts[counts.len() - 2], counts[counts.len() - 1]);
    assert!(broken >= 40 && refused == broken, "{summary}");
    // "Do it for me" on a finished lesson does nothing: lesson 6 again would push its broken
    // commit a second time and wait for a failure Argo CD never runs.
    let main_of = || {
        let out = std::process::Command::new("git")
            .arg("--git-dir")
            .arg(state.join("bare/src.git"))
            .args(["rev-parse", "main"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let before = main_of();
    let out = capa(&state, &["do", "6", "--yes"]).await;
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        text(&out)
            .matches("already done: lesson 6's self-check passes now: skipped")
            .count(),
        9,
        "{}",
        text(&out)
    );
    assert_eq!(main_of(), before, "do 6 pushed again:\n{}", text(&out));
    let out = capa(&state, &["check", "all"]).await;
    assert!(out.status.success(), "check all failed:\n{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .matches("✓ PASS")
            .count()
            == 8,
        "{}",
        text(&out)
    );

    let cluster = Independent::start(&state, dir.path()).await;
    let precedence = evidence(&state, "precedence.json");
    let d = cluster
        .json(&["-n", "src-helm", "get", "deploy", "src-helm-web"])
        .await;
    assert_eq!(precedence["replicas"], d["spec"]["replicas"]);
    let cm = cluster
        .json(&["-n", "src-helm", "get", "cm", "src-helm-greeting"])
        .await;
    assert_eq!(precedence["greeting"], cm["data"]["greeting"]);
    let tracking = evidence(&state, "tracking.json");
    assert_eq!(
        tracking["tracking_annotation"],
        cm["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"]
    );
    assert_eq!(tracking["instance_label"], Value::Null);
    let secrets = cluster
        .json(&[
            "-n",
            "src-helm",
            "get",
            "secrets",
            "--field-selector",
            "type=helm.sh/release.v1",
        ])
        .await;
    assert_eq!(
        tracking["helm_release_secrets"],
        secrets["items"].as_array().unwrap().len()
    );
    let waves = evidence(&state, "waves.json");
    let hook = cluster
        .json(&[
            "-n",
            "src-waves",
            "get",
            "job",
            waves["hook_job"].as_str().unwrap(),
        ])
        .await;
    assert_eq!(waves["hook_created"], hook["metadata"]["creationTimestamp"]);
    let settings = cluster
        .json(&["-n", "src-waves", "get", "cm", "settings"])
        .await;
    assert_eq!(
        waves["settings_created"],
        settings["metadata"]["creationTimestamp"]
    );
    let failed = evidence(&state, "failed-hook.json");
    assert_eq!(failed["live_mode"], "blue");
    assert_eq!(
        failed["phase"], "Failed",
        "recorded once the operation ended, not mid-retry"
    );
    assert_eq!(
        settings["data"]["mode"], "green",
        "the fix went through afterwards"
    );
    let ignore = evidence(&state, "ignore.json");
    let api = cluster
        .json(&[
            "-n",
            "src-kust",
            "get",
            "deploy",
            "prod-api",
            "--show-managed-fields",
        ])
        .await;
    assert_eq!(ignore["replicas"], api["spec"]["replicas"]);
    let report = evidence(&state, "report.json");
    let owner = api["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["fieldsV1"]["f:spec"]["f:replicas"].is_object())
        .unwrap();
    assert_eq!(report["replicas_owner"], owner["manager"]);
    assert_eq!(report["replicas_owner"], "kubectl");
    // A write through /scale is not dated in managedFields (as on a real server); the
    // deployment controller's ScalingReplicaSet Event dates it.
    assert!(owner["time"].is_null(), "{owner}");
    let events = cluster
        .json(&[
            "-n",
            "src-kust",
            "get",
            "events",
            "--field-selector",
            "reason=ScalingReplicaSet,involvedObject.name=prod-api",
        ])
        .await;
    let scale_time: jiff::Timestamp = events["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["message"].as_str().unwrap().ends_with(" to 4"))
        .filter_map(|e| e["lastTimestamp"].as_str()?.parse().ok())
        .max()
        .expect("the scale's Event");
    assert_eq!(
        ignore["scaled_at"],
        scale_time.as_second(),
        "scaled_at is when the cluster recorded the scale"
    );
    drop(cluster);

    // A deliberately wrong evidence file fails the check, saying what is wrong.
    std::fs::write(
        state.join("capa-src/precedence.json"),
        r#"{"replicas": "3", "greeting": "nope"}"#,
    )
    .unwrap();
    let out = capa(&state, &["check", "2"]).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("replicas must be a number"), "{said}");
    assert!(
        said.contains(r#"greeting is "nope" but the cluster shows "from-parameter""#),
        "{said}"
    );
    assert!(
        said.contains("hint"),
        "a failing check points at a hint: {said}"
    );
    let mut mid_retry = evidence(&state, "failed-hook.json");
    mid_retry["phase"] = serde_json::json!("Running");
    std::fs::write(
        state.join("capa-src/failed-hook.json"),
        mid_retry.to_string(),
    )
    .unwrap();
    let out = capa(&state, &["check", "6"]).await;
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("still retrying when it was recorded"),
        "{}",
        text(&out)
    );
    let out = capa(&state, &["check", "2", "--json"]).await;
    let graded: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(graded["passed"], false);
}

/// Copies the built-in templates, changed as `edit` says.
fn changed_templates(dir: &Path, edit: &[(&str, &str, &str)]) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("repo-template");
    let out = dir.join("templates");
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let target = out.join(p.strip_prefix(&root).unwrap());
            if p.is_dir() {
                std::fs::create_dir_all(&target).unwrap();
                stack.push(p);
            } else {
                std::fs::copy(&p, &target).unwrap();
            }
        }
    }
    for (file, from, to) in edit {
        let p = out.join(file);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(from), "{file} has no {from:?}");
        std::fs::write(&p, text.replace(from, to)).unwrap();
    }
    out
}

/// An adapted lab: other values in its templates (a greeting, a replica count, a parameter,
/// image tags). `do all` follows them, and `check all` with the same templates passes, because
/// the lessons' checks read their values from the files (`let:`); with the built-in templates
/// the same lab fails, so the checks really read the adapted ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adapted_lab_is_done_and_graded_by_its_own_templates() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let templates = changed_templates(
        dir.path(),
        &[
            (
                "01-helm-chart/repo/charts/web/values.yaml",
                "greeting: chart-default",
                "greeting: chart-says-hi",
            ),
            (
                "02-precedence/app-src-helm.yaml",
                "replicaCount: 3",
                "replicaCount: 4",
            ),
            (
                "02-precedence/app-src-helm.yaml",
                "value: from-parameter",
                "value: parameter-says-hi",
            ),
            (
                "02-precedence/app-src-helm.yaml",
                "greeting: from-values-object",
                "greeting: object-says-hi",
            ),
            (
                "04-kustomize-image/repo/kust/base/deployment.yaml",
                "image: nginx:1.27-alpine",
                "image: nginx:1.26-alpine",
            ),
            (
                "04-kustomize-image/app-src-kust.yaml",
                "nginx=nginx:1.28-alpine",
                "nginx=nginx:1.29-alpine",
            ),
            (
                "07-ignore-differences/app-src-kust.yaml",
                "nginx=nginx:1.28-alpine",
                "nginx=nginx:1.29-alpine",
            ),
        ],
    );
    let t = templates.to_str().unwrap();
    let out = capa(&state, &["do", "all", "--yes", "--templates", t]).await;
    assert!(out.status.success(), "do all failed:\n{}", text(&out));
    let precedence = evidence(&state, "precedence.json");
    assert_eq!(
        precedence["replicas"], 4,
        "the evidence follows the changed valuesObject"
    );
    assert_eq!(precedence["greeting"], "parameter-says-hi");
    let report = evidence(&state, "report.json");
    assert_eq!(report["helm_winner"], "parameters");
    assert_eq!(report["replicas_winner"], "valuesObject");
    let out = capa(&state, &["check", "all", "--templates", t]).await;
    assert!(
        out.status.success(),
        "the adapted lab is graded by its own values:\n{}",
        text(&out)
    );
    // The same lab against the built-in templates (the lab keeps the ones it was set up with
    // until told otherwise): the lessons ask for the lab's own values.
    let out = capa(&state, &["check", "2", "--json", "--templates", "builtin"]).await;
    assert!(!out.status.success(), "{}", text(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = v["files"][0]["findings"].as_array().unwrap();
    let said = |ok: bool, what: &str| {
        findings
            .iter()
            .any(|f| f["ok"] == ok && f["what"].as_str().unwrap().contains(what))
    };
    assert!(
        said(true, "replicas = 4 matches the cluster"),
        "{findings:#?}"
    );
    assert!(
        said(
            false,
            "spec.source.helm.valuesObject.replicaCount is 4, not 3"
        ),
        "{findings:#?}"
    );
}

/// Predictions made in the tutor are kept with the lab and listed by `capa-tui status`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_lists_the_predictions_kept_with_the_lab() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let kept = state.join("capa-src/.capa-tui");
    std::fs::create_dir_all(&kept).unwrap();
    std::fs::write(
        kept.join("tutor.json"),
        r#"{"lesson": 6, "section": "steps", "answers": {"6:4": "mode: blue"}}"#,
    )
    .unwrap();
    let out = capa(&state, &["status"]).await;
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("Progress: on lesson 6, Steps"), "{said}");
    assert!(
        said.contains("lesson 6, action 5: predicted mode: blue"),
        "{said}"
    );
    let out = capa(&state, &["status", "--json"]).await;
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["progress"]["answers"]["6:4"], "mode: blue");
}

/// A learner who did lesson 1's first steps by hand presses "do it for me": the plan reads the
/// same conditions as the checklist and skips what is already there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn do_it_for_me_skips_what_the_learner_already_did_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let bare = state.join("bare/src.git");
    std::fs::create_dir_all(state.join("capa-src")).unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&[
        "init",
        "-q",
        "--bare",
        "-b",
        "main",
        &bare.display().to_string(),
    ]);
    git(&[
        "clone",
        "-q",
        &bare.display().to_string(),
        &state.join("capa-src/repo").display().to_string(),
    ]);
    let out = capa(&state, &["do", "1", "--yes"]).await;
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert_eq!(
        said.matches("already done (its condition holds now): skipped")
            .count(),
        2,
        "the bare repo and the clone: {said}"
    );
    assert!(said.contains("committed"), "the rest still runs: {said}");
}
