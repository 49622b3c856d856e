//! GET, LIST, POST, PUT, PATCH and DELETE on resources and their `status` / `scale`
//! subresources, with the response forms clients ask for (object, list, `Table`, metadata).

use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};

use super::ctx::Ctx;
use super::negotiate::Form;
use super::paging;
use crate::body::decode_body;
use crate::ops::{self, DeleteOptions, Deleted, Part, Propagation, ScaleWrite};
use crate::patch::{PatchKind, accepted};
use crate::status::{self, ApiError, ApiResult};
use crate::table;
use crate::validation::{self, PatchCheck};
use crate::views;

/// Serves one request; the warnings it gathered go out as `Warning` headers, on a refusal too.
pub fn serve(ctx: &Ctx, method: &Method, raw_body: &[u8]) -> ApiResult<Response> {
    let mut response = match route(ctx, method, raw_body) {
        Ok(r) => r,
        Err(e) => super::error_in(ctx.output.encoding, &e),
    };
    for warning in ctx.warnings.headers() {
        response
            .headers_mut()
            .append(axum::http::header::WARNING, warning);
    }
    Ok(response)
}

fn route(ctx: &Ctx, method: &Method, raw_body: &[u8]) -> ApiResult<Response> {
    let rp = ctx.rp;
    if rp.ty.computed {
        return if rp.ty.kind == "ComponentStatus" {
            super::components::serve(ctx, method)
        } else {
            super::metrics::serve(ctx, method)
        };
    }
    if rp.ty.create_only {
        return super::auth::serve(ctx, method, raw_body);
    }
    let what = || status::qualified(rp.ty);
    match (&rp.name, rp.subresource.as_deref()) {
        (None, None) => match *method {
            Method::GET => list(ctx),
            Method::POST => {
                if rp.ty.namespaced && rp.namespace.is_none() {
                    return Err(ApiError::bad_request(
                        "a namespaced object must be created in a namespace: POST to /namespaces/{namespace}/...",
                    ));
                }
                let body = views::to_storage(rp.ty, ctx.decode_object(raw_body, "CreateOptions")?);
                let obj = ops::create(
                    &ctx.st.store,
                    rp.ty.storage(),
                    ctx.namespace(),
                    body,
                    &ctx.actor(),
                )?;
                for w in ops::pod_warnings(rp.ty.storage(), &obj, None) {
                    ctx.warnings.add(&w);
                }
                Ok(ctx.respond(StatusCode::CREATED, &shape(ctx, &obj)))
            }
            Method::DELETE => delete_collection(ctx, raw_body),
            _ => Err(ApiError::method_not_allowed(method.as_str(), &what())),
        },
        (Some(name), None) => item(ctx, method, name, Part::Main, raw_body),
        (Some(name), Some("status")) => item(ctx, method, name, Part::Status, raw_body),
        (Some(name), Some("scale")) if rp.ty.scale_subresource => {
            scale(ctx, method, name, raw_body)
        }
        (Some(name), Some("token")) if std::ptr::eq(rp.ty, &crate::kinds::SERVICE_ACCOUNT) => {
            super::token::serve(ctx, method, name, raw_body)
        }
        (Some(name), Some("eviction")) if std::ptr::eq(rp.ty, &crate::kinds::POD) => {
            super::eviction::serve(ctx, method, name, raw_body)
        }
        // Approving or denying writes the request's conditions: its status, and only that.
        (Some(name), Some("approval"))
            if std::ptr::eq(rp.ty, &crate::kinds::CERTIFICATE_SIGNING_REQUEST) =>
        {
            item(ctx, method, name, Part::Status, raw_body)
        }
        _ => Err(ApiError::path_not_found(&format!(
            "{} subresource {:?}",
            what(),
            rp.subresource.as_deref().unwrap_or_default()
        ))),
    }
}

