//! Bad input gets a proper `Status` with code and reason, never a panic or a hang, and the
//! server keeps serving everyone else. Requests are sent raw over TLS so anything can be sent.

use std::sync::Arc;

use rustls::pki_types::{CertificateDer, ServerName, pem::PemObject};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::Lab;

struct Reply {
    code: u16,
    body: Value,
}

async fn raw(
    lab: &Lab,
    method: &str,
    path: &str,
    token: Option<&str>,
    content_type: &str,
    body: &[u8],
) -> Reply {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(lab.handle.ca_pem().as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let tcp = tokio::net::TcpStream::connect(lab.handle.addr)
        .await
        .unwrap();
    let mut tls = tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(ServerName::try_from("127.0.0.1").unwrap(), tcp)
        .await
        .unwrap();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    tls.write_all(head.as_bytes()).await.unwrap();
    // The server may answer (413) before reading a huge body; a failed write is fine then.
    let _ = tls.write_all(body).await;
    let mut bytes = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        tls.read_to_end(&mut bytes),
    )
    .await
    .expect("the server answers");
    let text = String::from_utf8_lossy(&bytes);
    let code = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status line");
    let body_text = text.split("\r\n\r\n").nth(1).unwrap_or_default();
    // Tolerate chunked encoding: the JSON object starts at the first '{'.
    let json = body_text.find('{').and_then(|i| {
        serde_json::Deserializer::from_str(&body_text[i..])
            .into_iter::<Value>()
            .next()?
            .ok()
    });
    Reply {
        code,
        body: json.unwrap_or(Value::Null),
    }
}

fn assert_status(reply: &Reply, code: u16, reason: &str) {
    assert_eq!(reply.code, code, "{}", reply.body);
    assert_eq!(reply.body["kind"], "Status", "{}", reply.body);
    assert_eq!(reply.body["code"], code);
    assert_eq!(reply.body["reason"], reason, "{}", reply.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_request_gets_a_status_and_the_server_keeps_serving() {
    let lab = Lab::start().await;
    let token = lab.handle.token.clone();
    let t = Some(token.as_str());
    let cms = "/api/v1/namespaces/default/configmaps";

    assert_status(
        &raw(&lab, "GET", cms, None, "application/json", b"").await,
        401,
        "Unauthorized",
    );
    assert_status(
        &raw(&lab, "GET", cms, Some("wrong"), "application/json", b"").await,
        401,
        "Unauthorized",
    );
    assert_status(
        &raw(&lab, "POST", cms, t, "application/json", b"{\"kind\": ").await,
        400,
        "BadRequest",
    );
    assert_status(
        &raw(
            &lab,
            "PATCH",
            &format!("{cms}/x?fieldManager=t"),
            t,
            "application/apply-patch+yaml",
            b"a: [unclosed",
        )
        .await,
        400,
        "BadRequest",
    );
    assert_status(
        &raw(
            &lab,
            "GET",
            "/api/v1/namespaces/default/widgets",
            t,
            "application/json",
            b"",
        )
        .await,
        404,
        "NotFound",
    );
    assert_status(
        &raw(&lab, "GET", "/no/such/path", t, "application/json", b"").await,
        404,
        "NotFound",
    );
    let bad_name = br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"Bad_Name"}}"#;
    let invalid = raw(&lab, "POST", cms, t, "application/json", bad_name).await;
    assert_status(&invalid, 422, "Invalid");
    assert!(
        invalid.body["message"]
            .as_str()
            .unwrap()
            .contains("RFC 1123"),
        "{}",
        invalid.body
    );
    let wrong_kind = br#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x"}}"#;
    assert_status(
        &raw(&lab, "POST", cms, t, "application/json", wrong_kind).await,
        400,
        "BadRequest",
    );
    assert_status(
        &raw(
            &lab,
            "POST",
            cms,
            t,
            "application/vnd.kubernetes.protobuf",
            b"k8s\0",
        )
        .await,
        400,
        "BadRequest",
    );
    let huge = vec![b' '; capa_sim::MAX_BODY_BYTES + 1];
    assert_status(
        &raw(&lab, "POST", cms, t, "application/json", &huge).await,
        413,
        "RequestEntityTooLarge",
    );
    assert_status(
        &raw(
            &lab,
            "GET",
            &format!("{cms}?labelSelector=a%20in%20b"),
            t,
            "application/json",
            b"",
        )
        .await,
        400,
        "BadRequest",
    );
    assert_status(
        &raw(
            &lab,
            "GET",
            &format!("{cms}?watch=1&resourceVersion=abc"),
            t,
            "application/json",
            b"",
        )
        .await,
        400,
        "BadRequest",
    );
    assert_status(
        &raw(
            &lab,
            "DELETE",
            &format!("{cms}/missing"),
            t,
            "application/json",
            b"",
        )
        .await,
        404,
        "NotFound",
    );

    let ok = raw(&lab, "GET", cms, t, "application/json", b"").await;
    assert_eq!(ok.code, 200, "{}", ok.body);
    assert_eq!(ok.body["kind"], "ConfigMapList");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_from_a_version_older_than_the_history_gets_410_expired() {
    let state = tempfile::tempdir().unwrap();
    let config = capa_sim::Config {
        state_dir: Some(state.path().to_path_buf()),
        ..Default::default()
    };
    let first = Lab::start_with(config.clone()).await;
    first
        .kubectl(&["annotate", "namespace", "default", "a=b"])
        .await;
    first.handle.shutdown().await;
    // A restarted cluster keeps its objects but not its event history.
    let lab = Lab::start_with(config).await;
    let token = lab.handle.token.clone();
    let reply = raw(
        &lab,
        "GET",
        "/api/v1/namespaces?watch=1&resourceVersion=1",
        Some(&token),
        "application/json",
        b"",
    )
    .await;
    assert_eq!(
        reply.code, 200,
        "a watch answers with an ERROR event, as a real server does"
    );
    assert_eq!(reply.body["type"], "ERROR", "{}", reply.body);
    assert_eq!(reply.body["object"]["code"], 410);
    assert_eq!(reply.body["object"]["reason"], "Expired");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_client_does_not_hold_up_others() {
    let lab = Lab::start().await;
    // Half a request, never finished.
    let mut stalled = tokio::net::TcpStream::connect(lab.handle.addr)
        .await
        .unwrap();
    stalled.write_all(b"\x16\x03\x01").await.unwrap();
    let token = lab.handle.token.clone();
    let ok = raw(
        &lab,
        "GET",
        "/api/v1/namespaces",
        Some(&token),
        "application/json",
        b"",
    )
    .await;
    assert_eq!(ok.code, 200);
}
