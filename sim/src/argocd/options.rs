//! Sync and compare options, read exactly as Argo CD 3.5 reads them.
//!
//! An operation's (or the app's) `syncOptions` is a list of strings matched whole and
//! case-sensitively (`SyncOptions.HasOption`), or by the prefix `Name=` (`GetOptionValue`,
//! entries not trimmed): `createNamespace=true` or ` Prune=false` mean nothing. A resource's
//! `argocd.argoproj.io/sync-options` and `.../compare-options` annotations are comma-separated
//! values, each trimmed (`HasAnnotationOption`, `GetAnnotationOptionValue`), matched as exactly.
//!
//! What each option does, and where (controller/sync.go, gitops-engine's sync_context.go,
//! controller/state.go, appcontroller.go):
//!
//! | option | app/operation list | resource annotation |
//! |---|---|---|
//! | `CreateNamespace=true` | creates the destination namespace | – |
//! | `PrunePropagationPolicy=foreground\|background\|orphan` | prune deletions | – |
//! | `Prune=false`, `Prune=confirm` | default for every prune | on the live object |
//! | `PruneLast=true` | every prune after the last wave | on the live object |
//! | `Replace=true` | replace/create, not apply | on the manifest or the live object |
//! | `Force=true` | – (the operation's `syncStrategy` forces) | on the manifest or the live object |
//! | `ServerSideApply=true` / `=false` | server-side apply | on the manifest (`=false` wins) |
//! | `Validate=false` | kubectl's client-side validation off: no change, as the API server validates fields itself (kubectl then skips its own) | on the manifest |
//! | `ApplyOutOfSyncOnly=true` | only what is OutOfSync is applied | – |
//! | `RespectIgnoreDifferences=true` | ignored fields keep their live values | – |
//! | `SkipDryRunOnMissingResource=true` | a kind the cluster lacks does not void the sync | on the manifest |
//! | `FailOnSharedResource=true` | a shared resource fails the sync | – |
//! | `ClientSideApplyMigration=false` | no managedFields migration for SSA (not modelled: the lab's objects never carry kubectl's client-side manager) | – |
//! | `Delete=false`, `Delete=confirm` | the app's deletion keeps / asks | on the live object |
//! | compare `IgnoreExtraneous` | – | an extra live object does not make the app OutOfSync |

use serde_json::Value;

use crate::objects;

/// Per-resource sync options (`Prune=false`, `Replace=true`, `ServerSideApply=true`, ...).
pub const SYNC_OPTIONS: &str = "argocd.argoproj.io/sync-options";
/// Per-resource compare options (`IgnoreExtraneous`).
pub const COMPARE_OPTIONS: &str = "argocd.argoproj.io/compare-options";

pub const CREATE_NAMESPACE: &str = "CreateNamespace=true";
pub const PRUNE_LAST: &str = "PruneLast=true";
pub const REPLACE: &str = "Replace=true";
pub const FORCE: &str = "Force=true";
pub const SERVER_SIDE_APPLY: &str = "ServerSideApply=true";
pub const NO_SERVER_SIDE_APPLY: &str = "ServerSideApply=false";
pub const APPLY_OUT_OF_SYNC_ONLY: &str = "ApplyOutOfSyncOnly=true";
pub const RESPECT_IGNORE_DIFFERENCES: &str = "RespectIgnoreDifferences=true";
pub const SKIP_DRY_RUN_ON_MISSING_RESOURCE: &str = "SkipDryRunOnMissingResource=true";
pub const FAIL_ON_SHARED_RESOURCE: &str = "FailOnSharedResource=true";
/// The key of `Prune=false|confirm`.
pub const PRUNE: &str = "Prune";
/// The key of `Delete=false|confirm`.
pub const DELETE: &str = "Delete";
/// The value that turns pruning or deletion off.
pub const FALSE: &str = "false";
/// The value that makes pruning or deletion wait for the app's `deletion-approved` annotation.
pub const CONFIRM: &str = "confirm";

/// An app's or an operation's `syncOptions`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncOptions(Vec<String>);

