//! Defaulting, as the real API server applies it to every object it stores: the fields a learner
//! sees in `kubectl get -o yaml` that nobody wrote (imagePullPolicy, strategy, clusterIP, ...).
//! Argo CD's diff must cope with them, just as on k3s.

use serde_json::{Value, json};

use super::kinds::ResourceType;

mod extensions;
mod policy_kinds;

/// Fills in defaults for `obj`, a `ty`, in place.
pub fn apply(ty: &ResourceType, obj: &mut Value) {
    match (ty.group, ty.kind) {
        ("", "Namespace") => namespace(obj),
        ("", "Secret") => {
            string_data(obj);
            set_if_absent(obj, &["type"], json!("Opaque"));
        }
        ("", "Service") => service(obj),
        ("", "Pod") => {
            pod_spec(&mut obj["spec"], true);
            // Pods only: a template in a workload does not get it.
            if obj["spec"].is_object() {
                set_if_absent(obj, &["spec", "enableServiceLinks"], json!(true));
            }
        }
        ("apps", "Deployment") => {
            deployment(obj);
            pod_spec(&mut obj["spec"]["template"]["spec"], true);
        }
        ("apps", "StatefulSet") => {
            stateful_set(obj);
            pod_spec(&mut obj["spec"]["template"]["spec"], true);
        }
        ("apps", "DaemonSet") => {
            daemon_set(obj);
            pod_spec(&mut obj["spec"]["template"]["spec"], true);
        }
        ("", "ReplicationController") => {
            replication_controller(obj);
            pod_spec(&mut obj["spec"]["template"]["spec"], true);
        }
        ("apps", "ReplicaSet") => {
            set_if_absent(obj, &["spec", "replicas"], json!(1));
            pod_spec(&mut obj["spec"]["template"]["spec"], true);
        }
        ("batch", "Job") => {
            job(obj);
            pod_spec(&mut obj["spec"]["template"]["spec"], false);
        }
        ("batch", "CronJob") => cron_job(obj),
        ("", "PersistentVolumeClaim") => {
            set_if_absent(obj, &["spec", "volumeMode"], json!("Filesystem"));
        }
        ("", "PersistentVolume") => {
            set_if_absent(
                obj,
                &["spec", "persistentVolumeReclaimPolicy"],
                json!("Retain"),
            );
            set_if_absent(obj, &["spec", "volumeMode"], json!("Filesystem"));
            if obj["spec"]["hostPath"].is_object() {
                set_if_absent(obj, &["spec", "hostPath", "type"], json!(""));
            }
        }
        // v1 has only the replica floor to default; its metrics are v2's, defaulted there.
        ("autoscaling", "HorizontalPodAutoscaler") if ty.version == "v1" => {
            set_if_absent(obj, &["spec", "minReplicas"], json!(1));
        }
        ("autoscaling", "HorizontalPodAutoscaler") => policy_kinds::hpa(obj),
        ("networking.k8s.io", "NetworkPolicy") => policy_kinds::network_policy(obj),
        ("storage.k8s.io", "StorageClass") => policy_kinds::storage_class(obj),
        ("", "LimitRange") => policy_kinds::limit_range(obj),
        ("apiextensions.k8s.io", "CustomResourceDefinition") => extensions::crd(obj),
        // `SetDefaults_PriorityClass`: a class preempts lower ones unless it says otherwise.
        ("scheduling.k8s.io", "PriorityClass") => {
            set_if_absent(obj, &["preemptionPolicy"], json!("PreemptLowerPriority"));
        }
        _ => {
            if let Some(schema) = ty.custom.and_then(|c| c.schema.as_ref()) {
                extensions::custom_resource(schema, obj);
            }
        }
    }
}

