//! Watching one Application from a plan step: read first, then each change, and the cluster's
//! absence said in words — the same list-then-watch as the tutor's panes (`watch::collection`),
//! narrowed to the one name.

use kube::ResourceExt;
use serde_json::Value;

use super::Runner;
use crate::cluster::watch::collection::{Change, Changes};

/// The Application `name` as it is, then each time it changes; `Err` with the words while the
/// cluster does not answer (the watch re-lists once it does).
pub async fn next_app(
    changes: &mut Changes,
    name: &str,
) -> Result<Option<Option<Value>>, crate::cluster::problem::Problem> {
    loop {
        let Some(change) = changes.next().await else {
            return Ok(None);
        };
        let obj = match change {
            Change::Listed(items) => items.into_iter().find(|o| o.name_any() == name),
            Change::Applied(o) => Some(o),
            Change::Deleted(_) => None,
            Change::Lost(problem) => return Err(problem),
            // The re-list follows at once.
            Change::Expired => continue,
        };
        return Ok(Some(
            obj.map(|o| serde_json::to_value(&o).unwrap_or(Value::Null)),
        ));
    }
}

/// The Application `name`, watched: read first, then each change.
pub fn watch_app(r: &Runner, name: &str) -> Changes {
    Changes::start(
        crate::cluster::application::api(r.client.clone(), crate::cluster::argocd::NAMESPACE),
        Some(format!("metadata.name={name}")),
        None,
    )
}
