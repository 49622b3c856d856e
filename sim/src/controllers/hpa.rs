//! The horizontal pod autoscaler controller (kube-controller-manager's, inside k3s): every 15 s
//! it reads each HPA's target through `/scale`, proposes a replica count from the simulated
//! metrics (`crate::usage`), stabilises and rate-limits it as the default `behavior` does,
//! writes the new count through the `/scale` subresource (so `spec.replicas` of the Deployment
//! moves to manager `k3s`, subresource `scale`, as on k3s), and reports the status and the
//! AbleToScale / ScalingActive / ScalingLimited conditions the real one does.

mod metric;

use std::collections::HashMap;
use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::queue::{Controller, Next};
use super::{Env, MANAGER, events};
use crate::api::selector::LabelSelector;
use crate::kinds::{self, HORIZONTAL_POD_AUTOSCALER as HPA};
use crate::objects;
use crate::ops::{self, Actor, Part, ScaleWrite};
use crate::patch::PatchKind;
use crate::store::{Event, Key};

/// `--horizontal-pod-autoscaler-sync-period`.
const SYNC: Duration = Duration::from_secs(15);
/// `--horizontal-pod-autoscaler-downscale-stabilization`, when `behavior` sets no window.
const DOWNSCALE_WINDOW_SECS: i64 = 300;
const COMPONENT: &str = "horizontal-pod-autoscaler";

/// The controller keeps, per HPA, its recent recommendations (for stabilisation), as the real
/// one does in memory.
#[derive(Default)]
pub struct Autoscalers {
    recommendations: HashMap<Key, Vec<(i64, i64)>>,
}

impl Controller for Autoscalers {
    fn keys_for(&self, _env: &Env, _event: &Event) -> Vec<Key> {
        Vec::new()
    }

    /// A change of the HPA (its creation too) is queued 15 s ahead, and dropped when a pass
    /// is already due sooner (`enqueueHPA`'s fixed-interval rate limiter): so an HPA gets
    /// its first status 15 s after it is created, and one pass per 15 s after that.
    fn later_for(&self, _env: &Env, event: &Event) -> Vec<(Key, Duration)> {
        if std::ptr::eq(event.key.ty(), &HPA) {
            vec![(event.key.clone(), SYNC)]
        } else {
            Vec::new()
        }
    }

    fn all_keys(&self, env: &Env) -> Vec<Key> {
        env.store
            .list(&HPA, None)
            .0
            .iter()
            .map(|o| Key::new(&HPA, crate::objects::namespace(o), crate::objects::name(o)))
            .collect()
    }

    fn reconcile(&mut self, env: &Env, key: &Key) -> Next {
        let Some(hpa) = env.store.get(key) else {
            self.recommendations.remove(key);
            return Next::Done;
        };
        if crate::objects::is_deleting(&hpa) {
            return Next::Done;
        }
        let now = env.store.clock.now();
        let outcome = self.decide(env, key, &hpa, now);
        write_status(env, key, &hpa, outcome, now);
        Next::After(SYNC)
    }
}

