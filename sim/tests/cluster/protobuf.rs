//! Protobuf bodies end to end: the kubectl commands that send them (`create <kind>`, `run`,
//! `expose`), the Accept negotiation client-go does, watch streams, and broken protobuf input.

use http::Request;
use serde_json::{Value, json};

use crate::common::Lab;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_create_generators_run_and_expose_work() {
    let lab = Lab::start().await;
    let out = lab.kubectl(&["create", "namespace", "demo"]).await;
    assert_eq!(out.trim(), "namespace/demo created");
    let ns = lab.kubectl_json(&["get", "ns", "demo"]).await;
    assert_eq!(ns["status"]["phase"], "Active");

    let out = lab
        .kubectl(&[
            "create",
            "configmap",
            "x",
            "-n",
            "demo",
            "--from-literal=a=b",
            "--from-literal=empty=",
        ])
        .await;
    assert_eq!(out.trim(), "configmap/x created");
    let cm = lab.kubectl_json(&["get", "cm", "x", "-n", "demo"]).await;
    assert_eq!(cm["data"], json!({"a": "b", "empty": ""}));

    // The response is protobuf too: kubectl prints what it decoded.
    let yaml = lab
        .kubectl(&[
            "create",
            "secret",
            "generic",
            "s",
            "-n",
            "demo",
            "--from-literal=password=p4ss",
            "-o",
            "yaml",
        ])
        .await;
    assert!(yaml.contains("password: cDRzcw=="), "{yaml}");
    assert!(yaml.contains("type: Opaque"), "{yaml}");

    let out = lab
        .kubectl(&[
            "create",
            "deployment",
            "web",
            "-n",
            "demo",
            "--image=nginx:1.27",
            "--replicas=2",
            "--port=80",
        ])
        .await;
    assert_eq!(out.trim(), "deployment.apps/web created");
    lab.kubectl(&[
        "rollout",
        "status",
        "deploy/web",
        "-n",
        "demo",
        "--timeout=60s",
    ])
    .await;
    let d = lab
        .kubectl_json(&["get", "deploy", "web", "-n", "demo"])
        .await;
    assert_eq!(d["spec"]["replicas"], 2);
    assert_eq!(
        d["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"],
        80
    );
    // Zero and empty fields a Go client writes to protobuf are left out, as in its JSON.
    assert!(d["spec"].get("minReadySeconds").is_none(), "{d}");
    assert_eq!(
        d["spec"]["template"]["spec"]["containers"][0]["resources"],
        json!({})
    );

    // A pointer set to zero stays zero.
    lab.kubectl(&[
        "create",
        "deployment",
        "idle",
        "-n",
        "demo",
        "--image=nginx",
        "--replicas=0",
    ])
    .await;
    let idle = lab
        .kubectl_json(&["get", "deploy", "idle", "-n", "demo"])
        .await;
    assert_eq!(idle["spec"]["replicas"], 0);

    let out = lab
        .kubectl(&[
            "create",
            "job",
            "once",
            "-n",
            "demo",
            "--image=busybox",
            "--",
            "echo",
            "hi",
        ])
        .await;
    assert_eq!(out.trim(), "job.batch/once created");
    lab.kubectl(&[
        "wait",
        "job/once",
        "-n",
        "demo",
        "--for=condition=Complete",
        "--timeout=60s",
    ])
    .await;

    let out = lab
        .kubectl(&["create", "serviceaccount", "robot", "-n", "demo"])
        .await;
    assert_eq!(out.trim(), "serviceaccount/robot created");

    let out = lab
        .kubectl(&[
            "run",
            "solo",
            "-n",
            "demo",
            "--image=nginx:1.27",
            "--labels=app=solo",
        ])
        .await;
    assert_eq!(out.trim(), "pod/solo created");
    lab.kubectl(&[
        "wait",
        "pod/solo",
        "-n",
        "demo",
        "--for=condition=Ready",
        "--timeout=60s",
    ])
    .await;

    let out = lab
        .kubectl(&[
            "expose",
            "deployment",
            "web",
            "-n",
            "demo",
            "--port=8080",
            "--target-port=80",
        ])
        .await;
    assert_eq!(out.trim(), "service/web exposed");
    let svc = lab.kubectl_json(&["get", "svc", "web", "-n", "demo"]).await;
    assert_eq!(svc["spec"]["selector"], json!({"app": "web"}));
    assert_eq!(svc["spec"]["ports"][0]["port"], 8080);
    assert_eq!(svc["spec"]["ports"][0]["targetPort"], 80);

    // Creating one that exists: the 409 comes back as a protobuf Status kubectl reads.
    let err = lab.kubectl_fails(&["create", "namespace", "demo"]).await;
    assert_eq!(
        err.trim(),
        "Error from server (AlreadyExists): namespaces \"demo\" already exists"
    );
}

