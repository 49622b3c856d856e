//! Why a request to the cluster got no answer, in plain words ("cannot reach
//! https://127.0.0.1:18443: connection refused"), never a debug dump of the error chain. The
//! client that follows the kubeconfig (`follow`) marks every failure to get an answer with the
//! server it tried, so the words can name it.

use std::error::Error as StdError;

/// The request never got an answer from `server`: the connection was refused, dropped, timed
/// out, or the TLS handshake failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot reach {server}: {why}")]
pub struct Unreachable {
    pub server: String,
    pub why: String,
}

/// What went wrong with a watch or a request, as the header and the plan say it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The cluster gave no answer at all (as opposed to an answer that says no).
    pub unreachable: bool,
    pub words: String,
}

impl Problem {
    pub fn unreachable(words: impl Into<String>) -> Problem {
        Problem {
            unreachable: true,
            words: words.into(),
        }
    }

    pub fn refused(words: impl Into<String>) -> Problem {
        Problem {
            unreachable: false,
            words: words.into(),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words)
    }
}

/// The problem a kube error stands for.
pub fn describe(e: &kube::Error) -> Problem {
    if let Some(u) = find::<Unreachable>(e) {
        return Problem::unreachable(u.to_string());
    }
    match e {
        kube::Error::Api(status) => Problem::refused(format!(
            "the cluster answered {} {}: {}",
            status.code, status.reason, status.message
        )),
        // The body of a watch stopped half-way: the connection went away under it.
        kube::Error::ReadEvents(io) => {
            Problem::unreachable(format!("the connection dropped ({})", io_words(io)))
        }
        kube::Error::HyperError(_) | kube::Error::Service(_) => {
            Problem::unreachable(format!("cannot reach the cluster: {}", transport_words(e)))
        }
        other => Problem::refused(innermost(other)),
    }
}

/// Why a request failed below HTTP, in a few words: the socket's error when there is one.
pub fn transport_words(e: &(dyn StdError + 'static)) -> String {
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            return io_words(io);
        }
        let text = err.to_string();
        if text.contains("certificate") {
            return format!("its TLS certificate is not trusted ({text})");
        }
        if text.starts_with("dns error") {
            return "its host name does not resolve".into();
        }
        cur = err.source();
    }
    innermost(e)
}

fn io_words(io: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match io.kind() {
        ErrorKind::ConnectionRefused => "connection refused".into(),
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe => {
            "the connection was dropped".into()
        }
        ErrorKind::TimedOut => "timed out".into(),
        ErrorKind::UnexpectedEof => "the connection closed early".into(),
        ErrorKind::HostUnreachable | ErrorKind::NetworkUnreachable => "no route to the host".into(),
        ErrorKind::AddrNotAvailable => "the address is not available".into(),
        // Whatever the socket said, without the OS error number.
        _ => match io.get_ref() {
            Some(inner) => transport_words(inner),
            None => strip_os_error(&io.to_string()),
        },
    }
}

fn strip_os_error(text: &str) -> String {
    match text.find(" (os error") {
        Some(i) => text[..i].to_lowercase(),
        None => text.to_string(),
    }
}

/// The last error of a chain: usually the one that says what happened.
fn innermost(e: &(dyn StdError + 'static)) -> String {
    let mut last = e;
    while let Some(next) = last.source() {
        last = next;
    }
    strip_os_error(&last.to_string())
}

/// The first error of type `T` in `e`'s chain.
fn find<'a, T: StdError + 'static>(e: &'a (dyn StdError + 'static)) -> Option<&'a T> {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if let Some(t) = err.downcast_ref::<T>() {
            return Some(t);
        }
        cur = err.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_connection_reads_as_the_server_and_the_reason() {
        let marked = kube::Error::Service(Box::new(Unreachable {
            server: "https://127.0.0.1:18443".into(),
            why: "connection refused".into(),
        }));
        assert_eq!(
            describe(&marked),
            Problem::unreachable("cannot reach https://127.0.0.1:18443: connection refused")
        );
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(transport_words(&io), "connection refused");
        let os = std::io::Error::from_raw_os_error(111);
        assert_eq!(transport_words(&os), "connection refused");
    }

    #[test]
    fn an_answer_that_says_no_is_not_unreachable() {
        let status = kube::core::Status::failure("forbidden", "Forbidden").with_code(403);
        let p = describe(&kube::Error::Api(status.boxed()));
        assert!(!p.unreachable);
        assert_eq!(p.words, "the cluster answered 403 Forbidden: forbidden");
    }
}
