//! What of a lab namespace the tutor keeps: objects a lab Application deployed (Argo CD's
//! tracking annotation, or the instance label of label tracking) and objects a lesson names.
//! The server cannot select by annotation, so a stream filters here, in its own task, before
//! anything becomes a message: a classroom's 5,000 other ConfigMaps cost one decode when listed
//! and nothing after.

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

use kube::ResourceExt;
use kube::api::DynamicObject;

use super::collection::Change;
use crate::cluster::{Kind, ObjectKey};

/// Argo CD's annotation tracking (the default since 2.x): `<app>:<group>/<kind>:<ns>/<name>`.
const TRACKING_ID: &str = "argocd.argoproj.io/tracking-id";
/// Label tracking: the Application's name.
const INSTANCE_LABEL: &str = "app.kubernetes.io/instance";

/// The lab's Applications and the objects its lessons name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scope {
    /// The lab's Applications, by name.
    pub apps: BTreeSet<String>,
    /// Objects a lesson reads by name.
    pub named: BTreeSet<ObjectKey>,
}

impl Scope {
    /// Whether the tutor keeps `o`, of `kind`: an Application or a scale Event, an object a lab
    /// app deployed, or one a lesson names.
    pub fn keeps(&self, kind: Kind, o: &DynamicObject) -> bool {
        // Their streams already ask the server for only these: an Application by name, and of
        // Events only the scale records (a lab namespace holds few).
        if matches!(kind, Kind::Application | Kind::Event) {
            return true;
        }
        let tracked_by = o
            .annotations()
            .get(TRACKING_ID)
            .and_then(|id| id.split_once(':'))
            .map(|(app, _)| app)
            .or_else(|| o.labels().get(INSTANCE_LABEL).map(String::as_str));
        if tracked_by.is_some_and(|app| self.apps.contains(app)) {
            return true;
        }
        let key = ObjectKey::new(&o.namespace().unwrap_or_default(), kind, &o.name_any());
        self.named.contains(&key)
    }
}

/// Dropping more objects of a list than this gives the memory they took back to the system.
const GIVE_BACK_AFTER: usize = 500;

/// glibc keeps the pages of a large list that was decoded and then dropped (5,000 ConfigMaps
/// are some 20 MiB decoded): without this the tutor's RSS would stay at the list's peak.
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system; it touches nothing in use.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// One stream's filter: what `Scope` keeps, and for an object that stops being kept (its
/// tracking annotation removed) a deletion, so it does not linger.
pub struct Kept {
    scope: Arc<Scope>,
    /// The stream's kind (list items come without theirs).
    kind: Kind,
    /// The objects passed on, by `namespace/name`.
    passed: HashSet<String>,
}

impl Kept {
    /// A filter for a stream of `kind`.
    pub fn of_kind(scope: Arc<Scope>, kind: Kind) -> Kept {
        Kept {
            scope,
            kind,
            passed: HashSet::new(),
        }
    }

    fn keeps(&self, o: &DynamicObject) -> bool {
        self.scope.keeps(self.kind, o)
    }

    /// The change as the tutor should hear it, or `None` when it is about nothing it keeps.
    pub fn pass(&mut self, change: Change) -> Option<Change> {
        let id =
            |o: &DynamicObject| format!("{}/{}", o.namespace().unwrap_or_default(), o.name_any());
        match change {
            Change::Listed(items) => {
                let listed = items.len();
                let items: Vec<DynamicObject> =
                    items.into_iter().filter(|o| self.keeps(o)).collect();
                self.passed = items.iter().map(id).collect();
                if listed - items.len() > GIVE_BACK_AFTER {
                    give_back_memory();
                }
                Some(Change::Listed(items))
            }
            Change::Applied(o) if self.keeps(&o) => {
                self.passed.insert(id(&o));
                Some(Change::Applied(o))
            }
            Change::Applied(o) | Change::Deleted(o) => {
                self.passed.remove(&id(&o)).then_some(Change::Deleted(o))
            }
            other @ (Change::Lost(_) | Change::Expired) => Some(other),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;
    use serde_json::json;

    fn cm(name: &str, annotations: serde_json::Value) -> DynamicObject {
        serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name, "namespace": "src-helm", "annotations": annotations}
        }))
        .unwrap()
    }

    fn scope() -> Arc<Scope> {
        Arc::new(Scope {
            apps: ["src-helm".to_string()].into(),
            named: ["src-helm/ConfigMap/by-hand".parse().unwrap()].into(),
        })
    }

    fn tracked(name: &str, app: &str) -> DynamicObject {
        cm(
            name,
            json!({TRACKING_ID: format!("{app}:/ConfigMap:src-helm/{name}")}),
        )
    }

    #[test]
    fn a_list_keeps_what_a_lab_app_deployed_and_what_a_lesson_names() {
        let mut kept = Kept::of_kind(scope(), Kind::ConfigMap);
        let listed = kept.pass(Change::Listed(vec![
            tracked("greeting", "src-helm"),
            tracked("theirs", "class-0001"),
            cm("other-00001", json!({})),
            cm("by-hand", json!({})),
        ]));
        let Some(Change::Listed(items)) = listed else {
            panic!("a list stays a list");
        };
        let names: Vec<String> = items.iter().map(ResourceExt::name_any).collect();
        assert_eq!(names, ["greeting", "by-hand"]);
    }

    #[test]
    fn updates_of_other_objects_are_dropped_and_one_that_leaves_the_lab_is_deleted() {
        let mut kept = Kept::of_kind(scope(), Kind::ConfigMap);
        assert!(kept.pass(Change::Applied(cm("other", json!({})))).is_none());
        assert!(kept.pass(Change::Deleted(cm("other", json!({})))).is_none());
        assert!(matches!(
            kept.pass(Change::Applied(tracked("greeting", "src-helm"))),
            Some(Change::Applied(_))
        ));
        // Its tracking annotation removed: the tutor must forget it, once.
        assert!(matches!(
            kept.pass(Change::Applied(cm("greeting", json!({})))),
            Some(Change::Deleted(_))
        ));
        assert!(
            kept.pass(Change::Applied(cm("greeting", json!({}))))
                .is_none()
        );
    }

    #[test]
    fn label_tracking_counts_too() {
        let mut o = cm("web", json!({}));
        o.metadata.labels = Some([(INSTANCE_LABEL.to_string(), "src-helm".to_string())].into());
        assert!(scope().keeps(Kind::ConfigMap, &o));
    }
}
