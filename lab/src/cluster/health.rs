//! The health of the lab's watches, from facts: each stream is live only once it has listed
//! since its last error (a list is the whole truth; see `watch::collection`), stale from the
//! moment it lost the cluster, with the last moment it was known to match and why it stopped.
//! The tutor is live only when every stream is.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::problem::Problem;
use super::watch::StreamId;

/// Where one stream stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamHealth {
    /// Not listed yet, and nothing went wrong so far.
    Connecting,
    /// Listed since its last error: what it shows is the cluster now.
    Live,
    /// It lost the cluster. `since` is the last moment it was known to match (`None` when it
    /// never listed: it has nothing to show).
    Stale {
        since: Option<Timestamp>,
        problem: Problem,
    },
}

/// Streams failing with the same problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failing<'a> {
    pub problem: &'a Problem,
    pub streams: Vec<&'a StreamId>,
    /// Every stream fails this way.
    pub all: bool,
}

/// Where the streams stand together, for the header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overall<'a> {
    Live,
    Connecting,
    /// Some stream is stale: since when the oldest data is (`None` when a stream never listed),
    /// and which fail and why.
    Stale {
        since: Option<Timestamp>,
        failing: Vec<Failing<'a>>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Health {
    streams: BTreeMap<StreamId, StreamHealth>,
}

impl Health {
    /// Every stream connecting.
    pub fn new(streams: impl IntoIterator<Item = StreamId>) -> Health {
        Health {
            streams: streams
                .into_iter()
                .map(|s| (s, StreamHealth::Connecting))
                .collect(),
        }
    }

    /// The streams watched.
    pub fn streams(&self) -> impl Iterator<Item = &StreamId> {
        self.streams.keys()
    }

    /// The stream listed: it is live.
    pub fn listed(&mut self, stream: &StreamId) {
        self.streams.insert(stream.clone(), StreamHealth::Live);
    }

    /// The stream lost the cluster at `at`; one already stale keeps its first moment.
    pub fn lost(&mut self, stream: &StreamId, problem: Problem, at: Timestamp) {
        let since = match self.streams.get(stream) {
            Some(StreamHealth::Live) => Some(at),
            Some(StreamHealth::Stale { since, .. }) => *since,
            Some(StreamHealth::Connecting) | None => None,
        };
        self.streams
            .insert(stream.clone(), StreamHealth::Stale { since, problem });
    }

    /// The server cannot resume the stream (410 Gone): it may have missed changes until it
    /// re-lists.
    pub fn expired(&mut self, stream: &StreamId, at: Timestamp) {
        self.lost(stream, Problem::HistoryExpired, at);
    }

    /// Where `stream` stands (a stream not watched is no one's business: live).
    pub fn of(&self, stream: &StreamId) -> &StreamHealth {
        self.streams.get(stream).unwrap_or(&StreamHealth::Live)
    }

    pub fn is_live(&self, stream: &StreamId) -> bool {
        *self.of(stream) == StreamHealth::Live
    }

    pub fn all_live(&self) -> bool {
        self.streams.values().all(|h| *h == StreamHealth::Live)
    }

    /// Some stream is stale (as opposed to all live or still connecting).
    pub fn any_stale(&self) -> bool {
        self.streams
            .values()
            .any(|h| matches!(h, StreamHealth::Stale { .. }))
    }

    /// Why the cluster gives no answer, when a stream says so.
    pub fn unreachable(&self) -> Option<&Problem> {
        self.streams.values().find_map(|h| match h {
            StreamHealth::Stale { problem, .. } if problem.unreachable() => Some(problem),
            _ => None,
        })
    }

