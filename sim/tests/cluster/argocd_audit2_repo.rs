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

/// A lab whose clock runs fast enough to watch minutes of Argo CD's timing go by.
async fn fast_lab() -> (crate::common::Lab, std::path::PathBuf) {
    lab_at(60.0).await
}

/// A lab at this speed, with an empty `src.git` cloned.
async fn lab_at(speed: f64) -> (crate::common::Lab, std::path::PathBuf) {
    let lab = crate::common::Lab::start_with(capa_sim::Config {
        speed,
        ..capa_sim::Config::default()
    })
    .await;
    let repo = crate::common::src_repo(&lab).await;
    (lab, repo)
}

fn at(app: &Value, field: &str) -> jiff::Timestamp {
    app["status"][field].as_str().unwrap().parse().unwrap()
}

/// Every (reconciledAt, revision, ComparisonError?) the app shows until `done` holds.
async fn refreshes(
    lab: &crate::common::Lab,
    name: &str,
    done: impl Fn(&Value) -> bool,
) -> Vec<(jiff::Timestamp, String, bool)> {
    let mut seen: Vec<(jiff::Timestamp, String, bool)> = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(40);
    loop {
        let app = lab
            .kubectl_json(&["-n", "argocd", "get", "app", name])
            .await;
        let entry = (
            at(&app, "reconciledAt"),
            app["status"]["sync"]["revision"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            app["status"]["conditions"]
                .as_array()
                .is_some_and(|c| c.iter().any(|c| c["type"] == "ComparisonError")),
        );
        if seen.last() != Some(&entry) {
            seen.push(entry);
        }
        if done(&app) {
            return seen;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{name} never got there: {seen:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(40)).await;
    }
}

/// Item 10: a periodic refresh resolves `main` from the refs the repo server listed up to
/// 3 minutes before, so a push is not seen until they expire; the refresh annotation lists
/// them afresh at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_waits_for_the_three_minute_refs_cache_unless_refreshed_audit_2_10() {
    let (lab, repo) = fast_lab().await;
    write(
        &repo,
        "app/cm.yaml",
        &crate::common::cm("settings", "", "1"),
    );
    let first = commit_and_push(&repo, "one").await;
    apply_app(&lab, "cached", "app", "", "").await;
    let app = wait_app(&lab, "cached", "Synced and Healthy", synced_healthy).await;
    // The app's creation listed the refs (its source was new to it).
    let listed = at(&app, "reconciledAt");
    write(
        &repo,
        "app/cm.yaml",
        &crate::common::cm("settings", "", "2"),
    );
    let second = commit_and_push(&repo, "two").await;
    let seen = refreshes(&lab, "cached", |a| {
        a["status"]["sync"]["revision"] == second
    })
    .await;
    for (t, revision, _) in &seen {
        let age = t.duration_since(listed).as_secs();
        if age < 175 {
            assert_eq!(
                revision, &first,
                "refreshed {age} s after the listing: {seen:?}"
            );
        }
    }
    let (shown, _, _) = seen.last().unwrap();
    assert!(
        shown.duration_since(listed).as_secs() >= 175,
        "the push was seen before the cached refs expired: {seen:?}"
    );
    // The refresh annotation forces resolution: the next push is seen at once.
    write(
        &repo,
        "app/cm.yaml",
        &crate::common::cm("settings", "", "3"),
    );
    let third = commit_and_push(&repo, "three").await;
    let before = std::time::Instant::now();
    lab.kubectl(&[
        "-n",
        "argocd",
        "annotate",
        "app",
        "cached",
        "argocd.argoproj.io/refresh=normal",
    ])
    .await;
    wait_app(&lab, "cached", "at the third commit", |a| {
        a["status"]["sync"]["revision"] == third
    })
    .await;
    // "At once" next to the cache's three minutes: well inside them even on a loaded two-core
    // CI, where the kubectl process and the sync alone took more than 30 s of a 60x clock.
    assert!(
        lab.handle_real(std::time::Duration::from_secs(120)) > before.elapsed(),
        "a requested refresh lists the refs at once, not when the cache expires: {:?}",
        before.elapsed()
    );
}

/// Item 10: after `terminate-op` the automated operation's end refreshes from the refs cache,
/// so a fix pushed without a refresh is not seen: the app sits on `SyncError … Operation
/// terminated` against the broken commit until the cached refs expire.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_terminate_op_the_cached_refs_hide_an_unrefreshed_fix_audit_2_10() {
    // Slower than the other timing tests: the test's own steps must all land within the
    // cache's 3 cluster minutes even on a loaded machine.
    let (lab, repo) = lab_at(15.0).await;
    write(
        &repo,
        "app/pre.yaml",
        &crate::common::job("pre", "argocd.argoproj.io/hook: PreSync", "exit 1"),
    );
    write(
        &repo,
        "app/cm.yaml",
        &crate::common::cm("settings", "", "1"),
    );
    let broken = commit_and_push(&repo, "broken").await;
    apply_app(&lab, "trap", "app", "", "").await;
    wait_app(&lab, "trap", "retrying", |a| {
        a["status"]["operationState"]["retryCount"].as_i64() >= Some(1)
    })
    .await;
    write(
        &repo,
        "app/pre.yaml",
        &crate::common::job("pre", "argocd.argoproj.io/hook: PreSync", "echo ok"),
    );
    let fix = commit_and_push(&repo, "fix").await;
    crate::common::terminate_op(&lab, "trap").await;
    let app = wait_app(&lab, "trap", "a SyncError", |a| {
        a["status"]["conditions"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["type"] == "SyncError"))
    })
    .await;
    let error = app["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "SyncError")
        .unwrap();
    assert!(
        error["message"].as_str().unwrap().starts_with(&format!(
            "Failed last sync attempt to [{broken}]: Operation terminated"
        )),
        "{error}"
    );
    assert_eq!(app["status"]["sync"]["revision"], broken);
    // A refresh lists the refs afresh: the fix is seen, and it syncs.
    lab.kubectl(&[
        "-n",
        "argocd",
        "annotate",
        "app",
        "trap",
        "argocd.argoproj.io/refresh=normal",
    ])
    .await;
    let app = wait_app(&lab, "trap", "synced at the fix", |a| {
        synced_healthy(a) && a["status"]["sync"]["revision"] == fix
    })
    .await;
    assert_eq!(app["status"]["operationState"]["phase"], "Succeeded");
}

