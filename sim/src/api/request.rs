//! Reading a request: the query parameters the API honours, and a body bounded at 3 MiB (the
//! real API server's limit); decoding it is `crate::body`'s.

use axum::body::Body;
use axum::http::{HeaderMap, header};

use super::selector::{FieldSelector, LabelSelector};
use crate::status::{ApiError, BadValue, FieldError};

pub use crate::body::MAX_BODY_BYTES;

#[derive(Debug, Default)]
pub struct Query {
    pub labels: LabelSelector,
    pub fields: FieldSelector,
    pub watch: bool,
    pub resource_version: Option<String>,
    /// `resourceVersionMatch` (`Exact`, `NotOlderThan`).
    pub resource_version_match: Option<String>,
    /// `continue`: where a paged list goes on (see `resource::page`).
    pub continue_token: Option<String>,
    /// `limit`: the most items one page of a list holds (0 or absent: all).
    pub limit: Option<usize>,
    pub bookmarks: bool,
    pub timeout_seconds: Option<u64>,
    pub send_initial_events: bool,
    /// Whether `sendInitialEvents` was given at all (false counts too).
    pub send_initial_events_given: bool,
    pub field_manager: Option<String>,
    pub force: bool,
    pub dry_run: bool,
    pub propagation: Option<String>,
    pub container: Option<String>,
    pub follow: bool,
    pub tail_lines: Option<usize>,
    pub include_object: Option<String>,
    /// `fieldValidation`, checked per verb (see `validation::Directive`).
    pub field_validation: Option<String>,
}

impl Query {
    pub fn parse(raw: Option<&str>) -> Result<Query, ApiError> {
        let mut q = Query::default();
        let Some(raw) = raw else { return Ok(q) };
        for (key, value) in form_pairs(raw) {
            // Go's `strconv.ParseBool` spellings: the Python client sends `watch=True`.
            let flag = || matches!(value.as_str(), "1" | "t" | "T" | "true" | "True" | "TRUE");
            match key.as_str() {
                "labelSelector" => {
                    q.labels = LabelSelector::parse(&value).map_err(ApiError::bad_request)?
                }
                "fieldSelector" => {
                    q.fields = FieldSelector::parse(&value).map_err(ApiError::bad_request)?
                }
                "watch" => q.watch = flag(),
                "resourceVersion" => q.resource_version = Some(value).filter(|v| !v.is_empty()),
                "allowWatchBookmarks" => q.bookmarks = flag(),
                "timeoutSeconds" => q.timeout_seconds = value.parse().ok(),
                "sendInitialEvents" => {
                    q.send_initial_events = flag();
                    q.send_initial_events_given = true;
                }
                "resourceVersionMatch" => {
                    q.resource_version_match = Some(value).filter(|v| !v.is_empty());
                }
                "continue" => q.continue_token = Some(value).filter(|v| !v.is_empty()),
                "limit" => q.limit = value.parse().ok().filter(|n| *n > 0),
                "fieldManager" => q.field_manager = Some(value).filter(|v| !v.is_empty()),
                "force" => q.force = flag(),
                "dryRun" => {
                    if value != "All" {
                        return Err(ApiError::bad_request(format!(
                            "unsupported dryRun value {value:?}: only \"All\" is allowed"
                        )));
                    }
                    q.dry_run = true;
                }
                "propagationPolicy" => q.propagation = Some(value),
                "container" => q.container = Some(value),
                "follow" => q.follow = flag(),
                "tailLines" => q.tail_lines = value.parse().ok(),
                "includeObject" => q.include_object = Some(value),
                "fieldValidation" => q.field_validation = Some(value),
                _ => {} // timeout, pretty, ...: accepted, not needed
            }
        }
        Ok(q)
    }

