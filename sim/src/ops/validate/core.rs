//! core/v1 update rules (`core/validation`): a Pod's spec, a Service's cluster IPs, immutable
//! ConfigMaps and Secrets, a Node's pod CIDRs and provider, a ResourceQuota's scopes, and
//! PersistentVolumeClaim and PersistentVolume specs.

use serde_json::Value;

use super::{immutable, same, shown, spec_diff};
use crate::kinds::ResourceType;
use crate::status::{BadValue, FieldError};

const UPDATABLE_POD_FIELDS: &str = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// `ValidatePodUpdate`: only container images, a shorter `activeDeadlineSeconds`, added
/// tolerations and removed scheduling gates may change.
pub fn pod_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let (spec, old_spec) = (&new["spec"], &old["spec"]);
    let mut errors = super::workloads::on_create(&crate::kinds::POD, new);
    // Either check may end the validation early, as the Go code returns there.
    if container_updates(spec, old_spec, &mut errors)
        || deadline_update(spec, old_spec, &mut errors)
    {
        return errors;
    }
    // validateOnlyAddedTolerations: every old toleration must still be there (its
    // tolerationSeconds may change); the first one missing ends the check.
    let tolerations = items(&spec["tolerations"]);
    for t in items(&old_spec["tolerations"]) {
        let kept = tolerations.iter().any(|n| {
            let mut t = t.clone();
            t["tolerationSeconds"] = n["tolerationSeconds"].clone();
            same(n, &t)
        });
        if !kept {
            errors.push(FieldError::forbidden(
                "spec.tolerations",
                "existing toleration can not be modified except its tolerationSeconds",
            ));
            break;
        }
    }
    if same(spec, old_spec) {
        return errors;
    }
    // What may change is taken from the old spec; anything else left over is forbidden.
    let mut munged = spec.clone();
    for list in ["containers", "initContainers"] {
        let before = items(&old_spec[list]);
        if let Some(now) = munged.get_mut(list).and_then(Value::as_array_mut) {
            for (c, old_c) in now.iter_mut().zip(before) {
                c["image"] = old_c["image"].clone();
            }
        }
    }
    for field in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
        munged[field] = old_spec[field].clone();
    }
    if old_spec["terminationGracePeriodSeconds"]
        .as_i64()
        .is_some_and(|g| g < 0)
        && munged["terminationGracePeriodSeconds"] == 1
    {
        munged["terminationGracePeriodSeconds"] = old_spec["terminationGracePeriodSeconds"].clone();
    }
    if !same(&munged, old_spec) {
        errors.push(FieldError::forbidden(
            "spec",
            &format!(
                "pod updates may not change fields other than {UPDATABLE_POD_FIELDS}\n{}",
                spec_diff(&drop_nulls(old_spec), &drop_nulls(&munged))
            ),
        ));
    }
    errors
}

