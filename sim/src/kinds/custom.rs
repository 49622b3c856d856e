//! The resource types CustomResourceDefinitions add while the cluster runs.
//!
//! A CRD's served versions become [`ResourceType`]s like the built-in ones, so routing,
//! discovery, the write path, watches and the Table printer treat custom resources as they
//! treat the rest. Each is made once per distinct definition and kept for the process's life
//! (a type is `&'static`; a cluster makes as many as its CRDs have distinct versions), and an
//! object's [`crate::store::Key`] names its resource by group and plural, so an object stays
//! where it is when its CRD changes.
//!
//! Which types a cluster serves is its own: each store has a [`Catalog`], which the CRD
//! controller (`controllers::crd`) fills when a CRD's names are accepted and empties when the
//! CRD goes.

use std::sync::{Mutex, PoisonError, RwLock};

use serde_json::Value;

use super::{BASE, ResourceType, TYPES};

/// What a CustomResourceDefinition says about one of its versions beyond the names.
#[derive(Debug, PartialEq, Eq)]
pub struct CustomDef {
    /// The CRD's name (`widgets.example.io`).
    pub crd: String,
    /// `spec.names.listKind`.
    pub list_kind: String,
    /// The version's `additionalPrinterColumns`.
    pub columns: Vec<PrinterColumn>,
    /// The version's `schema.openAPIV3Schema`, as stored.
    pub schema: Option<Value>,
    /// The version's `/scale` subresource, when declared.
    pub scale: Option<ScalePaths>,
}

/// One `additionalPrinterColumns` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrinterColumn {
    pub name: String,
    pub type_: String,
    pub format: String,
    pub description: String,
    pub priority: i64,
    pub json_path: String,
}

/// Where a custom resource keeps what its `/scale` subresource shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScalePaths {
    /// `.spec.replicas`
    pub spec_replicas: String,
    /// `.status.replicas`
    pub status_replicas: String,
    /// `.status.selector`, if any.
    pub label_selector: Option<String>,
}

/// Every custom type ever made in this process, so an equal definition is made only once.
static MADE: Mutex<Vec<&'static ResourceType>> = Mutex::new(Vec::new());

/// The resources custom types are stored under, by (group, plural), with the storage type
/// last made for each: a key's index past [`TYPES`] is a position here.
static RESOURCES: RwLock<Vec<(String, String, &'static ResourceType)>> = RwLock::new(Vec::new());

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// The type `same` finds among those made, else the one `make` makes now.
fn intern(
    same: impl Fn(&ResourceType) -> bool,
    make: impl FnOnce() -> ResourceType,
) -> &'static ResourceType {
    let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = made.iter().find(|t| same(t)) {
        return found;
    }
    let ty: &'static ResourceType = Box::leak(Box::new(make()));
    made.push(ty);
    ty
}

/// The position past [`TYPES`] of the resource a custom storage type is kept under, made now
/// if it has none; `latest` becomes the type [`resource`] answers for it.
pub fn resource_index(ty: &'static ResourceType, latest: bool) -> usize {
    {
        let resources = RESOURCES.read().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = resources
            .iter()
            .position(|(g, p, _)| g == ty.group && p == ty.plural)
            && (!latest || std::ptr::eq(resources[i].2, ty))
        {
            return i;
        }
    }
    let mut resources = RESOURCES.write().unwrap_or_else(PoisonError::into_inner);
    match resources
        .iter()
        .position(|(g, p, _)| g == ty.group && p == ty.plural)
    {
        Some(i) => {
            if latest {
                resources[i].2 = ty;
            }
            i
        }
        None => {
            resources.push((ty.group.to_string(), ty.plural.to_string(), ty));
            resources.len() - 1
        }
    }
}

/// The storage type last made for the resource at `index` (see [`resource_index`]).
pub fn resource(index: usize) -> Option<&'static ResourceType> {
    let resources = RESOURCES.read().unwrap_or_else(PoisonError::into_inner);
    resources.get(index).map(|(_, _, t)| *t)
}

/// The custom type stored under `group`/`plural`, whichever definition made it last (for
/// reading a state dir back, before the CRD controller has run).
pub fn stored(group: &str, plural: &str) -> Option<&'static ResourceType> {
    let resources = RESOURCES.read().unwrap_or_else(PoisonError::into_inner);
    resources
        .iter()
        .find(|(g, p, _)| g == group && p == plural)
        .map(|(_, _, t)| *t)
}

