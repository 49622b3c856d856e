//! What the real API server and k3s's controllers make of what a learner writes, measured on a
//! real 1.35 server (survey 4, items 6, 14 and 19): Go's `omitempty` on the way in and out,
//! defaults and derived fields, and paused Deployments.

use crate::common::{Lab, wait_json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_fields_are_dropped_as_go_drops_them_survey_4_14() {
    let lab = Lab::start().await;
    let cm = lab.file(
        "cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: e\n  labels: {}\n  annotations: {}\n  finalizers: []\ndata: {}\nbinaryData: {}\n",
    );
    lab.kubectl(&["apply", "--server-side", "-f", cm.to_str().unwrap()])
        .await;
    let e = lab.kubectl_json(&["get", "cm", "e"]).await;
    for gone in ["labels", "annotations", "finalizers"] {
        assert!(e["metadata"].get(gone).is_none(), "{gone}: {e:#}");
    }
    assert!(
        e.get("data").is_none() && e.get("binaryData").is_none(),
        "{e:#}"
    );
    // The last key removed: no `data: {}` left behind.
    lab.kubectl(&["create", "configmap", "one", "--from-literal=a=1"])
        .await;
    lab.kubectl(&[
        "patch",
        "cm",
        "one",
        "--type",
        "json",
        "-p",
        r#"[{"op":"remove","path":"/data/a"}]"#,
    ])
    .await;
    assert!(
        lab.kubectl_json(&["get", "cm", "one"])
            .await
            .get("data")
            .is_none()
    );
    // A label removed twice: the second time the map is gone, so kubectl's patch adds nothing
    // and says `labeled`, as on a real server.
    lab.kubectl(&["label", "cm", "one", "team=x"]).await;
    lab.kubectl(&["label", "cm", "one", "team-"]).await;
    let again = lab.kubectl(&["label", "cm", "one", "team-"]).await;
    assert_eq!(
        again.trim().lines().last(),
        Some("configmap/one labeled"),
        "{again}"
    );
    let meta = lab.kubectl_json(&["get", "cm", "one"]).await["metadata"].clone();
    assert!(meta.get("labels").is_none(), "{meta:#}");
    // A Pod's empty lists and maps.
    let pod = lab.file(
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  nodeSelector: {}\n  containers:\n  - name: c\n    image: nginx:1.27-alpine\n    env: []\n    ports: []\n    args: []\n",
    );
    lab.kubectl(&["apply", "--server-side", "-f", pod.to_str().unwrap()])
        .await;
    let p = lab.kubectl_json(&["get", "pod", "p"]).await;
    assert!(p["spec"].get("nodeSelector").is_none(), "{p:#}");
    let c = &p["spec"]["containers"][0];
    for gone in ["env", "ports", "args"] {
        assert!(c.get(gone).is_none(), "{gone}: {c:#}");
    }
    assert_eq!(c["resources"], serde_json::json!({}));
    // A custom resource's metadata is typed too; its spec is not.
    let project = lab.file(
        "proj.yaml",
        "apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata:\n  name: empty\n  namespace: argocd\n  labels: {}\nspec:\n  sourceRepos: []\n  destinations: []\n",
    );
    lab.kubectl(&["apply", "-f", project.to_str().unwrap()])
        .await;
    let proj = lab
        .kubectl_json(&["-n", "argocd", "get", "appproject", "empty"])
        .await;
    assert!(proj["metadata"].get("labels").is_none(), "{proj:#}");
    assert_eq!(
        proj["spec"],
        serde_json::json!({"sourceRepos": [], "destinations": []})
    );
    // Fields Go writes without omitempty: the node's system info strings, a condition's
    // lastProbeTime.
    let node = lab.kubectl_json(&["get", "node", "capa-lab"]).await;
    assert_eq!(node["status"]["nodeInfo"]["kubeProxyVersion"], "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn services_secrets_and_jobs_get_the_real_defaults_survey_4_19() {
    let lab = Lab::start().await;
    let np = lab
        .kubectl_json(&["create", "service", "nodeport", "sv2", "--tcp=80:8080"])
        .await;
    assert_eq!(np["spec"]["externalTrafficPolicy"], "Cluster");
    assert!(np["spec"].get("allocateLoadBalancerNodePorts").is_none());
    let lb = lab
        .kubectl_json(&["create", "service", "loadbalancer", "sv3", "--tcp=80:8080"])
        .await;
    assert_eq!(lb["spec"]["externalTrafficPolicy"], "Cluster");
    assert_eq!(lb["spec"]["allocateLoadBalancerNodePorts"], true);
    let en = lab
        .kubectl_json(&[
            "create",
            "service",
            "externalname",
            "db",
            "--external-name=db.example.com",
        ])
        .await;
    for gone in [
        "ipFamilies",
        "ipFamilyPolicy",
        "internalTrafficPolicy",
        "clusterIP",
    ] {
        assert!(en["spec"].get(gone).is_none(), "{gone}: {en:#}");
    }
    let bad = lab.file(
        "badnp.yaml",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: badnp\nspec:\n  type: NodePort\n  selector: {a: b}\n  ports: [{port: 80, nodePort: 80}]\n",
    );
    let err = lab
        .kubectl_fails(&["apply", "-f", bad.to_str().unwrap()])
        .await;
    assert!(
        err.contains("The Service \"badnp\" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767"),
        "{err}"
    );
    // stringData is merged into data, base64-encoded, and never stored.
    let secret = lab.file(
        "sd.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: sd\nstringData:\n  a: plain\n",
    );
    lab.kubectl(&["apply", "-f", secret.to_str().unwrap()])
        .await;
    let sd = lab.kubectl_json(&["get", "secret", "sd"]).await;
    assert_eq!(sd["data"], serde_json::json!({"a": "cGxhaW4="}));
    assert!(sd.get("stringData").is_none(), "{sd:#}");
    // A Job without labels shows its template's, the generated ones included.
    let job: serde_json::Value = serde_json::from_str(
        &lab.kubectl(&[
            "create",
            "job",
            "done",
            "--image=busybox:1.36",
            "-o",
            "json",
            "--",
            "echo",
            "hi",
        ])
        .await,
    )
    .unwrap();
    let uid = job["metadata"]["uid"].as_str().unwrap();
    assert_eq!(
        job["metadata"]["labels"],
        serde_json::json!({"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": "done", "controller-uid": uid, "job-name": "done"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deployments_annotations_reach_its_replica_set_and_a_pause_holds_the_rollout_survey_4_6()
{
    let lab = Lab::start().await;
    lab.kubectl(&["create", "deployment", "web", "--image=nginx:1.27-alpine"])
        .await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    lab.kubectl(&["set", "image", "deploy/web", "nginx=nginx:1.28-alpine"])
        .await;
    lab.kubectl(&[
        "annotate",
        "deploy/web",
        "kubernetes.io/change-cause=bump to 1.28",
        "kubectl.kubernetes.io/last-applied-configuration={}",
    ])
    .await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    let sets =
        wait_json(&lab, &["get", "rs", "-l", "app=web"], |l| {
            l["items"].as_array().unwrap().iter().any(|rs| {
                rs["metadata"]["annotations"]["kubernetes.io/change-cause"] == "bump to 1.28"
            })
        })
        .await;
    for rs in sets["items"].as_array().unwrap() {
        let a = &rs["metadata"]["annotations"];
        assert!(
            a.get("kubectl.kubernetes.io/last-applied-configuration")
                .is_none(),
            "{a:#}"
        );
    }
    let history = lab.kubectl(&["rollout", "history", "deploy/web"]).await;
    assert!(
        history
            .lines()
            .any(|l| l.starts_with('2') && l.ends_with("bump to 1.28")),
        "{history}"
    );
    // Paused: a new template makes no ReplicaSet; Progressing says why; status waits.
    lab.kubectl(&["rollout", "pause", "deploy/web"]).await;
    lab.kubectl(&["set", "image", "deploy/web", "nginx=nginx:1.29-alpine"])
        .await;
    let d = wait_json(&lab, &["get", "deploy", "web"], |d| {
        d["status"]["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|c| c["type"] == "Progressing" && c["reason"] == "DeploymentPaused")
    })
    .await;
    let progressing = d["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Progressing")
        .unwrap();
    assert_eq!(progressing["status"], "Unknown");
    assert_eq!(progressing["message"], "Deployment is paused");
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let sets = lab.kubectl_json(&["get", "rs", "-l", "app=web"]).await;
    assert_eq!(sets["items"].as_array().unwrap().len(), 2, "{sets:#}");
    let out = lab
        .kubectl_output(&["rollout", "status", "deploy/web", "--timeout=2s"])
        .await;
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("Waiting for deployment \"web\" rollout to finish: 0 out of 1 new replicas have been updated..."),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    lab.kubectl(&["rollout", "resume", "deploy/web"]).await;
    lab.kubectl(&["rollout", "status", "deploy/web", "--timeout=60s"])
        .await;
    let sets = lab.kubectl_json(&["get", "rs", "-l", "app=web"]).await;
    assert_eq!(sets["items"].as_array().unwrap().len(), 3, "{sets:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_learners_invalid_pod_service_and_resources_are_refused_in_the_real_words() {
    let lab = Lab::start().await;
    let pod = lab.file(
        "bad.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: bad\nspec:\n  containers:\n  - name: Bad_Name\n    image: \"\"\n",
    );
    let err = lab
        .kubectl_fails(&["apply", "-f", pod.to_str().unwrap()])
        .await;
    assert!(
        err.contains(
            "The Pod \"bad\" is invalid: \n* spec.containers[0].name: Invalid value: \"Bad_Name\""
        ) && err.contains("* spec.containers[0].image: Required value"),
        "{err}"
    );
    let svc = lab.file(
        "svc.yaml",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: noports\nspec:\n  selector: {a: b}\n",
    );
    let err = lab
        .kubectl_fails(&["apply", "-f", svc.to_str().unwrap()])
        .await;
    assert!(
        err.contains("The Service \"noports\" is invalid: spec.ports: Required value"),
        "{err}"
    );
    lab.kubectl(&["create", "deployment", "web", "--image=nginx:1.27-alpine"])
        .await;
    // A fractional byte count is a warning in 1.35, a request above its limit an error.
    let out = lab
        .kubectl_output(&[
            "set",
            "resources",
            "deploy/web",
            "--limits=cpu=0.2,memory=128Mi",
            "--requests=cpu=100m,memory=0.5",
        ])
        .await;
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("Warning: spec.template.spec.containers[0].resources.requests[memory]: fractional byte value \"500m\" is invalid, must be an integer"),
        "{said}"
    );
    let err = lab
        .kubectl_fails(&[
            "set",
            "resources",
            "deploy/web",
            "--limits=cpu=100m",
            "--requests=cpu=200m",
        ])
        .await;
    assert!(
        err.contains("spec.template.spec.containers[0].resources.requests: Invalid value: \"200m\": must be less than or equal to cpu limit of 100m"),
        "{err}"
    );
}
