//! GET, LIST, POST, PUT, PATCH and DELETE on resources and their `status` / `scale`
//! subresources, with the response forms clients ask for (object, list, `Table`, metadata).

use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};

use super::ctx::Ctx;
use super::negotiate::Form;
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
        return super::metrics::serve(ctx, method);
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
                Ok(ctx.respond(StatusCode::CREATED, &shape(ctx, &obj)))
            }
            _ => Err(ApiError::method_not_allowed(method.as_str(), &what())),
        },
        (Some(name), None) => item(ctx, method, name, Part::Main, raw_body),
        (Some(name), Some("status")) => item(ctx, method, name, Part::Status, raw_body),
        (Some(name), Some("scale")) if rp.ty.scale_subresource => {
            scale(ctx, method, name, raw_body)
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
    let obj = match *method {
        Method::GET => st
            .store
            .get(&crate::store::Key::new(ty, ns, name))
            .ok_or_else(|| ApiError::not_found(ty, name))?,
        Method::PUT => {
            let body = views::to_storage(ty, ctx.decode_object(raw_body, "UpdateOptions")?);
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
        decode_body(raw_body, ctx.content_type)?
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
    Ok(ctx.respond(StatusCode::OK, &ops::scale_of(&obj)))
}

fn delete(ctx: &Ctx, name: &str, raw_body: &[u8]) -> ApiResult<Response> {
    // DeleteOptions come in the request's content type (protobuf from client-go's typed clients).
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
    let opts = DeleteOptions {
        propagation,
        uid: body["preconditions"]["uid"].as_str().map(String::from),
        resource_version: body["preconditions"]["resourceVersion"]
            .as_str()
            .map(String::from),
        dry_run,
    };
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

fn list(ctx: &Ctx) -> ApiResult<Response> {
    let (stored, rv) = ctx.st.store.list(ctx.rp.ty, ctx.rp.namespace.as_deref());
    let ty = ctx.rp.ty;
    // Selectors match what the client sees; a Table is printed from the stored form, as the
    // real server prints every version of a kind with one printer.
    let chosen: Vec<(&Value, Value)> = stored
        .iter()
        .map(|v| (&**v, views::to_view(ty, v)))
        .filter(|(_, o)| ctx.query.labels.matches(o) && ctx.query.fields.matches(o))
        .collect();
    let items: Vec<&Value> = chosen.iter().map(|(_, o)| o).collect();
    let rv = rv.to_string();
    let body = if ctx.output.form == Form::Table {
        let stored: Vec<&Value> = chosen.iter().map(|(s, _)| *s).collect();
        let printed = ty.storage();
        table::table(
            printed.group,
            printed.kind,
            &stored,
            &rv,
            true,
            ctx.st.store.clock.now(),
        )
    } else if ctx.output.form == Form::Metadata {
        json!({
            "kind": "PartialObjectMetadataList",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": {"resourceVersion": rv},
            "items": items.iter().map(|o| metadata_only(o)).collect::<Vec<_>>(),
        })
    } else {
        json!({
            "kind": format!("{}List", ty.kind),
            "apiVersion": ty.api_version(),
            "metadata": {"resourceVersion": rv},
            "items": items,
        })
    };
    Ok(ctx.respond(StatusCode::OK, &body))
}

/// The response form for one stored object.
fn shape(ctx: &Ctx, obj: &Value) -> Value {
    let ty = ctx.rp.ty.storage();
    if ctx.output.form == Form::Table {
        let rv = obj["metadata"]["resourceVersion"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        table::table(
            ty.group,
            ty.kind,
            &[obj],
            &rv,
            true,
            ctx.st.store.clock.now(),
        )
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
    let body = decode_body(raw_body, ctx.content_type)?;
    let current = st
        .store
        .get(&crate::store::Key::new(ty, ns, name))
        .ok_or_else(|| ApiError::not_found(ty, name))?;
    let seen = views::to_view(ty, &current);
    // The patched view carries the resourceVersion it was made from: a write in between is a
    // conflict, not a lost update.
    let patched = crate::patch::apply_patch(kind, ty, &seen, &body)?;
    ops::replace(
        &st.store,
        &target,
        views::to_storage(ty, patched),
        &ctx.actor(),
    )
}

pub fn metadata_only(obj: &Value) -> Value {
    json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": obj["metadata"]})
}

fn patch_kind(content_type: &str, builtin: bool) -> ApiResult<PatchKind> {
    PatchKind::from_content_type(content_type)
        .ok_or_else(|| ApiError::unsupported_media_type(accepted(builtin)))
}
