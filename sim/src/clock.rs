//! The embedded cluster's clock: wall time sped up by `--speed`, so every timing rule (readiness
//! delays, wave delays, retry backoff) keeps its shape while tests run fast.
//!
//! All timestamps the cluster writes come from here, so durations read off objects
//! (`startedAt` → `finishedAt`, `creationTimestamp` → Available) are in cluster seconds.

use std::time::{Duration, Instant};

use jiff::Timestamp;

#[derive(Debug, Clone)]
pub struct Clock {
    started: Instant,
    origin: Timestamp,
    speed: f64,
}

impl Clock {
    /// A clock running `speed` times faster than the wall, starting now, or at `not_before`
    /// if that is later (a restarted sped-up cluster must never see time go backwards).
    pub fn new(speed: f64, not_before: Option<Timestamp>) -> Clock {
        let wall = Timestamp::now();
        let origin = match not_before {
            Some(t) if t > wall => t,
            _ => wall,
        };
        Clock {
            started: Instant::now(),
            origin,
            speed: speed.max(0.01),
        }
    }

    /// Cluster time now.
    pub fn now(&self) -> Timestamp {
        let elapsed = self.started.elapsed().mul_f64(self.speed);
        self.origin
            .checked_add(jiff::SignedDuration::try_from(elapsed).unwrap_or_default())
            .unwrap_or(self.origin)
    }

    /// Cluster time now as Kubernetes writes it: RFC 3339 in UTC, whole seconds.
    pub fn now_rfc3339(&self) -> String {
        rfc3339(self.now())
    }

    /// How long to really wait for `cluster` seconds to pass.
    pub fn real(&self, cluster: Duration) -> Duration {
        cluster.div_f64(self.speed)
    }
}

/// `2026-11-30T02:37:04Z`: whole seconds, as `metav1.Time` serialises.
pub fn rfc3339(t: Timestamp) -> String {
    let secs = t.as_second();
    Timestamp::from_second(secs)
        .map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_else(|_| t.to_string())
}

/// `2026-11-30T02:37:04.123456Z`: microseconds, as `metav1.MicroTime` serialises.
pub fn rfc3339_micro(t: Timestamp) -> String {
    t.strftime("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

/// Parses a Kubernetes timestamp; `None` when absent or malformed.
pub fn parse(s: &str) -> Option<Timestamp> {
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sped_up_clock_runs_faster_than_the_wall() {
        let clock = Clock::new(100.0, None);
        let before = clock.now();
        std::thread::sleep(Duration::from_millis(30));
        let passed = clock.now().duration_since(before);
        assert!(passed.as_secs_f64() >= 2.9, "{passed:?}");
        assert_eq!(
            clock.real(Duration::from_secs(10)),
            Duration::from_millis(100)
        );
    }

    #[test]
    fn a_restarted_clock_never_goes_back() {
        let later = Timestamp::now()
            .checked_add(jiff::SignedDuration::from_hours(5))
            .unwrap();
        let clock = Clock::new(1.0, Some(later));
        assert!(clock.now() >= later);
    }

    #[test]
    fn timestamps_have_whole_seconds() {
        let t: Timestamp = "2026-11-30T02:37:04.123Z".parse().unwrap();
        assert_eq!(rfc3339(t), "2026-11-30T02:37:04Z");
    }
}
