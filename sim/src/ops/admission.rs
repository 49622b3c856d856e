//! What the API server's admission plugins add to a Pod it creates (docs/sim-behaviour.md
//! §15.10), after the field manager has recorded the creator's fields, so no manager owns
//! them: `ServiceAccount` (the `default` account and its token volume, mounted in every
//! container), `Priority` (priority 0, `PreemptLowerPriority`) and `DefaultTolerationSeconds`
//! (5 minutes of tolerance for a not-ready or unreachable node); and to a volume claim or volume
//! it creates: `DefaultStorageClass` (the default class for a claim naming none) and
//! `StorageObjectInUseProtection` (the finalizer that keeps one in use from going away).

use serde_json::{Value, json};

use crate::objects;

const TOKEN_MOUNT: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
const TOLERATED_SECONDS: u64 = 300;

/// Applies the plugins to a Pod about to be stored for the first time.
pub fn admit_pod(pod: &mut Value) {
    let Some(spec) = pod.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    service_account(spec);
    if spec.get("priority").is_none_or(Value::is_null) && spec.get("priorityClassName").is_none() {
        spec["priority"] = json!(0);
    }
    if spec.get("preemptionPolicy").is_none_or(Value::is_null) {
        spec["preemptionPolicy"] = json!("PreemptLowerPriority");
    }
    default_tolerations(spec);
}

/// `DefaultStorageClass` and `StorageObjectInUseProtection` for a new PersistentVolumeClaim:
/// `default_class` is the name of the StorageClass marked default, if any.
pub fn admit_claim(claim: &mut Value, default_class: Option<&str>) {
    if let Some(class) = default_class
        && claim["spec"].is_object()
        && claim["spec"]
            .get("storageClassName")
            .is_none_or(Value::is_null)
        && claim["metadata"]["annotations"]["volume.beta.kubernetes.io/storage-class"].is_null()
    {
        claim["spec"]["storageClassName"] = json!(class);
    }
    protect(claim, CLAIM_PROTECTION);
}

/// `StorageObjectInUseProtection` for a new PersistentVolume.
pub fn admit_volume(volume: &mut Value) {
    protect(volume, VOLUME_PROTECTION);
}

/// The finalizer the pvc-protection controller removes once no Pod uses the claim.
pub const CLAIM_PROTECTION: &str = "kubernetes.io/pvc-protection";
/// The finalizer the pv-protection controller removes once no claim is bound to the volume.
pub const VOLUME_PROTECTION: &str = "kubernetes.io/pv-protection";

fn protect(obj: &mut Value, finalizer: &str) {
    let mut finalizers = objects::finalizers(obj);
    if !finalizers.iter().any(|f| f == finalizer) {
        finalizers.push(finalizer.to_string());
        objects::metadata_mut(obj).insert("finalizers".into(), json!(finalizers));
    }
}

/// The default StorageClass's name: the newest of those annotated as default.
pub fn default_class(store: &crate::store::Store) -> Option<String> {
    let (classes, _) = store.list(&crate::kinds::STORAGE_CLASS, None);
    classes
        .iter()
        .filter(|c| {
            let a = &c["metadata"]["annotations"];
            [
                "storageclass.kubernetes.io/is-default-class",
                "storageclass.beta.kubernetes.io/is-default-class",
            ]
            .iter()
            .any(|k| a[*k] == "true")
        })
        .max_by_key(|c| {
            c["metadata"]["creationTimestamp"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .map(|c| objects::name(c).to_string())
}

fn service_account(spec: &mut Value) {
    let account = spec["serviceAccountName"]
        .as_str()
        .filter(|a| !a.is_empty())
        .or_else(|| spec["serviceAccount"].as_str().filter(|a| !a.is_empty()))
        .unwrap_or("default")
        .to_string();
    spec["serviceAccountName"] = json!(account);
    spec["serviceAccount"] = json!(account);
    if spec["automountServiceAccountToken"] == Value::Bool(false) {
        return;
    }
    let name = format!("kube-api-access-{}", objects::random_suffix(5));
    let volume = json!({"name": name, "projected": {"defaultMode": 420, "sources": [
        {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
        {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
        {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}},
    ]}});
    let mount = json!({"name": name, "readOnly": true, "mountPath": TOKEN_MOUNT});
    for list in ["initContainers", "containers"] {
        let Some(containers) = spec.get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        for c in containers {
            let mounted = c["volumeMounts"]
                .as_array()
                .is_some_and(|m| m.iter().any(|v| v["mountPath"] == TOKEN_MOUNT));
            if mounted {
                continue;
            }
            match c.get_mut("volumeMounts").and_then(Value::as_array_mut) {
                Some(mounts) => mounts.push(mount.clone()),
                None => c["volumeMounts"] = json!([mount]),
            }
        }
    }
    match spec.get_mut("volumes").and_then(Value::as_array_mut) {
        Some(volumes) => volumes.push(volume),
        None => spec["volumes"] = json!([volume]),
    }
}

/// `DefaultTolerationSeconds`: tolerate an unready and an unreachable node for five minutes
/// unless the Pod already tolerates them.
pub fn default_tolerations(spec: &mut Value) {
    let mut tolerations = spec["tolerations"].as_array().cloned().unwrap_or_default();
    for key in [
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
    ] {
        let covered = tolerations.iter().any(|t| {
            let effect = t["effect"].as_str().unwrap_or_default();
            (t["key"] == key || (t["key"].is_null() && t["operator"] == "Exists"))
                && (effect.is_empty() || effect == "NoExecute")
        });
        if !covered {
            tolerations.push(
                json!({"key": key, "operator": "Exists", "effect": "NoExecute",
                                    "tolerationSeconds": TOLERATED_SECONDS}),
            );
        }
    }
    spec["tolerations"] = json!(tolerations);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pod_gets_its_account_token_priority_and_tolerations() {
        let mut pod = json!({"spec": {"containers": [{"name": "c", "image": "busybox:1.36"}]}});
        admit_pod(&mut pod);
        let spec = &pod["spec"];
        assert_eq!(
            (
                spec["serviceAccountName"].as_str(),
                spec["serviceAccount"].as_str()
            ),
            (Some("default"), Some("default"))
        );
        let volume = spec["volumes"][0]["name"].as_str().unwrap();
        assert!(volume.starts_with("kube-api-access-"));
        assert_eq!(spec["containers"][0]["volumeMounts"][0]["name"], volume);
        assert_eq!(
            spec["containers"][0]["volumeMounts"][0]["mountPath"],
            TOKEN_MOUNT
        );
        assert_eq!(
            (spec["priority"].as_i64(), spec["preemptionPolicy"].as_str()),
            (Some(0), Some("PreemptLowerPriority"))
        );
        assert_eq!(spec["tolerations"].as_array().unwrap().len(), 2);
        assert_eq!(spec["tolerations"][0]["tolerationSeconds"], 300);
        // No token when the Pod says so; tolerations it has are not doubled.
        let mut quiet = json!({"spec": {"automountServiceAccountToken": false, "containers": [{"name": "c"}],
            "tolerations": [{"operator": "Exists"}]}});
        admit_pod(&mut quiet);
        assert!(quiet["spec"]["volumes"].is_null());
        assert_eq!(quiet["spec"]["tolerations"].as_array().unwrap().len(), 1);
    }
}
