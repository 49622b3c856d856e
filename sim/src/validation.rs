//! Field validation as the real API server does it while decoding a write: unknown and
//! duplicate fields (`fieldValidation=Strict|Warn|Ignore`), values of the wrong type, and the
//! pruning of unknown fields from custom resources. See docs/sim-behaviour.md §14.
//!
//! Creates and replaces are checked here before they reach `ops`; patches are checked on the
//! patched object (`patched`), server-side apply on the applied configuration (`apply`).

mod apply;
mod argocd;
mod builtin;
mod crd;
mod doc;
mod godecode;
pub mod gofmt;
mod patched;
mod quantity;
mod shape;
mod structural;
mod warnings;

use std::sync::OnceLock;

use serde_json::Value;

use crate::body::{decode_body, is_json, is_yaml};
use crate::kinds::ResourceType;
use crate::status::{ApiError, ApiResult};
pub use apply::check_apply;
pub use argocd::{crd as argocd_crd, openapi_of as crd_schema};
use doc::{Node, parse_json, parse_yaml};
pub use godecode::go_quote;
pub use patched::{PatchCheck, patch_strict_errors};
pub use warnings::Warnings;

/// `?fieldValidation=`: what to do with unknown and duplicate fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Directive {
    /// Refuse the write, naming every such field.
    Strict,
    /// Drop them and say so in `Warning` headers: what the server does when not told.
    #[default]
    Warn,
    /// Drop them silently.
    Ignore,
}

impl Directive {
    /// Reads the query value; anything but the three names (or nothing) is refused as the
    /// real server refuses it, naming the request's options kind (`CreateOptions`...).
    pub fn parse(raw: Option<&str>, options_kind: &str) -> ApiResult<Directive> {
        match raw.unwrap_or_default() {
            "" | "Warn" => Ok(Directive::Warn),
            "Strict" => Ok(Directive::Strict),
            "Ignore" => Ok(Directive::Ignore),
            other => {
                let body = format!(
                    "Unsupported value: {}: supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"",
                    go_quote(other)
                );
                Err(ApiError {
                    code: 422,
                    reason: "Invalid",
                    message: format!(
                        "{options_kind}.meta.k8s.io \"\" is invalid: fieldValidation: {body}"
                    ),
                    details: Some(serde_json::json!({
                        "group": "meta.k8s.io",
                        "kind": options_kind,
                        "causes": [{"reason": "FieldValueNotSupported", "message": body, "field": "fieldValidation"}],
                    })),
                })
            }
        }
    }

    fn tracks(self) -> bool {
        self != Directive::Ignore
    }
}

/// The shape of ObjectMeta, as every built-in kind has it (taken from ConfigMap's, which the
/// k8s-openapi table always holds; `None` would only mean no metadata checks for custom resources).
fn object_meta() -> Option<&'static shape::Schema> {
    static META: OnceLock<Option<shape::Schema>> = OnceLock::new();
    META.get_or_init(|| {
        let schema = builtin::schema(&crate::kinds::CONFIG_MAP)?;
        let root = schema.at(&["metadata"]).cloned()?;
        Some(shape::Schema {
            structs: schema.structs.clone(),
            root,
        })
    })
    .as_ref()
}

/// What a body decodes to for `ty`: its value with unknown fields dropped, and the strict
/// errors found (all of them; the caller decides between refusing and warning). `None` when
/// the kind has no known shape or the body is not this kind's object: then the body is taken
/// as it is and the usual identity checks speak.
fn decode_node(ty: &ResourceType, node: &Node) -> Option<Result<godecode::Decoded, String>> {
    let Node::Object(entries) = node else {
        return None;
    };
    let text = |key: &str| {
        entries
            .iter()
            .rev()
            .find(|e| e.key == key)
            .map(|e| match &e.value {
                Node::String(s) => Some(s.as_str()),
                _ => None,
            })
    };
    if text("apiVersion").is_some_and(|v| v != Some(ty.api_version().as_str()))
        || text("kind").is_some_and(|k| k != Some(ty.kind))
    {
        return None;
    }
    if let Some(schema) = builtin::schema(ty) {
        return Some(godecode::decode(schema, node, true));
    }
    let schema = custom_schema(ty)?;
    Some(crd::decode(schema, object_meta()?, node))
}

