//! The reviews a user asks about themselves: `SelfSubjectAccessReview` (`kubectl auth can-i`),
//! `SelfSubjectRulesReview` (`kubectl auth can-i --list`) and `SelfSubjectReview`
//! (`kubectl auth whoami`). The embedded cluster has one user, the k3s admin: `system:admin`
//! in `system:masters`, whom a real API server allows everything (the privileged-group
//! authorizer, before RBAC), so every review is answered as it is answered for that user on
//! k3s. Only `create` is served; nothing is stored.

use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::{Map, Value, json};

use super::ctx::Ctx;
use crate::fields::{self, Writer};
use crate::kinds::api_version_of;
use crate::status::{ApiError, ApiResult, BadValue, FieldError};

const USER: &str = "system:admin";
const GROUPS: [&str; 2] = ["system:masters", "system:authenticated"];

pub fn serve(ctx: &Ctx, method: &Method, raw_body: &[u8]) -> ApiResult<Response> {
    if ctx.rp.name.is_some() || ctx.rp.subresource.is_some() {
        return Err(ApiError::path_not_found(ctx.rp.ty.plural));
    }
    if *method != Method::POST {
        return Err(method_not_allowed());
    }
    let body = ctx.decode_object(raw_body, "CreateOptions")?;
    let ty = ctx.rp.ty;
    let api_version = body["apiVersion"].as_str().unwrap_or_default();
    let kind = body["kind"].as_str().unwrap_or_default();
    if (!api_version.is_empty() && api_version != ty.api_version())
        || (!kind.is_empty() && kind != ty.kind)
    {
        return Err(ApiError::bad_request(format!(
            "the API version in the data ({api_version}) does not match the expected API version ({})",
            ty.api_version()
        )));
    }
    let answer = match ty.kind {
        "SelfSubjectAccessReview" => access_review(ctx, body)?,
        "SelfSubjectRulesReview" => rules_review(&body)?,
        "SelfSubjectReview" => self_review(ctx),
        "TokenReview" => super::reviews::token_review(ctx, body),
        "SubjectAccessReview" | "LocalSubjectAccessReview" => {
            super::reviews::subject_access_review(ctx, body)?
        }
        _ => return Err(super::reviews::binding(ctx, &body)),
    };
    Ok(ctx.respond(StatusCode::CREATED, &answer))
}

/// The generic 405 of a verb a resource does not serve.
pub fn method_not_allowed() -> ApiError {
    ApiError {
        code: 405,
        reason: "MethodNotAllowed",
        message: "the server does not allow this method on the requested resource".into(),
        details: Some(json!({})),
    }
}

/// The review as sent, its `managedFields` recorded (the create handler's field manager runs
/// before the review is answered) and `status.allowed: true`.
fn access_review(ctx: &Ctx, mut review: Value) -> ApiResult<Value> {
    let ty = ctx.rp.ty;
    let now = ctx.st.store.clock.now_rfc3339();
    let actor = ctx.actor();
    let writer = Writer {
        manager: actor.manager,
        api_version: api_version_of(ty),
        subresource: None,
        time: &now,
        builtin: true,
    };
    let mut entries = Vec::new();
    let mut tracked = review.clone();
    if let Some(o) = tracked.as_object_mut() {
        o.remove("status");
    }
    fields::record_update(&mut entries, None, &tracked, &writer);
    fields::write_entries(&mut review, &entries);
    let errors = access_review_errors(&review);
    if !errors.is_empty() {
        return Err(nameless_invalid(ty.group, &errors));
    }
    let mut out = Map::new();
    out.insert("kind".into(), json!(ty.kind));
    out.insert("apiVersion".into(), json!(ty.api_version()));
    let managed = &review["metadata"]["managedFields"];
    let metadata = if managed.is_array() {
        json!({"managedFields": managed})
    } else {
        json!({})
    };
    out.insert("metadata".into(), metadata);
    out.insert("spec".into(), review["spec"].clone());
    let status = match &ctx.impersonating {
        // The cluster's own user is in system:masters: allowed before RBAC is asked.
        None => json!({"allowed": true}),
        Some(user) => super::reviews::decide(ctx, user, &review["spec"]),
    };
    out.insert("status".into(), status);
    Ok(Value::Object(out))
}