    /// The oldest moment the data of `streams` is known to match the cluster: `None` when all
    /// are live, `Some(None)` when one never listed.
    pub fn as_of<'a>(
        &self,
        streams: impl IntoIterator<Item = &'a StreamId>,
    ) -> Option<Option<Timestamp>> {
        let mut oldest: Option<Option<Timestamp>> = None;
        for s in streams {
            if let StreamHealth::Stale { since, .. } = self.of(s) {
                oldest = Some(match (oldest, since) {
                    (Some(None), _) | (_, None) => None,
                    (Some(Some(a)), Some(b)) => Some(a.min(*b)),
                    (None, Some(b)) => Some(*b),
                });
            }
        }
        oldest
    }

    /// The oldest moment any stale stream is known to have matched the cluster.
    pub fn oldest(&self) -> Option<Timestamp> {
        self.as_of(self.streams.keys()).flatten()
    }

    pub fn overall(&self) -> Overall<'_> {
        if self.all_live() {
            return Overall::Live;
        }
        let stale: Vec<(&StreamId, &Problem)> = self
            .streams
            .iter()
            .filter_map(|(s, h)| match h {
                StreamHealth::Stale { problem, .. } => Some((s, problem)),
                _ => None,
            })
            .collect();
        if stale.is_empty() {
            return Overall::Connecting;
        }
        let mut failing: Vec<Failing<'_>> = Vec::new();
        for (stream, problem) in stale {
            match failing.iter_mut().find(|f| f.problem == problem) {
                Some(f) => f.streams.push(stream),
                None => failing.push(Failing {
                    problem,
                    streams: vec![stream],
                    all: false,
                }),
            }
        }
        for f in &mut failing {
            f.all = f.streams.len() == self.streams.len();
        }
        Overall::Stale {
            since: self.oldest(),
            failing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Kind;

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn a_stream_is_live_once_listed_and_stale_from_its_first_error_until_it_lists_again() {
        let apps = StreamId::app("src-helm");
        let jobs = StreamId::new("src-waves", Kind::Job);
        let mut h = Health::new([apps.clone(), jobs.clone()]);
        assert_eq!(h.overall(), Overall::Connecting);
        h.listed(&apps);
        assert_eq!(h.overall(), Overall::Connecting, "jobs not listed yet");
        h.listed(&jobs);
        assert_eq!(h.overall(), Overall::Live);

        let refused =
            Problem::no_answer("https://127.0.0.1:1", crate::cluster::problem::Why::Refused);
        h.lost(&jobs, refused.clone(), at("2026-01-01T10:00:00Z"));
        h.lost(&jobs, refused.clone(), at("2026-01-01T10:00:05Z"));
        assert!(h.is_live(&apps) && !h.is_live(&jobs));
        assert_eq!(
            h.overall(),
            Overall::Stale {
                since: Some(at("2026-01-01T10:00:00Z")),
                failing: vec![Failing {
                    problem: &refused,
                    streams: vec![&jobs],
                    all: false
                }]
            },
            "the first moment is kept"
        );
        assert_eq!(h.unreachable(), Some(&refused));
        assert_eq!(h.as_of([&apps]), None, "the Applications are still live");
        assert_eq!(
            h.as_of([&apps, &jobs]),
            Some(Some(at("2026-01-01T10:00:00Z")))
        );
        h.listed(&jobs);
        assert_eq!(h.overall(), Overall::Live);
        assert_eq!(h.unreachable(), None);
    }

    #[test]
    fn an_expired_watch_is_stale_until_it_relists_but_the_cluster_is_reachable() {
        let apps = StreamId::app("src-helm");
        let mut h = Health::new([apps.clone()]);
        h.listed(&apps);
        h.expired(&apps, at("2026-01-01T10:00:00Z"));
        assert!(!h.all_live());
        assert_eq!(h.unreachable(), None);
        h.listed(&apps);
        assert!(h.all_live());
    }

    #[test]
    fn a_stream_that_never_listed_has_no_moment_to_show() {
        let apps = StreamId::app("src-helm");
        let cms = StreamId::new("src-helm", Kind::ConfigMap);
        let mut h = Health::new([apps.clone(), cms.clone()]);
        h.listed(&apps);
        let refused = Problem::Other("no".into());
        h.lost(&cms, refused.clone(), at("2026-01-01T10:00:00Z"));
        h.lost(&apps, refused.clone(), at("2026-01-01T10:00:01Z"));
        assert_eq!(h.as_of([&cms]), Some(None));
        assert_eq!(h.as_of([&apps]), Some(Some(at("2026-01-01T10:00:01Z"))));
        let Overall::Stale { since, failing } = h.overall() else {
            panic!("stale")
        };
        assert_eq!(since, None);
        assert_eq!(failing.len(), 1);
        assert!(failing[0].all);
    }
}
