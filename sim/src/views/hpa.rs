//! autoscaling/v2 ⇄ autoscaling/v1 HorizontalPodAutoscaler, as the real server converts: v1 has
//! only a CPU utilisation target, so every other part of a v2 HPA (other metrics, behavior,
//! conditions, other current metrics) rides along in `autoscaling.alpha.kubernetes.io/*`
//! annotations and comes back from them on the way in.

use serde_json::{Map, Value, json};

use super::carry;

const METRICS: &str = "autoscaling.alpha.kubernetes.io/metrics";
const CURRENT_METRICS: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";
const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";

fn is_cpu_utilization(metric: &Value) -> bool {
    metric["type"] == "Resource"
        && metric["resource"]["name"] == "cpu"
        && metric["resource"]["target"]["type"] == "Utilization"
}

fn is_cpu_current(metric: &Value) -> bool {
    metric["type"] == "Resource"
        && metric["resource"]["name"] == "cpu"
        && metric["resource"]["current"]
            .get("averageUtilization")
            .is_some()
}

pub fn v2_to_v1(v2: &Value) -> Value {
    let mut out = v2.clone();
    out["apiVersion"] = json!("autoscaling/v1");
    let mut notes = Map::new();
    if let Some(spec) = v2.get("spec").and_then(Value::as_object) {
        let mut s = Map::new();
        for f in ["scaleTargetRef", "minReplicas", "maxReplicas"] {
            carry(spec, f, &mut s, f);
        }
        let metrics = spec
            .get("metrics")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let (cpu, other): (Vec<Value>, Vec<Value>) =
            metrics.into_iter().partition(is_cpu_utilization);
        if let Some(cpu) = cpu.first() {
            s.insert(
                "targetCPUUtilizationPercentage".into(),
                cpu["resource"]["target"]["averageUtilization"].clone(),
            );
        }
        if !other.is_empty() {
            notes.insert(METRICS.into(), json!(Value::Array(other).to_string()));
        }
        if let Some(b) = spec.get("behavior").filter(|b| !b.is_null()) {
            notes.insert(BEHAVIOR.into(), json!(b.to_string()));
        }
        out["spec"] = Value::Object(s);
    }
    if let Some(status) = v2.get("status").and_then(Value::as_object) {
        let mut s = Map::new();
        for f in [
            "observedGeneration",
            "lastScaleTime",
            "currentReplicas",
            "desiredReplicas",
        ] {
            carry(status, f, &mut s, f);
        }
        let current = status
            .get("currentMetrics")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let (cpu, other): (Vec<Value>, Vec<Value>) = current.into_iter().partition(is_cpu_current);
        if let Some(cpu) = cpu.first() {
            s.insert(
                "currentCPUUtilizationPercentage".into(),
                cpu["resource"]["current"]["averageUtilization"].clone(),
            );
        }
        if !other.is_empty() {
            notes.insert(
                CURRENT_METRICS.into(),
                json!(Value::Array(other).to_string()),
            );
        }
        if let Some(c) = status
            .get("conditions")
            .and_then(Value::as_array)
            .filter(|c| !c.is_empty())
        {
            notes.insert(
                CONDITIONS.into(),
                json!(Value::Array(c.clone()).to_string()),
            );
        }
        out["status"] = Value::Object(s);
    }
    if !notes.is_empty() {
        let meta = &mut out["metadata"];
        if !meta["annotations"].is_object() {
            meta["annotations"] = json!({});
        }
        for (k, v) in notes {
            meta["annotations"][k] = v;
        }
    }
    out
}

/// The JSON array or object an annotation holds, taken out of the annotations.
fn take_note(annotations: &mut Option<&mut Map<String, Value>>, key: &str) -> Option<Value> {
    let raw = annotations.as_mut()?.remove(key)?;
    serde_json::from_str(raw.as_str()?).ok()
}

