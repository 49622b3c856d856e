//! `POST pods/{name}/eviction` (`kubectl drain`): delete a Pod unless that would take its
//! PodDisruptionBudget below what it must keep, as the eviction subresource does. A dry run
//! checks the budget and deletes nothing.

use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};

use super::ctx::Ctx;
use crate::kinds::{POD, POD_DISRUPTION_BUDGET};
use crate::labels::LabelSelector;
use crate::ops::{self, DeleteOptions};
use crate::status::{ApiError, ApiResult};
use crate::store::Key;

pub fn serve(ctx: &Ctx, method: &Method, name: &str, raw_body: &[u8]) -> ApiResult<Response> {
    if *method != Method::POST {
        return Err(super::auth::method_not_allowed());
    }
    let namespace = ctx.namespace();
    let eviction = crate::body::decode_body(raw_body, ctx.content_type)?;
    let body_name = eviction["metadata"]["name"].as_str().unwrap_or_default();
    if !body_name.is_empty() && body_name != name {
        return Err(ApiError::bad_request(format!(
            "name in URL does not match name in Eviction object: {name} vs {body_name}"
        )));
    }
    let options = &eviction["deleteOptions"];
    let dry_run = ctx.query.dry_run
        || options["dryRun"]
            .as_array()
            .is_some_and(|a| a.iter().any(|v| v == "All"));
    let pod = ctx
        .st
        .store
        .get(&Key::new(&POD, namespace, name))
        .ok_or_else(|| ApiError::not_found(&POD, name))?;
    // A Pod that is not running (pending or finished) disrupts nothing: no budget applies.
    let phase = pod["status"]["phase"].as_str().unwrap_or_default();
    if !matches!(phase, "Succeeded" | "Failed" | "Pending") {
        check_budget(ctx, &pod, dry_run)?;
    }
    let opts = DeleteOptions {
        dry_run,
        uid: options["preconditions"]["uid"].as_str().map(String::from),
        resource_version: options["preconditions"]["resourceVersion"]
            .as_str()
            .map(String::from),
        ..Default::default()
    };
    ops::delete(&ctx.st.store, &POD, namespace, name, &opts)?;
    let status = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201});
    Ok(ctx.respond(StatusCode::CREATED, &status))
}

/// The Pod's one budget must allow a disruption; a real eviction then counts it against the
/// budget until the controller sees the Pod gone.
fn check_budget(ctx: &Ctx, pod: &Value, dry_run: bool) -> ApiResult<()> {
    let namespace = crate::objects::namespace(pod);
    let (budgets, _) = ctx.st.store.list(&POD_DISRUPTION_BUDGET, Some(namespace));
    let matching: Vec<&Value> = budgets
        .iter()
        .map(|b| b.as_ref())
        .filter(|b| {
            LabelSelector::from_object(&b["spec"]["selector"])
                .is_ok_and(|s| !s.is_empty() && s.matches(pod))
        })
        .collect();
    let budget = match matching.as_slice() {
        [] => return Ok(()),
        [one] => *one,
        _ => {
            return Err(ApiError::internal(
                "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
            ));
        }
    };
    let status = &budget["status"];
    let observed = status["observedGeneration"].as_i64().unwrap_or(0);
    let generation = budget["metadata"]["generation"].as_i64().unwrap_or(0);
    let allowed = status["disruptionsAllowed"].as_i64().unwrap_or(0);
    if observed < generation || allowed <= 0 {
        let budget_name = crate::objects::name(budget);
        let message = if observed < generation {
            "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget has not been processed by the controller yet".to_string()
        } else {
            format!(
                "The disruption budget {budget_name} needs {} healthy pods and has {} currently",
                status["desiredHealthy"].as_i64().unwrap_or(0),
                status["currentHealthy"].as_i64().unwrap_or(0)
            )
        };
        return Err(ApiError {
            code: 429,
            reason: "TooManyRequests",
            message: "Cannot evict pod as it would violate the pod's disruption budget.".into(),
            details: Some(json!({"causes": [{"reason": "DisruptionBudget", "message": message}]})),
        });
    }
    if dry_run {
        return Ok(());
    }
    let key = Key::new(
        &POD_DISRUPTION_BUDGET,
        namespace,
        crate::objects::name(budget),
    );
    let pod_name = crate::objects::name(pod).to_string();
    let now = ctx.st.store.clock.now_rfc3339();
    ctx.st
        .store
        .write(&key, |old| {
            let Some(old) = old else {
                return Ok(crate::store::Change::Keep);
            };
            let mut new = old.clone();
            new["status"]["disruptionsAllowed"] = json!(allowed - 1);
            crate::objects::map_at(&mut new["status"]["disruptedPods"])
                .insert(pod_name.clone(), json!(now));
            Ok::<_, ApiError>(crate::store::Change::Put(new))
        })
        .map(|_| ())
}
