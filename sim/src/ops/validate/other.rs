//! Update rules of the other groups: an EndpointSlice's address type, a StorageClass's
//! provisioning (`storage/validation`), and a CustomResourceDefinition's names
//! (`apiextensions/validation`).

use serde_json::{Value, json};

use super::{immutable, shown};
use crate::status::{BadValue, FieldError};

/// `ValidateEndpointSliceUpdate`.
pub fn endpoint_slice_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    immutable(
        &mut errors,
        "addressType",
        &new["addressType"],
        &old["addressType"],
        shown,
    );
    errors
}

/// `ValidateStorageClassUpdate`: how volumes are provisioned is fixed once created.
pub fn storage_class_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    // reflect.DeepEqual: a missing map and an empty one differ.
    let params = |v: &Value| v.get("parameters").filter(|p| !p.is_null()).cloned();
    if params(new) != params(old) {
        errors.push(FieldError::forbidden(
            "parameters",
            "updates to parameters are forbidden.",
        ));
    }
    if new["provisioner"] != old["provisioner"] {
        errors.push(FieldError::forbidden(
            "provisioner",
            "updates to provisioner are forbidden.",
        ));
    }
    if new["reclaimPolicy"] != old["reclaimPolicy"] {
        errors.push(FieldError::forbidden(
            "reclaimPolicy",
            "updates to reclaimPolicy are forbidden.",
        ));
    }
    immutable(
        &mut errors,
        "volumeBindingMode",
        &new["volumeBindingMode"],
        &old["volumeBindingMode"],
        shown,
    );
    errors
}

/// `ValidateCustomResourceDefinitionUpdate`: the group and plural name (which make up the
/// served resource's name) never change; the scope and kind not once the CRD is established.
pub fn crd_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let (spec, old_spec) = (&new["spec"], &old["spec"]);
    let mut errors = Vec::new();
    // A real server establishes a CRD within moments of its creation; this cluster writes no
    // CRD status, so one counts as established unless its status says otherwise.
    let established = !old["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Established" && c["status"] != "True");
    if established {
        immutable(
            &mut errors,
            "spec.scope",
            &spec["scope"],
            &old_spec["scope"],
            shown,
        );
        immutable(
            &mut errors,
            "spec.names.kind",
            &spec["names"]["kind"],
            &old_spec["names"]["kind"],
            shown,
        );
    }
    immutable(
        &mut errors,
        "spec.group",
        &spec["group"],
        &old_spec["group"],
        shown,
    );
    immutable(
        &mut errors,
        "spec.names.plural",
        &spec["names"]["plural"],
        &old_spec["names"]["plural"],
        shown,
    );
    errors
}

/// `ValidateEventUpdate` for an update through `events.k8s.io/v1` (core/v1 updates are not
/// checked, for compatibility): what an Event reports never changes, only its series. Fields
/// are named and printed as the internal `core.Event` has them (Go field names inside
/// structs, since the internal types carry no JSON tags).
pub fn event_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    fn quoted(v: &Value, k: &str) -> String {
        crate::argocd::apply::go_json(&json!(v[k].as_str().unwrap_or_default()))
            .trim_end()
            .to_string()
    }
    fn reference(v: &Value) -> BadValue {
        let fields: Vec<String> = [
            ("Kind", "kind"),
            ("Namespace", "namespace"),
            ("Name", "name"),
            ("UID", "uid"),
            ("APIVersion", "apiVersion"),
            ("ResourceVersion", "resourceVersion"),
            ("FieldPath", "fieldPath"),
        ]
        .iter()
        .map(|(go, k)| format!("\"{go}\":{}", quoted(v, k)))
        .collect();
        BadValue::Raw(format!("{{{}}}", fields.join(",")))
    }
    fn source(v: &Value) -> BadValue {
        BadValue::Raw(format!(
            "{{\"Component\":{},\"Host\":{}}}",
            quoted(v, "component"),
            quoted(v, "host")
        ))
    }
    fn text(v: &Value) -> BadValue {
        BadValue::text(v.as_str().unwrap_or_default())
    }
    fn related(v: &Value) -> BadValue {
        if v.is_null() {
            BadValue::Raw("null".into())
        } else {
            reference(v)
        }
    }
    type Shown = fn(&Value) -> BadValue;
    let checks: [(&str, &str, Shown); 14] = [
        ("involvedObject", "involvedObject", reference),
        ("reason", "reason", text),
        ("message", "message", text),
        ("source", "source", source),
        ("firstTimestamp", "firstTimestamp", shown),
        ("lastTimestamp", "lastTimestamp", shown),
        ("count", "count", shown),
        ("reason", "reason", text),
        ("type", "type", text),
        ("eventTime", "eventTime", shown),
        ("action", "action", text),
        ("related", "related", related),
        ("reportingController", "reportingComponent", text),
        ("reportingInstance", "reportingInstance", text),
    ];
    for (path, field, show) in checks {
        if path == "eventTime" && micro(&new[field]) == micro(&old[field]) {
            continue;
        }
        immutable(&mut errors, path, &new[field], &old[field], show);
    }
    errors
}

/// A MicroTime to the microsecond (changes below it are tolerated).
fn micro(v: &Value) -> Option<String> {
    let t: jiff::Timestamp = v.as_str()?.parse().ok()?;
    Some(t.strftime("%s%.6f").to_string())
}
