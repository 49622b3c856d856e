//! The Table printers of the policy kinds a lab touches (HorizontalPodAutoscaler,
//! PodDisruptionBudget, NetworkPolicy, StorageClass, ResourceQuota, LimitRange), as Kubernetes
//! 1.35's printers fill their rows. Column descriptions are the fields' API documentation.

use jiff::Timestamp;
use serde_json::Value;

use super::{AGE, Col, D_AGE, NAME, col, entries, format_label_selector, int, list, since, text};

#[rustfmt::skip]
pub(super) const HPA: &[Col] = &[NAME,
    col("Reference", "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count."),
    col("Targets", "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization."),
    col("MinPods", "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available."),
    col("MaxPods", "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas."),
    col("Replicas", "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler."),
    AGE];
#[rustfmt::skip]
pub(super) const PDB: &[Col] = &[NAME,
    col("Min Available", "An eviction is allowed if at least \"minAvailable\" pods selected by \"selector\" will still be available after the eviction, i.e. even in the absence of the evicted pod.  So for example you can prevent all voluntary evictions by specifying \"100%\"."),
    col("Max Unavailable", "An eviction is allowed if at most \"maxUnavailable\" pods selected by \"selector\" are unavailable after the eviction, i.e. even in absence of the evicted pod. For example, one can prevent all voluntary evictions by specifying 0. This is a mutually exclusive setting with \"minAvailable\"."),
    col("Allowed Disruptions", "Number of pod disruptions that are currently allowed."),
    AGE];
#[rustfmt::skip]
pub(super) const NETWORK_POLICY: &[Col] = &[NAME,
    col("Pod-Selector", "podSelector selects the pods to which this NetworkPolicy object applies. The array of rules is applied to any pods selected by this field. An empty selector matches all pods in the policy's namespace. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is optional. If it is not specified, it defaults to an empty selector."),
    AGE];
#[rustfmt::skip]
pub(super) const STORAGE_CLASS: &[Col] = &[NAME,
    col("Provisioner", "provisioner indicates the type of the provisioner."),
    col("ReclaimPolicy", "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete."),
    col("VolumeBindingMode", "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature."),
    col("AllowVolumeExpansion", "allowVolumeExpansion shows whether the storage class allow volume expand."),
    AGE];
#[rustfmt::skip]
pub(super) const RESOURCE_QUOTA: &[Col] = &[NAME, AGE,
    col("Request", "Request represents a minimum amount of cpu/memory that a container may consume."),
    col("Limit", "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.")];
pub(super) const LIMIT_RANGE: &[Col] = &[NAME, Col("Created At", "date", "", D_AGE, 0)];

/// How many metrics the Targets cell shows before `+ N more...`.
const METRICS_SHOWN: usize = 2;

pub(super) fn hpa_cells(hpa: &Value, now: Timestamp) -> Vec<Value> {
    let reference = format!(
        "{}/{}",
        text(hpa, "/spec/scaleTargetRef/kind"),
        text(hpa, "/spec/scaleTargetRef/name")
    );
    let min = hpa
        .pointer("/spec/minReplicas")
        .and_then(Value::as_i64)
        .map_or(Value::from("<unset>"), Value::from);
    vec![
        text(hpa, "/metadata/name").into(),
        reference.into(),
        targets(hpa).into(),
        min,
        int(hpa, "/spec/maxReplicas").into(),
        int(hpa, "/status/currentReplicas").into(),
        since(super::time(hpa, "/metadata/creationTimestamp"), now).into(),
    ]
}

/// `cpu: 45%/80%`, one entry per metric, the current value `<unknown>` until measured.
fn targets(hpa: &Value) -> String {
    let specs = list(hpa, "/spec/metrics");
    if specs.is_empty() {
        return "<none>".into();
    }
    let statuses = list(hpa, "/status/currentMetrics");
    let shown: Vec<String> = specs
        .iter()
        .take(METRICS_SHOWN)
        .enumerate()
        .map(|(i, spec)| metric_target(spec, statuses.get(i)))
        .collect();
    let mut out = shown.join(", ");
    if specs.len() > METRICS_SHOWN {
        out.push_str(&format!(" + {} more...", specs.len() - METRICS_SHOWN));
    }
    out
}

