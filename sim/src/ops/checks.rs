//! What the API server's validation refuses in an object's metadata and in ConfigMap and Secret
//! data (docs/sim-behaviour.md §16.10), in apimachinery's words: label keys and values and
//! annotation keys (`IsQualifiedName`, `IsValidLabelValue`), annotations over 256 KiB in all,
//! data keys (`IsConfigMapKey`), a key in both `data` and `binaryData`, and data over 1 MiB.

use serde_json::Value;

use crate::kinds::ResourceType;
use crate::labels;
use crate::status::{ApiError, ApiResult, BadValue, FieldError};

/// `TotalAnnotationSizeLimitB`.
pub const ANNOTATIONS_LIMIT: usize = 256 * 1024;
/// `corev1.MaxSecretSize`: the most data a ConfigMap or Secret may hold.
pub const DATA_LIMIT: usize = 1024 * 1024;

/// `content.RegexError`.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    crate::labels::regex_error(msg, fmt, examples)
}

/// `IsConfigMapKey`.
pub fn config_key_problem(key: &str) -> Option<String> {
    if key.len() > 253 {
        return Some("must be no more than 253 characters".into());
    }
    let ok = !key.is_empty()
        && key
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'));
    if !ok {
        return Some(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    match key {
        "." => Some("must not be '.'".into()),
        ".." => Some("must not be '..'".into()),
        k if k.starts_with("..") => Some("must not start with '..'".into()),
        _ => None,
    }
}

fn too_long(ty: &ResourceType, name: &str, field: &str, limit: usize) -> ApiError {
    ApiError::too_long(ty, name, field, limit)
}

/// The metadata and data checks of every write.
pub fn check(ty: &ResourceType, name: &str, obj: &Value) -> ApiResult<()> {
    let meta = &obj["metadata"];
    // `ValidateLabels` and `ValidateAnnotations`: one error per problem, each label and
    // annotation in turn.
    let mut errors = Vec::new();
    for (key, value) in meta["labels"].as_object().into_iter().flatten() {
        for why in labels::key_problems(key) {
            errors.push(FieldError::invalid(
                "metadata.labels",
                BadValue::text(key),
                &why,
            ));
        }
        let value = value.as_str().unwrap_or_default();
        for why in labels::value_problems(value) {
            errors.push(FieldError::invalid(
                "metadata.labels",
                BadValue::text(value),
                &why,
            ));
        }
    }
    let mut annotations_size = 0;
    for (key, value) in meta["annotations"].as_object().into_iter().flatten() {
        for why in labels::key_problems(&key.to_lowercase()) {
            errors.push(FieldError::invalid(
                "metadata.annotations",
                BadValue::text(key),
                &why,
            ));
        }
        annotations_size += key.len() + value.as_str().map_or(0, str::len);
    }
    if !errors.is_empty() {
        return Err(ApiError::invalid_fields(ty, name, &errors));
    }
    if annotations_size > ANNOTATIONS_LIMIT {
        return Err(too_long(
            ty,
            name,
            "metadata.annotations",
            ANNOTATIONS_LIMIT,
        ));
    }
    if ty.group.is_empty() && matches!(ty.kind, "ConfigMap" | "Secret") {
        check_data(ty, name, obj)?;
    }
    if !ty.builtin {
        let missing = crd_required(ty, obj);
        if !missing.is_empty() {
            return Err(ApiError::required_fields(ty, name, &missing));
        }
        let errors = crate::validation::custom_resource_errors(ty, obj);
        if !errors.is_empty() {
            return Err(ApiError::invalid_fields(ty, name, &errors));
        }
    }
    Ok(())
}

/// The `required` lists of Argo CD 3.5's CRD schemas a learner can miss: (path, fields), a
/// path ending in `[]` meaning every item of that list.
fn required_table(kind: &str) -> &'static [(&'static str, &'static [&'static str])] {
    match kind {
        "Application" => &[
            ("", &["metadata", "spec"]),
            ("operation.sync.source", &["repoURL"]),
            ("spec", &["destination", "project"]),
            ("spec.ignoreDifferences[]", &["kind"]),
            ("spec.source", &["repoURL"]),
            ("spec.sources[]", &["repoURL"]),
        ],
        "AppProject" => &[
            ("", &["metadata", "spec"]),
            ("spec.clusterResourceBlacklist[]", &["group", "kind"]),
            ("spec.clusterResourceWhitelist[]", &["group", "kind"]),
            ("spec.namespaceResourceBlacklist[]", &["group", "kind"]),
            ("spec.namespaceResourceWhitelist[]", &["group", "kind"]),
            ("spec.roles[]", &["name"]),
        ],
        "ApplicationSet" => &[
            ("", &["metadata", "spec"]),
            ("spec", &["generators", "template"]),
        ],
        _ => &[],
    }
}

