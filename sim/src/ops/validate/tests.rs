//! The update rules against the real server's messages (taken from a Kubernetes 1.35 API server).

use serde_json::{Value, json};

use super::*;
use crate::kinds;

fn update(ty: &'static ResourceType, new: &Value, old: &Value) -> String {
    let target = Target {
        ty,
        namespace: "lab",
        name: "web",
        part: Part::Main,
    };
    validate(&target, Some(old), new).unwrap_err().message
}

fn deployment(selector: Value, labels: Value) -> Value {
    json!({"metadata": {"name": "web"}, "spec": {"selector": selector,
        "template": {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}})
}

#[test]
fn a_deployments_selector_is_immutable_and_must_select_its_template() {
    let old = deployment(
        json!({"matchLabels": {"app": "web"}}),
        json!({"app": "web"}),
    );
    let new = deployment(
        json!({"matchLabels": {"app": "other"}}),
        json!({"app": "web"}),
    );
    assert_eq!(
        update(&kinds::DEPLOYMENT, &new, &old),
        "Deployment.apps \"web\" is invalid: [spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`, spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"other\"}}: field is immutable]"
    );
    let target = Target {
        ty: &kinds::DEPLOYMENT,
        namespace: "lab",
        name: "web",
        part: Part::Main,
    };
    let e = validate(&target, Some(&old), &new).unwrap_err();
    assert_eq!(e.code, 422);
    assert_eq!(e.reason, "Invalid");
    let causes = &e.details.unwrap()["causes"];
    assert_eq!(causes[1]["field"], "spec.selector");
    assert_eq!(causes[1]["reason"], "FieldValueInvalid");
}

#[test]
fn every_apps_kind_checks_its_selector_on_create() {
    let target = |ty| Target {
        ty,
        namespace: "lab",
        name: "web",
        part: Part::Main,
    };
    let missing = deployment(Value::Null, json!({"app": "a"}));
    for (ty, want) in [
        (
            &kinds::DEPLOYMENT,
            "Deployment.apps \"web\" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {\"app\":\"a\"}: `selector` does not match template `labels`]",
        ),
        (
            &kinds::DAEMON_SET,
            "DaemonSet.apps \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"a\"}: `selector` does not match template `labels`",
        ),
    ] {
        assert_eq!(
            validate(&target(ty), None, &missing).unwrap_err().message,
            want
        );
    }
    let empty = deployment(json!({}), json!({"app": "a"}));
    assert_eq!(
        validate(&target(&kinds::REPLICA_SET), None, &empty)
            .unwrap_err()
            .message,
        "ReplicaSet.apps \"web\" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment"
    );
    let by_expression = deployment(
        json!({"matchExpressions": [{"key": "app", "operator": "In", "values": ["x"]}]}),
        json!({"app": "a"}),
    );
    assert!(
        validate(&target(&kinds::STATEFUL_SET), None, &by_expression)
            .unwrap_err()
            .message
            .contains("`selector` does not match template `labels`")
    );
}

#[test]
fn a_running_jobs_template_is_immutable_and_a_suspended_ones_directives_are_not() {
    let job = |image: &str, node: Value, suspend: bool| {
        json!({"metadata": {"name": "web"}, "spec": {"suspend": suspend, "manualSelector": true,
            "selector": {"matchLabels": {"job-name": "web"}},
            "template": {"metadata": {"labels": {"job-name": "web"}},
                "spec": {"restartPolicy": "Never", "nodeSelector": node,
                    "containers": [{"name": "c", "image": image}]}}}})
    };
    let old = job("busybox:1.36", Value::Null, false);
    let message = update(&kinds::JOB, &job("busybox:1.37", Value::Null, false), &old);
    assert!(
        message.starts_with("Job.batch \"web\" is invalid: spec.template: Invalid value: {\"labels\":{\"job-name\":\"web\"},\"Spec\":{"),
        "{message}"
    );
    assert!(message.ends_with("}}: field is immutable"), "{message}");
    let suspended = job("busybox:1.36", Value::Null, true);
    let target = Target {
        ty: &kinds::JOB,
        namespace: "lab",
        name: "web",
        part: Part::Main,
    };
    let scheduled = job("busybox:1.36", json!({"disk": "ssd"}), true);
    assert!(validate(&target, Some(&suspended), &scheduled).is_ok());
    let mut more = scheduled.clone();
    more["spec"]["completions"] = json!(3);
    assert_eq!(
        validate(&target, Some(&suspended), &more)
            .unwrap_err()
            .message,
        "Job.batch \"web\" is invalid: spec.completions: Invalid value: 3: field is immutable"
    );
}

#[test]
fn a_services_cluster_ip_never_changes() {
    let svc =
        |ip: &str| json!({"spec": {"type": "ClusterIP", "clusterIP": ip, "clusterIPs": [ip]}});
    assert_eq!(
        update(&kinds::SERVICE, &svc("10.43.0.99"), &svc("10.43.16.158")),
        "Service \"web\" is invalid: spec.clusterIPs[0]: Invalid value: [\"10.43.0.99\"]: may not change once set"
    );
    let mut mismatched = svc("10.43.16.158");
    mismatched["spec"]["clusterIPs"] = json!(["10.43.0.99"]);
    mismatched["spec"]["clusterIP"] = json!("10.43.16.158");
    // The allocator checks that the two fields agree first, and says only that.
    assert_eq!(
        update(&kinds::SERVICE, &mismatched, &svc("10.43.16.158")),
        "Service \"web\" is invalid: spec.clusterIPs: Invalid value: [\"10.43.0.99\"]: first value must match `clusterIP`"
    );
}

#[test]
fn immutable_config_maps_keep_their_data() {
    let old = json!({"immutable": true, "data": {"a": "b"}});
    let new = json!({"immutable": false, "data": {"a": "c"}, "binaryData": {"x": "YQ=="}});
    assert_eq!(
        update(&kinds::CONFIG_MAP, &new, &old),
        "ConfigMap \"web\" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set, binaryData: Forbidden: field is immutable when `immutable` is set]"
    );
    let secret = json!({"type": "Opaque"});
    assert_eq!(
        update(
            &kinds::SECRET,
            &json!({"type": "kubernetes.io/tls"}),
            &secret
        ),
        "Secret \"web\" is invalid: [type: Invalid value: \"kubernetes.io/tls\": field is immutable, data[tls.crt]: Required value, data[tls.key]: Required value]"
    );
}

#[test]
fn a_pods_spec_changes_only_where_kubernetes_allows() {
    let pod = |image: &str, extra: Value| {
        let mut p = json!({"spec": {"containers": [{"name": "c", "image": image}], "activeDeadlineSeconds": 5}});
        if let (Some(spec), Some(extra)) = (p["spec"].as_object_mut(), extra.as_object()) {
            spec.extend(extra.clone());
        }
        p
    };
    let old = pod("nginx", json!({}));
    let target = Target {
        ty: &kinds::POD,
        namespace: "lab",
        name: "web",
        part: Part::Main,
    };
    assert!(validate(&target, Some(&old), &pod("busybox", json!({}))).is_ok());
    let hostname = update(&kinds::POD, &pod("nginx", json!({"hostname": "x"})), &old);
    assert!(
        hostname.starts_with("Pod \"web\" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"),
        "{hostname}"
    );
    assert!(hostname.contains("\n@@ "), "{hostname}");
    assert!(hostname.contains("\n+ \"hostname\": \"x\"\n"), "{hostname}");
    assert_eq!(
        update(
            &kinds::POD,
            &pod("nginx", json!({"activeDeadlineSeconds": 10})),
            &old
        ),
        "Pod \"web\" is invalid: spec.activeDeadlineSeconds: Invalid value: 10: must be less than or equal to previous value"
    );
    let mut two = pod("nginx", json!({}));
    two["spec"]["containers"] =
        json!([{"name": "c", "image": "nginx"}, {"name": "d", "image": "x"}]);
    assert_eq!(
        update(&kinds::POD, &two, &old),
        "Pod \"web\" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers"
    );
}

#[test]
fn a_statefulsets_service_name_is_fixed() {
    let sts = |svc: &str, replicas: i64| {
        let mut d = deployment(json!({"matchLabels": {"app": "a"}}), json!({"app": "a"}));
        d["spec"]["serviceName"] = json!(svc);
        d["spec"]["replicas"] = json!(replicas);
        d
    };
    let target = Target {
        ty: &kinds::STATEFUL_SET,
        namespace: "lab",
        name: "web",
        part: Part::Main,
    };
    assert!(validate(&target, Some(&sts("db", 1)), &sts("db", 3)).is_ok());
    assert_eq!(
        update(&kinds::STATEFUL_SET, &sts("other", 1), &sts("db", 1)),
        "StatefulSet.apps \"web\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
    );
}

#[test]
fn a_uid_that_is_not_the_stored_one_is_refused_twice_over() {
    let e = check_uid(
        &kinds::CONFIG_MAP,
        "c1",
        &json!({"metadata": {"uid": "abc"}}),
        &json!({"metadata": {"uid": "123"}}),
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "ConfigMap \"c1\" is invalid: metadata.uid: Invalid value: \"abc\": field is immutable"
    );
    assert_eq!(e.details.unwrap()["causes"].as_array().unwrap().len(), 2);
}

fn create(ty: &'static ResourceType, new: &Value) -> Result<(), String> {
    let target = Target {
        ty,
        namespace: "lab",
        name: "noports",
        part: Part::Main,
    };
    validate(&target, None, new).map_err(|e| e.message)
}

#[test]
fn a_service_needs_ports_unless_headless_or_external() {
    assert_eq!(
        create(&kinds::SERVICE, &json!({"spec": {"type": "NodePort"}})).unwrap_err(),
        "Service \"noports\" is invalid: spec.ports: Required value"
    );
    create(&kinds::SERVICE, &json!({"spec": {"clusterIP": "None"}})).unwrap();
    create(
        &kinds::SERVICE,
        &json!({"spec": {"type": "ExternalName", "externalName": "db.example.com"}}),
    )
    .unwrap();
}

#[test]
fn a_pods_containers_are_validated_on_create() {
    let pod = json!({"spec": {"containers": [{"name": "Bad_Name"}]}});
    let message = create(&kinds::POD, &pod).unwrap_err();
    assert!(
        message.starts_with("Pod \"noports\" is invalid: [spec.containers[0].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label"),
        "{message}"
    );
    assert!(
        message.ends_with(", spec.containers[0].image: Required value]"),
        "{message}"
    );
}

#[test]
fn a_template_warns_of_fractional_bytes_only_when_it_changes() {
    let d = |memory: &str| {
        json!({"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "x",
            "resources": {"requests": {"memory": memory}}}]}}}})
    };
    let warned = super::pod_warnings(&kinds::DEPLOYMENT, &d("0.1Gi"), None);
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(warned[0].starts_with(
        "spec.template.spec.containers[0].resources.requests[memory]: fractional byte value"
    ));
    assert!(super::pod_warnings(&kinds::DEPLOYMENT, &d("0.1Gi"), Some(&d("0.1Gi"))).is_empty());
    assert!(super::pod_warnings(&kinds::DEPLOYMENT, &d("64Mi"), None).is_empty());
}
