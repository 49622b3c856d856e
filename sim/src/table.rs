//! The `meta.k8s.io/v1` Table that `kubectl get` asks for, printed as a 1.35 API server prints it.
//!
//! The real server computes the rows (Go printers for built-in kinds, `additionalPrinterColumns`
//! for custom resources) and kubectl only lays them out. The server always fills the wide cells
//! too; kubectl hides columns of priority above 0 unless `-o wide`. Where the server would have
//! defaulted a field before printing (replicas, Service type, protocol) a missing one is defaulted.

use std::borrow::Borrow;
use std::time::Duration;

use jiff::Timestamp;
use serde_json::{Map, Value, json};

/// A built-in printer's column: name, type, format, description, priority.
struct Col(&'static str, &'static str, &'static str, &'static str, i64);

const fn col(name: &'static str, desc: &'static str) -> Col {
    Col(name, "string", "", desc, 0)
}
const fn wide(name: &'static str, desc: &'static str) -> Col {
    Col(name, "string", "", desc, 1)
}
const fn int_col(name: &'static str, desc: &'static str) -> Col {
    Col(name, "integer", "", desc, 0)
}
const NAME: Col = Col("Name", "string", "name", D_NAME, 0);
const AGE: Col = col("Age", D_AGE);
const CONTAINERS: Col = wide("Containers", "Names of each container in the template.");
const IMAGES: Col = wide(
    "Images",
    "Images referenced by each container in the template.",
);

#[rustfmt::skip]
const POD: &[Col] = &[NAME, col("Ready", D_POD_READY), col("Status", D_POD_STATUS),
    col("Restarts", D_POD_RESTARTS), AGE, wide("IP", D_POD_IP), wide("Node", D_NODE),
    wide("Nominated Node", D_NOMINATED), wide("Readiness Gates", D_GATES)];
#[rustfmt::skip]
const EVENT: &[Col] = &[col("Last Seen", D_EV_LAST), col("Type", D_EV_TYPE),
    col("Reason", D_EV_REASON), col("Object", D_EV_OBJECT), wide("Subobject", D_EV_SUBOBJECT),
    wide("Source", D_EV_SOURCE), col("Message", D_EV_MESSAGE), wide("First Seen", D_EV_FIRST),
    wide("Count", D_EV_COUNT), Col("Name", "string", "name", D_NAME, 1)];
#[rustfmt::skip]
const SERVICE: &[Col] = &[NAME, col("Type", D_SVC_TYPE), col("Cluster-IP", D_SVC_CLUSTER_IP),
    col("External-IP", D_SVC_EXTERNAL_IPS), col("Port(s)", D_SVC_PORTS), AGE,
    wide("Selector", D_SVC_SELECTOR)];
#[rustfmt::skip]
const DEPLOYMENT: &[Col] = &[NAME, col("Ready", "Number of the pod with ready state"),
    col("Up-to-date", D_DEPLOY_UPDATED), col("Available", D_DEPLOY_AVAILABLE), AGE, CONTAINERS,
    IMAGES, wide("Selector", D_DEPLOY_SELECTOR)];
#[rustfmt::skip]
const REPLICA_SET: &[Col] = &[NAME, int_col("Desired", D_RS_DESIRED),
    int_col("Current", D_RS_CURRENT), int_col("Ready", D_RS_READY), AGE, CONTAINERS, IMAGES,
    wide("Selector", D_RS_SELECTOR)];
#[rustfmt::skip]
const JOB: &[Col] = &[NAME, col("Status", "Status of the job."),
    col("Completions", D_JOB_SUCCEEDED), col("Duration", "Time required to complete the job."),
    AGE, CONTAINERS, IMAGES, wide("Selector", D_JOB_SELECTOR)];
