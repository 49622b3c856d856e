//! The resource types the embedded API server serves: one table that discovery, OpenAPI,
//! routing, defaulting and the Table printer all read, so they can never disagree.

pub mod custom;
mod more;
mod served;

pub use custom::{Catalog, CustomDef};
pub use more::*;
pub use served::*;

/// One served resource type.
#[derive(Debug, PartialEq, Eq)]
pub struct ResourceType {
    pub group: &'static str,
    pub version: &'static str,
    pub kind: &'static str,
    pub plural: &'static str,
    pub singular: &'static str,
    pub namespaced: bool,
    pub short_names: &'static [&'static str],
    pub categories: &'static [&'static str],
    /// Has a `/status` subresource: writes to the main resource leave `status` alone.
    pub status_subresource: bool,
    /// Has a `/scale` subresource (speaks `autoscaling/v1 Scale`).
    pub scale_subresource: bool,
    /// Has `/log` (Pods).
    pub log_subresource: bool,
    /// Built into Kubernetes (strategic merge patch and list-map keys apply); false for CRDs.
    pub builtin: bool,
    /// Never stored: computed on every read and only read (metrics.k8s.io, served on k3s by
    /// metrics-server through the aggregation layer: `get` and `list`, nothing else).
    pub computed: bool,
    /// A review (`SelfSubjectAccessReview`...): only `create`, answered at once and never
    /// stored.
    pub create_only: bool,
    /// Served as another version of a type stored once (`autoscaling/v1` HPAs are the stored
    /// `autoscaling/v2` ones, converted on the way in and out; see `crate::views`).
    pub view_of: Option<&'static ResourceType>,
    /// What a CustomResourceDefinition says of this type (none for the built-in table).
    pub custom: Option<&'static CustomDef>,
}

/// What every entry of the table starts from: a namespaced core/v1 built-in kind.
const BASE: ResourceType = ResourceType {
    group: "",
    version: "v1",
    kind: "",
    plural: "",
    singular: "",
    namespaced: true,
    short_names: &[],
    categories: &[],
    status_subresource: false,
    scale_subresource: false,
    log_subresource: false,
    builtin: true,
    computed: false,
    create_only: false,
    view_of: None,
    custom: None,
};

/// Every served type. The order is the order discovery lists them in.
pub static TYPES: &[&ResourceType] = &[
    &NAMESPACE,
    &CONFIG_MAP,
    &SECRET,
    &POD,
    &EVENT,
    &SERVICE,
    &NODE,
    &ENDPOINTS,
    &REPLICATION_CONTROLLER,
    &SERVICE_ACCOUNT,
    &PERSISTENT_VOLUME_CLAIM,
    &PERSISTENT_VOLUME,
    &DEPLOYMENT,
    &REPLICA_SET,
    &DAEMON_SET,
    &STATEFUL_SET,
    &JOB,
    &CRON_JOB,
    &ENDPOINT_SLICE,
    &LEASE,
    &HORIZONTAL_POD_AUTOSCALER,
    &HORIZONTAL_POD_AUTOSCALER_V1,
    &POD_DISRUPTION_BUDGET,
    &NETWORK_POLICY,
    &INGRESS,
    &STORAGE_CLASS,
    &RESOURCE_QUOTA,
    &LIMIT_RANGE,
    &POD_TEMPLATE,
    &BINDING,
    &COMPONENT_STATUS,
    &CONTROLLER_REVISION,
    &EVENTS_V1_EVENT,
    &NODE_METRICS,
    &POD_METRICS,
    &SELF_SUBJECT_ACCESS_REVIEW,
    &SELF_SUBJECT_RULES_REVIEW,
    &SELF_SUBJECT_REVIEW,
    &TOKEN_REVIEW,
    &SUBJECT_ACCESS_REVIEW,
    &LOCAL_SUBJECT_ACCESS_REVIEW,
    &ROLE,
    &ROLE_BINDING,
    &CLUSTER_ROLE,
    &CLUSTER_ROLE_BINDING,
    &PRIORITY_CLASS,
    &CERTIFICATE_SIGNING_REQUEST,
    &INGRESS_CLASS,
    &IP_ADDRESS,
    &SERVICE_CIDR,
    &RUNTIME_CLASS,
    &CSI_DRIVER,
    &CSI_NODE,
    &CSI_STORAGE_CAPACITY,
    &VOLUME_ATTACHMENT,
    &VOLUME_ATTRIBUTES_CLASS,
    &FLOW_SCHEMA,
    &PRIORITY_LEVEL_CONFIGURATION,
    &MUTATING_WEBHOOK_CONFIGURATION,
    &VALIDATING_WEBHOOK_CONFIGURATION,
    &VALIDATING_ADMISSION_POLICY,
    &VALIDATING_ADMISSION_POLICY_BINDING,
    &API_SERVICE,
    &DEVICE_CLASS,
    &RESOURCE_CLAIM,
    &RESOURCE_CLAIM_TEMPLATE,
    &RESOURCE_SLICE,
    &APPLICATION,
    &APP_PROJECT,
    &APPLICATION_SET,
    &CUSTOM_RESOURCE_DEFINITION,
];

