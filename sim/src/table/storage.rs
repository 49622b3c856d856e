//! The Table printers of the kinds `kubectl apply --prune` looks after besides the workloads
//! (PersistentVolumeClaim, PersistentVolume, CronJob, Ingress), as Kubernetes 1.35's printers
//! fill their rows. Column descriptions are the fields' API documentation.

use jiff::Timestamp;
use serde_json::Value;

use super::{
    AGE, CONTAINERS, Col, IMAGES, NAME, col, format_label_selector, list, since, strs, text, wide,
};

#[rustfmt::skip]
pub(super) const PERSISTENT_VOLUME_CLAIM: &[Col] = &[NAME,
    col("Status", "phase represents the current phase of PersistentVolumeClaim."),
    col("Volume", "volumeName is the binding reference to the PersistentVolume backing this claim."),
    col("Capacity", "capacity represents the actual resources of the underlying volume."),
    col("Access Modes", "accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1"),
    col("StorageClass", "StorageClass of the pvc"),
    col("VolumeAttributesClass", "VolumeAttributesClass of the pvc"),
    AGE,
    wide("VolumeMode", "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.")];
#[rustfmt::skip]
pub(super) const PERSISTENT_VOLUME: &[Col] = &[NAME,
    col("Capacity", "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity"),
    col("Access Modes", "accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes"),
    col("Reclaim Policy", "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming"),
    col("Status", "phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase"),
    col("Claim", "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding"),
    col("StorageClass", "StorageClass of the pv"),
    col("VolumeAttributesClass", "VolumeAttributesClass of the pv"),
    col("Reason", "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI."),
    AGE,
    wide("VolumeMode", "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.")];
#[rustfmt::skip]
pub(super) const CRON_JOB: &[Col] = &[NAME,
    col("Schedule", "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
    col("Timezone", "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones"),
    Col("Suspend", "boolean", "", "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.", 0),
    Col("Active", "integer", "", "A list of pointers to currently running jobs.", 0),
    col("Last Schedule", "Information when was the last time the job was successfully scheduled."),
    AGE, CONTAINERS, IMAGES,
    wide("Selector", "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors")];
#[rustfmt::skip]
pub(super) const INGRESS: &[Col] = &[NAME,
    col("Class", "The name of the IngressClass resource that should be used for additional configuration"),
    col("Hosts", "Hosts that incoming requests are matched against before the ingress rule"),
    col("Address", "Address is a list containing ingress points for the load-balancer"),
    col("Ports", "Ports of TLS configurations that open"),
    AGE];

/// `GetAccessModesAsString`: RWO, ROX, RWX, RWOP, each once, in that order.
fn access_modes(modes: &[&str]) -> String {
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .iter()
    .filter(|(mode, _)| modes.contains(mode))
    .map(|(_, short)| *short)
    .collect::<Vec<_>>()
    .join(",")
}

/// A deleting object shows `Terminating` whatever its phase.
fn phase(obj: &Value) -> String {
    if obj
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null())
    {
        "Terminating".into()
    } else {
        text(obj, "/status/phase").into()
    }
}

/// The storage class: the beta annotation first, then the field.
fn class(obj: &Value) -> String {
    match obj.pointer("/metadata/annotations/volume.beta.kubernetes.io~1storage-class") {
        Some(Value::String(c)) => c.clone(),
        _ => text(obj, "/spec/storageClassName").into(),
    }
}

fn text_or_unset(obj: &Value, ptr: &str) -> String {
    obj.pointer(ptr)
        .and_then(Value::as_str)
        .unwrap_or("<unset>")
        .into()
}

