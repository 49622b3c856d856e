//! Health of Service, PersistentVolumeClaim, Ingress, HorizontalPodAutoscaler, APIService and
//! Argo Workflow, as gitops-engine's built-in checks assess them.

use serde_json::Value;

use super::field::{list, text};
use super::{Gvk, Health, HealthStatus};

pub(super) fn service(obj: &Value, gvk: &Gvk) -> Result<Health, String> {
    gvk.require(&["v1"], "Service")?;
    let convert = |e| format!("failed to convert unstructured Service to typed: {e}");
    let ty = text(obj, "/spec/type").map_err(convert)?;
    let ingress = list(obj, "/status/loadBalancer/ingress").map_err(convert)?;
    // Only a LoadBalancer waits, for its address.
    let status = if ty == "LoadBalancer" && ingress.is_empty() {
        HealthStatus::Progressing
    } else {
        HealthStatus::Healthy
    };
    Ok(Health::new(status, ""))
}

pub(super) fn pvc(obj: &Value, gvk: &Gvk) -> Result<Health, String> {
    gvk.require(&["v1"], "PersistentVolumeClaim")?;
    let phase = text(obj, "/status/phase").map_err(|e| {
        format!("failed to convert unstructured PersistentVolumeClaim to typed: {e}")
    })?;
    let status = match phase {
        "Lost" => HealthStatus::Degraded,
        "Pending" => HealthStatus::Progressing,
        "Bound" => HealthStatus::Healthy,
        _ => HealthStatus::Unknown,
    };
    Ok(Health::new(status, ""))
}

/// Any Ingress version: healthy once the controller published an address.
pub(super) fn ingress(obj: &Value, _gvk: &Gvk) -> Result<Health, String> {
    let published = obj
        .pointer("/status/loadBalancer/ingress")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    let status = if published {
        HealthStatus::Healthy
    } else {
        HealthStatus::Progressing
    };
    Ok(Health::new(status, ""))
}

const WAITING_TO_AUTOSCALE: &str = "Waiting to Autoscale";

/// HPA conditions that mean it cannot scale.
const DEGRADED: &[(&str, &str)] = &[
    ("AbleToScale", "FailedGetScale"),
    ("AbleToScale", "FailedUpdateScale"),
    ("ScalingActive", "FailedGetResourceMetric"),
    ("ScalingActive", "FailedGetObjectMetric"),
    ("ScalingActive", "FailedGetPodsMetric"),
    ("ScalingActive", "FailedGetExternalMetric"),
    ("ScalingActive", "FailedComputeMetricsReplicas"),
    ("ScalingActive", "InvalidSelector"),
];