const NAMESPACE: &[Col] = &[NAME, col("Status", "The status of the namespace"), AGE];
/// The `/scale` subresource's printer (its Name column has no `name` format).
#[rustfmt::skip]
const SCALE: &[Col] = &[col("Name", D_NAME),
    int_col("Desired", "replicas is the desired number of instances for the scaled object."),
    int_col("Available", "replicas is the actual number of observed instances of the scaled object."),
    AGE];
const CONFIG_MAP: &[Col] = &[NAME, col("Data", D_CM_DATA), AGE];
const SECRET: &[Col] = &[
    NAME,
    col("Type", D_SECRET_TYPE),
    col("Data", D_SECRET_DATA),
    AGE,
];
// 1.35 dropped the Secrets count (kubernetes/kubernetes#117160): nothing fills `secrets` any more.
const SERVICE_ACCOUNT: &[Col] = &[NAME, AGE];
// CRDs have no printer of their own; the server's default table convertor serves them.
const CRD: &[Col] = &[NAME, Col("Created At", "date", "", D_AGE, 0)];

/// A CRD `additionalPrinterColumns` entry: name, type, JSONPath (plain `.a.b`), priority, and a
/// description (`None`: the server's generic one).
struct PrinterColumn(
    &'static str,
    &'static str,
    &'static str,
    i64,
    Option<&'static str>,
);

// Argo CD's Application CRD lists its own columns, so the server adds no Age column.
#[rustfmt::skip]
const APPLICATION: &[PrinterColumn] = &[
    PrinterColumn("Sync Status", "string", ".status.sync.status", 0, None),
    PrinterColumn("Health Status", "string", ".status.health.status", 0, None),
    PrinterColumn("Revision", "string", ".status.sync.revision", 10, None),
    PrinterColumn("Project", "string", ".spec.project", 10, None),
];
/// What the server serves for a CRD declaring no columns (AppProject, and unknown kinds here).
#[rustfmt::skip]
const DEFAULT_CR: &[PrinterColumn] =
    &[PrinterColumn("Age", "date", ".metadata.creationTimestamp", 0, Some(D_AGE))];
const CRD_COLUMN: &str = "Custom resource definition column (in JSONPath format): ";
const META_V1: &str = "meta.k8s.io/v1";

/// A row's cells: each a `&str`, `String`, integer or ready-made `Value`.
macro_rules! cells {
    ($($cell:expr),* $(,)?) => { vec![$(Value::from($cell)),*] };
}

mod cluster;
mod lab_kinds;
use lab_kinds::{event_cells, job_cells, pod_cells, pod_completion, service_cells};
mod custom;
mod jsonpath;
mod policy;
mod storage;
mod workloads;

pub use custom::table_of;

