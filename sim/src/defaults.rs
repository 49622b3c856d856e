//! Defaulting, as the real API server applies it to every object it stores: the fields a learner
//! sees in `kubectl get -o yaml` that nobody wrote (imagePullPolicy, strategy, clusterIP, ...).
//! Argo CD's diff must cope with them, just as on k3s.

use serde_json::{Value, json};

use super::kinds::ResourceType;

mod policy_kinds;

/// Fills in defaults for `obj`, a `ty`, in place.
pub fn apply(ty: &ResourceType, obj: &mut Value) {
    match (ty.group, ty.kind) {
        ("", "Namespace") => namespace(obj),
        ("", "Secret") => set_if_absent(obj, &["type"], json!("Opaque")),
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
        // v1 has only the replica floor to default; its metrics are v2's, defaulted there.
        ("autoscaling", "HorizontalPodAutoscaler") if ty.version == "v1" => {
            set_if_absent(obj, &["spec", "minReplicas"], json!(1));
        }
        ("autoscaling", "HorizontalPodAutoscaler") => policy_kinds::hpa(obj),
        ("networking.k8s.io", "NetworkPolicy") => policy_kinds::network_policy(obj),
        ("storage.k8s.io", "StorageClass") => policy_kinds::storage_class(obj),
        ("", "LimitRange") => policy_kinds::limit_range(obj),
        _ => {}
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

fn service(obj: &mut Value) {
    set_if_absent(obj, &["spec", "type"], json!("ClusterIP"));
    set_if_absent(obj, &["spec", "sessionAffinity"], json!("None"));
    set_if_absent(obj, &["spec", "ipFamilies"], json!(["IPv4"]));
    set_if_absent(obj, &["spec", "ipFamilyPolicy"], json!("SingleStack"));
    set_if_absent(obj, &["spec", "internalTrafficPolicy"], json!("Cluster"));
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