/// A Secret's `stringData` is write-only: converting to the internal type merges each value,
/// base64-encoded, into `data` (over a key `data` already has) and drops the field.
fn string_data(obj: &mut Value) {
    use base64::Engine;
    let Some(Value::Object(strings)) = obj.as_object_mut().and_then(|o| o.remove("stringData"))
    else {
        return;
    };
    if strings.is_empty() {
        return;
    }
    if !obj["data"].is_object() {
        obj["data"] = json!({});
    }
    for (key, value) in strings {
        let text = value.as_str().unwrap_or_default();
        obj["data"][key] = json!(base64::engine::general_purpose::STANDARD.encode(text));
    }
}

fn namespace(obj: &mut Value) {
    let name = obj["metadata"]["name"].clone();
    if name.is_string() {
        set_if_absent(
            obj,
            &["metadata", "labels", "kubernetes.io/metadata.name"],
            name,
        );
    }
}

/// `SetDefaults_Service`, and the IP families the Service registry fills in for every type but
/// ExternalName (which gets no address at all).
fn service(obj: &mut Value) {
    set_if_absent(obj, &["spec", "type"], json!("ClusterIP"));
    set_if_absent(obj, &["spec", "sessionAffinity"], json!("None"));
    let kind = obj["spec"]["type"].as_str().unwrap_or_default().to_string();
    let external_ips = obj["spec"]["externalIPs"]
        .as_array()
        .is_some_and(|ips| !ips.is_empty());
    // `service.ExternallyAccessible`: reachable from outside the cluster.
    if matches!(kind.as_str(), "NodePort" | "LoadBalancer") || (kind == "ClusterIP" && external_ips)
    {
        set_if_absent(obj, &["spec", "externalTrafficPolicy"], json!("Cluster"));
    }
    if kind != "ExternalName" {
        set_if_absent(obj, &["spec", "ipFamilies"], json!(["IPv4"]));
        set_if_absent(obj, &["spec", "ipFamilyPolicy"], json!("SingleStack"));
    }
    if matches!(kind.as_str(), "ClusterIP" | "NodePort" | "LoadBalancer") {
        set_if_absent(obj, &["spec", "internalTrafficPolicy"], json!("Cluster"));
    }
    if kind == "LoadBalancer" {
        set_if_absent(obj, &["spec", "allocateLoadBalancerNodePorts"], json!(true));
    }
    // `get_mut`, not indexing: indexing a missing key would store a `null` (`ports: null`)
    // where the real server stores nothing.
    if let Some(ports) = list_mut(obj.get_mut("spec"), "ports") {
        for port in ports {
            set_if_absent(port, &["protocol"], json!("TCP"));
            if port.get("targetPort").is_none() {
                port["targetPort"] = port["port"].clone();
            }
        }
    }
}

fn deployment(obj: &mut Value) {
    set_if_absent(obj, &["spec", "replicas"], json!(1));
    set_if_absent(obj, &["spec", "revisionHistoryLimit"], json!(10));
    set_if_absent(obj, &["spec", "progressDeadlineSeconds"], json!(600));
    set_if_absent(obj, &["spec", "strategy", "type"], json!("RollingUpdate"));
    if obj["spec"]["strategy"]["type"] == "RollingUpdate" {
        set_if_absent(
            obj,
            &["spec", "strategy", "rollingUpdate", "maxSurge"],
            json!("25%"),
        );
        set_if_absent(
            obj,
            &["spec", "strategy", "rollingUpdate", "maxUnavailable"],
            json!("25%"),
        );
    }
}

fn stateful_set(obj: &mut Value) {
    set_if_absent(obj, &["spec", "replicas"], json!(1));
    set_if_absent(obj, &["spec", "podManagementPolicy"], json!("OrderedReady"));
    set_if_absent(obj, &["spec", "revisionHistoryLimit"], json!(10));
    set_if_absent(
        obj,
        &["spec", "updateStrategy", "type"],
        json!("RollingUpdate"),
    );
    if obj["spec"]["updateStrategy"]["type"] == "RollingUpdate" {
        set_if_absent(
            obj,
            &["spec", "updateStrategy", "rollingUpdate", "partition"],
            json!(0),
        );
    }
    for when in ["whenDeleted", "whenScaled"] {
        set_if_absent(
            obj,
            &["spec", "persistentVolumeClaimRetentionPolicy", when],
            json!("Retain"),
        );
    }
}

