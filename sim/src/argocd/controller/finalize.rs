//! Deleting an Application that carries the resources finalizer, as Argo CD 3.5's
//! `finalizeApplicationDeletion` does (docs/sim-behaviour.md §15.3): its live resources go
//! wave by wave, highest wave first, with foreground propagation (background for
//! `resources-finalizer.argocd.argoproj.io/background`), each wave only once the last is gone;
//! then the finalizer is removed and the API server lets the Application go. Without the
//! finalizer nothing is deleted: the Application just disappears and its resources stay.

use std::sync::Arc;

use serde_json::{Value, json};

use super::{APP_MANAGER, Controller, app_type};
use crate::argocd::app::AppView;
use crate::argocd::bootstrap::NAMESPACE;
use crate::argocd::compare::{sync_wave, tracked_by};
use crate::argocd::options;
use crate::controllers::record_event;
use crate::objects;
use crate::ops::{self, DeleteOptions, Propagation};
use crate::store::Key;

pub const RESOURCES_FINALIZER: &str = "resources-finalizer.argocd.argoproj.io";
const FOREGROUND_FINALIZER: &str = "resources-finalizer.argocd.argoproj.io/foreground";
const BACKGROUND_FINALIZER: &str = "resources-finalizer.argocd.argoproj.io/background";

fn is_propagation_finalizer(f: &str) -> bool {
    matches!(
        f,
        RESOURCES_FINALIZER | FOREGROUND_FINALIZER | BACKGROUND_FINALIZER
    )
}

/// Where a deletion pass got to.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Finalized {
    /// Not being deleted, or nothing of Argo CD's holds it.
    NotDeleting,
    /// Resources are still going; the events of their deletion bring the app back here.
    Waiting,
    /// The finalizer is off: the API server removes the Application.
    Released,
}

impl Controller {
    /// One pass of a deleting Application's finalizer (the controller runs it whenever the app
    /// has no operation, as Argo CD's operation queue does).
    pub(super) fn finalize_deletion(&mut self, app: &Value) -> Finalized {
        if !objects::is_deleting(app) {
            return Finalized::NotDeleting;
        }
        let finalizers = objects::finalizers(app);
        let Some(policy) = finalizers.iter().find(|f| is_propagation_finalizer(f)) else {
            return Finalized::NotDeleting;
        };
        let propagation = if policy == BACKGROUND_FINALIZER {
            Propagation::Background
        } else {
            Propagation::Foreground
        };
        let name = objects::name(app).to_string();
        let live = self.managed_live_objects(app);
        // Objects already on their way out are waited for before the next wave starts.
        if live.iter().any(|(_, o)| objects::is_deleting(o)) {
            return Finalized::Waiting;
        }
        let mut doomed: Vec<&(Key, Arc<Value>)> = live
            .iter()
            .filter(|(_, o)| should_be_deleted(app, o))
            .collect();
        // `Delete=confirm` (or `Prune=confirm`): nothing goes until the app carries
        // `argocd.argoproj.io/deletion-approved` from its deletion on.
        let approved = app["metadata"]["deletionTimestamp"]
            .as_str()
            .and_then(crate::clock::parse)
            .is_some_and(|t| AppView::new(app).deletion_approved_since(t));
        if !approved && doomed.iter().any(|(k, _)| needs_confirmation(app, k)) {
            return Finalized::Waiting;
        }
        if let Some(top) = doomed.iter().map(|(_, o)| sync_wave(o)).max() {
            doomed.retain(|(_, o)| sync_wave(o) == top);
        }
        let opts = DeleteOptions {
            propagation: Some(propagation),
            ..DeleteOptions::default()
        };
        for (key, _) in &doomed {
            if let Err(e) = ops::delete(&self.env.store, key.ty(), &key.namespace, &key.name, &opts)
                && e.code != 404
            {
                self.deletion_error(app, &e.message);
                return Finalized::Waiting;
            }
        }
        let remaining = self
            .managed_live_objects(app)
            .iter()
            .filter(|(_, o)| should_be_deleted(app, o))
            .count();
        if remaining > 0 {
            tracing::debug!(app = %name, remaining, "objects remaining for deletion");
            return Finalized::Waiting;
        }
        let kept: Vec<&String> = finalizers
            .iter()
            .filter(|f| !is_propagation_finalizer(f))
            .collect();
        match self.patch_app(&name, &json!({"metadata": {"finalizers": kept}})) {
            Ok(_) => Finalized::Released,
            Err(e) if e.code == 404 => Finalized::Released,
            Err(e) => {
                self.deletion_error(app, &e.message);
                Finalized::Waiting
            }
        }
    }

