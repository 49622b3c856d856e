//! Workloads: what `apps/validation` and `batch/validation` check of a Deployment,
//! ReplicaSet, DaemonSet, StatefulSet, Job and CronJob, and `core/validation` of a
//! ReplicationController and a Pod — the selector against the template's labels on every write,
//! and the immutable parts on update.

use serde_json::{Map, Value};

use super::{immutable, same, selector_shown, shown, without};
use crate::kinds::ResourceType;
use crate::labels::LabelSelector;
use crate::status::{BadValue, FieldError};

const MISMATCH: &str = "`selector` does not match template `labels`";

pub fn on_create(ty: &ResourceType, new: &Value) -> Vec<FieldError> {
    spec_errors(ty, new)
}

pub fn on_update(ty: &ResourceType, new: &Value, old: &Value) -> Vec<FieldError> {
    let (spec, old_spec) = (&new["spec"], &old["spec"]);
    let mut errors = Vec::new();
    match ty.kind {
        // ValidateDeploymentUpdate / ValidateReplicaSetUpdate: the spec, then the selector.
        "Deployment" | "ReplicaSet" => {
            errors.extend(spec_errors(ty, new));
            let (sel, old_sel) = (&spec["selector"], &old_spec["selector"]);
            immutable(&mut errors, "spec.selector", sel, old_sel, selector_shown);
        }
        // ValidateDaemonSetUpdate: the selector (ValidateDaemonSetSpecUpdate), then the spec.
        "DaemonSet" => {
            let (sel, old_sel) = (&spec["selector"], &old_spec["selector"]);
            immutable(&mut errors, "spec.selector", sel, old_sel, selector_shown);
            errors.extend(spec_errors(ty, new));
        }
        "StatefulSet" => {
            errors.extend(spec_errors(ty, new));
            let mutable = [
                "replicas",
                "ordinals",
                "template",
                "updateStrategy",
                "revisionHistoryLimit",
                "persistentVolumeClaimRetentionPolicy",
                "minReadySeconds",
            ];
            if !same(&without(spec, &mutable), &without(old_spec, &mutable)) {
                errors.push(FieldError::forbidden(
                    "spec",
                    "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
                ));
            }
        }
        "Job" => errors.extend(job_update(new, old)),
        // RC selectors and CronJobs have no immutable fields.
        _ => errors.extend(spec_errors(ty, new)),
    }
    errors
}

/// The kind's spec validation, as create and update both run it.
fn spec_errors(ty: &ResourceType, obj: &Value) -> Vec<FieldError> {
    let spec = &obj["spec"];
    match (ty.group, ty.kind) {
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet") => {
            let kind = ty.kind.to_lowercase();
            let kind = if kind == "replicaset" {
                // ValidateReplicaSetSpec borrows the Deployment's message.
                "deployment".to_string()
            } else {
                kind
            };
            let mut errors = Vec::new();
            let sel = &spec["selector"];
            if sel.is_null() {
                errors.push(FieldError::required("spec.selector", ""));
            } else if empty_selector(sel) {
                errors.push(FieldError::invalid(
                    "spec.selector",
                    selector_shown(sel),
                    &format!("empty selector is invalid for {kind}"),
                ));
            }
            match LabelSelector::from_object(sel) {
                Err(_) => {
                    let why = if ty.kind == "StatefulSet" {
                        ""
                    } else {
                        "invalid label selector"
                    };
                    errors.push(FieldError::invalid(
                        "spec.selector",
                        selector_shown(sel),
                        why,
                    ));
                }
                Ok(selector) => {
                    errors.extend(template_errors(&selector, &spec["template"], true));
                    errors.extend(restart_always(&spec["template"]));
                }
            }
            errors
        }
        ("apps", "DaemonSet") => {
            let mut errors = Vec::new();
            let sel = &spec["selector"];
            if let Ok(selector) = LabelSelector::from_object(sel)
                && !selector.matches_labels(&spec["template"]["metadata"]["labels"])
            {
                errors.push(mismatch(&spec["template"]));
            }
            if !sel.is_null() && empty_selector(sel) {
                errors.push(FieldError::invalid(
                    "spec.selector",
                    selector_shown(sel),
                    "empty selector is invalid for daemonset",
                ));
            }
            errors.extend(containers_required(
                &spec["template"]["spec"],
                "spec.template.spec.containers",
            ));
            errors.extend(restart_always(&spec["template"]));
            errors
        }
        ("", "ReplicationController") => {
            let mut errors = Vec::new();
            let sel = spec["selector"]
                .as_object()
                .filter(|m| !m.is_empty())
                .cloned();
            if sel.is_none() {
                errors.push(FieldError::required("spec.selector", ""));
            }
            let selector = match sel {
                Some(m) => LabelSelector::from_object(&serde_json::json!({"matchLabels": m}))
                    .unwrap_or_default(),
                None => LabelSelector::default(),
            };
            errors.extend(template_errors(&selector, &spec["template"], true));
            errors.extend(restart_always(&spec["template"]));
            errors
        }
        ("batch", "Job") => validate_job(obj, true),
        ("batch", "CronJob") => {
            let mut errors = Vec::new();
            if spec["schedule"].as_str().unwrap_or_default().is_empty() {
                errors.push(FieldError::required("spec.schedule", ""));
            }
            errors.extend(containers_required(
                &spec["jobTemplate"]["spec"]["template"]["spec"],
                "spec.jobTemplate.spec.template.spec.containers",
            ));
            errors
        }
        ("", "Pod") => containers_required(spec, "spec.containers"),
        _ => Vec::new(),
    }
}

