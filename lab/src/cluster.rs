//! Talking to a cluster — the lab VM's k3s or the embedded lab cluster — through kube-rs, the
//! same way for both: connecting from a kubeconfig and context, and the Argo CD operations the
//! lab needs that work on any cluster (`argocd`).

pub mod application;
pub mod argocd;
pub mod clock;
pub mod derive;
pub mod follow;
pub mod health;
mod key;
mod kind;
pub mod problem;
pub mod recorded;
pub mod scaled;
pub mod watch;

pub use application::Application;
pub use key::{KeyError, ObjectKey};
pub use kind::Kind;

use std::path::{Path, PathBuf};

use kube::config::{KubeConfigOptions, Kubeconfig};

use crate::i18n::{Lang, Say};
use crate::t;

/// Why the cluster could not be used, typed; said in the learner's language by [`Say`].
/// Its `Display` is its English words (`display_says!`); its `source` is what failed below.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    NoKubeconfig,
    /// The kubeconfig cannot be read, or does not read as one.
    BadKubeconfig {
        path: PathBuf,
        source: KubeconfigSource,
    },
    BadContext {
        context: Option<String>,
        source: kube::config::KubeconfigError,
    },
    /// A client for the kubeconfig's server cannot be made.
    NoClient {
        server: String,
        source: kube::Error,
    },
    /// The API answered no: its own message, quoted.
    Api(String),
    /// The API answered that the object does not exist: its own message.
    NotFound(String),
    /// No answer.
    Unreachable(problem::Problem),
    /// An object the lab reads as an Application does not read as one.
    NotAnApplication(String),
    /// The API server's clock cannot be read from its `Date` header.
    NoClock(Option<String>),
    /// An Application kept changing under an update.
    KeptChanging(String),
    /// An Application has no operation to end: Argo CD's own answer to `terminate-op` then.
    NoOperation(String),
}

impl Say for ClusterError {
    fn say(&self, lang: Lang) -> String {
        match self {
            ClusterError::NoKubeconfig => t!(lang, "cluster-no-kubeconfig"),
            ClusterError::BadKubeconfig { path, source } => t!(
                lang,
                "cluster-bad-kubeconfig",
                path = path.display().to_string(),
                why = source.to_string()
            ),
            ClusterError::BadContext {
                context: Some(c),
                source,
            } => t!(
                lang,
                "cluster-bad-context-named",
                context = c.as_str(),
                why = source.to_string()
            ),
            ClusterError::BadContext {
                context: None,
                source,
            } => {
                t!(lang, "cluster-bad-context", why = source.to_string())
            }
            ClusterError::NoClient { server, source } => t!(
                lang,
                "cluster-no-client",
                server = server.as_str(),
                why = source.to_string()
            ),
            ClusterError::Api(message) | ClusterError::NotFound(message) => message.clone(),
            ClusterError::Unreachable(problem) => {
                t!(lang, "cluster-unreachable", problem = problem.say(lang))
            }
            ClusterError::NotAnApplication(name) => {
                t!(lang, "cluster-not-an-application", name = name.as_str())
            }
            ClusterError::NoClock(Some(date)) => {
                t!(lang, "cluster-bad-date", date = date.as_str())
            }
            ClusterError::NoClock(None) => t!(lang, "cluster-no-date"),
            ClusterError::KeptChanging(name) => {
                t!(lang, "cluster-kept-changing", name = name.as_str())
            }
            ClusterError::NoOperation(name) => t!(
                lang,
                "cluster-no-operation",
                name = name.as_str(),
                argo = argocd::NO_OPERATION
            ),
        }
    }
}

crate::display_says!(ClusterError);

