//! Bodies and paths the real 1.35 server refuses, in its own words (survey 3, item 17, and the
//! raw endpoints of the kubectl survey): undecodable bodies, unsupported media types, bodies of
//! another kind, broken patches; the health checks, `/version`, `/scale`'s Table.

use super::raw_http::{Client, Request};
use crate::common::Lab;

fn post(path: &str, content_type: &str, body: &str) -> Request {
    Request {
        method: "POST",
        path: path.to_string(),
        query: String::new(),
        content_type: content_type.to_string(),
        headers: Vec::new(),
        body: body.as_bytes().to_vec(),
    }
}

fn status(body: &[u8]) -> (i64, String, String) {
    let s: serde_json::Value = serde_json::from_slice(body).unwrap();
    (
        s["code"].as_i64().unwrap_or_default(),
        s["reason"].as_str().unwrap_or_default().to_string(),
        s["message"].as_str().unwrap_or_default().to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_the_server_cannot_take_are_refused_in_its_words_survey_3_17() {
    let lab = Lab::start().await;
    let client = Client::new(&lab);
    let cms = "/api/v1/namespaces/default/configmaps";
    let (code, body) = client
        .send(&post(
            cms,
            "application/json",
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x""#,
        ))
        .await
        .unwrap();
    assert_eq!(code, 400);
    assert_eq!(
        status(&body).2,
        r#"the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Con ...)"#
    );
    let ok = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x1"},"data":{"a":"1"}}"#;
    let (code, body) = client
        .send(&post(cms, "application/xml", ok))
        .await
        .unwrap();
    assert_eq!(code, 415);
    assert_eq!(
        status(&body),
        (
            415,
            "UnsupportedMediaType".into(),
            "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf".into()
        )
    );
    // curl's user agent gets indented JSON, as `isPrettyPrint` decides.
    let mut from_curl = post(cms, "application/xml", ok);
    from_curl
        .headers
        .push(("User-Agent".into(), "curl/8.5.0".into()));
    let (_, body) = client.send(&from_curl).await.unwrap();
    let text = String::from_utf8(body).unwrap();
    assert!(
        text.starts_with(
            "{\n  \"kind\": \"Status\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {},\n"
        ),
        "{text}"
    );
    assert!(text.ends_with("\"code\": 415\n}"), "{text}");
    let (code, body) = client
        .send(&post(
            cms,
            "application/json",
            r#"{"apiVersion":"v1","kind":"Secret","metadata":{"name":"k"}}"#,
        ))
        .await
        .unwrap();
    assert_eq!(code, 400);
    assert_eq!(
        status(&body).2,
        "Secret in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion"
    );
    // Patches: each content type's decoder, and the JSON patch and strategic merge libraries.
    lab.kubectl(&["create", "deployment", "d1", "--image=nginx:1.27-alpine"])
        .await;
    let err = lab
        .kubectl_fails(&[
            "patch",
            "deploy",
            "d1",
            "--type",
            "json",
            "-p",
            r#"[{"op":"frobnicate","path":"/spec/replicas","value":1}]"#,
        ])
        .await;
    assert!(
        err.contains(
            "The request is invalid: the server rejected our request due to an error in our request"
        ),
        "{err}"
    );
    let err = lab
        .kubectl_fails(&[
            "patch",
            "deploy",
            "d1",
            "--type",
            "json",
            "-p",
            r#"{"op":"remove","path":"/spec/replicas"}"#,
        ])
        .await;
    assert!(
        err.contains("Error from server (BadRequest): error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"),
        "{err}"
    );
    let err = lab
        .kubectl_fails(&[
            "patch",
            "deploy",
            "d1",
            "-p",
            r#"{"spec":{"template":{"spec":{"containers":[{"name":"nginx","$patch":"explode"}]}}}}"#,
        ])
        .await;
    assert!(
        err.contains(
            "Error from server: unknown patch type: explode in map: map[$patch:explode name:nginx]"
        ),
        "{err}"
    );
    let patch = |content_type: &str, body: &str| Request {
        method: "PATCH",
        path: "/apis/apps/v1/namespaces/default/deployments/d1".into(),
        query: String::new(),
        content_type: content_type.into(),
        headers: Vec::new(),
        body: body.as_bytes().to_vec(),
    };
    let (_, body) = client
        .send(&patch("application/merge-patch+json", r#"{"spec":"#))
        .await
        .unwrap();
    assert_eq!(
        status(&body),
        (
            400,
            "BadRequest".into(),
            "error decoding patch: unexpected end of JSON input".into()
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_endpoints_answer_as_a_real_1_35_server() {
    let lab = Lab::start().await;
    let livez = lab.kubectl(&["get", "--raw", "/livez?verbose"]).await;
    let lines: Vec<&str> = livez.lines().collect();
    assert_eq!(lines[..3], ["[+]ping ok", "[+]log ok", "[+]etcd ok"]);
    assert_eq!(lines.last(), Some(&"livez check passed"));
    assert!(lines.contains(&"[+]poststarthook/rbac/bootstrap-roles ok"));
    let readyz = lab.kubectl(&["get", "--raw", "/readyz?verbose"]).await;
    assert!(readyz.contains(
        "[+]informer-sync ok\n[+]poststarthook/start-apiserver-admission-initializer ok"
    ));
    assert!(readyz.ends_with("[+]shutdown ok\nreadyz check passed\n"));
    let err = lab.kubectl_fails(&["get", "--raw", "/livez/nothing"]).await;
    assert!(
        err.contains("the server could not find the requested resource"),
        "{err}"
    );
    let version: serde_json::Value =
        serde_json::from_str(&lab.kubectl(&["get", "--raw", "/version"]).await).unwrap();
    assert_eq!(version["minCompatibilityMajor"], "1");
    assert_eq!(version["minCompatibilityMinor"], "34");
    lab.kubectl(&["create", "deployment", "api", "--image=nginx:1.27-alpine"])
        .await;
    let table = lab
        .kubectl(&["get", "deploy", "api", "--subresource=scale"])
        .await;
    let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(header, ["NAME", "DESIRED", "AVAILABLE", "AGE"]);
    let group = lab.kubectl(&["get", "--raw", "/apis/apps"]).await;
    assert!(
        group.starts_with(r#"{"kind":"APIGroup","apiVersion":"v1","name":"apps""#),
        "{group}"
    );
}
