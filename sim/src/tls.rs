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
/// The shortest token a kept `credentials.json` may hold. A new one has 40 hex digits (160
/// bits); an empty token once let any `Authorization:` header in (reliability review 4, S5).
const MIN_TOKEN_CHARS: usize = 32;

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
        let kept = match &path {
            Some(path) => match std::fs::read(path) {
                Ok(bytes) => Some(bytes),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                // Unreadable is not absent: new credentials would lock out every client.
                Err(e) => {
                    return Err(TlsError::Stored {
                        path: path.display().to_string(),
                        why: e.to_string(),
                    });
                }
            },
            None => None,
        };
        if let (Some(path), Some(bytes)) = (&path, kept) {
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
            let token = field("token")?;
            if token.chars().count() < MIN_TOKEN_CHARS || token.chars().any(char::is_whitespace) {
                return Err(stored(format!(
                    "its token has {} characters and the cluster needs at least {MIN_TOKEN_CHARS} without spaces, or anyone could guess it; delete the file to make new credentials (then use the new kubeconfig)",
                    token.chars().count()
                )));
            }
            let kept = Credentials {
                token,
                ca_pem: field("ca")?,
                cert_pem: field("cert")?,
                key_pem: field("key")?,
            };
            // A certificate or key that does not load is named with its file (review 4, U7).
            if let Err(e) = kept.acceptor() {
                return Err(stored(format!(
                    "its certificate or key does not load ({e}); delete the file to make new credentials (then use the new kubeconfig)"
                )));
            }
            return Ok(kept);
        }
        let made = generate()?;
        if let Some(path) = &path {
            let body = json!({"token": made.token, "ca": made.ca_pem, "cert": made.cert_pem, "key": made.key_pem});
            crate::private_files::write_private(path, body.to_string().as_bytes()).map_err(
                |e| TlsError::Stored {
                    path: path.display().to_string(),
                    why: e.to_string(),
                },
            )?;
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

    /// Review 4, S5: `"token": ""` started a cluster that let in any `Authorization:` header.
    #[test]
    fn an_empty_or_short_token_refuses_to_start() {
        let dir = tempfile::tempdir().unwrap();
        let made = Credentials::load_or_create(Some(dir.path())).unwrap();
        let path = dir.path().join(CREDENTIALS);
        for token in ["", "short", "0123456789abcdef0123456789abcde"] {
            let body = json!({"token": token, "ca": made.ca_pem, "cert": made.cert_pem, "key": made.key_pem});
            std::fs::write(&path, body.to_string()).unwrap();
            let Err(e) = Credentials::load_or_create(Some(dir.path())) else {
                panic!("a token of {} characters was accepted", token.len());
            };
            let said = e.to_string();
            assert!(
                said.contains("credentials.json") && said.contains("at least 32"),
                "{said}"
            );
        }
    }

    #[test]
    fn a_bad_certificate_is_named_with_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let made = Credentials::load_or_create(Some(dir.path())).unwrap();
        let body = json!({"token": made.token, "ca": made.ca_pem, "cert": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "key": made.key_pem});
        std::fs::write(dir.path().join(CREDENTIALS), body.to_string()).unwrap();
        let Err(e) = Credentials::load_or_create(Some(dir.path())) else {
            panic!("a bad certificate was accepted");
        };
        let said = e.to_string();
        assert!(
            said.contains("credentials.json") && said.contains("does not load"),
            "{said}"
        );
    }

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
