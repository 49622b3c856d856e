//! A narrow, read-only view of an Argo CD Application's spec: the fields the controller acts on,
//! with Argo CD's defaults (project `default`, retry limit 5 for automated syncs, ...).

use serde_json::{Value, json};

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

    pub fn sync_options(&self) -> Vec<String> {
        self.obj["spec"]["syncPolicy"]["syncOptions"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The `retry` an automated operation carries: the spec's, else `{limit: 5}`.
    pub fn retry_for_auto_sync(&self) -> Value {
        match &self.obj["spec"]["syncPolicy"]["retry"] {
            Value::Object(_) => self.obj["spec"]["syncPolicy"]["retry"].clone(),
            _ => json!({"limit": 5}),
        }
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

/// True when a `syncOptions` list holds `name=true`.
pub fn has_option(options: &[String], name: &str) -> bool {
    options
        .iter()
        .any(|o| o.eq_ignore_ascii_case(&format!("{name}=true")))
}
