//! Lists and watches as a real 1.35 server answers them (the client-library survey): option
//! validation, versions ahead of or behind the server, what a filtered watch sends for an
//! object that stops matching, and a namespace that cannot finish terminating.

use super::raw_http::{Client, Request};
use crate::common::{Lab, wait_json};

fn get(path: &str, query: &str) -> Request {
    Request {
        method: "GET",
        path: path.to_string(),
        query: query.to_string(),
        content_type: String::new(),
        headers: Vec::new(),
        body: Vec::new(),
    }
}

/// A list's resourceVersion, as the server gives it (kubectl's `-o json` of a list has none).
async fn list_version(client: &Client, path: &str) -> String {
    let (_, body) = client.send(&get(path, "")).await.unwrap();
    json(&body)["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string()
}

fn json(body: &[u8]) -> serde_json::Value {
    serde_json::from_slice(body).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_and_watch_options_and_versions_are_judged_as_on_1_35() {
    let lab = Lab::start().await;
    let client = Client::new(&lab);
    let cms = "/api/v1/namespaces/default/configmaps";
    let (code, body) = client
        .send(&get(cms, "sendInitialEvents=false"))
        .await
        .unwrap();
    assert_eq!(code, 422);
    assert_eq!(
        json(&body)["message"],
        "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"
    );
    let (code, body) = client
        .send(&get(cms, "resourceVersionMatch=Exact"))
        .await
        .unwrap();
    assert_eq!(code, 422);
    assert_eq!(
        json(&body)["message"],
        "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"
    );
    let (code, body) = client
        .send(&get(
            cms,
            "watch=true&sendInitialEvents=true&timeoutSeconds=1",
        ))
        .await
        .unwrap();
    assert_eq!(code, 422);
    assert_eq!(
        json(&body)["message"],
        "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"
    );
    // A version the server has not reached: 504.
    let (code, body) = client
        .send(&get(
            cms,
            "resourceVersion=99999999&resourceVersionMatch=NotOlderThan",
        ))
        .await
        .unwrap();
    assert_eq!(code, 504);
    let status = json(&body);
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .starts_with("Timeout: Too large resource version: 99999999, current: "),
        "{status}"
    );
    assert_eq!(status["details"]["retryAfterSeconds"], 1);
    // Exact: the state at that version, without what came later.
    lab.kubectl(&["create", "configmap", "a"]).await;
    let before = list_version(&client, cms).await;
    lab.kubectl(&["create", "configmap", "later"]).await;
    let (code, body) = client
        .send(&get(
            cms,
            &format!("resourceVersion={before}&resourceVersionMatch=Exact"),
        ))
        .await
        .unwrap();
    assert_eq!(code, 200);
    let names: Vec<String> = json(&body)["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"a".to_string()), "{names:?}");
    assert!(!names.contains(&"later".to_string()), "{names:?}");
    // A watch from before the watch cache began: one ERROR event, 410 Expired.
    let (code, body) = client
        .send(&get(cms, "watch=true&resourceVersion=1&timeoutSeconds=2"))
        .await
        .unwrap();
    assert_eq!(code, 200);
    let first = String::from_utf8_lossy(&body);
    let event: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(event["type"], "ERROR");
    assert_eq!(event["object"]["code"], 410);
    assert!(
        event["object"]["message"]
            .as_str()
            .unwrap()
            .starts_with("too old resource version: 1 ("),
        "{event}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_object_that_stops_matching_is_deleted_as_it_last_matched() {
    let lab = Lab::start().await;
    let client = Client::new(&lab);
    lab.kubectl(&["create", "configmap", "t"]).await;
    lab.kubectl(&["label", "configmap", "t", "w=1"]).await;
    let rv = list_version(&client, "/api/v1/namespaces/default/configmaps").await;
    let watch = get(
        "/api/v1/namespaces/default/configmaps",
        &format!("watch=true&labelSelector=w%3D1&resourceVersion={rv}&timeoutSeconds=3"),
    );
    let watching = tokio::spawn(async move { client.send(&watch).await });
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    lab.kubectl(&["label", "configmap", "t", "w=2", "--overwrite"])
        .await;
    let (_, body) = watching.await.unwrap().unwrap();
    let events: Vec<serde_json::Value> = String::from_utf8_lossy(&body)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["type"], "DELETED");
    assert_eq!(events[0]["object"]["metadata"]["labels"]["w"], "1");
    let now = lab.kubectl_json(&["get", "configmap", "t"]).await;
    assert_eq!(
        events[0]["object"]["metadata"]["resourceVersion"],
        now["metadata"]["resourceVersion"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminating_namespace_says_what_holds_it_survey_4_23() {
    let lab = Lab::start().await;
    lab.kubectl(&["create", "namespace", "held"]).await;
    let cm = lab.file(
        "held.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  finalizers: [example.com/hold]\n",
    );
    lab.kubectl(&["-n", "held", "apply", "-f", cm.to_str().unwrap()])
        .await;
    lab.kubectl(&["delete", "namespace", "held", "--wait=false"])
        .await;
    let ns = wait_json(&lab, &["get", "namespace", "held"], |ns| {
        ns["status"]["conditions"]
            .as_array()
            .is_some_and(|c| c.len() == 5)
    })
    .await;
    assert!(
        ns["metadata"]
            .as_object()
            .unwrap()
            .get("deletionGracePeriodSeconds")
            .is_none(),
        "{ns:#}"
    );
    let said: Vec<String> = ns["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {} {}: {}",
                c["type"].as_str().unwrap(),
                c["status"].as_str().unwrap(),
                c["reason"].as_str().unwrap(),
                c["message"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        said.contains(&"NamespaceContentRemaining True SomeResourcesRemain: Some resources are remaining: configmaps. has 1 resource instances".to_string()),
        "{said:#?}"
    );
    assert!(
        said.contains(&"NamespaceFinalizersRemaining True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances".to_string()),
        "{said:#?}"
    );
    assert!(
        said.contains(&"NamespaceDeletionContentFailure False ContentDeleted: All content successfully deleted, may be waiting on finalization".to_string()),
        "{said:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_with_limit_comes_in_pages_of_one_snapshot() {
    let lab = Lab::start().await;
    let client = Client::new(&lab);
    let cms = "/api/v1/namespaces/default/configmaps";
    for name in ["p1", "p2", "p3"] {
        lab.kubectl(&["create", "configmap", name]).await;
    }
    let (code, body) = client.send(&get(cms, "limit=2")).await.unwrap();
    assert_eq!(code, 200);
    let first = json(&body);
    assert_eq!(first["items"].as_array().unwrap().len(), 2);
    let token = first["metadata"]["continue"].as_str().unwrap().to_string();
    let left = first["metadata"]["remainingItemCount"].as_u64().unwrap();
    assert!(left >= 2, "{first}"); // p3 and kube-root-ca.crt at least
    // Created after the first page: not in the pages that follow it.
    lab.kubectl(&["create", "configmap", "p0-later"]).await;
    let mut names: Vec<String> = Vec::new();
    let mut next = Some(token);
    let mut pages = 1;
    while let Some(token) = next {
        let (code, body) = client
            .send(&get(cms, &format!("limit=2&continue={token}")))
            .await
            .unwrap();
        assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
        let page = json(&body);
        assert_eq!(
            page["metadata"]["resourceVersion"],
            first["metadata"]["resourceVersion"]
        );
        names.extend(
            page["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["metadata"]["name"].as_str().unwrap().to_string()),
        );
        next = page["metadata"]["continue"].as_str().map(str::to_string);
        pages += 1;
    }
    assert!(names.contains(&"p3".to_string()), "{names:?}");
    assert!(!names.contains(&"p0-later".to_string()), "{names:?}");
    assert_eq!(names.len() as u64, left, "{names:?}");
    assert!(pages >= 2);
    // A broken token: 400 in the storage layer's words; with a resourceVersion: refused.
    let (code, body) = client.send(&get(cms, "continue=bogus")).await.unwrap();
    assert_eq!(code, 400);
    assert_eq!(
        json(&body)["message"],
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 4"
    );
    let (code, _) = client
        .send(&get(cms, "continue=bogus&resourceVersion=5"))
        .await
        .unwrap();
    assert_eq!(code, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_that_allows_bookmarks_gets_one_before_it_times_out() {
    let lab = Lab::start().await;
    let client = Client::new(&lab);
    let cms = "/api/v1/namespaces/default/configmaps";
    let types = |body: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(body)
            .lines()
            .map(|l| json(l.as_bytes())["type"].as_str().unwrap().to_string())
            .collect()
    };
    let rv = list_version(&client, cms).await;
    let started = std::time::Instant::now();
    let (code, body) = client
        .send(&get(
            cms,
            &format!("watch=true&resourceVersion={rv}&allowWatchBookmarks=true&timeoutSeconds=4"),
        ))
        .await
        .unwrap();
    assert_eq!(code, 200);
    assert_eq!(types(&body), ["BOOKMARK"]);
    assert!(started.elapsed() >= std::time::Duration::from_secs(3));
    // Too short for one 2 s before its end, and none without allowWatchBookmarks.
    for query in [
        format!("watch=true&resourceVersion={rv}&allowWatchBookmarks=true&timeoutSeconds=2"),
        format!("watch=true&resourceVersion={rv}&timeoutSeconds=4"),
    ] {
        let (_, body) = client.send(&get(cms, &query)).await.unwrap();
        assert!(types(&body).is_empty(), "{query}");
    }
}
