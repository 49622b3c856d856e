//! The Argo CD Application as the lab reads it: only the fields the panes, the engine and the
//! checks use, every one defaulted, so an Application from any Argo CD 3.x reads without error
//! and nothing reaches into it with a chain of `["…"]`.

use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use serde::Deserialize;
use serde_json::Value;

use super::Kind;

/// The Applications API in `namespace`: the one place its group, version and plural are built.
pub fn api(client: kube::Client, namespace: &str) -> Api<DynamicObject> {
    let (group, version, plural) = Kind::Application.api();
    let gvk = GroupVersionKind::gvk(group, version, Kind::Application.name());
    Api::namespaced_with(
        client,
        namespace,
        &ApiResource::from_gvk_with_plural(&gvk, plural),
    )
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Application {
    pub metadata: Metadata,
    pub spec: Spec,
    /// The operation Argo CD is running (or retrying) now.
    pub operation: Option<Operation>,
    pub status: Status,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Metadata {
    pub name: String,
    pub namespace: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Spec {
    pub source: Option<Source>,
    pub destination: Destination,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Source {
    #[serde(rename = "repoURL")]
    pub repo_url: String,
    pub path: String,
    pub target_revision: String,
    pub helm: Option<Helm>,
    pub kustomize: Option<Kustomize>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Helm {
    pub value_files: Vec<String>,
    pub parameters: Vec<HelmParameter>,
    pub values_object: Option<Value>,
    /// Values as one YAML string (the older form of `valuesObject`).
    pub values: Option<String>,
}

impl Helm {
    /// The inline values: `valuesObject`, else `values` parsed as YAML.
    pub fn inline_values(&self) -> Value {
        match &self.values_object {
            Some(v @ Value::Object(_)) => v.clone(),
            _ => self
                .values
                .as_deref()
                .and_then(|v| serde_saphyr::from_str::<Value>(v).ok())
                .unwrap_or(Value::Null),
        }
    }

    /// The last `--set`-style parameter for `key`.
    pub fn parameter(&self, key: &str) -> Option<&str> {
        self.parameters
            .iter()
            .rev()
            .find(|p| p.name == key)
            .map(|p| p.value.as_str())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HelmParameter {
    pub name: String,
    pub value: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Kustomize {
    /// `name=newName:tag` overrides.
    pub images: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Destination {
    pub server: String,
    pub namespace: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Operation {
    pub sync: Option<SyncOperation>,
    /// How often a failed attempt is retried (Argo CD's automated sync writes `{limit: 5}`
    /// unless `spec.syncPolicy.retry` says otherwise).
    pub retry: Option<RetryStrategy>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct RetryStrategy {
    /// Retries after the first attempt; negative: without end.
    pub limit: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct SyncOperation {
    pub revision: Option<String>,
    /// The options this operation syncs with (an automated sync copies the app's).
    #[serde(rename = "syncOptions")]
    pub sync_options: Vec<String>,
}

impl SyncOperation {
    /// Whether an option is set, written exactly (`PruneLast=true`), as Argo CD matches it.
    pub fn has_option(&self, option: &str) -> bool {
        self.sync_options.iter().any(|o| o == option)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Status {
    pub sync: SyncStatus,
    pub health: HealthStatus,
    pub operation_state: Option<OperationState>,
    pub conditions: Vec<Condition>,
    pub resources: Vec<ResourceStatus>,
    /// Argo CD appends an entry only for a full sync that succeeded.
    pub history: Vec<HistoryEntry>,
}

/// One entry of `status.history`: a revision that synced successfully, and when.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct HistoryEntry {
    pub revision: Option<String>,
    pub deployed_at: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SyncStatus {
    /// `Synced`, `OutOfSync` or `Unknown` (empty before the first comparison).
    pub status: String,
    /// The commit Git's target revision resolves to now.
    pub revision: Option<String>,
    pub compared_to: ComparedTo,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ComparedTo {
    pub source: Option<Source>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HealthStatus {
    pub status: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct OperationState {
    /// `Running`, `Terminating`, `Succeeded`, `Failed` or `Error`.
    pub phase: String,
    pub message: String,
    pub retry_count: Option<i64>,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    /// The operation this state is of (its revision is the one being synced or retried).
    pub operation: Operation,
    pub sync_result: Option<SyncResult>,
}

impl OperationState {
    /// How many retries the operation may run, when it says and they are limited.
    pub fn retry_limit(&self) -> Option<i64> {
        self.operation
            .retry
            .as_ref()
            .and_then(|r| r.limit)
            .filter(|l| *l > 0)
    }

    /// Whether this phase is a failed operation's.
    pub fn failed(&self) -> bool {
        matches!(self.phase.as_str(), "Failed" | "Error")
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct SyncResult {
    pub revision: Option<String>,
    pub resources: Vec<ResourceResult>,
}

/// One resource of an operation's result.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceResult {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    /// `Synced`, `SyncFailed`, `Pruned` or `PruneSkipped`: what applying it did.
    pub status: String,
    pub message: String,
    pub hook_type: Option<String>,
    pub hook_phase: Option<String>,
    pub sync_phase: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Condition {
    #[serde(rename = "type")]
    pub kind: String,
    pub message: String,
}

/// One managed resource as the status lists it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceStatus {
    pub kind: String,
    pub name: String,
    pub sync_wave: Option<i64>,
}

impl Application {
    /// Reads an Application from JSON as the API returns it; `None` when it is not one.
    pub fn from_json(v: &Value) -> Option<Application> {
        serde_json::from_value(v.clone()).ok()
    }

    /// The name of the lab repo the source points at: the URL's last part without `.git`
    /// (`git://gitd…:9418/src.git` → `src`), which is `<name>.git` in the bare dir.
    pub fn source_repo_name(&self) -> Option<String> {
        let url = &self.spec.source.as_ref()?.repo_url;
        let last = url.trim_end_matches('/').rsplit('/').next()?;
        Some(last.trim_end_matches(".git").to_string())
    }

    /// The commit Git is at now, as Argo CD last resolved it.
    pub fn git_revision(&self) -> Option<&str> {
        self.status.sync.revision.as_deref()
    }

    /// The revision of the operation Argo CD is running or retrying now, if any.
    pub fn running_revision(&self) -> Option<&str> {
        self.operation.as_ref()?.sync.as_ref()?.revision.as_deref()
    }

    /// The revision the last operation worked on.
    pub fn operation_revision(&self) -> Option<&str> {
        self.status
            .operation_state
            .as_ref()?
            .operation
            .sync
            .as_ref()?
            .revision
            .as_deref()
    }

    /// The revision that last synced successfully (a failed sync never reaches history).
    pub fn last_good_revision(&self) -> Option<&str> {
        self.status.history.last()?.revision.as_deref()
    }

    /// The revision the last operation's result reports, whether it succeeded or not.
    pub fn result_revision(&self) -> Option<&str> {
        self.status
            .operation_state
            .as_ref()?
            .sync_result
            .as_ref()?
            .revision
            .as_deref()
    }

    /// The step-6 trap: an operation still retrying a revision Git has moved past.
    pub fn retrying_an_old_revision(&self) -> Option<&str> {
        let running = self.running_revision()?;
        (self.git_revision().is_some_and(|git| git != running)).then_some(running)
    }

    /// Whether a running operation is one that has been failing: it failed, or it has retried
    /// (between attempts the message says "Retrying attempt"; during one it says what runs),
    /// or it syncs a commit Git has moved past. A first sync of Git's own commit is not.
    pub fn operation_failing(&self) -> bool {
        let Some(state) = self.status.operation_state.as_ref() else {
            return false;
        };
        self.operation.is_some()
            && (state.failed()
                || state.retry_count.is_some_and(|n| n > 0)
                || state.message.contains("Retrying attempt")
                || self.retrying_an_old_revision().is_some())
    }

    pub fn helm(&self) -> Option<&Helm> {
        self.spec.source.as_ref()?.helm.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The operation lesson 6 ends is the failing one, whatever moment of a retry it is in: an
    /// attempt under way says what it runs, not "Retrying attempt" (ending only then missed it,
    /// and the plan waited for a failure it had not caused).
    #[test]
    fn a_failing_operation_is_told_at_every_moment_of_a_retry_and_a_first_sync_is_not() {
        let app = |operation: serde_json::Value, state: serde_json::Value| {
            Application::from_json(&json!({
                "operation": operation,
                "status": {"sync": {"revision": "fix"}, "operationState": state}
            }))
            .unwrap()
        };
        let retrying = json!({"sync": {"revision": "broken"}});
        let mid_attempt = json!({"phase": "Running", "retryCount": 2,
            "message": "waiting for completion of hook batch/Job/migrate",
            "operation": {"sync": {"revision": "broken"}}});
        let between = json!({"phase": "Running", "retryCount": 1,
            "message": "one or more synchronization tasks completed unsuccessfully. Retrying attempt #1 at 5:32AM.",
            "operation": {"sync": {"revision": "broken"}}});
        let first_of_old = json!({"phase": "Running", "message": "running",
            "operation": {"sync": {"revision": "broken"}}});
        for state in [mid_attempt, between, first_of_old] {
            assert!(
                app(retrying.clone(), state.clone()).operation_failing(),
                "{state}"
            );
        }
        let fix = json!({"sync": {"revision": "fix"}});
        let first_of_fix = json!({"phase": "Running", "message": "running",
            "operation": {"sync": {"revision": "fix"}}});
        assert!(!app(fix.clone(), first_of_fix.clone()).operation_failing());
        // Ended already: nothing is running to end.
        let ended = json!({"phase": "Failed", "operation": {"sync": {"revision": "broken"}}});
        assert!(!app(serde_json::Value::Null, ended).operation_failing());
    }

    #[test]
    fn an_application_reads_with_only_the_fields_we_use_and_defaults_for_the_rest() {
        let app = Application::from_json(&json!({
            "metadata": {"name": "src-waves", "namespace": "argocd", "uid": "x"},
            "spec": {"source": {"repoURL": "git://g/src.git", "path": "waves",
                                "helm": {"valueFiles": ["v.yaml"], "parameters": [{"name": "a", "value": "1"}, {"name": "a", "value": "2"}]}}},
            "operation": {"sync": {"revision": "aaa"}},
            "status": {"sync": {"status": "OutOfSync", "revision": "bbb"},
                       "operationState": {"phase": "Running", "retryCount": 1,
                                          "operation": {"sync": {"revision": "aaa"}},
                                          "syncResult": {"resources": [{"kind": "Job", "name": "m", "hookType": "PreSync", "hookPhase": "Failed"}]}}}
        }))
        .unwrap();
        assert_eq!(app.metadata.name, "src-waves");
        assert_eq!(app.retrying_an_old_revision(), Some("aaa"));
        assert_eq!(app.helm().unwrap().parameter("a"), Some("2"));
        assert_eq!(app.status.health.status, "");
        let empty = Application::from_json(&json!({})).unwrap();
        assert_eq!(empty.retrying_an_old_revision(), None);
    }

    #[test]
    fn inline_values_come_from_values_object_else_the_values_string() {
        let h = Helm {
            values: Some("greeting: hi\n".into()),
            ..Helm::default()
        };
        assert_eq!(h.inline_values()["greeting"], "hi");
        let h = Helm {
            values_object: Some(json!({"greeting": "obj"})),
            values: Some("greeting: hi\n".into()),
            ..Helm::default()
        };
        assert_eq!(h.inline_values()["greeting"], "obj");
    }
}
