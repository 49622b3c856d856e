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
    /// The wall's time when it started.
    wall: Timestamp,
    origin: Timestamp,
    speed: f64,
}

/// One run of a kept cluster's clock: from wall time `wall_ms` on, it ran from `cluster_ms` at
/// `speed`. The runs of a state dir say what the cluster's time was at any past wall time (a
/// file written an hour ago, while an earlier process served the lab at another speed).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClockRun {
    /// Milliseconds since the Unix epoch, on the wall's clock.
    pub wall_ms: i64,
    /// Milliseconds since the Unix epoch, on the cluster's clock.
    pub cluster_ms: i64,
    /// How many of the cluster's seconds passed in one of the wall's.
    pub speed: f64,
}

/// Where a state dir keeps its clock's runs.
pub const RUNS_FILE: &str = "clock-runs.json";

/// Runs kept: enough for any lab's life; a file that never grows without end.
const RUNS_KEPT: usize = 200;

/// The runs of the clock kept in `dir`, oldest first (none when there is no such file).
pub fn read_runs(dir: &std::path::Path) -> Vec<ClockRun> {
    std::fs::read(dir.join(RUNS_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Adds `run` to the runs kept in `dir`, written privately (`private_files`).
pub fn record_run(dir: &std::path::Path, run: ClockRun) -> std::io::Result<()> {
    let mut runs = read_runs(dir);
    runs.push(run);
    let skip = runs.len().saturating_sub(RUNS_KEPT);
    let kept: Vec<ClockRun> = runs.into_iter().skip(skip).collect();
    let bytes = serde_json::to_vec(&kept).map_err(std::io::Error::other)?;
    crate::private_files::write_private(&dir.join(RUNS_FILE), &bytes)
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
            wall,
            origin,
            speed: speed.max(0.01),
        }
    }

    /// This clock's run, to keep with the state (`record_run`).
    pub fn run(&self) -> ClockRun {
        ClockRun {
            wall_ms: self.wall.as_millisecond(),
            cluster_ms: self.origin.as_millisecond(),
            speed: self.speed,
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

    /// Each start of a kept cluster adds its run (wall time, cluster time, speed) to the state
    /// dir, oldest first, bounded.
    #[test]
    fn every_start_of_a_kept_cluster_keeps_its_clocks_run() {
        let dir = tempfile::tempdir().unwrap();
        drop(crate::store::Store::open(dir.path(), 5.0).unwrap());
        drop(crate::store::Store::open(dir.path(), 1.0).unwrap());
        let runs = read_runs(dir.path());
        assert_eq!(runs.iter().map(|r| r.speed).collect::<Vec<_>>(), [5.0, 1.0]);
        assert!(runs[0].wall_ms <= runs[1].wall_ms);
        assert!(
            runs[1].cluster_ms >= runs[0].cluster_ms,
            "the clock never goes back"
        );
        for _ in 0..RUNS_KEPT {
            record_run(dir.path(), runs[0]).unwrap();
        }
        assert_eq!(read_runs(dir.path()).len(), RUNS_KEPT);
    }

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