/// `ValidateJobSpec`: the template's pod spec and restart policy, then the selector, and the
/// selector against the template's labels.
fn job_spec(spec: &Value) -> Vec<FieldError> {
    let mut errors =
        containers_required(&spec["template"]["spec"], "spec.template.spec.containers");
    let policy = spec["template"]["spec"]["restartPolicy"]
        .as_str()
        .unwrap_or_default();
    let field = "spec.template.spec.restartPolicy";
    match policy {
        // Defaulted to Always when unset, which a Job does not allow.
        "" | "Always" => errors.push(FieldError::required(
            field,
            "valid values: \"OnFailure\", \"Never\"",
        )),
        "OnFailure" | "Never" => {}
        other => errors.push(FieldError::not_supported(
            field,
            BadValue::text(other),
            &["OnFailure", "Never"],
        )),
    }
    let sel = &spec["selector"];
    if sel.is_null() {
        errors.push(FieldError::required("spec.selector", ""));
    }
    if let Ok(selector) = LabelSelector::from_object(sel)
        && !selector.matches_labels(&spec["template"]["metadata"]["labels"])
    {
        errors.push(mismatch(&spec["template"]));
    }
    errors
}

/// `ValidateJob`: the generated selector, then the spec.
fn validate_job(job: &Value, prefixed_labels: bool) -> Vec<FieldError> {
    let mut errors = generated_selector(job, prefixed_labels);
    errors.extend(job_spec(&job["spec"]));
    errors
}

/// `validateGeneratedSelector`: unless `manualSelector` is set, the template carries the
/// labels the server generated from the Job's uid and name, and the selector selects them.
/// `prefixed_labels`: the `batch.kubernetes.io/` ones too (always on create; on update only
/// if the stored template has them).
fn generated_selector(job: &Value, prefixed_labels: bool) -> Vec<FieldError> {
    let spec = &job["spec"];
    let mut errors = Vec::new();
    if spec["manualSelector"] == true || spec["selector"].is_null() {
        return errors;
    }
    let uid = job["metadata"]["uid"].as_str().unwrap_or_default();
    let name = job["metadata"]["name"].as_str().unwrap_or_default();
    if uid.is_empty() {
        errors.push(FieldError::required("metadata.uid", ""));
    }
    let labels = &spec["template"]["metadata"]["labels"];
    let mut expected = vec![("controller-uid", uid), ("job-name", name)];
    if prefixed_labels {
        expected.extend([
            ("batch.kubernetes.io/controller-uid", uid),
            ("batch.kubernetes.io/job-name", name),
        ]);
    }
    // ValidateHasLabel, in the order the Go code checks them.
    for (key, want) in &expected {
        let field = format!("spec.template.metadata.labels[{key}]");
        match labels[*key].as_str() {
            None => errors.push(FieldError::required(&field, want)),
            Some(have) if have != *want => errors.push(FieldError::invalid(
                &field,
                shown(labels),
                &format!("must be '{want}'"),
            )),
            Some(_) => {}
        }
    }
    let expected_labels: Map<String, Value> = expected
        .iter()
        .map(|(k, v)| ((*k).to_string(), Value::from(*v)))
        .collect();
    if let Ok(selector) = LabelSelector::from_object(&spec["selector"])
        && !selector.matches_labels(&Value::Object(expected_labels))
    {
        errors.push(FieldError::invalid(
            "spec.selector",
            selector_shown(&spec["selector"]),
            "`selector` not auto-generated",
        ));
    }
    errors
}

/// `ValidateJob(new)` followed by `ValidateJobUpdate(new, old)`, as the Job strategy runs
/// them: the spec's problems are found twice.
fn job_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let (spec, old_spec) = (&new["spec"], &old["spec"]);
    let old_labels = &old_spec["template"]["metadata"]["labels"];
    let prefixed = !old_labels["batch.kubernetes.io/job-name"].is_null()
        && !old_labels["batch.kubernetes.io/controller-uid"].is_null();
    let mut errors = validate_job(new, prefixed);
    errors.extend(job_spec(spec));
    // Completions are immutable unless the Job is Indexed (then they move with parallelism).
    if spec["completionMode"] == "Indexed" {
        if !same(&spec["completions"], &old_spec["completions"])
            && !spec["completions"].is_null()
            && spec["completions"] != spec["parallelism"]
        {
            errors.push(FieldError::invalid(
                "spec.completions",
                shown(&spec["completions"]),
                "can only be modified in tandem with spec.parallelism",
            ));
        }
    } else {
        immutable(
            &mut errors,
            "spec.completions",
            &spec["completions"],
            &old_spec["completions"],
            shown,
        );
    }
    immutable(
        &mut errors,
        "spec.selector",
        &spec["selector"],
        &old_spec["selector"],
        selector_shown,
    );
    errors.extend(job_template_update(new, old));
    for field in [
        "completionMode",
        "podFailurePolicy",
        "backoffLimitPerIndex",
        "managedBy",
        "successPolicy",
    ] {
        immutable(
            &mut errors,
            &format!("spec.{field}"),
            &spec[field],
            &old_spec[field],
            shown,
        );
    }
    errors
}

