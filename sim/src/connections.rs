//! Accepting the API's connections, with limits that hold before any token is read: anyone on
//! the machine can connect, so a client that sends half a request must not keep its
//! connection, and many such clients must not take every file descriptor. Without these, 1,008
//! half-sent requests held every descriptor, the API refused everyone, and the accept loop
//! spun on its errors at 1.1–1.7 cores (reliability review 4, S4).
//!
//! - At most `max_connections` are open at once, well below the process's file limit; more
//!   wait in the kernel's queue until one closes.
//! - At most `max_per_client` are open per local user (see `peer`); more are closed at once,
//!   so another user cannot fill the learner's share.
//! - The TLS handshake, and then each request's head, must arrive within their timeouts; a
//!   connection idle between requests counts as waiting for a head (hyper's
//!   `header_read_timeout`), and a connection that has not finished its first request head in
//!   time is dropped whatever its protocol. Bodies have their own timeout (`api::request`).
//! - An accept error (out of descriptors) waits a little instead of retrying at once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::peer::{Client, client_of};

/// How long the accept loop waits after an error before it tries again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// Descriptors kept for everything else (the journal, git, kubectl and helm, watches' files).
const RESERVED_FILES: usize = 256;

/// The limits of the API's front door.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Connections open at once.
    pub max_connections: usize,
    /// Connections open at once from one local user.
    pub max_per_client: usize,
    /// How long a TLS handshake may take.
    pub handshake_timeout: Duration,
    /// How long a request's head (and the wait for the next one on an idle connection) may take.
    pub header_timeout: Duration,
    /// How long a request's body may take to arrive.
    pub body_timeout: Duration,
}

impl Default for Limits {
    /// Half the file limit that is left after [`RESERVED_FILES`] (at least 32, at most 4,096
    /// connections), a quarter of that per user but never under 32 (a learner's kubectl,
    /// watches and tutor), and Go's `ReadHeaderTimeout`-like 30 s for heads, 60 s for bodies.
    fn default() -> Limits {
        let files = open_file_limit();
        let max_connections = (files.saturating_sub(RESERVED_FILES) / 2).clamp(32, 4_096);
        Limits {
            max_connections,
            max_per_client: (max_connections / 4).max(32).min(max_connections),
            handshake_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(60),
        }
    }
}

/// The soft limit on open files (`ulimit -n`); 1,024 when it cannot be read.
fn open_file_limit() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the value we own.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) };
    if read != 0 {
        return 1_024;
    }
    usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
}

/// Open connections per client, so each may be counted against its share.
#[derive(Default)]
struct PerClient(Mutex<HashMap<Client, usize>>);

/// A connection counted against its client's share until dropped.
struct Counted {
    clients: Arc<PerClient>,
    client: Client,
}

impl PerClient {
    fn admit(self: &Arc<Self>, client: Client, max: usize) -> Option<Counted> {
        let mut open = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(client).or_default();
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(Counted {
            clients: self.clone(),
            client,
        })
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut open = self
            .clients
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.client);
            }
        }
    }
}

/// Accepts TLS connections and serves each with HTTP/1.1 or HTTP/2 (as ALPN chose) until told
/// to stop. A client that fails the handshake or misbehaves only loses its own connection.
pub async fn serve_tls(
    listener: TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
    app: axum::Router,
    limits: Limits,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) {
    let local = listener.local_addr().ok();
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let clients = Arc::new(PerClient::default());
    let mut connections = tokio::task::JoinSet::new();
    loop {
        // Take a slot before accepting, so the descriptors in use never pass the limit.
        let slot = tokio::select! {
            _ = &mut stop => break,
            slot = slots.clone().acquire_owned() => slot,
        };
        let Ok(slot) = slot else { break };
        let accepted = tokio::select! {
            _ = &mut stop => break,
            a = listener.accept() => a,
        };
        let (tcp, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                tracing::warn!("API server: cannot accept a connection: {e}");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let client = match local {
            Some(local) => client_of(local, peer),
            None => Client::Address(peer.ip()),
        };
        let Some(counted) = clients.admit(client, limits.max_per_client) else {
            // Over its share: closed at once, before any TLS work.
            continue;
        };
        let (acceptor, app, limits) = (acceptor.clone(), app.clone(), limits.clone());
        connections.spawn(async move {
            let _held = (slot, counted);
            serve_one(tcp, acceptor, app, &limits).await;
        });
        // Reap finished connections so the set does not grow without bound.
        while connections.try_join_next().is_some() {}
    }
    connections.abort_all();
}

async fn serve_one(
    tcp: tokio::net::TcpStream,
    acceptor: tokio_rustls::TlsAcceptor,
    app: axum::Router,
    limits: &Limits,
) {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    let Ok(Ok(tls)) = tokio::time::timeout(limits.handshake_timeout, acceptor.accept(tcp)).await
    else {
        return;
    };
    let h2 = tls.get_ref().1.alpn_protocol() == Some(b"h2");
    let first_head = Arc::new(AtomicBool::new(false));
    let seen = first_head.clone();
    // Marks the first request whose head arrived (the service is called only then).
    let app = app.layer(axum::middleware::map_request(
        move |request: axum::extract::Request| {
            seen.store(true, Ordering::Relaxed);
            std::future::ready(request)
        },
    ));
    let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    builder.http2().timer(TokioTimer::new());
    // ALPN has chosen the protocol, so no time goes to guessing it from the first bytes.
    let builder = if h2 {
        builder.http2_only()
    } else {
        builder.http1_only()
    };
    let connection =
        builder.serve_connection_with_upgrades(TokioIo::new(tls), TowerToHyperService::new(app));
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => return,
        () = tokio::time::sleep(limits.header_timeout) => {}
    }
    if !first_head.load(Ordering::Relaxed) {
        return;
    }
    let _ = connection.await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_limits_stay_well_below_the_file_limit() {
        let limits = Limits::default();
        let files = open_file_limit();
        assert!(limits.max_connections + RESERVED_FILES <= files.max(RESERVED_FILES + 64));
        assert!(limits.max_per_client <= limits.max_connections);
        assert!(limits.max_per_client >= 32);
    }

    #[test]
    fn a_clients_share_is_counted_and_given_back() {
        let clients = Arc::new(PerClient::default());
        let me = Client::User(1000);
        let held: Vec<Counted> = (0..3).filter_map(|_| clients.admit(me, 3)).collect();
        assert_eq!(held.len(), 3);
        assert!(clients.admit(me, 3).is_none());
        assert!(clients.admit(Client::User(1001), 3).is_some());
        drop(held);
        assert!(clients.admit(me, 3).is_some());
    }
}
