//! API errors as a real API server reports them: a `meta/v1 Status` with code, reason and the
//! same message wording, so kubectl and kube-rs print what a learner would see on k3s.

use serde_json::{Value, json};

use super::kinds::ResourceType;
use super::validation::go_quote;

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

/// `Deployment.apps` / `ConfigMap`: the group-qualified kind `errors.NewInvalid` names.
pub fn qualified_kind(ty: &ResourceType) -> String {
    if ty.group.is_empty() {
        ty.kind.to_string()
    } else {
        format!("{}.{}", ty.kind, ty.group)
    }
}

/// A Status's details as Go writes `metav1.StatusDetails`: every field `omitempty`, so a core
/// kind's empty group is left out (the Python client showed the difference).
fn details(ty: &ResourceType, name: &str) -> Value {
    let mut d = json!({"name": name, "group": ty.group, "kind": ty.plural});
    if let Some(o) = d.as_object_mut() {
        if ty.group.is_empty() {
            o.remove("group");
        }
        if name.is_empty() {
            o.remove("name");
        }
    }
    d
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

    /// A NotFound for a resource named otherwise than its type (ComponentStatus's storage
    /// says `componentstatus`, the singular, where every other says its plural).
    pub fn not_found_as(resource: &str, name: &str) -> ApiError {
        ApiError::new(404, "NotFound", format!("{resource} \"{name}\" not found"))
            .with_details(json!({"name": name, "kind": resource}))
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

    /// 422: the object breaks a validation rule. `field` and `why` name the cause.
    pub fn invalid(ty: &ResourceType, name: &str, field: &str, value: &str, why: &str) -> ApiError {
        ApiError::invalid_fields(
            ty,
            name,
            &[FieldError::invalid(field, BadValue::text(value), why)],
        )
    }

    /// `field.TooLong(path, _, limit)`, as 1.35 words it; an empty path is the whole object (`[]`).
    pub fn too_long(ty: &ResourceType, name: &str, field: &str, limit: usize) -> ApiError {
        let shown = if field.is_empty() { "[]" } else { field };
        let error = FieldError {
            kind: FieldErrorType::TooLong,
            field: shown.to_string(),
            value: BadValue::Omit,
            detail: format!("may not be more than {limit} bytes"),
        };
        ApiError::invalid_fields(ty, name, &[error])
    }

    /// `errors.NewInvalid`: 422 with every field error as a cause (duplicates kept, as the real
    /// server keeps the ones its common and per-kind validation both find) and the message
    /// `Kind.group "name" is invalid: <error>` or, for several, `[<error>, <error>]` with
    /// repeated messages shown once (`ErrorList.ToAggregate`).
    pub fn invalid_fields(ty: &ResourceType, name: &str, errors: &[FieldError]) -> ApiError {
        let causes: Vec<Value> = errors
            .iter()
            .map(|e| json!({"reason": e.kind.reason(), "message": e.body(), "field": e.field}))
            .collect();
        let mut shown: Vec<String> = Vec::new();
        for e in errors {
            let line = e.to_string();
            if !shown.contains(&line) {
                shown.push(line);
            }
        }
        let joined = match shown.as_slice() {
            [] => String::new(),
            [one] => format!(": {one}"),
            many => format!(": [{}]", many.join(", ")),
        };
        let mut d = details(ty, name);
        d["kind"] = json!(ty.kind);
        d["causes"] = Value::Array(causes);
        ApiError::new(
            422,
            "Invalid",
            format!(
                "{} {} is invalid{joined}",
                qualified_kind(ty),
                go_quote(name)
            ),
        )
        .with_details(d)
    }

    /// `errors.NewInvalid` of a list's or watch's options: `ListOptions.meta.k8s.io "" is
    /// invalid: ...`.
    pub fn invalid_list_options(errors: &[FieldError]) -> ApiError {
        let causes: Vec<Value> = errors
            .iter()
            .map(|e| json!({"reason": e.kind.reason(), "message": e.body(), "field": e.field}))
            .collect();
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        let joined = match shown.as_slice() {
            [one] => one.clone(),
            many => format!("[{}]", many.join(", ")),
        };
        ApiError::new(
            422,
            "Invalid",
            format!("ListOptions.meta.k8s.io \"\" is invalid: {joined}"),
        )
        .with_details(json!({"group": "meta.k8s.io", "kind": "ListOptions", "causes": causes}))
    }

    /// `errors.NewTimeoutError` of a list at a resourceVersion the server has not reached.
    pub fn too_large_resource_version(asked: u64, current: u64) -> ApiError {
        ApiError::new(
            504,
            "Timeout",
            format!("Timeout: Too large resource version: {asked}, current: {current}"),
        )
        .with_details(json!({"causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}], "retryAfterSeconds": 1}))
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
    /// A delete's precondition that does not hold (`rest.BeforeDelete`): a conflict on the
    /// kind itself (`ConfigMap "c"`, `Deployment.apps "web"`), not on its resource.
    pub fn precondition_failed(ty: &ResourceType, name: &str, why: &str) -> ApiError {
        let mut d = details(ty, name);
        d["kind"] = json!(ty.kind);
        ApiError::new(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {} {}: {why}",
                qualified_kind(ty),
                go_quote(name)
            ),
        )
        .with_details(d)
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
        });
        // `metav1.Status`'s field order: details before code.
        if let Some(d) = &self.details {
            s["details"] = d.clone();
        }
        s["code"] = json!(self.code);
        // An error that is not a Status on the real server has no reason at all.
        if self.reason.is_empty()
            && let Some(o) = s.as_object_mut()
        {
            o.remove("reason");
        }
        s
    }
}

/// The kinds of `field.Error` (apimachinery's `field.ErrorType`): the cause's `reason` and the
/// words its message starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldErrorType {
    Required,
    Invalid,
    NotSupported,
    Forbidden,
    TooLong,
    TooMany,
    Duplicate,
    /// `field.TypeInvalid`: a value of the wrong JSON type.
    TypeInvalid,
}

impl FieldErrorType {
    /// The `StatusCause.reason`.
    pub fn reason(self) -> &'static str {
        match self {
            FieldErrorType::Required => "FieldValueRequired",
            FieldErrorType::Invalid => "FieldValueInvalid",
            FieldErrorType::NotSupported => "FieldValueNotSupported",
            FieldErrorType::Forbidden => "FieldValueForbidden",
            FieldErrorType::TooLong => "FieldValueTooLong",
            FieldErrorType::TooMany => "FieldValueTooMany",
            FieldErrorType::TypeInvalid => "FieldValueTypeInvalid",
            FieldErrorType::Duplicate => "FieldValueDuplicate",
        }
    }

    fn words(self) -> &'static str {
        match self {
            FieldErrorType::Required => "Required value",
            FieldErrorType::Invalid => "Invalid value",
            FieldErrorType::NotSupported => "Unsupported value",
            FieldErrorType::Forbidden => "Forbidden",
            FieldErrorType::TooLong => "Too long",
            FieldErrorType::TooMany => "Too many",
            FieldErrorType::TypeInvalid => "Invalid value",
            FieldErrorType::Duplicate => "Duplicate value",
        }
    }

    /// Required, Forbidden and TooLong never show the value.
    fn shows_value(self) -> bool {
        !matches!(
            self,
            FieldErrorType::Required | FieldErrorType::Forbidden | FieldErrorType::TooLong
        )
    }
}

