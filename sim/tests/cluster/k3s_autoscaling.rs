//! HorizontalPodAutoscalers as on k3s, with the real kubectl 1.35: `kubectl autoscale` makes an
//! autoscaling/v2 HPA that v1 reads too, the controller scales the Deployment on the simulated
//! CPU (the `capa-sim/cpu` Pod annotation) through `/scale` as manager `k3s`, and an HPA
//! committed to Git syncs with the lab's `ignoreDifferences` on `/spec/replicas`.

use serde_json::Value;

use crate::common::argocd::{lab_with_repo, wait_app};
use crate::common::git::{commit_and_push, write};
use crate::common::{Lab, entries_where, wait_json};

const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n      annotations: {capa-sim/cpu: 300m}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27-alpine\n        resources:\n          requests: {cpu: 100m}\n";

fn condition<'a>(hpa: &'a Value, ty: &str) -> &'a Value {
    hpa["status"]["conditions"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["type"] == ty))
        .unwrap_or(&Value::Null)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_autoscale_scales_the_deployment_on_simulated_cpu() {
    let lab = Lab::start().await;
    let deploy = lab.file("web.yaml", DEPLOYMENT);
    lab.kubectl(&["apply", "-f", deploy.to_str().unwrap()])
        .await;
    let out = lab
        .kubectl(&[
            "autoscale",
            "deployment",
            "web",
            "--min=1",
            "--max=3",
            "--cpu=50%",
        ])
        .await;
    assert_eq!(
        out.trim(),
        "horizontalpodautoscaler.autoscaling/web autoscaled"
    );
    // Three times the request at a 50% target proposes 6 Pods, capped at max 3.
    let hpa = wait_json(&lab, &["get", "hpa", "web"], |h| {
        h["status"]["desiredReplicas"] == 3 && h["status"]["currentReplicas"] == 3
    })
    .await;
    assert_eq!(hpa["apiVersion"], "autoscaling/v2");
    assert_eq!(
        condition(&hpa, "ScalingActive")["reason"],
        "ValidMetricFound",
        "{hpa:#}"
    );
    assert_eq!(
        condition(&hpa, "ScalingActive")["message"],
        "the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)"
    );
    assert_eq!(
        condition(&hpa, "ScalingLimited")["reason"],
        "TooManyReplicas",
        "{hpa:#}"
    );
    assert_eq!(condition(&hpa, "AbleToScale")["status"], "True", "{hpa:#}");
    assert!(hpa["status"]["lastScaleTime"].is_string(), "{hpa:#}");
    assert_eq!(
        hpa["status"]["currentMetrics"][0]["resource"]["current"]["averageUtilization"], 300,
        "{hpa:#}"
    );
    let deploy = lab
        .kubectl_json(&["get", "deploy", "web", "--show-managed-fields"])
        .await;
    assert_eq!(deploy["spec"]["replicas"], 3);
    // spec.replicas now belongs to the controller, written through /scale.
    let owners = entries_where(&deploy, true);
    assert!(
        owners.contains(&("k3s".to_string(), "Update".to_string(), "scale".to_string())),
        "{owners:?}"
    );
    let table = lab.kubectl(&["get", "hpa"]).await;
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows[0],
        [
            "NAME",
            "REFERENCE",
            "TARGETS",
            "MINPODS",
            "MAXPODS",
            "REPLICAS",
            "AGE"
        ],
        "{table}"
    );
    assert_eq!(
        rows[1][..7],
        ["web", "Deployment/web", "cpu:", "300%/50%", "1", "3", "3"],
        "{table}"
    );
    let events = lab
        .kubectl(&[
            "get",
            "events",
            "--field-selector",
            "involvedObject.kind=HorizontalPodAutoscaler",
        ])
        .await;
    assert!(
        events.contains("SuccessfulRescale")
            && events.contains(
                "New size: 3; reason: cpu resource utilization (percentage of request) above target"
            ),
        "{events}"
    );
    // The same object read as autoscaling/v1.
    let v1 = lab
        .kubectl_json(&["get", "horizontalpodautoscalers.v1.autoscaling", "web"])
        .await;
    assert_eq!(v1["apiVersion"], "autoscaling/v1");
    assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 50, "{v1:#}");
    assert_eq!(
        v1["status"]["currentCPUUtilizationPercentage"], 300,
        "{v1:#}"
    );
    assert!(
        v1["metadata"]["annotations"]["autoscaling.alpha.kubernetes.io/conditions"].is_string(),
        "{v1:#}"
    );
    lab.kubectl(&["delete", "hpa", "web"]).await;
    lab.kubectl_fails(&["get", "horizontalpodautoscalers.v1.autoscaling", "web"])
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pod_without_a_cpu_request_leaves_scaling_inactive_with_the_real_message() {
    let lab = Lab::start().await;
    lab.kubectl(&["create", "deployment", "bare", "--image=nginx:1.27-alpine"])
        .await;
    let v1 = lab.file(
        "hpa.yaml",
        "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: bare\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: bare}\n  maxReplicas: 4\n  targetCPUUtilizationPercentage: 60\n",
    );
    let out = lab.kubectl(&["apply", "-f", v1.to_str().unwrap()]).await;
    assert!(
        out.contains("horizontalpodautoscaler.autoscaling/bare created"),
        "{out}"
    );
    // Until metrics-server has sampled the Pod the metrics are missing; then the request is.
    let hpa = wait_json(&lab, &["get", "hpa", "bare"], |h| {
        condition(h, "ScalingActive")["message"]
            .as_str()
            .is_some_and(|m| m.contains("missing request"))
    })
    .await;
    let active = condition(&hpa, "ScalingActive");
    assert_eq!(active["reason"], "FailedGetResourceMetric", "{hpa:#}");
    let message = active["message"].as_str().unwrap();
    assert!(
        message.starts_with("the HPA was unable to compute the replica count: failed to get cpu utilization: missing request for cpu in container nginx of Pod bare-"),
        "{message}"
    );
    assert_eq!(
        hpa["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"], 60,
        "{hpa:#}"
    );
    assert_eq!(hpa["spec"]["minReplicas"], 1, "{hpa:#}");
    let table = lab.kubectl(&["get", "hpa", "bare"]).await;
    assert!(table.contains("cpu: <unknown>/60%"), "{table}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_hpa_in_git_syncs_and_owns_the_replicas_argo_cd_ignores() {
    let (lab, repo) = lab_with_repo().await;
    write(&repo, "hpa/deploy.yaml", DEPLOYMENT);
    write(
        &repo,
        "hpa/hpa.yaml",
        "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 1\n  maxReplicas: 2\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target: {type: Utilization, averageUtilization: 80}\n",
    );
    commit_and_push(&repo, "web with an HPA").await;
    let ignore = "  ignoreDifferences:\n  - {group: apps, kind: Deployment, jsonPointers: [/spec/replicas]}\n";
    crate::common::argocd::apply_app(&lab, "scaled", "hpa", "", ignore).await;
    let app = wait_app(&lab, "scaled", "listing the HPA", |a| {
        a["status"]["resources"].as_array().is_some_and(|r| {
            r.iter()
                .any(|r| r["kind"] == "HorizontalPodAutoscaler" && r["status"] == "Synced")
        })
    })
    .await;
    let hpa_res = app["status"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "HorizontalPodAutoscaler")
        .unwrap()
        .clone();
    assert_eq!(
        (hpa_res["group"].as_str(), hpa_res["version"].as_str()),
        (Some("autoscaling"), Some("v2")),
        "{hpa_res}"
    );
    let deploy = wait_json(
        &lab,
        &[
            "-n",
            "scaled",
            "get",
            "deploy",
            "web",
            "--show-managed-fields",
        ],
        |d| d["spec"]["replicas"] == 2,
    )
    .await;
    let owners = entries_where(&deploy, true);
    assert!(
        owners.iter().any(|(m, _, s)| m == "k3s" && s == "scale"),
        "{owners:?}"
    );
    // The controller's replicas are ignored: the app stays Synced and Healthy.
    let app = wait_app(&lab, "scaled", "Synced and Healthy", |a| {
        crate::common::argocd::synced_healthy(a)
    })
    .await;
    assert_eq!(app["status"]["sync"]["status"], "Synced");
}