/// The shape of a custom resource: Argo CD's from its vendored CRDs, any other CRD's from the
/// schema it was created with.
fn custom_schema(ty: &ResourceType) -> Option<&'static shape::Schema> {
    argocd::schema(ty).or_else(|| structural::schema(ty))
}

/// The value validations of a custom resource's CRD schema that `obj` fails (none for a
/// built-in kind).
pub fn custom_resource_errors(ty: &ResourceType, obj: &Value) -> Vec<crate::status::FieldError> {
    structural::value_errors(ty, obj)
}

/// The fields of `object` that `ty`'s schema does not declare, as strict decoding names them
/// (`unknown field "spec.replica"`); empty for a kind without a known shape. For checking that
/// what the cluster's own controllers write is something the real server would keep.
pub fn unknown_fields(ty: &ResourceType, object: &Value) -> Vec<String> {
    let text = crate::argocd::apply::go_json(object);
    let Some(node) = parse_json(text.as_bytes()) else {
        return vec![];
    };
    match decode_node(ty, &node) {
        Some(Ok(decoded)) => decoded.strict,
        Some(Err(why)) => vec![why],
        None => vec![],
    }
}

/// The 400 a create or update gets when its body does not decode.
fn cannot_handle(ty: &ResourceType, why: &str) -> ApiError {
    ApiError::bad_request(format!(
        "{kind} in version \"{version}\" cannot be handled as a {kind}: {why}",
        kind = ty.kind,
        version = ty.version,
    ))
}

/// A body whose kind could not even be read (`transformDecodeError` without a kind): the
/// decoder's error with the first 30 bytes of the body, as text when it looks like JSON and
/// in hex otherwise.
fn unrecognized(ty: &ResourceType, raw: &[u8], e: ApiError) -> ApiError {
    let undecodable =
        e.message.starts_with("couldn't get version/kind") || e.message.starts_with("yaml: ");
    if e.code != 400 || !undecodable {
        return e;
    }
    let why = &e.message;
    let head = &raw[..raw.len().min(30)];
    let more = if raw.len() > 30 { " ..." } else { "" };
    let summary = match raw.first() {
        None => "<empty>".to_string(),
        Some(b'{') => format!("{}{more}", String::from_utf8_lossy(head)),
        Some(_) => {
            let hex: String = head.iter().map(|b| format!("{b:02x}")).collect();
            format!("{hex}{more}")
        }
    };
    ApiError::bad_request(format!(
        "the object provided is unrecognized (must be of type {}): {why} ({summary})",
        ty.kind
    ))
}

/// Decodes the body of a create (POST) or replace (PUT) for `ty`, as the real server does
/// under `directive`: a decoding error or (under Strict) any unknown or duplicate field
/// refuses it with 400; under Warn each such field is a warning; unknown fields are dropped.
/// Bodies that are not JSON or YAML go to the plain decoder untouched.
pub fn decode_object(
    ty: &ResourceType,
    raw: &[u8],
    content_type: &str,
    directive: Directive,
    warnings: &Warnings,
) -> ApiResult<Value> {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    if !matches!(
        essence,
        "" | "application/json" | "application/yaml" | crate::proto::MEDIA_TYPE
    ) {
        return Err(ApiError::unsupported_media_type(&[
            "application/json",
            "application/yaml",
            crate::proto::MEDIA_TYPE,
        ]));
    }
    let read = read(raw, content_type).map_err(|e| unrecognized(ty, raw, e));
    let (node, mut strict) = match read? {
        Read::Node(node, yaml_duplicates) => (node, yaml_duplicates),
        Read::Other(value) => return Ok(value),
    };
    let Some(decoded) = decode_node(ty, &node) else {
        return Ok(node.to_value());
    };
    let decoded = decoded.map_err(|why| cannot_handle(ty, &why))?;
    strict.extend(decoded.strict);
    report(directive, &strict, warnings).map_err(|why| cannot_handle(ty, &why))?;
    schema_types(ty, &decoded.value)?;
    Ok(decoded.value)
}

