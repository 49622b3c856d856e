//! What a request on a resource carries through its handlers: the server's state, the path,
//! the query, the negotiated response form, the body's content type and the warnings gathered.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::Value;

use super::ApiState;
use super::negotiate::{Output, reply};
use super::path::ResourcePath;
use super::request::Query;
use crate::ops::Actor;
use crate::status::ApiResult;
use crate::validation::{self, Directive, Warnings};

/// One resource request, as every handler of `resource` and `metrics` reads it.
pub struct Ctx<'a> {
    pub st: &'a ApiState,
    pub rp: &'a ResourcePath,
    pub query: &'a Query,
    /// The negotiated response encoding and form.
    pub output: Output,
    pub content_type: &'a str,
    pub manager_default: &'a str,
    /// The user `kubectl --as` names, whose permissions reviews answer for.
    pub impersonating: Option<super::rbac::User>,
    /// Warnings for the response (`Warning: 299 - "..."` headers).
    pub warnings: Warnings,
}

impl Ctx<'_> {
    pub fn namespace(&self) -> &str {
        self.rp.namespace.as_deref().unwrap_or_default()
    }

    pub fn respond(&self, status: StatusCode, body: &Value) -> Response {
        reply(self.output.encoding, status, body)
    }

    /// `?fieldValidation=` for a write whose options are `options_kind` (`CreateOptions`...).
    pub fn directive(&self, options_kind: &str) -> ApiResult<Directive> {
        Directive::parse(self.query.field_validation.as_deref(), options_kind)
    }

    /// A create's or replace's body, decoded and field-checked as the real server does.
    pub fn decode_object(&self, raw_body: &[u8], options_kind: &str) -> ApiResult<Value> {
        let directive = self.directive(options_kind)?;
        validation::decode_object(
            self.rp.ty,
            raw_body,
            self.content_type,
            directive,
            &self.warnings,
        )
    }

    pub fn actor(&self) -> Actor<'_> {
        Actor {
            manager: self
                .query
                .field_manager
                .as_deref()
                .unwrap_or(self.manager_default),
            dry_run: self.query.dry_run,
        }
    }
}
