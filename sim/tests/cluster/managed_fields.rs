//! managedFields as a real API server keeps them: the lab's step 8 reads who owns
//! `spec.replicas` after `kubectl scale`.

use serde_json::Value;

use crate::common::{Lab, WEB, entries_where};

fn entries(obj: &Value) -> Vec<(String, String, String)> {
    entries_where(obj, false)
}

fn owners_of_replicas(obj: &Value) -> Vec<(String, String, String)> {
    entries_where(obj, true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_scale_leaves_replicas_owned_by_kubectl_through_the_scale_subresource() {
    let lab = Lab::start().await;
    lab.kubectl(&["apply", "-f", lab.file("web.yaml", WEB).to_str().unwrap()])
        .await;
    let before = lab
        .kubectl_json(&["get", "deploy", "web", "--show-managed-fields"])
        .await;
    assert_eq!(
        owners_of_replicas(&before),
        [(
            "kubectl-client-side-apply".into(),
            "Update".into(),
            String::new()
        )]
    );
    lab.kubectl(&["scale", "deploy/web", "--replicas=4"]).await;
    let after = lab
        .kubectl_json(&["get", "deploy", "web", "--show-managed-fields"])
        .await;
    assert_eq!(
        owners_of_replicas(&after),
        [("kubectl".into(), "Update".into(), "scale".into())]
    );
    let scale_entry = after["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["subresource"] == "scale")
        .unwrap();
    assert_eq!(
        scale_entry["apiVersion"], "apps/v1",
        "recorded against the parent's apiVersion"
    );
    assert_eq!(after["spec"]["replicas"], 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_side_apply_records_exactly_the_applied_fields_with_list_keys() {
    let lab = Lab::start().await;
    lab.kubectl(&[
        "apply",
        "--server-side",
        "--field-manager=capa-tui",
        "-f",
        lab.file("web.yaml", WEB).to_str().unwrap(),
    ])
    .await;
    let d = lab
        .kubectl_json(&["get", "deploy", "web", "--show-managed-fields"])
        .await;
    let apply = d["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["manager"] == "capa-tui")
        .unwrap();
    assert_eq!(apply["operation"], "Apply");
    let container =
        &apply["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"][r#"k:{"name":"web"}"#];
    assert!(container["f:image"].is_object(), "{apply}");
    assert!(
        container["f:ports"][r#"k:{"containerPort":80,"protocol":"TCP"}"#].is_object(),
        "{apply}"
    );
    assert!(
        container.get("f:imagePullPolicy").is_none(),
        "defaults are not the applier's: {apply}"
    );
    assert!(apply["fieldsV1"].get("f:status").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn controllers_write_status_as_k3s_and_updates_take_fields_from_their_previous_owner() {
    let lab = Lab::start().await;
    lab.kubectl(&["apply", "-f", lab.file("web.yaml", WEB).to_str().unwrap()])
        .await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    lab.kubectl(&["set", "image", "deploy/web", "web=nginx:1.28-alpine"])
        .await;
    let d = lab
        .kubectl_json(&["get", "deploy", "web", "--show-managed-fields"])
        .await;
    let all = entries(&d);
    assert!(
        all.contains(&("k3s".into(), "Update".into(), "status".into())),
        "{all:?}"
    );
    let image_owners: Vec<&str> = d["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"][r#"k:{"name":"web"}"#]["f:image"].is_object())
        .map(|m| m["manager"].as_str().unwrap())
        .collect();
    assert_eq!(image_owners, ["kubectl-set"]);
}
