//! Whether an Application's spec may be reconciled at all, as `refreshAppConditions` decides
//! (docs/sim-behaviour.md §16.1): its AppProject exists, its source names a repo and a path,
//! the project permits that repo (`sourceRepos`) and the destination (`destinations`), and the
//! destination is a cluster Argo CD knows — here only the one it runs in. Each problem is an
//! `InvalidSpecError` condition with upstream's message; the app then shows `Unknown Unknown`
//! and nothing is deployed.

use serde_json::Value;

use super::app::AppView;
use super::bootstrap::NAMESPACE;
use crate::glob::{self, ClassSyntax, Options};
use crate::store::{Key, Store};

/// The in-cluster destination, the only cluster of this Argo CD (`appv1.KubernetesInternalAPIServerAddr`).
pub const IN_CLUSTER_SERVER: &str = "https://kubernetes.default.svc";
/// Its name (`in-cluster`).
pub const IN_CLUSTER_NAME: &str = "in-cluster";

/// Why a spec is invalid: upstream's `InvalidSpecError` messages, in the order it finds them.
pub fn spec_errors(store: &Store, app: &Value) -> Vec<String> {
    let view = AppView::new(app);
    let project_name = view.project();
    let Some(project) = store.get(&Key::new(
        &crate::kinds::APP_PROJECT,
        NAMESPACE,
        project_name,
    )) else {
        return vec![format!(
            "Application referencing project {project_name} which does not exist"
        )];
    };
    let mut errors = Vec::new();
    if let Some(e) = source_problem(view.source()) {
        return vec![e];
    }
    if !source_permitted(&project["spec"], view.repo_url()) {
        errors.push(format!(
            "application repo {} is not permitted in project '{project_name}'",
            view.repo_url()
        ));
    }
    match destination_server(view.destination()) {
        Err(e) => errors.push(e),
        Ok(server) => {
            let dest = view.destination();
            let namespace = dest["namespace"].as_str().unwrap_or_default();
            let by_name = dest["name"].as_str().is_some_and(|n| !n.is_empty());
            let name = if by_name { IN_CLUSTER_NAME } else { "" };
            if !destination_permitted(&project["spec"], &server, name, namespace) {
                let shown = if by_name {
                    IN_CLUSTER_NAME
                } else {
                    server.as_str()
                };
                errors.push(format!(
                    "application destination server '{shown}' and namespace '{namespace}' do not match any of the allowed destinations in project '{project_name}'"
                ));
            }
        }
    }
    errors
}

/// `validateSourcePermissions` for a single source.
fn source_problem(source: &Value) -> Option<String> {
    let text = |k: &str| source[k].as_str().unwrap_or_default();
    if text("repoURL").is_empty() || (text("path").is_empty() && text("chart").is_empty()) {
        return Some(
            "spec.source.repoURL and either spec.source.path or spec.source.chart are required"
                .into(),
        );
    }
    if !text("chart").is_empty() && text("targetRevision").is_empty() {
        return Some(
            "spec.source.targetRevision is required if the manifest source is a helm chart".into(),
        );
    }
    None
}

/// `GetDestinationServer` + `GetCluster`: the server URL of the destination, or why there is none.
pub fn destination_server(destination: &Value) -> Result<String, String> {
    let text = |k: &str| destination[k].as_str().unwrap_or_default();
    let (name, server) = (text("name"), text("server"));
    if !name.is_empty() && !server.is_empty() {
        return Err(format!(
            "application destination can't have both name and server defined: {name} {server}"
        ));
    }
    if !server.is_empty() {
        let trimmed = server.trim_end_matches('/');
        if trimmed != IN_CLUSTER_SERVER {
            return Err(format!(
                "error getting cluster by server {server:?}: rpc error: code = NotFound desc = cluster {trimmed:?} not found"
            ));
        }
        return Ok(trimmed.to_string());
    }
    if !name.is_empty() {
        if name != IN_CLUSTER_NAME {
            return Err(format!("there are no clusters with this name: {name}"));
        }
        return Ok(IN_CLUSTER_SERVER.to_string());
    }
    Err("Destination server missing from app spec".into())
}

/// `NormalizeGitURL`, as far as the URLs of a lab go: lower case, no `.git`, scp-style SSH
/// written as a path.
fn normalize_git_url(url: &str) -> String {
    let mut repo = url.trim().to_lowercase();
    let scp_style = !repo.contains("://") && repo.contains('@') && repo.contains(':');
    if scp_style {
        repo = repo.replacen(':', "/", 1);
    }
    let repo = repo.strip_suffix(".git").unwrap_or(&repo).to_string();
    repo.strip_prefix("ssh://").unwrap_or(&repo).to_string()
}