pub fn v1_to_v2(mut v1: Value) -> Value {
    if !v1.is_object() {
        return v1;
    }
    v1["apiVersion"] = json!("autoscaling/v2");
    let mut annotations = v1
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
        .and_then(Value::as_object_mut);
    let other_metrics = take_note(&mut annotations, METRICS);
    let behavior = take_note(&mut annotations, BEHAVIOR);
    let current_metrics = take_note(&mut annotations, CURRENT_METRICS);
    let conditions = take_note(&mut annotations, CONDITIONS);
    if annotations.is_some_and(|a| a.is_empty())
        && let Some(meta) = v1.get_mut("metadata").and_then(Value::as_object_mut)
    {
        meta.remove("annotations");
    }
    if let Some(spec) = v1.get_mut("spec").and_then(Value::as_object_mut) {
        let mut metrics = Vec::new();
        if let Some(cpu) = spec
            .remove("targetCPUUtilizationPercentage")
            .filter(|v| !v.is_null())
        {
            metrics.push(json!({"type": "Resource", "resource": {"name": "cpu",
                "target": {"type": "Utilization", "averageUtilization": cpu}}}));
        }
        if let Some(Value::Array(other)) = other_metrics {
            metrics.extend(other);
        }
        if !metrics.is_empty() {
            spec.insert("metrics".into(), Value::Array(metrics));
        }
        if let Some(b) = behavior {
            spec.insert("behavior".into(), b);
        }
    }
    if let Some(status) = v1.get_mut("status").and_then(Value::as_object_mut) {
        let mut current = Vec::new();
        if let Some(cpu) = status
            .remove("currentCPUUtilizationPercentage")
            .filter(|v| !v.is_null())
        {
            current.push(json!({"type": "Resource", "resource": {"name": "cpu",
                "current": {"averageUtilization": cpu}}}));
        }
        if let Some(Value::Array(other)) = current_metrics {
            current.extend(other);
        }
        if !current.is_empty() {
            status.insert("currentMetrics".into(), Value::Array(current));
        }
        if let Some(c) = conditions {
            status.insert("conditions".into(), c);
        }
    }
    v1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v2() -> Value {
        json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "web", "namespace": "d"},
            "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                "minReplicas": 1, "maxReplicas": 5,
                "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 60}}},
                            {"type": "Resource", "resource": {"name": "memory", "target": {"type": "AverageValue", "averageValue": "100Mi"}}}]},
            "status": {"currentReplicas": 2, "desiredReplicas": 3,
                "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 90, "averageValue": "90m"}}}],
                "conditions": [{"type": "AbleToScale", "status": "True", "reason": "SucceededRescale"}]}})
    }

    #[test]
    fn v1_shows_the_cpu_target_and_keeps_the_rest_in_annotations() {
        let v1 = v2_to_v1(&v2());
        assert_eq!(v1["apiVersion"], "autoscaling/v1");
        assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 60);
        assert!(v1["spec"].get("metrics").is_none());
        assert_eq!(v1["status"]["currentCPUUtilizationPercentage"], 90);
        let notes = &v1["metadata"]["annotations"];
        assert!(notes[METRICS].as_str().unwrap().contains("memory"));
        assert!(notes[CONDITIONS].as_str().unwrap().contains("AbleToScale"));
    }

    #[test]
    fn a_v1_write_becomes_a_v2_object_with_the_annotations_folded_back() {
        let back = v1_to_v2(v2_to_v1(&v2()));
        assert_eq!(back["spec"]["metrics"].as_array().unwrap().len(), 2);
        assert_eq!(
            back["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"],
            60
        );
        assert_eq!(back["status"]["conditions"][0]["type"], "AbleToScale");
        assert!(back["metadata"].get("annotations").is_none());
        let bare = v1_to_v2(
            json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "x"}, "spec": {"maxReplicas": 3}}),
        );
        assert!(
            bare["spec"].get("metrics").is_none(),
            "defaulting adds the 80% CPU target"
        );
    }
}
