//! Field validation of a PATCH. The patch body itself is read strictly only for duplicate keys;
//! the patched object is then decoded like a new body: a JSON or merge patch's result through the
//! JSON decoder, a strategic merge patch's through the unstructured converter (its unknown
//! fields sorted, its type errors in the converter's words). Failures are 422 `Invalid` on the
//! field `patch`, showing the patched JSON (JSON and merge patches) or the patch as a Go map
//! (strategic merge).

use serde_json::Value;

use super::doc::{Node, parse_json};
use super::godecode;
use super::shape::{Leaf, Shape};
use super::{Directive, Warnings, builtin, decode_node, go_quote, gofmt, report};
use crate::kinds::ResourceType;
use crate::patch::PatchKind;
use crate::status::{ApiError, ApiResult};

/// Everything needed to check one patched object under the store's lock.
pub struct PatchCheck<'a> {
    pub ty: &'static ResourceType,
    pub kind: PatchKind,
    pub directive: Directive,
    /// The patch body as decoded, for the strategic-merge message.
    pub patch: &'a Value,
    /// Strict errors of the patch body itself (see [`patch_strict_errors`]).
    pub patch_strict: Vec<String>,
    pub warnings: &'a Warnings,
}

/// Duplicate keys in the raw patch body, as the strict read of the patch reports them (a JSON
/// patch's with `json patch ` in front, and its operations' unknown fields too).
pub fn patch_strict_errors(kind: PatchKind, raw: &[u8], directive: Directive) -> Vec<String> {
    if directive == Directive::Ignore {
        return vec![];
    }
    let Some(node) = parse_json(raw) else {
        return vec![];
    };
    let mut errors = Vec::new();
    godecode::duplicates(&node, &mut Vec::new(), &mut errors);
    if kind == PatchKind::Json {
        if let Node::Array(ops) = &node {
            for (i, op) in ops.iter().enumerate() {
                let Node::Object(entries) = op else { continue };
                for e in entries {
                    if !matches!(e.key.as_str(), "op" | "path" | "from" | "value") {
                        errors.push(format!(
                            "unknown field {}",
                            go_quote(&format!("[{i}].{}", e.key))
                        ));
                    }
                }
            }
        }
        errors = errors
            .into_iter()
            .map(|e| format!("json patch {e}"))
            .collect();
    }
    errors
}

impl PatchCheck<'_> {
    /// The patched object to store, or the refusal.
    pub fn check(&self, patched: Value) -> ApiResult<Value> {
        let text = crate::argocd::apply::go_json(&patched);
        let Some(node) = parse_json(text.as_bytes()) else {
            return Ok(patched);
        };
        let Some(decoded) = decode_node(self.ty, &node) else {
            return Ok(patched);
        };
        let shown = match self.kind {
            PatchKind::Strategic => gofmt::v(self.patch),
            _ => text.trim_end().to_string(),
        };
        let decoded = match decoded {
            Ok(d) => d,
            Err(why) => {
                let why = match self.kind {
                    PatchKind::Strategic => converter_error(self.ty, &node).unwrap_or(why),
                    _ => why,
                };
                return Err(invalid_patch(&shown, &why));
            }
        };
        let mut strict = decoded.strict;
        if self.kind == PatchKind::Strategic {
            strict.sort();
        }
        let all: Vec<String> = self.patch_strict.iter().cloned().chain(strict).collect();
        report(self.directive, &all, self.warnings).map_err(|why| invalid_patch(&shown, &why))?;
        super::schema_types(self.ty, &decoded.value)?;
        Ok(decoded.value)
    }
}

/// ` "" is invalid: patch: Invalid value: "...": why` — the server's 422 for a patch whose
/// result does not decode (an Invalid error with no kind and no name).
fn invalid_patch(shown: &str, why: &str) -> ApiError {
    let body = format!("Invalid value: {}: {why}", go_quote(shown));
    ApiError {
        code: 422,
        reason: "Invalid",
        message: format!(" \"\" is invalid: patch: {body}"),
        details: Some(serde_json::json!({
            "causes": [{"reason": "FieldValueInvalid", "message": body, "field": "patch"}],
        })),
    }
}

/// The unstructured converter's first type error, in its words (it names no field).
fn converter_error(ty: &ResourceType, node: &Node) -> Option<String> {
    let schema = builtin::schema(ty)?;
    first_mismatch(schema, &node.to_value(), &schema.root)
}