#[derive(Clone, Copy)]
enum Printer {
    Scale,
    DaemonSet,
    StatefulSet,
    ReplicationController,
    Node,
    ComponentStatus,
    Lease,
    Endpoints,
    EndpointSlice,
    Namespace,
    ConfigMap,
    Secret,
    ServiceAccount,
    Pod,
    Event,
    Service,
    Deployment,
    ReplicaSet,
    Job,
    Crd,
    Hpa,
    Pdb,
    NetworkPolicy,
    StorageClass,
    ResourceQuota,
    LimitRange,
    PersistentVolumeClaim,
    PersistentVolume,
    CronJob,
    Ingress,
    Custom(&'static [PrinterColumn]),
}

/// The printer for a kind, and its built-in columns (custom resources: just Name).
fn printer(group: &str, kind: &str) -> (Printer, &'static [Col]) {
    use Printer as P;
    let core = matches!(group, "" | "core");
    match (kind, group) {
        ("Namespace", _) if core => (P::Namespace, NAMESPACE),
        ("Scale", "autoscaling") => (P::Scale, SCALE),
        ("ConfigMap", _) if core => (P::ConfigMap, CONFIG_MAP),
        ("Secret", _) if core => (P::Secret, SECRET),
        ("ServiceAccount", _) if core => (P::ServiceAccount, SERVICE_ACCOUNT),
        ("Pod", _) if core => (P::Pod, POD),
        ("Event", _) if core => (P::Event, EVENT),
        ("Service", _) if core => (P::Service, SERVICE),
        ("Node", _) if core => (P::Node, cluster::NODE),
        ("ComponentStatus", _) if core => (P::ComponentStatus, cluster::COMPONENT_STATUS),
        ("ReplicationController", _) if core => {
            (P::ReplicationController, workloads::REPLICATION_CONTROLLER)
        }
        ("DaemonSet", "apps") => (P::DaemonSet, workloads::DAEMON_SET),
        ("StatefulSet", "apps") => (P::StatefulSet, workloads::STATEFUL_SET),
        ("Endpoints", _) if core => (P::Endpoints, cluster::ENDPOINTS),
        ("Lease", "coordination.k8s.io") => (P::Lease, cluster::LEASE),
        ("EndpointSlice", "discovery.k8s.io") => (P::EndpointSlice, cluster::ENDPOINT_SLICE),
        ("Deployment", "apps") => (P::Deployment, DEPLOYMENT),
        ("ReplicaSet", "apps") => (P::ReplicaSet, REPLICA_SET),
        ("Job", "batch") => (P::Job, JOB),
        ("CronJob", "batch") => (P::CronJob, storage::CRON_JOB),
        ("PersistentVolumeClaim", _) if core => {
            (P::PersistentVolumeClaim, storage::PERSISTENT_VOLUME_CLAIM)
        }
        ("PersistentVolume", _) if core => (P::PersistentVolume, storage::PERSISTENT_VOLUME),
        ("Ingress", "networking.k8s.io") => (P::Ingress, storage::INGRESS),
        ("CustomResourceDefinition", "apiextensions.k8s.io") => (P::Crd, CRD),
        ("HorizontalPodAutoscaler", "autoscaling") => (P::Hpa, policy::HPA),
        ("PodDisruptionBudget", "policy") => (P::Pdb, policy::PDB),
        ("NetworkPolicy", "networking.k8s.io") => (P::NetworkPolicy, policy::NETWORK_POLICY),
        ("StorageClass", "storage.k8s.io") => (P::StorageClass, policy::STORAGE_CLASS),
        ("ResourceQuota", _) if core => (P::ResourceQuota, policy::RESOURCE_QUOTA),
        ("LimitRange", _) if core => (P::LimitRange, policy::LIMIT_RANGE),
        ("Application", "argoproj.io") => (P::Custom(APPLICATION), &[NAME]),
        _ => (P::Custom(DEFAULT_CR), &[NAME]),
    }
}

fn definition(name: &str, ty: &str, format: &str, desc: &str, priority: i64) -> Value {
    json!({"name": name, "type": ty, "format": format, "description": desc, "priority": priority})
}

/// Column definitions for a kind: [{"name","type","format","description","priority"}] as the real apiserver returns them.
pub fn column_definitions(group: &str, kind: &str) -> Vec<Value> {
    let (printer, cols) = printer(group, kind);
    let mut defs: Vec<Value> = cols
        .iter()
        .map(|c| definition(c.0, c.1, c.2, c.3, c.4))
        .collect();
    if let Printer::Custom(extra) = printer {
        for c in extra {
            let generic = format!("{CRD_COLUMN}{}", c.2);
            defs.push(definition(c.0, c.1, "", c.4.unwrap_or(&generic), c.3));
        }
    }
    defs
}

/// One row's cells for an object (same order), computed at `now`.
pub fn row_cells(group: &str, kind: &str, obj: &Value, now: Timestamp) -> Vec<Value> {
    let name = text(obj, "/metadata/name");
    let age = since(time(obj, "/metadata/creationTimestamp"), now);
    match printer(group, kind).0 {
        Printer::Namespace => cells![name, text_or(obj, "/status/phase", "Active"), age],
        Printer::ConfigMap => cells![name, keys(obj, "/data") + keys(obj, "/binaryData"), age],
        Printer::Secret => {
            // `stringData` is write-only: the server folds it into `data` before anyone reads it.
            let data = obj.pointer("/data").and_then(Value::as_object);
            let folded = |(k, _): &(&String, _)| data.is_some_and(|d| d.contains_key(*k));
            let count =
                keys(obj, "/data") + entries(obj, "/stringData").filter(|e| !folded(e)).count();
            cells![name, text_or(obj, "/type", "Opaque"), count, age]
        }
        Printer::ServiceAccount => cells![name, age],
        Printer::Scale => cells![
            name,
            int(obj, "/spec/replicas"),
            int(obj, "/status/replicas"),
            age
        ],
        Printer::Pod => pod_cells(name, age, obj, now),
        Printer::Event => event_cells(obj, now),
        Printer::Service => service_cells(name, age, obj),
        Printer::Node => cluster::node_cells(obj, now),
        Printer::ComponentStatus => cluster::component_status_cells(obj),
        Printer::DaemonSet => workloads::daemon_set_cells(obj, now),
        Printer::StatefulSet => workloads::stateful_set_cells(obj, now),
        Printer::ReplicationController => workloads::replication_controller_cells(obj, now),
        Printer::Lease => cluster::lease_cells(obj, now),
        Printer::Endpoints => cluster::endpoints_cells(obj, now),
        Printer::EndpointSlice => cluster::endpoint_slice_cells(obj, now),
        Printer::Deployment => {
            let ready = format!("{}/{}", int(obj, "/status/readyReplicas"), replicas(obj));
            let up = int(obj, "/status/updatedReplicas");
            let avail = int(obj, "/status/availableReplicas");
            // Deployments print the bare selector string; ReplicaSets and Jobs say <none>/<error>.
            let sel = label_selector(obj.pointer("/spec/selector")).unwrap_or("<invalid>".into());
            let (names, images) = containers(obj);
            cells![name, ready, up, avail, age, names, images, sel]
        }
        Printer::ReplicaSet => {
            let current = int(obj, "/status/replicas");
            let ready = int(obj, "/status/readyReplicas");
            let sel = format_label_selector(obj.pointer("/spec/selector"));
            let (names, images) = containers(obj);
            cells![name, replicas(obj), current, ready, age, names, images, sel]
        }
        Printer::Job => job_cells(name, age, obj, now),
        Printer::Crd => {
            // RFC 3339 in whole seconds; Go's zero time when there is no timestamp.
            let whole = |t: Timestamp| Timestamp::from_second(t.as_second()).ok();
            let created = time(obj, "/metadata/creationTimestamp").and_then(whole);
            let created = created.map_or("0001-01-01T00:00:00Z".into(), |t| t.to_string());
            cells![name, created]
        }
        Printer::Hpa => policy::hpa_cells(obj, now),
        Printer::Pdb => policy::pdb_cells(obj, now),
        Printer::NetworkPolicy => policy::network_policy_cells(obj, now),
        Printer::StorageClass => policy::storage_class_cells(obj, now),
        Printer::ResourceQuota => policy::resource_quota_cells(obj, now),
        Printer::LimitRange => policy::limit_range_cells(obj),
        Printer::PersistentVolumeClaim => storage::claim_cells(obj, now),
        Printer::PersistentVolume => storage::volume_cells(obj, now),
        Printer::CronJob => storage::cron_job_cells(obj, now),
        Printer::Ingress => storage::ingress_cells(obj, now),
        Printer::Custom(cols) => {
            let cells = cols.iter().map(|c| custom_cell(c, obj, now));
            [Value::from(name)].into_iter().chain(cells).collect()
        }
    }
}

/// A whole Table: {"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":rv},"columnDefinitions":[...] (empty when include_columns is false),"rows":[{"cells":[...],"object":{PartialObjectMetadata}}]}
pub fn table(
    group: &str,
    kind: &str,
    objects: &[&Value],
    resource_version: &str,
    include_columns: bool,
    now: Timestamp,
) -> Value {
    let is_pod = matches!(printer(group, kind).0, Printer::Pod);
    let row = |obj: &&Value| {
        let mut row = Map::new();
        row.insert("cells".into(), row_cells(group, kind, obj, now).into());
        if let Some(done) = pod_completion(obj).filter(|_| is_pod) {
            row.insert("conditions".into(), done);
        }
        // kubectl leaves includeObject at its default, Metadata: rows carry only metadata.
        let metadata = obj.get("metadata").cloned().unwrap_or_else(|| json!({}));
        let object =
            json!({"kind": "PartialObjectMetadata", "apiVersion": META_V1, "metadata": metadata});
        row.insert("object".into(), object);
        Value::Object(row)
    };
    let rows: Vec<Value> = objects.iter().map(row).collect();
    let mut metadata = Map::new();
    if !resource_version.is_empty() {
        metadata.insert("resourceVersion".into(), json!(resource_version));
    }
    // The real server sends `null` here for noHeaders requests; kubectl reads `[]` the same way.
    let columns = if include_columns {
        column_definitions(group, kind)
    } else {
        Vec::new()
    };
    json!({"kind": "Table", "apiVersion": META_V1, "metadata": metadata,
        "columnDefinitions": columns, "rows": rows})
}

/// Human age like kubectl's (`duration.HumanDuration`): two or three significant figures.
pub fn human_age(d: Duration) -> String {
    let secs = d.as_secs();
    let (mins, hours, days) = (secs / 60, secs / 3600, secs / 86_400);
    let pair = |big: u64, unit: &str, small: u64, small_unit: &str| match small {
        0 => format!("{big}{unit}"),
        _ => format!("{big}{unit}{small}{small_unit}"),
    };
    match () {
        () if secs < 120 => format!("{secs}s"),
        () if mins < 10 => pair(mins, "m", secs % 60, "s"),
        () if mins < 180 => format!("{mins}m"),
        () if hours < 8 => pair(hours, "h", mins % 60, "m"),
        () if hours < 48 => format!("{hours}h"),
        () if days < 8 => pair(days, "d", hours % 24, "h"),
        () if days < 365 * 2 => format!("{days}d"),
        () if days < 365 * 8 => pair(days / 365, "y", days % 365, "d"),
        () => format!("{}y", days / 365),
    }
}

/// `HumanDuration(to - from)`; like Go, up to a second of clock skew reads as "0s".
fn between(from: Timestamp, to: Timestamp) -> String {
    let nanos = to.as_nanosecond() - from.as_nanosecond();
    let positive = u64::try_from(nanos).unwrap_or(u64::MAX);
    // Go truncates the seconds toward zero before comparing, as integer division does.
    match nanos / 1_000_000_000 {
        ..-1 => "<invalid>".into(),
        _ if nanos < 0 => "0s".into(),
        _ => human_age(Duration::from_nanos(positive)),
    }
}

fn since(t: Option<Timestamp>, now: Timestamp) -> String {
    t.map_or_else(|| "<unknown>".into(), |t| between(t, now))
}

fn text<'a>(v: &'a Value, ptr: &str) -> &'a str {
    v.pointer(ptr).and_then(Value::as_str).unwrap_or("")
}