fn metric_target(spec: &Value, status: Option<&Value>) -> String {
    let unknown = || "<unknown>".to_string();
    let current = |path: &str| {
        status
            .and_then(|s| s.pointer(path))
            .map_or_else(unknown, |v| v.as_str().map_or(v.to_string(), String::from))
    };
    match text(spec, "/type") {
        "Resource" | "ContainerResource" => {
            let src = if text(spec, "/type") == "Resource" {
                "resource"
            } else {
                "containerResource"
            };
            let name = text(spec, &format!("/{src}/name"));
            let target = spec
                .pointer(&format!("/{src}/target"))
                .cloned()
                .unwrap_or_default();
            if let Some(value) = target.get("averageValue").and_then(Value::as_str) {
                return format!(
                    "{name}: {}/{value}",
                    current(&format!("/{src}/current/averageValue"))
                );
            }
            let now = status
                .and_then(|s| s.pointer(&format!("/{src}/current/averageUtilization")))
                .and_then(Value::as_i64)
                .map_or_else(unknown, |u| format!("{u}%"));
            let wanted = target
                .get("averageUtilization")
                .and_then(Value::as_i64)
                .map_or("<auto>".to_string(), |u| format!("{u}%"));
            format!("{name}: {now}/{wanted}")
        }
        "Pods" => format!(
            "{}/{}",
            current("/pods/current/averageValue"),
            text(spec, "/pods/target/averageValue")
        ),
        "Object" => format!(
            "{}/{}",
            current("/object/current/value"),
            text(spec, "/object/target/value")
        ),
        "External" => format!(
            "{}/{}",
            current("/external/current/value"),
            text(spec, "/external/target/value")
        ),
        _ => "<unknown type>".into(),
    }
}

pub(super) fn pdb_cells(pdb: &Value, now: Timestamp) -> Vec<Value> {
    let int_or_string = |path: &str| match pdb.pointer(path) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "N/A".into(),
    };
    vec![
        text(pdb, "/metadata/name").into(),
        int_or_string("/spec/minAvailable").into(),
        int_or_string("/spec/maxUnavailable").into(),
        int(pdb, "/status/disruptionsAllowed").into(),
        since(super::time(pdb, "/metadata/creationTimestamp"), now).into(),
    ]
}

pub(super) fn network_policy_cells(np: &Value, now: Timestamp) -> Vec<Value> {
    vec![
        text(np, "/metadata/name").into(),
        format_label_selector(np.pointer("/spec/podSelector")).into(),
        since(super::time(np, "/metadata/creationTimestamp"), now).into(),
    ]
}

/// The default class is named `local-path (default)`, as kubectl shows it.
pub(super) fn storage_class_cells(sc: &Value, now: Timestamp) -> Vec<Value> {
    let mut name = text(sc, "/metadata/name").to_string();
    if is_default_class(sc) {
        name.push_str(" (default)");
    }
    let or = |path: &str, default: &str| {
        sc.pointer(path)
            .and_then(Value::as_str)
            .unwrap_or(default)
            .to_string()
    };
    vec![
        name.into(),
        text(sc, "/provisioner").into(),
        or("/reclaimPolicy", "Delete").into(),
        or("/volumeBindingMode", "Immediate").into(),
        sc["allowVolumeExpansion"].as_bool().unwrap_or(false).into(),
        since(super::time(sc, "/metadata/creationTimestamp"), now).into(),
    ]
}

/// `storageclass.kubernetes.io/is-default-class: "true"` (or the beta annotation).
fn is_default_class(sc: &Value) -> bool {
    let notes = &sc["metadata"]["annotations"];
    [
        "storageclass.kubernetes.io/is-default-class",
        "storageclass.beta.kubernetes.io/is-default-class",
    ]
    .iter()
    .any(|k| notes[*k] == "true")
}

/// `pods: 1/10, ...` from status.hard and status.used, the `limits.*` ones apart.
pub(super) fn resource_quota_cells(quota: &Value, now: Timestamp) -> Vec<Value> {
    let mut hard: Vec<(&String, &Value)> = entries(quota, "/status/hard").collect();
    hard.sort_by_key(|(k, _)| *k);
    let (mut requests, mut limits) = (Vec::new(), Vec::new());
    for (resource, limit) in hard {
        let used = quota
            .pointer(&format!(
                "/status/used/{}",
                resource.replace('~', "~0").replace('/', "~1")
            ))
            .and_then(Value::as_str)
            .unwrap_or("0");
        let entry = format!("{resource}: {used}/{}", limit.as_str().unwrap_or_default());
        if resource.starts_with("limits.") {
            limits.push(entry);
        } else {
            requests.push(entry);
        }
    }
    vec![
        text(quota, "/metadata/name").into(),
        since(super::time(quota, "/metadata/creationTimestamp"), now).into(),
        requests.join(", ").into(),
        limits.join(", ").into(),
    ]
}

pub(super) fn limit_range_cells(lr: &Value) -> Vec<Value> {
    let created = super::time(lr, "/metadata/creationTimestamp")
        .and_then(|t| Timestamp::from_second(t.as_second()).ok())
        .map_or("0001-01-01T00:00:00Z".into(), |t| t.to_string());
    vec![text(lr, "/metadata/name").into(), created.into()]
}