/// A request as client-go sends it with protobuf configured.
async fn send(
    lab: &Lab,
    method: &str,
    path: &str,
    accept: &str,
    body: Vec<u8>,
) -> (u16, String, Vec<u8>) {
    let client = lab.client().await;
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("Accept", accept)
        .header("Content-Type", "application/vnd.kubernetes.protobuf")
        .body(body.into())
        .unwrap();
    let response = client.send(request).await.expect("the server answers");
    let code = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = response.into_body().collect_bytes().await.unwrap();
    (code, content_type, bytes.to_vec())
}

/// `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw}, written by hand.
fn envelope(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
    let field = |tag: u8, bytes: &[u8]| -> Vec<u8> {
        let mut out = vec![tag, u8::try_from(bytes.len()).unwrap()];
        out.extend(bytes);
        out
    };
    let type_meta = [
        field(0x0a, api_version.as_bytes()),
        field(0x12, kind.as_bytes()),
    ]
    .concat();
    [b"k8s\0".to_vec(), field(0x0a, &type_meta), field(0x12, raw)].concat()
}

const BOTH: &str = "application/vnd.kubernetes.protobuf, application/json";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accept_negotiation_picks_protobuf_for_built_ins_and_json_for_custom_resources() {
    let lab = Lab::start().await;
    let (code, ct, body) = send(&lab, "GET", "/api/v1/namespaces/default", BOTH, vec![]).await;
    assert_eq!(
        (code, ct.as_str()),
        (200, "application/vnd.kubernetes.protobuf")
    );
    let ns = capa_sim::proto::decode(&body).unwrap();
    assert_eq!(
        (ns["kind"].as_str(), ns["metadata"]["name"].as_str()),
        (Some("Namespace"), Some("default"))
    );

    let (code, ct, body) = send(&lab, "GET", "/api/v1/namespaces", BOTH, vec![]).await;
    assert_eq!(
        (code, ct.as_str()),
        (200, "application/vnd.kubernetes.protobuf")
    );
    let list = capa_sim::proto::decode(&body).unwrap();
    assert_eq!(list["kind"], "NamespaceList");
    assert!(list["items"].as_array().unwrap().len() >= 4, "{list}");

    // Applications are custom resources: no protobuf form, so the JSON alternative is used.
    let apps = "/apis/argoproj.io/v1alpha1/namespaces/argocd/applications";
    let (code, ct, _) = send(&lab, "GET", apps, BOTH, vec![]).await;
    assert_eq!((code, ct.as_str()), (200, "application/json"));
    // ... and with protobuf alone, nothing is acceptable.
    let (code, _, body) = send(
        &lab,
        "GET",
        apps,
        "application/vnd.kubernetes.protobuf",
        vec![],
    )
    .await;
    assert_eq!(code, 406);
    let status: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(status["reason"], "NotAcceptable");
    assert_eq!(
        status["message"],
        "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf"
    );
    // A protobuf body for a custom resource cannot be decoded: 400, as on a real server.
    let app = envelope("argoproj.io/v1alpha1", "Application", b"\x0a\x03\x0a\x01a");
    let (code, _, body) = send(&lab, "POST", apps, BOTH, app).await;
    assert_eq!(code, 400);
    let status: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(status["reason"], "BadRequest");

    // Errors for built-in kinds come back as a protobuf Status when protobuf was asked for.
    let (code, ct, body) = send(&lab, "GET", "/api/v1/namespaces/nope", BOTH, vec![]).await;
    assert_eq!(
        (code, ct.as_str()),
        (404, "application/vnd.kubernetes.protobuf")
    );
    let status = capa_sim::proto::decode(&body).unwrap();
    assert_eq!(
        (status["kind"].as_str(), status["reason"].as_str()),
        (Some("Status"), Some("NotFound"))
    );
    assert_eq!(status["code"], 404);

    // kubectl's Table requests stay JSON: a Table has no protobuf form.
    let table = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    let (code, ct, body) = send(&lab, "GET", "/api/v1/namespaces", table, vec![]).await;
    assert_eq!((code, ct.as_str()), (200, "application/json"));
    let t: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(t["kind"], "Table");
    // Metadata-only in protobuf, as the garbage collector and metadata informers ask for it.
    let meta = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
    let (_, ct, body) = send(&lab, "GET", "/api/v1/namespaces", meta, vec![]).await;
    assert_eq!(ct, "application/vnd.kubernetes.protobuf");
    let list = capa_sim::proto::decode(&body).unwrap();
    assert_eq!(list["kind"], "PartialObjectMetadataList");
    assert!(list["items"][0]["metadata"]["name"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_protobuf_watch_streams_length_prefixed_events() {
    let lab = Lab::start().await;
    let cms = "/api/v1/namespaces/default/configmaps";
    let watched = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "watched"}, "data": {"a": "b"}});
    let (code, _, _) = send(
        &lab,
        "POST",
        cms,
        BOTH,
        capa_sim::proto::encode(&watched).unwrap(),
    )
    .await;
    assert_eq!(code, 201);
    let client = lab.client().await;
    let request = Request::builder()
        .uri(format!(
            "{cms}?watch=1&timeoutSeconds=2&fieldSelector=metadata.name%3Dwatched"
        ))
        .header(
            "Accept",
            "application/vnd.kubernetes.protobuf;stream=watch, application/json",
        )
        .body(Vec::new().into())
        .unwrap();
    let response = client.send(request).await.unwrap();
    assert_eq!(
        response.headers()["content-type"],
        "application/vnd.kubernetes.protobuf;stream=watch"
    );
    let bytes = response.into_body().collect_bytes().await.unwrap();
    // The first frame: the ConfigMap, ADDED.
    let len = u32::from_be_bytes(bytes[..4].try_into().unwrap()) as usize;
    let frame = &bytes[4..4 + len];
    assert_eq!(&frame[..7], b"\x0a\x05ADDED");
    let at = frame.windows(4).position(|w| w == b"k8s\0").unwrap();
    let cm = capa_sim::proto::decode(&frame[at..]).unwrap();
    assert_eq!(
        (cm["metadata"]["name"].as_str(), cm["data"]["a"].as_str()),
        (Some("watched"), Some("b"))
    );

    // A metadata-only watch of a custom resource (as metadata informers run): its bookmarks
    // are PartialObjectMetadata too, so they can be written in protobuf.
    let request = Request::builder()
        .uri("/apis/argoproj.io/v1alpha1/namespaces/argocd/applications?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1")
        .header(
            "Accept",
            "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
        )
        .body(Vec::new().into())
        .unwrap();
    let bytes = client
        .send(request)
        .await
        .unwrap()
        .into_body()
        .collect_bytes()
        .await
        .unwrap();
    let len = u32::from_be_bytes(bytes[..4].try_into().unwrap()) as usize;
    let frame = &bytes[4..4 + len];
    assert_eq!(&frame[..10], b"\x0a\x08BOOKMARK");
    let at = frame.windows(4).position(|w| w == b"k8s\0").unwrap();
    let bookmark = capa_sim::proto::decode(&frame[at..]).unwrap();
    assert_eq!(bookmark["kind"], "PartialObjectMetadata");
    assert_eq!(
        bookmark["metadata"]["annotations"]["k8s.io/initial-events-end"],
        "true"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_protobuf_bodies_get_a_400_status_and_change_nothing() {
    let lab = Lab::start().await;
    let cms = "/api/v1/namespaces/default/configmaps";
    let good = capa_sim::proto::encode(
        &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "fine"}, "data": {"a": "b"}}),
    )
    .unwrap();
    let mut bad: Vec<Vec<u8>> = vec![
        vec![],
        b"k8s\0".to_vec(),
        b"{\"apiVersion\":\"v1\"}".to_vec(),
        b"k8s\0\x0a\xff\xff\xff\xff\x0f".to_vec(),
        good[..good.len() - 3].to_vec(),
    ];
    let mut flipped = good.clone();
    flipped[6] ^= 0xff;
    bad.push(flipped);
    for body in bad {
        let (code, ct, reply) = send(&lab, "POST", cms, BOTH, body.clone()).await;
        assert_eq!(code, 400, "{body:?}");
        assert_eq!(ct, "application/vnd.kubernetes.protobuf");
        let status = capa_sim::proto::decode(&reply).unwrap();
        assert_eq!(status["reason"], "BadRequest", "{status}");
    }
    let (code, _, _) = send(&lab, "GET", &format!("{cms}/fine"), BOTH, vec![]).await;
    assert_eq!(code, 404, "a refused body created nothing");
    let (code, _, _) = send(&lab, "POST", cms, BOTH, good).await;
    assert_eq!(code, 201);
}