fn text_or<'a>(v: &'a Value, ptr: &str, default: &'a str) -> &'a str {
    match text(v, ptr) {
        "" => default,
        s => s,
    }
}

fn int(v: &Value, ptr: &str) -> i64 {
    let n = v.pointer(ptr);
    let float = || n.and_then(Value::as_f64).map(|f| f as i64);
    n.and_then(Value::as_i64).or_else(float).unwrap_or(0)
}

fn list<'a>(v: &'a Value, ptr: &str) -> &'a [Value] {
    match v.pointer(ptr) {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}

fn strs<'a>(v: &'a Value, ptr: &str) -> Vec<&'a str> {
    list(v, ptr).iter().filter_map(Value::as_str).collect()
}

fn entries<'a>(v: &'a Value, ptr: &str) -> impl Iterator<Item = (&'a String, &'a Value)> {
    let map = v.pointer(ptr).and_then(Value::as_object);
    map.into_iter().flatten()
}

fn keys(v: &Value, ptr: &str) -> usize {
    entries(v, ptr).count()
}

fn time(v: &Value, ptr: &str) -> Option<Timestamp> {
    v.pointer(ptr)?.as_str()?.parse().ok()
}

fn present(v: &Value, ptr: &str) -> bool {
    v.pointer(ptr).is_some_and(|x| !x.is_null())
}

