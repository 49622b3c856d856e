//! The learners' survey's smaller named items (survey-3-named.md, items 14, 16, 17, 19, 20),
//! each as a real client sees it.

use crate::common::{Lab, WEB, wait_json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_smaller_named_items_behave_as_on_k3s_survey_14_16_17_19_20() {
    let lab = Lab::start().await;
    // 14: a strategic-merge patch of a custom resource, in the real server's words.
    let app = lab.file("app.yaml", "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: smp, namespace: argocd}\nspec:\n  project: default\n  source: {repoURL: \"git://gitd.gitsrv.svc.cluster.local:9418/none.git\", path: x}\n  destination: {server: \"https://kubernetes.default.svc\", namespace: smp}\n");
    lab.kubectl(&["apply", "-f", app.to_str().unwrap()]).await;
    let err = lab
        .kubectl_fails(&[
            "-n",
            "argocd",
            "patch",
            "app",
            "smp",
            "-p",
            r#"{"metadata":{"labels":{"z":"1"}}}"#,
        ])
        .await;
    assert!(err.contains("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"), "{err}");
    assert!(
        !err.contains("unknown format (application/strategic-merge-patch+json)"),
        "{err}"
    );
    // 16: the server's Go version is k3s 1.35's.
    let version: serde_json::Value =
        serde_json::from_str(&lab.kubectl(&["version", "-o", "json"]).await).unwrap();
    assert!(
        version["serverVersion"]["goVersion"]
            .as_str()
            .unwrap()
            .starts_with("go1.25"),
        "{version}"
    );
    // 17: a truncated JSON body, as Go's decoder words it.
    let truncated = lab.file(
        "bad.json",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"",
    );
    let out = lab
        .kubectl_output(&[
            "create",
            "--raw",
            "/api/v1/namespaces/default/configmaps",
            "-f",
            truncated.to_str().unwrap(),
        ])
        .await;
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("unexpected end of JSON input"), "{said}");
    // 20: scaling rewrites the ReplicaSet's replica annotations; 19: a deleted Pod is stopped.
    let web = lab.file("web.yaml", WEB);
    lab.kubectl(&["apply", "-f", web.to_str().unwrap()]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    lab.kubectl(&["scale", "deploy/web", "--replicas=4"]).await;
    wait_json(&lab, &["get", "rs", "-l", "app=web"], |l| {
        l["items"][0]["metadata"]["annotations"]["deployment.kubernetes.io/desired-replicas"] == "4"
            && l["items"][0]["metadata"]["annotations"]["deployment.kubernetes.io/max-replicas"]
                == "5"
    })
    .await;
    let pods = lab.kubectl_json(&["get", "pods", "-l", "app=web"]).await;
    let pod = pods["items"][0]["metadata"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    lab.kubectl(&["delete", "pod", &pod, "--wait=false"]).await;
    wait_json(
        &lab,
        &[
            "get",
            "events",
            "--field-selector",
            &format!("involvedObject.name={pod},reason=Killing"),
        ],
        |l| {
            l["items"]
                .as_array()
                .is_some_and(|i| i.iter().any(|e| e["message"] == "Stopping container web"))
        },
    )
    .await;
}
