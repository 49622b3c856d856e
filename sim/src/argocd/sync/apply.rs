//! Applying one sync task as Argo CD does, through kubectl's library (see `kubectl`):
//! client-side apply (kubectl's three-way merge with the last-applied annotation, field manager
//! `argocd-controller`, operation Update), or server-side apply with `ServerSideApply=true`
//! (`argocd-controller`, Apply, forced), or `kubectl replace`/`create` with `Replace=true`; each
//! of these also per resource through `argocd.argoproj.io/sync-options`.
//! `RespectIgnoreDifferences=true` keeps the live values of ignored fields
//! (docs/sim-behaviour.md §6.2, §7, §16.4). Prunes honour `prune`, `Prune=false|confirm` (the
//! live object's, else the app's) and `PrunePropagationPolicy`.

use serde_json::{Value, json};

use super::kubectl;
use super::task::{MANAGER, SyncTask, TaskState};
use crate::argocd::apply::{client_side_apply, client_side_update, read_last_applied};
use crate::argocd::diff::{self, IgnoreRule};
use crate::argocd::{hooks, options};
use crate::controllers::Env;
use crate::objects;
use crate::ops::{self, Actor, DeleteOptions, Part, Propagation};
use crate::patch::PatchKind;

/// The operation's sync options, as the engine is configured with them.
#[derive(Default)]
pub struct Options {
    /// `operation.sync.prune`: extra live objects are deleted, not skipped.
    pub prune: bool,
    pub server_side: bool,
    /// `Replace=true`: `kubectl replace` (or `create`) instead of apply.
    pub replace: bool,
    /// The operation's `syncStrategy` forces (`--force`): replace deletes and creates again.
    pub force: bool,
    /// `PrunePropagationPolicy=`: foreground unless said otherwise.
    pub prune_propagation: Option<Propagation>,
    pub respect_ignore_differences: bool,
    pub rules: Vec<IgnoreRule>,
    /// The app's `Prune=` (`false`, `confirm`): what a live object without its own says.
    pub default_prune: Option<String>,
    /// `ApplyOutOfSyncOnly=true`: resources that are in sync are not applied.
    pub apply_out_of_sync_only: bool,
    /// The app carries `argocd.argoproj.io/deletion-approved` from this operation's start on:
    /// prunes that need confirmation may go.
    pub prune_confirmed: bool,
}

/// Who writes a replaced or created object: kubectl's replace and create run without a field
/// manager, so the server takes the controller's User-Agent.
const REPLACE_MANAGER: &str = "argocd-application-controller";

impl Options {
    /// The `Prune=` that holds for a live object: its own, else the app's.
    pub fn prune_option<'a>(&'a self, live: Option<&'a Value>) -> Option<&'a str> {
        options::resource_value(live, self.default_prune.as_deref(), options::PRUNE)
    }
}

impl SyncTask {
    pub fn apply(&mut self, env: &Env, options: &Options) {
        // A kind a CRD of this sync defines is served once that CRD is (kubectl's mapper finds
        // it then).
        self.ty = env.store.kinds.current(self.ty);
        let result = match &self.desired {
            None => self.prune(env, options),
            Some(desired) => self.apply_object(env, desired.clone(), options),
        };
        if result.is_ok()
            && self.desired.is_some()
            && (self.ty.group, self.ty.kind) == ("apiextensions.k8s.io", "CustomResourceDefinition")
        {
            // `ensureCRDReady`: the sync waits for an applied CRD to be Established.
            crate::controllers::crd::establish_now(&env.store, &self.name);
        }
        match result {
            Ok((status, message)) => {
                self.sync_status = Some(status);
                self.message = message;
                // `operationPhases`: Pruned and PruneSkipped are done; Synced waits on health.
                self.state = if matches!(status, "Pruned" | "PruneSkipped") {
                    TaskState::Succeeded
                } else {
                    TaskState::Running
                };
            }
            Err(message) => {
                self.sync_status = Some("SyncFailed");
                self.message = message;
                self.state = TaskState::Failed;
            }
        }
    }

    /// Whether this prune must wait for the app's deletion approval (`Prune=confirm`).
    pub fn needs_prune_confirmation(&self, options: &Options) -> bool {
        self.desired.is_none()
            && !options.prune_confirmed
            && options.prune_option(self.live.as_deref()) == Some(options::CONFIRM)
    }

