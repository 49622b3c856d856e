//! `v1 ComponentStatus` (`kubectl get cs`), deprecated since 1.19 and still served: the
//! scheduler, the controller manager and etcd, probed on every read, `get` and `list` only.
//! Here they run in-process with the server, so whenever it answers they are healthy, as the
//! real ones report `ok`. Every answer carries the deprecation warning.

use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};

use super::ctx::Ctx;
use super::negotiate::Form;
use crate::objects;
use crate::status::{ApiError, ApiResult};

/// What the real server's deprecation filter says for this kind.
const DEPRECATED: &str = "v1 ComponentStatus is deprecated in v1.19+";

/// The components the real server probes. It checks them in parallel and lists them as the
/// checks finish, so its order varies; this one is fixed.
const COMPONENTS: [&str; 3] = ["scheduler", "controller-manager", "etcd-0"];

fn status(name: &str) -> Value {
    json!({
        "kind": "ComponentStatus",
        "apiVersion": "v1",
        "metadata": {"name": name},
        "conditions": [{"type": "Healthy", "status": "True", "message": "ok"}],
    })
}

pub fn serve(ctx: &Ctx, method: &Method) -> ApiResult<Response> {
    let ty = ctx.rp.ty;
    ctx.warnings.add(DEPRECATED);
    if *method != Method::GET {
        return Err(ApiError::method_not_allowed(
            method.as_str(),
            &crate::status::qualified(ty),
        ));
    }
    let all: Vec<Value> = COMPONENTS.iter().map(|n| status(n)).collect();
    let chosen: Vec<Value> = match &ctx.rp.name {
        Some(name) => vec![
            all.into_iter()
                .find(|c| objects::name(c) == name)
                .ok_or_else(|| ApiError::not_found_as(ty.singular, name))?,
        ],
        None => all
            .into_iter()
            .filter(|c| ctx.query.labels.matches(c) && ctx.query.fields.matches(c))
            .collect(),
    };
    let body = if ctx.output.form == Form::Table {
        let rows: Vec<&Value> = chosen.iter().collect();
        let now = ctx.st.store.clock.now();
        crate::table::table("", ty.kind, &rows, "", true, now)
    } else if ctx.rp.name.is_some() {
        chosen.into_iter().next().unwrap_or_default()
    } else {
        // The items of the list carry no kind or apiVersion, as the real server writes them.
        let items: Vec<Value> = chosen
            .into_iter()
            .map(|mut c| {
                if let Some(o) = c.as_object_mut() {
                    o.remove("kind");
                    o.remove("apiVersion");
                }
                c
            })
            .collect();
        json!({"kind": "ComponentStatusList", "apiVersion": "v1", "metadata": {}, "items": items})
    };
    Ok(ctx.respond(StatusCode::OK, &body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_component_is_healthy_and_ok() {
        for name in COMPONENTS {
            let c = status(name);
            assert_eq!(c["conditions"][0]["status"], "True");
            assert_eq!(c["conditions"][0]["message"], "ok");
            assert_eq!(objects::name(&c), name);
        }
    }
}
