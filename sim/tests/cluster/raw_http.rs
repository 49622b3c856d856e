//! Raw HTTP/1.1 requests over TLS to the embedded cluster, with nothing checked on the way
//! out: any method, path, query, header or body can be sent.

use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::{CertificateDer, ServerName, pem::PemObject};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::Lab;

const REPLY_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct Request {
    pub method: &'static str,
    pub path: String,
    pub query: String,
    pub content_type: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

pub struct Client {
    config: Arc<rustls::ClientConfig>,
    addr: std::net::SocketAddr,
    token: String,
}

impl Client {
    pub fn new(lab: &Lab) -> Client {
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_slice_iter(lab.handle.ca_pem().as_bytes()) {
            roots.add(cert.unwrap()).unwrap();
        }
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
        Client {
            config: Arc::new(config),
            addr: lab.handle.addr,
            token: lab.handle.token.clone(),
        }
    }

    /// Sends the request; `Err` when no complete answer came in time.
    pub async fn send(&self, r: &Request) -> Result<(u16, Vec<u8>), String> {
        let tcp = tokio::net::TcpStream::connect(self.addr)
            .await
            .map_err(|e| e.to_string())?;
        let mut tls = tokio_rustls::TlsConnector::from(self.config.clone())
            .connect(ServerName::try_from("127.0.0.1").unwrap(), tcp)
            .await
            .map_err(|e| e.to_string())?;
        let target = if r.query.is_empty() {
            r.path.clone()
        } else {
            format!("{}?{}", r.path, r.query)
        };
        let mut head = format!(
            "{} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nContent-Length: {}\r\nConnection: close\r\n",
            r.method,
            self.token,
            r.body.len()
        );
        if !r.content_type.is_empty() {
            head.push_str(&format!("Content-Type: {}\r\n", r.content_type));
        }
        for (k, v) in &r.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        tls.write_all(head.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let _ = tls.write_all(&r.body).await;
        let mut bytes = Vec::new();
        tokio::time::timeout(REPLY_TIMEOUT, tls.read_to_end(&mut bytes))
            .await
            .map_err(|_| "no answer in time: the server hangs".to_string())?
            .map_err(|e| format!("the connection broke: {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let code = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| format!("no status line in {text:?}"))?;
        let split = bytes
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map_or(bytes.len(), |i| i + 4);
        let chunked = text[..split.min(text.len())]
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked");
        let body = if chunked {
            dechunk(&bytes[split..])
        } else {
            bytes[split..].to_vec()
        };
        Ok((code, body))
    }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(std::str::from_utf8(&raw[..eol]).unwrap_or("0").trim(), 16)
                .unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = eol + 2;
        out.extend_from_slice(&raw[start..(start + size).min(raw.len())]);
        raw = &raw[(start + size + 2).min(raw.len())..];
    }
    out
}
