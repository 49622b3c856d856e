//! The per-kind validation of creates and updates, as the real API server's
//! `pkg/apis/*/validation` runs it: every problem found is a cause of one `Invalid` error, in
//! the order the Go code finds them, with the same field paths and words. On update the kind's
//! `Validate*Update` adds its immutability rules (a Deployment's selector, a Job's template, a
//! Service's clusterIPs, an immutable ConfigMap's data, a Pod's spec...).
//!
//! Only what a learner can run into is checked; the rest of the Go validation is not repeated.

mod containers;
mod core;
mod diff;
mod other;
mod workloads;

use serde_json::{Map, Value};

use super::{Part, Target};
use crate::kinds::ResourceType;
use crate::objects;
use crate::status::{ApiError, ApiResult, BadValue, FieldError};

/// Validates `new`, the object about to be stored for `target`, against `old` on update.
pub fn validate(target: &Target, old: Option<&Value>, new: &Value) -> ApiResult<()> {
    let (ty, name) = (target.ty, target.name);
    let problem = if matches!(ty.kind, "Namespace" | "Service") {
        objects::label_problem(name)
    } else {
        objects::subdomain_problem(name)
    };
    if let Some(why) = problem {
        return Err(ApiError::invalid(ty, name, "metadata.name", name, why));
    }
    for (key, value) in objects::labels(new).into_iter().flatten() {
        if !value.is_string() {
            return Err(ApiError::bad_request(format!(
                "unable to decode metadata.labels.{key}: label values must be strings"
            )));
        }
    }
    super::checks::check(ty, name, new)?;
    let mut errors = Vec::new();
    // A status write keeps the stored spec: only the main resource's rules apply to it.
    if target.part != Part::Status {
        match old {
            None => errors.extend(on_create(ty, new)),
            Some(old) => errors.extend(on_update(ty, new, old)),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApiError::invalid_fields(ty, name, &errors))
    }
}

/// `metadata.uid`, when a write names one, must be the stored object's (checked by both the
/// common and the kind's update validation, so the cause is listed twice, as on a real server).
pub fn check_uid(ty: &ResourceType, name: &str, new: &Value, old: &Value) -> ApiResult<()> {
    let given = new["metadata"]["uid"].as_str().unwrap_or_default();
    if given.is_empty() || given == objects::uid(old) {
        return Ok(());
    }
    let error = FieldError::immutable("metadata.uid", BadValue::text(given));
    Err(ApiError::invalid_fields(ty, name, &[error.clone(), error]))
}

/// The update rules of the version a view serves its stored kind in: `new` and `old` are the
/// stored (core/v1) objects, `view` the type the client wrote through.
pub fn check_view_update(
    view: &ResourceType,
    name: &str,
    new: &Value,
    old: &Value,
) -> ApiResult<()> {
    let errors = match (view.group, view.kind) {
        ("events.k8s.io", "Event") => other::event_update(new, old),
        _ => Vec::new(),
    };
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApiError::invalid_fields(view, name, &errors))
    }
}

/// The warnings a kind's strategy adds about its pod spec (`GetWarningsForPod`,
/// `GetWarningsForPodTemplate`): on create, and on update when the pod template changed (a
/// Pod's on every update).
pub fn pod_warnings(ty: &ResourceType, new: &Value, old: Option<&Value>) -> Vec<String> {
    let (path, spec, old_spec) = match (ty.group, ty.kind) {
        ("", "Pod") => ("spec", &new["spec"], None),
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet")
        | ("", "ReplicationController")
        | ("batch", "Job") => (
            "spec.template.spec",
            &new["spec"]["template"]["spec"],
            old.map(|o| &o["spec"]["template"]),
        ),
        ("batch", "CronJob") => (
            "spec.jobTemplate.spec.template.spec",
            &new["spec"]["jobTemplate"]["spec"]["template"]["spec"],
            old.map(|o| &o["spec"]["jobTemplate"]["spec"]["template"]),
        ),
        _ => return Vec::new(),
    };
    if let Some(old_template) = old_spec
        && ty.kind != "CronJob"
        && same(old_template, &new["spec"]["template"])
    {
        return Vec::new();
    }
    containers::warnings(spec, path)
}

/// The rules of a kind's `Validate<Kind>` on create.
fn on_create(ty: &ResourceType, new: &Value) -> Vec<FieldError> {
    match (ty.group, ty.kind) {
        ("apps", _) | ("batch", "Job" | "CronJob") | ("", "ReplicationController" | "Pod") => {
            workloads::on_create(ty, new)
        }
        ("", "Secret") => core::secret_type(new),
        ("", "Service") => core::service_ports(new),
        _ => Vec::new(),
    }
}