    /// The live objects whose tracking annotation names this app, as the cluster cache finds
    /// them (the top-level resources; their children go with them by garbage collection).
    fn managed_live_objects(&self, app: &Value) -> Vec<(Key, Arc<Value>)> {
        let name = objects::name(app);
        self.env
            .store
            .all()
            .into_iter()
            .filter(|(_, o)| tracked_by(o) == Some(name))
            .collect()
    }

    /// `DeletionError` on the app and a Warning Event, as the controller reports a failed pass.
    fn deletion_error(&self, app: &Value, message: &str) {
        let now = self.env.store.clock.now_rfc3339();
        let condition =
            json!({"type": "DeletionError", "message": message, "lastTransitionTime": now});
        let mut conditions: Vec<Value> = app["status"]["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["type"] != "DeletionError")
            .cloned()
            .collect();
        conditions.push(condition);
        let _ = self.patch_app(
            objects::name(app),
            &json!({"status": {"conditions": conditions}}),
        );
        record_event(
            &self.env,
            app,
            true,
            "StatusRefreshed",
            &format!("Unable to delete application resources: {message}"),
            APP_MANAGER,
        );
    }
}

/// The app's last status lists the object as requiring deletion confirmation.
fn needs_confirmation(app: &Value, key: &Key) -> bool {
    app["status"]["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|r| {
            r["requiresDeletionConfirmation"] == Value::Bool(true)
                && r["kind"] == key.ty().kind
                && r["group"].as_str().unwrap_or_default() == key.ty().group
                && r["name"] == key.name.as_str()
                && r["namespace"].as_str().unwrap_or_default() == key.namespace
        })
}

/// `shouldBeDeleted`: not a CRD, not the Application itself, not `Delete=false` (on the object
/// or in the app's syncOptions), not kept by `helm.sh/resource-policy: keep`.
fn should_be_deleted(app: &Value, obj: &Value) -> bool {
    let kind = obj["kind"].as_str().unwrap_or_default();
    if kind == "CustomResourceDefinition" {
        return false;
    }
    let own_type = crate::kinds::by_kind(obj["apiVersion"].as_str().unwrap_or_default(), kind)
        .is_some_and(|t| std::ptr::eq(t, app_type()));
    if own_type && objects::name(obj) == objects::name(app) && objects::namespace(obj) == NAMESPACE
    {
        return false;
    }
    let app_options = AppView::new(app).sync_options();
    let delete_option = options::resource_value(
        Some(obj),
        app_options.value(options::DELETE),
        options::DELETE,
    );
    let keep = objects::annotation(obj, "helm.sh/resource-policy")
        .is_some_and(|p| p.split(',').any(|v| v.trim() == "keep"));
    delete_option != Some(options::FALSE) && !keep
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crds_kept_resources_and_the_app_itself_are_never_deleted() {
        let app = json!({"metadata": {"name": "shop", "namespace": "argocd"},
            "spec": {"syncPolicy": {"syncOptions": ["Delete=false"]}}});
        let plain = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}});
        assert!(
            !should_be_deleted(&app, &plain),
            "the app's Delete=false holds"
        );
        let app = json!({"metadata": {"name": "shop", "namespace": "argocd"}});
        assert!(should_be_deleted(&app, &plain));
        let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "x"}});
        assert!(!should_be_deleted(&app, &crd));
        let kept = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a",
            "annotations": {"helm.sh/resource-policy": "keep"}}});
        assert!(!should_be_deleted(&app, &kept));
        let opted_out = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a",
            "annotations": {"argocd.argoproj.io/sync-options": "Prune=false,Delete=false"}}});
        assert!(!should_be_deleted(&app, &opted_out));
        let itself = json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
            "metadata": {"name": "shop", "namespace": "argocd"}});
        assert!(!should_be_deleted(&app, &itself));
        // The app's list is matched as `GetOptionValue` matches it: untrimmed, whole entries.
        let spaced = json!({"metadata": {"name": "shop", "namespace": "argocd"},
            "spec": {"syncPolicy": {"syncOptions": [" Delete=false", "Prune=false,Delete=false"]}}});
        assert!(should_be_deleted(&spaced, &plain));
    }

    /// `Delete=confirm`: the last status lists which resources wait for the approval.
    #[test]
    fn resources_needing_confirmation_are_read_from_the_status() {
        let app = json!({"status": {"resources": [
            {"version": "v1", "kind": "ConfigMap", "namespace": "shop", "name": "a", "requiresDeletionConfirmation": true},
            {"version": "v1", "kind": "ConfigMap", "namespace": "shop", "name": "b"},
        ]}});
        let cm = &crate::kinds::CONFIG_MAP;
        assert!(needs_confirmation(&app, &Key::new(cm, "shop", "a")));
        assert!(!needs_confirmation(&app, &Key::new(cm, "shop", "b")));
        assert!(!needs_confirmation(&app, &Key::new(cm, "other", "a")));
    }
}