/// The names a CRD's types go by, and its scope.
struct Names {
    group: String,
    plural: String,
    singular: String,
    kind: String,
    list_kind: String,
    short_names: Vec<String>,
    categories: Vec<String>,
    namespaced: bool,
    crd: String,
}

impl Names {
    /// From `status.acceptedNames` when the naming controller has accepted them, else from
    /// the spec; `None` without a group, plural or kind.
    fn of(crd: &Value) -> Option<Names> {
        let spec = &crd["spec"];
        let group = spec["group"].as_str().filter(|g| !g.is_empty())?;
        let accepted = &crd["status"]["acceptedNames"];
        let names = if accepted["plural"].as_str().is_some_and(|p| !p.is_empty()) {
            accepted
        } else {
            &spec["names"]
        };
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default()
        };
        let (plural, kind) = (text(&names["plural"]), text(&names["kind"]));
        if plural.is_empty() || kind.is_empty() {
            return None;
        }
        let singular = match text(&names["singular"]) {
            s if s.is_empty() => kind.to_lowercase(),
            s => s,
        };
        let list_kind = match text(&names["listKind"]) {
            s if s.is_empty() => format!("{kind}List"),
            s => s,
        };
        Some(Names {
            group: group.to_string(),
            plural,
            singular,
            kind,
            list_kind,
            short_names: strings(&names["shortNames"]),
            categories: strings(&names["categories"]),
            namespaced: spec["scope"].as_str() != Some("Cluster"),
            crd: text(&crd["metadata"]["name"]),
        })
    }
}

/// The types a CRD defines: its storage version's first (the type its objects are kept as,
/// served or not), then each served version. `None` when the CRD does not say enough to
/// serve anything, or defines a type the built-in table already serves (Argo CD's).
pub fn from_crd(crd: &Value) -> Option<(&'static ResourceType, Vec<&'static ResourceType>)> {
    let names = Names::of(crd)?;
    let versions = crd["spec"]["versions"].as_array()?;
    let storage_version = versions
        .iter()
        .find(|v| v["storage"] == true)
        .or_else(|| versions.first())?;
    if super::by_plural(
        &names.group,
        storage_version["name"].as_str()?,
        &names.plural,
    )
    .is_some()
    {
        return None;
    }
    let storage = make_type(&names, storage_version, None);
    resource_index(storage, true);
    let served = versions
        .iter()
        .filter(|v| v["served"] == true)
        .map(|v| {
            if std::ptr::eq(v, storage_version) {
                storage
            } else {
                make_type(&names, v, Some(storage))
            }
        })
        .collect();
    Some((storage, served))
}

/// The type of one version of a CRD (made once per distinct definition).
fn make_type(
    names: &Names,
    v: &Value,
    view_of: Option<&'static ResourceType>,
) -> &'static ResourceType {
    let subresources = &v["subresources"];
    let scale = subresources
        .get("scale")
        .filter(|s| s.is_object())
        .map(|s| {
            let path = |k: &str| s[k].as_str().unwrap_or_default().to_string();
            ScalePaths {
                spec_replicas: path("specReplicasPath"),
                status_replicas: path("statusReplicasPath"),
                label_selector: s["labelSelectorPath"]
                    .as_str()
                    .filter(|p| !p.is_empty())
                    .map(String::from),
            }
        });
    let def = intern_def(CustomDef {
        crd: names.crd.clone(),
        list_kind: names.list_kind.clone(),
        columns: columns(v),
        schema: v["schema"]["openAPIV3Schema"]
            .as_object()
            .map(|o| Value::Object(o.clone())),
        scale: scale.clone(),
    });
    let version = v["name"].as_str().unwrap_or_default();
    let status_subresource = subresources.get("status").is_some_and(Value::is_object);
    let same = |t: &ResourceType| {
        t.group == names.group
            && t.version == version
            && t.kind == names.kind
            && t.plural == names.plural
            && t.singular == names.singular
            && t.namespaced == names.namespaced
            && t.short_names == names.short_names.as_slice()
            && t.categories == names.categories.as_slice()
            && t.status_subresource == status_subresource
            && t.scale_subresource == scale.is_some()
            && t.view_of.map(|t| t as *const _) == view_of.map(|t| t as *const _)
            && t.custom.is_some_and(|d| std::ptr::eq(d, def))
    };
    intern(same, || ResourceType {
        group: leak(&names.group),
        version: leak(version),
        kind: leak(&names.kind),
        plural: leak(&names.plural),
        singular: leak(&names.singular),
        namespaced: names.namespaced,
        short_names: leak_all(&names.short_names),
        categories: leak_all(&names.categories),
        status_subresource,
        scale_subresource: scale.is_some(),
        builtin: false,
        view_of,
        custom: Some(def),
        ..BASE
    })
}

