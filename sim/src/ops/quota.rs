//! ResourceQuota accounting, as the quota admission plugin and controller do it for what a lab
//! touches: object counts (`pods`, `configmaps`, `count/deployments.apps`, ...) and the CPU and
//! memory requests and limits of non-terminal Pods. A create that would pass a count is
//! refused with the real `exceeded quota` message.

use serde_json::Value;

use crate::amount;
use crate::kinds::{self, ResourceType, TYPES};
use crate::status::{ApiError, ApiResult};
use crate::store::Store;

/// The quota resource name that counts objects of `ty`: the standard names of core kinds,
/// else `count/<plural>.<group>`.
pub fn count_name(ty: &ResourceType) -> String {
    match (ty.group, ty.plural) {
        (
            "",
            "pods"
            | "configmaps"
            | "secrets"
            | "services"
            | "replicationcontrollers"
            | "resourcequotas",
        ) => ty.plural.to_string(),
        ("", plural) => format!("count/{plural}"),
        (group, plural) => format!("count/{plural}.{group}"),
    }
}

fn terminal(pod: &Value) -> bool {
    matches!(
        pod["status"]["phase"].as_str(),
        Some("Succeeded" | "Failed")
    )
}

/// What `resource` uses in `namespace` now (in milli-units for CPU and memory, whole objects
/// for counts), or `None` for a resource this cluster does not account.
pub fn used(store: &Store, namespace: &str, resource: &str) -> Option<i128> {
    let pods = || {
        store
            .list(&kinds::POD, Some(namespace))
            .0
            .into_iter()
            .filter(|p| !terminal(p))
    };
    let pod_sum = |part: &str, res: &str| -> i128 {
        pods()
            .flat_map(|p| {
                p["spec"]["containers"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
            .filter_map(|c| c["resources"][part][res].as_str().and_then(amount::milli))
            .sum()
    };
    let ours = |ty: &&&ResourceType| ty.view_of.is_none() && !ty.computed && ty.namespaced;
    match resource {
        "pods" => Some(pods().count() as i128 * 1000),
        "cpu" | "requests.cpu" => Some(pod_sum("requests", "cpu")),
        "memory" | "requests.memory" => Some(pod_sum("requests", "memory")),
        "limits.cpu" => Some(pod_sum("limits", "cpu")),
        "limits.memory" => Some(pod_sum("limits", "memory")),
        _ => TYPES
            .iter()
            .filter(ours)
            .find(|t| count_name(t) == resource)
            .map(|t| store.list(t, Some(namespace)).0.len() as i128 * 1000),
    }
}

/// Refuses a create of `ty` named `name` that would take a count past a quota's `hard`.
pub fn admit_create(
    store: &Store,
    ty: &'static ResourceType,
    namespace: &str,
    name: &str,
) -> ApiResult<()> {
    if !ty.namespaced || namespace.is_empty() {
        return Ok(());
    }
    let resource = count_name(ty.storage());
    for quota in store.list(&kinds::RESOURCE_QUOTA, Some(namespace)).0 {
        let Some(hard) = quota["spec"]["hard"][&resource]
            .as_str()
            .and_then(amount::milli)
        else {
            continue;
        };
        let now = used(store, namespace, &resource).unwrap_or(0);
        if now + 1000 > hard {
            let (now, hard) = (amount::format_milli(now), amount::format_milli(hard));
            return Err(ApiError::forbidden_on(
                ty,
                name,
                &format!(
                    "exceeded quota: {}, requested: {resource}=1, used: {resource}={now}, limited: {resource}={hard}",
                    crate::objects::name(&quota)
                ),
            ));
        }
    }
    Ok(())
}