fn is_true(v: &Value, field: &str) -> bool {
    v.get(field) == Some(&Value::Bool(true))
}

/// Comma-joined, or `empty` when there is nothing to join.
fn join_or<S: Borrow<str>>(parts: &[S], empty: &str) -> String {
    match parts {
        [] => empty.to_owned(),
        _ => parts.join(","),
    }
}

/// `spec.replicas`, which the server defaults to 1.
fn replicas(obj: &Value) -> i64 {
    match obj.pointer("/spec/replicas") {
        None | Some(Value::Null) => 1,
        Some(_) => int(obj, "/spec/replicas"),
    }
}

/// Container names and images of a workload's pod template, comma-joined.
fn containers(obj: &Value) -> (String, String) {
    let cs = list(obj, "/spec/template/spec/containers");
    let join = |field| {
        cs.iter()
            .map(|c| text(c, field))
            .collect::<Vec<_>>()
            .join(",")
    };
    (join("/name"), join("/image"))
}

/// `metav1.LabelSelectorAsSelector(sel).String()`: requirements sorted by key.
fn label_selector(sel: Option<&Value>) -> Result<String, ()> {
    let Some(sel) = sel.filter(|s| !s.is_null()) else {
        return Ok(String::new());
    };
    let mut reqs: Vec<(&str, String)> = Vec::new();
    for (k, v) in entries(sel, "/matchLabels") {
        reqs.push((k, format!("{k}={}", v.as_str().ok_or(())?)));
    }
    for e in list(sel, "/matchExpressions") {
        let (key, mut vals) = (text(e, "/key"), strs(e, "/values"));
        vals.sort_unstable();
        let req = match (text(e, "/operator"), vals.is_empty()) {
            ("In", false) => format!("{key} in ({})", vals.join(",")),
            ("NotIn", false) => format!("{key} notin ({})", vals.join(",")),
            ("Exists", true) => key.to_owned(),
            ("DoesNotExist", true) => format!("!{key}"),
            _ => return Err(()),
        };
        reqs.push((key, req));
    }
    reqs.sort_by_key(|r| r.0);
    Ok(reqs.into_iter().map(|r| r.1).collect::<Vec<_>>().join(","))
}

