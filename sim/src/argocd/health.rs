//! Resource health as gitops-engine assesses it (its built-in Go checks and Argo CD's bundled
//! Lua check for CronJob), and the Application's aggregate health.

mod misc;
mod pods;
mod workloads;

use serde_json::Value;

/// A health verdict, listed from best to worst in Argo CD's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HealthStatus {
    Healthy,
    Suspended,
    Progressing,
    Missing,
    Degraded,
    Unknown,
}

impl HealthStatus {
    /// The status as Argo CD writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            HealthStatus::Healthy => "Healthy",
            HealthStatus::Suspended => "Suspended",
            HealthStatus::Progressing => "Progressing",
            HealthStatus::Missing => "Missing",
            HealthStatus::Degraded => "Degraded",
            HealthStatus::Unknown => "Unknown",
        }
    }

    fn rank(self) -> u8 {
        self as u8
    }
}

/// A resource's health with its message (empty when the check gives none).
#[derive(Debug, Clone, PartialEq)]
pub struct Health {
    pub status: HealthStatus,
    pub message: String,
}

impl Health {
    fn new(status: HealthStatus, message: impl Into<String>) -> Health {
        Health {
            status,
            message: message.into(),
        }
    }
}

/// The annotation that takes a resource out of the Application's health.
pub const IGNORE_HEALTHCHECK: &str = "argocd.argoproj.io/ignore-healthcheck";
/// The finalizer Argo CD puts on hooks; a hook being deleted keeps its real health.
pub const HOOK_FINALIZER: &str = "argocd.argoproj.io/hook-finalizer";

/// The health of a live object, or `None` when Argo CD assesses none: kinds without a check
/// (ConfigMap, Secret, Namespace, ServiceAccount, RBAC, Application...) and objects annotated
/// `argocd.argoproj.io/ignore-healthcheck: "true"`. An object being deleted is Progressing
/// "Pending deletion" whatever its kind. A check that cannot read the object (an unsupported
/// version, a field of the wrong type) gives Unknown with the reason.
pub fn resource_health(obj: &Value) -> Option<Health> {
    if annotation(obj, IGNORE_HEALTHCHECK) == Some("true") {
        return None;
    }
    let deleting = obj
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null());
    if deleting && !has_finalizer(obj, HOOK_FINALIZER) {
        return Some(Health::new(HealthStatus::Progressing, "Pending deletion"));
    }
    let api_version = obj
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or_default();
    let gvk = Gvk {
        group,
        version,
        kind,
    };
    let check: Check = match (group, kind) {
        ("apps", "Deployment") => workloads::deployment,
        ("apps", "StatefulSet") => workloads::statefulset,
        ("apps", "ReplicaSet") => workloads::replicaset,
        ("apps", "DaemonSet") => workloads::daemonset,
        ("extensions" | "networking.k8s.io", "Ingress") => misc::ingress,
        ("argoproj.io", "Workflow") => misc::workflow,
        ("apiregistration.k8s.io", "APIService") => misc::apiservice,
        ("", "Service") => misc::service,
        ("", "PersistentVolumeClaim") => misc::pvc,
        ("", "Pod") => pods::pod,
        ("batch", "Job") => pods::job,
        // Argo CD ships a Lua health script for CronJob (resource_customizations).
        ("batch", "CronJob") => pods::cronjob,
        ("autoscaling", "HorizontalPodAutoscaler") => misc::hpa,
        _ => return None,
    };
    Some(check(obj, &gvk).unwrap_or_else(|reason| Health::new(HealthStatus::Unknown, reason)))
}

/// A health check: the verdict, or why the object could not be read.
type Check = fn(&Value, &Gvk) -> Result<Health, String>;

/// An object's group, version and kind, printed as Go prints a GroupVersionKind.
struct Gvk<'a> {
    group: &'a str,
    version: &'a str,
    kind: &'a str,
}

impl Gvk<'_> {
    /// Checks that take one version refuse the others, as gitops-engine does.
    fn require(&self, versions: &[&str], label: &str) -> Result<(), String> {
        if versions.contains(&self.version) {
            Ok(())
        } else {
            Err(format!(
                "unsupported {label} GVK: {}/{}, Kind={}",
                self.group, self.version, self.kind
            ))
        }
    }
}

