//! The kinds the lab reads and watches, with where the API serves each: one table instead of
//! group/version/plural strings spread over the code.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The kinds the lab reads, with where the API serves them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    Application,
    ConfigMap,
    Deployment,
    Event,
    Job,
    Pod,
    Secret,
    Service,
}

impl Kind {
    /// (group, version, plural).
    pub fn api(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Kind::Application => ("argoproj.io", "v1alpha1", "applications"),
            Kind::ConfigMap => ("", "v1", "configmaps"),
            Kind::Deployment => ("apps", "v1", "deployments"),
            Kind::Event => ("", "v1", "events"),
            Kind::Job => ("batch", "v1", "jobs"),
            Kind::Pod => ("", "v1", "pods"),
            Kind::Secret => ("", "v1", "secrets"),
            Kind::Service => ("", "v1", "services"),
        }
    }

    /// The collection's URL path in a namespace.
    pub fn collection_path(self, namespace: &str) -> String {
        let (group, version, plural) = self.api();
        match group {
            "" => format!("/api/{version}/namespaces/{namespace}/{plural}"),
            g => format!("/apis/{g}/{version}/namespaces/{namespace}/{plural}"),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Application => "Application",
            Kind::ConfigMap => "ConfigMap",
            Kind::Deployment => "Deployment",
            Kind::Event => "Event",
            Kind::Job => "Job",
            Kind::Pod => "Pod",
            Kind::Secret => "Secret",
            Kind::Service => "Service",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        serde_json::from_value(Value::String(s.into())).ok()
    }
}
