//! The one write path of the embedded API server. HTTP handlers and the simulated controllers
//! both change objects only through these functions, so identity, status handling, defaults,
//! `generation`, finalizers and managedFields behave the same whoever writes.

mod admission;
mod bind;
mod checks;
mod delete;
mod limit_ranger;
mod prepare;
pub mod quota;
mod scale;
pub mod service;
mod validate;

use std::sync::Arc;

use serde_json::Value;

pub use admission::{CLAIM_PROTECTION, VOLUME_PROTECTION};
pub use bind::bind;
pub use delete::{DeleteOptions, Deleted, Propagation, delete};
pub use scale::{ScaleWrite, scale_for, write_scale};
pub use validate::{check_view_update, pod_warnings};

use super::fields::{self, Writer};
use super::kinds::ResourceType;
use super::objects;
use super::patch::{self, PatchKind};
use super::status::{ApiError, ApiResult};
use super::store::{Change, Key, Store};
use prepare::prepare_write;

/// Who writes, and how.
#[derive(Debug, Clone)]
pub struct Actor<'a> {
    /// The field manager recorded in managedFields.
    pub manager: &'a str,
    /// `dryRun=All`: do everything but store.
    pub dry_run: bool,
}

impl<'a> Actor<'a> {
    pub fn new(manager: &'a str) -> Actor<'a> {
        Actor {
            manager,
            dry_run: false,
        }
    }
}

/// Which part of the object a write is aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Main,
    Status,
    /// The `/scale` subresource: changes `spec.replicas` of the main object.
    Scale,
}

impl Part {
    fn subresource(self) -> Option<&'static str> {
        match self {
            Part::Main => None,
            Part::Status => Some("status"),
            Part::Scale => Some("scale"),
        }
    }
}

/// Where a write lands: the object, and which part of it.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub ty: &'static ResourceType,
    pub namespace: &'a str,
    pub name: &'a str,
    pub part: Part,
}

/// One PATCH: where it lands, how the body is read, and the body.
#[derive(Debug, Clone, Copy)]
pub struct PatchRequest<'a> {
    pub target: Target<'a>,
    pub kind: PatchKind,
    pub body: &'a Value,
    /// Server-side apply only: take over the fields other managers own instead of conflicting.
    pub force: bool,
}

/// POST: creates `body` in `namespace`.
pub fn create(
    store: &Store,
    ty: &'static ResourceType,
    namespace: &str,
    mut body: Value,
    actor: &Actor,
) -> ApiResult<Arc<Value>> {
    prepare::check_identity(ty, &body, namespace, None)?;
    let allocation = match (ty.group, ty.kind) {
        ("", "Service") => Some(service::allocated(store, ty, &body)?),
        _ => None,
    };
    let limit_items = if (ty.group, ty.kind) == ("", "Pod") {
        limit_ranger::container_items(store, namespace)
    } else {
        Vec::new()
    };
    let default_class = if (ty.group, ty.kind) == ("", "PersistentVolumeClaim") {
        admission::default_class(store)
    } else {
        None
    };
    let given = objects::name(&body).to_string();
    let generate = body["metadata"]["generateName"].as_str().map(String::from);
    // generateName: retry a few times on the (unlikely) collision, as the real server does not.
    for _ in 0..8 {
        let name = match (&given, &generate) {
            (n, _) if !n.is_empty() => n.clone(),
            (_, Some(prefix)) => format!("{prefix}{}", objects::random_suffix(5)),
            _ => {
                return Err(ApiError::invalid_fields(
                    ty,
                    "",
                    &[crate::status::FieldError::required(
                        "metadata.name",
                        "name or generateName is required",
                    )],
                ));
            }
        };
        objects::metadata_mut(&mut body).insert("name".into(), Value::String(name.clone()));
        prepare::check_namespace(store, ty, namespace, &name)?;
        if !actor.dry_run {
            quota::admit_create(store, ty, namespace, &name)?;
        }
        let key = Key::new(ty, namespace, &name);
        let result = commit(store, &key, actor, |old| {
            if old.is_some() {
                return Err(ApiError::already_exists(ty, &name));
            }
            let target = Target {
                ty,
                namespace,
                name: &name,
                part: Part::Main,
            };
            let mut entries = Vec::new();
            let new = prepare_write(&store.clock, &target, None, body.clone())?;
            fields::record_update(
                &mut entries,
                None,
                &new,
                &writer(ty, actor, Part::Main, &now(store)),
            );
            let mut new = new;
            if let Some(allocated) = &allocation {
                service::keep_allocated(allocated, &mut new);
            }
            match (ty.group, ty.kind) {
                ("", "Pod") => {
                    admission::admit_pod(&mut new);
                    limit_ranger::default_pod(&limit_items, &mut new);
                }
                ("", "PersistentVolumeClaim") => {
                    admission::admit_claim(&mut new, default_class.as_deref());
                }
                ("", "PersistentVolume") => admission::admit_volume(&mut new),
                _ => {}
            }
            Ok(with_entries(new, &entries))
        });
        match result {
            Err(e) if e.reason == "AlreadyExists" && given.is_empty() => continue,
            other => return other,
        }
    }
    Err(ApiError::internal(
        "could not generate a unique name; try again",
    ))
}