/// `ValidateSelfSubjectAccessReview`: exactly one kind of attributes, and no metadata.
fn access_review_errors(review: &Value) -> Vec<FieldError> {
    let spec = &review["spec"];
    let (resource, non_resource) = (&spec["resourceAttributes"], &spec["nonResourceAttributes"]);
    let mut errors = Vec::new();
    // The bad value is the internal (untagged) NonResourceAttributes struct.
    let internal_non_resource = || {
        if non_resource.is_null() {
            return BadValue::Raw("null".into());
        }
        let text = |k: &str| {
            crate::argocd::apply::go_json(&json!(non_resource[k].as_str().unwrap_or_default()))
                .trim_end()
                .to_string()
        };
        BadValue::Raw(format!(
            "{{\"Path\":{},\"Verb\":{}}}",
            text("path"),
            text("verb")
        ))
    };
    if !resource.is_null() && !non_resource.is_null() {
        errors.push(FieldError::invalid(
            "spec.nonResourceAttributes",
            internal_non_resource(),
            "cannot be specified in combination with resourceAttributes",
        ));
    }
    if resource.is_null() && non_resource.is_null() {
        errors.push(FieldError::invalid(
            "spec.resourceAttributes",
            internal_non_resource(),
            "exactly one of nonResourceAttributes or resourceAttributes must be specified",
        ));
    }
    let meta = &review["metadata"];
    let set = meta
        .as_object()
        .into_iter()
        .flatten()
        .any(|(k, v)| k != "managedFields" && !is_zero(v));
    if set {
        errors.push(FieldError::invalid(
            "metadata",
            BadValue::Raw(object_meta_json(meta)),
            "must be empty",
        ));
    }
    errors
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Bool(b) => !b,
    }
}

/// An ObjectMeta as `json.Marshal` prints it: the struct's field order, zero fields left out.
fn object_meta_json(meta: &Value) -> String {
    const ORDER: &[&str] = &[
        "name",
        "generateName",
        "namespace",
        "selfLink",
        "uid",
        "resourceVersion",
        "generation",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "labels",
        "annotations",
        "ownerReferences",
        "finalizers",
        "managedFields",
    ];
    let parts: Vec<String> = ORDER
        .iter()
        .filter(|k| !is_zero(&meta[**k]))
        .map(|k| {
            let value = if *k == "managedFields" {
                // Each entry in its struct's order (the fields map keeps its own).
                let entries: Vec<String> = meta[*k]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|e| {
                        let fields: Vec<String> = e
                            .as_object()
                            .into_iter()
                            .flatten()
                            .map(|(k, v)| {
                                format!("\"{k}\":{}", serde_json::to_string(v).unwrap_or_default())
                            })
                            .collect();
                        format!("{{{}}}", fields.join(","))
                    })
                    .collect();
                format!("[{}]", entries.join(","))
            } else {
                crate::argocd::apply::go_json(&meta[*k])
                    .trim_end()
                    .to_string()
            };
            format!("\"{k}\":{value}")
        })
        .collect();
    format!("{{{}}}", parts.join(","))
}

/// `errors.NewInvalid` with the review's internal kind, which is empty: `.group "" is
/// invalid: ...`, and no kind or name in the details.
fn nameless_invalid(group: &str, errors: &[FieldError]) -> ApiError {
    let causes: Vec<Value> = errors
        .iter()
        .map(|e| json!({"reason": e.kind.reason(), "message": e.body(), "field": e.field}))
        .collect();
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let joined = match shown.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    };
    ApiError {
        code: 422,
        reason: "Invalid",
        message: format!(".{group} \"\" is invalid: {joined}"),
        details: Some(json!({"group": group, "causes": causes})),
    }
}