/// The rules of a kind's `Validate<Kind>Update`.
fn on_update(ty: &ResourceType, new: &Value, old: &Value) -> Vec<FieldError> {
    match (ty.group, ty.kind) {
        ("apps", _) | ("batch", "Job" | "CronJob") | ("", "ReplicationController") => {
            workloads::on_update(ty, new, old)
        }
        ("", "Pod") => core::pod_update(new, old),
        ("", "Service") => {
            let mut errors = core::service_update(new, old);
            if errors.is_empty() {
                errors = core::service_ports(new);
            }
            errors
        }
        ("", "ConfigMap" | "Secret") => core::data_update(ty, new, old),
        ("", "Node") => core::node_update(new, old),
        ("", "ResourceQuota") => core::quota_update(new, old),
        ("", "PersistentVolumeClaim") => core::claim_update(new, old),
        ("", "PersistentVolume") => core::volume_update(new, old),
        ("discovery.k8s.io", "EndpointSlice") => other::endpoint_slice_update(new, old),
        ("storage.k8s.io", "StorageClass") => other::storage_class_update(new, old),
        ("apiextensions.k8s.io", "CustomResourceDefinition") => other::crd_update(new, old),
        _ => Vec::new(),
    }
}

/// `apiequality.Semantic.DeepEqual` on JSON: a missing field, `null`, `[]` and `{}` are all
/// Go's zero value, and numbers compare by value.
pub fn same(a: &Value, b: &Value) -> bool {
    let empty = |v: &Value| match v {
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let null = Value::Null;
            x.keys()
                .chain(y.keys())
                .all(|k| same(x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ if empty(a) && empty(b) => true,
        _ => a == b,
    }
}

/// `ValidateImmutableField`: the new value (`show` prints it) if it differs from the old.
fn immutable(
    errors: &mut Vec<FieldError>,
    field: &str,
    new: &Value,
    old: &Value,
    show: fn(&Value) -> BadValue,
) {
    if !same(new, old) {
        errors.push(FieldError::immutable(field, show(new)));
    }
}

/// A value as `json.Marshal` prints a map, slice or scalar field (`null` when unset).
fn shown(v: &Value) -> BadValue {
    match v {
        Value::Number(n) => BadValue::Raw(n.to_string()),
        Value::Bool(b) => BadValue::Raw(b.to_string()),
        other => BadValue::json(other),
    }
}

/// A `*metav1.LabelSelector` as `json.Marshal` prints it: the struct's field order
/// (`matchLabels`, then `matchExpressions` as key, operator, values), empty fields left out.
fn selector_shown(sel: &Value) -> BadValue {
    if sel.is_null() {
        return BadValue::Raw("null".into());
    }
    let mut out = Map::new();
    if let Some(labels) = sel["matchLabels"].as_object().filter(|m| !m.is_empty()) {
        out.insert("matchLabels".into(), Value::Object(labels.clone()));
    }
    if let Some(exprs) = sel["matchExpressions"].as_array().filter(|a| !a.is_empty()) {
        let exprs: Vec<Value> = exprs
            .iter()
            .map(|e| {
                let mut m = Map::new();
                m.insert("key".into(), e["key"].clone());
                m.insert("operator".into(), e["operator"].clone());
                if e["values"].as_array().is_some_and(|v| !v.is_empty()) {
                    m.insert("values".into(), e["values"].clone());
                }
                Value::Object(m)
            })
            .collect();
        out.insert("matchExpressions".into(), Value::Array(exprs));
    }
    // Keys in the struct's order; the label map inside sorted as Go sorts map keys.
    let mut text = String::from("{");
    for (i, (k, v)) in out.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        let inner = if k == "matchLabels" {
            crate::argocd::apply::go_json(v).trim_end().to_string()
        } else {
            let items: Vec<String> = v
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| {
                    let fields: Vec<String> = e
                        .as_object()
                        .into_iter()
                        .flatten()
                        .map(|(k, v)| {
                            format!("\"{k}\":{}", crate::argocd::apply::go_json(v).trim_end())
                        })
                        .collect();
                    format!("{{{}}}", fields.join(","))
                })
                .collect();
            format!("[{}]", items.join(","))
        };
        text.push_str(&format!("\"{k}\":{inner}"));
    }
    text.push('}');
    BadValue::Raw(text)
}

/// `spec` without the named fields, to compare what must not change.
fn without(spec: &Value, fields: &[&str]) -> Value {
    let mut out = spec.clone();
    if let Some(o) = out.as_object_mut() {
        for f in fields {
            o.remove(*f);
        }
    }
    out
}

/// A value as Go's `json.MarshalIndent(v, "", " ")` lays it out, for the spec diffs in the
/// Forbidden messages of Pod, PersistentVolumeClaim and PersistentVolume updates.
fn pretty(v: &Value) -> String {
    use serde::Serialize;
    // The same order on both sides, whatever order the writes left the keys in.
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(o) => {
                let mut keys: Vec<&String> = o.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&o[k])))
                        .collect(),
                )
            }
            Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    let v = &sorted(v);
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b" ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    if v.serialize(&mut ser).is_err() {
        return v.to_string();
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `diff.Diff(old, new)`: a unified diff of the two pretty-printed values. The real server
/// diffs its internal Go structs, whose field names are capitalised and which list every
/// field, zero or not; here the API's JSON is diffed, so the hunks show the same change with
/// different line numbers and keys.
fn spec_diff(old: &Value, new: &Value) -> String {
    diff::unified(&pretty(old), &pretty(new))
}

#[cfg(test)]
mod tests;
