//! The Argo CD install a learner looks for in `argocd` (survey items 5, 6 and 12; audit 2,
//! item 12): its workloads and Pods, Services, ServiceAccounts, ConfigMaps and Secrets, the
//! ApplicationSet CRD, the git daemon in `gitsrv`, and the controller's log of the lab's syncs.

use serde_json::Value;

use crate::common::{
    apply_app, cm, commit_and_push, lab_with_repo, synced_healthy, wait_app, wait_json, write,
};

fn names(list: &Value) -> Vec<String> {
    let mut n: Vec<String> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            format!(
                "{}/{}",
                o["kind"].as_str().unwrap().to_lowercase(),
                o["metadata"]["name"].as_str().unwrap()
            )
        })
        .collect();
    n.sort();
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_argocd_namespace_holds_argo_cds_install_survey_5_6_12() {
    let (lab, repo) = lab_with_repo().await;
    let pods = wait_json(&lab, &["-n", "argocd", "get", "pods"], |l| {
        let items = l["items"].as_array().unwrap();
        items.len() == 7 && items.iter().all(|p| p["status"]["phase"] == "Running")
    })
    .await;
    let pod_names: Vec<String> = pods["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["metadata"]["name"].as_str().unwrap().to_string())
        .collect();
    assert!(
        pod_names.contains(&"argocd-application-controller-0".to_string()),
        "{pod_names:?}"
    );
    for prefix in [
        "argocd-applicationset-controller-",
        "argocd-dex-server-",
        "argocd-notifications-controller-",
        "argocd-redis-",
        "argocd-repo-server-",
        "argocd-server-",
    ] {
        assert!(
            pod_names.iter().any(|n| n.starts_with(prefix)),
            "{prefix}: {pod_names:?}"
        );
    }
    let workloads = lab
        .kubectl_json(&["-n", "argocd", "get", "sts,deploy"])
        .await;
    assert_eq!(
        names(&workloads),
        [
            "deployment/argocd-applicationset-controller",
            "deployment/argocd-dex-server",
            "deployment/argocd-notifications-controller",
            "deployment/argocd-redis",
            "deployment/argocd-repo-server",
            "deployment/argocd-server",
            "statefulset/argocd-application-controller",
        ]
    );
    let services = lab.kubectl_json(&["-n", "argocd", "get", "svc"]).await;
    assert_eq!(services["items"].as_array().unwrap().len(), 8);
    let accounts = lab.kubectl_json(&["-n", "argocd", "get", "sa"]).await;
    assert_eq!(
        accounts["items"].as_array().unwrap().len(),
        8,
        "seven and default"
    );
    let config = lab.kubectl_json(&["-n", "argocd", "get", "cm"]).await;
    for name in [
        "argocd-cm",
        "argocd-cmd-params-cm",
        "argocd-gpg-keys-cm",
        "argocd-notifications-cm",
        "argocd-rbac-cm",
        "argocd-ssh-known-hosts-cm",
        "argocd-tls-certs-cm",
    ] {
        assert!(
            names(&config).contains(&format!("configmap/{name}")),
            "{name}"
        );
    }
    let argocd_cm = lab
        .kubectl_json(&["-n", "argocd", "get", "cm", "argocd-cm"])
        .await;
    let keys = argocd_cm["data"].as_object().unwrap();
    assert_eq!(keys.len(), 9, "{keys:?}");
    assert!(keys.contains_key("resource.exclusions"));
    assert!(
        !keys.contains_key("application.resourceTrackingMethod"),
        "annotation tracking is the default"
    );
    let secrets = lab.kubectl_json(&["-n", "argocd", "get", "secret"]).await;
    for name in [
        "argocd-secret",
        "argocd-notifications-secret",
        "argocd-redis",
        "argocd-initial-admin-secret",
    ] {
        assert!(
            names(&secrets).contains(&format!("secret/{name}")),
            "{name}"
        );
    }
    let password = lab
        .kubectl(&[
            "-n",
            "argocd",
            "get",
            "secret",
            "argocd-initial-admin-secret",
            "-o",
            "jsonpath={.data.password}",
        ])
        .await;
    assert!(!password.is_empty());
    lab.kubectl(&["get", "crd", "applicationsets.argoproj.io"])
        .await;
    let out = lab
        .kubectl_output(&["-n", "argocd", "get", "appsets"])
        .await;
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stderr).contains("No resources found"),
        "{out:?}"
    );
    lab.kubectl(&["-n", "gitsrv", "get", "svc", "gitd"]).await;
    wait_json(
        &lab,
        &["-n", "gitsrv", "get", "pods", "-l", "app=gitd"],
        |l| {
            l["items"]
                .as_array()
                .is_some_and(|i| i.len() == 1 && i[0]["status"]["phase"] == "Running")
        },
    )
    .await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "rollout",
        "restart",
        "deploy",
        "argocd-repo-server",
    ])
    .await;
    lab.kubectl(&[
        "-n",
        "argocd",
        "rollout",
        "status",
        "deploy",
        "argocd-repo-server",
        "--timeout=60s",
    ])
    .await;

    // The controller's log tells what it did, as Argo CD logs it.
    write(&repo, "app/cm.yaml", &cm("settings", "", "1"));
    let sha = commit_and_push(&repo, "cm").await;
    apply_app(&lab, "logged", "app", "", "").await;
    wait_app(&lab, "logged", "Synced and Healthy", synced_healthy).await;
    let log = lab
        .kubectl(&["-n", "argocd", "logs", "argocd-application-controller-0"])
        .await;
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let said = |text: &str| {
        lines.iter().any(|l| {
            l["application"] == "logged" && l["msg"].as_str().is_some_and(|m| m.contains(text))
        })
    };
    assert!(
        said("Refreshing app status (spec.source differs), level (3)"),
        "{log}"
    );
    assert!(
        said(&format!("Initiated automated sync to '{sha}'")),
        "{log}"
    );
    assert!(
        said(
            "Adding resource result, status: 'Synced', phase: 'Running', message: 'configmap/settings created'"
        ),
        "{log}"
    );
    assert!(said("-> Succeeded, message:"), "{log}");
    assert!(
        lines
            .iter()
            .all(|l| l["level"].is_string() && l["time"].is_string())
    );
}