    /// `ValidateListOptions` (with the WatchList feature on, as in 1.35): what a list or a watch
    /// may not combine; a non-empty answer is refused as `ListOptions.meta.k8s.io "" is
    /// invalid`.
    pub fn list_option_errors(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        let path = "resourceVersionMatch";
        let given = self.resource_version_match.as_deref();
        let forbidden = |why: &str| FieldError::forbidden(path, why);
        if self.watch {
            if self.send_initial_events_given && given != Some("NotOlderThan") {
                errors.push(forbidden(
                    "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                ));
            }
            if let Some(m) = given {
                if !self.send_initial_events_given {
                    errors.push(forbidden(
                        "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
                    ));
                }
                if m != "NotOlderThan" {
                    errors.push(FieldError::not_supported(
                        path,
                        BadValue::text(m),
                        &["NotOlderThan"],
                    ));
                }
                if self.continue_token.is_some() {
                    errors.push(forbidden(
                        "resourceVersionMatch is forbidden when continue is provided",
                    ));
                }
            }
            return errors;
        }
        if let Some(m) = given {
            if self.resource_version.is_none() {
                errors.push(forbidden(
                    "resourceVersionMatch is forbidden unless resourceVersion is provided",
                ));
            }
            if self.continue_token.is_some() {
                errors.push(forbidden(
                    "resourceVersionMatch is forbidden when continue is provided",
                ));
            }
            if m != "Exact" && m != "NotOlderThan" {
                errors.push(FieldError::not_supported(
                    path,
                    BadValue::text(m),
                    &["Exact", "NotOlderThan", ""],
                ));
            }
            if m == "Exact" && self.resource_version.as_deref() == Some("0") {
                errors.push(forbidden(
                    "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
                ));
            }
        }
        if self.send_initial_events_given {
            errors.push(FieldError::forbidden(
                "sendInitialEvents",
                "sendInitialEvents is forbidden for list",
            ));
        }
        errors
    }
}

/// `a=b&c=d%2Fe` → pairs, percent- and plus-decoded.
pub(super) fn form_pairs(raw: &str) -> Vec<(String, String)> {
    raw.split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Reads the body, refusing more than [`MAX_BODY_BYTES`] with 413, and a body that has not
/// arrived within `timeout` with 408 (a client trickling its body must not hold the server).
pub async fn read_body(
    body: Body,
    headers: &HeaderMap,
    timeout: std::time::Duration,
) -> Result<axum::body::Bytes, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES) {
        return Err(ApiError::too_large(MAX_BODY_BYTES));
    }
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Ok(read) => read.map_err(|_| ApiError::too_large(MAX_BODY_BYTES)),
        Err(_) => Err(ApiError {
            code: 408,
            reason: "Timeout",
            message: format!(
                "the request body did not arrive within {}s",
                timeout.as_secs()
            ),
            details: None,
        }),
    }
}

#[cfg(test)]
mod tests {

    fn refusal(raw: &str) -> String {
        let q = Query::parse(Some(raw)).unwrap();
        crate::status::ApiError::invalid_list_options(&q.list_option_errors()).message
    }

    #[test]
    fn list_and_watch_options_are_validated_as_1_35_does() {
        assert_eq!(
            refusal("sendInitialEvents=false"),
            "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"
        );
        assert_eq!(
            refusal("resourceVersionMatch=Bogus"),
            "ListOptions.meta.k8s.io \"\" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Unsupported value: \"Bogus\": supported values: \"Exact\", \"NotOlderThan\", \"\"]"
        );
        assert_eq!(
            refusal("watch=true&sendInitialEvents=true"),
            "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"
        );
        let fine = Query::parse(Some(
            "watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
        ))
        .unwrap();
        assert!(fine.list_option_errors().is_empty());
        let exact = Query::parse(Some("resourceVersion=5&resourceVersionMatch=Exact")).unwrap();
        assert!(exact.list_option_errors().is_empty());
    }

    use super::*;

    #[test]
    fn query_parameters_are_decoded() {
        let q = Query::parse(Some("labelSelector=app%3Dweb&fieldSelector=metadata.name%3Dx&watch=1&resourceVersion=12&dryRun=All&fieldManager=kubectl")).unwrap();
        assert!(q.watch && q.dry_run);
        assert_eq!(q.resource_version.as_deref(), Some("12"));
        assert!(
            q.fields
                .matches(&serde_json::json!({"metadata": {"name": "x"}}))
        );
        assert_eq!(q.field_manager.as_deref(), Some("kubectl"));
        assert_eq!(decode("a+b%2Fc%"), "a b/c%");
    }

    #[test]
    fn bad_query_values_are_refused() {
        assert_eq!(Query::parse(Some("dryRun=Some")).unwrap_err().code, 400);
        assert_eq!(
            Query::parse(Some("labelSelector=a%20in%20b"))
                .unwrap_err()
                .code,
            400
        );
    }
}