fn item(
    ctx: &Ctx,
    method: &Method,
    name: &str,
    part: Part,
    raw_body: &[u8],
) -> ApiResult<Response> {
    let (st, ty, ns) = (ctx.st, ctx.rp.ty, ctx.namespace());
    let stored_ty = ty.storage();
    if part == Part::Status && !ty.status_subresource {
        return Err(ApiError::path_not_found(&format!(
            "{} has no status subresource",
            status::qualified(ty)
        )));
    }
    // The stored object before a write, for the strategy's warnings on update.
    let before = match *method {
        Method::PUT | Method::PATCH if part == Part::Main => {
            st.store.get(&crate::store::Key::new(stored_ty, ns, name))
        }
        _ => None,
    };
    let obj = match *method {
        Method::GET => st
            .store
            .get(&crate::store::Key::new(ty, ns, name))
            .ok_or_else(|| ApiError::not_found(ty, name))?,
        Method::PUT => {
            let body = views::to_storage(ty, ctx.decode_object(raw_body, "UpdateOptions")?);
            if ty.view_of.is_some()
                && part == Part::Main
                && let Some(current) = st.store.get(&crate::store::Key::new(ty, ns, name))
            {
                ops::check_view_update(ty, name, &body, &current)?;
            }
            ops::replace(
                &st.store,
                &ops::Target {
                    ty: stored_ty,
                    namespace: ns,
                    name,
                    part,
                },
                body,
                &ctx.actor(),
            )?
        }
        Method::PATCH if ty.view_of.is_some() => patch_view(ctx, name, part, raw_body)?,
        Method::PATCH => patch(ctx, name, part, raw_body)?,
        Method::DELETE if part == Part::Main => return delete(ctx, name, raw_body),
        _ => {
            return Err(ApiError::method_not_allowed(
                method.as_str(),
                &status::qualified(ty),
            ));
        }
    };
    if let Some(before) = &before {
        for w in ops::pod_warnings(stored_ty, &obj, Some(before)) {
            ctx.warnings.add(&w);
        }
    }
    Ok(ctx.respond(StatusCode::OK, &shape(ctx, &obj)))
}

fn patch(ctx: &Ctx, name: &str, part: Part, raw_body: &[u8]) -> ApiResult<std::sync::Arc<Value>> {
    let (st, ty, ns) = (ctx.st, ctx.rp.ty, ctx.namespace());
    let kind = patch_kind(ctx.content_type, ctx.rp.ty.builtin)?;
    if kind == PatchKind::Apply && ctx.query.field_manager.is_none() {
        return Err(ApiError {
            code: 422,
            reason: "Invalid",
            message: "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch".into(),
            details: None,
        });
    }
    let directive = ctx.directive("PatchOptions")?;
    let body = if kind == PatchKind::Apply {
        validation::check_apply(ty, raw_body, directive, &ctx.warnings)?
    } else {
        crate::patch::decode(kind, raw_body)?
    };
    let request = ops::PatchRequest {
        target: ops::Target {
            ty,
            namespace: ns,
            name,
            part,
        },
        kind,
        body: &body,
        force: ctx.query.force,
    };
    let check = PatchCheck {
        ty,
        kind,
        directive,
        patch: &body,
        patch_strict: validation::patch_strict_errors(kind, raw_body, directive),
        warnings: &ctx.warnings,
    };
    ops::patch_checked(&st.store, &request, &ctx.actor(), &|patched| {
        check.check(patched)
    })
}

