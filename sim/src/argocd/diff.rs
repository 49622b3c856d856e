//! Argo CD's comparison of desired and live objects (gitops-engine's default, client-side
//! "legacy" diff), `spec.ignoreDifferences`, and the RespectIgnoreDifferences sync option.
//!
//! The order of work follows Argo CD: managedFieldsManagers first (they need both sides),
//! then each side is re-encoded and normalised (creationTimestamp, Secret stringData, ignore
//! rules, and `/status`, which 3.x ignores for every kind), then the live object is patched
//! with the three-way patch `kubectl apply` would compute, and the prediction is compared with
//! live. Unlike a real apply the prediction keeps live's last-applied annotation, so a change
//! Git makes only to ignored fields is no drift. Server-set metadata (uid, resourceVersion,
//! managedFields...) needs no special case: the patch never touches it, so it compares equal.

mod jq;
mod managed;
mod pointer;
mod prepare;

use serde_json::{Map, Value};

use crate::argocd::apply::{self, values_equal};
use crate::glob;

/// One `spec.ignoreDifferences` entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IgnoreRule {
    /// Glob; empty means the core group.
    pub group: String,
    /// Glob; a rule without a kind matches nothing.
    pub kind: String,
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub json_pointers: Vec<String>,
    pub jq_paths: Vec<String>,
    pub managers: Vec<String>,
}

/// The rules of an Application's `spec.ignoreDifferences`; entries that are not objects are
/// skipped, missing fields are empty.
pub fn ignore_rules(spec_ignore_differences: &Value) -> Vec<IgnoreRule> {
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    let list = |v: &Value, k: &str| -> Vec<String> {
        v.get(k)
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    spec_ignore_differences
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter(|entry| entry.is_object())
        .map(|entry| IgnoreRule {
            group: text(entry, "group").unwrap_or_default(),
            kind: text(entry, "kind").unwrap_or_default(),
            name: text(entry, "name").filter(|s| !s.is_empty()),
            namespace: text(entry, "namespace").filter(|s| !s.is_empty()),
            json_pointers: list(entry, "jsonPointers"),
            jq_paths: list(entry, "jqPathExpressions"),
            managers: list(entry, "managedFieldsManagers"),
        })
        .collect()
}

#[cfg(test)]
/// Problems Argo CD would stop on: a jq expression that does not parse makes every comparison
/// of the Application fail (a ComparisonError). Expressions valid in jq but beyond the subset
/// simulated here are reported as unsupported.
pub fn check_rules(rules: &[IgnoreRule]) -> Vec<String> {
    rules
        .iter()
        .flat_map(|r| &r.jq_paths)
        .filter_map(|expr| jq::parse(expr).err().map(|e| format!("{expr}: {e}")))
        .collect()
}

/// The rules that apply to `obj`: group and kind by glob, name and namespace exactly.
pub fn rules_for<'a>(rules: &'a [IgnoreRule], obj: &Value) -> Vec<&'a IgnoreRule> {
    rules.iter().filter(|r| rule_matches(r, obj)).collect()
}