/// `ValidateContainerUpdates` of containers and init containers: as many as before, each with
/// an image without surrounding blanks. Whether validation stops here.
fn container_updates(spec: &Value, old_spec: &Value, errors: &mut Vec<FieldError>) -> bool {
    for list in ["containers", "initContainers"] {
        let (now, before) = (items(&spec[list]), items(&old_spec[list]));
        let path = format!("spec.{list}");
        if now.len() != before.len() {
            errors.push(FieldError::forbidden(
                &path,
                "pod updates may not add or remove containers",
            ));
            return true;
        }
        for (i, c) in now.iter().enumerate() {
            let image = c["image"].as_str().unwrap_or_default();
            if image.is_empty() {
                errors.push(FieldError::required(&format!("{path}[{i}].image"), ""));
            }
            if image.trim() != image {
                errors.push(FieldError::invalid(
                    &format!("{path}[{i}].image"),
                    BadValue::text(image),
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }
    false
}

/// `activeDeadlineSeconds` may be set, or lowered, never raised or unset. Whether validation
/// stops here.
fn deadline_update(spec: &Value, old_spec: &Value, errors: &mut Vec<FieldError>) -> bool {
    let deadline = "spec.activeDeadlineSeconds";
    match (
        spec["activeDeadlineSeconds"].as_i64(),
        old_spec["activeDeadlineSeconds"].as_i64(),
    ) {
        (Some(n), _) if !(0..=i64::from(i32::MAX)).contains(&n) => {
            errors.push(FieldError::invalid(
                deadline,
                BadValue::Raw(n.to_string()),
                "must be between 0 and 2147483647, inclusive",
            ));
            true
        }
        (Some(n), Some(before)) if before < n => {
            errors.push(FieldError::invalid(
                deadline,
                BadValue::Raw(n.to_string()),
                "must be less than or equal to previous value",
            ));
            true
        }
        (None, Some(_)) => {
            errors.push(FieldError::invalid(
                deadline,
                BadValue::Raw("null".into()),
                "must not update from a positive integer to nil value",
            ));
            false
        }
        _ => false,
    }
}

/// The list at `v`, or none.
fn items(v: &Value) -> Vec<Value> {
    v.as_array().cloned().unwrap_or_default()
}

/// A value without the `null` fields a patch may have left (Go's zero values print as such).
fn drop_nulls(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), drop_nulls(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(drop_nulls).collect()),
        other => other.clone(),
    }
}

/// `len(ClusterIPs)` and friends: a missing list is empty.
fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|s| s.as_str().unwrap_or_default().to_string())
        .collect()
}

fn headless(svc: &Value) -> bool {
    strings(&svc["spec"]["clusterIPs"]) == ["None"]
}

/// `ValidateService`'s first rule: a Service that is neither headless nor an ExternalName must
/// have ports.
pub fn service_ports(svc: &Value) -> Vec<FieldError> {
    let ports = svc["spec"]["ports"]
        .as_array()
        .is_some_and(|p| !p.is_empty());
    if ports || svc["spec"]["clusterIP"] == "None" || svc["spec"]["type"] == "ExternalName" {
        return Vec::new();
    }
    vec![FieldError::required("spec.ports", "")]
}

/// The update of a Service's addresses. The allocator checks how `clusterIP`, `clusterIPs` and
/// `ipFamilies` fit together first (`ValidateServiceClusterIPsRelatedFields`) and refuses with
/// only those problems; then `ValidateServiceUpdate`: a primary clusterIP (or IP family) never
/// changes once set, unless the Service is or becomes an ExternalName one.
pub fn service_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let external = |s: &Value| s["spec"]["type"] == "ExternalName";
    if external(new) {
        return Vec::new();
    }
    let related = cluster_ips_related(new, old);
    if !related.is_empty() || external(old) {
        return related;
    }
    let mut errors = Vec::new();
    let (ips, old_ips) = (
        strings(&new["spec"]["clusterIPs"]),
        strings(&old["spec"]["clusterIPs"]),
    );
    let shown_ips = || ips_shown(new);
    if !(headless(new) && headless(old)) {
        if ips.len() == old_ips.len() {
            for (i, ip) in old_ips.iter().enumerate() {
                if *ip != ips[i] {
                    errors.push(FieldError::invalid(
                        &format!("spec.clusterIPs[{i}]"),
                        shown_ips(),
                        "may not change once set",
                    ));
                }
            }
        } else if old_ips.len() > ips.len() {
            if ips.is_empty() {
                errors.push(FieldError::invalid(
                    "spec.clusterIPs[0]",
                    shown_ips(),
                    "primary clusterIP can not be unset",
                ));
            }
            if !old_ips.is_empty() && !ips.is_empty() && ips[0] != old_ips[0] {
                errors.push(FieldError::invalid(
                    "spec.clusterIPs[0]",
                    shown_ips(),
                    "may not change once set",
                ));
            }
        } else if !old_ips.is_empty() && ips[0] != old_ips[0] {
            errors.push(FieldError::invalid(
                "spec.clusterIPs[0]",
                shown_ips(),
                "may not change once set",
            ));
        }
    }
    if headless(new) == headless(old) && !headless(new) {
        let (families, old_families) = (
            strings(&new["spec"]["ipFamilies"]),
            strings(&old["spec"]["ipFamilies"]),
        );
        if families.len() == old_families.len() {
            for (i, f) in old_families.iter().enumerate() {
                if *f != families[i] {
                    errors.push(FieldError::invalid(
                        "spec.ipFamilies[0]",
                        shown(&new["spec"]["ipFamilies"]),
                        "may not change once set",
                    ));
                }
            }
        }
    }
    errors
}

