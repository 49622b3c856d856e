//! HTTPS for the embedded cluster, as k3s serves it. kubectl only sends a bearer token to an
//! `https://` server, so the cluster makes its own CA and a serving certificate for
//! `127.0.0.1`/`localhost`, and the kubeconfig carries the CA. With a state dir the credentials
//! are kept, so a kubeconfig (and a client holding it) stays valid across restarts.

use std::path::Path;
use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject};
use serde_json::{Value, json};
use tokio_rustls::TlsAcceptor;

const CREDENTIALS: &str = "credentials.json";

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("could not make the cluster's certificates: {0}")]
    Generate(String),
    #[error("could not read or keep the cluster's credentials in {path}: {why}")]
    Stored { path: String, why: String },
}

/// What clients need to trust and authenticate against the cluster, and the server side of it.
pub struct Credentials {
    pub token: String,
    pub ca_pem: String,
    cert_pem: String,
    key_pem: String,
}

impl Credentials {
    /// Loads them from `state_dir`, or makes new ones (and keeps them there, if given).
    pub fn load_or_create(state_dir: Option<&Path>) -> Result<Credentials, TlsError> {
        let path = state_dir.map(|d| d.join(CREDENTIALS));
        if let Some(path) = &path
            && let Ok(bytes) = std::fs::read(path)
        {
            let stored = |why: String| TlsError::Stored {
                path: path.display().to_string(),
                why,
            };
            let v: Value = serde_json::from_slice(&bytes).map_err(|e| stored(e.to_string()))?;
            let field = |k: &str| {
                v[k].as_str()
                    .map(String::from)
                    .ok_or_else(|| stored(format!("no {k}")))
            };
            return Ok(Credentials {
                token: field("token")?,
                ca_pem: field("ca")?,
                cert_pem: field("cert")?,
                key_pem: field("key")?,
            });
        }
        let made = generate()?;
        if let Some(path) = &path {
            let body = json!({"token": made.token, "ca": made.ca_pem, "cert": made.cert_pem, "key": made.key_pem});
            super::write_private(path, body.to_string().as_bytes()).map_err(|e| {
                TlsError::Stored {
                    path: path.display().to_string(),
                    why: e.to_string(),
                }
            })?;
        }
        Ok(made)
    }

    /// A TLS acceptor offering HTTP/2 and HTTP/1.1, as the real API server does.
    pub fn acceptor(&self) -> Result<TlsAcceptor, TlsError> {
        let bad = |e: &dyn std::fmt::Display| TlsError::Generate(e.to_string());
        let certs: Vec<CertificateDer<'static>> =
            CertificateDer::pem_slice_iter(self.cert_pem.as_bytes())
                .collect::<Result<_, _>>()
                .map_err(|e| bad(&e))?;
        let key = PrivateKeyDer::from_pem_slice(self.key_pem.as_bytes()).map_err(|e| bad(&e))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| bad(&e))?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(|e| bad(&e))?;
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Ok(TlsAcceptor::from(Arc::new(config)))
    }
}

fn generate() -> Result<Credentials, TlsError> {
    let err = |e: rcgen::Error| TlsError::Generate(e.to_string());
    let ca_key = KeyPair::generate().map_err(err)?;
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).map_err(err)?;
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "capa-tui embedded lab cluster CA");
    let ca_cert = ca_params.self_signed(&ca_key).map_err(err)?;
    let issuer = Issuer::new(ca_params, ca_key);
    let key = KeyPair::generate().map_err(err)?;
    let mut params = CertificateParams::new(vec![
        "127.0.0.1".to_string(),
        "localhost".to_string(),
        "::1".to_string(),
    ])
    .map_err(err)?;
    params
        .distinguished_name
        .push(DnType::CommonName, "capa-tui embedded lab cluster");
    let cert = params.signed_by(&key, &issuer).map_err(err)?;
    Ok(Credentials {
        token: random_token(),
        ca_pem: ca_cert.pem(),
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
    })
}

fn random_token() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..40)
        .map(|_| format!("{:x}", rng.random_range(0..16u8)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_kept_in_the_state_dir() {
        let dir = tempfile::tempdir().unwrap();
        let first = Credentials::load_or_create(Some(dir.path())).unwrap();
        let again = Credentials::load_or_create(Some(dir.path())).unwrap();
        assert_eq!(first.token, again.token);
        assert_eq!(first.ca_pem, again.ca_pem);
        assert!(first.acceptor().is_ok());
        let fresh = Credentials::load_or_create(None).unwrap();
        assert_ne!(fresh.token, first.token);
    }
}
