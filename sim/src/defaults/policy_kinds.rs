//! Defaulting of the kinds a lab sets policy with: HorizontalPodAutoscaler (autoscaling/v2),
//! NetworkPolicy, StorageClass and LimitRange, as the real server's `SetDefaults_*` do.

use serde_json::{Value, json};

use super::{list_mut, set_if_absent};

/// autoscaling/v2: at least one replica, an 80% CPU target when no metric is given, and the
/// default scaling rules filled into a `behavior` that is given (an absent one stays absent).
pub fn hpa(obj: &mut Value) {
    if !obj["spec"].is_object() {
        return;
    }
    set_if_absent(obj, &["spec", "minReplicas"], json!(1));
    if obj["spec"]["metrics"].as_array().is_none_or(Vec::is_empty) {
        obj["spec"]["metrics"] = json!([{"type": "Resource", "resource": {"name": "cpu",
            "target": {"type": "Utilization", "averageUtilization": 80}}}]);
    }
    let Some(behavior) = obj["spec"].get_mut("behavior").filter(|b| b.is_object()) else {
        return;
    };
    set_if_absent(
        behavior,
        &["scaleUp", "stabilizationWindowSeconds"],
        json!(0),
    );
    set_if_absent(behavior, &["scaleUp", "selectPolicy"], json!("Max"));
    set_if_absent(
        behavior,
        &["scaleUp", "policies"],
        json!([{"type": "Pods", "value": 4, "periodSeconds": 15},
               {"type": "Percent", "value": 100, "periodSeconds": 15}]),
    );
    // scaleDown's window stays unset: the controller then uses its own 5 minutes.
    set_if_absent(behavior, &["scaleDown", "selectPolicy"], json!("Max"));
    set_if_absent(
        behavior,
        &["scaleDown", "policies"],
        json!([{"type": "Percent", "value": 100, "periodSeconds": 15}]),
    );
}

/// Ports are TCP unless named otherwise; `policyTypes` is Ingress, plus Egress when there are
/// egress rules.
pub fn network_policy(obj: &mut Value) {
    if !obj["spec"].is_object() {
        return;
    }
    for rules in ["ingress", "egress"] {
        for rule in list_mut(obj.get_mut("spec"), rules).into_iter().flatten() {
            for port in list_mut(Some(rule), "ports").into_iter().flatten() {
                set_if_absent(port, &["protocol"], json!("TCP"));
            }
        }
    }
    if obj["spec"]["policyTypes"]
        .as_array()
        .is_none_or(Vec::is_empty)
    {
        let egress = obj["spec"]["egress"]
            .as_array()
            .is_some_and(|e| !e.is_empty());
        obj["spec"]["policyTypes"] = if egress {
            json!(["Ingress", "Egress"])
        } else {
            json!(["Ingress"])
        };
    }
}

pub fn storage_class(obj: &mut Value) {
    set_if_absent(obj, &["reclaimPolicy"], json!("Delete"));
    set_if_absent(obj, &["volumeBindingMode"], json!("Immediate"));
}

/// A Container limit's `default` comes from `max`, its `defaultRequest` from `default`, then
/// from `min`, key by key.
pub fn limit_range(obj: &mut Value) {
    for item in list_mut(obj.get_mut("spec"), "limits")
        .into_iter()
        .flatten()
    {
        if item["type"] != "Container" {
            continue;
        }
        fill_from(item, "default", "max");
        fill_from(item, "defaultRequest", "default");
        fill_from(item, "defaultRequest", "min");
    }
}

/// Copies each key of `item[from]` that `item[to]` lacks (an empty result stays absent, as Go
/// omits an empty map).
fn fill_from(item: &mut Value, to: &str, from: &str) {
    let Some(source) = item.get(from).and_then(Value::as_object).cloned() else {
        return;
    };
    for (k, v) in source {
        if item[to].get(&k).is_none() {
            if !item[to].is_object() {
                item[to] = json!({});
            }
            item[to][k] = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_hpa_without_metrics_targets_80_percent_cpu_and_one_replica() {
        let mut h = json!({"spec": {"maxReplicas": 3}});
        hpa(&mut h);
        assert_eq!(h["spec"]["minReplicas"], 1);
        assert_eq!(
            h["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"],
            80
        );
        assert!(h["spec"].get("behavior").is_none());
        let mut b = json!({"spec": {"maxReplicas": 3, "behavior": {"scaleDown": {"stabilizationWindowSeconds": 60}}}});
        hpa(&mut b);
        assert_eq!(
            b["spec"]["behavior"]["scaleDown"]["stabilizationWindowSeconds"],
            60
        );
        assert_eq!(b["spec"]["behavior"]["scaleUp"]["policies"][0]["value"], 4);
    }

    #[test]
    fn network_policies_default_their_types_from_the_rules() {
        let mut p = json!({"spec": {"podSelector": {}, "egress": [{"ports": [{"port": 53}]}]}});
        network_policy(&mut p);
        assert_eq!(p["spec"]["policyTypes"], json!(["Ingress", "Egress"]));
        assert_eq!(p["spec"]["egress"][0]["ports"][0]["protocol"], "TCP");
    }

    #[test]
    fn a_container_limit_defaults_from_max_then_min() {
        let mut l = json!({"spec": {"limits": [{"type": "Container", "max": {"cpu": "1"}, "min": {"memory": "64Mi"}}]}});
        limit_range(&mut l);
        let item = &l["spec"]["limits"][0];
        assert_eq!(item["default"], json!({"cpu": "1"}));
        assert_eq!(
            item["defaultRequest"],
            json!({"cpu": "1", "memory": "64Mi"})
        );
    }
}