    /// `pruneObject`: skipped when the operation does not prune or the live object (else the
    /// app) says `Prune=false`, else deleted (foreground unless the operation says otherwise).
    fn prune(&self, env: &Env, options: &Options) -> Result<(&'static str, String), String> {
        if !options.prune {
            return Ok(("PruneSkipped", "ignored (requires pruning)".into()));
        }
        if options.prune_option(self.live.as_deref()) == Some(options::FALSE) {
            return Ok(("PruneSkipped", "ignored (no prune)".into()));
        }
        // An object already being deleted is not deleted again.
        let deleting = env
            .store
            .get(&self.key())
            .is_some_and(|o| objects::is_deleting(&o));
        if deleting {
            return Ok(("Pruned", "pruned".into()));
        }
        let opts = DeleteOptions {
            propagation: Some(options.prune_propagation.unwrap_or(Propagation::Foreground)),
            ..DeleteOptions::default()
        };
        match ops::delete(&env.store, self.ty, &self.namespace, &self.name, &opts) {
            Ok(_) => Ok(("Pruned", "pruned".into())),
            Err(e) if e.code == 404 => Ok(("Pruned", "pruned".into())),
            Err(e) => Err(e.message),
        }
    }

    fn apply_object(
        &self,
        env: &Env,
        mut desired: Value,
        options: &Options,
    ) -> Result<(&'static str, String), String> {
        if !crate::kinds::is_served(self.ty) {
            // kubectl's builder finds no mapping for the kind (the sync went on only because a
            // CRD of its own or `SkipDryRunOnMissingResource` said the kind would be there).
            return Err(format!(
                "resource mapping not found for name: {:?} namespace: {:?} from {:?}: no matches for kind {:?} in version {:?}\nensure CRDs are installed first",
                self.name,
                self.namespace,
                kubectl::manifest_file(),
                self.ty.kind,
                self.ty.api_version()
            ));
        }
        let live = env.store.get(&self.key());
        if self.hook.is_some() {
            let mut finalizers = objects::finalizers(&desired);
            if !finalizers.iter().any(|f| f == hooks::FINALIZER) {
                finalizers.push(hooks::FINALIZER.into());
            }
            objects::metadata_mut(&mut desired).insert("finalizers".into(), json!(finalizers));
        } else if options.respect_ignore_differences {
            let rules = diff::rules_for(&options.rules, &desired);
            desired = diff::respect_ignore_differences(&desired, live.as_deref(), &rules);
        }
        // Replace and Force count on the manifest or on the live object as built into the task.
        let has = |option: &str| {
            options::has_sync(Some(&desired), option)
                || options::has_sync(self.live.as_deref(), option)
        };
        let replace = options.replace || has(options::REPLACE);
        let force = options.force || has(options::FORCE);
        if replace {
            return self.replace_object(env, desired, live.as_deref(), force);
        }
        let server_side = !options::has_sync(Some(&desired), options::NO_SERVER_SIDE_APPLY)
            && (options.server_side
                || options::has_sync(Some(&desired), options::SERVER_SIDE_APPLY));
        if server_side {
            return self.server_side_apply(env, &desired);
        }
        if super::reconcile::applies_to(self.ty) {
            // `kubectl auth reconcile` first; its output comes before apply's, unseparated.
            let reconciled = super::reconcile::run(env, self.ty, &self.namespace, &desired)
                .map_err(|e| format!("error running kubectl auth reconcile: {e}"))?;
            let live = env.store.get(&self.key());
            let (status, applied) = self.client_side_apply(env, &desired, live.as_deref())?;
            return Ok((status, format!("{reconciled}{applied}")));
        }
        self.client_side_apply(env, &desired, live.as_deref())
    }

    /// `kubectl apply --server-side --force-conflicts`, as `argocd-controller`.
    fn server_side_apply(
        &self,
        env: &Env,
        desired: &Value,
    ) -> Result<(&'static str, String), String> {
        let body = kubectl::as_applied(self.ty, desired)?;
        ops::patch(
            &env.store,
            &ops::PatchRequest {
                target: ops::Target {
                    ty: self.ty,
                    namespace: &self.namespace,
                    name: &self.name,
                    part: Part::Main,
                },
                kind: PatchKind::Apply,
                body: &body,
                force: true,
            },
            &Actor::new(MANAGER),
        )
        .map_err(|e| kubectl::clean(&e.message))?;
        Ok((
            "Synced",
            format!("{} serverside-applied", self.ty.kubectl_ref(&self.name)),
        ))
    }

