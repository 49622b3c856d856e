//! `/metrics`: the API server's own Prometheus metrics, counted from the requests it has
//! answered (`apiserver_request_total` by verb, group, version, resource, subresource, scope
//! and code, as the real server labels it), in Prometheus' text format.

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

use axum::http::Method;

use super::path::Route;
use super::request::Query;

/// The labels of one `apiserver_request_total` series.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RequestLabels {
    code: u16,
    dry_run: &'static str,
    group: String,
    resource: String,
    scope: &'static str,
    subresource: String,
    verb: &'static str,
    version: String,
}

/// Every series so far, with its count.
#[derive(Debug, Default)]
pub struct RequestTotals(Mutex<BTreeMap<RequestLabels, u64>>);

/// What a request is, as the request metrics label it (`code` is filled in once answered).
pub fn labels(route: &Route, method: &Method, query: &Query, apply: bool) -> RequestLabels {
    let mut labels = RequestLabels {
        code: 0,
        dry_run: if query.dry_run { "All" } else { "" },
        group: String::new(),
        resource: String::new(),
        scope: "",
        subresource: String::new(),
        verb: method_verb(method),
        version: String::new(),
    };
    if let Route::Resource(rp) = route {
        let named = rp.name.is_some();
        labels.group = rp.ty.group.to_string();
        labels.version = rp.ty.version.to_string();
        labels.resource = rp.ty.plural.to_string();
        labels.subresource = rp.subresource.clone().unwrap_or_default();
        // `CleanScope`: one object, a namespace's collection, or the cluster's.
        labels.scope = match (named, &rp.namespace) {
            (true, _) => "resource",
            (false, Some(_)) => "namespace",
            (false, None) => "cluster",
        };
        labels.verb = match (method.as_str(), named, query.watch) {
            ("GET", _, true) => "WATCH",
            ("GET", false, false) => "LIST",
            ("PATCH", _, _) if apply => "APPLY",
            _ => labels.verb,
        };
    }
    labels
}

fn method_verb(method: &Method) -> &'static str {
    match method.as_str() {
        "GET" => "GET",
        "POST" => "POST",
        "PUT" => "PUT",
        "PATCH" => "PATCH",
        "DELETE" => "DELETE",
        "HEAD" => "HEAD",
        "OPTIONS" => "OPTIONS",
        _ => "other",
    }
}

impl RequestTotals {
    pub fn record(&self, mut labels: RequestLabels, code: u16) {
        labels.code = code;
        let mut totals = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *totals.entry(labels).or_default() += 1;
    }

    /// The exposition text.
    pub fn render(&self) -> String {
        let totals = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = String::from(
            "# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.\n# TYPE apiserver_request_total counter\n",
        );
        for (l, n) in totals.iter() {
            out.push_str(&format!(
                "apiserver_request_total{{code=\"{}\",component=\"apiserver\",dry_run=\"{}\",group=\"{}\",resource=\"{}\",scope=\"{}\",subresource=\"{}\",verb=\"{}\",version=\"{}\"}} {n}\n",
                l.code, l.dry_run, l.group, l.resource, l.scope, l.subresource, l.verb, l.version
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_by_what_they_were_and_how_they_ended() {
        let totals = RequestTotals::default();
        let query = Query::parse(Some("watch=1")).unwrap();
        let route = super::super::path::parse(
            "/api/v1/namespaces/default/configmaps",
            &crate::kinds::Catalog::default(),
        );
        totals.record(labels(&route, &Method::GET, &query, false), 200);
        totals.record(labels(&route, &Method::GET, &query, false), 200);
        let plain = Query::parse(None).unwrap();
        totals.record(labels(&route, &Method::POST, &plain, false), 201);
        let text = totals.render();
        assert!(text.contains("apiserver_request_total{code=\"200\",component=\"apiserver\",dry_run=\"\",group=\"\",resource=\"configmaps\",scope=\"namespace\",subresource=\"\",verb=\"WATCH\",version=\"v1\"} 2\n"), "{text}");
        assert!(text.contains("code=\"201\""), "{text}");
        assert!(text.contains("verb=\"POST\""), "{text}");
    }
}
