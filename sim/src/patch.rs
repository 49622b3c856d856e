//! The four PATCH content types a real API server takes. JSON patch and merge patch come from
//! the `json-patch` crate (the one kube-rs uses); strategic merge is ours (`strategic`);
//! server-side apply is handled by `fields` and only named here.

pub mod strategic;

use serde_json::Value;

use super::kinds::ResourceType;
use super::status::{ApiError, ApiResult};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchKind {
    Json,
    Merge,
    Strategic,
    Apply,
}

/// What the API accepts, in the words of a real server's 415.
/// The patch media types a resource accepts: a built-in kind's, and a custom resource's (no
/// strategic merge patch).
pub fn accepted(builtin: bool) -> &'static [&'static str] {
    const ALL: &[&str] = &[
        "application/json-patch+json",
        "application/merge-patch+json",
        "application/apply-patch+yaml",
        "application/strategic-merge-patch+json",
    ];
    if builtin { ALL } else { &ALL[..3] }
}

impl PatchKind {
    pub fn from_content_type(content_type: &str) -> Option<PatchKind> {
        let essence = content_type.split(';').next().unwrap_or_default().trim();
        match essence {
            "application/json-patch+json" => Some(PatchKind::Json),
            "application/merge-patch+json" => Some(PatchKind::Merge),
            "application/strategic-merge-patch+json" => Some(PatchKind::Strategic),
            "application/apply-patch+yaml" | "application/apply-patch+cbor" => {
                Some(PatchKind::Apply)
            }
            _ => None,
        }
    }
}

/// Applies a non-apply patch to `old`, returning the patched object.
pub fn apply_patch(
    kind: PatchKind,
    ty: &ResourceType,
    old: &Value,
    body: &Value,
) -> ApiResult<Value> {
    let mut doc = old.clone();
    match kind {
        PatchKind::Json => {
            let ops: json_patch::Patch = serde_json::from_value(body.clone())
                .map_err(|e| ApiError::bad_request(format!("invalid JSON patch: {e}")))?;
            json_patch::patch(&mut doc, &ops).map_err(|e| ApiError {
                code: 422,
                reason: "Invalid",
                message: format!(
                    "the server rejected our request due to an error in our request: {e}"
                ),
                details: None,
            })?;
            Ok(doc)
        }
        PatchKind::Merge => {
            if !body.is_object() {
                return Err(ApiError::bad_request("a merge patch must be a JSON object"));
            }
            json_patch::merge(&mut doc, body);
            Ok(doc)
        }
        PatchKind::Strategic => {
            if !ty.builtin {
                // Custom resources have no patch strategies; a real server refuses the same way.
                return Err(ApiError::unsupported_media_type(accepted(false)));
            }
            strategic::apply_strategic_merge(old, body)
                .map_err(|e| ApiError::bad_request(e.to_string()))
        }
        PatchKind::Apply => Err(ApiError::internal("server-side apply is not a plain patch")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    #[test]
    fn content_types_map_to_patch_kinds() {
        assert_eq!(
            PatchKind::from_content_type("application/merge-patch+json"),
            Some(PatchKind::Merge)
        );
        assert_eq!(
            PatchKind::from_content_type("application/apply-patch+yaml; charset=utf-8"),
            Some(PatchKind::Apply)
        );
        assert_eq!(PatchKind::from_content_type("application/json"), None);
    }

    #[test]
    fn merge_and_json_patches_change_the_object() {
        let cm = &crate::kinds::CONFIG_MAP;
        let old = json!({"data": {"a": "1", "b": "2"}});
        let merged = apply_patch(
            PatchKind::Merge,
            cm,
            &old,
            &json!({"data": {"a": null, "c": "3"}}),
        )
        .unwrap();
        assert_eq!(merged, json!({"data": {"b": "2", "c": "3"}}));
        let patched = apply_patch(
            PatchKind::Json,
            cm,
            &old,
            &json!([{"op": "replace", "path": "/data/a", "value": "9"}]),
        )
        .unwrap();
        assert_eq!(patched["data"]["a"], "9");
        let err = apply_patch(
            PatchKind::Json,
            cm,
            &old,
            &json!([{"op": "test", "path": "/data/a", "value": "x"}]),
        )
        .unwrap_err();
        assert_eq!(err.code, 422);
    }

    #[test]
    fn strategic_merge_on_a_custom_resource_is_refused() {
        let app = &crate::kinds::APPLICATION;
        let err = apply_patch(PatchKind::Strategic, app, &json!({}), &json!({})).unwrap_err();
        assert_eq!(err.code, 415);
    }
}