fn leak_all(items: &[String]) -> &'static [&'static str] {
    if items.is_empty() {
        return &[];
    }
    let leaked: Vec<&'static str> = items.iter().map(|s| leak(s)).collect();
    Box::leak(leaked.into_boxed_slice())
}

/// The one definition equal to `def`, kept now if none is.
fn intern_def(def: CustomDef) -> &'static CustomDef {
    static DEFS: Mutex<Vec<&'static CustomDef>> = Mutex::new(Vec::new());
    let mut defs = DEFS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = defs.iter().find(|d| ***d == def) {
        return found;
    }
    let def: &'static CustomDef = Box::leak(Box::new(def));
    defs.push(def);
    def
}

fn columns(version: &Value) -> Vec<PrinterColumn> {
    let Some(cols) = version["additionalPrinterColumns"].as_array() else {
        return Vec::new();
    };
    cols.iter()
        .map(|c| {
            let text = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            PrinterColumn {
                name: text("name"),
                type_: text("type"),
                format: text("format"),
                description: text("description"),
                priority: c["priority"].as_i64().unwrap_or(0),
                json_path: text("jsonPath"),
            }
        })
        .collect()
}

/// The types one cluster serves beyond the built-in table, by the CRD that defines them.
#[derive(Default)]
pub struct Catalog {
    served: RwLock<Vec<Served>>,
}

struct Served {
    crd: String,
    storage: &'static ResourceType,
    types: Vec<&'static ResourceType>,
    terminating: bool,
}

impl Catalog {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, Vec<Served>> {
        self.served.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Serves what `crd` defines (replacing what it defined before).
    pub fn serve(
        &self,
        crd: &str,
        storage: &'static ResourceType,
        types: Vec<&'static ResourceType>,
        terminating: bool,
    ) {
        let mut served = self.served.write().unwrap_or_else(PoisonError::into_inner);
        let entry = Served {
            crd: crd.to_string(),
            storage,
            types,
            terminating,
        };
        match served.iter_mut().find(|s| s.crd == crd) {
            Some(s) => *s = entry,
            None => served.push(entry),
        }
    }

    /// Stops serving what `crd` defined; returns its storage type, if it served one.
    pub fn withdraw(&self, crd: &str) -> Option<&'static ResourceType> {
        let mut served = self.served.write().unwrap_or_else(PoisonError::into_inner);
        let i = served.iter().position(|s| s.crd == crd)?;
        Some(served.remove(i).storage)
    }