/// A custom resource's values checked against the JSON types of its CRD's schema, refused as
/// the real validation refuses them: `Application.argoproj.io "web" is invalid:
/// spec.syncPolicy.automated.selfHeal: Invalid value: "string": spec.syncPolicy.automated.selfHeal
/// in body must be of type boolean: "string"` (several in `[...]`).
fn schema_types(ty: &ResourceType, value: &Value) -> ApiResult<()> {
    use crate::status::{BadValue, FieldError, FieldErrorType};
    let Some(schema) = custom_schema(ty) else {
        return Ok(());
    };
    let errors = crd::type_errors(schema, value);
    if errors.is_empty() {
        return Ok(());
    }
    let mut found: Vec<FieldError> = errors
        .iter()
        .map(|(path, actual, expected)| FieldError {
            kind: FieldErrorType::TypeInvalid,
            field: path.clone(),
            value: BadValue::text(actual),
            detail: format!("{path} in body must be of type {expected}: \"{actual}\""),
        })
        .collect();
    // The schema's other validations run with the type checks, and report together.
    if ty.custom.is_some() {
        found.extend(structural::value_errors(ty, value));
        found.sort_by(|a, b| a.field.cmp(&b.field));
    }
    let name = value["metadata"]["name"].as_str().unwrap_or_default();
    Err(ApiError::invalid_fields(ty, name, &found))
}

/// Under Strict, the error text for these strict errors; under Warn, they become warnings.
fn report(directive: Directive, strict: &[String], warnings: &Warnings) -> Result<(), String> {
    if strict.is_empty() || !directive.tracks() {
        return Ok(());
    }
    if directive == Directive::Strict {
        return Err(format!("strict decoding error: {}", strict.join(", ")));
    }
    for e in strict {
        warnings.add_strict(e);
    }
    Ok(())
}

enum Read {
    /// A JSON or YAML body, and (YAML only) the duplicate-key error a strict YAML read gives.
    Node(Node, Vec<String>),
    /// Anything else, decoded by the plain decoder.
    Other(Value),
}