pub(super) fn claim_cells(pvc: &Value, now: Timestamp) -> Vec<Value> {
    let volume = text(pvc, "/spec/volumeName");
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            text(pvc, "/status/capacity/storage").to_string(),
            access_modes(&strs(pvc, "/status/accessModes")),
        )
    };
    vec![
        text(pvc, "/metadata/name").into(),
        phase(pvc).into(),
        volume.into(),
        capacity.into(),
        modes.into(),
        class(pvc).into(),
        text_or_unset(pvc, "/spec/volumeAttributesClassName").into(),
        since(super::time(pvc, "/metadata/creationTimestamp"), now).into(),
        text_or_unset(pvc, "/spec/volumeMode").into(),
    ]
}

pub(super) fn volume_cells(pv: &Value, now: Timestamp) -> Vec<Value> {
    let claim = match pv.pointer("/spec/claimRef") {
        Some(r) if r.is_object() => format!("{}/{}", text(r, "/namespace"), text(r, "/name")),
        _ => String::new(),
    };
    vec![
        text(pv, "/metadata/name").into(),
        text(pv, "/spec/capacity/storage").into(),
        access_modes(&strs(pv, "/spec/accessModes")).into(),
        text(pv, "/spec/persistentVolumeReclaimPolicy").into(),
        phase(pv).into(),
        claim.into(),
        class(pv).into(),
        text_or_unset(pv, "/spec/volumeAttributesClassName").into(),
        text(pv, "/status/reason").into(),
        since(super::time(pv, "/metadata/creationTimestamp"), now).into(),
        text_or_unset(pv, "/spec/volumeMode").into(),
    ]
}

pub(super) fn cron_job_cells(cj: &Value, now: Timestamp) -> Vec<Value> {
    let suspend = match cj.pointer("/spec/suspend").and_then(Value::as_bool) {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    };
    let last = super::time(cj, "/status/lastScheduleTime")
        .map_or_else(|| "<none>".to_string(), |t| since(Some(t), now));
    let cs = list(cj, "/spec/jobTemplate/spec/template/spec/containers");
    let join = |field| {
        cs.iter()
            .map(|c| text(c, field))
            .collect::<Vec<_>>()
            .join(",")
    };
    vec![
        text(cj, "/metadata/name").into(),
        text(cj, "/spec/schedule").into(),
        cj.pointer("/spec/timeZone")
            .and_then(Value::as_str)
            .unwrap_or("<none>")
            .into(),
        suspend.into(),
        (list(cj, "/status/active").len() as i64).into(),
        last.into(),
        since(super::time(cj, "/metadata/creationTimestamp"), now).into(),
        join("/name").into(),
        join("/image").into(),
        format_label_selector(cj.pointer("/spec/jobTemplate/spec/selector")).into(),
    ]
}

pub(super) fn ingress_cells(ing: &Value, now: Timestamp) -> Vec<Value> {
    // formatHosts: the first three hosts set, then how many rules are left.
    let rules = list(ing, "/spec/rules");
    let mut hosts = Vec::new();
    let mut more = false;
    for rule in rules {
        if hosts.len() == 3 {
            more = true;
        }
        let host = text(rule, "/host");
        if !more && !host.is_empty() {
            hosts.push(host);
        }
    }
    let hosts = match (hosts.is_empty(), more) {
        (true, _) => "*".to_string(),
        (false, true) => format!("{} + {} more...", hosts.join(","), rules.len() - 3),
        (false, false) => hosts.join(","),
    };
    let mut addresses: Vec<&str> = list(ing, "/status/loadBalancer/ingress")
        .iter()
        .map(|i| match text(i, "/ip") {
            "" => text(i, "/hostname"),
            ip => ip,
        })
        .filter(|a| !a.is_empty())
        .collect();
    addresses.sort_unstable();
    addresses.dedup();
    let ports = if list(ing, "/spec/tls").is_empty() {
        "80"
    } else {
        "80, 443"
    };
    vec![
        text(ing, "/metadata/name").into(),
        ing.pointer("/spec/ingressClassName")
            .and_then(Value::as_str)
            .unwrap_or("<none>")
            .into(),
        hosts.into(),
        addresses.join(",").into(),
        ports.into(),
        since(super::time(ing, "/metadata/creationTimestamp"), now).into(),
    ]
}
