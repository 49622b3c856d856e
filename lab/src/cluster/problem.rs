//! Why a request to the cluster got no answer, in plain words ("cannot reach
//! https://127.0.0.1:18443: connection refused"), never a debug dump of the error chain. The
//! client that follows the kubeconfig (`follow`) marks every failure to get an answer with the
//! server it tried, so the words can name it. The reasons are typed here and put into words in
//! the learner's language by [`Say`].

use std::error::Error as StdError;

use crate::i18n::{Lang, Say};
use crate::t;

/// Why a connection gave no answer, below HTTP.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Why {
    Refused,
    Dropped,
    TimedOut,
    ClosedEarly,
    NoRoute,
    AddressUnavailable,
    /// The server's TLS certificate is not trusted: what the TLS library said.
    Untrusted(String),
    NoSuchHost,
    /// Whatever the socket or the client said, without the OS error number.
    Other(String),
}

impl Say for Why {
    fn say(&self, lang: Lang) -> String {
        match self {
            Why::Refused => t!(lang, "why-refused"),
            Why::Dropped => t!(lang, "why-dropped"),
            Why::TimedOut => t!(lang, "why-timed-out"),
            Why::ClosedEarly => t!(lang, "why-closed-early"),
            Why::NoRoute => t!(lang, "why-no-route"),
            Why::AddressUnavailable => t!(lang, "why-address-unavailable"),
            Why::Untrusted(text) => t!(lang, "why-untrusted", detail = text.as_str()),
            Why::NoSuchHost => t!(lang, "why-no-such-host"),
            Why::Other(text) => text.clone(),
        }
    }
}

/// The request never got an answer from `server`: the connection was refused, dropped, timed
/// out, or the TLS handshake failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreachable {
    pub server: String,
    pub why: Why,
}

impl StdError for Unreachable {}

/// What went wrong with a watch or a request, as the header and the plan say it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Problem {
    /// No answer from the server (named when the client knows which).
    Unreachable { server: Option<String>, why: Why },
    /// A watch's body stopped half-way: the connection went away under it.
    Dropped(Why),
    /// The cluster answered, and the answer was no (its own status and message).
    Answered {
        code: u16,
        reason: String,
        message: String,
    },
    /// The watch ended with an error event: the API's message.
    WatchStopped(String),
    /// The server's history no longer reaches back to what the tutor saw (410 Gone).
    HistoryExpired,
    /// The client itself failed: its own words.
    Other(String),
}

impl Problem {
    /// The cluster gave no answer at all (as opposed to an answer that says no).
    pub fn unreachable(&self) -> bool {
        matches!(self, Problem::Unreachable { .. } | Problem::Dropped(_))
    }

    /// No answer from `server`, for `why`.
    pub fn no_answer(server: &str, why: Why) -> Problem {
        Problem::Unreachable {
            server: Some(server.to_string()),
            why,
        }
    }
}

impl Say for Problem {
    fn say(&self, lang: Lang) -> String {
        match self {
            Problem::Unreachable {
                server: Some(server),
                why,
            } => t!(
                lang,
                "problem-cannot-reach",
                server = server.as_str(),
                why = why.say(lang)
            ),
            Problem::Unreachable { server: None, why } => {
                t!(lang, "problem-cannot-reach-cluster", why = why.say(lang))
            }
            Problem::Dropped(why) => t!(lang, "problem-dropped", why = why.say(lang)),
            Problem::Answered {
                code,
                reason,
                message,
            } => t!(
                lang,
                "problem-answered",
                code = code.to_string(),
                reason = reason.as_str(),
                message = message.as_str()
            ),
            Problem::WatchStopped(message) => {
                t!(lang, "problem-watch-stopped", message = message.as_str())
            }
            Problem::HistoryExpired => t!(lang, "problem-history-expired"),
            Problem::Other(words) => words.clone(),
        }
    }
}

crate::display_says!(Problem, Why, Unreachable);

impl Say for Unreachable {
    fn say(&self, lang: Lang) -> String {
        Problem::no_answer(&self.server, self.why.clone()).say(lang)
    }
}

/// The problem a kube error stands for.
pub fn describe(e: &kube::Error) -> Problem {
    if let Some(u) = find::<Unreachable>(e) {
        return Problem::no_answer(&u.server, u.why.clone());
    }
    match e {
        kube::Error::Api(status) => Problem::Answered {
            code: status.code,
            reason: status.reason.clone(),
            message: status.message.clone(),
        },
        // The body of a watch stopped half-way: the connection went away under it.
        kube::Error::ReadEvents(io) => Problem::Dropped(io_why(io)),
        kube::Error::HyperError(_) | kube::Error::Service(_) => Problem::Unreachable {
            server: None,
            why: transport_why(e),
        },
        other => Problem::Other(innermost(other)),
    }
}

/// Why a request failed below HTTP: the socket's error when there is one.
pub fn transport_why(e: &(dyn StdError + 'static)) -> Why {
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            return io_why(io);
        }
        let text = err.to_string();
        if text.contains("certificate") {
            return Why::Untrusted(text);
        }
        if text.starts_with("dns error") {
            return Why::NoSuchHost;
        }
        cur = err.source();
    }
    Why::Other(innermost(e))
}

fn io_why(io: &std::io::Error) -> Why {
    use std::io::ErrorKind;
    match io.kind() {
        ErrorKind::ConnectionRefused => Why::Refused,
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe => {
            Why::Dropped
        }
        ErrorKind::TimedOut => Why::TimedOut,
        ErrorKind::UnexpectedEof => Why::ClosedEarly,
        ErrorKind::HostUnreachable | ErrorKind::NetworkUnreachable => Why::NoRoute,
        ErrorKind::AddrNotAvailable => Why::AddressUnavailable,
        // Whatever the socket said, without the OS error number.
        _ => match io.get_ref() {
            Some(inner) => transport_why(inner),
            None => Why::Other(strip_os_error(&io.to_string())),
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
            why: Why::Refused,
        }));
        let p = describe(&marked);
        assert_eq!(
            p,
            Problem::no_answer("https://127.0.0.1:18443", Why::Refused)
        );
        assert_eq!(
            p.to_string(),
            "cannot reach https://127.0.0.1:18443: connection refused"
        );
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(transport_why(&io), Why::Refused);
        let os = std::io::Error::from_raw_os_error(111);
        assert_eq!(transport_why(&os), Why::Refused);
    }

    #[test]
    fn an_answer_that_says_no_is_not_unreachable() {
        let status = kube::core::Status::failure("forbidden", "Forbidden").with_code(403);
        let p = describe(&kube::Error::Api(status.boxed()));
        assert!(!p.unreachable());
        assert_eq!(
            p.to_string(),
            "the cluster answered 403 Forbidden: forbidden"
        );
    }

    #[test]
    fn the_reason_is_said_in_the_learners_language() {
        let zh = Lang::parse("zh").expect("Chinese is there");
        let p = Problem::no_answer("https://127.0.0.1:1", Why::Refused);
        let said = p.say(zh);
        assert!(said.contains("https://127.0.0.1:1"), "{said}");
        assert!(!said.contains("connection refused"), "{said}");
    }
}
