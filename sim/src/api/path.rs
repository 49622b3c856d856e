//! Turns a request path into what it names: discovery and OpenAPI documents, or a resource
//! (type, namespace, name, subresource), following the real API server's URL layout.

use crate::kinds::{Catalog, ResourceType};

#[derive(Debug, PartialEq)]
pub enum Route {
    /// `/healthz`, `/livez`, `/readyz`, and one check below them.
    Health {
        endpoint: String,
        check: Option<String>,
    },
    Version,
    CoreVersions,
    Groups,
    Group(String),
    GroupVersion {
        group: String,
        version: String,
    },
    OpenApiV3Index,
    OpenApiV3 {
        group: String,
        version: String,
    },
    OpenApiV2,
    /// `/metrics`: the server's own Prometheus metrics.
    Metrics,
    /// A path under a group-version the server does not serve (a deleted CRD's): no handler
    /// owns it, so the mux's plain-text 404 answers, not a Status.
    UnservedGroupVersion,
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

pub fn parse(path: &str, kinds: &Catalog) -> Route {
    let segs: Vec<&str> = path
        .trim_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    match segs.as_slice() {
        [endpoint @ ("healthz" | "livez" | "readyz"), rest @ ..] => Route::Health {
            endpoint: (*endpoint).to_string(),
            check: (!rest.is_empty()).then(|| rest.join("/")),
        },
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
        ["metrics"] => Route::Metrics,
        ["api", version, rest @ ..] => resource(kinds, "", version, rest),
        // Only a path nothing routes asks whether its group-version is served at all (the
        // list of them is built on demand: not on every request).
        ["apis", group, version, rest @ ..] => match resource(kinds, group, version, rest) {
            Route::Unknown
                if !kinds
                    .group_versions()
                    .iter()
                    .any(|(g, v)| g == group && v == version) =>
            {
                Route::UnservedGroupVersion
            }
            route => route,
        },
        _ => Route::Unknown,
    }
}

/// Subresources any served type may have; whether this type has it is the handler's call.
const SUBRESOURCES: &[&str] = &[
    "status", "scale", "log", "finalize", "token", "eviction", "approval", "binding",
];

fn resource(kinds: &Catalog, group: &str, version: &str, rest: &[&str]) -> Route {
    let found = |plural: &str| kinds.by_plural(group, version, plural);
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

    fn parse(path: &str) -> Route {
        super::parse(path, &Catalog::default())
    }

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
