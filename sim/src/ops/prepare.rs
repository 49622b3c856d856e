//! What every write goes through before it is stored: identity checks, fields the server owns
//! (uid, creationTimestamp, generation, deletionTimestamp), the status/spec split between an
//! object and its `/status`, defaulting, and validation.

use serde_json::{Value, json};

use super::{Part, Target};
use crate::clock::Clock;
use crate::kinds::ResourceType;
use crate::status::{ApiError, ApiResult};
use crate::store::{Key, Store};
use crate::{defaults, objects};

/// The body's apiVersion/kind must be the URL's type; its name and namespace, if given, the
/// URL's too (the real server's BadRequest wording).
pub fn check_identity(
    ty: &ResourceType,
    body: &Value,
    namespace: &str,
    name: Option<&str>,
) -> ApiResult<()> {
    if !body.is_object() {
        return Err(ApiError::bad_request(
            "the request body must be a JSON or YAML object",
        ));
    }
    let api_version = body["apiVersion"].as_str().unwrap_or_default();
    let kind = body["kind"].as_str().unwrap_or_default();
    if ty.builtin && !api_version.is_empty() && !kind.is_empty() && kind != ty.kind {
        return Err(ApiError::bad_request(other_kind(ty, api_version, kind)));
    }
    if (!api_version.is_empty() && api_version != ty.api_version())
        || (!kind.is_empty() && kind != ty.kind)
    {
        return Err(ApiError::bad_request(format!(
            "the API version in the data ({api_version}) does not match the expected API version ({})",
            ty.api_version()
        )));
    }
    if let Some(body_ns) = body["metadata"]["namespace"].as_str()
        && ty.namespaced
        && !body_ns.is_empty()
        && body_ns != namespace
    {
        return Err(ApiError::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ));
    }
    if let (Some(url_name), Some(body_name)) = (name, body["metadata"]["name"].as_str())
        && !body_name.is_empty()
        && body_name != url_name
    {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({body_name}) does not match the name on the URL ({url_name})"
        )));
    }
    Ok(())
}

/// Why a built-in kind's body naming another kind cannot be decoded, as the real decoder says:
/// a kind the scheme knows has no conversion to the URL's kind; any other is not registered.
fn other_kind(ty: &ResourceType, api_version: &str, kind: &str) -> String {
    let version = api_version.rsplit('/').next().unwrap_or(api_version);
    let why = if crate::proto::can_encode(api_version, kind) {
        // The internal type's package: the group's first word (`core` for the core group).
        let internal = match ty.group.split('.').next() {
            Some("") | None => "core",
            Some(group) => group,
        };
        format!(
            "converting ({version}.{kind}) to ({internal}.{}): unknown conversion",
            ty.kind
        )
    } else {
        format!(
            "no kind \"{kind}\" is registered for version \"{api_version}\" in scheme \"pkg/runtime/scheme.go:111\""
        )
    };
    format!(
        "{kind} in version \"{version}\" cannot be handled as a {}: {why}",
        ty.kind
    )
}

/// A write to one part of an object ignores the other: `status` on the main resource of a type
/// with a status subresource; everything but `status` on `/status`.
pub fn strip_other_part(ty: &ResourceType, part: Part, body: &mut Value) {
    if part != Part::Status
        && ty.status_subresource
        && let Some(o) = body.as_object_mut()
    {
        o.remove("status");
    }
}

/// A new namespaced object needs its namespace to exist and not be terminating. Checked before
/// taking the store's write lock (the store's lock does not re-enter).
pub fn check_namespace(
    store: &Store,
    ty: &ResourceType,
    namespace: &str,
    name: &str,
) -> ApiResult<()> {
    if !ty.namespaced {
        return Ok(());
    }
    let namespaces = &crate::kinds::NAMESPACE;
    match store.get(&Key::new(namespaces, "", namespace)) {
        None => Err(ApiError::not_found(namespaces, namespace)),
        Some(ns) if objects::is_deleting(&ns) => Err(ApiError::forbidden_on(
            ty,
            name,
            &format!(
                "unable to create new content in namespace {namespace} because it is being terminated"
            ),
        )),
        Some(_) => Ok(()),
    }
}

