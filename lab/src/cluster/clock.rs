//! The cluster's clock. An embedded cluster run at `--speed N` keeps time N× faster than the
//! wall: every time it writes (Events, managedFields, operations) is on its clock, while the file
//! system dates files by the wall's. Whoever compares the two says one on the other's clock.

use jiff::{SignedDuration, Timestamp};

/// Whether a clock at `speed` keeps the wall's pace (`--speed 1`).
pub fn is_real_speed(speed: f64) -> bool {
    (speed - 1.0).abs() < f64::EPSILON
}

/// A cluster clock that runs `speed` times as fast as the wall clock: at wall time `wall_at`
/// it read `cluster_at`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FastClock {
    pub speed: f64,
    pub cluster_at: Timestamp,
    pub wall_at: Timestamp,
    /// The runs an embedded cluster's state dir keeps (`capa_sim::read_runs`): what its clock
    /// said at a wall time before this one was read, while another process served the lab,
    /// maybe at another speed. Empty: the pace now is assumed all along.
    pub runs: Vec<capa_sim::ClockRun>,
}

impl FastClock {
    /// The clock of a cluster that runs at `speed`, read from it once; `None` when it is the
    /// wall's (real speed, and not ahead) or the cluster does not say its time. An embedded
    /// cluster once run faster and restarted at real speed stays ahead (its clock never goes
    /// back): that clock runs at the wall's pace from a later time, and is said so too.
    pub async fn read(client: &kube::Client, speed: f64) -> Option<FastClock> {
        let cluster_at = crate::cluster::now(client).await.ok()?;
        FastClock::if_not_the_walls(speed, cluster_at, Timestamp::now())
    }

    /// The clock that read `cluster_at` at wall time `wall_at`, unless it is the wall's: at real
    /// speed and within the two seconds the cluster's whole-second Date header can be off.
    pub fn if_not_the_walls(
        speed: f64,
        cluster_at: Timestamp,
        wall_at: Timestamp,
    ) -> Option<FastClock> {
        let real_speed = is_real_speed(speed);
        let ahead = cluster_at.duration_since(wall_at).abs();
        if real_speed && ahead < SignedDuration::from_secs(2) {
            return None;
        }
        Some(FastClock {
            speed,
            cluster_at,
            wall_at,
            runs: Vec::new(),
        })
    }

    /// How far ahead of the wall a clock at real speed is; `None` when it runs faster.
    pub fn ahead_at_real_speed(&self) -> Option<SignedDuration> {
        is_real_speed(self.speed).then(|| self.cluster_at.duration_since(self.wall_at))
    }

    /// The cluster's time when the wall clock says `wall`.
    pub fn at(&self, wall: Timestamp) -> Timestamp {
        if wall < self.wall_at
            && let Some(then) = self.at_in_runs(wall)
        {
            return then;
        }
        let passed = wall.duration_since(self.wall_at).as_secs_f64() * self.speed;
        self.cluster_at
            .checked_add(SignedDuration::from_secs_f64(passed))
            .unwrap_or(self.cluster_at)
    }
}

impl FastClock {
    /// The cluster's time at a wall time before this clock was read, from the runs kept with
    /// the lab: within a run, at that run's pace; and never later than where the next run
    /// started (the clock never goes back, and it stood still while nothing served the lab).
    fn at_in_runs(&self, wall: Timestamp) -> Option<Timestamp> {
        let wall_ms = wall.as_millisecond();
        let i = self.runs.iter().rposition(|r| r.wall_ms <= wall_ms)?;
        let run = self.runs[i];
        // Milliseconds of a lab's life fit an f64 exactly enough.
        #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
        let ran = ((wall_ms - run.wall_ms) as f64 * run.speed) as i64;
        let next = self
            .runs
            .get(i + 1)
            .map_or(self.cluster_at.as_millisecond(), |n| n.cluster_ms);
        Timestamp::from_millisecond((run.cluster_ms + ran).min(next)).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    /// A lab done by `capa-tui do` (one process per lesson, each serving at ×5 for a minute)
    /// and reopened later: a file written during an earlier run is said at that run's pace, not
    /// at today's run extrapolated backwards (a walk read "✓ 03:43:21 waves.json is written"
    /// under a push at 03:51), and a file written while nothing served the lab is said at
    /// where the clock stood.
    #[test]
    fn a_time_before_this_run_is_said_on_the_clock_of_the_run_it_fell_in() {
        let ms = |s: &str| t(s).as_millisecond();
        let run = |wall: &str, cluster: &str, speed: f64| capa_sim::ClockRun {
            wall_ms: ms(wall),
            cluster_ms: ms(cluster),
            speed,
        };
        let mut clock =
            FastClock::if_not_the_walls(5.0, t("2026-03-01T13:00:00Z"), t("2026-03-01T12:00:00Z"))
                .unwrap();
        clock.runs = vec![
            // Lesson 5's process: a minute at ×5 from 10:00.
            run("2026-03-01T10:00:00Z", "2026-03-01T10:00:00Z", 5.0),
            // Today's: the cluster resumed at 10:05 (it stood still in between).
            run("2026-03-01T11:50:00Z", "2026-03-01T12:10:00Z", 5.0),
        ];
        assert_eq!(
            clock.at(t("2026-03-01T10:00:30Z")),
            t("2026-03-01T10:02:30Z"),
            "at lesson 5's pace"
        );
        assert_eq!(
            clock.at(t("2026-03-01T11:00:00Z")),
            t("2026-03-01T12:10:00Z"),
            "nothing served the lab: no later than where the next run began"
        );
        assert_eq!(
            clock.at(t("2026-03-01T11:51:00Z")),
            t("2026-03-01T12:15:00Z"),
            "in today's run, at its pace"
        );
        assert_eq!(
            clock.at(t("2026-03-01T12:01:00Z")),
            t("2026-03-01T13:05:00Z"),
            "after the clock was read, as before"
        );
        clock.runs.clear();
        assert_eq!(
            clock.at(t("2026-03-01T10:00:30Z")),
            t("2026-03-01T03:02:30Z"),
            "without the runs: today's pace backwards, as it was"
        );
    }

    #[test]
    fn a_cluster_at_real_speed_on_the_walls_time_has_no_clock_of_its_own() {
        let wall = t("2026-03-01T10:00:00Z");
        assert_eq!(
            FastClock::if_not_the_walls(1.0, t("2026-03-01T10:00:01Z"), wall),
            None
        );
    }

    /// A lab run at `--speed 10`, then reopened at real speed: its clock is an hour ahead, and
    /// a file written a minute ago was written a minute before the cluster's now.
    #[test]
    fn a_cluster_ahead_at_real_speed_is_said_on_its_own_clock() {
        let wall = t("2026-03-01T10:00:00Z");
        let clock = FastClock::if_not_the_walls(1.0, t("2026-03-01T11:00:00Z"), wall).unwrap();
        assert_eq!(
            clock.at(t("2026-03-01T10:01:00Z")),
            t("2026-03-01T11:01:00Z")
        );
        let fast = FastClock::if_not_the_walls(10.0, t("2026-03-01T10:00:00Z"), wall).unwrap();
        assert_eq!(
            fast.at(t("2026-03-01T10:01:00Z")),
            t("2026-03-01T10:10:00Z")
        );
    }
}