/// xorshift64*: a small deterministic generator, so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }
}

/// What the mutated requests could change: the target ConfigMap (PUT) and the Deployments in
/// `default` (POST), by name and resourceVersion. (Not a global object count: the lab's own
/// controllers may still be creating their objects.)
async fn snapshot(lab: &Lab) -> Vec<String> {
    let get = |path: &'static str| async move {
        let (_, _, bytes) = send(lab, "GET", path, "application/json", vec![]).await;
        serde_json::from_slice::<Value>(&bytes).unwrap()
    };
    let target = get("/api/v1/namespaces/default/configmaps/target").await;
    let deployments = get("/apis/apps/v1/namespaces/default/deployments").await;
    std::iter::once(&target)
        .chain(deployments["items"].as_array().unwrap())
        .map(|o| {
            format!(
                "{}@{}",
                o["metadata"]["name"], o["metadata"]["resourceVersion"]
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_protobuf_bodies_always_get_a_status_and_refusals_change_nothing() {
    let lab = Lab::start().await;
    let cms = "/api/v1/namespaces/default/configmaps";
    let target = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "target"},
                        "data": {"a": "b"}, "binaryData": {"c": "AAE="}});
    let (code, _, _) = send(
        &lab,
        "POST",
        cms,
        BOTH,
        capa_sim::proto::encode(&target).unwrap(),
    )
    .await;
    assert_eq!(code, 201);
    let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "labels": {"app": "d"}},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "d"}},
                 "template": {"metadata": {"labels": {"app": "d"}}, "spec": {"containers": [{"name": "c", "image": "nginx",
                     "ports": [{"containerPort": 80}], "readinessProbe": {"httpGet": {"port": "http"}}}]}}}});
    let seeds = [
        (
            "PUT",
            format!("{cms}/target"),
            capa_sim::proto::encode(&target).unwrap(),
        ),
        (
            "POST",
            "/apis/apps/v1/namespaces/default/deployments".to_string(),
            capa_sim::proto::encode(&deployment).unwrap(),
        ),
    ];
    let mut rng = Rng(0x5eed_1234);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    for round in 0..150 {
        if std::time::Instant::now() > deadline {
            break;
        }
        let (method, path, seed) = &seeds[round % seeds.len()];
        let mut body = seed.clone();
        for _ in 0..=rng.below(4) {
            let at = 4 + rng.below(body.len() - 4);
            match rng.below(3) {
                0 => body[at] = u8::try_from(rng.next() & 0xff).unwrap(),
                1 => body.truncate(at.max(5)),
                _ => body.insert(at, u8::try_from(rng.next() & 0xff).unwrap()),
            }
        }
        let before = snapshot(&lab).await;
        let reply = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            send(&lab, method, path, BOTH, body.clone()),
        )
        .await
        .unwrap_or_else(|_| panic!("no answer in 10 s to {method} {path} with {body:?}"));
        let (code, content_type, bytes) = reply;
        assert_eq!(
            content_type, "application/vnd.kubernetes.protobuf",
            "{body:?}"
        );
        let answer = capa_sim::proto::decode(&bytes).expect("a protobuf answer");
        if code >= 400 {
            assert_eq!(answer["kind"], "Status", "{answer}");
            assert_eq!(answer["code"], code);
            assert_eq!(
                snapshot(&lab).await,
                before,
                "a refused {method} changed the store"
            );
        } else {
            // A mutation can still be a valid object; then it was stored as such.
            assert!(matches!(code, 200 | 201), "{code} {answer}");
            let _ = lab
                .kubectl(&["delete", "deploy", "--all", "-n", "default", "--wait=false"])
                .await;
        }
    }
}