fn first_mismatch(schema: &super::shape::Schema, v: &Value, shape: &Shape) -> Option<String> {
    if let Some(e) = converter_mismatch(schema, v, shape) {
        return Some(e);
    }
    match (shape, v) {
        (Shape::Struct(id), Value::Object(map)) => {
            let def = schema.def(*id);
            map.iter()
                .find_map(|(k, v)| first_mismatch(schema, v, def.field(k)?))
        }
        (Shape::Map(inner), Value::Object(map)) => {
            map.values().find_map(|v| first_mismatch(schema, v, inner))
        }
        (Shape::List(inner), Value::Array(items)) => {
            items.iter().find_map(|v| first_mismatch(schema, v, inner))
        }
        _ => None,
    }
}

fn converter_mismatch(schema: &super::shape::Schema, v: &Value, shape: &Shape) -> Option<String> {
    let kind = match v {
        Value::Null => return None,
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "slice",
        Value::Object(_) => "map",
    };
    let go_type = schema.go_type(shape);
    match shape {
        Shape::Struct(_) if !v.is_object() => Some(format!("cannot restore struct from: {kind}")),
        Shape::Map(_) if !v.is_object() => Some(format!("cannot restore map from {kind}")),
        Shape::List(_) if !v.is_array() => Some(format!("cannot restore slice from {kind}")),
        Shape::Leaf(Leaf::String) => match v {
            Value::String(_) => None,
            Value::Number(_) => Some(format!("cannot convert {kind} to string")),
            _ => Some("unrecognized type: string".into()),
        },
        Shape::Leaf(Leaf::Bool) if !v.is_boolean() => Some("unrecognized type: bool".into()),
        Shape::Leaf(Leaf::Int32 | Leaf::Int64) => match v {
            Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() != 0.0) => {
                Some(format!("cannot convert float64 to {go_type}"))
            }
            Value::Number(_) => None,
            _ => Some(format!("unrecognized type: {go_type}")),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn check(
        kind: PatchKind,
        directive: Directive,
        patch: &Value,
        patched: Value,
    ) -> ApiResult<Value> {
        let raw = serde_json::to_vec(patch).unwrap();
        PatchCheck {
            ty: &crate::kinds::DEPLOYMENT,
            kind,
            directive,
            patch,
            patch_strict: patch_strict_errors(kind, &raw, directive),
            warnings: &Warnings::default(),
        }
        .check(patched)
    }

    #[test]
    fn a_strategic_patch_with_a_typo_is_invalid_and_shows_the_patch_as_a_go_map() {
        let patch = json!({"spec": {"replica": 3}});
        let patched = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replica": 3, "replicas": 1}});
        let err = check(
            PatchKind::Strategic,
            Directive::Strict,
            &patch,
            patched.clone(),
        )
        .unwrap_err();
        assert_eq!((err.code, err.reason), (422, "Invalid"));
        assert_eq!(
            err.message,
            r#" "" is invalid: patch: Invalid value: "map[spec:map[replica:3]]": strict decoding error: unknown field "spec.replica""#
        );
        let kept = check(PatchKind::Strategic, Directive::Warn, &patch, patched).unwrap();
        assert_eq!(kept["spec"], json!({"replicas": 1}));
    }

    #[test]
    fn a_merge_patch_shows_the_patched_object_as_json() {
        let patch = json!({"spec": {"replicas": "two"}});
        let patched =
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": "two"}});
        let err = check(PatchKind::Merge, Directive::Strict, &patch, patched).unwrap_err();
        assert_eq!(
            err.message,
            r#" "" is invalid: patch: Invalid value: "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"spec\":{\"replicas\":\"two\"}}": json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"#
        );
    }

    #[test]
    fn strategic_type_errors_use_the_converters_words() {
        let patch = json!({"spec": {"replicas": "two"}});
        let patched =
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": "two"}});
        let err = check(PatchKind::Strategic, Directive::Ignore, &patch, patched).unwrap_err();
        assert!(
            err.message.ends_with(": unrecognized type: int32"),
            "{}",
            err.message
        );
        let patch = json!({"metadata": {"labels": {"a": 1}}});
        let patched = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"labels": {"a": 1}}});
        let err = check(PatchKind::Strategic, Directive::Ignore, &patch, patched).unwrap_err();
        assert!(
            err.message.ends_with(": cannot convert int64 to string"),
            "{}",
            err.message
        );
    }

    #[test]
    fn duplicates_in_the_patch_come_first() {
        let raw = br#"{"metadata": {"labels": {"a": "1", "a": "2"}}}"#;
        assert_eq!(
            patch_strict_errors(PatchKind::Merge, raw, Directive::Strict),
            [r#"duplicate field "metadata.labels.a""#]
        );
        let raw = br#"[{"op": "add", "path": "/a", "value": 1, "valeu": 2}]"#;
        assert_eq!(
            patch_strict_errors(PatchKind::Json, raw, Directive::Warn),
            [r#"json patch unknown field "[0].valeu""#]
        );
        assert!(patch_strict_errors(PatchKind::Merge, raw, Directive::Ignore).is_empty());
    }
}
