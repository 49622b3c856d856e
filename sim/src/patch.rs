//! The four PATCH content types a real API server takes. JSON patch and merge patch come from
//! the `json-patch` crate (the one kube-rs uses); strategic merge is ours (`strategic`);
//! server-side apply is handled by `fields` and only named here.

mod limits;
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

/// Decodes a JSON, merge or strategic-merge patch body as the real patch handler does, with
/// its errors: `error decoding patch: unexpected end of JSON input` for a JSON or merge patch
/// (`json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp` for a JSON
/// patch that is no list), the decoder's bare words for a strategic one.
pub fn decode(kind: PatchKind, raw: &[u8]) -> ApiResult<Value> {
    if raw.is_empty() {
        return Ok(Value::Null);
    }
    let prefix = match kind {
        PatchKind::Json | PatchKind::Merge => "error decoding patch: ",
        _ => "",
    };
    let body: Value = serde_json::from_slice(raw).map_err(|e| {
        let why = if e.is_eof() {
            "unexpected end of JSON input".to_string()
        } else {
            e.to_string()
        };
        ApiError::bad_request(format!("{prefix}{why}"))
    })?;
    let cannot = |v: &Value, into: &str| {
        ApiError::bad_request(format!(
            "{prefix}json: cannot unmarshal {} into Go {into}",
            go_json_kind(v)
        ))
    };
    match kind {
        PatchKind::Json => {
            let Value::Array(ops) = &body else {
                return match body {
                    Value::Null => Ok(Value::Array(Vec::new())),
                    other => Err(cannot(&other, "value of type []handlers.jsonPatchOp")),
                };
            };
            for op in ops {
                let Value::Object(fields) = op else {
                    if op.is_null() {
                        continue;
                    }
                    return Err(cannot(op, "value of type handlers.jsonPatchOp"));
                };
                for name in ["op", "path", "from"] {
                    if let Some(v) = fields.get(name).filter(|v| !v.is_string() && !v.is_null()) {
                        return Err(cannot(
                            v,
                            &format!("struct field jsonPatchOp.{name} of type string"),
                        ));
                    }
                }
            }
        }
        PatchKind::Merge if !body.is_object() && !body.is_null() => {
            return Err(cannot(&body, "value of type map[string]interface {}"));
        }
        _ => {}
    }
    Ok(body)
}

/// The JSON type as Go's decoder names it in an `UnmarshalTypeError`.
fn go_json_kind(v: &Value) -> &'static str {
    match v {
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "bool",
        Value::Null => "null",
    }
}

/// Applies a non-apply patch to `old`, returning the patched object.
pub fn apply_patch(
    kind: PatchKind,
    ty: &ResourceType,
    old: &Value,
    body: &Value,
) -> ApiResult<Value> {
    let patched = apply_unbounded(kind, ty, old, body)?;
    // Whatever the patch kind, the result may be no bigger than a body the server would read.
    limits::check_patched_size(&patched)?;
    Ok(patched)
}