impl SyncOptions {
    /// The strings of a `syncOptions` list (non-strings are not options).
    pub fn from_json(list: &Value) -> SyncOptions {
        SyncOptions(
            list.as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(String::from))
                .collect(),
        )
    }

    /// `HasOption`: the list holds exactly this string.
    pub fn has(&self, option: &str) -> bool {
        self.0.iter().any(|o| o == option)
    }

    /// `GetOptionValue`: what follows `key=` in the first entry that starts so.
    pub fn value(&self, key: &str) -> Option<&str> {
        let prefix = format!("{key}=");
        self.0.iter().find_map(|o| o.strip_prefix(prefix.as_str()))
    }

    pub fn as_json(&self) -> Value {
        Value::from(self.0.clone())
    }
}

/// The annotation's values, trimmed, empty ones and repeats left out (`GetAnnotationCSVs`).
fn values<'a>(obj: &'a Value, key: &str) -> Vec<&'a str> {
    let mut seen: Vec<&str> = Vec::new();
    for v in objects::annotation(obj, key).unwrap_or_default().split(',') {
        let v = v.trim();
        if !v.is_empty() && !seen.contains(&v) {
            seen.push(v);
        }
    }
    seen
}

/// The annotation holds exactly `option` among its values.
pub fn has(obj: Option<&Value>, key: &str, option: &str) -> bool {
    obj.is_some_and(|o| values(o, key).contains(&option))
}

/// The value of `name=value` in the annotation, if set.
pub fn value<'a>(obj: Option<&'a Value>, key: &str, name: &str) -> Option<&'a str> {
    let prefix = format!("{name}=");
    values(obj?, key)
        .into_iter()
        .find_map(|v| v.strip_prefix(prefix.as_str()))
}

/// A resource's own sync option `has`.
pub fn has_sync(obj: Option<&Value>, option: &str) -> bool {
    has(obj, SYNC_OPTIONS, option)
}

/// `Prune=` or `Delete=` for one object: its annotation's value, else the app's default.
pub fn resource_value<'a>(
    obj: Option<&'a Value>,
    app_default: Option<&'a str>,
    key: &str,
) -> Option<&'a str> {
    value(obj, SYNC_OPTIONS, key).or(app_default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn options_are_trimmed_exact_values() {
        let obj = json!({"metadata": {"annotations": {SYNC_OPTIONS: "Prune=false, Replace=true,,Prune=true"}}});
        assert!(has(Some(&obj), SYNC_OPTIONS, "Replace=true"));
        assert!(!has(Some(&obj), SYNC_OPTIONS, "replace=true"));
        assert_eq!(
            value(Some(&obj), SYNC_OPTIONS, "Prune"),
            Some("false"),
            "the first one counts"
        );
        assert_eq!(value(None, SYNC_OPTIONS, "Prune"), None);
    }

    #[test]
    fn list_options_match_whole_strings_case_sensitively_untrimmed() {
        let list = SyncOptions::from_json(&json!([
            "createNamespace=true",
            " Replace=true",
            "ServerSideApply=true",
            "PruneLast=true",
            "PrunePropagationPolicy=orphan",
            "Prune=confirm",
            "Prune=false",
            7
        ]));
        assert!(
            !list.has(CREATE_NAMESPACE),
            "option names are case-sensitive"
        );
        assert!(!list.has(REPLACE), "entries are not trimmed");
        assert!(list.has(SERVER_SIDE_APPLY) && list.has(PRUNE_LAST));
        assert!(!list.has("ServerSideApply"), "a whole entry, not a prefix");
        assert_eq!(
            list.value(PRUNE),
            Some("confirm"),
            "PruneLast and PrunePropagationPolicy are not Prune=, the first Prune= counts"
        );
        assert_eq!(list.value(DELETE), None);
        assert_eq!(list.value("PrunePropagationPolicy"), Some("orphan"));
        let trimmed = SyncOptions::from_json(&json!([" Prune=false"]));
        assert_eq!(trimmed.value(PRUNE), None);
    }

    #[test]
    fn a_resources_own_prune_or_delete_option_wins_over_the_apps() {
        let keep = json!({"metadata": {"annotations": {SYNC_OPTIONS: "Delete=false"}}});
        let plain = json!({"metadata": {}});
        assert_eq!(
            resource_value(Some(&keep), Some("confirm"), DELETE),
            Some("false")
        );
        assert_eq!(
            resource_value(Some(&plain), Some("confirm"), DELETE),
            Some("confirm")
        );
        assert_eq!(resource_value(None, None, PRUNE), None);
    }
}