/// The worse of two statuses by Argo CD's order
/// Healthy < Suspended < Progressing < Missing < Degraded < Unknown.
pub fn worse(a: HealthStatus, b: HealthStatus) -> HealthStatus {
    if b.rank() > a.rank() { b } else { a }
}

/// The Application's health from its managed resources' live objects (`None` = missing), as
/// Argo CD 3.4+ aggregates it: hooks, ignored objects and kinds without a check do not count;
/// missing resources count only when all of them are missing (then the app is Missing).
pub fn app_health<'a>(lives: impl IntoIterator<Item = Option<&'a Value>>) -> HealthStatus {
    let mut health = HealthStatus::Healthy;
    let (mut any, mut any_live) = (false, false);
    for live in lives {
        if live.is_some_and(is_hook) {
            continue;
        }
        any = true;
        let Some(live) = live else {
            continue;
        };
        any_live = true;
        if let Some(h) = resource_health(live) {
            health = worse(health, h.status);
        }
    }
    if any && !any_live {
        health = worse(health, HealthStatus::Missing);
    }
    health
}

/// `hook.IsHook`.
fn is_hook(obj: &Value) -> bool {
    super::hooks::is_hook(obj)
}

fn annotation<'v>(obj: &'v Value, key: &str) -> Option<&'v str> {
    obj.pointer("/metadata/annotations")?.get(key)?.as_str()
}

fn has_finalizer(obj: &Value, name: &str) -> bool {
    obj.pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .is_some_and(|f| f.iter().any(|v| v.as_str() == Some(name)))
}

/// Reading fields the way Go's typed conversion does: absent or null is the zero value, a
/// value of the wrong type is an error naming the field.
mod field {
    use serde_json::Value;

