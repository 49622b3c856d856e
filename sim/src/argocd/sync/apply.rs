//! Applying one sync task as Argo CD does: client-side apply (kubectl's three-way merge with the
//! last-applied annotation, field manager `argocd-controller`, operation Update), or
//! server-side apply with `ServerSideApply=true` (`argocd-controller`, Apply, forced);
//! `RespectIgnoreDifferences=true` keeps the live values of ignored fields (docs/sim-behaviour.md §6.2, §7).

use serde_json::{Value, json};

use super::task::{MANAGER, SyncTask, TaskState};
use crate::argocd::apply::client_side_apply;
use crate::argocd::diff::{self, IgnoreRule};
use crate::argocd::hooks;
use crate::controllers::Env;
use crate::objects;
use crate::ops::{self, Actor, DeleteOptions, Part, Propagation};
use crate::patch::PatchKind;

#[derive(Default)]
pub struct Options {
    pub server_side: bool,
    pub respect_ignore_differences: bool,
    pub rules: Vec<IgnoreRule>,
}

impl SyncTask {
    pub fn apply(&mut self, env: &Env, options: &Options) {
        let result = match &self.desired {
            None => self.prune(env),
            Some(desired) => self.apply_object(env, desired.clone(), options),
        };
        match result {
            Ok((status, message)) => {
                self.sync_status = Some(status);
                self.message = message;
                self.state = if status == "Pruned" {
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

    fn prune(&self, env: &Env) -> Result<(&'static str, String), String> {
        let opts = DeleteOptions {
            propagation: Some(Propagation::Foreground),
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
        if options.server_side {
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
}