fn daemon_set(obj: &mut Value) {
    set_if_absent(obj, &["spec", "revisionHistoryLimit"], json!(10));
    set_if_absent(
        obj,
        &["spec", "updateStrategy", "type"],
        json!("RollingUpdate"),
    );
    if obj["spec"]["updateStrategy"]["type"] == "RollingUpdate" {
        let rolling = ["spec", "updateStrategy", "rollingUpdate"];
        set_if_absent(
            obj,
            &[rolling[0], rolling[1], rolling[2], "maxUnavailable"],
            json!(1),
        );
        set_if_absent(
            obj,
            &[rolling[0], rolling[1], rolling[2], "maxSurge"],
            json!(0),
        );
    }
}

/// core/v1's defaults: one replica, and the selector and labels taken from the template's.
fn replication_controller(obj: &mut Value) {
    set_if_absent(obj, &["spec", "replicas"], json!(1));
    let labels = obj["spec"]["template"]["metadata"]["labels"].clone();
    if labels.is_object() {
        set_if_absent(obj, &["spec", "selector"], labels.clone());
        set_if_absent(obj, &["metadata", "labels"], labels);
    }
}

fn job(obj: &mut Value) {
    // A Job without labels takes its template's (the ones the Job strategy generated too: the
    // real server's default shares the template's map, and applies again on every read).
    let template_labels = &obj["spec"]["template"]["metadata"]["labels"];
    if template_labels.as_object().is_some_and(|l| !l.is_empty())
        && obj["metadata"]["labels"]
            .as_object()
            .is_none_or(serde_json::Map::is_empty)
    {
        obj["metadata"]["labels"] = template_labels.clone();
    }
    set_if_absent(obj, &["spec", "backoffLimit"], json!(6));
    set_if_absent(obj, &["spec", "completions"], json!(1));
    set_if_absent(obj, &["spec", "parallelism"], json!(1));
    set_if_absent(obj, &["spec", "completionMode"], json!("NonIndexed"));
    set_if_absent(obj, &["spec", "suspend"], json!(false));
    set_if_absent(obj, &["spec", "manualSelector"], json!(false));
    set_if_absent(
        obj,
        &["spec", "podReplacementPolicy"],
        json!("TerminatingOrFailed"),
    );
}

/// `SetDefaults_CronJob`, and the pod defaults in its Job template (a template is no Job: the
/// Job's own defaults come when the Job is made).
fn cron_job(obj: &mut Value) {
    set_if_absent(obj, &["spec", "concurrencyPolicy"], json!("Allow"));
    set_if_absent(obj, &["spec", "suspend"], json!(false));
    set_if_absent(obj, &["spec", "successfulJobsHistoryLimit"], json!(3));
    set_if_absent(obj, &["spec", "failedJobsHistoryLimit"], json!(1));
    // The templates' ObjectMeta are structs: `metadata: {}` even when none was sent.
    if obj["spec"]["jobTemplate"].is_object() {
        set_if_absent(obj, &["spec", "jobTemplate", "metadata"], json!({}));
        let template = &mut obj["spec"]["jobTemplate"]["spec"]["template"];
        if template.is_object() {
            set_if_absent(template, &["metadata"], json!({}));
            pod_spec(&mut template["spec"], false);
        }
    }
}

/// Labels and selector a Job gets on create, once it has a uid (the Job strategy's rule).
pub fn job_selector(obj: &mut Value) {
    let uid = obj["metadata"]["uid"].clone();
    let name = obj["metadata"]["name"].clone();
    if obj["spec"]["manualSelector"] == Value::Bool(true) {
        return;
    }
    obj["spec"]["selector"] = json!({"matchLabels": {"batch.kubernetes.io/controller-uid": uid}});
    for (k, v) in [
        ("batch.kubernetes.io/controller-uid", &uid),
        ("batch.kubernetes.io/job-name", &name),
        ("controller-uid", &uid),
        ("job-name", &name),
    ] {
        set_if_absent(
            &mut obj["spec"]["template"],
            &["metadata", "labels", k],
            v.clone(),
        );
    }
}

