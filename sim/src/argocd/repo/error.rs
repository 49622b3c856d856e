//! Repo-server errors, worded as Argo CD 3.5 words them in the ComparisonError condition.

/// The gRPC status code the real repo-server answers with; it is part of the condition text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RpcCode {
    Unknown,
    Internal,
    NotFound,
    FailedPrecondition,
}

impl RpcCode {
    pub fn as_str(self) -> &'static str {
        match self {
            RpcCode::Unknown => "Unknown",
            RpcCode::Internal => "Internal",
            RpcCode::NotFound => "NotFound",
            RpcCode::FailedPrecondition => "FailedPrecondition",
        }
    }
}

/// Why the repo-server could not resolve a revision or render a source. `Display` is the whole
/// ComparisonError message: the controller's `Failed to load target state: failed to generate
/// manifest for source 1 of 1: ` (controller/state.go), then the gRPC status text, then the
/// repo-server's own message (which quotes helm's or kustomize's stderr).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RepoError {
    /// The revision is not a ref of the repo, or the repo could not be listed.
    #[error("{}", condition(RpcCode::Unknown, .0))]
    Revision(String),
    /// The resolved commit could not be fetched or checked out.
    #[error("{}", condition(RpcCode::Internal, .0))]
    Checkout(String),
    /// The Application's source is invalid for this checkout (path, value files, types).
    #[error("{}", condition(RpcCode::Unknown, .0))]
    Source(String),
    /// A `valueFiles` glob matched nothing and `ignoreMissingValueFiles` is off.
    #[error("{}", condition(RpcCode::NotFound, .0))]
    ValueFileGlob(String),
    /// helm or kustomize failed; the message quotes the command and its stderr.
    #[error("{}", condition(RpcCode::Unknown, .0))]
    Tool(String),
    /// The rendered output is not a list of Kubernetes objects.
    #[error("{}", condition(RpcCode::Unknown, .0))]
    Manifest(String),
    /// A plain-directory source holds a file that looks like a manifest but does not parse.
    #[error("{}", condition(RpcCode::FailedPrecondition, .0))]
    DirectoryManifest(String),
    /// The simulator cannot run a tool it needs (not an Argo CD error: a setup problem).
    #[error("{}", condition(RpcCode::Unknown, &tool_missing(.0)))]
    ToolMissing(&'static str),
    /// Local filesystem or git-cache trouble inside the simulator.
    #[error("{}", condition(RpcCode::Unknown, .0))]
    Io(String),
}

impl RepoError {
    #[cfg(test)]
    /// The gRPC code the message carries.
    pub fn code(&self) -> RpcCode {
        match self {
            RepoError::Checkout(_) => RpcCode::Internal,
            RepoError::ValueFileGlob(_) => RpcCode::NotFound,
            RepoError::DirectoryManifest(_) => RpcCode::FailedPrecondition,
            _ => RpcCode::Unknown,
        }
    }

    /// Only the repo-server's own message (the `desc` of the gRPC status).
    pub fn detail(&self) -> String {
        match self {
            RepoError::Revision(m)
            | RepoError::Checkout(m)
            | RepoError::Source(m)
            | RepoError::ValueFileGlob(m)
            | RepoError::Tool(m)
            | RepoError::Manifest(m)
            | RepoError::DirectoryManifest(m)
            | RepoError::Io(m) => m.clone(),
            RepoError::ToolMissing(tool) => tool_missing(tool),
        }
    }

    /// The same error with the private checkout path replaced, as the repo-server's gRPC
    /// sanitizer replaces `/tmp/_argocd-repo/<uuid>` with `<path to cached source>`.
    pub(super) fn sanitized(self, checkout: &str) -> RepoError {
        if checkout.is_empty() {
            return self;
        }
        let fix = |m: String| m.replace(checkout, "<path to cached source>");
        match self {
            RepoError::Revision(m) => RepoError::Revision(fix(m)),
            RepoError::Checkout(m) => RepoError::Checkout(fix(m)),
            RepoError::Source(m) => RepoError::Source(fix(m)),
            RepoError::ValueFileGlob(m) => RepoError::ValueFileGlob(fix(m)),
            RepoError::Tool(m) => RepoError::Tool(fix(m)),
            RepoError::Manifest(m) => RepoError::Manifest(fix(m)),
            RepoError::DirectoryManifest(m) => RepoError::DirectoryManifest(fix(m)),
            RepoError::Io(m) => RepoError::Io(fix(m)),
            e @ RepoError::ToolMissing(_) => e,
        }
    }
}

fn condition(code: RpcCode, desc: &str) -> String {
    format!(
        "Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = {} desc = {desc}",
        code.as_str()
    )
}

fn tool_missing(tool: &str) -> String {
    format!(
        "{tool} is not installed: the simulated repo-server runs the real {tool}; run scripts/install-tools to put helm and kubectl into .tools/bin"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_the_condition_message() {
        let e = RepoError::Revision("unable to resolve 'nope' to a commit SHA".into());
        assert_eq!(
            e.to_string(),
            "Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = unable to resolve 'nope' to a commit SHA"
        );
        let e = RepoError::Checkout("Failed to checkout revision x: y".into());
        assert!(
            e.to_string()
                .contains("code = Internal desc = Failed to checkout")
        );
        assert!(
            RepoError::ToolMissing("helm")
                .to_string()
                .contains("scripts/install-tools")
        );
    }

    #[test]
    fn sanitizes_the_checkout_path() {
        let e = RepoError::Tool("open /c/x/charts/v.yaml: no such file".into()).sanitized("/c/x");
        assert_eq!(
            e.detail(),
            "open <path to cached source>/charts/v.yaml: no such file"
        );
    }
}
