//! One sync task, as the engine keeps it between passes: what to apply or prune, its phase,
//! wave and hook type, how far it got, and the result it reports in `syncResult.resources`.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::argocd::hooks::{DeletePolicy, HookType};
use crate::kinds::ResourceType;
use crate::store::Key;

/// The field manager Argo CD's controller writes resources as.
pub const MANAGER: &str = "argocd-controller";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    Pending,
    Running,
    Succeeded,
    Failed,
    /// Completed without success for a reason outside the resource (it went missing).
    Error,
}

impl TaskState {
    fn hook_phase(self) -> &'static str {
        match self {
            TaskState::Pending | TaskState::Running => "Running",
            TaskState::Succeeded => "Succeeded",
            TaskState::Failed => "Failed",
            TaskState::Error => "Error",
        }
    }
}

pub struct SyncTask {
    pub ty: &'static ResourceType,
    pub namespace: String,
    pub name: String,
    /// What to apply; `None` for a prune.
    pub desired: Option<Value>,
    /// The live object when the task was built (its per-resource options count too).
    pub live: Option<Arc<Value>>,
    pub phase: HookType,
    pub wave: i64,
    pub hook: Option<HookType>,
    pub policies: Vec<DeletePolicy>,
    pub state: TaskState,
    pub sync_status: Option<&'static str>,
    pub message: String,
    /// When its result was first recorded (`ResourceSyncResult.Order`): results are listed in
    /// the order they came about, a step's prunes before its applies.
    pub order: Option<usize>,
    /// Whether the comparison found the resource modified, when it has both a manifest and a
    /// live object (`ApplyOutOfSyncOnly=true` applies only the modified ones).
    pub modified: Option<bool>,
    /// A kind the cluster does not serve, which the sync may still apply (a CRD of the sync
    /// defines it, or `SkipDryRunOnMissingResource=true`): it does not void the sync.
    pub skip_dry_run: bool,
    /// The created destination namespace once upstream stops building its task (no
    /// `managedNamespaceMetadata`): its result stays as it was, and nothing waits on it.
    pub detached: bool,
    /// Refused before the sync ran (`getSyncTasks`, a kind the cluster does not serve): its
    /// result carries no `hookPhase` (the task never got an operation state; omitempty).
    pub refused: bool,
}

impl SyncTask {
    pub fn key(&self) -> Key {
        Key::new(self.ty, &self.namespace, &self.name)
    }

    /// A resource in sync that `ApplyOutOfSyncOnly=true` leaves alone (hooks always run).
    pub fn in_sync(&self) -> bool {
        self.hook.is_none() && self.modified == Some(false)
    }

    /// Records that the task now has a result, numbering it if it is the first.
    pub fn record(&mut self, next: &mut usize) {
        if self.sync_status.is_some() && self.order.is_none() {
            *next += 1;
            self.order = Some(*next);
        }
    }

    pub fn describe(&self) -> String {
        super::message::describe(&self.key())
    }

    pub fn result_json(&self) -> Value {
        let mut r = json!({"group": self.ty.group, "version": self.ty.version, "kind": self.ty.kind,
            "namespace": self.namespace, "name": self.name,
            "status": self.sync_status.unwrap_or("Synced"),
            "hookPhase": self.state.hook_phase(), "syncPhase": self.phase.as_str()});
        if self.refused
            && let Some(o) = r.as_object_mut()
        {
            o.remove("hookPhase");
        }
        // `message` is omitempty in ResourceResult.
        if !self.message.is_empty() {
            r["message"] = json!(self.message);
        }
        if let Some(h) = self.hook {
            r["hookType"] = json!(h.as_str());
        }
        // A prune's images are the live object's (`GetResourceImages(task.obj())`).
        let images = desired_images(self.desired.as_ref().or(self.live.as_deref()));
        if !images.is_empty() {
            r["images"] = json!(images);
        }
        r
    }
}

/// Images of the object's containers (not initContainers), as `GetResourceImages`.
fn desired_images(obj: Option<&Value>) -> Vec<String> {
    let Some(obj) = obj else { return Vec::new() };
    [
        &obj["spec"]["containers"],
        &obj["spec"]["template"]["spec"]["containers"],
        &obj["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"],
    ]
    .iter()
    .flat_map(|c| c.as_array().cloned().unwrap_or_default())
    .filter_map(|c| c["image"].as_str().map(String::from))
    .collect()
}