    fn at<'v>(obj: &'v Value, path: &str) -> Option<&'v Value> {
        obj.pointer(path).filter(|v| !v.is_null())
    }

    fn wrong(path: &str, want: &str) -> String {
        format!("{path}: expected {want}")
    }

    pub fn int(obj: &Value, path: &str) -> Result<i64, String> {
        Ok(opt_int(obj, path)?.unwrap_or(0))
    }

    pub fn opt_int(obj: &Value, path: &str) -> Result<Option<i64>, String> {
        match at(obj, path) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_i64()
                .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64))
                .map(Some)
                .ok_or_else(|| wrong(path, "an integer")),
            Some(_) => Err(wrong(path, "an integer")),
        }
    }

    pub fn text<'v>(obj: &'v Value, path: &str) -> Result<&'v str, String> {
        match at(obj, path) {
            None => Ok(""),
            Some(Value::String(s)) => Ok(s),
            Some(_) => Err(wrong(path, "a string")),
        }
    }

    pub fn flag(obj: &Value, path: &str) -> Result<bool, String> {
        match at(obj, path) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(wrong(path, "a boolean")),
        }
    }

    pub fn list<'v>(obj: &'v Value, path: &str) -> Result<&'v [Value], String> {
        match at(obj, path) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err(wrong(path, "a list")),
        }
    }

    pub fn present(obj: &Value, path: &str) -> bool {
        at(obj, path).is_some()
    }

    /// The first `status.conditions` entry of this type.
    pub fn condition<'v>(obj: &'v Value, kind: &str) -> Result<Option<&'v Value>, String> {
        for c in list(obj, "/status/conditions")? {
            if text(c, "/type")? == kind {
                return Ok(Some(c));
            }
        }
        Ok(None)
    }

    /// Go's `%q` for the names quoted in messages.
    pub fn quoted(s: &str) -> String {
        format!("{s:?}")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn order_and_names() {
        use HealthStatus::*;
        assert_eq!(worse(Healthy, Degraded), Degraded);
        assert_eq!(worse(Unknown, Degraded), Unknown);
        assert_eq!(worse(Missing, Progressing), Missing);
        assert_eq!(worse(Suspended, Healthy), Suspended);
        assert_eq!(Progressing.as_str(), "Progressing");
    }

    #[test]
    fn kinds_without_checks_and_ignored_objects_have_none() {
        for kind in ["ConfigMap", "Secret", "Namespace", "ServiceAccount"] {
            assert_eq!(
                resource_health(&json!({"apiVersion": "v1", "kind": kind})),
                None
            );
        }
        let app = json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application"});
        assert_eq!(resource_health(&app), None);
        let ignored = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"annotations": {IGNORE_HEALTHCHECK: "true"}}});
        assert_eq!(resource_health(&ignored), None);
    }

    #[test]
    fn deletion_is_progressing_unless_a_hook_finalizer_holds_it() {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"deletionTimestamp": "2026-01-01T00:00:00Z"}});
        assert_eq!(
            resource_health(&cm),
            Some(Health::new(HealthStatus::Progressing, "Pending deletion"))
        );
        let hook = json!({"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"deletionTimestamp": "2026-01-01T00:00:00Z", "finalizers": [HOOK_FINALIZER]},
            "status": {"conditions": [{"type": "Complete", "status": "True"}]}});
        assert_eq!(
            resource_health(&hook).map(|h| h.status),
            Some(HealthStatus::Healthy)
        );
    }

    #[test]
    fn odd_shapes_never_panic() {
        let kinds = [
            ("apps/v1", "Deployment"),
            ("apps/v1", "StatefulSet"),
            ("apps/v1", "ReplicaSet"),
            ("apps/v1", "DaemonSet"),
            ("v1", "Pod"),
            ("v1", "Service"),
            ("v1", "PersistentVolumeClaim"),
            ("batch/v1", "Job"),
            ("batch/v1", "CronJob"),
            ("autoscaling/v1", "HorizontalPodAutoscaler"),
            ("autoscaling/v2", "HorizontalPodAutoscaler"),
            ("networking.k8s.io/v1", "Ingress"),
            ("apiregistration.k8s.io/v1", "APIService"),
            ("argoproj.io/v1alpha1", "Workflow"),
        ];
        let shapes = [
            json!(null),
            json!(1),
            json!("x"),
            json!([1, {}]),
            json!({}),
            json!({"conditions": "x", "containerStatuses": [1, {"state": 2}], "phase": 3}),
            json!({"conditions": [{"type": 1}, {"type": "Failed", "message": 2}]}),
        ];
        for (api_version, kind) in kinds {
            for shape in &shapes {
                let obj = json!({"apiVersion": api_version, "kind": kind, "metadata": {
                    "annotations": {"autoscaling.alpha.kubernetes.io/conditions": "[1, {}]"}},
                    "spec": shape, "status": shape});
                let health = resource_health(&obj);
                assert!(health.is_some(), "{kind} is checked");
            }
        }
        assert_eq!(resource_health(&json!("not an object")), None);
    }

    #[test]
    fn the_app_takes_the_worst_and_is_missing_only_when_everything_is() {
        let pod = |phase: &str| {
            json!({"apiVersion": "v1", "kind": "Pod",
            "spec": {"restartPolicy": "Never"}, "status": {"phase": phase}})
        };
        let (ok, failed) = (pod("Succeeded"), pod("Failed"));
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap"});
        let mut hook = pod("Failed");
        hook["metadata"] = json!({"annotations": {"argocd.argoproj.io/hook": "PreSync"}});
        assert_eq!(
            app_health([Some(&ok), Some(&cm), None]),
            HealthStatus::Healthy
        );
        assert_eq!(
            app_health([Some(&ok), Some(&failed)]),
            HealthStatus::Degraded
        );
        assert_eq!(app_health([Some(&ok), Some(&hook)]), HealthStatus::Healthy);
        assert_eq!(app_health([None, None]), HealthStatus::Missing);
        assert_eq!(app_health([Some(&hook), None]), HealthStatus::Missing);
        assert_eq!(
            app_health(Vec::<Option<&Value>>::new()),
            HealthStatus::Healthy
        );
    }
}