fn rule_matches(rule: &IgnoreRule, obj: &Value) -> bool {
    let meta = |k: &str| {
        obj.pointer(&format!("/metadata/{k}"))
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    glob::matches(&rule.group, group_of(obj))
        && glob::matches(
            &rule.kind,
            obj.get("kind").and_then(Value::as_str).unwrap_or_default(),
        )
        && rule.name.as_deref().is_none_or(|n| n == meta("name"))
        && rule
            .namespace
            .as_deref()
            .is_none_or(|n| n == meta("namespace"))
}

fn group_of(obj: &Value) -> &str {
    let api_version = obj
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    api_version.rsplit_once('/').map_or("", |(group, _)| group)
}

/// Groups whose kinds client-go's scheme knows: Argo CD diffs and patches them with
/// strategic-merge metadata; every other group (CRDs included) is handled as JSON.
pub fn is_builtin_group(group: &str) -> bool {
    group.is_empty()
        || matches!(group, "apps" | "batch" | "autoscaling" | "policy")
        || (group.ends_with(".k8s.io")
            && !matches!(group, "apiextensions.k8s.io" | "apiregistration.k8s.io"))
}

/// Removes the fields `rules` ignore from `obj`: JSON pointers, then jq paths, rule by rule,
/// as Argo CD's ignore normalizer. A path that is missing (or a jq runtime error) changes
/// nothing. Rules that do not match `obj` are skipped. `managedFieldsManagers` need the other
/// side of the comparison, so they are applied by [`normalize_pair`], not here.
pub fn normalize(obj: &Value, rules: &[&IgnoreRule]) -> Value {
    let mut out = obj.clone();
    for rule in rules.iter().filter(|r| rule_matches(r, obj)) {
        for p in &rule.json_pointers {
            pointer::remove(&mut out, p);
        }
        for expr in &rule.jq_paths {
            if let Ok(path) = jq::parse(expr)
                && let Ok(done) = jq::delete(&out, &path)
            {
                out = done;
            }
        }
    }
    out
}

/// Normalises live and desired as Argo CD does before a sync (`diff.Normalize`): trusted
/// managers' differing fields out of both, then the ignore rules and `/status` (ignored for
/// all kinds since 3.0) on each. Returns (live, desired).
pub fn normalize_pair(live: &Value, desired: &Value, rules: &[&IgnoreRule]) -> (Value, Value) {
    let builtin = is_builtin_group(group_of(desired));
    let (live, desired) = without_trusted_managers(live, desired, rules, builtin);
    (ignore_fields(&live, rules), ignore_fields(&desired, rules))
}

fn without_trusted_managers(
    live: &Value,
    desired: &Value,
    rules: &[&IgnoreRule],
    builtin: bool,
) -> (Value, Value) {
    let mut managers: Vec<String> = Vec::new();
    for rule in rules.iter().filter(|r| rule_matches(r, desired)) {
        for m in &rule.managers {
            if !managers.contains(m) {
                managers.push(m.clone());
            }
        }
    }
    if managers.is_empty() {
        return (live.clone(), desired.clone());
    }
    managed::normalize(live, desired, &managers, builtin)
}

/// The ignore rules plus Argo CD 3.x's built-in `*/*` override that ignores `/status`.
fn ignore_fields(obj: &Value, rules: &[&IgnoreRule]) -> Value {
    let mut out = normalize(obj, rules);
    pointer::remove(&mut out, "/status");
    out
}

/// Argo CD's verdict on one resource.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffResult {
    /// Out of sync.
    pub modified: bool,
    /// Live after normalisation (what Argo CD shows as the live state); `null` when missing.
    pub normalized_live: Value,
    /// What live would be after a sync; the normalised desired object when live is missing.
    pub predicted_live: Value,
    /// Argo CD could not compare (a ComparisonError; the resource's status is Unknown), e.g.
    /// both the three-way and the two-way patch failed, or a jq expression does not parse.
    pub error: Option<String>,
}

#[cfg(test)]
/// Whether `live` is out of sync with `desired`; see [`diff_with_defaults`]. No server
/// defaults are filled into the prediction.
pub fn diff(
    desired: &Value,
    live: Option<&Value>,
    rules: &[&IgnoreRule],
    builtin: bool,
) -> DiffResult {
    diff_with_defaults(desired, live, rules, builtin, &|_| {})
}

