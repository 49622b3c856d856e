//! The reviews asked about someone else: `TokenReview` (whose token is this? kr8s's `whoami`
//! asks it of its own), `SubjectAccessReview` and `LocalSubjectAccessReview` (may this user do
//! that?), answered from the tokens this cluster issued and its RBAC objects. Also `Binding`,
//! which only a scheduler sends: every Pod here is placed when created, so it always conflicts.

use serde_json::{Value, json};

use super::ctx::Ctx;
use super::rbac::{self, Attributes, User};
use crate::kinds::POD;
use crate::status::{ApiError, ApiResult};
use crate::store::Key;

/// Who the cluster's own bearer token belongs to (k3s's admin).
const ADMIN: &str = "system:admin";

/// The review as sent, with `status` saying whether the token is one of the cluster's.
pub fn token_review(ctx: &Ctx, mut review: Value) -> Value {
    let token = review["spec"]["token"].as_str().unwrap_or_default();
    let now = ctx.st.store.clock.now().as_second();
    let status = if token == ctx.st.token {
        json!({"authenticated": true, "user": {"username": ADMIN, "groups": ["system:masters", "system:authenticated"]},
               "audiences": ["https://kubernetes.default.svc.cluster.local", "k3s"]})
    } else if let Some(claims) = super::token::verify(&ctx.st.token, token, now) {
        let namespace = claims["kubernetes.io"]["namespace"]
            .as_str()
            .unwrap_or_default();
        json!({"authenticated": true,
               "user": {"username": claims["sub"], "uid": claims["kubernetes.io"]["serviceaccount"]["uid"],
                        "groups": ["system:serviceaccounts", format!("system:serviceaccounts:{namespace}"), "system:authenticated"],
                        "extra": {"authentication.kubernetes.io/credential-id": [format!("JTI={}", claims["jti"].as_str().unwrap_or_default())]}},
               "audiences": claims["aud"]})
    } else {
        json!({"user": {}, "error": "[invalid bearer token, token lookup failed]"})
    };
    review["metadata"] = json!({"creationTimestamp": null});
    review["status"] = status;
    review
}

/// A (Local)SubjectAccessReview: the spec's user and groups, taken as given, checked against
/// RBAC.
pub fn subject_access_review(ctx: &Ctx, mut review: Value) -> ApiResult<Value> {
    let spec = &review["spec"];
    let user = spec["user"].as_str().unwrap_or_default();
    let groups: Vec<String> = spec["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|g| g.as_str().map(String::from))
        .collect();
    if user.is_empty() && groups.is_empty() {
        return Err(ApiError {
            code: 422,
            reason: "Invalid",
            message: format!(
                "{}.authorization.k8s.io \"\" is invalid: spec.user: Invalid value: \"\": at least one of user or group must be specified",
                ctx.rp.ty.kind
            ),
            details: Some(json!({"group": "authorization.k8s.io", "kind": ctx.rp.ty.kind})),
        });
    }
    let mut spec = spec.clone();
    if ctx.rp.ty.namespaced {
        // A local review is asked within the namespace of its path.
        spec["resourceAttributes"]["namespace"] = json!(ctx.namespace());
    }
    let subject = User {
        name: user.to_string(),
        groups,
    };
    review["status"] = if user == ADMIN {
        json!({"allowed": true})
    } else {
        decide(ctx, &subject, &spec)
    };
    if review["metadata"].is_null() {
        review["metadata"] = json!({"creationTimestamp": null});
    }
    Ok(review)
}

/// An access review's status for `user`, from the spec's resource or non-resource attributes.
pub fn decide(ctx: &Ctx, user: &User, spec: &Value) -> Value {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let (resource, non_resource) = (&spec["resourceAttributes"], &spec["nonResourceAttributes"]);
    let owned: [String; 7] = if non_resource.is_object() {
        [
            text(&non_resource["verb"]),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            text(&non_resource["path"]),
        ]
    } else {
        [
            text(&resource["verb"]),
            text(&resource["namespace"]),
            text(&resource["group"]),
            text(&resource["resource"]),
            text(&resource["subresource"]),
            text(&resource["name"]),
            String::new(),
        ]
    };
    let at = Attributes {
        verb: &owned[0],
        namespace: &owned[1],
        group: &owned[2],
        resource: &owned[3],
        subresource: &owned[4],
        name: &owned[5],
        path: non_resource.is_object().then_some(owned[6].as_str()),
    };
    match rbac::allowed(&ctx.st.store, user, &at) {
        Some(reason) if reason.is_empty() => json!({"allowed": true}),
        Some(reason) => json!({"allowed": true, "reason": reason}),
        None => json!({"allowed": false}),
    }
}

/// `POST bindings`: the Pod must exist, and here it is always already on the node.
pub fn binding(ctx: &Ctx, body: &Value) -> ApiError {
    let name = body["metadata"]["name"].as_str().unwrap_or_default();
    let Some(pod) = ctx.st.store.get(&Key::new(&POD, ctx.namespace(), name)) else {
        return ApiError::not_found(&POD, name);
    };
    let node = pod["spec"]["nodeName"].as_str().unwrap_or_default();
    let mut e = ApiError::conflict(
        &POD,
        name,
        format!("pod {name} is already assigned to node {node:?}"),
    );
    e.message = e.message.replacen("pods ", "pods/binding ", 1);
    e
}