impl ResourceType {
    /// The type whose objects the store keeps for this one: itself, unless it is a view.
    pub fn storage(&'static self) -> &'static ResourceType {
        self.view_of.unwrap_or(self)
    }

    /// `v1` or `apps/v1`.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `deployment.apps/web`, as kubectl names an object in its messages.
    pub fn kubectl_ref(&self, name: &str) -> String {
        if self.group.is_empty() {
            format!("{}/{}", self.singular, name)
        } else {
            format!("{}.{}/{}", self.singular, self.group, name)
        }
    }

    /// The apiextensions version these types' `version` field belongs to, e.g. `apps/v1`
    /// served at `/apis/apps/v1`; the core group at `/api/v1`.
    pub fn base_path(&self) -> String {
        if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        }
    }
}

/// A type's `apiVersion` as a `&'static str` (managedFields entries borrow it), computed once
/// from the table so a new kind can never be missed.
pub fn api_version_of(ty: &ResourceType) -> &'static str {
    static ALL: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let all = ALL.get_or_init(|| TYPES.iter().map(|t| t.api_version()).collect());
    match TYPES.iter().position(|t| std::ptr::eq(*t, ty)) {
        Some(i) => all[i].as_str(),
        // A custom type: made once per definition, so its apiVersion is kept once too.
        None if ty.custom.is_some() => custom_api_version(ty),
        // Only the ad-hoc Scale view is outside the table, and it never owns fields.
        None => "v1",
    }
}

fn custom_api_version(ty: &ResourceType) -> &'static str {
    use std::sync::{Mutex, PoisonError};
    static MADE: Mutex<Vec<(String, &'static str)>> = Mutex::new(Vec::new());
    let wanted = ty.api_version();
    let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, v)) = made.iter().find(|(k, _)| *k == wanted) {
        return v;
    }
    let v: &'static str = Box::leak(wanted.clone().into_boxed_str());
    made.push((wanted, v));
    v
}

/// Kubernetes' order of versions within a group (`version.CompareKubeAwareVersionStrings`):
/// GA before beta before alpha, higher numbers first, other names last in alphabetical order.
pub fn version_priority(
    version: &str,
) -> (u8, std::cmp::Reverse<u64>, std::cmp::Reverse<u64>, String) {
    use std::cmp::Reverse;
    let parse = || -> Option<(u8, u64, u64)> {
        let rest = version.strip_prefix('v')?;
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let major: u64 = rest[..digits].parse().ok()?;
        if major == 0 {
            return None;
        }
        let tail = &rest[digits..];
        if tail.is_empty() {
            return Some((0, major, 0));
        }
        let (level, minor) = if let Some(m) = tail.strip_prefix("beta") {
            (1, m)
        } else if let Some(m) = tail.strip_prefix("alpha") {
            (2, m)
        } else {
            return None;
        };
        Some((level, major, minor.parse().ok()?))
    };
    match parse() {
        Some((level, major, minor)) => (level, Reverse(major), Reverse(minor), String::new()),
        None => (3, Reverse(0), Reverse(0), version.to_string()),
    }
}

