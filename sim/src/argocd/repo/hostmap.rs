//! Rewriting the host:port of repo URLs, standing in for the cluster DNS the VM would use.

/// Maps `host:port` as written in an Application (`gitd.gitsrv.svc.cluster.local:9418`) to
/// where that service really listens here (`127.0.0.1:40123`).
#[derive(Debug, Clone, Default)]
pub struct HostMap(Vec<(String, String)>);

impl HostMap {
    pub fn new(pairs: Vec<(String, String)>) -> Self {
        HostMap(pairs)
    }

    /// The URL with its authority's host:port replaced when it is mapped. A URL written without
    /// a port matches the scheme's default port (`git://host/x` is `host:9418`). Anything else,
    /// including scp-like `git@host:path`, comes back unchanged.
    pub fn rewrite(&self, url: &str) -> String {
        let Some((scheme, rest)) = url.split_once("://") else {
            return url.to_string();
        };
        let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(auth_end);
        let (userinfo, hostport) = match authority.rfind('@') {
            Some(at) => authority.split_at(at + 1),
            None => ("", authority),
        };
        let with_default = default_port(scheme)
            .filter(|_| !has_port(hostport))
            .map(|p| format!("{hostport}:{p}"));
        let target = self.0.iter().find_map(|(from, to)| {
            (from.eq_ignore_ascii_case(hostport)
                || with_default
                    .as_deref()
                    .is_some_and(|h| from.eq_ignore_ascii_case(h)))
            .then_some(to)
        });
        match target {
            Some(to) => format!("{scheme}://{userinfo}{to}{tail}"),
            None => url.to_string(),
        }
    }
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme.to_ascii_lowercase().as_str() {
        "git" => Some(9418),
        "http" => Some(80),
        "https" => Some(443),
        "ssh" => Some(22),
        _ => None,
    }
}

fn has_port(hostport: &str) -> bool {
    // An IPv6 literal carries colons inside its brackets.
    let host_end = hostport.rfind(']').map_or(0, |i| i + 1);
    hostport[host_end..].contains(':')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> HostMap {
        HostMap::new(vec![(
            "gitd.gitsrv.svc.cluster.local:9418".into(),
            "127.0.0.1:40123".into(),
        )])
    }

    #[test]
    fn rewrites_mapped_host() {
        assert_eq!(
            map().rewrite("git://gitd.gitsrv.svc.cluster.local:9418/src.git"),
            "git://127.0.0.1:40123/src.git"
        );
    }

    #[test]
    fn default_port_matches() {
        assert_eq!(
            map().rewrite("git://gitd.gitsrv.svc.cluster.local/src.git"),
            "git://127.0.0.1:40123/src.git"
        );
    }

    #[test]
    fn leaves_others_alone() {
        let m = map();
        for url in [
            "git://other:9418/src.git",
            "file:///srv/bare/src.git",
            "git@github.com:a/b.git",
            "https://gitd.gitsrv.svc.cluster.local/src.git",
            "",
        ] {
            assert_eq!(m.rewrite(url), url);
        }
    }
}