/// `metav1.FormatLabelSelector`, as ReplicaSets and Jobs print their selector.
fn format_label_selector(sel: Option<&Value>) -> String {
    match label_selector(sel) {
        Ok(s) if s.is_empty() => "<none>".into(),
        Ok(s) => s,
        Err(()) => "<error>".into(),
    }
}

fn condition_true(conditions: &[Value], ty: &str) -> bool {
    // As in the Go helpers, only the first condition of a type counts.
    let first = conditions.iter().find(|c| text(c, "/type") == ty);
    first.is_some_and(|c| text(c, "/status") == "True")
}

/// Init containers with restartPolicy Always are sidecars, which count as the pod's containers.
fn sidecar(inits: &[Value], name: &str) -> bool {
    let spec = inits.iter().find(|c| text(c, "/name") == name);
    spec.is_some_and(|c| text(c, "/restartPolicy") == "Always")
}

/// A CRD column's cell. A path that finds nothing gives `null`, which kubectl prints blank.
fn custom_cell(col: &PrinterColumn, obj: &Value, now: Timestamp) -> Value {
    let mut path = col.2.split('.').filter(|k| !k.is_empty());
    let found = path.try_fold(obj, |v, k| v.get(k));
    match found.filter(|v| !v.is_null()) {
        Some(v) => typed_cell(col.1, v, now),
        None => Value::Null,
    }
}