/// The bad value of a field error, as `ErrorBody` prints it: a string quoted (`%q`), a number
/// or bool bare, anything else as its JSON (`json.Marshal`), or left out.
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    Omit,
    /// Printed as Go's `%q` prints a string.
    Text(String),
    /// Printed as given: a number, a bool, or JSON already in Go's key order.
    Raw(String),
}

impl BadValue {
    pub fn text(s: &str) -> BadValue {
        BadValue::Text(s.to_string())
    }

    /// A JSON value as `json.Marshal` prints a map or slice of it: compact, map keys sorted.
    /// (A Go struct keeps its fields' declared order; callers render those themselves.)
    pub fn json(v: &Value) -> BadValue {
        match v {
            Value::String(s) => BadValue::Text(s.clone()),
            other => BadValue::Raw(crate::argocd::apply::go_json(other).trim_end().to_string()),
        }
    }

    fn shown(&self) -> Option<String> {
        match self {
            BadValue::Omit => None,
            BadValue::Text(s) => Some(go_quote(s)),
            BadValue::Raw(s) => Some(s.clone()),
        }
    }
}

/// One `field.Error`: a field path, what is wrong, the bad value and the detail.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    pub kind: FieldErrorType,
    pub field: String,
    pub value: BadValue,
    pub detail: String,
}