/// Why a kubeconfig does not read: the file, or what is in it.
#[derive(Debug, thiserror::Error)]
pub enum KubeconfigSource {
    #[error(transparent)]
    File(#[from] std::io::Error),
    #[error(transparent)]
    Yaml(#[from] kube::config::KubeconfigError),
}

pub type Result<T> = std::result::Result<T, ClusterError>;

/// The kubeconfig k3s writes for its own kubectl: what a lab VM has when nothing else is set.
pub const K3S_KUBECONFIG: &str = "/etc/rancher/k3s/k3s.yaml";

/// Where the kubeconfig is: `kubeconfig`, else `$KUBECONFIG`, else `~/.kube/config`, else
/// k3s's own (as k3s's kubectl does on the lab VM).
pub fn kubeconfig_path(kubeconfig: Option<&Path>) -> Result<PathBuf> {
    let env = std::env::var_os("KUBECONFIG").filter(|v| !v.is_empty());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    pick_kubeconfig(kubeconfig, env.map(PathBuf::from), home.as_deref(), |p| {
        p.exists()
    })
}

fn pick_kubeconfig(
    flag: Option<&Path>,
    env: Option<PathBuf>,
    home: Option<&Path>,
    exists: impl Fn(&Path) -> bool,
) -> Result<PathBuf> {
    let path = match (flag, env) {
        (Some(p), _) => p.to_path_buf(),
        (None, Some(p)) => p,
        (None, None) => home
            .map(|h| h.join(".kube/config"))
            .filter(|p| exists(p))
            .unwrap_or_else(|| PathBuf::from(K3S_KUBECONFIG)),
    };
    if exists(&path) {
        Ok(path)
    } else {
        Err(ClusterError::NoKubeconfig)
    }
}

/// A kube client from the kubeconfig [`kubeconfig_path`] finds and `context` (else the current
/// one).
pub async fn connect(kubeconfig: Option<&Path>, context: Option<&str>) -> Result<kube::Client> {
    let path = kubeconfig_path(kubeconfig)?;
    let text = std::fs::read_to_string(&path).map_err(|e| ClusterError::BadKubeconfig {
        path: path.clone(),
        source: e.into(),
    })?;
    Ok(client_from_text(&path, &text, context).await?.0)
}

/// A client from a kubeconfig's text (read from `path`), with the server it talks to.
async fn client_from_text(
    path: &Path,
    text: &str,
    context: Option<&str>,
) -> Result<(kube::Client, String)> {
    let kc = Kubeconfig::from_yaml(text).map_err(|e| ClusterError::BadKubeconfig {
        path: path.to_path_buf(),
        source: e.into(),
    })?;
    let options = KubeConfigOptions {
        context: context.map(String::from),
        ..KubeConfigOptions::default()
    };
    let config = kube::Config::from_custom_kubeconfig(kc, &options)
        .await
        .map_err(|source| ClusterError::BadContext {
            context: context.map(String::from),
            source,
        })?;
    let server = config
        .cluster_url
        .to_string()
        .trim_end_matches('/')
        .to_string();
    let client = kube::Client::try_from(config).map_err(|source| ClusterError::NoClient {
        server: server.clone(),
        source,
    })?;
    Ok((client, server))
}

/// Plain words for a kube error: the API's own message when it answered, else why it could not.
pub fn explain(e: kube::Error) -> ClusterError {
    match e {
        kube::Error::Api(s) if s.code == 404 => ClusterError::NotFound(s.message),
        kube::Error::Api(s) => ClusterError::Api(s.message),
        other => {
            let problem = problem::describe(&other);
            if problem.unreachable() {
                ClusterError::Unreachable(problem)
            } else {
                ClusterError::Api(problem.to_string())
            }
        }
    }
}

impl ClusterError {
    /// The cluster gave no answer (as opposed to an answer that says no): worth waiting for.
    pub fn is_unreachable(&self) -> bool {
        matches!(self, ClusterError::Unreachable(_))
    }
}

/// The cluster's clock (the API server's `Date` header): what "now" means for evidence times,
/// also on a sped-up embedded cluster.
pub async fn now(client: &kube::Client) -> Result<jiff::Timestamp> {
    let req = http::Request::get("/version")
        .body(Vec::new())
        .map_err(|_| ClusterError::NoClock(None))?;
    let resp = client
        .send(req.map(kube::client::Body::from))
        .await
        .map_err(explain)?;
    let date = resp
        .headers()
        .get(http::header::DATE)
        .and_then(|v| v.to_str().ok())
        .ok_or(ClusterError::NoClock(None))?;
    jiff::fmt::rfc2822::parse(date)
        .map(|z| z.timestamp())
        .map_err(|_| ClusterError::NoClock(Some(date.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kubeconfig_is_the_flag_then_kubeconfig_then_home_then_k3s_own() {
        let home = Path::new("/home/l");
        let all = |_: &Path| true;
        let flag = Path::new("/f");
        assert_eq!(
            pick_kubeconfig(Some(flag), Some("/e".into()), Some(home), all).unwrap(),
            flag
        );
        assert_eq!(
            pick_kubeconfig(None, Some("/e".into()), Some(home), all).unwrap(),
            Path::new("/e")
        );
        assert_eq!(
            pick_kubeconfig(None, None, Some(home), all).unwrap(),
            home.join(".kube/config")
        );
        let only_k3s = |p: &Path| p == Path::new(K3S_KUBECONFIG);
        assert_eq!(
            pick_kubeconfig(None, None, Some(home), only_k3s).unwrap(),
            Path::new(K3S_KUBECONFIG)
        );
        let none = |_: &Path| false;
        assert!(matches!(
            pick_kubeconfig(None, None, Some(home), none),
            Err(ClusterError::NoKubeconfig)
        ));
    }
}