/// What RBAC grants `system:masters` (cluster-admin) and every authenticated user
/// (system:basic-user, system:discovery, system:public-info-viewer), in the order the rule
/// resolver visits their bindings. The review's spec is not echoed back.
fn rules_review(review: &Value) -> ApiResult<Value> {
    let namespace = review["spec"]["namespace"].as_str().unwrap_or_default();
    if namespace.is_empty() {
        return Err(ApiError::bad_request("no namespace on request"));
    }
    Ok(json!({
        "kind": "SelfSubjectRulesReview",
        "apiVersion": "authorization.k8s.io/v1",
        "metadata": {},
        "spec": {},
        "status": {
            "resourceRules": [
                {"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]},
                {"verbs": ["create"], "apiGroups": ["authorization.k8s.io"],
                 "resources": ["selfsubjectaccessreviews", "selfsubjectrulesreviews"]},
                {"verbs": ["create"], "apiGroups": ["authentication.k8s.io"],
                 "resources": ["selfsubjectreviews"]},
            ],
            "nonResourceRules": [
                {"verbs": ["*"], "nonResourceURLs": ["*"]},
                {"verbs": ["get"], "nonResourceURLs": ["/api", "/api/*", "/apis", "/apis/*",
                    "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"]},
                {"verbs": ["get"], "nonResourceURLs": ["/healthz", "/livez", "/readyz", "/version", "/version/"]},
            ],
            "incomplete": false,
        },
    }))
}

/// The user, as k3s's admin client certificate authenticates it; the credential id is the
/// certificate's SHA-256 there, and here that of the bearer token standing in for it.
fn self_review(ctx: &Ctx) -> Value {
    let id = hex(&sha256(ctx.st.token.as_bytes()));
    json!({
        "kind": "SelfSubjectReview",
        "apiVersion": "authentication.k8s.io/v1",
        "metadata": {"creationTimestamp": ctx.st.store.clock.now_rfc3339()},
        "status": {"userInfo": {
            "username": USER,
            "groups": GROUPS,
            "extra": {"authentication.kubernetes.io/credential-id": [format!("X509SHA256={id}")]},
        }},
    })
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 (FIPS 180-4).
pub(super) fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut message = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&bits.to_be_bytes());
    for block in message.chunks(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [
                t1.wrapping_add(t2),
                v[0],
                v[1],
                v[2],
                v[3].wrapping_add(t1),
                v[4],
                v[5],
                v[6],
            ];
        }
        for (hi, vi) in h.iter_mut().zip(v) {
            *hi = hi.wrapping_add(vi);
        }
    }
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_matches_the_standard_vectors() {
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn an_access_review_needs_one_kind_of_attributes_and_no_metadata() {
        let both = json!({"metadata": {}, "spec": {"resourceAttributes": {"verb": "get"},
            "nonResourceAttributes": {"path": "/x", "verb": "get"}}});
        let e = nameless_invalid("authorization.k8s.io", &access_review_errors(&both));
        assert_eq!(
            e.message,
            ".authorization.k8s.io \"\" is invalid: spec.nonResourceAttributes: Invalid value: {\"Path\":\"/x\",\"Verb\":\"get\"}: cannot be specified in combination with resourceAttributes"
        );
        let neither = json!({"spec": {}});
        assert_eq!(
            access_review_errors(&neither)[0].to_string(),
            "spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified"
        );
        let named =
            json!({"metadata": {"name": "x"}, "spec": {"resourceAttributes": {"verb": "get"}}});
        assert_eq!(
            access_review_errors(&named)[0].to_string(),
            "metadata: Invalid value: {\"name\":\"x\"}: must be empty"
        );
    }

    #[test]
    fn a_rules_review_needs_a_namespace() {
        assert_eq!(
            rules_review(&json!({"spec": {}})).unwrap_err().message,
            "no namespace on request"
        );
        let answer = rules_review(&json!({"spec": {"namespace": "lab"}})).unwrap();
        assert_eq!(answer["spec"], json!({}));
        assert_eq!(answer["status"]["resourceRules"][0]["verbs"], json!(["*"]));
    }
}