fn apply_unbounded(
    kind: PatchKind,
    ty: &ResourceType,
    old: &Value,
    body: &Value,
) -> ApiResult<Value> {
    let mut doc = old.clone();
    match kind {
        PatchKind::Json => {
            let ops = body.as_array().map_or(&[][..], Vec::as_slice);
            if ops.len() > limits::MAX_JSON_PATCH_OPERATIONS {
                return Err(limits::too_many_operations(ops.len()));
            }
            // Each `copy` is charged the size of what it copies, before it copies it: copying
            // a map into itself doubles it, so the charge, not the result, must stop it.
            let mut copied = 0usize;
            // An operation the library cannot apply (an unknown `op`, no `path`, an `add`
            // without a value) fails when applied, with the same generic 422 as any failure.
            for op in ops {
                let op: json_patch::PatchOperation =
                    serde_json::from_value(op.clone()).map_err(|_| rejected())?;
                if let json_patch::PatchOperation::Copy(c) = &op {
                    let budget = limits::MAX_PATCHED_BYTES - copied;
                    let from = doc.pointer(c.from.as_str()).ok_or_else(rejected)?;
                    copied += limits::json_size_within(from, budget).ok_or_else(rejected)?;
                }
                apply_json_op(&mut doc, &op)?;
            }
            Ok(doc)
        }
        PatchKind::Merge => {
            if !body.is_object() {
                return Err(ApiError::bad_request(
                    "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}",
                ));
            }
            json_patch::merge(&mut doc, body);
            Ok(doc)
        }
        PatchKind::Strategic => {
            if !ty.builtin {
                // Custom resources have no patch strategies; a real server refuses the same way.
                return Err(ApiError::unsupported_media_type(accepted(false)));
            }
            strategic::apply_strategic_merge(old, body).map_err(|e| match e {
                // Plain Go errors of the patch library, not API statuses: 500 without a
                // reason, as the real handler passes them on.
                strategic::PatchError::UnknownPatchType { .. }
                | strategic::PatchError::MissingMergeKey { .. } => ApiError {
                    code: 500,
                    reason: "",
                    message: e.to_string(),
                    details: None,
                },
                _ => ApiError::bad_request(e.to_string()),
            })
        }
        PatchKind::Apply => Err(ApiError::internal("server-side apply is not a plain patch")),
    }
}

/// The 422 of a JSON patch that fails to apply.
fn rejected() -> ApiError {
    ApiError {
        code: 422,
        reason: "Invalid",
        message: "the server rejected our request due to an error in our request".into(),
        details: Some(serde_json::json!({})),
    }
}

/// One JSON patch operation as the real server's library (evanphx/json-patch v4) applies it:
/// `replace` of a key an object lacks adds it (v4 never checks that the key exists), and a
/// failure is the generic 422 whose message says nothing of the operation
/// (`NewGenericServerResponse` keeps only "due to an error in our request"; measured in the
/// real lab).
fn apply_json_op(doc: &mut Value, op: &json_patch::PatchOperation) -> ApiResult<()> {
    let one = |doc: &mut Value, op: &json_patch::PatchOperation| {
        json_patch::patch(doc, std::slice::from_ref(op))
    };
    match one(doc, op) {
        Ok(()) => Ok(()),
        Err(_) => {
            if let json_patch::PatchOperation::Replace(r) = op {
                let (parent, key) = r.path.split_back().ok_or_else(rejected)?;
                let key_missing = doc
                    .pointer(parent.as_str())
                    .and_then(Value::as_object)
                    .is_some_and(|o| !o.contains_key(key.decoded().as_ref()));
                if key_missing {
                    let add = json_patch::PatchOperation::Add(json_patch::AddOperation {
                        path: r.path.clone(),
                        value: r.value.clone(),
                    });
                    return one(doc, &add).map_err(|_| rejected());
                }
            }
            Err(rejected())
        }
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
        assert_eq!(
            err.message,
            "the server rejected our request due to an error in our request"
        );
        // evanphx/json-patch v4: replacing a key the object lacks adds it.
        let added = apply_patch(
            PatchKind::Json,
            cm,
            &old,
            &json!([{"op": "replace", "path": "/data/zz", "value": "x"}]),
        )
        .unwrap();
        assert_eq!(added["data"]["zz"], "x");
    }

    /// Review 4, S3: `copy` of a map into itself doubles it each time; 18 of them reached
    /// 931 MiB. The copies are charged before they are made, so this fails small and fast.
    #[test]
    fn copying_a_map_into_itself_stops_at_the_body_limit() {
        let cm = &crate::kinds::CONFIG_MAP;
        let annotations: serde_json::Map<String, Value> = (0..8)
            .map(|i| (format!("k{i}"), Value::String("v".repeat(64))))
            .collect();
        let old = json!({"metadata": {"name": "a", "annotations": annotations}});
        let ops: Vec<Value> = (0..40)
            .map(|i| json!({"op": "copy", "from": "/metadata/annotations", "path": format!("/metadata/annotations/c{i}")}))
            .collect();
        let started = std::time::Instant::now();
        let e = apply_patch(PatchKind::Json, cm, &old, &Value::Array(ops)).unwrap_err();
        assert_eq!((e.code, e.reason), (422, "Invalid"));
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        // A few copies well under the limit still work.
        let few: Vec<Value> = (0..3)
            .map(|i| json!({"op": "copy", "from": "/metadata/annotations", "path": format!("/metadata/annotations/c{i}")}))
            .collect();
        assert!(apply_patch(PatchKind::Json, cm, &old, &Value::Array(few)).is_ok());
    }

    #[test]
    fn more_than_ten_thousand_operations_is_413() {
        let cm = &crate::kinds::CONFIG_MAP;
        let op = json!({"op": "add", "path": "/data/a", "value": "1"});
        let e = apply_patch(
            PatchKind::Json,
            cm,
            &json!({"data": {}}),
            &Value::Array(vec![op.clone(); 10_001]),
        )
        .unwrap_err();
        assert_eq!((e.code, e.reason), (413, "RequestEntityTooLarge"));
        let ok = apply_patch(
            PatchKind::Json,
            cm,
            &json!({"data": {}}),
            &Value::Array(vec![op; 10_000]),
        );
        assert!(ok.is_ok());
    }

    #[test]
    fn a_merge_patch_cannot_make_an_object_bigger_than_a_body() {
        let cm = &crate::kinds::CONFIG_MAP;
        let half = "x".repeat(crate::body::MAX_BODY_BYTES / 2 + 10);
        let old = json!({"data": {"a": half.clone()}});
        let e = apply_patch(PatchKind::Merge, cm, &old, &json!({"data": {"b": half}})).unwrap_err();
        assert_eq!(e.code, 413);
    }

    #[test]
    fn strategic_merge_on_a_custom_resource_is_refused() {
        let app = &crate::kinds::APPLICATION;
        let err = apply_patch(PatchKind::Strategic, app, &json!({}), &json!({})).unwrap_err();
        assert_eq!(err.code, 415);
    }
}