/// A found value as a column of this type prints it (`null` when the type does not fit).
fn typed_cell(type_: &str, v: &Value, now: Timestamp) -> Value {
    match (type_, v) {
        ("string", Value::String(_)) => v.clone(),
        // JSONPath prints scalars bare and objects or lists as JSON.
        ("string", Value::Number(_) | Value::Bool(_)) => v.to_string().into(),
        ("string", _) => serde_json::to_string(v).unwrap_or_default().into(),
        ("integer", Value::Number(n)) => n.as_i64().or(n.as_f64().map(|f| f as i64)).into(),
        ("number", Value::Number(n)) => n.as_f64().into(),
        ("boolean", Value::Bool(_)) => v.clone(),
        ("date", Value::String(s)) if s.is_empty() || s == "null" => "<unknown>".into(),
        ("date", Value::String(s)) => match s.parse() {
            Ok(t) => between(t, now).into(),
            Err(_) => "<invalid>".into(),
        },
        _ => Value::Null,
    }
}

// Descriptions: the API field docs (k8s.io/api and apimachinery 1.35) the server copies in.
const D_POD_READY: &str = "The aggregate readiness state of this pod for accepting traffic.";
const D_POD_STATUS: &str = "The aggregate status of the containers in this pod.";
const D_POD_RESTARTS: &str = "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.";
const D_NAME: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
const D_AGE: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const D_POD_IP: &str = "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.";
const D_NODE: &str = "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename";
const D_NOMINATED: &str = "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.";
const D_GATES: &str = "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to \"True\" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates";
const D_RS_DESIRED: &str = "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset";
const D_RS_CURRENT: &str = "Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset";
const D_RS_READY: &str =
    "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.";
const D_RS_SELECTOR: &str = "Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";
const D_JOB_SUCCEEDED: &str = "The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.";
const D_JOB_SELECTOR: &str = "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";
const D_SVC_TYPE: &str = "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. \"ClusterIP\" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is \"None\", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. \"NodePort\" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. \"LoadBalancer\" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. \"ExternalName\" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types";
const D_SVC_CLUSTER_IP: &str = "clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are \"None\", empty string (\"\"), or a valid IP address. Setting this to \"None\" makes a \"headless service\" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies";
const D_SVC_EXTERNAL_IPS: &str = "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.";
const D_SVC_PORTS: &str = "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies";
const D_SVC_SELECTOR: &str = "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/";
const D_EV_LAST: &str = "The time at which the most recent occurrence of this event was recorded.";
const D_EV_TYPE: &str =
    "Type of this event (Normal, Warning), new types could be added in the future";
const D_EV_REASON: &str = "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.";
const D_EV_OBJECT: &str = "The object that this event is about.";
const D_EV_SUBOBJECT: &str = "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.";
const D_EV_SOURCE: &str =
    "The component reporting this event. Should be a short machine understandable string.";
const D_EV_MESSAGE: &str = "A human-readable description of the status of this operation.";
const D_EV_FIRST: &str =
    "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)";
const D_EV_COUNT: &str = "The number of times this event has occurred.";
const D_SECRET_TYPE: &str = "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types";
const D_SECRET_DATA: &str = "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4";
const D_CM_DATA: &str = "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.";
const D_DEPLOY_UPDATED: &str = "Total number of non-terminating pods targeted by this deployment that have the desired template spec.";
const D_DEPLOY_AVAILABLE: &str = "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.";
const D_DEPLOY_SELECTOR: &str = "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.";

#[cfg(test)]
mod tests;