impl FieldError {
    pub fn invalid(field: &str, value: BadValue, detail: &str) -> FieldError {
        FieldError {
            kind: FieldErrorType::Invalid,
            field: field.to_string(),
            value,
            detail: detail.to_string(),
        }
    }

    pub fn required(field: &str, detail: &str) -> FieldError {
        FieldError {
            kind: FieldErrorType::Required,
            field: field.to_string(),
            value: BadValue::Omit,
            detail: detail.to_string(),
        }
    }

    pub fn forbidden(field: &str, detail: &str) -> FieldError {
        FieldError {
            kind: FieldErrorType::Forbidden,
            field: field.to_string(),
            value: BadValue::Omit,
            detail: detail.to_string(),
        }
    }

    /// `field.NotSupported`: the value and the quoted list of what is allowed.
    pub fn not_supported(field: &str, value: BadValue, allowed: &[&str]) -> FieldError {
        let quoted: Vec<String> = allowed.iter().map(|a| go_quote(a)).collect();
        FieldError {
            kind: FieldErrorType::NotSupported,
            field: field.to_string(),
            value,
            detail: format!("supported values: {}", quoted.join(", ")),
        }
    }

    /// `field.TooLong(path, _, limit)`: the value not shown.
    pub fn too_long(field: &str, limit: u64) -> FieldError {
        FieldError {
            kind: FieldErrorType::TooLong,
            field: field.to_string(),
            value: BadValue::Omit,
            detail: format!("may not be more than {limit} bytes"),
        }
    }

    /// `field.TooMany(path, actual, limit)`: how many there are, and the most allowed.
    pub fn too_many(field: &str, actual: u64, limit: u64) -> FieldError {
        FieldError {
            kind: FieldErrorType::TooMany,
            field: field.to_string(),
            value: BadValue::Raw(actual.to_string()),
            detail: format!("must have at most {limit} items"),
        }
    }

    /// `field.Duplicate`: the value shown, no detail.
    pub fn duplicate(field: &str, value: BadValue) -> FieldError {
        FieldError {
            kind: FieldErrorType::Duplicate,
            field: field.to_string(),
            value,
            detail: String::new(),
        }
    }

    /// `ValidateImmutableField`'s error: the new value, "field is immutable".
    pub fn immutable(field: &str, value: BadValue) -> FieldError {
        FieldError::invalid(field, value, "field is immutable")
    }

    /// `ErrorBody`: the message without the field path.
    pub fn body(&self) -> String {
        let mut s = self.kind.words().to_string();
        if self.kind.shows_value()
            && let Some(v) = self.value.shown()
        {
            s = format!("{s}: {v}");
        }
        if !self.detail.is_empty() {
            s = format!("{s}: {}", self.detail);
        }
        s
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

/// The `Status` a successful delete of a fully removed object returns.
pub fn success(ty: &ResourceType, name: &str, uid: &str) -> Value {
    let mut d = details(ty, name);
    d["uid"] = json!(uid);
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "details": d,
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
