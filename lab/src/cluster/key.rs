//! An object's identity — namespace, kind and name — typed from the watch that saw it to the
//! view that draws it, so no part of the tutor builds or splits `"namespace/Kind/name"` itself.

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use super::{Kind, argocd};

/// `namespace/Kind/name`. In a lesson the name may take an earlier evidence field's value
/// (`src-waves/Job/{hook_job}`): see `lab::spec::refs`, which reads it from YAML.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(try_from = "String")]
pub struct ObjectKey {
    pub namespace: String,
    pub kind: Kind,
    pub name: String,
}

impl ObjectKey {
    pub fn new(namespace: &str, kind: Kind, name: &str) -> ObjectKey {
        ObjectKey {
            namespace: namespace.into(),
            kind,
            name: name.into(),
        }
    }

    /// The Application `name` in Argo CD's namespace.
    pub fn app(name: &str) -> ObjectKey {
        ObjectKey::new(argocd::NAMESPACE, Kind::Application, name)
    }

    /// The key of an object as the API serves it; `kind` is what it was asked for as (items of a
    /// list come without their kind).
    pub fn of(object: &Value, kind: Kind) -> ObjectKey {
        let meta = &object["metadata"];
        ObjectKey::new(
            meta["namespace"].as_str().unwrap_or_default(),
            kind,
            meta["name"].as_str().unwrap_or_default(),
        )
    }

    /// Whether this is an Application.
    pub fn is_app(&self) -> bool {
        self.kind == Kind::Application
    }

    /// The object an Event is about (`involvedObject`), when it is of a kind the lab reads.
    pub fn involved(event: &Value) -> Option<ObjectKey> {
        let about = &event["involvedObject"];
        let namespace = about["namespace"]
            .as_str()
            .or_else(|| event["metadata"]["namespace"].as_str())?;
        Some(ObjectKey::new(
            namespace,
            Kind::parse(about["kind"].as_str()?)?,
            about["name"].as_str()?,
        ))
    }
}

/// Why a text is not an object's key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    #[error("not namespace/Kind/name: {0}")]
    NotKey(String),
    #[error("{kind} in {key} is not a kind the lab reads")]
    UnknownKind { key: String, kind: String },
}

impl std::str::FromStr for ObjectKey {
    type Err = KeyError;
    fn from_str(s: &str) -> Result<Self, KeyError> {
        let parts: Vec<&str> = s.splitn(3, '/').collect();
        let [namespace, kind, name] = parts.as_slice() else {
            return Err(KeyError::NotKey(s.into()));
        };
        let kind = Kind::parse(kind).ok_or_else(|| KeyError::UnknownKind {
            key: s.into(),
            kind: kind.to_string(),
        })?;
        Ok(ObjectKey::new(namespace, kind, name))
    }
}

/// Saved (a recorded session) as it is read: `namespace/Kind/name`.
impl serde::Serialize for ObjectKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.namespace, self.kind.name(), self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_key_reads_back_what_it_says() {
        let key: ObjectKey = "src-waves/Job/smoke".parse().unwrap();
        assert_eq!(key, ObjectKey::new("src-waves", Kind::Job, "smoke"));
        assert_eq!(key.to_string(), "src-waves/Job/smoke");
        assert!(matches!(
            "src-waves/Job".parse::<ObjectKey>(),
            Err(KeyError::NotKey(_))
        ));
        assert!(matches!(
            "src-waves/Gadget/x".parse::<ObjectKey>(),
            Err(KeyError::UnknownKind { .. })
        ));
    }

    #[test]
    fn an_event_names_the_object_it_is_about_in_its_own_namespace_by_default() {
        let scale = json!({"metadata": {"namespace": "src-kust"},
            "involvedObject": {"kind": "Deployment", "name": "prod-api"}});
        assert_eq!(
            ObjectKey::involved(&scale),
            Some(ObjectKey::new("src-kust", Kind::Deployment, "prod-api"))
        );
        let odd = json!({"involvedObject": {"kind": "Gadget", "name": "x", "namespace": "n"}});
        assert_eq!(ObjectKey::involved(&odd), None);
    }
}
