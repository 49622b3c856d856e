//! API errors as a real API server reports them: a `meta/v1 Status` with code, reason and the
//! same message wording, so kubectl and kube-rs print what a learner would see on k3s.

use serde_json::{Value, json};

use super::kinds::ResourceType;

pub type ApiResult<T> = Result<T, ApiError>;

#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub code: u16,
    pub reason: &'static str,
    pub message: String,
    pub details: Option<Value>,
}

/// `deployments.apps` / `configmaps`: how the API names a resource in messages.
pub fn qualified(ty: &ResourceType) -> String {
    if ty.group.is_empty() {
        ty.plural.to_string()
    } else {
        format!("{}.{}", ty.plural, ty.group)
    }
}

fn details(ty: &ResourceType, name: &str) -> Value {
    json!({"name": name, "group": ty.group, "kind": ty.plural})
}

impl ApiError {
    fn new(code: u16, reason: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            reason,
            message: message.into(),
            details: None,
        }
    }

    fn with_details(mut self, details: Value) -> ApiError {
        self.details = Some(details);
        self
    }

    pub fn not_found(ty: &ResourceType, name: &str) -> ApiError {
        ApiError::new(
            404,
            "NotFound",
            format!("{} \"{name}\" not found", qualified(ty)),
        )
        .with_details(details(ty, name))
    }

    pub fn already_exists(ty: &ResourceType, name: &str) -> ApiError {
        ApiError::new(
            409,
            "AlreadyExists",
            format!("{} \"{name}\" already exists", qualified(ty)),
        )
        .with_details(details(ty, name))
    }

    /// A write based on a stale resourceVersion (optimistic concurrency).
    pub fn stale(ty: &ResourceType, name: &str) -> ApiError {
        ApiError::new(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {} \"{name}\": the object has been modified; please apply your changes to the latest version and try again",
                qualified(ty)
            ),
        )
        .with_details(details(ty, name))
    }

    /// 409 with the server's own explanation (a binding to an already bound Pod, ...).
    pub fn conflict(ty: &ResourceType, name: &str, message: String) -> ApiError {
        ApiError::new(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {} \"{name}\": {message}",
                qualified(ty)
            ),
        )
        .with_details(details(ty, name))
    }

    /// Server-side apply conflicts; `message` is the field manager's text.
    pub fn apply_conflict(
        ty: &ResourceType,
        name: &str,
        message: String,
        causes: Vec<Value>,
    ) -> ApiError {
        let mut d = details(ty, name);
        d["causes"] = Value::Array(causes);
        ApiError::new(409, "Conflict", message).with_details(d)
    }

    /// 422: the object breaks a validation rule. `field` and `why` name the first cause.
    pub fn invalid(ty: &ResourceType, name: &str, field: &str, value: &str, why: &str) -> ApiError {
        let cause = format!("{field}: Invalid value: \"{value}\": {why}");
        let mut d = details(ty, name);
        d["kind"] = json!(ty.kind);
        d["causes"] = json!([{"reason": "FieldValueInvalid", "message": format!("Invalid value: \"{value}\": {why}"), "field": field}]);
        ApiError::new(
            422,
            "Invalid",
            format!("{} \"{name}\" is invalid: {cause}", ty.kind),
        )
        .with_details(d)
    }

    /// 422 for a missing required field.
    /// `field.TooLong(path, _, limit)`, as 1.35 words it; an empty path is the whole object (`[]`).
    pub fn too_long(ty: &ResourceType, name: &str, field: &str, limit: usize) -> ApiError {
        let why = format!("Too long: may not be more than {limit} bytes");
        let shown = if field.is_empty() { "[]" } else { field };
        let mut d = details(ty, name);
        d["kind"] = json!(ty.kind);
        d["causes"] = json!([{"reason": "FieldValueTooLong", "message": why, "field": shown}]);
        ApiError::new(
            422,
            "Invalid",
            format!("{} \"{name}\" is invalid: {shown}: {why}", ty.kind),
        )
        .with_details(d)
    }

    /// A custom resource missing fields its CRD requires: the group-qualified kind, and every
    /// field (bracketed as a list when more than one).
    pub fn required_fields(ty: &ResourceType, name: &str, fields: &[String]) -> ApiError {
        let causes: Vec<Value> = fields
            .iter()
            .map(|f| json!({"reason": "FieldValueRequired", "message": "Required value", "field": f}))
            .collect();
        let listed: Vec<String> = fields
            .iter()
            .map(|f| format!("{f}: Required value"))
            .collect();
        let shown = if listed.len() == 1 {
            listed.join("")
        } else {
            format!("[{}]", listed.join(", "))
        };
        let mut d = details(ty, name);
        d["kind"] = json!(ty.kind);
        d["causes"] = json!(causes);
        ApiError::new(
            422,
            "Invalid",
            format!("{}.{} \"{name}\" is invalid: {shown}", ty.kind, ty.group),
        )
        .with_details(d)
    }

    pub fn required(ty: &ResourceType, name: &str, field: &str) -> ApiError {
        let mut d = details(ty, name);
        d["kind"] = json!(ty.kind);
        d["causes"] =
            json!([{"reason": "FieldValueRequired", "message": "Required value", "field": field}]);
        ApiError::new(
            422,
            "Invalid",
            format!("{} \"{name}\" is invalid: {field}: Required value", ty.kind),
        )
        .with_details(d)
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, "BadRequest", message)
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(401, "Unauthorized", "Unauthorized")
    }

    /// 403 about one object: `configmaps "x" is forbidden: <why>`, with its details.
    pub fn forbidden_on(ty: &ResourceType, name: &str, why: &str) -> ApiError {
        ApiError::new(
            403,
            "Forbidden",
            format!("{} \"{name}\" is forbidden: {why}", qualified(ty)),
        )
        .with_details(details(ty, name))
    }

    /// A path no handler serves. The real server's generic 404 carries empty `details` (kubectl
    /// reads `details.name` of a NotFound, so it must be there); `path` is only for our logs.
    pub fn path_not_found(path: &str) -> ApiError {
        tracing::debug!("no handler for {path}");
        ApiError::new(
            404,
            "NotFound",
            "the server could not find the requested resource",
        )
        .with_details(json!({}))
    }

    /// 409 because a precondition of the request no longer holds.
    pub fn precondition_failed(ty: &ResourceType, name: &str, why: &str) -> ApiError {
        ApiError::conflict(ty, name, format!("Precondition failed: {why}"))
    }

    pub fn method_not_allowed(method: &str, what: &str) -> ApiError {
        ApiError::new(
            405,
            "MethodNotAllowed",
            format!("{method} is not supported on {what}"),
        )
    }

    pub fn gone(message: impl Into<String>) -> ApiError {
        ApiError::new(410, "Expired", message)
    }

    pub fn too_large(limit: usize) -> ApiError {
        ApiError::new(
            413,
            "RequestEntityTooLarge",
            format!("Request entity too large: limit is {limit}"),
        )
    }

    /// `NewUnsupportedMediaTypeError`: 415 with the media types this resource accepts.
    pub fn unsupported_media_type(accepted: &[&str]) -> ApiError {
        ApiError::new(
            415,
            "UnsupportedMediaType",
            format!(
                "the body of the request was in an unknown format - accepted media types include: {}",
                accepted.join(", ")
            ),
        )
    }

    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(500, "InternalError", message)
    }

    pub fn to_status(&self) -> Value {
        let mut s = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        });
        if let Some(d) = &self.details {
            s["details"] = d.clone();
        }
        // An error that is not a Status on the real server has no reason at all.
        if self.reason.is_empty()
            && let Some(o) = s.as_object_mut()
        {
            o.remove("reason");
        }
        s
    }
}

/// The `Status` a successful delete of a fully removed object returns.
pub fn success(ty: &ResourceType, name: &str, uid: &str) -> Value {
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "details": {"name": name, "group": ty.group, "kind": ty.plural, "uid": uid},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_match_the_real_api_servers_wording() {
        let d = &crate::kinds::DEPLOYMENT;
        assert_eq!(
            ApiError::not_found(d, "web").message,
            "deployments.apps \"web\" not found"
        );
        let cm = &crate::kinds::CONFIG_MAP;
        assert_eq!(
            ApiError::already_exists(cm, "x").message,
            "configmaps \"x\" already exists"
        );
        let s = ApiError::stale(cm, "x").to_status();
        assert_eq!(s["code"], 409);
        assert_eq!(s["reason"], "Conflict");
        assert_eq!(s["details"]["kind"], "configmaps");
    }
}