/// Builds the object to store from the client's `new` and the stored `old`. Runs under the
/// store's write lock: it must not read the store.
pub fn prepare_write(
    clock: &Clock,
    target: &Target,
    old: Option<&Value>,
    mut new: Value,
) -> ApiResult<Value> {
    let ty = target.ty;
    if let Some(o) = new.as_object_mut() {
        o.insert("apiVersion".into(), json!(ty.api_version()));
        o.insert("kind".into(), json!(ty.kind));
    }
    let meta = objects::metadata_mut(&mut new);
    meta.insert("name".into(), json!(target.name));
    if ty.namespaced {
        meta.insert("namespace".into(), json!(target.namespace));
    } else {
        meta.remove("namespace");
    }
    match old {
        Some(old) => {
            if target.part != Part::Status || ty.builtin {
                super::validate::check_uid(ty, target.name, &new, old)?;
            }
            carry_over(ty, target.part, old, &mut new);
            if (ty.group, ty.kind) == ("", "Service") && target.part != Part::Status {
                super::service::normalize_cluster_ips(old, &mut new);
                super::service::keep_allocated(old, &mut new);
            }
            // DefaultTolerationSeconds admits updates too: a Pod always tolerates an
            // unready or unreachable node for a while.
            if (ty.group, ty.kind) == ("", "Pod")
                && target.part == Part::Main
                && new["spec"].is_object()
            {
                super::admission::default_tolerations(&mut new["spec"]);
            }
        }
        None => first_write(clock, target, &mut new),
    }
    defaults::apply(ty, &mut new);
    // What the real server stores is its Go struct encoded back: omitempty's empties dropped,
    // fields without it written.
    crate::proto::go_json(&mut new);
    bump_generation(ty, old, &mut new);
    super::validate::validate(target, old, &new)?;
    Ok(new)
}

/// Fields the server owns are kept from the stored object whatever the client sent.
fn carry_over(ty: &ResourceType, part: Part, old: &Value, new: &mut Value) {
    match part {
        Part::Status => {
            // /status changes status and, on a built-in kind, metadata (the Deployment
            // controller writes its revision annotation there); the rest stays as stored. A
            // custom resource's status write changes its status only.
            let status = new.get("status").cloned();
            let meta = new.get("metadata").cloned();
            *new = old.clone();
            match status {
                Some(s) => new["status"] = s,
                None => {
                    if let Some(o) = new.as_object_mut() {
                        o.remove("status");
                    }
                }
            }
            if ty.builtin
                && let Some(meta) = meta.filter(Value::is_object)
            {
                new["metadata"] = meta;
                // What each kind's status strategy resets (`PrepareForUpdate`).
                let kept: &[&str] = match ty.kind {
                    "Deployment" => &["labels"],
                    "Pod" => &["ownerReferences"],
                    _ => &[],
                };
                for field in kept {
                    let meta = objects::metadata_mut(new);
                    match old["metadata"].get(*field) {
                        Some(v) => meta.insert((*field).into(), v.clone()),
                        None => meta.remove(*field),
                    };
                }
            }
        }
        Part::Main | Part::Scale if ty.status_subresource => match old.get("status") {
            Some(s) => new["status"] = s.clone(),
            None => {
                if let Some(o) = new.as_object_mut() {
                    o.remove("status");
                }
            }
        },
        Part::Main | Part::Scale => {}
    }
    let old_meta = &old["metadata"];
    let meta = objects::metadata_mut(new);
    for field in [
        "uid",
        "creationTimestamp",
        "generation",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
    ] {
        match old_meta.get(field) {
            Some(v) => meta.insert(field.into(), v.clone()),
            None => meta.remove(field),
        };
    }
    meta.insert(
        "resourceVersion".into(),
        old_meta["resourceVersion"].clone(),
    );
    if meta.get("managedFields").is_none()
        && let Some(mf) = old_meta.get("managedFields")
    {
        meta.insert("managedFields".into(), mf.clone());
    }
}