    /// The storage type of what `crd` defines, while it is served.
    pub fn storage_of(&self, crd: &str) -> Option<&'static ResourceType> {
        self.read().iter().find(|s| s.crd == crd).map(|s| s.storage)
    }

    /// The custom types served now, in the order their CRDs were accepted.
    pub fn custom(&self) -> Vec<&'static ResourceType> {
        self.read()
            .iter()
            .flat_map(|s| s.types.iter().copied())
            .collect()
    }

    /// Every served type: the built-in table, then the custom ones.
    pub fn all(&self) -> Vec<&'static ResourceType> {
        TYPES.iter().copied().chain(self.custom()).collect()
    }

    /// Whether `ty` is a custom type whose CRD is being deleted (only reads and deletes then).
    pub fn terminating(&self, ty: &ResourceType) -> bool {
        self.read()
            .iter()
            .any(|s| s.terminating && s.types.iter().any(|t| std::ptr::eq(*t, ty)))
    }

    /// The type served at `group`/`version` under this plural name.
    pub fn by_plural(
        &self,
        group: &str,
        version: &str,
        plural: &str,
    ) -> Option<&'static ResourceType> {
        super::by_plural(group, version, plural).or_else(|| {
            self.custom()
                .into_iter()
                .find(|t| t.group == group && t.version == version && t.plural == plural)
        })
    }

    /// The type for an `apiVersion` + `kind` pair.
    pub fn by_kind(&self, api_version: &str, kind: &str) -> Option<&'static ResourceType> {
        super::by_kind(api_version, kind).or_else(|| {
            let (group, version) = super::split_api_version(api_version);
            self.custom()
                .into_iter()
                .find(|t| t.group == group && t.version == version && t.kind == kind)
        })
    }

    /// Whether `ty` is served now (a built-in type, or a custom one of a CRD served now).
    pub fn is_served(&self, ty: &ResourceType) -> bool {
        super::is_builtin_table(ty) || self.custom().iter().any(|t| std::ptr::eq(*t, ty))
    }

    /// The served type for `ty`, which may be one made before its CRD was served
    /// ([`super::unserved`]): the same group, version and kind served now.
    pub fn current(&self, ty: &'static ResourceType) -> &'static ResourceType {
        if self.is_served(ty) {
            return ty;
        }
        self.by_kind(&ty.api_version(), ty.kind).unwrap_or(ty)
    }

    /// Every distinct (group, version) served: the built-in ones, then the custom ones.
    pub fn group_versions(&self) -> Vec<(&'static str, &'static str)> {
        let mut out = super::group_versions();
        let mut custom: Vec<(&'static str, &'static str)> = Vec::new();
        for t in self.custom() {
            if !out.contains(&(t.group, t.version)) && !custom.contains(&(t.group, t.version)) {
                custom.push((t.group, t.version));
            }
        }
        // A group's versions in Kubernetes' order of preference, as CRD discovery sorts them.
        custom.sort_by(|a, b| {
            a.0.cmp(b.0)
                .then_with(|| super::version_priority(a.1).cmp(&super::version_priority(b.1)))
        });
        out.extend(custom);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn crd(group: &str, versions: Value) -> Value {
        json!({"metadata": {"name": format!("widgets.{group}")}, "spec": {"group": group,
            "scope": "Namespaced", "names": {"plural": "widgets", "kind": "Widget", "shortNames": ["wd"]},
            "versions": versions}})
    }

    #[test]
    fn a_crd_defines_a_type_per_served_version_stored_as_one() {
        let c = crd(
            "custom-kinds-a.example.io",
            json!([{"name": "v1", "served": true, "storage": true, "subresources": {"status": {}}},
                   {"name": "v1beta1", "served": true, "storage": false}]),
        );
        let (storage, served) = from_crd(&c).unwrap();
        assert_eq!(served.len(), 2);
        assert!(std::ptr::eq(served[0], storage));
        assert_eq!(storage.singular, "widget");
        assert_eq!(storage.short_names, ["wd"]);
        assert!(storage.status_subresource && !served[1].status_subresource);
        assert!(std::ptr::eq(served[1].storage(), storage));
        assert_eq!(storage.custom.unwrap().list_kind, "WidgetList");
        // The same definition is the same type; an object's key does not depend on which.
        let (again, _) = from_crd(&c).unwrap();
        assert!(std::ptr::eq(again, storage));
        let key = crate::store::Key::new(served[1], "ns", "a");
        assert!(std::ptr::eq(key.ty(), storage));
    }

    #[test]
    fn a_changed_crd_keeps_its_objects_where_they_are() {
        let v1 = json!([{"name": "v1", "served": true, "storage": true}]);
        let (before, _) = from_crd(&crd("custom-kinds-b.example.io", v1)).unwrap();
        let key = crate::store::Key::new(before, "ns", "a");
        let v1_status = json!([{"name": "v1", "served": true, "storage": true, "subresources": {"status": {}}}]);
        let (after, _) = from_crd(&crd("custom-kinds-b.example.io", v1_status)).unwrap();
        assert!(!std::ptr::eq(before, after));
        assert_eq!(crate::store::Key::new(after, "ns", "a"), key);
        assert!(std::ptr::eq(key.ty(), after));
    }

    #[test]
    fn a_catalog_serves_only_its_own_clusters_types() {
        let v1 = json!([{"name": "v1", "served": true, "storage": true}]);
        let (storage, served) = from_crd(&crd("custom-kinds-c.example.io", v1)).unwrap();
        let (mine, other) = (Catalog::default(), Catalog::default());
        mine.serve("widgets.custom-kinds-c.example.io", storage, served, false);
        assert!(
            mine.by_plural("custom-kinds-c.example.io", "v1", "widgets")
                .is_some()
        );
        assert!(
            other
                .by_plural("custom-kinds-c.example.io", "v1", "widgets")
                .is_none()
        );
        assert!(
            mine.group_versions()
                .contains(&("custom-kinds-c.example.io", "v1"))
        );
        assert!(
            mine.by_kind("custom-kinds-c.example.io/v1", "Widget")
                .is_some()
        );
        let unserved = super::super::unserved("custom-kinds-c.example.io/v1", "Widget");
        assert!(std::ptr::eq(mine.current(unserved), storage));
        mine.withdraw("widgets.custom-kinds-c.example.io");
        assert!(
            mine.by_plural("custom-kinds-c.example.io", "v1", "widgets")
                .is_none()
        );
    }
}
