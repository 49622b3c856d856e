//! `POST serviceaccounts/{name}/token` (`kubectl create token`): a TokenRequest answered with a
//! service account token in the JWT shape k3s issues (its audiences, issuer and
//! `kubernetes.io` claims), and the check `TokenReview` makes of such a token. The token is
//! signed with an HMAC keyed by the cluster's own secret rather than k3s's RSA key: no client
//! verifies it, and the cluster can still tell its tokens from forged ones.

use axum::http::{Method, StatusCode};
use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use super::auth::{hex, sha256};
use super::ctx::Ctx;
use crate::clock::rfc3339;
use crate::kinds::SERVICE_ACCOUNT;
use crate::status::{ApiError, ApiResult, BadValue, FieldError};
use crate::store::Key;

/// What k3s's API server names as its audiences (`--api-audiences`) and issuer.
const AUDIENCES: [&str; 2] = ["https://kubernetes.default.svc.cluster.local", "k3s"];
const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";
/// A token lasts an hour unless asked otherwise; never less than ten minutes.
const DEFAULT_SECONDS: i64 = 3600;
const MIN_SECONDS: i64 = 600;

pub fn serve(ctx: &Ctx, method: &Method, name: &str, raw_body: &[u8]) -> ApiResult<Response> {
    if *method != Method::POST {
        return Err(super::auth::method_not_allowed());
    }
    let namespace = ctx.namespace();
    let mut req = crate::body::decode_body(raw_body, ctx.content_type)?;
    if !req.is_object() {
        req = json!({});
    }
    let body_name = req["metadata"]["name"].as_str().unwrap_or_default();
    if !body_name.is_empty() && body_name != name {
        return Err(invalid(
            name,
            FieldError::invalid(
                "metadata.name",
                BadValue::text(body_name),
                "must match the service account name if specified",
            ),
        ));
    }
    let sa = ctx
        .st
        .store
        .get(&Key::new(&SERVICE_ACCOUNT, namespace, name))
        .ok_or_else(|| ApiError::not_found(&SERVICE_ACCOUNT, name))?;
    let uid = sa["metadata"]["uid"].as_str().unwrap_or_default();
    let seconds = req["spec"]["expirationSeconds"]
        .as_i64()
        .filter(|s| *s != 0)
        .unwrap_or(DEFAULT_SECONDS);
    if seconds < MIN_SECONDS {
        return Err(invalid(
            "",
            FieldError::invalid(
                "spec.expirationSeconds",
                BadValue::Raw(seconds.to_string()),
                "may not specify a duration less than 10 minutes",
            ),
        ));
    }
    let audiences = match req["spec"]["audiences"].as_array() {
        Some(a) if !a.is_empty() => Value::Array(a.clone()),
        _ => json!(AUDIENCES),
    };
    let now = ctx.st.store.clock.now();
    let expires = now
        .checked_add(jiff::SignedDuration::from_secs(seconds))
        .unwrap_or(now);
    let claims = json!({
        "aud": audiences,
        "exp": expires.as_second(),
        "iat": now.as_second(),
        "iss": ISSUER,
        "jti": uuid::Uuid::new_v4().to_string(),
        "kubernetes.io": {"namespace": namespace, "serviceaccount": {"name": name, "uid": uid}},
        "nbf": now.as_second(),
        "sub": format!("system:serviceaccount:{namespace}:{name}"),
    });
    let token = sign(&ctx.st.token, &claims);
    let answer = json!({
        "kind": "TokenRequest",
        "apiVersion": "authentication.k8s.io/v1",
        "metadata": {"name": name, "namespace": namespace, "uid": uid, "creationTimestamp": rfc3339(now)},
        "spec": {"audiences": audiences, "expirationSeconds": seconds, "boundObjectRef": req["spec"]["boundObjectRef"].clone()},
        "status": {"token": token, "expirationTimestamp": rfc3339(expires)},
    });
    Ok(ctx.respond(StatusCode::CREATED, &answer))
}

fn invalid(name: &str, error: FieldError) -> ApiError {
    let mut e = ApiError::invalid_fields(&SERVICE_ACCOUNT, name, &[error]);
    // The registry names the request's kind, in the authentication group.
    e.message = e
        .message
        .replacen("ServiceAccount", "TokenRequest.authentication.k8s.io", 1);
    if let Some(d) = e.details.as_mut() {
        d["group"] = json!("authentication.k8s.io");
        d["kind"] = json!("TokenRequest");
    }
    e
}

/// `header.claims.signature`, each part base64url without padding, as every JWT.
fn sign(key: &str, claims: &Value) -> String {
    let header = json!({"alg": "HS256", "kid": hex(&sha256(key.as_bytes()))[..16].to_string()});
    let encode = |v: &Value| URL_SAFE_NO_PAD.encode(v.to_string());
    let signed = format!("{}.{}", encode(&header), encode(claims));
    let mac = hmac(key.as_bytes(), signed.as_bytes());
    format!("{signed}.{}", URL_SAFE_NO_PAD.encode(mac))
}

/// The claims of a token this cluster issued and that has not expired, or `None`.
pub fn verify(key: &str, token: &str, now_second: i64) -> Option<Value> {
    let (signed, signature) = token.rsplit_once('.')?;
    let mac = URL_SAFE_NO_PAD.decode(signature).ok()?;
    if mac != hmac(key.as_bytes(), signed.as_bytes()) {
        return None;
    }
    let (_, claims) = signed.split_once('.')?;
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims).ok()?).ok()?;
    (claims["exp"].as_i64()? > now_second).then_some(claims)
}

/// HMAC-SHA256 (RFC 2104).
fn hmac(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&sha256(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.iter().map(|b| b ^ byte).collect::<Vec<u8>>();
    let mut inner = pad(0x36);
    inner.extend_from_slice(message);
    let mut outer = pad(0x5c);
    outer.extend_from_slice(&sha256(&inner));
    sha256(&outer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231_case_2() {
        assert_eq!(
            hex(&hmac(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_signed_token_verifies_until_it_expires_and_not_under_another_key() {
        let claims = json!({"sub": "system:serviceaccount:lab:default", "exp": 100});
        let token = sign("k", &claims);
        assert_eq!(verify("k", &token, 99), Some(claims));
        assert_eq!(verify("k", &token, 100), None);
        assert_eq!(verify("other", &token, 99), None);
    }
}
