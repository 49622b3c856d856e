//! Applying one sync task as Argo CD does: client-side apply (kubectl's three-way merge with the
//! last-applied annotation, field manager `argocd-controller`, operation Update), or
//! server-side apply with `ServerSideApply=true` (`argocd-controller`, Apply, forced), or
//! `kubectl replace`/`create` with `Replace=true`; each of these also per resource through
//! `argocd.argoproj.io/sync-options`. `RespectIgnoreDifferences=true` keeps the live values of
//! ignored fields (docs/sim-behaviour.md §6.2, §7, §16.4). Prunes honour `prune`, a live
//! object's `Prune=false` and `PrunePropagationPolicy`.

use serde_json::{Value, json};

use super::task::{MANAGER, SyncTask, TaskState};
use crate::argocd::apply::client_side_apply;
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
    /// `Force=true`: replace by deleting and creating again.
    pub force: bool,
    /// `PrunePropagationPolicy=`: foreground unless said otherwise.
    pub prune_propagation: Option<Propagation>,
    pub respect_ignore_differences: bool,
    pub rules: Vec<IgnoreRule>,
}

/// Who writes a replaced or created object: kubectl's replace and create run without a field
/// manager, so the server takes the controller's User-Agent.
const REPLACE_MANAGER: &str = "argocd-application-controller";

fn has_sync_option(obj: Option<&Value>, option: &str) -> bool {
    options::has(obj, options::SYNC_OPTIONS, option)
}

fn sync_option_value<'a>(obj: Option<&'a Value>, name: &str) -> Option<&'a str> {
    options::value(obj, options::SYNC_OPTIONS, name)
}

impl SyncTask {
    pub fn apply(&mut self, env: &Env, options: &Options) {
        let result = match &self.desired {
            None => self.prune(env, options),
            Some(desired) => self.apply_object(env, desired.clone(), options),
        };
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

    /// `pruneObject`: skipped when the operation does not prune or the live object says
    /// `Prune=false`, else deleted (foreground unless the operation says otherwise).
    fn prune(&self, env: &Env, options: &Options) -> Result<(&'static str, String), String> {
        if !options.prune {
            return Ok(("PruneSkipped", "ignored (requires pruning)".into()));
        }
        if sync_option_value(self.live.as_deref(), "Prune") == Some("false") {
            return Ok(("PruneSkipped", "ignored (no prune)".into()));
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
        let actor = Actor::new(MANAGER);
        let reference = self.ty.kubectl_ref(&self.name);
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
        let has = |option: &str| {
            has_sync_option(Some(&desired), option) || has_sync_option(live.as_deref(), option)
        };
        let replace = options.replace || has("Replace=true");
        let force = options.force || has("Force=true");
        if replace {
            return self.replace_object(env, desired, live.as_deref(), force);
        }
        let server_side = !has_sync_option(Some(&desired), "ServerSideApply=false")
            && (options.server_side || has_sync_option(Some(&desired), "ServerSideApply=true"));
        if server_side {
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
                    body: &desired,
                    force: true,
                },
                &actor,
            )
            .map_err(|e| e.message)?;
            return Ok(("Synced", format!("{reference} serverside-applied")));
        }
        let merged = client_side_apply(live.as_deref(), &desired, self.ty.builtin);
        match live {
            None => {
                ops::create(&env.store, self.ty, &self.namespace, merged, &actor)
                    .map_err(|e| e.message)?;
                Ok(("Synced", format!("{reference} created")))
            }
            Some(live) => {
                let stored = ops::replace(
                    &env.store,
                    &ops::Target {
                        ty: self.ty,
                        namespace: &self.namespace,
                        name: &self.name,
                        part: Part::Main,
                    },
                    merged,
                    &actor,
                )
                .map_err(|e| e.message)?;
                let changed =
                    stored["metadata"]["resourceVersion"] != live["metadata"]["resourceVersion"];
                Ok((
                    "Synced",
                    format!(
                        "{reference} {}",
                        if changed { "configured" } else { "unchanged" }
                    ),
                ))
            }
        }
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
        let Some(live) = live else {
            ops::create(&env.store, self.ty, &self.namespace, desired, &actor)
                .map_err(|e| e.message)?;
            return Ok(("Synced", format!("{reference} created")));
        };
        if matches!(self.ty.kind, "CustomResourceDefinition" | "Namespace") {
            let mut update = desired;
            objects::metadata_mut(&mut update).insert(
                "resourceVersion".into(),
                live["metadata"]["resourceVersion"].clone(),
            );
            ops::replace(&env.store, &target, update, &actor)
                .map_err(|e| format!("error when updating: {}", e.message))?;
            return Ok(("Synced", format!("{}/{} updated", self.ty.kind, self.name)));
        }
        if force {
            let opts = DeleteOptions {
                propagation: Some(Propagation::Background),
                ..DeleteOptions::default()
            };
            ops::delete(&env.store, self.ty, &self.namespace, &self.name, &opts)
                .map_err(|e| e.message)?;
            ops::create(&env.store, self.ty, &self.namespace, desired, &actor)
                .map_err(|e| e.message)?;
            return Ok(("Synced", format!("{reference} replaced")));
        }
        ops::replace(&env.store, &target, desired, &actor).map_err(|e| e.message)?;
        Ok(("Synced", format!("{reference} replaced")))
    }
}