/// Reads a body: JSON through serde_json first (its errors are the ones clients see), YAML
/// through the duplicate-keeping reader. YAML, as the server converts it to JSON, has its
/// duplicates resolved (last wins) and its keys sorted before the JSON decoder sees it.
fn read(raw: &[u8], content_type: &str) -> ApiResult<Read> {
    if raw.is_empty() || !(is_json(content_type) || is_yaml(content_type)) {
        return decode_body(raw, content_type).map(Read::Other);
    }
    if is_yaml(content_type) {
        let Ok(node) = parse_yaml(raw) else {
            return decode_body(raw, content_type).map(Read::Other);
        };
        let duplicates = apply::yaml_duplicates(&node);
        let strict = if duplicates.is_empty() {
            vec![]
        } else {
            vec![format!(
                "yaml: unmarshal errors:\n  {}",
                duplicates.join("\n  ")
            )]
        };
        return Ok(Read::Node(apply::as_converted_json(&node), strict));
    }
    let value = decode_body(raw, content_type)?;
    Ok(match parse_json(raw) {
        Some(node) => Read::Node(node, vec![]),
        None => Read::Other(value),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deploy() -> &'static ResourceType {
        &crate::kinds::DEPLOYMENT
    }

    const TYPO: &[u8] = br#"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replica": 3}}"#;

    #[test]
    fn a_body_the_decoder_cannot_read_is_refused_as_the_real_handler_words_it() {
        let w = Warnings::default();
        let cm = &crate::kinds::CONFIG_MAP;
        let truncated = br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x""#;
        let err =
            decode_object(cm, truncated, "application/json", Directive::Strict, &w).unwrap_err();
        assert_eq!(
            err.message,
            r#"the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Con ...)"#
        );
        let err = decode_object(cm, b"{}", "application/xml", Directive::Strict, &w).unwrap_err();
        assert_eq!((err.code, err.reason), (415, "UnsupportedMediaType"));
        assert_eq!(
            err.message,
            "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf"
        );
    }

    #[test]
    fn strict_refuses_with_the_real_wording() {
        let w = Warnings::default();
        let err =
            decode_object(deploy(), TYPO, "application/json", Directive::Strict, &w).unwrap_err();
        assert_eq!((err.code, err.reason), (400, "BadRequest"));
        assert_eq!(
            err.message,
            r#"Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica""#
        );
    }

    #[test]
    fn warn_drops_and_warns_and_ignore_drops_silently() {
        let w = Warnings::default();
        let v = decode_object(deploy(), TYPO, "application/json", Directive::Warn, &w).unwrap();
        assert!(v["spec"].get("replica").is_none());
        assert_eq!(w.texts(), [r#"unknown field "spec.replica""#]);
        let quiet = Warnings::default();
        let v = decode_object(
            deploy(),
            TYPO,
            "application/json",
            Directive::Ignore,
            &quiet,
        )
        .unwrap();
        assert!(v["spec"].get("replica").is_none());
        assert!(quiet.texts().is_empty());
    }

    #[test]
    fn type_errors_refuse_whatever_the_directive() {
        let w = Warnings::default();
        let body = br#"{"metadata": {"name": "web", "labels": {"tier": 1}}}"#;
        let err =
            decode_object(deploy(), body, "application/json", Directive::Ignore, &w).unwrap_err();
        assert_eq!(
            err.message,
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"
        );
    }

    #[test]
    fn yaml_duplicates_are_reported_with_their_lines() {
        let w = Warnings::default();
        let body =
            b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: b\n  a: c\n";
        let cm = &crate::kinds::CONFIG_MAP;
        let err = decode_object(cm, body, "application/yaml", Directive::Strict, &w).unwrap_err();
        assert_eq!(
            err.message,
            "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: yaml: unmarshal errors:\n  line 7: key \"a\" already set in map"
        );
        let v = decode_object(cm, body, "application/yaml", Directive::Warn, &w).unwrap();
        assert_eq!(v["data"]["a"], "c");
        assert_eq!(w.texts(), ["line 7: key \"a\" already set in map"]);
    }

    #[test]
    fn an_unsupported_directive_is_refused_as_invalid_options() {
        let err = Directive::parse(Some("strict"), "CreateOptions").unwrap_err();
        assert_eq!(err.code, 422);
        assert_eq!(
            err.message,
            "CreateOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: \"strict\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\""
        );
        assert_eq!(Directive::parse(None, "CreateOptions"), Ok(Directive::Warn));
    }

    #[test]
    fn applications_are_pruned_and_checked_too() {
        let app = &crate::kinds::APPLICATION;
        let body = br#"{"apiVersion": "argoproj.io/v1alpha1", "kind": "Application", "metadata": {"name": "a"}, "spec": {"syncPolicy": {"automated": {"selfheal": true}}}}"#;
        let w = Warnings::default();
        let err = decode_object(app, body, "application/json", Directive::Strict, &w).unwrap_err();
        assert_eq!(
            err.message,
            "Application in version \"v1alpha1\" cannot be handled as a Application: strict decoding error: unknown field \"spec.syncPolicy.automated.selfheal\""
        );
        let v = decode_object(app, body, "application/json", Directive::Warn, &w).unwrap();
        assert_eq!(v["spec"]["syncPolicy"]["automated"], serde_json::json!({}));
        let body = br#"{"metadata": {"name": "a"}, "spec": {"syncPolicy": {"automated": {"selfHeal": "yes"}}}}"#;
        let err = decode_object(app, body, "application/json", Directive::Strict, &w).unwrap_err();
        assert_eq!((err.code, err.reason), (422, "Invalid"));
        assert_eq!(
            err.message,
            "Application.argoproj.io \"a\" is invalid: spec.syncPolicy.automated.selfHeal: Invalid value: \"string\": spec.syncPolicy.automated.selfHeal in body must be of type boolean: \"string\""
        );
    }
}