/// `validatePodTemplateUpdate`: a Job's template is immutable, except that a suspended Job
/// that never started may change its scheduling directives (node affinity, node selector,
/// tolerations, scheduling gates) and its template's labels and annotations.
fn job_template_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let template = &new["spec"]["template"];
    let mut old_template = old["spec"]["template"].clone();
    let suspended = old["spec"]["suspend"] == true;
    let not_started = old["status"]["startTime"].is_null();
    if suspended && not_started {
        let new_affinity = &template["spec"]["affinity"];
        let old_affinity = &mut old_template["spec"]["affinity"];
        match (new_affinity.is_null(), old_affinity.is_null()) {
            (true, false) => {
                if let Some(o) = old_affinity.as_object_mut() {
                    o.remove("nodeAffinity");
                }
                if old_affinity.as_object().is_some_and(Map::is_empty) {
                    *old_affinity = Value::Null;
                }
            }
            (false, true) => {
                *old_affinity = serde_json::json!({"nodeAffinity": new_affinity["nodeAffinity"]});
            }
            (false, false) => old_affinity["nodeAffinity"] = new_affinity["nodeAffinity"].clone(),
            (true, true) => {}
        }
        for field in ["nodeSelector", "tolerations", "schedulingGates"] {
            old_template["spec"][field] = template["spec"][field].clone();
        }
        for field in ["annotations", "labels"] {
            old_template["metadata"][field] = template["metadata"][field].clone();
        }
    }
    if same(template, &old_template) {
        return Vec::new();
    }
    vec![FieldError::immutable(
        "spec.template",
        template_shown(template),
    )]
}

/// The new template as the real server prints it in this error: `%v` of its internal
/// `PodTemplateSpec`, whose embedded ObjectMeta keeps its JSON names (`labels`, ...) and whose
/// `Spec` is the internal PodSpec printed with Go's capitalised field names and every field,
/// zero or not (`{"labels":{...},"Spec":{"Volumes":null,...}}`). The shape is kept (the
/// metadata inline, the spec under `Spec`), with the spec in its API form.
fn template_shown(template: &Value) -> BadValue {
    let mut out = String::from("{");
    let mut first = true;
    for (k, v) in template["metadata"].as_object().into_iter().flatten() {
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(&format!(
            "\"{k}\":{}",
            crate::argocd::apply::go_json(v).trim_end()
        ));
    }
    if !first {
        out.push(',');
    }
    out.push_str(&format!(
        "\"Spec\":{}",
        crate::argocd::apply::go_json(&template["spec"]).trim_end()
    ));
    out.push('}');
    BadValue::Raw(out)
}

/// A `LabelSelector` with neither `matchLabels` nor `matchExpressions`.
fn empty_selector(sel: &Value) -> bool {
    let none = |k: &str| match &sel[k] {
        Value::Object(m) => m.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => true,
    };
    none("matchLabels") && none("matchExpressions")
}

fn mismatch(template: &Value) -> FieldError {
    FieldError::invalid(
        "spec.template.metadata.labels",
        shown(&template["metadata"]["labels"]),
        MISMATCH,
    )
}

/// `ValidatePodTemplateSpecFor{ReplicaSet,StatefulSet,RC}`: a non-empty selector must select
/// the template's labels; then the pod spec.
fn template_errors(selector: &LabelSelector, template: &Value, check: bool) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if check && !selector.is_empty() && !selector.matches_labels(&template["metadata"]["labels"]) {
        errors.push(mismatch(template));
    }
    errors.extend(containers_required(
        &template["spec"],
        "spec.template.spec.containers",
    ));
    errors
}

/// Workload templates only run pods that restart (`Always`, the default).
fn restart_always(template: &Value) -> Vec<FieldError> {
    match template["spec"]["restartPolicy"].as_str() {
        None | Some("Always") => Vec::new(),
        Some(other) => vec![FieldError::not_supported(
            "spec.template.spec.restartPolicy",
            BadValue::text(other),
            &["Always"],
        )],
    }
}

/// `ValidatePodSpec`'s containers, `field` naming the list (`spec.containers`).
fn containers_required(pod_spec: &Value, field: &str) -> Vec<FieldError> {
    let path = field.strip_suffix(".containers").unwrap_or(field);
    super::containers::pod_spec(pod_spec, path)
}
