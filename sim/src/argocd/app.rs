//! A narrow, read-only view of an Argo CD Application's spec: the fields the controller acts on,
//! with Argo CD's defaults (project `default`, retry limit 5 for automated syncs, ...).

use serde_json::{Value, json};

use super::options::SyncOptions;

/// The Application as the controller reads it.
pub struct AppView<'a> {
    pub obj: &'a Value,
}

impl<'a> AppView<'a> {
    pub fn new(obj: &'a Value) -> AppView<'a> {
        AppView { obj }
    }

    pub fn name(&self) -> &str {
        self.obj["metadata"]["name"].as_str().unwrap_or_default()
    }

    /// `spec.project`, `default` when empty (`GetProject`).
    pub fn project(&self) -> &str {
        match self.obj["spec"]["project"].as_str() {
            Some(p) if !p.is_empty() => p,
            _ => "default",
        }
    }

    pub fn source(&self) -> &Value {
        &self.obj["spec"]["source"]
    }

    pub fn repo_url(&self) -> &str {
        self.source()["repoURL"].as_str().unwrap_or_default()
    }

    pub fn target_revision(&self) -> &str {
        self.source()["targetRevision"].as_str().unwrap_or("HEAD")
    }

    pub fn dest_namespace(&self) -> &str {
        self.obj["spec"]["destination"]["namespace"]
            .as_str()
            .unwrap_or_default()
    }

    pub fn destination(&self) -> &Value {
        &self.obj["spec"]["destination"]
    }

    fn automated(&self) -> Option<&Value> {
        self.obj["spec"]["syncPolicy"]["automated"]
            .as_object()
            .map(|_| &self.obj["spec"]["syncPolicy"]["automated"])
    }

    /// `automated` present and not `enabled: false`.
    pub fn auto_sync(&self) -> bool {
        self.automated()
            .is_some_and(|a| a["enabled"] != Value::Bool(false))
    }

    pub fn self_heal(&self) -> bool {
        self.automated()
            .is_some_and(|a| a["selfHeal"] == Value::Bool(true))
    }

    pub fn auto_prune(&self) -> bool {
        self.automated()
            .is_some_and(|a| a["prune"] == Value::Bool(true))
    }

    /// `automated.allowEmpty`: an automated sync may prune every resource.
    pub fn allow_empty(&self) -> bool {
        self.automated()
            .is_some_and(|a| a["allowEmpty"] == Value::Bool(true))
    }

    pub fn sync_options(&self) -> SyncOptions {
        SyncOptions::from_json(&self.obj["spec"]["syncPolicy"]["syncOptions"])
    }

    /// `syncPolicy.managedNamespaceMetadata` (labels and annotations for the namespace that
    /// `CreateNamespace=true` manages), when set.
    pub fn managed_namespace_metadata(&self) -> Option<&Value> {
        let m = &self.obj["spec"]["syncPolicy"]["managedNamespaceMetadata"];
        m.is_object().then_some(m)
    }

    /// The `retry` an automated operation carries: the spec's, else `{limit: 5}`.
    pub fn retry_for_auto_sync(&self) -> Value {
        match &self.obj["spec"]["syncPolicy"]["retry"] {
            Value::Object(_) => self.obj["spec"]["syncPolicy"]["retry"].clone(),
            _ => json!({"limit": 5}),
        }
    }

    /// `HasChangedManagedNamespaceMetadata`: `managedNamespaceMetadata` is set and is not what
    /// the last sync recorded (`syncResult.managedNamespaceMetadata`, written without empty
    /// maps: a spec's `labels: {}` never equals it, as Go's `DeepEqual` of an empty and a nil
    /// map says).
    pub fn namespace_metadata_changed(&self) -> bool {
        let Some(spec) = self.managed_namespace_metadata() else {
            return false;
        };
        let result = &self.obj["status"]["operationState"]["syncResult"];
        if !result.is_object() {
            return false;
        }
        let as_go = |m: &Value, keep_empty: bool| -> Vec<(String, Value)> {
            ["labels", "annotations"]
                .iter()
                .filter_map(|k| {
                    let v = m.get(*k)?.as_object()?;
                    (keep_empty || !v.is_empty()).then(|| (k.to_string(), Value::Object(v.clone())))
                })
                .collect()
        };
        let recorded = &result["managedNamespaceMetadata"];
        !recorded.is_object() || as_go(spec, true) != as_go(recorded, false)
    }

    /// `IsDeletionConfirmed`: `argocd.argoproj.io/deletion-approved` holds an RFC 3339 time
    /// no earlier than `since`.
    pub fn deletion_approved_since(&self, since: jiff::Timestamp) -> bool {
        self.obj["metadata"]["annotations"]["argocd.argoproj.io/deletion-approved"]
            .as_str()
            .and_then(crate::clock::parse)
            .is_some_and(|t| t >= since)
    }

    pub fn ignore_differences(&self) -> &Value {
        &self.obj["spec"]["ignoreDifferences"]
    }

    pub fn refresh_requested(&self) -> Option<&str> {
        self.obj["metadata"]["annotations"][REFRESH].as_str()
    }
}

/// The refresh annotation (`normal` or `hard`), removed by the controller once acted on.
pub const REFRESH: &str = "argocd.argoproj.io/refresh";

#[cfg(test)]
mod tests {
    use super::*;

    /// `HasChangedManagedNamespaceMetadata`: set and not what the last sync recorded (which
    /// leaves empty maps out, so a spec's `labels: {}` never equals it).
    #[test]
    fn managed_namespace_metadata_changes_against_the_last_sync() {
        let app = |spec: Value, recorded: Value| {
            json!({"spec": {"syncPolicy": {"managedNamespaceMetadata": spec}},
                "status": {"operationState": {"syncResult": {"managedNamespaceMetadata": recorded}}}})
        };
        let labels = json!({"labels": {"team": "web"}});
        let changed = |a: Value| AppView::new(&a).namespace_metadata_changed();
        assert!(!changed(app(labels.clone(), labels.clone())));
        assert!(changed(app(
            json!({"labels": {"team": "api"}}),
            labels.clone()
        )));
        assert!(changed(app(labels.clone(), Value::Null)), "never recorded");
        assert!(changed(app(json!({"labels": {}}), json!({}))));
        assert!(!changed(app(json!({"labels": null}), json!({}))));
        assert!(!changed(json!({"spec": {}, "status": {}})), "not set");
    }

    #[test]
    fn deletion_is_approved_from_a_time_on() {
        let app = json!({"metadata": {"annotations": {"argocd.argoproj.io/deletion-approved": "2026-11-30T15:04:05Z"}}});
        let view = AppView::new(&app);
        let at = |t: &str| t.parse::<jiff::Timestamp>().unwrap();
        assert!(view.deletion_approved_since(at("2026-11-30T15:04:05Z")));
        assert!(view.deletion_approved_since(at("2026-11-30T15:00:00Z")));
        assert!(!view.deletion_approved_since(at("2026-11-30T15:04:06Z")));
    }
}
