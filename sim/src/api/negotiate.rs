//! Content negotiation as the real API server does it: the `Accept` clauses are tried best
//! first, and the first one the response can be written in wins. Built-in kinds can be written
//! in JSON or protobuf; custom resources in JSON only (a protobuf clause is skipped, so
//! client-go's `application/vnd.kubernetes.protobuf, application/json` gets JSON); a Table only
//! in JSON; metadata-only views in either. Nothing acceptable is 406 Not Acceptable.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::proto;
use crate::status::ApiError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Json,
    Protobuf,
}

/// What the response carries: the object, a `Table` of it, or its metadata alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Object,
    Table,
    Metadata,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Output {
    pub encoding: Encoding,
    pub form: Form,
}

impl Output {
    pub const JSON: Output = Output {
        encoding: Encoding::Json,
        form: Form::Object,
    };
}

/// What every resource endpoint lists in a 406, as the real server's serializers do.
const MEDIA_TYPES: &str = "application/json, application/yaml, application/vnd.kubernetes.protobuf";

/// The output for a resource request with this `Accept` header; `builtin` is false for custom
/// resources, which have no protobuf form.
pub fn output(accept: &str, builtin: bool) -> Result<Output, ApiError> {
    if accept.trim().is_empty() {
        return Ok(Output::JSON);
    }
    clauses(accept)
        .iter()
        .find_map(|c| c.output(builtin))
        .ok_or_else(|| ApiError {
            code: 406,
            reason: "NotAcceptable",
            message: format!("only the following media types are accepted: {MEDIA_TYPES}"),
            details: None,
        })
}

/// One clause of an Accept header: `type/subtype;param=value;...`.
#[derive(Debug)]
struct Clause<'a> {
    media: (&'a str, &'a str),
    params: Vec<(&'a str, &'a str)>,
    q: f32,
}

/// The clauses, best first: by `q`, then specific types before wildcards (ties keep order).
fn clauses(accept: &str) -> Vec<Clause<'_>> {
    let mut out: Vec<Clause> = accept
        .split(',')
        .filter_map(|raw| {
            let mut parts = raw.split(';').map(str::trim);
            let (kind, sub) = parts.next()?.split_once('/')?;
            let mut params = Vec::new();
            let mut q = 1.0;
            for p in parts {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                if k == "q" {
                    q = v.parse().unwrap_or(0.0);
                } else {
                    params.push((k, v.trim_matches('"')));
                }
            }
            Some(Clause {
                media: (kind, sub),
                params,
                q,
            })
        })
        .filter(|c| c.q > 0.0)
        .collect();
    let wildness = |c: &Clause| usize::from(c.media.0 == "*") + usize::from(c.media.1 == "*");
    out.sort_by(|a, b| b.q.total_cmp(&a.q).then(wildness(a).cmp(&wildness(b))));
    out
}

impl Clause<'_> {
    fn param(&self, key: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// What this clause gets, or `None` when the response cannot be written so.
    fn output(&self, builtin: bool) -> Option<Output> {
        let encoding = match self.media {
            ("application", "json" | "yaml" | "*") | ("*", "*") => Encoding::Json,
            ("application", "vnd.kubernetes.protobuf") => Encoding::Protobuf,
            _ => return None,
        };
        if self.param("stream").is_some_and(|s| s != "watch") {
            return None;
        }
        let form = match (self.param("as"), self.param("g"), self.param("v")) {
            (None, None, None) => Form::Object,
            (Some("Table"), Some("meta.k8s.io"), Some("v1" | "v1beta1")) => Form::Table,
            (
                Some("PartialObjectMetadata" | "PartialObjectMetadataList"),
                Some("meta.k8s.io"),
                Some("v1" | "v1beta1"),
            ) => Form::Metadata,
            _ => return None,
        };
        let fits = match (encoding, form) {
            (Encoding::Json, _) | (Encoding::Protobuf, Form::Metadata) => true,
            (Encoding::Protobuf, Form::Object) => builtin,
            (Encoding::Protobuf, Form::Table) => false,
        };
        fits.then_some(Output { encoding, form })
    }
}

/// A response body in the negotiated encoding. A value with no protobuf form (a `Table`) is
/// written as JSON; one that fails to encode becomes a 500 `Status`.
pub fn reply(encoding: Encoding, status: StatusCode, body: &Value) -> Response {
    if encoding == Encoding::Protobuf {
        let (api_version, kind) = (
            body["apiVersion"].as_str().unwrap_or_default(),
            body["kind"].as_str().unwrap_or_default(),
        );
        if proto::can_encode(api_version, kind) {
            return match proto::encode(body) {
                Ok(bytes) => {
                    (status, [(header::CONTENT_TYPE, proto::MEDIA_TYPE)], bytes).into_response()
                }
                Err(e) => {
                    let e = ApiError::internal(format!("unable to encode {kind} as protobuf: {e}"));
                    super::json(StatusCode::INTERNAL_SERVER_ERROR, &e.to_status())
                }
            };
        }
    }
    super::json(status, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLIENT_GO: &str = "application/vnd.kubernetes.protobuf,application/json";
    const KUBECTL_GET: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

    fn pick(accept: &str, builtin: bool) -> Option<(Encoding, Form)> {
        output(accept, builtin).ok().map(|o| (o.encoding, o.form))
    }

    #[test]
    fn client_go_gets_protobuf_for_built_ins_and_json_for_custom_resources() {
        assert_eq!(
            pick(CLIENT_GO, true),
            Some((Encoding::Protobuf, Form::Object))
        );
        assert_eq!(pick(CLIENT_GO, false), Some((Encoding::Json, Form::Object)));
        assert_eq!(pick("", false), Some((Encoding::Json, Form::Object)));
        assert_eq!(pick("*/*", true), Some((Encoding::Json, Form::Object)));
    }

    #[test]
    fn tables_are_json_and_metadata_may_be_protobuf() {
        assert_eq!(pick(KUBECTL_GET, true), Some((Encoding::Json, Form::Table)));
        let table_pb =
            "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json";
        assert_eq!(pick(table_pb, true), Some((Encoding::Json, Form::Object)));
        let meta =
            "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
        assert_eq!(
            pick(meta, false),
            Some((Encoding::Protobuf, Form::Metadata))
        );
        // `as` without its group and version names no known conversion.
        assert_eq!(pick("application/json;as=Table", true), None);
    }

    #[test]
    fn quality_orders_the_clauses_and_nothing_acceptable_is_406() {
        let prefer_json = "application/vnd.kubernetes.protobuf;q=0.5, application/json";
        assert_eq!(
            pick(prefer_json, true),
            Some((Encoding::Json, Form::Object))
        );
        assert_eq!(pick("application/json;q=0, text/html", true), None);
        let err = output("application/vnd.kubernetes.protobuf", false).unwrap_err();
        assert_eq!((err.code, err.reason), (406, "NotAcceptable"));
        assert_eq!(
            err.message,
            "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf"
        );
        assert_eq!(
            pick("text/html, */*;q=0.1", true),
            Some((Encoding::Json, Form::Object))
        );
        assert_eq!(pick("nonsense", true), None);
    }
}