/// Item 14: a repo error met by a periodic refresh is kept back: the status is left as it was
/// (reconciledAt frozen) the first time and for the grace period of 180 s after it, and only
/// then shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repo_error_is_kept_back_for_the_grace_period_audit_2_14() {
    let (lab, repo) = fast_lab().await;
    write(
        &repo,
        "chart/Chart.yaml",
        "apiVersion: v2\nname: web\nversion: 0.1.0\n",
    );
    write(
        &repo,
        "chart/templates/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: greeting\ndata:\n  a: \"1\"\n",
    );
    commit_and_push(&repo, "chart").await;
    apply_app(&lab, "grace", "chart", "", "").await;
    wait_app(&lab, "grace", "Synced and Healthy", synced_healthy).await;
    write(
        &repo,
        "chart/templates/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: greeting\ndata:\n  a: {{ .Values.missing.deeper }}\n",
    );
    commit_and_push(&repo, "broken chart").await;
    let seen = refreshes(&lab, "grace", |a| {
        a["status"]["conditions"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["type"] == "ComparisonError"))
    })
    .await;
    let n = seen.len();
    assert!(n >= 2, "{seen:?}");
    let (shown, _, _) = &seen[n - 1];
    let (last_written, _, _) = &seen[n - 2];
    // Periodic refreshes come every 120–180 s; one or more of them wrote nothing.
    assert!(
        shown.duration_since(*last_written).as_secs() >= 230,
        "the error was not kept back: {seen:?}"
    );
}

/// Item 15: an edit of the spec that changes neither source, destination nor
/// ignoreDifferences asks no refresh (it waits for the periodic one); a changed destination
/// does, and so does automated sync switched on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_some_spec_edits_refresh_the_app_audit_2_15() {
    let (lab, repo) = lab_with_repo().await;
    write(
        &repo,
        "app/cm.yaml",
        &crate::common::cm("settings", "", "1"),
    );
    commit_and_push(&repo, "cm").await;
    apply_app(&lab, "edits", "app", "", "").await;
    let app = wait_app(&lab, "edits", "Synced and Healthy", synced_healthy).await;
    let before = app["status"]["reconciledAt"].clone();
    let patch = |p: &'static str| {
        let lab = &lab;
        async move {
            lab.kubectl(&[
                "-n", "argocd", "patch", "app", "edits", "--type", "merge", "-p", p,
            ])
            .await
        }
    };
    patch(r#"{"spec":{"syncPolicy":{"syncOptions":["CreateNamespace=true","ServerSideApply=true"],"retry":{"limit":2}}}}"#).await;
    tokio::time::sleep(lab.handle_real(std::time::Duration::from_secs(20))).await;
    let app = lab
        .kubectl_json(&["-n", "argocd", "get", "app", "edits"])
        .await;
    let periodic_due = at(&app, "reconciledAt")
        .duration_since(before.as_str().unwrap().parse().unwrap())
        .as_secs()
        >= 120;
    if !periodic_due {
        assert_eq!(
            app["status"]["reconciledAt"], before,
            "syncOptions and retry ask no refresh"
        );
    }
    patch(r#"{"spec":{"destination":{"namespace":"edits-moved"}}}"#).await;
    wait_app(&lab, "edits", "compared with the new destination", |a| {
        a["status"]["sync"]["comparedTo"]["destination"]["namespace"] == "edits-moved"
    })
    .await;
}