/// `spec.clusterIPs` as the errors print it (`null` when there are none).
fn ips_shown(svc: &Value) -> BadValue {
    match shown(&svc["spec"]["clusterIPs"]) {
        BadValue::Raw(r) if r == "[]" => BadValue::Raw("null".into()),
        other => other,
    }
}

/// `ValidateServiceClusterIPsRelatedFields`, the allocator's pre-validation.
fn cluster_ips_related(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let spec = &new["spec"];
    let ips = strings(&spec["clusterIPs"]);
    let ip = spec["clusterIP"].as_str().unwrap_or_default();
    if !ip.is_empty() {
        match ips.first() {
            None => errors.push(FieldError::required("spec.clusterIPs", "")),
            Some(first) if first != ip => errors.push(FieldError::invalid(
                "spec.clusterIPs",
                ips_shown(new),
                "first value must match `clusterIP`",
            )),
            Some(_) => {}
        }
    } else if !ips.is_empty() {
        errors.push(FieldError::invalid(
            "spec.clusterIPs",
            ips_shown(new),
            "must be empty when `clusterIP` is not specified",
        ));
    }
    let families = strings(&spec["ipFamilies"]);
    for (i, f) in families.iter().enumerate() {
        if !matches!(f.as_str(), "IPv4" | "IPv6") {
            errors.push(FieldError::not_supported(
                &format!("spec.ipFamilies[{i}]"),
                BadValue::text(f),
                &["IPv4", "IPv6"],
            ));
        }
    }
    let old_ips = strings(&old["spec"]["clusterIPs"]);
    let mut bad_ips = false;
    for (i, ip) in ips.iter().enumerate() {
        if i == 0 && ip == "None" {
            if ips.len() > 1 {
                bad_ips = true;
                errors.push(FieldError::invalid(
                    "spec.clusterIPs",
                    ips_shown(new),
                    "'None' must be the first and only value",
                ));
            }
            continue;
        }
        if !old_ips.contains(ip) && ip.parse::<std::net::IpAddr>().is_err() {
            bad_ips = true;
            errors.push(FieldError::invalid(
                &format!("spec.clusterIPs[{i}]"),
                BadValue::text(ip),
                "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
            ));
        }
    }
    if ips.len() > 2 {
        errors.push(FieldError::invalid(
            "spec.clusterIPs",
            ips_shown(new),
            "may only hold up to 2 values",
        ));
    }
    if bad_ips {
        return errors;
    }
    if !headless(new) {
        for (i, (ip, family)) in ips.iter().zip(&families).enumerate() {
            let v6 = ip.parse::<std::net::Ipv6Addr>().is_ok();
            let want = match (family.as_str(), v6) {
                ("IPv4", true) => "IPv4",
                ("IPv6", false) => "IPv6",
                _ => continue,
            };
            errors.push(FieldError::invalid(
                &format!("spec.clusterIPs[{i}]"),
                BadValue::text(ip),
                &format!("expected an {want} value as indicated by `ipFamilies[{i}]`"),
            ));
        }
    }
    errors
}