fn pod_spec(spec: &mut Value, always_restart: bool) {
    if !spec.is_object() {
        return;
    }
    if always_restart {
        set_if_absent(spec, &["restartPolicy"], json!("Always"));
    }
    set_if_absent(spec, &["dnsPolicy"], json!("ClusterFirst"));
    set_if_absent(spec, &["schedulerName"], json!("default-scheduler"));
    set_if_absent(spec, &["securityContext"], json!({}));
    set_if_absent(spec, &["terminationGracePeriodSeconds"], json!(30));
    for list in ["initContainers", "containers"] {
        if let Some(containers) = list_mut(Some(&mut *spec), list) {
            containers.iter_mut().for_each(container);
        }
    }
}

fn container(c: &mut Value) {
    let image = c["image"].as_str().unwrap_or_default();
    let tag_is_latest = match image.rsplit_once(':') {
        Some((_, tag)) if !tag.contains('/') => tag == "latest",
        _ => !image.contains('@'),
    };
    let policy = if tag_is_latest {
        "Always"
    } else {
        "IfNotPresent"
    };
    set_if_absent(c, &["imagePullPolicy"], json!(policy));
    set_if_absent(
        c,
        &["terminationMessagePath"],
        json!("/dev/termination-log"),
    );
    set_if_absent(c, &["terminationMessagePolicy"], json!("File"));
    set_if_absent(c, &["resources"], json!({}));
    if let Some(ports) = list_mut(Some(&mut *c), "ports") {
        for port in ports {
            set_if_absent(port, &["protocol"], json!("TCP"));
        }
    }
    for probe in ["readinessProbe", "livenessProbe", "startupProbe"] {
        if c[probe].is_object() {
            set_if_absent(c, &[probe, "timeoutSeconds"], json!(1));
            set_if_absent(c, &[probe, "periodSeconds"], json!(10));
            set_if_absent(c, &[probe, "successThreshold"], json!(1));
            set_if_absent(c, &[probe, "failureThreshold"], json!(3));
            if c[probe]["httpGet"].is_object() {
                set_if_absent(c, &[probe, "httpGet", "scheme"], json!("HTTP"));
            }
        }
    }
}

/// The list at `field` of `obj`, if there is one (never creating the key).
fn list_mut<'a>(obj: Option<&'a mut Value>, field: &str) -> Option<&'a mut Vec<Value>> {
    obj?.get_mut(field)?.as_array_mut()
}

