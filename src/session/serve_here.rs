//! Serving the lab's embedded cluster from this process: the one way a session starts it,
//! whether it serves from the start or takes over a lab whose server ended.

use std::net::SocketAddr;
use std::path::Path;

use super::SessionError;
use super::serving::{Owner, Serving};

/// The lab at `state`, to be served by this process.
pub(super) struct ServeHere<'a> {
    pub state: &'a Path,
    pub bare_dir: &'a Path,
    pub speed: f64,
    /// Where to listen (`sim serve --listen`); a free loopback port when `None`.
    pub listen: Option<SocketAddr>,
    pub kubeconfig: &'a Path,
}

impl ServeHere<'_> {
    /// As `owner` of the lab: starts its embedded cluster, writes the kubeconfig and says
    /// where it serves. On any failure nothing is left serving.
    pub async fn start(&self, owner: &Owner) -> Result<capa_sim::Handle, SessionError> {
        let config = capa_sim::Config {
            listen: self
                .listen
                .unwrap_or_else(|| capa_sim::Config::default().listen),
            state_dir: Some(self.state.to_path_buf()),
            speed: self.speed,
            bare_dir: Some(self.bare_dir.to_path_buf()),
        };
        let handle = capa_sim::start(config).await?;
        let serving = Serving {
            pid: std::process::id(),
            url: handle.url(),
            kubeconfig: self.kubeconfig.to_path_buf(),
            speed: Some(self.speed),
        };
        let announced = match handle.write_kubeconfig(self.kubeconfig) {
            Ok(()) => owner
                .publish(&serving)
                .map_err(|source| SessionError::StateDir {
                    path: self.state.to_path_buf(),
                    source,
                }),
            Err(e) => Err(e.into()),
        };
        match announced {
            Ok(()) => Ok(handle),
            Err(e) => {
                handle.shutdown().await;
                Err(e)
            }
        }
    }
}