/// `globMatch`: `!` negates, `*` alone matches anything.
fn glob_match(pattern: &str, value: &str, separator: Option<char>) -> bool {
    let options = Options {
        separator,
        classes: ClassSyntax::Gobwas,
    };
    if let Some(denied) = pattern.strip_prefix('!') {
        return !glob::matches_with(denied, value, options);
    }
    pattern == "*" || glob::matches_with(pattern, value, options)
}

/// `AppProject.IsSourcePermitted`: some `sourceRepos` entry matches and no `!` entry refuses.
fn source_permitted(project: &Value, repo_url: &str) -> bool {
    let source = normalize_git_url(repo_url);
    let mut any = false;
    for pattern in project["sourceRepos"].as_array().into_iter().flatten() {
        let pattern = pattern.as_str().unwrap_or_default();
        let normalized = match pattern.strip_prefix('!') {
            Some(p) => format!("!{}", normalize_git_url(p)),
            None => normalize_git_url(pattern),
        };
        if glob_match(&normalized, &source, Some('/')) {
            any = true;
        } else if normalized.starts_with('!') {
            return false;
        }
    }
    any
}

/// `AppProject.isDestinationMatched`.
fn destination_permitted(project: &Value, server: &str, name: &str, namespace: &str) -> bool {
    let mut any = false;
    for item in project["destinations"].as_array().into_iter().flatten() {
        let text = |k: &str| item[k].as_str().unwrap_or_default();
        let name_matched = !name.is_empty() && glob_match(text("name"), name, None);
        let server_matched = !server.is_empty() && glob_match(text("server"), server, None);
        let namespace_matched = glob_match(text("namespace"), namespace, None);
        if (server_matched || name_matched) && namespace_matched {
            any = true;
        } else if (!name_matched && text("name").starts_with('!'))
            || (!server_matched && text("server").starts_with('!')) && namespace_matched
            || !namespace_matched && text("namespace").starts_with('!') && server_matched
        {
            return false;
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn destinations_are_the_in_cluster_server_or_its_name() {
        assert_eq!(
            destination_server(&json!({"server": "https://kubernetes.default.svc/"})),
            Ok(IN_CLUSTER_SERVER.to_string())
        );
        assert_eq!(
            destination_server(&json!({"name": "in-cluster"})),
            Ok(IN_CLUSTER_SERVER.to_string())
        );
        assert_eq!(
            destination_server(&json!({"server": "https://10.0.0.99:6443"})),
            Err("error getting cluster by server \"https://10.0.0.99:6443\": rpc error: code = NotFound desc = cluster \"https://10.0.0.99:6443\" not found".into())
        );
        assert_eq!(
            destination_server(&json!({"namespace": "x"})),
            Err("Destination server missing from app spec".into())
        );
        assert_eq!(
            destination_server(&json!({"name": "prod"})),
            Err("there are no clusters with this name: prod".into())
        );
    }

    #[test]
    fn source_repos_match_as_normalized_globs_and_deny_patterns_refuse() {
        let project = json!({"sourceRepos": ["git://gitd.gitsrv.svc.cluster.local:9418/*"]});
        assert!(source_permitted(
            &project,
            "git://gitd.gitsrv.svc.cluster.local:9418/src.git"
        ));
        assert!(!source_permitted(
            &project,
            "https://github.com/argoproj/argocd-example-apps.git"
        ));
        let deny = json!({"sourceRepos": ["*", "!https://github.com/evil/*"]});
        assert!(!source_permitted(&deny, "https://github.com/evil/repo"));
        assert!(source_permitted(&deny, "https://github.com/good/repo"));
        assert!(
            !source_permitted(&json!({}), "git://x/y.git"),
            "no sourceRepos: nothing"
        );
    }

    #[test]
    fn destinations_match_server_or_name_and_namespace_globs() {
        let project = json!({"destinations": [{"server": "https://kubernetes.default.svc", "namespace": "allowed-*"}]});
        assert!(destination_permitted(
            &project,
            IN_CLUSTER_SERVER,
            "",
            "allowed-a"
        ));
        assert!(!destination_permitted(
            &project,
            IN_CLUSTER_SERVER,
            "",
            "t-restricted"
        ));
        let by_name = json!({"destinations": [{"name": "in-cluster", "namespace": "*"}]});
        assert!(destination_permitted(
            &by_name,
            IN_CLUSTER_SERVER,
            IN_CLUSTER_NAME,
            "x"
        ));
        assert!(!destination_permitted(&by_name, IN_CLUSTER_SERVER, "", "x"));
    }

    #[test]
    fn a_source_needs_a_repo_and_a_path_or_chart() {
        assert!(source_problem(&json!({"repoURL": "git://x/y", "path": ""})).is_some());
        assert!(source_problem(&json!({"repoURL": "git://x/y", "path": "."})).is_none());
        assert_eq!(
            source_problem(&json!({"repoURL": "https://charts", "chart": "web"})),
            Some(
                "spec.source.targetRevision is required if the manifest source is a helm chart"
                    .into()
            )
        );
    }
}
