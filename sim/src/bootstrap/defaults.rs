//! The objects a 1.35 API server creates for itself at start beside RBAC's: the two system
//! PriorityClasses, the `kubernetes` ServiceCIDR (k3s's 10.43.0.0/16), and API Priority and
//! Fairness's mandatory and suggested FlowSchemas and PriorityLevelConfigurations.

use serde_json::{Value, json};

pub fn priority_classes() -> Vec<Value> {
    let class = |name: &str, value: i64, description: &str| {
        json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
               "metadata": {"name": name}, "value": value, "description": description,
               "preemptionPolicy": "PreemptLowerPriority"})
    };
    vec![
        class(
            "system-node-critical",
            2_000_001_000,
            "Used for system critical pods that must not be moved from their current node.",
        ),
        class(
            "system-cluster-critical",
            2_000_000_000,
            "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
        ),
    ]
}

pub fn service_cidr() -> Value {
    json!({"apiVersion": "networking.k8s.io/v1", "kind": "ServiceCIDR",
           "metadata": {"name": "kubernetes"}, "spec": {"cidrs": ["10.43.0.0/16"]}})
}

const AUTO_UPDATE: &str = "apf.kubernetes.io/autoupdate-spec";

fn level(name: &str, shares: i64, lendable: i64, queuing: Option<(i64, i64)>) -> Value {
    let spec = match (name, queuing) {
        ("exempt", _) => json!({"type": "Exempt",
            "exempt": {"nominalConcurrencyShares": shares, "lendablePercent": lendable}}),
        (_, None) => json!({"type": "Limited", "limited": {"nominalConcurrencyShares": shares,
            "lendablePercent": lendable, "limitResponse": {"type": "Reject"}}}),
        (_, Some((queues, hand))) => json!({"type": "Limited", "limited": {
            "nominalConcurrencyShares": shares, "lendablePercent": lendable,
            "limitResponse": {"type": "Queue", "queuing": {"queues": queues, "handSize": hand, "queueLengthLimit": 50}}}}),
    };
    json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "PriorityLevelConfiguration",
           "metadata": {"name": name, "annotations": {AUTO_UPDATE: "true"}}, "spec": spec})
}

pub fn priority_levels() -> Vec<Value> {
    vec![
        level("exempt", 0, 0, None),
        level("catch-all", 5, 0, None),
        level("system", 30, 33, Some((64, 6))),
        level("node-high", 40, 25, Some((64, 6))),
        level("leader-election", 10, 0, Some((16, 4))),
        level("workload-high", 40, 50, Some((128, 6))),
        level("workload-low", 100, 90, Some((128, 6))),
        level("global-default", 20, 50, Some((128, 6))),
    ]
}

fn groups(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .map(|n| json!({"kind": "Group", "group": {"name": n}}))
        .collect()
}

fn users(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .map(|n| json!({"kind": "User", "user": {"name": n}}))
        .collect()
}

fn kube_system_service_accounts() -> Vec<Value> {
    vec![
        json!({"kind": "ServiceAccount", "serviceAccount": {"name": "*", "namespace": "kube-system"}}),
    ]
}

/// Everything, cluster-wide and in every namespace, resources and URLs.
fn everything(subjects: Vec<Value>) -> Value {
    json!({"subjects": subjects,
           "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "clusterScope": true, "namespaces": ["*"]}],
           "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]})
}

fn schema(name: &str, level: &str, precedence: i64, by: Option<&str>, rules: Value) -> Value {
    let mut spec = json!({"priorityLevelConfiguration": {"name": level},
                          "matchingPrecedence": precedence, "rules": [rules]});
    if let Some(by) = by {
        spec["distinguisherMethod"] = json!({"type": by});
    }
    json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema",
           "metadata": {"name": name, "annotations": {AUTO_UPDATE: "true"}}, "spec": spec})
}

pub fn flow_schemas() -> Vec<Value> {
    let all_users = || groups(&["system:unauthenticated", "system:authenticated"]);
    let leader_subjects: Vec<Value> =
        users(&["system:kube-controller-manager", "system:kube-scheduler"])
            .into_iter()
            .chain(kube_system_service_accounts())
            .collect();
    vec![
        schema(
            "exempt",
            "exempt",
            1,
            None,
            everything(groups(&["system:masters"])),
        ),
        schema(
            "probes",
            "exempt",
            2,
            None,
            json!({"subjects": all_users(),
                   "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/healthz", "/readyz", "/livez"]}]}),
        ),
        schema(
            "system-leader-election",
            "leader-election",
            100,
            Some("ByUser"),
            json!({"subjects": leader_subjects,
                   "resourceRules": [{"verbs": ["get", "create", "update"], "apiGroups": ["coordination.k8s.io"],
                                      "resources": ["leases"], "namespaces": ["*"]}]}),
        ),
        schema(
            "system-node-high",
            "node-high",
            400,
            Some("ByUser"),
            json!({"subjects": groups(&["system:nodes"]),
                   "resourceRules": [
                       {"verbs": ["*"], "apiGroups": [""], "resources": ["nodes", "nodes/status"], "clusterScope": true, "namespaces": ["*"]},
                       {"verbs": ["*"], "apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "namespaces": ["*"]}]}),
        ),
        schema(
            "system-nodes",
            "system",
            500,
            Some("ByUser"),
            everything(groups(&["system:nodes"])),
        ),
        schema(
            "kube-controller-manager",
            "workload-high",
            800,
            Some("ByNamespace"),
            everything(users(&["system:kube-controller-manager"])),
        ),
        schema(
            "kube-scheduler",
            "workload-high",
            800,
            Some("ByNamespace"),
            everything(users(&["system:kube-scheduler"])),
        ),
        schema(
            "kube-system-service-accounts",
            "workload-high",
            900,
            Some("ByNamespace"),
            everything(kube_system_service_accounts()),
        ),
        schema(
            "service-accounts",
            "workload-low",
            9000,
            Some("ByUser"),
            everything(groups(&["system:serviceaccounts"])),
        ),
        schema(
            "global-default",
            "global-default",
            9900,
            Some("ByUser"),
            everything(all_users()),
        ),
        schema(
            "catch-all",
            "catch-all",
            10000,
            Some("ByUser"),
            everything(all_users()),
        ),
    ]
}