/// `ValidateConfigMapUpdate` / `ValidateSecretUpdate`: a Secret's type never changes, and once
/// `immutable: true` is stored neither the flag nor the data may change.
pub fn data_update(ty: &ResourceType, new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if ty.kind == "Secret" {
        immutable(&mut errors, "type", &new["type"], &old["type"], shown);
    }
    if old["immutable"] == true {
        const WHY: &str = "field is immutable when `immutable` is set";
        if new["immutable"] != true {
            errors.push(FieldError::forbidden("immutable", WHY));
        }
        let bags: &[&str] = if ty.kind == "Secret" {
            &["data"]
        } else {
            &["data", "binaryData"]
        };
        for bag in bags {
            // reflect.DeepEqual: a missing map and an empty one differ.
            let (now, before) = (new.get(*bag), old.get(*bag));
            if now.filter(|v| !v.is_null()) != before.filter(|v| !v.is_null()) {
                errors.push(FieldError::forbidden(bag, WHY));
            }
        }
    }
    // ValidateSecret(new), after the update's own rules.
    if ty.kind == "Secret" {
        errors.extend(secret_type(new));
    }
    errors
}

/// `ValidateSecret`'s rules for the well-known types: the data keys each requires.
pub fn secret_type(secret: &Value) -> Vec<FieldError> {
    let data = &secret["data"];
    let has = |k: &str| data.get(k).is_some_and(|v| !v.is_null());
    let key = |k: &str| format!("data[{k}]");
    let mut errors = Vec::new();
    match secret["type"].as_str().unwrap_or_default() {
        "kubernetes.io/service-account-token" => {
            let name = &secret["metadata"]["annotations"]["kubernetes.io/service-account.name"];
            if name.as_str().unwrap_or_default().is_empty() {
                errors.push(FieldError::required(
                    "metadata.annotations[kubernetes.io/service-account.name]",
                    "",
                ));
            }
        }
        "kubernetes.io/dockercfg" if !has(".dockercfg") => {
            errors.push(FieldError::required(&key(".dockercfg"), ""));
        }
        "kubernetes.io/dockerconfigjson" if !has(".dockerconfigjson") => {
            errors.push(FieldError::required(&key(".dockerconfigjson"), ""));
        }
        "kubernetes.io/basic-auth" if !has("username") && !has("password") => {
            errors.push(FieldError::required(&key("username"), ""));
            errors.push(FieldError::required(&key("password"), ""));
        }
        "kubernetes.io/ssh-auth"
            if data["ssh-privatekey"]
                .as_str()
                .unwrap_or_default()
                .is_empty() =>
        {
            errors.push(FieldError::required(&key("ssh-privatekey"), ""));
        }
        "kubernetes.io/tls" => {
            for k in ["tls.crt", "tls.key"] {
                if !has(k) {
                    errors.push(FieldError::required(&key(k), ""));
                }
            }
        }
        _ => {}
    }
    errors
}

/// `ValidateNodeUpdate`: pod CIDRs and the provider ID are set once.
pub fn node_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let (cidrs, old_cidrs) = (
        strings(&new["spec"]["podCIDRs"]),
        strings(&old["spec"]["podCIDRs"]),
    );
    const CIDR: &str = "node updates may not change podCIDR except from \"\" to valid";
    if !old_cidrs.is_empty() {
        if cidrs.len() != old_cidrs.len() {
            errors.push(FieldError::forbidden("spec.podCIDRs", CIDR));
        } else {
            for (a, b) in old_cidrs.iter().zip(&cidrs) {
                if a != b {
                    errors.push(FieldError::forbidden("spec.podCIDRs", CIDR));
                }
            }
        }
    }
    let provider = old["spec"]["providerID"].as_str().unwrap_or_default();
    if !provider.is_empty() && new["spec"]["providerID"].as_str() != Some(provider) {
        errors.push(FieldError::forbidden(
            "spec.providerID",
            "node updates may not change providerID except from \"\" to valid",
        ));
    }
    errors
}