/// A new object: server-set metadata and initial status.
fn first_write(clock: &Clock, target: &Target, new: &mut Value) {
    let ty = target.ty;
    let meta = objects::metadata_mut(new);
    for field in [
        "resourceVersion",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "managedFields",
        "selfLink",
    ] {
        meta.remove(field);
    }
    meta.insert("uid".into(), json!(objects::new_uid()));
    meta.insert("creationTimestamp".into(), json!(clock.now_rfc3339()));
    if has_generation(ty) {
        meta.insert("generation".into(), json!(1));
    } else {
        meta.remove("generation");
    }
    if ty.status_subresource && ty.builtin {
        new["status"] = initial_status(ty);
    } else if ty.status_subresource
        && let Some(o) = new.as_object_mut()
    {
        // A custom resource's status is written through /status only: a create drops it.
        o.remove("status");
    }
    match (ty.group, ty.kind) {
        ("batch", "Job") => defaults::job_selector(new),
        // Set once on create (not a default): the namespace controller releases it on deletion.
        ("", "Namespace") => new["spec"]["finalizers"] = json!(["kubernetes"]),
        _ => {}
    }
}

fn initial_status(ty: &ResourceType) -> Value {
    match ty.kind {
        "Namespace" => json!({"phase": "Active"}),
        "Pod" => json!({"phase": "Pending", "qosClass": "BestEffort"}),
        "Service" | "Ingress" => json!({"loadBalancer": {}}),
        "PersistentVolumeClaim" | "PersistentVolume" => json!({"phase": "Pending"}),
        _ => json!({}),
    }
}

/// Kinds whose `metadata.generation` counts spec changes.
fn has_generation(ty: &ResourceType) -> bool {
    !ty.builtin
        || matches!(
            ty.kind,
            "Deployment"
                | "ReplicaSet"
                | "DaemonSet"
                | "StatefulSet"
                | "ReplicationController"
                | "Job"
                | "CronJob"
                | "Ingress"
                | "Pod"
                | "CustomResourceDefinition"
        )
}

/// `generation` goes up by one when the desired state changes: for built-in kinds and CRDs with
/// a status subresource, everything outside metadata and status; for a custom resource without
/// one (Argo CD's Application), everything outside metadata — so status writes count too.
fn bump_generation(ty: &ResourceType, old: Option<&Value>, new: &mut Value) {
    let Some(old) = old else { return };
    if !has_generation(ty) {
        return;
    }
    let counts =
        |k: &str| k != "metadata" && (k != "status" || !ty.status_subresource && !ty.builtin);
    let changed = {
        let (Some(o), Some(n)) = (old.as_object(), new.as_object()) else {
            return;
        };
        o.iter()
            .filter(|(k, _)| counts(k))
            .any(|(k, v)| n.get(k) != Some(v))
            || n.iter()
                .filter(|(k, _)| counts(k))
                .any(|(k, _)| !o.contains_key(k))
    };
    if changed {
        let g = old["metadata"]["generation"].as_i64().unwrap_or(0) + 1;
        objects::metadata_mut(new).insert("generation".into(), json!(g));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_of_another_kind_is_refused_in_the_decoders_words() {
        let cm = &crate::kinds::CONFIG_MAP;
        let said = |body: Value| check_identity(cm, &body, "ns", None).unwrap_err().message;
        assert_eq!(
            said(json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "k"}})),
            "Secret in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion"
        );
        assert_eq!(
            said(json!({"apiVersion": "apps/v1", "kind": "Deployment"})),
            "Deployment in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Deployment) to (core.ConfigMap): unknown conversion"
        );
        assert_eq!(
            said(json!({"apiVersion": "v1", "kind": "Foo"})),
            "Foo in version \"v1\" cannot be handled as a ConfigMap: no kind \"Foo\" is registered for version \"v1\" in scheme \"pkg/runtime/scheme.go:111\""
        );
        check_identity(cm, &json!({"kind": "ConfigMap"}), "ns", None).unwrap();
    }
}