/// Sets `path` to `value` unless something is already there; creates maps on the way, but
/// never overwrites a non-map it meets (a malformed body keeps its shape for validation).
fn set_if_absent(obj: &mut Value, path: &[&str], value: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = obj;
    for p in parents {
        if at.get(*p).is_none_or(Value::is_null) {
            at[*p] = json!({});
        }
        at = &mut at[*p];
        if !at.is_object() {
            return;
        }
    }
    if at.get(*last).is_none_or(Value::is_null) {
        at[*last] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deployment_gets_the_defaults_kubectl_shows() {
        let mut d = json!({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
            "spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27-alpine","ports":[{"containerPort":80}]}]}}}});
        apply(&crate::kinds::DEPLOYMENT, &mut d);
        assert_eq!(d["spec"]["replicas"], 1);
        assert_eq!(d["spec"]["strategy"]["rollingUpdate"]["maxSurge"], "25%");
        let c = &d["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(c["imagePullPolicy"], "IfNotPresent");
        assert_eq!(c["ports"][0]["protocol"], "TCP");
        assert_eq!(d["spec"]["template"]["spec"]["restartPolicy"], "Always");
    }

    #[test]
    fn a_secrets_string_data_is_merged_into_data_and_dropped() {
        let mut s = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "sd"},
            "data": {"a": "b2xk", "b": "Yg=="}, "stringData": {"a": "plain"}});
        apply(&crate::kinds::SECRET, &mut s);
        assert_eq!(s["data"], json!({"a": "cGxhaW4=", "b": "Yg=="}));
        assert!(s.get("stringData").is_none());
        assert_eq!(s["type"], "Opaque");
    }

    #[test]
    fn a_job_without_labels_takes_its_templates() {
        let mut j = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "done", "uid": "u1"},
            "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "busybox"}]}}}});
        job_selector(&mut j);
        apply(&crate::kinds::JOB, &mut j);
        assert_eq!(
            j["metadata"]["labels"],
            json!({"batch.kubernetes.io/controller-uid": "u1", "batch.kubernetes.io/job-name": "done",
                   "controller-uid": "u1", "job-name": "done"})
        );
        let mut labelled = json!({"metadata": {"name": "j", "labels": {"team": "a"}},
            "spec": {"template": {"metadata": {"labels": {"x": "y"}}}}});
        apply(&crate::kinds::JOB, &mut labelled);
        assert_eq!(labelled["metadata"]["labels"], json!({"team": "a"}));
    }

    #[test]
    fn services_get_the_defaults_of_their_type() {
        let svc = |spec: Value| {
            let mut s = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": spec});
            apply(&crate::kinds::SERVICE, &mut s);
            s["spec"].clone()
        };
        let np = svc(json!({"type": "NodePort", "ports": [{"port": 80}]}));
        assert_eq!(np["externalTrafficPolicy"], "Cluster");
        assert_eq!(np["internalTrafficPolicy"], "Cluster");
        assert!(np.get("allocateLoadBalancerNodePorts").is_none());
        let lb = svc(json!({"type": "LoadBalancer", "ports": [{"port": 80}]}));
        assert_eq!(lb["externalTrafficPolicy"], "Cluster");
        assert_eq!(lb["allocateLoadBalancerNodePorts"], true);
        let ci = svc(json!({"ports": [{"port": 80}]}));
        assert!(ci.get("externalTrafficPolicy").is_none());
        assert_eq!(ci["ipFamilyPolicy"], "SingleStack");
        let ci_ext = svc(json!({"externalIPs": ["1.2.3.4"], "ports": [{"port": 80}]}));
        assert_eq!(ci_ext["externalTrafficPolicy"], "Cluster");
        let en = svc(json!({"type": "ExternalName", "externalName": "db.example.com"}));
        assert_eq!(
            en,
            json!({"type": "ExternalName", "externalName": "db.example.com", "sessionAffinity": "None"})
        );
    }

    #[test]
    fn latest_or_untagged_images_are_always_pulled() {
        for (image, policy) in [
            ("nginx", "Always"),
            ("nginx:latest", "Always"),
            ("reg:5000/nginx", "Always"),
            ("reg:5000/nginx:1", "IfNotPresent"),
        ] {
            let mut c = json!({"image": image});
            container(&mut c);
            assert_eq!(c["imagePullPolicy"], policy, "{image}");
        }
    }

    #[test]
    fn defaulting_adds_no_null_for_a_list_that_is_not_there() {
        let mut pod = json!({"spec": {"containers": [{"name": "c", "image": "busybox:1.36"}]}});
        apply(&crate::kinds::POD, &mut pod);
        let mut svc = json!({"spec": {"type": "ExternalName", "externalName": "example.com"}});
        apply(&crate::kinds::SERVICE, &mut svc);
        for obj in [&pod, &svc] {
            let text = obj.to_string();
            assert!(!text.contains("null"), "{text}");
        }
    }

    #[test]
    fn explicit_values_are_kept() {
        let mut d = json!({"spec":{"replicas":3,"template":{"spec":{"containers":[]}}}});
        apply(&crate::kinds::DEPLOYMENT, &mut d);
        assert_eq!(d["spec"]["replicas"], 3);
    }
}