#[cfg(test)]
mod decode_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patch_bodies_are_refused_in_the_patch_handlers_words() {
        let said = |kind, raw: &str| decode(kind, raw.as_bytes()).unwrap_err().message;
        assert_eq!(
            said(PatchKind::Merge, r#"{"spec":"#),
            "error decoding patch: unexpected end of JSON input"
        );
        assert_eq!(
            said(PatchKind::Strategic, r#"{"spec":"#),
            "unexpected end of JSON input"
        );
        assert_eq!(
            said(
                PatchKind::Json,
                r#"{"op":"remove","path":"/spec/replicas"}"#
            ),
            "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"
        );
        assert_eq!(
            said(PatchKind::Json, "[1]"),
            "error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp"
        );
        assert_eq!(
            said(PatchKind::Merge, "[1]"),
            "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"
        );
    }

    #[test]
    fn an_operation_that_cannot_apply_is_the_generic_422() {
        let ty = &crate::kinds::DEPLOYMENT;
        let old = json!({"spec": {"replicas": 1}});
        for ops in [
            json!([{"op": "frobnicate", "path": "/spec/replicas", "value": 1}]),
            json!([{"op": "remove"}]),
        ] {
            let e = apply_patch(PatchKind::Json, ty, &old, &ops).unwrap_err();
            assert_eq!((e.code, e.reason), (422, "Invalid"));
            assert_eq!(
                e.message,
                "the server rejected our request due to an error in our request"
            );
        }
        let smp = json!({"spec": {"template": {"spec": {"containers": [{"name": "web", "$patch": "explode"}]}}}});
        let live = json!({"spec": {"template": {"spec": {"containers": [{"name": "web"}]}}}});
        let e = apply_patch(PatchKind::Strategic, ty, &live, &smp).unwrap_err();
        assert_eq!((e.code, e.reason), (500, ""));
        assert_eq!(
            e.message,
            "unknown patch type: explode in map: map[$patch:explode name:web]"
        );
    }
}