/// PUT: replaces the object (or its status).
pub fn replace(
    store: &Store,
    target: &Target,
    body: Value,
    actor: &Actor,
) -> ApiResult<Arc<Value>> {
    let &Target {
        ty,
        namespace,
        name,
        ..
    } = target;
    prepare::check_identity(ty, &body, namespace, Some(name))?;
    let key = Key::new(ty, namespace, name);
    commit(store, &key, actor, |old| {
        let old = old.ok_or_else(|| ApiError::not_found(ty, name))?;
        if let Some(rv) = body["metadata"]["resourceVersion"].as_str()
            && rv
                != old["metadata"]["resourceVersion"]
                    .as_str()
                    .unwrap_or_default()
        {
            return Err(ApiError::stale(ty, name));
        }
        update_with(store, target, old, body, actor)
    })
}

/// PATCH (json, merge, strategic, or server-side apply).
pub fn patch(store: &Store, request: &PatchRequest, actor: &Actor) -> ApiResult<Arc<Value>> {
    patch_checked(store, request, actor, &Ok)
}

/// PATCH whose patched object (json, merge and strategic patches) goes through `check` before
/// it is stored: the API front's field validation, which may refuse it or drop fields.
pub fn patch_checked(
    store: &Store,
    request: &PatchRequest,
    actor: &Actor,
    check: &dyn Fn(Value) -> ApiResult<Value>,
) -> ApiResult<Arc<Value>> {
    let PatchRequest {
        target,
        kind,
        body,
        force,
    } = *request;
    if kind == PatchKind::Apply {
        return apply(store, &target, body, force, actor);
    }
    let Target {
        ty,
        namespace,
        name,
        ..
    } = target;
    let key = Key::new(ty, namespace, name);
    commit(store, &key, actor, |old| {
        let old = old.ok_or_else(|| ApiError::not_found(ty, name))?;
        let patched = check(patch::apply_patch(kind, ty, old, body)?)?;
        // A patch may not rename or move the object: the patched name and namespace must
        // still be the URL's.
        prepare::check_identity(ty, &patched, namespace, Some(name))?;
        if let Some(rv) = patched["metadata"]["resourceVersion"].as_str()
            && rv
                != old["metadata"]["resourceVersion"]
                    .as_str()
                    .unwrap_or_default()
        {
            return Err(ApiError::stale(ty, name));
        }
        update_with(store, &target, old, patched, actor)
    })
}

/// A merge patch of the object at `key`, written as `manager` — how the controllers change
/// what they own.
pub fn merge(
    store: &Store,
    key: &Key,
    patch: &Value,
    part: Part,
    manager: &str,
) -> ApiResult<Arc<Value>> {
    let request = PatchRequest {
        target: Target {
            ty: key.ty(),
            namespace: &key.namespace,
            name: &key.name,
            part,
        },
        kind: PatchKind::Merge,
        body: patch,
        force: false,
    };
    self::patch(store, &request, &Actor::new(manager))
}

