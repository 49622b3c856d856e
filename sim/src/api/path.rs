//! Turns a request path into what it names: discovery and OpenAPI documents, or a resource
//! (type, namespace, name, subresource), following the real API server's URL layout.

use crate::kinds::{ResourceType, by_plural};

#[derive(Debug, PartialEq)]
pub enum Route {
    Health,
    Version,
    CoreVersions,
    Groups,
    Group(String),
    GroupVersion { group: String, version: String },
    OpenApiV3Index,
    OpenApiV3 { group: String, version: String },
    OpenApiV2,
    Resource(ResourcePath),
    Unknown,
}

#[derive(Debug, PartialEq)]
pub struct ResourcePath {
    pub ty: &'static ResourceType,
    /// `None` for cluster-scoped types, and for lists across all namespaces.
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub subresource: Option<String>,
}

pub fn parse(path: &str) -> Route {
    let segs: Vec<&str> = path
        .trim_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    match segs.as_slice() {
        ["healthz" | "livez" | "readyz", ..] => Route::Health,
        ["version"] => Route::Version,
        ["api"] => Route::CoreVersions,
        ["apis"] => Route::Groups,
        ["apis", group] => Route::Group(group.to_string()),
        ["api", version] => Route::GroupVersion {
            group: String::new(),
            version: version.to_string(),
        },
        ["apis", group, version] => Route::GroupVersion {
            group: group.to_string(),
            version: version.to_string(),
        },
        ["openapi", "v3"] => Route::OpenApiV3Index,
        ["openapi", "v3", "api", version] => Route::OpenApiV3 {
            group: String::new(),
            version: version.to_string(),
        },
        ["openapi", "v3", "apis", group, version] => Route::OpenApiV3 {
            group: group.to_string(),
            version: version.to_string(),
        },
        ["openapi", "v2"] | ["swagger.json"] => Route::OpenApiV2,
        ["api", version, rest @ ..] => resource("", version, rest),
        ["apis", group, version, rest @ ..] => resource(group, version, rest),
        _ => Route::Unknown,
    }
}

/// Subresources any served type may have; whether this type has it is the handler's call.
const SUBRESOURCES: &[&str] = &["status", "scale", "log", "finalize"];

fn resource(group: &str, version: &str, rest: &[&str]) -> Route {
    let found = |plural: &str| by_plural(group, version, plural);
    let make = |ty, namespace: Option<&str>, name: Option<&&str>, sub: Option<&&str>| {
        if sub.is_some_and(|s| !SUBRESOURCES.contains(s)) {
            return Route::Unknown;
        }
        Route::Resource(ResourcePath {
            ty,
            namespace: namespace.map(String::from),
            name: name.map(|s| s.to_string()),
            subresource: sub.map(|s| s.to_string()),
        })
    };
    // /namespaces/{ns}/{plural}[/{name}[/{sub}]] — unless {plural} is not a namespaced type,
    // in which case it is a Namespace's own subresource (/namespaces/{name}/status).
    if let ["namespaces", ns, plural, tail @ ..] = rest
        && let Some(ty) = found(plural).filter(|t| t.namespaced)
    {
        return match tail {
            [] => make(ty, Some(ns), None, None),
            [name] => make(ty, Some(ns), Some(name), None),
            [name, sub] => make(ty, Some(ns), Some(name), Some(sub)),
            _ => Route::Unknown,
        };
    }
    match rest {
        [plural, tail @ ..] => {
            let Some(ty) = found(plural) else {
                return Route::Unknown;
            };
            match tail {
                [] => make(ty, None, None, None),
                // A namespaced type without a namespace can only be listed or watched.
                [_, ..] if ty.namespaced => Route::Unknown,
                [name] => make(ty, None, Some(name), None),
                [name, sub] => make(ty, None, Some(name), Some(sub)),
                _ => Route::Unknown,
            }
        }
        [] => Route::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res(path: &str) -> ResourcePath {
        match parse(path) {
            Route::Resource(r) => r,
            other => panic!("{path}: {other:?}"),
        }
    }

    #[test]
    fn namespaced_paths() {
        let r = res("/apis/apps/v1/namespaces/lab/deployments/web/scale");
        assert_eq!(r.ty.kind, "Deployment");
        assert_eq!(r.namespace.as_deref(), Some("lab"));
        assert_eq!(r.name.as_deref(), Some("web"));
        assert_eq!(r.subresource.as_deref(), Some("scale"));
        assert_eq!(res("/api/v1/pods").namespace, None);
    }

    #[test]
    fn namespaces_themselves() {
        let r = res("/api/v1/namespaces/lab");
        assert_eq!((r.ty.kind, r.name.as_deref()), ("Namespace", Some("lab")));
        let r = res("/api/v1/namespaces/lab/status");
        assert_eq!(
            (r.ty.kind, r.subresource.as_deref()),
            ("Namespace", Some("status"))
        );
        assert_eq!(res("/api/v1/namespaces").name, None);
    }

    #[test]
    fn discovery_and_unknowns() {
        assert_eq!(
            parse("/apis/apps/v1"),
            Route::GroupVersion {
                group: "apps".into(),
                version: "v1".into()
            }
        );
        assert_eq!(parse("/api/v1/namespaces/lab/widgets"), Route::Unknown);
        assert_eq!(parse("/api/v1/configmaps/x"), Route::Unknown);
        assert_eq!(parse("/nonsense"), Route::Unknown);
    }
}