fn scale(ctx: &Ctx, method: &Method, name: &str, raw_body: &[u8]) -> ApiResult<Response> {
    let (st, ty, ns) = (ctx.st, ctx.rp.ty, ctx.namespace());
    let obj = match *method {
        Method::GET => st
            .store
            .get(&crate::store::Key::new(ty, ns, name))
            .ok_or_else(|| ApiError::not_found(ty, name))?,
        Method::PUT => {
            let body = decode_body(raw_body, ctx.content_type)?;
            ops::write_scale(
                &st.store,
                ty,
                ns,
                name,
                ScaleWrite::Replace(&body),
                &ctx.actor(),
            )?
        }
        Method::PATCH => {
            let kind = patch_kind(ctx.content_type, ctx.rp.ty.builtin)?;
            let body = decode_body(raw_body, ctx.content_type)?;
            ops::write_scale(
                &st.store,
                ty,
                ns,
                name,
                ScaleWrite::Patch(kind, &body),
                &ctx.actor(),
            )?
        }
        _ => {
            return Err(ApiError::method_not_allowed(
                method.as_str(),
                "a scale subresource",
            ));
        }
    };
    let scale = ops::scale_for(ty, &obj);
    if ctx.output.form == Form::Table {
        let rv = scale["metadata"]["resourceVersion"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let now = ctx.st.store.clock.now();
        let table = table::table("autoscaling", "Scale", &[&scale], &rv, true, now);
        return Ok(ctx.respond(StatusCode::OK, &table));
    }
    Ok(ctx.respond(StatusCode::OK, &scale))
}

fn delete(ctx: &Ctx, name: &str, raw_body: &[u8]) -> ApiResult<Response> {
    let opts = delete_options(ctx, raw_body)?;
    match ops::delete(
        &ctx.st.store,
        ctx.rp.ty.storage(),
        ctx.namespace(),
        name,
        &opts,
    )? {
        Deleted::Pending(obj) => Ok(ctx.respond(StatusCode::OK, &shape(ctx, &obj))),
        Deleted::Gone(obj) => Ok(ctx.respond(
            StatusCode::OK,
            &status::success(ctx.rp.ty, name, crate::objects::uid(&obj)),
        )),
    }
}

/// The DeleteOptions of a delete: its body (in the request's content type: protobuf from
/// client-go's typed clients), the query's `propagationPolicy` and `dryRun` otherwise.
fn delete_options(ctx: &Ctx, raw_body: &[u8]) -> ApiResult<DeleteOptions> {
    let body = decode_body(raw_body, ctx.content_type)?;
    let policy = body["propagationPolicy"]
        .as_str()
        .map(String::from)
        .or_else(|| ctx.query.propagation.clone());
    let propagation = match policy {
        None => None,
        Some(p) => Some(Propagation::parse(&p).ok_or_else(|| {
            ApiError::bad_request(format!(
                "propagationPolicy {p:?} is not one of Background, Foreground, Orphan"
            ))
        })?),
    };
    let dry_run = ctx.query.dry_run
        || body["dryRun"]
            .as_array()
            .is_some_and(|a| a.iter().any(|v| v == "All"));
    Ok(DeleteOptions {
        propagation,
        uid: body["preconditions"]["uid"].as_str().map(String::from),
        resource_version: body["preconditions"]["resourceVersion"]
            .as_str()
            .map(String::from),
        dry_run,
    })
}

/// DELETE of a collection (`deletecollection`): every object the label and field selectors
/// pick in the namespace is deleted with the request's options, and the answer is the list
/// of them as they were before (the registry's `DeleteCollection`). Namespaces have no such
/// verb, and a namespaced kind's collection across all namespaces is not one either.
fn delete_collection(ctx: &Ctx, raw_body: &[u8]) -> ApiResult<Response> {
    let ty = ctx.rp.ty;
    let cluster_wide_listing = ty.namespaced && ctx.rp.namespace.is_none();
    if (ty.group.is_empty() && ty.kind == "Namespace") || cluster_wide_listing {
        return Err(super::auth::method_not_allowed());
    }
    let fields = ctx
        .query
        .fields
        .for_type(ty)
        .map_err(ApiError::bad_request)?;
    let opts = delete_options(ctx, raw_body)?;
    let (stored, rv) = ctx.st.store.list(ty, ctx.rp.namespace.as_deref());
    let chosen: Vec<(&Value, Value)> = stored
        .iter()
        .map(|v| (&**v, views::to_view(ty, v)))
        .filter(|(s, o)| ctx.query.labels.matches(o) && fields.matches(s))
        .collect();
    for (obj, _) in &chosen {
        let (ns, name) = (crate::objects::namespace(obj), crate::objects::name(obj));
        match ops::delete(&ctx.st.store, ty.storage(), ns, name, &opts) {
            Ok(_) => {}
            Err(e) if e.reason == "NotFound" => {}
            Err(e) => return Err(e),
        }
    }
    let items: Vec<Value> = chosen.into_iter().map(|(_, o)| o).collect();
    let body = json!({
        "kind": list_kind(ty),
        "apiVersion": ty.api_version(),
        "metadata": {"resourceVersion": rv.to_string()},
        "items": items,
    });
    Ok(ctx.respond(StatusCode::OK, &body))
}

/// The objects a list reads, the version they are from, and where a paged list goes on: the
/// newest state, the state a continue token was cut from, or the `Exact` version asked for.
fn listed_state(ctx: &Ctx) -> ApiResult<(Vec<std::sync::Arc<Value>>, u64, Option<String>)> {
    let ty = ctx.rp.ty;
    let (mut stored, mut rv) = ctx.st.store.list(ty, ctx.rp.namespace.as_deref());
    let cont = match &ctx.query.continue_token {
        Some(token) => {
            if ctx
                .query
                .resource_version
                .as_deref()
                .is_some_and(|v| v != "0")
            {
                return Err(ApiError::bad_request(
                    "specifying resource version is not allowed when using continue",
                ));
            }
            let (start, at) = paging::decode(token)
                .map_err(|why| ApiError::bad_request(format!("invalid continue token: {why}")))?;
            // A later page lists the state the first one was cut from.
            stored = ctx
                .st
                .store
                .list_at(ty, ctx.rp.namespace.as_deref(), at)
                .map_err(|_| ApiError::gone(paging::TOO_OLD))?;
            rv = at;
            Some(start)
        }
        None => None,
    };
    // A version the server has not reached yet is a timeout (the real one waits 3 s for it
    // first); `Exact` lists the state at that version.
    let asked = ctx
        .query
        .resource_version
        .as_deref()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|v| *v != 0 && cont.is_none());
    if let Some(asked) = asked {
        if asked > rv {
            return Err(ApiError::too_large_resource_version(asked, rv));
        }
        if ctx.query.resource_version_match.as_deref() == Some("Exact") {
            stored = ctx
                .st
                .store
                .list_at(ty, ctx.rp.namespace.as_deref(), asked)
                .map_err(|_| {
                    ApiError::gone("The resourceVersion for the provided list is too old.")
                })?;
            rv = asked;
        }
    }
    Ok((stored, rv, cont))
}