/// Server-side apply: merge `config` as `actor.manager`'s intent, or create from it.
fn apply(
    store: &Store,
    target: &Target,
    config: &Value,
    force: bool,
    actor: &Actor,
) -> ApiResult<Arc<Value>> {
    let &Target {
        ty,
        namespace,
        name,
        part,
    } = target;
    prepare::check_identity(ty, config, namespace, Some(name))?;
    let mut config = config.clone();
    prepare::strip_other_part(ty, part, &mut config);
    let key = Key::new(ty, namespace, name);
    let mut allocation = None;
    let mut default_class = None;
    if store.get(&key).is_none() {
        prepare::check_namespace(store, ty, namespace, name)?;
        if (ty.group, ty.kind) == ("", "Service") {
            allocation = Some(service::allocated(store, ty, &config)?);
        }
        if (ty.group, ty.kind) == ("", "PersistentVolumeClaim") {
            default_class = admission::default_class(store);
        }
    }
    commit(store, &key, actor, |old| {
        let time = now(store);
        let w = writer(ty, actor, part, &time);
        let entries = old.map(fields::read_entries).unwrap_or_default();
        let (merged, entries) = fields::server_side_apply(old, &entries, &config, &w, force)
            .map_err(|conflicts| {
                let causes = conflicts
                    .iter()
                    .map(|c| serde_json::json!({"reason": "FieldManagerConflict", "message": format!("conflict with \"{}\"", c.manager), "field": c.path}))
                    .collect();
                ApiError::apply_conflict(ty, name, fields::conflict_message(&conflicts), causes)
            })?;
        let mut new = prepare_write(&store.clock, target, old, merged)?;
        if let (None, Some(allocated)) = (old, &allocation) {
            service::keep_allocated(allocated, &mut new);
        }
        if old.is_none() {
            match (ty.group, ty.kind) {
                ("", "Pod") => admission::admit_pod(&mut new),
                ("", "PersistentVolumeClaim") => {
                    admission::admit_claim(&mut new, default_class.as_deref());
                }
                ("", "PersistentVolume") => admission::admit_volume(&mut new),
                _ => {}
            }
        }
        Ok(with_entries(new, &entries))
    })
}

/// The shared tail of PUT and non-apply PATCH: prepare the new object and track its fields.
fn update_with(
    store: &Store,
    target: &Target,
    old: &Value,
    new: Value,
    actor: &Actor,
) -> ApiResult<Value> {
    let given = given_entries(old, &new);
    let new = prepare_write(&store.clock, target, Some(old), new)?;
    let mut entries = given.unwrap_or_else(|| fields::read_entries(old));
    fields::record_update(
        &mut entries,
        Some(old),
        &new,
        &writer(target.ty, actor, target.part, &now(store)),
    );
    Ok(with_entries(new, &entries))
}

/// The managedFields a write sets itself, as a real server takes them: a list that differs from
/// the stored one replaces it (kubectl's move of client-side-apply ownership to server-side
/// apply patches `/metadata/managedFields`), `[{}]` clears it, and an absent or empty list
/// keeps what is stored.
fn given_entries(old: &Value, new: &Value) -> Option<Vec<fields::ManagedFieldsEntry>> {
    let given = new["metadata"]["managedFields"].as_array()?;
    if given.is_empty() || Some(given) == old["metadata"]["managedFields"].as_array() {
        return None;
    }
    if given.len() == 1 && given[0].as_object().is_some_and(serde_json::Map::is_empty) {
        return Some(Vec::new());
    }
    Some(fields::read_entries(new))
}

/// Runs `decide` under the store's lock and stores its result, unless this is a dry run. A
/// write that leaves a deleting object with no finalizers completes its deletion.
fn commit(
    store: &Store,
    key: &Key,
    actor: &Actor,
    decide: impl FnOnce(Option<&Value>) -> ApiResult<Value>,
) -> ApiResult<Arc<Value>> {
    let mut dry = None;
    let stored = store.write::<ApiError>(key, |old| {
        let new = decide(old)?;
        if actor.dry_run {
            dry = Some(new);
            return Ok(Change::Keep);
        }
        if objects::is_deleting(&new) && !objects::held_by_finalizers(&new) {
            return Ok(Change::Delete);
        }
        Ok(Change::Put(new))
    })?;
    if let Some(new) = dry {
        return Ok(Arc::new(new));
    }
    stored.ok_or_else(|| ApiError::not_found(key.ty(), &key.name))
}

fn writer<'a>(ty: &ResourceType, actor: &'a Actor, part: Part, time: &'a str) -> Writer<'a> {
    Writer {
        manager: actor.manager,
        api_version: crate::kinds::api_version_of(ty),
        subresource: part.subresource(),
        time,
        builtin: ty.builtin,
    }
}

fn now(store: &Store) -> String {
    store.clock.now_rfc3339()
}

fn with_entries(mut obj: Value, entries: &[fields::ManagedFieldsEntry]) -> Value {
    fields::write_entries(&mut obj, entries);
    obj
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_create_without_a_name_is_refused_as_the_real_server_words_it() {
        let store = Store::in_memory(1.0);
        let body = serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}});
        let e = create(
            &store,
            &crate::kinds::CONFIG_MAP,
            "lab",
            body,
            &Actor::new("t"),
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is required"
        );
        let details = e.details.unwrap();
        assert!(details.get("name").is_none(), "{details}");
        assert_eq!(details["kind"], "ConfigMap");
    }
}
