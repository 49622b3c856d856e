//! `/healthz`, `/livez` and `/readyz`, as a 1.35 kube-apiserver answers them (k3s runs the same
//! server in-process): `ok`, or with `?verbose` one `[+]check ok` line per check and
//! `<endpoint> check passed`; `/<endpoint>/<check>` for one check, a 404 for a check that does
//! not exist; `?exclude=<check>` marks a check excluded. The checks are the real server's
//! names (`etcd` is k3s's kine behind the same etcd client); here every one passes.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The checks of `/livez` (and `/healthz`), in the real server's order.
const LIVEZ: &[&str] = &[
    "ping",
    "log",
    "etcd",
    "poststarthook/start-apiserver-admission-initializer",
    "poststarthook/generic-apiserver-start-informers",
    "poststarthook/priority-and-fairness-config-consumer",
    "poststarthook/priority-and-fairness-filter",
    "poststarthook/storage-object-count-tracker-hook",
    "poststarthook/start-apiextensions-informers",
    "poststarthook/start-apiextensions-controllers",
    "poststarthook/crd-informer-synced",
    "poststarthook/start-system-namespaces-controller",
    "poststarthook/start-cluster-authentication-info-controller",
    "poststarthook/start-kube-apiserver-identity-lease-controller",
    "poststarthook/start-kube-apiserver-identity-lease-garbage-collector",
    "poststarthook/start-legacy-token-tracking-controller",
    "poststarthook/start-service-ip-repair-controllers",
    "poststarthook/rbac/bootstrap-roles",
    "poststarthook/scheduling/bootstrap-system-priority-classes",
    "poststarthook/priority-and-fairness-config-producer",
    "poststarthook/bootstrap-controller",
    "poststarthook/start-kubernetes-service-cidr-controller",
    "poststarthook/start-kube-aggregator-informers",
    "poststarthook/apiservice-status-local-available-controller",
    "poststarthook/apiservice-status-remote-available-controller",
    "poststarthook/apiservice-registration-controller",
    "poststarthook/apiservice-discovery-controller",
    "poststarthook/kube-apiserver-autoregistration",
    "autoregister-completion",
    "poststarthook/apiservice-openapi-controller",
    "poststarthook/apiservice-openapiv3-controller",
];

/// The checks of one endpoint: `/readyz` adds etcd's readiness and the informers' sync after
/// `etcd`, and `shutdown` last.
fn checks(endpoint: &str) -> Vec<&'static str> {
    let mut all = LIVEZ.to_vec();
    if endpoint == "readyz" {
        all.splice(3..3, ["etcd-readiness", "informer-sync"]);
        all.push("shutdown");
    }
    all
}

/// Answers `/<endpoint>[/<check>]?<query>`.
pub fn serve(endpoint: &str, check: Option<&str>, query: Option<&str>) -> Response {
    let all = checks(endpoint);
    let params: Vec<(&str, &str)> = query
        .unwrap_or_default()
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .collect();
    if let Some(check) = check {
        if !all.contains(&check) {
            return text(StatusCode::NOT_FOUND, "404 page not found\n".into());
        }
        return text(StatusCode::OK, "ok".into());
    }
    if !params.iter().any(|(k, _)| *k == "verbose") {
        return text(StatusCode::OK, "ok".into());
    }
    let excluded: Vec<&str> = params
        .iter()
        .filter(|(k, _)| *k == "exclude")
        .map(|(_, v)| *v)
        .collect();
    let mut out = String::new();
    for c in all {
        if excluded.contains(&c) {
            out.push_str(&format!("[+]{c} excluded: ok\n"));
        } else {
            out.push_str(&format!("[+]{c} ok\n"));
        }
    }
    out.push_str(&format!("{endpoint} check passed\n"));
    text(StatusCode::OK, out)
}

fn text(code: StatusCode, body: String) -> Response {
    (
        code,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(r: Response) -> (u16, String) {
        let code = r.status().as_u16();
        let bytes = axum::body::to_bytes(r.into_body(), 1 << 20).await.unwrap();
        (code, String::from_utf8(bytes.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn health_endpoints_list_the_real_servers_checks() {
        assert_eq!(body(serve("livez", None, None)).await, (200, "ok".into()));
        let (code, verbose) = body(serve("readyz", None, Some("verbose"))).await;
        assert_eq!(code, 200);
        let lines: Vec<&str> = verbose.lines().collect();
        assert_eq!(
            lines[..5],
            [
                "[+]ping ok",
                "[+]log ok",
                "[+]etcd ok",
                "[+]etcd-readiness ok",
                "[+]informer-sync ok"
            ]
        );
        assert_eq!(
            lines[lines.len() - 2..],
            ["[+]shutdown ok", "readyz check passed"]
        );
        assert_eq!(lines.len(), 35);
        let (_, livez) = body(serve("livez", None, Some("verbose&exclude=etcd"))).await;
        assert!(livez.contains("[+]etcd excluded: ok\n"), "{livez}");
        assert!(livez.ends_with("livez check passed\n"), "{livez}");
        assert_eq!(
            body(serve(
                "livez",
                Some("poststarthook/rbac/bootstrap-roles"),
                None
            ))
            .await,
            (200, "ok".into())
        );
        assert_eq!(
            body(serve("livez", Some("nothing"), None)).await,
            (404, "404 page not found\n".into())
        );
    }
}