/// The type served at `group`/`version` under this plural name.
pub fn by_plural(group: &str, version: &str, plural: &str) -> Option<&'static ResourceType> {
    TYPES
        .iter()
        .find(|t| t.group == group && t.version == version && t.plural == plural)
        .copied()
}

/// The type for an `apiVersion` + `kind` pair, as found in an object body.
pub fn by_kind(api_version: &str, kind: &str) -> Option<&'static ResourceType> {
    let (group, version) = split_api_version(api_version);
    TYPES
        .iter()
        .find(|t| t.group == group && t.version == version && t.kind == kind)
        .copied()
}

/// A type this cluster does not serve, named by a manifest (`autoscaling/v2` `HorizontalPodAutoscaler`):
/// Argo CD still compares and lists such a resource, and its sync fails. Made once per kind
/// and kept for the process's life (there are only as many as distinct kinds in manifests).
pub fn unserved(api_version: &str, kind: &str) -> &'static ResourceType {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock, PoisonError};
    static MADE: OnceLock<Mutex<HashMap<(String, String), &'static ResourceType>>> =
        OnceLock::new();
    let mut made = MADE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let key = (api_version.to_string(), kind.to_string());
    if let Some(ty) = made.get(&key) {
        return ty;
    }
    let (group, version) = split_api_version(api_version);
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let ty: &'static ResourceType = Box::leak(Box::new(ResourceType {
        group: leak(group.to_string()),
        version: leak(version.to_string()),
        kind: leak(kind.to_string()),
        plural: leak(format!("{}s", kind.to_lowercase())),
        singular: leak(kind.to_lowercase()),
        ..BASE
    }));
    made.insert(key, ty);
    ty
}

/// Whether `ty` is one of the served types (not an [`unserved`] one): a type of the built-in
/// table, or a custom one (made only from a CRD a cluster serves, and found through its
/// [`Catalog`]).
pub fn is_served(ty: &ResourceType) -> bool {
    is_builtin_table(ty) || ty.custom.is_some()
}

fn is_builtin_table(ty: &ResourceType) -> bool {
    TYPES.iter().any(|t| std::ptr::eq(*t, ty))
}

/// `APIResourcesToStrings(resources, true)`: every served `group/version` and
/// `group/version/Kind`, sorted, as Argo CD hands them to helm's `--api-versions`.
pub fn api_resource_strings() -> Vec<String> {
    let mut all = std::collections::BTreeSet::new();
    for t in TYPES {
        all.insert(t.api_version());
        all.insert(format!("{}/{}", t.api_version(), t.kind));
    }
    all.into_iter().collect()
}

/// `apps/v1` → (`apps`, `v1`); `v1` → (``, `v1`).
pub fn split_api_version(api_version: &str) -> (&str, &str) {
    match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    }
}

/// Every distinct (group, version) served, core first, in table order.
pub fn group_versions() -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    for t in TYPES {
        if !out.contains(&(t.group, t.version)) {
            out.push((t.group, t.version));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_agree_with_each_other() {
        let d = by_plural("apps", "v1", "deployments").unwrap();
        assert_eq!(by_kind("apps/v1", "Deployment"), Some(d));
        assert_eq!(d.kubectl_ref("web"), "deployment.apps/web");
        assert_eq!(
            by_kind("v1", "ConfigMap").unwrap().kubectl_ref("x"),
            "configmap/x"
        );
        assert!(by_kind("argoproj.io/v1alpha1", "Application").is_some_and(|t| !t.builtin));
    }

    #[test]
    fn static_api_versions_come_from_the_table() {
        for t in TYPES {
            assert_eq!(api_version_of(t), t.api_version());
        }
    }

    #[test]
    fn applications_have_no_status_subresource_as_in_argo_cds_crd() {
        let app = by_plural("argoproj.io", "v1alpha1", "applications").unwrap();
        assert!(!app.status_subresource);
    }
}
