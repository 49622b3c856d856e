//! The Table printers of the workload kinds outside the lab's own (DaemonSet,
//! ReplicationController), as Kubernetes 1.35's printers fill their rows.

use jiff::Timestamp;
use serde_json::Value;

use super::{
    AGE, CONTAINERS, Col, IMAGES, NAME, containers, entries, int, int_col, replicas, since, text,
    wide,
};

#[rustfmt::skip]
pub(super) const DAEMON_SET: &[Col] = &[NAME,
    int_col("Desired", "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/"),
    int_col("Current", "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/"),
    int_col("Ready", "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition."),
    int_col("Up-to-date", "The total number of nodes that are running updated daemon pod"),
    int_col("Available", "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)"),
    super::col("Node Selector", "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
    AGE, CONTAINERS, IMAGES,
    wide("Selector", "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors")];
#[rustfmt::skip]
pub(super) const REPLICATION_CONTROLLER: &[Col] = &[NAME,
    int_col("Desired", "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller"),
    int_col("Current", "Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller"),
    int_col("Ready", "The number of ready replicas for this replication controller."),
    AGE, CONTAINERS, IMAGES,
    wide("Selector", "Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors")];

#[rustfmt::skip]
pub(super) const STATEFUL_SET: &[Col] = &[NAME,
    super::col("Ready", "Number of the pod with ready state"),
    AGE, CONTAINERS, IMAGES];

pub(super) fn stateful_set_cells(sts: &Value, now: Timestamp) -> Vec<Value> {
    let (names, images) = containers(sts);
    vec![
        text(sts, "/metadata/name").into(),
        format!("{}/{}", int(sts, "/status/readyReplicas"), replicas(sts)).into(),
        since(super::time(sts, "/metadata/creationTimestamp"), now).into(),
        names.into(),
        images.into(),
    ]
}

/// `labels.FormatLabels`: sorted `k=v` pairs, `<none>` for none.
fn format_labels(obj: &Value, ptr: &str) -> String {
    let mut pairs: Vec<String> = entries(obj, ptr)
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
        .collect();
    pairs.sort();
    if pairs.is_empty() {
        "<none>".into()
    } else {
        pairs.join(",")
    }
}

pub(super) fn daemon_set_cells(ds: &Value, now: Timestamp) -> Vec<Value> {
    let (names, images) = containers(ds);
    let selector = super::format_label_selector(ds.pointer("/spec/selector"));
    vec![
        text(ds, "/metadata/name").into(),
        int(ds, "/status/desiredNumberScheduled").into(),
        int(ds, "/status/currentNumberScheduled").into(),
        int(ds, "/status/numberReady").into(),
        int(ds, "/status/updatedNumberScheduled").into(),
        int(ds, "/status/numberAvailable").into(),
        format_labels(ds, "/spec/template/spec/nodeSelector").into(),
        since(super::time(ds, "/metadata/creationTimestamp"), now).into(),
        names.into(),
        images.into(),
        selector.into(),
    ]
}

pub(super) fn replication_controller_cells(rc: &Value, now: Timestamp) -> Vec<Value> {
    let (names, images) = containers(rc);
    vec![
        text(rc, "/metadata/name").into(),
        replicas(rc).into(),
        int(rc, "/status/replicas").into(),
        int(rc, "/status/readyReplicas").into(),
        since(super::time(rc, "/metadata/creationTimestamp"), now).into(),
        names.into(),
        images.into(),
        format_labels(rc, "/spec/selector").into(),
    ]
}