fn list(ctx: &Ctx) -> ApiResult<Response> {
    let ty = ctx.rp.ty;
    let fields = ctx
        .query
        .fields
        .for_type(ty)
        .map_err(ApiError::bad_request)?;
    let errors = ctx.query.list_option_errors();
    if !errors.is_empty() {
        return Err(ApiError::invalid_list_options(&errors));
    }
    let (stored, rv, cont) = listed_state(ctx)?;
    // Labels match what the client sees, fields the kind's selectable fields; a Table is
    // printed from the stored form, as the real server prints every version of a kind with
    // one printer.
    let mut chosen: Vec<(&Value, Value)> = stored
        .iter()
        .map(|v| (&**v, views::to_view(ty, v)))
        .filter(|(s, o)| ctx.query.labels.matches(o) && fields.matches(s))
        .collect();
    let mut list_meta = serde_json::Map::new();
    list_meta.insert("resourceVersion".into(), json!(rv.to_string()));
    if cont.is_some() || ctx.query.limit.is_some() {
        let selected = !ctx.query.labels.is_empty() || !fields.is_empty();
        let page = paging::cut(
            &mut chosen,
            cont.as_deref(),
            ctx.query.limit,
            ctx.rp.namespace.is_some(),
        );
        if let Some(next) = page {
            list_meta.insert("continue".into(), json!(paging::encode(&next.start, rv)));
            // The storage counts what is left only for a list without selectors.
            if !selected {
                list_meta.insert("remainingItemCount".into(), json!(next.remaining));
            }
        }
    }
    let items: Vec<&Value> = chosen.iter().map(|(_, o)| o).collect();
    let rv = rv.to_string();
    let body = if ctx.output.form == Form::Table {
        let stored: Vec<&Value> = chosen.iter().map(|(s, _)| *s).collect();
        // A custom resource prints with its version's columns; a built-in kind with its
        // storage version's printer.
        let printed = if ty.custom.is_some() {
            ty
        } else {
            ty.storage()
        };
        let mut printed = table::table_of(printed, &stored, &rv, true, ctx.st.store.clock.now());
        printed["metadata"] = Value::Object(list_meta);
        printed
    } else if ctx.output.form == Form::Metadata {
        json!({
            "kind": "PartialObjectMetadataList",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": list_meta,
            "items": items.iter().map(|o| metadata_only(o)).collect::<Vec<_>>(),
        })
    } else {
        json!({
            "kind": list_kind(ty),
            "apiVersion": ty.api_version(),
            "metadata": list_meta,
            "items": items,
        })
    };
    Ok(ctx.respond(StatusCode::OK, &body))
}