/// A condition as (type, status, reason, message).
type Condition = (&'static str, &'static str, &'static str, String);
/// The replicas proposed, by which metric (its condition name), and the metrics' status.
type Proposed = (i64, String, Vec<Value>);
/// Why no replica count was computed: the metrics' status, condition reason and message.
type Unmeasured = (Vec<Value>, &'static str, String);

/// The scale target of one HPA.
struct Target<'a> {
    ty: &'static kinds::ResourceType,
    ns: &'a str,
    name: &'a str,
}

/// Writes the new count through `/scale` as the controller, with its Event; the AbleToScale
/// condition either way.
fn rescale(
    env: &Env,
    hpa: &Value,
    to: &Target,
    current: i64,
    desired: i64,
    metric_name: &str,
) -> Result<Condition, Condition> {
    let reason = if desired > current {
        format!("{metric_name} above target")
    } else {
        "All metrics below target".to_string()
    };
    let write = ScaleWrite::Patch(PatchKind::Merge, &json!({"spec": {"replicas": desired}}));
    if ops::write_scale(
        &env.store,
        to.ty,
        to.ns,
        to.name,
        write,
        &Actor::new(MANAGER),
    )
    .is_err()
    {
        return Err((
            "AbleToScale",
            "False",
            "FailedUpdateScale",
            "the HPA controller was unable to update the target scale".into(),
        ));
    }
    let message = format!("New size: {desired}; reason: {reason}");
    events::record(env, hpa, false, "SuccessfulRescale", &message, COMPONENT);
    Ok((
        "AbleToScale",
        "True",
        "SucceededRescale",
        format!("the HPA controller was able to update the target scale to {desired}"),
    ))
}

/// What one pass decided.
struct Outcome {
    current: i64,
    desired: i64,
    metrics: Vec<Value>,
    conditions: Vec<Condition>,
    rescaled: bool,
}

impl Autoscalers {
    fn decide(&mut self, env: &Env, key: &Key, hpa: &Value, now: Timestamp) -> Outcome {
        let spec = &hpa["spec"];
        let ns = key.namespace.as_str();
        let (target_ty, target) = match find_target(env, hpa, ns) {
            Ok(found) => found,
            Err(outcome) => return outcome,
        };
        let target_name = objects::name(&target).to_string();
        let target_name = target_name.as_str();
        let scale = ops::scale_for(target_ty, &target);
        let current = scale["spec"]["replicas"].as_i64().unwrap_or(0);
        let min = spec["minReplicas"].as_i64().unwrap_or(1);
        let max = spec["maxReplicas"].as_i64().unwrap_or(1);
        let got_scale = (
            "AbleToScale",
            "True",
            "SucceededGetScale",
            "the HPA controller was able to get the target's current scale".to_string(),
        );
        if current == 0 && min != 0 {
            return Outcome {
                current,
                desired: 0,
                metrics: Vec::new(),
                conditions: vec![
                    got_scale,
                    (
                        "ScalingActive",
                        "False",
                        "ScalingDisabled",
                        "scaling is disabled since the replica count of the target is zero".into(),
                    ),
                ],
                rescaled: false,
            };
        }
        let selector = scale["status"]["selector"].as_str().unwrap_or_default();
        let (proposed, metric_name, statuses) =
            match propose_all(env, hpa, ns, selector, current, now) {
                Ok(found) => found,
                Err((statuses, reason, message)) => {
                    return Outcome {
                        current,
                        desired: current,
                        metrics: statuses,
                        conditions: vec![got_scale, ("ScalingActive", "False", reason, message)],
                        rescaled: false,
                    };
                }
            };
        let active = (
            "ScalingActive",
            "True",
            "ValidMetricFound",
            format!(
                "the HPA was able to successfully calculate a replica count from {metric_name}"
            ),
        );
        let (desired, stabilized) = self.stabilize(key, spec, current, proposed, now.as_second());
        let (desired, limited) = limit(current, desired, min, max);
        let rescaled = desired != current;
        let able = if rescaled {
            let to = Target {
                ty: target_ty,
                ns,
                name: target_name,
            };
            match rescale(env, hpa, &to, current, desired, &metric_name) {
                Ok(done) => done,
                Err(failed) => {
                    return Outcome {
                        current,
                        desired: current,
                        metrics: statuses,
                        conditions: vec![failed, active],
                        rescaled: false,
                    };
                }
            }
        } else if stabilized {
            ("AbleToScale", "True", "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation".into())
        } else {
            (
                "AbleToScale",
                "True",
                "ReadyForNewScale",
                "recommended size matches current size".into(),
            )
        };
        Outcome {
            current,
            desired,
            metrics: statuses,
            conditions: vec![able, active, limited],
            rescaled,
        }
    }

    /// The default behavior's stabilisation: scale down to the highest recommendation of the
    /// window (5 minutes unless `behavior.scaleDown` says), scale up at once unless
    /// `behavior.scaleUp` sets a window. Returns the count and whether the window held it up.
    fn stabilize(
        &mut self,
        key: &Key,
        spec: &Value,
        current: i64,
        proposed: i64,
        now: i64,
    ) -> (i64, bool) {
        let window = |dir: &str, default: i64| {
            spec["behavior"][dir]["stabilizationWindowSeconds"]
                .as_i64()
                .unwrap_or(default)
        };
        let (up_window, down_window) = (
            window("scaleUp", 0),
            window("scaleDown", DOWNSCALE_WINDOW_SECS),
        );
        let history = self.recommendations.entry(key.clone()).or_default();
        history.retain(|(at, _)| now - at <= up_window.max(down_window));
        let (mut up, mut down) = (proposed, proposed);
        for (at, r) in history.iter() {
            if now - at <= up_window {
                up = up.min(*r);
            }
            if now - at <= down_window {
                down = down.max(*r);
            }
        }
        history.push((now, proposed));
        let held = current.max(up).min(down);
        (held, held != proposed && held > proposed)
    }
}

/// Each metric's proposal, the highest winning, with the metrics' status entries; or why the
/// replica count could not be computed (the status entries, condition reason and message).
fn propose_all(
    env: &Env,
    hpa: &Value,
    ns: &str,
    selector: &str,
    current: i64,
    now: Timestamp,
) -> Result<Proposed, Unmeasured> {
    let spec = &hpa["spec"];
    let selector = LabelSelector::parse(selector).ok();
    let pods = env.store.list(&kinds::POD, Some(ns)).0;
    let pods: Vec<_> = pods
        .into_iter()
        .filter(|p| selector.as_ref().is_some_and(|s| s.matches(p)))
        .collect();
    let measured = metric::measured(&pods, now.as_second());
    let mut proposal: Option<(i64, String)> = None;
    let mut statuses = Vec::new();
    let mut first_error = None;
    for m in spec["metrics"].as_array().into_iter().flatten() {
        match metric::propose(m, &measured, current) {
            Ok(p) => {
                statuses.push(p.status);
                if proposal.as_ref().is_none_or(|(r, _)| p.replicas > *r) {
                    proposal = Some((p.replicas, p.name));
                }
            }
            Err(e) => {
                statuses.push(json!({"type": ""}));
                first_error.get_or_insert(e);
            }
        }
    }
    if let Some(e) = &first_error {
        let total = statuses.len();
        let invalid = statuses.iter().filter(|s| s["type"] == "").count();
        events::record(env, hpa, true, e.reason, &e.message, COMPONENT);
        events::record(
            env,
            hpa,
            true,
            "FailedComputeMetricsReplicas",
            &format!(
                "invalid metrics ({invalid} invalid out of {total}), first error is: failed to get {} resource metric value: {}",
                first_metric_name(spec),
                e.message
            ),
            COMPONENT,
        );
    }
    match proposal.filter(|_| first_error.is_none()) {
        Some((proposed, name)) => Ok((proposed, name, statuses)),
        None => {
            let message = first_error.map_or_else(String::new, |e| {
                format!(
                    "the HPA was unable to compute the replica count: {}",
                    e.message
                )
            });
            let reason = if message.contains("missing request") || message.contains("no metrics") {
                "FailedGetResourceMetric"
            } else {
                "FailedGetExternalMetric"
            };
            Err((statuses, reason, message))
        }
    }
}

/// The HPA's scale target, or the outcome of a pass that could not get its scale.
fn find_target(
    env: &Env,
    hpa: &Value,
    ns: &str,
) -> Result<(&'static kinds::ResourceType, std::sync::Arc<Value>), Outcome> {
    let spec = &hpa["spec"];
    let target_kind = spec["scaleTargetRef"]["kind"].as_str().unwrap_or_default();
    let target_name = spec["scaleTargetRef"]["name"].as_str().unwrap_or_default();
    let api_version = spec["scaleTargetRef"]["apiVersion"]
        .as_str()
        .unwrap_or_default();
    let target_ty = env
        .store
        .kinds
        .by_kind(api_version, target_kind)
        .filter(|t| t.scale_subresource);
    let target = target_ty.and_then(|t| env.store.get(&Key::new(t, ns, target_name)));
    let (Some(target_ty), Some(target)) = (target_ty, target) else {
        let why = match target_ty {
            Some(t) => format!("{}.{} \"{target_name}\" not found", t.plural, t.group),
            None => format!(
                "no matches for kind \"{target_kind}\" in group \"{}\"",
                kinds::split_api_version(api_version).0
            ),
        };
        let message = format!(
            "the HPA controller was unable to get the target's current scale: {}",
            why.replace(". \"", " \"")
        );
        events::record(env, hpa, true, "FailedGetScale", &why, COMPONENT);
        return Err(Outcome {
            current: hpa["status"]["currentReplicas"].as_i64().unwrap_or(0),
            desired: hpa["status"]["desiredReplicas"].as_i64().unwrap_or(0),
            metrics: Vec::new(),
            conditions: vec![("AbleToScale", "False", "FailedGetScale", message)],
            rescaled: false,
        });
    };
    Ok((target_ty, target))
}

/// Clamps to [min, max] and to the default scale-up rate (4 Pods or 100% per 15 s, whichever
/// is more), with the ScalingLimited condition that says which bound applied.
fn limit(current: i64, desired: i64, min: i64, max: i64) -> (i64, Condition) {
    let rate = (current * 2).max(current + 4);
    let (value, reason, message) = if desired > max && max <= rate {
        (
            max,
            "TooManyReplicas",
            "the desired replica count is more than the maximum replica count",
        )
    } else if desired > rate {
        (
            rate,
            "ScaleUpLimit",
            "the desired replica count is increasing faster than the maximum scale rate",
        )
    } else if desired < min {
        (
            min,
            "TooFewReplicas",
            "the desired replica count is less than the minimum replica count",
        )
    } else {
        return (
            desired,
            (
                "ScalingLimited",
                "False",
                "DesiredWithinRange",
                "the desired count is within the acceptable range".into(),
            ),
        );
    };
    (value, ("ScalingLimited", "True", reason, message.into()))
}

fn first_metric_name(spec: &Value) -> String {
    spec["metrics"][0]["resource"]["name"]
        .as_str()
        .unwrap_or("cpu")
        .to_string()
}

/// Writes the status when it changed; a condition keeps its lastTransitionTime while its
/// status stays the same.
fn write_status(env: &Env, key: &Key, hpa: &Value, outcome: Outcome, now: Timestamp) {
    let old = &hpa["status"];
    let stamp = crate::clock::rfc3339(now);
    let conditions: Vec<Value> = outcome
        .conditions
        .iter()
        .map(|(ty, status, reason, message)| {
            let before = old["conditions"].as_array().into_iter().flatten().find(|c| c["type"] == *ty);
            let since = before.filter(|c| c["status"] == *status).map_or(json!(stamp), |c| c["lastTransitionTime"].clone());
            json!({"type": ty, "status": status, "lastTransitionTime": since, "reason": reason, "message": message})
        })
        .collect();
    let mut status = json!({"currentReplicas": outcome.current, "desiredReplicas": outcome.desired, "conditions": conditions});
    if !outcome.metrics.is_empty() {
        status["currentMetrics"] = json!(outcome.metrics);
    }
    let last_scale = if outcome.rescaled {
        json!(stamp)
    } else {
        old["lastScaleTime"].clone()
    };
    if !last_scale.is_null() {
        status["lastScaleTime"] = last_scale;
    }
    if *old == status {
        return;
    }
    // Fields the new status lacks are removed (a merge patch keeps what it does not name).
    let mut patch = status.clone();
    for gone in ["currentMetrics", "lastScaleTime"] {
        if patch.get(gone).is_none() && old.get(gone).is_some() {
            patch[gone] = Value::Null;
        }
    }
    let _ = ops::merge(
        &env.store,
        key,
        &json!({"status": patch}),
        Part::Status,
        MANAGER,
    );
}