/// `ValidateResourceQuotaUpdate`: the scopes are a set that never changes.
pub fn quota_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let set = |v: &Value| {
        let mut s = strings(v);
        s.sort();
        s.dedup();
        s
    };
    if set(&new["spec"]["scopes"]) == set(&old["spec"]["scopes"]) {
        return Vec::new();
    }
    vec![FieldError::immutable(
        "spec.scopes",
        shown(&new["spec"]["scopes"]),
    )]
}

/// `ValidatePersistentVolumeClaimUpdate`: the spec is fixed once created, except the volume
/// name set once by binding and, for a bound claim, the storage request and volume attributes
/// class; the request never shrinks; the volume mode never changes.
pub fn claim_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let (spec, old_spec) = (&new["spec"], &old["spec"]);
    let mut new_clone = spec.clone();
    let mut old_clone = old_spec.clone();
    if old_spec["volumeName"]
        .as_str()
        .unwrap_or_default()
        .is_empty()
    {
        old_clone["volumeName"] = spec["volumeName"].clone();
    }
    // A claim without a class may get one, once (the default class admission's upgrade path).
    if old_spec["storageClassName"].is_null() && !spec["storageClassName"].is_null() {
        new_clone["storageClassName"] = old_spec["storageClassName"].clone();
    }
    let bound = new["status"]["phase"] == "Bound";
    if bound && new_clone["resources"]["requests"].is_object() {
        new_clone["resources"]["requests"]["storage"] =
            old_spec["resources"]["requests"]["storage"].clone();
    }
    if bound {
        new_clone["volumeAttributesClassName"] = old_clone["volumeAttributesClassName"].clone();
    }
    if !same(&new_clone, &old_clone) {
        errors.push(FieldError::forbidden(
            "spec",
            &format!(
                "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n{}",
                spec_diff(&drop_nulls(&old_clone), &drop_nulls(&new_clone))
            ),
        ));
    }
    let size = |s: &Value| {
        let text = s["resources"]["requests"]["storage"].as_str()?;
        crate::amount::milli(text)
    };
    // With RecoverVolumeExpansionFailure (on since 1.34): a request may shrink back, but not
    // to the capacity the volume already has.
    let capacity = old["status"]["capacity"]["storage"]
        .as_str()
        .and_then(crate::amount::milli)
        .unwrap_or(0);
    if let (Some(now), Some(before)) = (size(spec), size(old_spec))
        && now < before
        && now <= capacity
    {
        errors.push(FieldError::forbidden(
            "spec.resources.requests.storage",
            "field can not be less than status.capacity",
        ));
    }
    immutable(
        &mut errors,
        "volumeMode",
        &spec["volumeMode"],
        &old_spec["volumeMode"],
        shown,
    );
    errors
}

/// The fields of a PersistentVolume's spec that are not its volume source.
const PV_SPEC_FIELDS: &[&str] = &[
    "capacity",
    "accessModes",
    "claimRef",
    "persistentVolumeReclaimPolicy",
    "storageClassName",
    "mountOptions",
    "volumeMode",
    "nodeAffinity",
    "volumeAttributesClassName",
];

/// `ValidatePersistentVolumeUpdate`: the volume source and mode are fixed once created.
pub fn volume_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let source = |v: &Value| super::without(&v["spec"], PV_SPEC_FIELDS);
    let (now, before) = (source(new), source(old));
    let mut errors = Vec::new();
    if !same(&now, &before) {
        errors.push(FieldError::forbidden(
            "spec.persistentvolumesource",
            &format!(
                "spec.persistentvolumesource is immutable after creation\n{}",
                spec_diff(&drop_nulls(&before), &drop_nulls(&now))
            ),
        ));
    }
    immutable(
        &mut errors,
        "volumeMode",
        &new["spec"]["volumeMode"],
        &old["spec"]["volumeMode"],
        shown,
    );
    errors
}