/// The response form for one stored object.
fn shape(ctx: &Ctx, obj: &Value) -> Value {
    let ty = if ctx.rp.ty.custom.is_some() {
        ctx.rp.ty
    } else {
        ctx.rp.ty.storage()
    };
    if ctx.output.form == Form::Table {
        let rv = obj["metadata"]["resourceVersion"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        table::table_of(ty, &[obj], &rv, true, ctx.st.store.clock.now())
    } else if ctx.output.form == Form::Metadata {
        metadata_only(obj)
    } else {
        views::to_view(ctx.rp.ty, obj)
    }
}

/// PATCH of a view (`autoscaling/v1` HPA...): the patch applies to the object as this version
/// shows it, and the result is stored back in the storage version. Server-side apply converts
/// the applied configuration instead, so its fields are owned in the storage version.
fn patch_view(
    ctx: &Ctx,
    name: &str,
    part: Part,
    raw_body: &[u8],
) -> ApiResult<std::sync::Arc<Value>> {
    let (st, ty, ns) = (ctx.st, ctx.rp.ty, ctx.namespace());
    let kind = patch_kind(ctx.content_type, ty.builtin)?;
    let target = ops::Target {
        ty: ty.storage(),
        namespace: ns,
        name,
        part,
    };
    if kind == PatchKind::Apply {
        let directive = ctx.directive("PatchOptions")?;
        let body = views::to_storage(
            ty,
            validation::check_apply(ty, raw_body, directive, &ctx.warnings)?,
        );
        let request = ops::PatchRequest {
            target,
            kind,
            body: &body,
            force: ctx.query.force,
        };
        return ops::patch(&st.store, &request, &ctx.actor());
    }
    let body = crate::patch::decode(kind, raw_body)?;
    let current = st
        .store
        .get(&crate::store::Key::new(ty, ns, name))
        .ok_or_else(|| ApiError::not_found(ty, name))?;
    let seen = views::to_view(ty, &current);
    // The patched view carries the resourceVersion it was made from: a write in between is a
    // conflict, not a lost update.
    let patched = views::to_storage(ty, crate::patch::apply_patch(kind, ty, &seen, &body)?);
    if part == Part::Main {
        ops::check_view_update(ty, name, &patched, &current)?;
    }
    ops::replace(&st.store, &target, patched, &ctx.actor())
}

/// A list's kind: `<Kind>List`, or what a CRD names (`spec.names.listKind`).
pub fn list_kind(ty: &crate::kinds::ResourceType) -> String {
    match ty.custom {
        Some(def) if !def.list_kind.is_empty() => def.list_kind.clone(),
        _ => format!("{}List", ty.kind),
    }
}

pub fn metadata_only(obj: &Value) -> Value {
    json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": obj["metadata"]})
}

fn patch_kind(content_type: &str, builtin: bool) -> ApiResult<PatchKind> {
    PatchKind::from_content_type(content_type)
        .ok_or_else(|| ApiError::unsupported_media_type(accepted(builtin)))
}