    /// Client-side `kubectl apply`: a create carrying the last-applied annotation, or the
    /// three-way patch of the live object (none sent when it is empty: `unchanged`). A live
    /// object without the annotation is adopted with kubectl's warning after the result. A
    /// refused patch names the manifest's temp file (`error when patching "/dev/shm/..."`);
    /// a refused create does not (gitops-engine cuts that prefix).
    fn client_side_apply(
        &self,
        env: &Env,
        desired: &Value,
        live: Option<&Value>,
    ) -> Result<(&'static str, String), String> {
        let actor = Actor::new(MANAGER);
        let reference = self.ty.kubectl_ref(&self.name);
        let Some(live) = live else {
            let created = client_side_apply(None, desired, self.ty.builtin);
            let body = kubectl::as_stored(self.ty, &created).map_err(|e| {
                kubectl::clean(&kubectl::with_source(
                    "creating",
                    &kubectl::manifest_file(),
                    &e,
                ))
            })?;
            ops::create(&env.store, self.ty, &self.namespace, body, &actor).map_err(|e| {
                kubectl::clean(&kubectl::with_source(
                    "creating",
                    &kubectl::manifest_file(),
                    &e.message,
                ))
            })?;
            return Ok(("Synced", format!("{reference} created")));
        };
        let warning = if read_last_applied(live).is_none() {
            kubectl::missing_last_applied_warning(self.ty, &self.name)
        } else {
            String::new()
        };
        let (patch, applied) = client_side_update(live, desired, self.ty.builtin)
            .map_err(|e| kubectl::clean(&e.to_string()))?;
        let unchanged = patch.as_object().is_some_and(|p| p.is_empty());
        if !unchanged {
            let patching = |message: &str| {
                kubectl::clean(&kubectl::with_source(
                    "patching",
                    &kubectl::manifest_file(),
                    message,
                ))
            };
            let body = kubectl::as_stored(self.ty, &applied).map_err(|e| patching(&e))?;
            let target = ops::Target {
                ty: self.ty,
                namespace: &self.namespace,
                name: &self.name,
                part: Part::Main,
            };
            ops::replace(&env.store, &target, body, &actor).map_err(|e| patching(&e.message))?;
        }
        let verb = if unchanged { "unchanged" } else { "configured" };
        Ok((
            "Synced",
            kubectl::output(&format!("{reference} {verb}"), &warning),
        ))
    }

    /// `Replace=true`: `kubectl replace` of a live object (`--force` deletes it and creates it
    /// again), `kubectl create` of a missing one; a CRD or Namespace is updated instead, as
    /// replacing it would delete what it holds. No last-applied annotation is written.
    fn replace_object(
        &self,
        env: &Env,
        desired: Value,
        live: Option<&Value>,
        force: bool,
    ) -> Result<(&'static str, String), String> {
        let actor = Actor::new(REPLACE_MANAGER);
        let reference = self.ty.kubectl_ref(&self.name);
        let target = ops::Target {
            ty: self.ty,
            namespace: &self.namespace,
            name: &self.name,
            part: Part::Main,
        };
        let file = kubectl::manifest_file();
        let Some(live) = live else {
            let created = kubectl::as_stored(self.ty, &desired)
                .and_then(|body| {
                    ops::create(&env.store, self.ty, &self.namespace, body, &actor)
                        .map_err(|e| e.message)
                })
                .map_err(|e| kubectl::clean(&kubectl::with_source("creating", &file, &e)));
            created?;
            return Ok(("Synced", format!("{reference} created")));
        };
        if matches!(self.ty.kind, "CustomResourceDefinition" | "Namespace") {
            let mut update = desired;
            objects::metadata_mut(&mut update).insert(
                "resourceVersion".into(),
                live["metadata"]["resourceVersion"].clone(),
            );
            kubectl::as_stored(self.ty, &update)
                .and_then(|body| {
                    ops::replace(&env.store, &target, body, &actor).map_err(|e| e.message)
                })
                .map_err(|e| format!("error when updating: {e}"))?;
            return Ok(("Synced", format!("{}/{} updated", self.ty.kind, self.name)));
        }
        if force {
            let opts = DeleteOptions {
                propagation: Some(Propagation::Background),
                ..DeleteOptions::default()
            };
            ops::delete(&env.store, self.ty, &self.namespace, &self.name, &opts)
                .map_err(|e| kubectl::clean(&e.message))?;
            kubectl::as_stored(self.ty, &desired)
                .and_then(|body| {
                    ops::create(&env.store, self.ty, &self.namespace, body, &actor)
                        .map_err(|e| e.message)
                })
                .map_err(|e| kubectl::clean(&e))?;
            return Ok(("Synced", format!("{reference} replaced")));
        }
        kubectl::as_stored(self.ty, &desired)
            .and_then(|body| ops::replace(&env.store, &target, body, &actor).map_err(|e| e.message))
            .map_err(|e| kubectl::clean(&kubectl::with_source("replacing", &file, &e)))?;
        Ok(("Synced", format!("{reference} replaced")))
    }
}