/// The fields of `obj` its CRD requires and it lacks, as the schema validator names them
/// (`spec.project`, `spec.sources[0].repoURL`), in the schema's order.
fn crd_required(ty: &ResourceType, obj: &Value) -> Vec<String> {
    let mut missing = Vec::new();
    for (path, fields) in required_table(ty.kind) {
        let (base, each) = match path.strip_suffix("[]") {
            Some(p) => (p, true),
            None => (*path, false),
        };
        let at = base
            .split('.')
            .filter(|p| !p.is_empty())
            .fold(obj, |v, k| &v[k]);
        let holders: Vec<(String, &Value)> = if each {
            at.as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(i, item)| (format!("{base}[{i}]"), item))
                .collect()
        } else if at.is_object() || base.is_empty() {
            vec![(base.to_string(), at)]
        } else {
            Vec::new()
        };
        for (prefix, holder) in holders {
            for field in *fields {
                if holder.get(*field).is_none_or(Value::is_null) {
                    missing.push(if prefix.is_empty() {
                        (*field).to_string()
                    } else {
                        format!("{prefix}.{field}")
                    });
                }
            }
        }
    }
    missing
}

/// `ValidateConfigMap` / `ValidateSecret`: keys, a key in both bags, the total size.
fn check_data(ty: &ResourceType, name: &str, obj: &Value) -> ApiResult<()> {
    let bags: &[&str] = if ty.kind == "ConfigMap" {
        &["data", "binaryData"]
    } else {
        &["data", "stringData"]
    };
    let mut size = 0;
    for bag in bags {
        for (key, value) in obj[*bag].as_object().into_iter().flatten() {
            let field = format!("{bag}[{key}]");
            if let Some(why) = config_key_problem(key) {
                return Err(ApiError::invalid(ty, name, &field, key, &why));
            }
            let text = value.as_str().unwrap_or_default();
            // binaryData and Secret data are base64 in JSON; their size is the decoded one.
            size += if *bag == "binaryData" || (ty.kind == "Secret" && *bag == "data") {
                text.len() / 4 * 3
            } else {
                text.len()
            };
        }
    }
    if ty.kind == "ConfigMap"
        && let (Some(data), Some(binary)) = (obj["data"].as_object(), obj["binaryData"].as_object())
        && let Some(key) = data.keys().find(|k| binary.contains_key(*k))
    {
        let field = format!("data[{key}]");
        return Err(ApiError::invalid(
            ty,
            name,
            &field,
            key,
            "duplicate of key present in binaryData",
        ));
    }
    if size > DATA_LIMIT {
        let field = if ty.kind == "Secret" { "data" } else { "" };
        return Err(too_long(ty, name, field, DATA_LIMIT));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn config_keys_are_worded_as_apimachinery_words_them() {
        assert!(
            config_key_problem("bad key")
                .unwrap()
                .starts_with("a valid config key must consist")
        );
        assert_eq!(
            config_key_problem("..x").as_deref(),
            Some("must not start with '..'")
        );
    }

    #[test]
    fn every_label_problem_is_its_own_cause() {
        let cm = &crate::kinds::CONFIG_MAP;
        let obj = json!({"metadata": {"labels": {"x/": "ok", "fine": "bad value"}}});
        let e = check(cm, "c", &obj).unwrap_err();
        let causes = e.details.unwrap()["causes"].as_array().unwrap().clone();
        assert_eq!(causes.len(), 3, "{causes:?}");
        assert_eq!(
            causes[0]["message"],
            "Invalid value: \"x/\": name part must be non-empty"
        );
        assert!(e.message.starts_with("ConfigMap \"c\" is invalid: [metadata.labels: Invalid value: \"x/\": name part must be non-empty, "));
    }
}