/// Whether `live` is out of sync with `desired`, as gitops-engine's client-side diff decides.
///
/// With a last-applied annotation on live the diff is three-way: live is patched with what
/// `kubectl apply` would send (fields the last apply set and `desired` dropped are deleted,
/// `desired`'s fields set, live-only fields kept), and `modified` means the prediction differs
/// from live. Without the annotation it is two-way: `desired` stands in for the last apply, so
/// live-only fields never count. For built-in kinds (`builtin`) both prediction and live are
/// passed through `defaults`, the API server's defaulting, as gitops-engine applies the Go
/// scheme's defaults; custom resources are compared with live trimmed to the last-applied
/// shape. Both sides are normalised by `rules` (and `/status`) first. Missing live is
/// modified.
pub fn diff_with_defaults(
    desired: &Value,
    live: Option<&Value>,
    rules: &[&IgnoreRule],
    builtin: bool,
    defaults: &dyn Fn(&mut Value),
) -> DiffResult {
    if let Some(problem) = rules
        .iter()
        .filter(|r| rule_matches(r, desired) || live.is_some_and(|l| rule_matches(r, l)))
        .flat_map(|r| &r.jq_paths)
        .find_map(|expr| jq::parse(expr).err().map(|e| format!("{expr}: {e}")))
    {
        return DiffResult {
            modified: false,
            normalized_live: live.cloned().unwrap_or(Value::Null),
            predicted_live: desired.clone(),
            error: Some(format!("failed to create diff normalizer: {problem}")),
        };
    }
    let prepare = |obj: &Value| {
        let mut out = obj.clone();
        prepare::remarshal(&mut out, builtin);
        prepare::normalize_known(&mut out);
        ignore_fields(&out, rules)
    };
    let Some(live) = live else {
        return DiffResult {
            modified: true,
            normalized_live: Value::Null,
            predicted_live: prepare(desired),
            error: None,
        };
    };
    let (live, desired) = without_trusted_managers(live, desired, rules, builtin);
    let (config, live) = (prepare(&desired), prepare(&live));
    // The last apply, normalised like the others but not re-encoded (as gitops-engine).
    let last_applied = apply::read_last_applied(&live)
        .and_then(|text| serde_json::from_str::<Value>(text).ok())
        .filter(Value::is_object)
        .map(|mut orig| {
            prepare::normalize_known(&mut orig);
            ignore_fields(&orig, rules)
        });
    let three_way = last_applied
        .as_ref()
        .map(|orig| predict(orig, &config, &live, builtin, defaults));
    let outcome = match three_way {
        Some(Ok(done)) => Ok(done),
        // No annotation, or the three-way patch failed: the config stands in for the last apply.
        _ => predict(&config, &config, &live, builtin, defaults),
    };
    match outcome {
        Ok((predicted, normalized_live)) => DiffResult {
            modified: !values_equal(&predicted, &normalized_live),
            normalized_live,
            predicted_live: predicted,
            error: None,
        },
        Err(e) => DiffResult {
            modified: false,
            normalized_live: live,
            predicted_live: config,
            error: Some(e.to_string()),
        },
    }
}

/// gitops-engine's `ThreeWayDiff`: (predicted live, live as compared).
fn predict(
    orig: &Value,
    config: &Value,
    live: &Value,
    builtin: bool,
    defaults: &dyn Fn(&mut Value),
) -> Result<(Value, Value), apply::ApplyError> {
    let orig = prepare::without_namespace(orig);
    let config = prepare::without_namespace(config);
    if builtin {
        let kind = live.get("kind").and_then(Value::as_str);
        let patch_base =
            if matches!(group_of(live), "apps" | "extensions") && kind == Some("StatefulSet") {
                prepare::statefulset_workaround(&orig, live)
            } else {
                live.clone()
            };
        let patch = apply::three_way_patch(&orig, &config, &patch_base, true)?;
        let mut predicted = apply::apply_patch(live, &patch, true)?;
        let mut live = live.clone();
        defaults(&mut predicted);
        defaults(&mut live);
        Ok((predicted, live))
    } else {
        // Live fields the last apply never had are left out of the patch computation.
        let empty = Map::new();
        let trimmed = prepare::remove_map_fields(
            orig.as_object().unwrap_or(&empty),
            live.as_object().unwrap_or(&empty),
        );
        let patch = apply::three_way_patch(&orig, &config, &Value::Object(trimmed), false)?;
        Ok((apply::apply_patch(live, &patch, false)?, live.clone()))
    }
}

/// RespectIgnoreDifferences=true: `desired` with the ignored fields set to their live values
/// (status excluded), as Argo CD patches the target before applying it. Without live (a
/// create) `desired` is used as is, and so it is when the patch cannot be built.
pub fn respect_ignore_differences(
    desired: &Value,
    live: Option<&Value>,
    rules: &[&IgnoreRule],
) -> Value {
    let Some(live) = live else {
        return desired.clone();
    };
    let builtin = is_builtin_group(group_of(desired));
    let (normalized_live, normalized_target) = normalize_pair(live, desired, rules);
    let without_status = |v: &Value| {
        let mut v = v.clone();
        if let Some(obj) = v.as_object_mut() {
            obj.shift_remove("status");
        }
        v
    };
    let (live_np, normalized_live_np) = (without_status(live), without_status(&normalized_live));
    let live_patch = if builtin {
        apply::three_way_patch(&live_np, &live_np, &normalized_live_np, true)
    } else {
        Ok(apply::merge_patch(&normalized_live_np, &live_np))
    };
    let Ok(mut patched) =
        live_patch.and_then(|p| apply::apply_patch(&normalized_target, &p, builtin))
    else {
        return desired.clone();
    };
    if let (Some(p), Some(original), Some(target)) = (
        patched.as_object_mut(),
        desired.as_object(),
        normalized_target.as_object(),
    ) {
        prepare::restore_non_ignored(p, original, target, normalized_live.as_object());
    }
    patched
}

#[cfg(test)]
mod tests;