pub(super) fn hpa(obj: &Value, gvk: &Gvk) -> Result<Health, String> {
    let conditions: Vec<Value> = match gvk.version {
        "v1" => {
            // autoscaling/v1 keeps its conditions as JSON in an annotation.
            let Some(raw) = obj
                .pointer("/metadata/annotations/autoscaling.alpha.kubernetes.io~1conditions")
                .and_then(Value::as_str)
            else {
                return Ok(Health::new(HealthStatus::Progressing, WAITING_TO_AUTOSCALE));
            };
            serde_json::from_str(raw)
                .map_err(|e| format!("failed to convert conditions annotation to typed: {e}"))?
        }
        "v2" => list(obj, "/status/conditions")
            .map_err(|e| format!("failed to convert unstructured HPA to typed: {e}"))?
            .to_vec(),
        _ => gvk.require(&[], "HPA").map(|()| Vec::new())?,
    };
    // Go decodes the annotation case-insensitively; the API writes these keys capitalised.
    let get = |c: &Value, k: &str| -> String {
        let capital = format!("{}{}", k[..1].to_uppercase(), &k[1..]);
        c.get(k)
            .or_else(|| c.get(capital.as_str()))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    for c in &conditions {
        let (ty, reason) = (get(c, "type"), get(c, "reason"));
        if DEGRADED.iter().any(|(t, r)| *t == ty && *r == reason) {
            return Ok(Health::new(HealthStatus::Degraded, get(c, "message")));
        }
    }
    for c in &conditions {
        let ty = get(c, "type");
        if (ty == "AbleToScale" || ty == "ScalingLimited") && get(c, "status") == "True" {
            return Ok(Health::new(HealthStatus::Healthy, get(c, "message")));
        }
    }
    Ok(Health::new(HealthStatus::Progressing, WAITING_TO_AUTOSCALE))
}

pub(super) fn apiservice(obj: &Value, gvk: &Gvk) -> Result<Health, String> {
    gvk.require(&["v1", "v1beta1"], "APIService")?;
    let convert = |e| format!("failed to convert unstructured APIService to typed: {e}");
    for c in list(obj, "/status/conditions").map_err(convert)? {
        if text(c, "/type").map_err(convert)? == "Available" {
            let message = format!(
                "{}: {}",
                text(c, "/reason").map_err(convert)?,
                text(c, "/message").map_err(convert)?
            );
            let status = if text(c, "/status").map_err(convert)? == "True" {
                HealthStatus::Healthy
            } else {
                HealthStatus::Progressing
            };
            return Ok(Health::new(status, message));
        }
    }
    Ok(Health::new(
        HealthStatus::Progressing,
        "Waiting to be processed",
    ))
}

pub(super) fn workflow(obj: &Value, _gvk: &Gvk) -> Result<Health, String> {
    let read = |p: &str| obj.pointer(p).and_then(Value::as_str).unwrap_or_default();
    let message = read("/status/message");
    let status = match read("/status/phase") {
        "" | "Pending" | "Running" => HealthStatus::Progressing,
        "Succeeded" => HealthStatus::Healthy,
        "Failed" | "Error" => HealthStatus::Degraded,
        _ => HealthStatus::Unknown,
    };
    Ok(Health::new(status, message))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::{HealthStatus, resource_health};

    fn status(obj: Value) -> HealthStatus {
        resource_health(&obj).expect("a checked kind").status
    }

    #[test]
    fn services_claims_and_ingresses() {
        use HealthStatus::*;
        let svc = |ty: &str, status: Value| {
            json!({"apiVersion": "v1", "kind": "Service",
            "spec": {"type": ty}, "status": status})
        };
        assert_eq!(status(svc("ClusterIP", json!({}))), Healthy);
        assert_eq!(
            status(svc("LoadBalancer", json!({"loadBalancer": {}}))),
            Progressing
        );
        assert_eq!(
            status(svc(
                "LoadBalancer",
                json!({"loadBalancer": {"ingress": [{"ip": "10.0.0.9"}]}})
            )),
            Healthy
        );
        let pvc = |phase: &str| json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "status": {"phase": phase}});
        assert_eq!(status(pvc("Bound")), Healthy);
        assert_eq!(status(pvc("Pending")), Progressing);
        assert_eq!(status(pvc("Lost")), Degraded);
        assert_eq!(status(pvc("")), Unknown);
        let ing = json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "status": {"loadBalancer": {}}});
        assert_eq!(status(ing), Progressing);
    }

    #[test]
    fn hpas_in_both_versions() {
        use HealthStatus::*;
        let v2 = json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "status": {"conditions": [
            {"type": "AbleToScale", "status": "True", "reason": "ReadyForNewScale", "message": "recommended size matches current size"},
            {"type": "ScalingActive", "status": "False", "reason": "FailedGetResourceMetric", "message": "no metrics"}]}});
        let h = resource_health(&v2).expect("checked");
        assert_eq!((h.status, h.message.as_str()), (Degraded, "no metrics"));
        let v1 = json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"annotations": {
            "autoscaling.alpha.kubernetes.io/conditions": "[{\"type\":\"AbleToScale\",\"status\":\"True\",\"reason\":\"SucceededGetScale\",\"message\":\"ok\"}]"}}});
        assert_eq!(status(v1), Healthy);
        let bare = json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler"});
        assert_eq!(
            resource_health(&bare).map(|h| h.message),
            Some("Waiting to Autoscale".to_owned())
        );
        let beta = json!({"apiVersion": "autoscaling/v2beta2", "kind": "HorizontalPodAutoscaler"});
        assert_eq!(status(beta), Unknown);
    }

    #[test]
    fn apiservices_and_workflows() {
        let api = json!({"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "status": {"conditions": [
            {"type": "Available", "status": "False", "reason": "MissingEndpoints", "message": "no endpoints"}]}});
        let h = resource_health(&api).expect("checked");
        assert_eq!(
            (h.status, h.message.as_str()),
            (HealthStatus::Progressing, "MissingEndpoints: no endpoints")
        );
        let wf = json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow", "status": {"phase": "Error"}});
        assert_eq!(status(wf), HealthStatus::Degraded);
    }
}
